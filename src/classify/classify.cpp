// Classification stage: PASDA's partition and program-level rules as pure functions
// (reference-behaviour §6.2, §8, §9.1, §9.4, §12.2). No I/O, no solver access.
#include "pasda/classify/classify.hpp"

#include <algorithm>
#include <array>

namespace pasda::classify {

namespace {

struct VerdictInfo {
  Verdict verdict;
  const char* name;
};

constexpr std::array<VerdictInfo, 9> kVerdicts{{
    {Verdict::EQ, "EQ"},
    {Verdict::NEQ, "NEQ"},
    {Verdict::MAYBE_EQ, "MAYBE_EQ"},
    {Verdict::MAYBE_NEQ, "MAYBE_NEQ"},
    {Verdict::UNKNOWN, "UNKNOWN"},
    {Verdict::DEPTH_LIMITED, "DEPTH_LIMITED"},
    {Verdict::TIMEOUT, "TIMEOUT"},
    {Verdict::UNREACHABLE, "UNREACHABLE"},
    {Verdict::ERROR, "ERROR"},
}};

bool any(const std::vector<Verdict>& vs, Verdict v) {
  return std::find(vs.begin(), vs.end(), v) != vs.end();
}

}  // namespace

const char* reachabilityName(Reachability r) {
  switch (r) {
    case Reachability::Reachable: return "REACHABLE";
    case Reachability::Unreachable: return "UNREACHABLE";
    case Reachability::MaybeReachable: return "MAYBE_REACHABLE";
  }
  return "?";
}

std::optional<Reachability> parseReachability(std::string_view s) {
  for (Reachability r : {Reachability::Reachable, Reachability::Unreachable, Reachability::MaybeReachable}) {
    if (s == reachabilityName(r)) return r;
  }
  return std::nullopt;
}

const char* verdictName(Verdict v) {
  for (const auto& info : kVerdicts) {
    if (info.verdict == v) return info.name;
  }
  return "?";
}

std::optional<Verdict> parseVerdict(std::string_view s) {
  for (const auto& info : kVerdicts) {
    if (s == info.name) return info.verdict;
  }
  return std::nullopt;
}

// Table 1.
Reachability reachability(bool uifInPc, Status pcQuery) {
  switch (pcQuery) {
    case Status::Unsat: return Reachability::Unreachable;
    case Status::Unknown: return Reachability::MaybeReachable;
    case Status::Sat: return uifInPc ? Reachability::MaybeReachable : Reachability::Reachable;
  }
  return Reachability::MaybeReachable;
}

// Table 2.
Verdict outputClass(bool uif, std::optional<Status> neq, std::optional<Status> eq) {
  const Status n = neq.value_or(Status::Unknown);
  const Status e = eq.value_or(Status::Unknown);
  switch (n) {
    case Status::Unsat:
      return Verdict::EQ;
    case Status::Unknown:
      switch (e) {
        case Status::Sat: return Verdict::MAYBE_EQ;
        case Status::Unsat: return Verdict::NEQ;
        case Status::Unknown: return Verdict::UNKNOWN;
      }
      return Verdict::UNKNOWN;
    case Status::Sat:
      if (!uif) return Verdict::NEQ;
      // With an over-approximating symbol the difference may be spurious, unless the outputs
      // can never be equal on this path.
      return e == Status::Unsat ? Verdict::NEQ : Verdict::MAYBE_NEQ;
  }
  return Verdict::UNKNOWN;
}

Verdict partitionVerdict(const PartitionFacts& f) {
  const Reachability r = reachability(f.uif_pc, f.pc);
  if (r == Reachability::Unreachable) return Verdict::UNREACHABLE;
  if (f.timed_out) return Verdict::TIMEOUT;
  if (f.depth_limited) return Verdict::DEPTH_LIMITED;
  const Verdict out = outputClass(f.uif_pc || f.uif_out, f.neq, f.eq);
  if (r == Reachability::MaybeReachable && out == Verdict::NEQ) return Verdict::MAYBE_NEQ;
  return out;
}

Verdict iterationVerdict(const IterationFacts& f) {
  const auto& ps = f.partitions;
  // 1. internal failure
  if (f.error || any(ps, Verdict::ERROR)) return Verdict::ERROR;
  // 2. a real difference wins over everything undecided
  if (any(ps, Verdict::NEQ)) return Verdict::NEQ;
  // 3. proof: not cut by the deadline, at least one EQ, nothing but EQ and UNREACHABLE.
  //    (All-UNREACHABLE is not a proof: rule 9.)
  const bool allEqOrUnreachable = std::all_of(ps.begin(), ps.end(), [](Verdict v) {
    return v == Verdict::EQ || v == Verdict::UNREACHABLE;
  });
  if (!f.timed_out && allEqOrUnreachable && any(ps, Verdict::EQ)) return Verdict::EQ;
  // 4., 5. best-effort classes
  if (any(ps, Verdict::MAYBE_NEQ)) return Verdict::MAYBE_NEQ;
  if (any(ps, Verdict::MAYBE_EQ) || any(ps, Verdict::EQ)) return Verdict::MAYBE_EQ;
  // 6. nothing recorded: TIMEOUT when the deadline cut the iteration (§9.4 applied directly),
  //    UNKNOWN otherwise (the reference's pre-2024 behaviour).
  if (ps.empty()) return f.timed_out ? Verdict::TIMEOUT : Verdict::UNKNOWN;
  if (any(ps, Verdict::UNKNOWN)) return Verdict::UNKNOWN;
  // 7., 8.
  if (any(ps, Verdict::DEPTH_LIMITED)) return Verdict::DEPTH_LIMITED;
  if (f.timed_out || any(ps, Verdict::TIMEOUT)) return Verdict::TIMEOUT;
  // 9. only UNREACHABLE partitions: the reference's classifier fails here.
  return Verdict::ERROR;
}

std::size_t reportedIteration(const std::vector<IterationOutcome>& iterations) {
  if (iterations.empty()) return 0;
  const std::size_t last = iterations.size() - 1;
  const IterationOutcome& l = iterations[last];
  if (!l.timed_out || iterations.size() == 1) return last;
  if (l.verdict == Verdict::EQ || l.verdict == Verdict::NEQ || l.verdict == Verdict::ERROR) return last;
  return last - 1;
}

Verdict withoutBestEffort(Verdict v) {
  return (v == Verdict::MAYBE_EQ || v == Verdict::MAYBE_NEQ) ? Verdict::UNKNOWN : v;
}

Verdict summaryVerdict(const SummaryFacts& f) {
  const Verdict equivalent = f.depth_limited ? Verdict::MAYBE_EQ : Verdict::EQ;
  if (f.summaries_empty) return equivalent;
  switch (f.neq.value_or(Status::Unknown)) {
    case Status::Unsat: return equivalent;
    case Status::Unknown: return Verdict::UNKNOWN;
    case Status::Sat:
      if (!f.uif) return Verdict::NEQ;
      return f.eq == Status::Unsat ? Verdict::NEQ : Verdict::MAYBE_NEQ;
  }
  return Verdict::UNKNOWN;
}

int exitCode(Verdict v) {
  switch (v) {
    case Verdict::EQ: return 0;
    case Verdict::NEQ: return 1;
    case Verdict::ERROR: return 2;
    case Verdict::MAYBE_EQ:
    case Verdict::MAYBE_NEQ:
    case Verdict::UNKNOWN:
    case Verdict::DEPTH_LIMITED:
    case Verdict::TIMEOUT:
    case Verdict::UNREACHABLE:
      return 3;
  }
  return 2;
}

}  // namespace pasda::classify
