// The analysis drivers: load the two versions, pick the method, build the product, run the
// iterations of a tool (pasda, prv, ardiff, dse), classify, and produce a RunResult.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pasda/analysis/time_policy.hpp"
#include "pasda/analysis/result.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/loader.hpp"
#include "pasda/terms/term.hpp"

namespace pasda::witness {
class JvmSession;
}

namespace pasda::analysis {

/// Bad input found by the analysis (missing method, unreadable file, ...): the CLI prints
/// "pasda-jvm: error: <file>: <reason>" and exits with status 2.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string reason)
      : std::runtime_error(file + ": " + reason), file_(std::move(file)), reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, reason_;
};

/// The default --timeout of a run, seconds (the CLI's and Options').
inline constexpr double kDefaultTimeoutS = 60;

struct Options {
  Tool mode = Tool::Pasda;        // --mode: the tool
  double timeout_s = kDefaultTimeoutS;  // whole run, wall clock
  int depth_limit = 10;            // the first round's budget (docs/depth-limit.md)
  /// Iterative deepening: while partitions cut by the depth limit leave the result undecided and
  /// time remains, the run is repeated with twice the budget (docs/depth-limit.md, "Deepening").
  bool deepen = true;
  /// Loops of code identical in both versions are replaced by shared uninterpreted functions
  /// of what they read (docs/depth-limit.md, "Summarised loops"); off: explored like others.
  bool loop_summaries = true;
  /// PASDA: before the iterations, try to prove the run EQ with the loops of the two versions
  /// coupled by inductive invariants (docs/depth-limit.md, "Coupled loops"); off: the paper's.
  bool induction = true;
  /// Partitions cut by the depth limit are searched by running the concrete product past the
  /// limit (TimePolicy::deep_search_share); off: they stay DEPTH_LIMITED.
  bool deep_search = true;
  /// PASDA: the first iteration gets TimePolicy::first_iteration_share of the run when a later
  /// one abstracts something; off: it may take the whole run (the paper's behaviour).
  bool split_time = true;
  terms::Arith arith = terms::Arith::Math;
  unsigned solver_timeout_ms = 0;  // 0: the default of docs/solver.md (classification queries)
  unsigned feasibility_timeout_ms = 0;  // 0: min(solver timeout, 250 ms) (branch feasibility checks)
  int heap_bound = 2;
  int max_array_length = 8;
  bool static_inputs = true;       // non-final statics of program classes hold arbitrary (shared) entry values
  bool compare_output = true;      // console output is compared like results
  bool identical_shortcut = true;  // identical code (the method and its reachable closure) is EQ without analysis
  std::string method;              // NAME or NAME:DESCRIPTOR ("" = pick the unique candidate)
  std::string class_name;          // --class, for directories and jars
  std::string classpath_old, classpath_new;
  std::string emit_product_dir;    // "" = do not emit
  std::string benchmark, expected; // recorded in the settings when given
  std::string replay = "auto";     // witness replay: auto (interpreter + JVM if available), jvm, interp, off
  double search_share = 0.25;      // share of the run's time for witness search (0 = off)
  /// --arith java: share of the run's time that classification queries ending Unknown at their
  /// limit may use before later queries get 100 ms each (issue 17; 0 = no budget).
  double hard_query_share = 0.25;
  /// --arith java: look for differences over the reals first and confirm them under Java (issue 17).
  bool math_first = true;
  /// --arith java, pasda mode: the exploration stops at the first NEQ partition (issue 17).
  bool neq_stops_exploration = true;
  /// The settle rule (--settle): once a partition of an iteration that abstracts nothing is
  /// neither EQ nor UNREACHABLE (DEPTH_LIMITED only without --deepen), the method cannot be EQ;
  /// its exploration goes on at most this many seconds looking for a NEQ, then ends. 0 = off
  /// (explore to the limit); a release diff's default is 1.
  double settle_s = 0;
  /// ... and at most this many partitions past the one that ruled EQ out (--settle-partitions;
  /// 0 = no count, the seconds alone). A settled method's grace rarely finds a NEQ, and when it
  /// does, it does within a few partitions (docs/release-diff.md, "The settle rule").
  int settle_partitions = 12;
  bool explain = true;             // explain NEQ partitions by minimal correction sets (issue 14)
  double explain_share = 0.2;      // at most this share of the time left per explanation, 1 s at most
  /// How the run divides its time (every share and cap, with its reason).
  TimePolicy time;
  /// A replay JVM kept across runs (a release diff's worker); null: one JVM per run.
  std::shared_ptr<witness::JvmSession> jvm_session;
};

/// One version as given on the command line, loaded.
struct Version {
  std::string path;  // what the user gave
  jvm::ClassFile cls;
  std::shared_ptr<jvm::ClassPath> classpath;
};

/// Load OLD or NEW: a .class file, a directory (class-path root) or a .jar; `className`
/// (dotted or internal) picks the class in a directory or jar. Throws InputError.
Version loadVersion(const std::string& path, const std::string& className, const std::string& classpath);

/// Method selection of the CLI (see docs/cli.md). Throws InputError listing the candidates.
std::string selectMethod(const Version& oldV, const Version& newV, const std::string& wanted);

/// Progress of a run, recorded as it happens, so that a run whose solver call does not
/// return in time can still be reported with everything finished so far. Thread-safe.
class RunMonitor {
 public:
  void header(const RunResult& run);
  void beginIteration(int index, const std::vector<std::string>& uifs);
  void partition(const PartitionResult& p);
  void endIteration(const IterationResult& it);
  /// A deeper round of iterative deepening starts with budget `depth`; `completed` is the last
  /// completed round, which the snapshot reports unless the deeper round has found a NEQ.
  void beginRound(const RunResult& completed, int depth);
  /// The run as far as it got, with the iteration in progress (if any) marked timed out.
  RunResult snapshot() const;

 private:
  RunResult partial() const;  // run_ with the iteration in progress closed (mu_ held)

  mutable std::mutex mu_;
  RunResult run_;
  std::optional<RunResult> completed_;  // the last completed round while a deeper one runs
  bool in_iteration_ = false;
};

/// Run the whole analysis. Never throws for analysis failures (they become ERROR results);
/// throws InputError for bad input.
RunResult analyze(const Version& oldV, const Version& newV, const Options& options, RunMonitor* monitor = nullptr);

/// analyze() with a hard wall-clock guarantee: if the analysis has not returned `grace_s`
/// seconds after its deadline (a solver call that ignores interrupts), the run is reported
/// from the monitor's snapshot and `abandoned` is set: the caller must then end the process
/// promptly (std::_Exit) after writing the results, because a thread is still running.
RunResult analyzeGuarded(const Version& oldV, const Version& newV, const Options& options, double grace_s,
                         bool& abandoned);

/// Write the product class, its exception class and the renamed versions under `dir` (as a
/// class-path root), so that `java -cp dir <product> args...` runs them. Returns the product's
/// dotted name.
std::string emitProduct(const Version& oldV, const Version& newV, const std::string& method, const std::string& dir);

}  // namespace pasda::analysis
