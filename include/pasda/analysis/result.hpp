// The results of one run, as plain values (strings and enums, no terms): what the store
// writes, what the report prints. Produced by the analysis drivers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pasda/analysis/tool.hpp"
#include "pasda/classify/classify.hpp"
#include "pasda/witness/replay_result.hpp"

namespace pasda::analysis {

using classify::Reachability;
using classify::Verdict;
using solver::Status;

/// One version's observable effect on a partition.
struct Effect {
  enum class Kind : std::uint8_t { Return, Throw, Void, None /* cut path: no effect */ };
  Kind kind = Kind::None;
  std::string value;      // Java-like rendering of the returned value (Return)
  std::string exception;  // dotted class name (Throw)
  /// Final state compared besides the return value (issue 7): ("this.count", "x + 1"), ...
  std::vector<std::pair<std::string, std::string>> state;
  std::string text() const;  // "return x + 1", "throw java.lang.ArithmeticException", "void"
};

/// A concrete input value of a witness.
struct WitnessValue {
  std::string name;     // parameter name (from the LocalVariableTable) or "p0", or a heap path
  std::string type;     // Java type, e.g. "double"
  std::string literal;  // pasteable Java literal, e.g. "-2.5", "Double.NaN", "2147483647"
  std::string exact;    // solver's exact value when it differs (e.g. "1/3"), else empty
};

/// Concrete re-execution of a witness (issue 8): the witness stage's record.
using Replay = witness::Replay;

/// One changed source line of an explanation (issue 14).
struct CauseLine {
  std::string side = "new";  // where the code is: "new" (changed or inserted) or "old" (deleted)
  int line = 0;
  std::string kind = "changed";  // "changed", "inserted", "deleted"
  std::string method;            // "name:descriptor" holding the line
  std::string old_code, new_code;  // source text (else a bytecode rendering); "" where a side has none
  std::vector<int> near_new_lines;  // deleted: the new version's lines right before and after the deletion
};

/// A minimal correction set: with the inputs fixed to the partition's witness, giving these
/// changed lines arbitrary values (the old behaviour among them) makes the outputs equal, and
/// no subset of them does.
struct Cause {
  std::vector<CauseLine> lines;
};

struct PartitionResult {
  int index = 0;  // 1-based, in closing order
  std::string path_condition;  // Java-like, conjuncts joined by " && " ("true" if empty)
  std::size_t constraint_count = 0;
  Effect old_effect, new_effect;
  std::vector<int> lines_old, lines_new;  // covered source lines per version, sorted
  Status pc_status = Status::Unknown;
  std::optional<Status> neq_status, eq_status;
  std::string reason_unknown;  // of whichever query answered unknown
  std::string neq_old, neq_new;  // outputs evaluated in the Neq model (when Sat)
  std::string differs;           // what differs in the Neq model, e.g. "this.count: 3 vs 4"
  bool uif_pc = false, uif_old = false, uif_new = false;
  bool depth_limited = false, timed_out = false;
  Reachability reachability = Reachability::MaybeReachable;
  Verdict output_class = Verdict::UNKNOWN;
  Verdict result = Verdict::UNKNOWN;
  std::vector<WitnessValue> witness;  // for NEQ / MAYBE_NEQ
  std::string witness_call;           // e.g. "snippet(1, -2.5)"
  std::string decided_by;             // "solver", "replay", "search"
  std::vector<Replay> replays;
  std::vector<Cause> causes;  // NEQ: up to three minimal correction sets, smallest first
  std::string cause_note;     // NEQ without causes: why (e.g. "explanation off", "time budget")
  double explain_s = 0;       // time the explanation took
  double time_s = 0;  // iteration clock when the partition closed
};

struct IterationResult {
  int index = 1;  // 1-based
  std::vector<std::string> uifs;  // abstracted regions / helpers, e.g. "UIF_1(x, y) = pc 4..17"
  std::vector<PartitionResult> partitions;
  Verdict result = Verdict::UNKNOWN;
  bool timed_out = false, depth_limited = false, has_uif = false;
  /// Paths cut by the decision budget (--depth-limit), not by the instruction or call-depth
  /// limits: a deeper round could complete them (not stored; 0 in runs read back).
  int depth_cuts = 0;
  /// The settle rule ended the exploration (--settle): a partition had ruled an EQ verdict
  /// out whatever the paths not explored (not stored; false in runs read back).
  bool settled = false;
  std::string error;
  double runtime_s = 0;
};

/// The seven steps of the paper's Table 10, seconds.
struct StepTimes {
  double initialization = 0, instrumentation = 0, symbolic_execution = 0, partition_classification = 0,
         program_classification = 0, refinement = 0, finalization = 0;
};

struct RunSettings {
  Tool tool = Tool::Pasda;
  std::string old_path, new_path;
  std::string class_old, class_new;  // dotted names
  std::string method;                // name:descriptor
  double timeout_s = 0;
  int depth_limit = 10;  // as given: the first round's budget
  bool deepen = false;   // iterative deepening of the depth limit (--deepen)
  std::string arith = "math";
  unsigned solver_timeout_ms = 0;
  int heap_bound = 0;
  std::string benchmark;  // case name when run by the study harness, else ""
  std::string expected;   // EQ/NEQ when known, else ""
  std::string version;    // pasda-jvm version
};

struct RunResult {
  RunSettings settings;
  std::vector<IterationResult> iterations;
  std::size_t reported_iteration = 0;  // 0-based index into iterations
  Verdict result = Verdict::UNKNOWN;
  bool timed_out = false;
  bool depth_limited = false, has_uif = false;
  /// Iterative deepening (docs/depth-limit.md): the depth limit of the reported round and the
  /// rounds run (1 without deepening; 0 when the pre-check or identical code decided).
  int depth_limit_used = 0;
  int deepening_rounds = 0;
  std::string deepening_note;  // why deepening stopped, "" when it was not needed or off
  /// What decided an EQ or NEQ result (docs/depth-limit.md, "Which mechanism decided"): "solver",
  /// "math", "replay" or "search" (how the NEQ partition was established), "identical"
  /// (identical code), "precheck" (signatures), "deepening" (a round deeper than the first),
  /// "induction" (coupled loops); "" for the other results.
  std::string decided_by;
  /// Induction (issue 13): what an attempt proved, or why it did not ("" when none was made).
  std::string induction_note;
  std::string precheck;  // reason when decided by the signature pre-check
  std::string errors;
  std::vector<std::string> warnings;
  double runtime_s = 0;
  StepTimes steps;
  std::string started_at;  // ISO 8601 UTC
};

}  // namespace pasda::analysis
