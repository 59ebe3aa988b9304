// PASDA's classification rules as pure functions (paper Tables 1 and 2, §3.4, §3.6;
// ../shared/docs/reference-behaviour.md §6, §8, §9, §12.2).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "pasda/solver/status.hpp"

namespace pasda::classify {

using solver::Status;

enum class Reachability : std::uint8_t { Reachable, Unreachable, MaybeReachable };
const char* reachabilityName(Reachability r);  // "REACHABLE", "UNREACHABLE", "MAYBE_REACHABLE"
/// Inverse of reachabilityName (exact spelling); nullopt for anything else.
std::optional<Reachability> parseReachability(std::string_view s);

enum class Verdict : std::uint8_t {
  EQ, NEQ, MAYBE_EQ, MAYBE_NEQ, UNKNOWN, DEPTH_LIMITED, TIMEOUT, UNREACHABLE, ERROR,
};
const char* verdictName(Verdict v);  // "EQ", "MAYBE_NEQ", ...
std::optional<Verdict> parseVerdict(std::string_view s);

/// Table 1. `uifInPc`: the path condition contains an over-approximating function symbol
/// (a UIF, an abstracted helper, or an inexact library function).
Reachability reachability(bool uifInPc, Status pcQuery);

/// Table 2: output class from the Neq-query and Eq-query. `uif`: any over-approximating symbol
/// in the path condition or in either output. A missing status counts as Unknown.
Verdict outputClass(bool uif, std::optional<Status> neq, std::optional<Status> eq);

struct PartitionFacts {
  Status pc = Status::Unknown;
  std::optional<Status> neq, eq;  // absent for cut partitions
  bool uif_pc = false;
  bool uif_out = false;           // in either output (the pc is added by the function)
  bool depth_limited = false;
  bool timed_out = false;
};
/// Overall partition class, §6.2: UNREACHABLE > TIMEOUT > DEPTH_LIMITED > combined
/// (MAYBE_REACHABLE turns NEQ into MAYBE_NEQ).
Verdict partitionVerdict(const PartitionFacts& f);

struct IterationFacts {
  std::vector<Verdict> partitions;
  bool error = false;      // the iteration failed internally
  bool timed_out = false;  // the deadline cut the iteration
};
/// Program-level class of one iteration, §8 with the TIMEOUT rule of §9.4 applied directly
/// (deadline hit before any partition was recorded -> TIMEOUT). Only-UNREACHABLE -> ERROR.
Verdict iterationVerdict(const IterationFacts& f);

struct IterationOutcome {
  Verdict verdict;
  bool timed_out;
};
/// §9.1: index (0-based) of the iteration whose result the run reports.
std::size_t reportedIteration(const std::vector<IterationOutcome>& iterations);

/// PRV reports no best-effort classes: MAYBE_EQ and MAYBE_NEQ become UNKNOWN.
Verdict withoutBestEffort(Verdict v);

/// §12.2: retrofitted class of a summary-based (ARDiff/DSE) iteration.
struct SummaryFacts {
  bool summaries_empty = false;  // no path of either version reached a return
  std::optional<Status> neq;     // Neq query over both summaries
  std::optional<Status> eq;      // Eq-possibility query (only asked when neq is Sat and uif)
  bool uif = false;
  bool depth_limited = false;    // either version had a cut path
};
Verdict summaryVerdict(const SummaryFacts& f);

/// Exit status of the CLI: 0 EQ, 1 NEQ, 2 ERROR, 3 everything undecided.
int exitCode(Verdict v);

}  // namespace pasda::classify
