// Internal to symexec: the explorer drives the paths of one exploration (DFS work list, forks,
// depth budget, solver sync, deadline, partitions to the sink). It knows nothing of bytecode:
// the interpreter's step function is passed to run().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "state.hpp"

namespace pasda::symexec {

/// Owns the DFS work list, keeps the solver's assertion stack equal to the current path
/// condition, decides branches (a solver model of the parent path first, then incremental
/// feasibility checks), spends the depth budget, watches the deadline and hands finished
/// paths to the partition sink.
class Explorer {
 public:
  Explorer(terms::TermManager& tm, solver::Solver& solver, const ExecOptions& opt);
  ~Explorer();
  Explorer(const Explorer&) = delete;
  Explorer& operator=(const Explorer&) = delete;

  /// Start an exploration: fresh statistics and work list; `inputVars` are the variables a
  /// solver model must assign (more are added as the input heap materialises values).
  void begin(const PartitionSink& sink, std::vector<Term> inputVars);

  /// Explore from `initial` until the work list is empty or time is up. `step(State&)` runs
  /// one instruction and returns a StepOutcome; the solver is left with no assertions.
  template <class StepFn>
  void run(State initial, StepFn&& step);

  // --- decisions (callable from a step) ------------------------------------------------
  /// Decide a branch on a Bool term. Returns the direction this state takes; the other
  /// feasible direction is queued as a copy that re-executes the current instruction.
  /// nullopt: the path ended (cut by the depth limit, time up, or infeasible).
  std::optional<bool> branch(State& s, Term cond, bool counted);
  /// A structural choice among n alternatives (heap shapes): this state takes 0, copies
  /// re-executing the current instruction take the others.
  int choose(State& s, int n);
  /// Called at the start of an instruction whose decisions may be separated by effects (a
  /// library model, the product's state comparison), before any effect: if `s` is a forked
  /// copy re-executing it and forks anew past its replayed decisions, the new copies start
  /// from this state rather than from one holding the replayed part's effects. (A state copy,
  /// so only for such instructions, and only while replaying.)
  void keepInstructionStart(const State& s) {
    if (s.replay.empty()) return;
    replay_start_ = s;
    // Operands this instruction popped already go back: the copy starts the instruction.
    Frame& f = replay_start_->frames.back();
    for (auto it = s.popped.rbegin(); it != s.popped.rend(); ++it) f.stack.push_back(*it);
    replay_start_->popped.clear();
  }

  /// Add `cond`, a fact true of every real run reaching this point, to the path condition
  /// without forking. false: the path with it is infeasible; the caller ends the path.
  bool assume(State& s, Term cond);
  /// Which of `candidates` (Bool terms) the path condition implies: rounds of one query each
  /// (the path and the negated conjunction of what is left), a model of which drops what it
  /// falsifies. Where the solver cannot decide, only the candidates that are true as terms
  /// (equal terms, equal literals) are implied.
  std::vector<bool> implied(State& s, const std::vector<Term>& candidates);

  // --- ending paths ----------------------------------------------------------------------
  void endPath(State& s, RawPartition&& p);
  InputShape shapeOf(const State& s, const InputObject& o) const;
  /// Why a path is cut: Decisions, the depth limit's budget of counted decisions; Depth, another
  /// bound of the exploration (heap bound, array and string lengths); Steps, CallDepth.
  enum class Cut : std::uint8_t { Decisions, Depth, Steps, CallDepth };
  void cutPath(State& s, Cut why);
  /// A warning: recorded once per exploration and in the path's own list.
  void note(State& s, const std::string& warning);
  void addInputVar(Term v) { input_vars_.push_back(v); }

  bool timeUp();
  ExecStats& stats() { return stats_; }
  /// Pop every assertion (after an exploration, also an aborted one).
  void clearSolver() { syncSolver({}); }

 private:
  class Watchdog;
  void syncSolver(const std::vector<Term>& pc);
  solver::CheckResult checkWith(const std::vector<Term>& pc, Term extra);
  std::shared_ptr<const Assignment> currentModel();
  /// Value of a Bool term under an assignment (nullopt if it does not fold to a literal).
  std::optional<bool> evalUnder(Term t, const Assignment& a);
  /// Queue a copy of the state at the start of the current instruction that re-executes it,
  /// replaying the decisions `s` took so far in it, then `decision`.
  State& queueReplay(State& s, int decision);
  void startWatchdog();
  void stopWatchdog();

  terms::TermManager& tm_;
  solver::Solver& solver_;
  const ExecOptions& opt_;
  const PartitionSink* sink_ = nullptr;
  std::vector<State> work_;        // pending states (DFS)
  std::vector<Term> asserted_;     // one conjunct per solver push level
  std::vector<Term> input_vars_;   // variables of the inputs (for models)
  terms::TermManager scratch_{terms::Arith::Java};  // concrete evaluation of conditions under models
  ExecStats stats_;
  bool stop_ = false;
  /// The copy queued by the current instruction's first fork (an index into work_). It is the
  /// state before the instruction had any effect, so later forks of the same instruction copy
  /// it rather than the current state, whose effects (materialised input fields, objects a
  /// model allocated) the re-execution would otherwise meet a second time.
  std::optional<std::size_t> first_fork_;
  /// The state before the current instruction of a forked copy that re-executes it, kept when
  /// the instruction asked for it (keepInstructionStart).
  std::optional<State> replay_start_;
  std::unique_ptr<Watchdog> watchdog_;  // running while an exploration with a deadline runs
};

template <class StepFn>
void Explorer::run(State initial, StepFn&& step) {
  startWatchdog();
  try {
    work_.push_back(std::move(initial));
    while (!work_.empty()) {
      if (timeUp()) break;
      State s = std::move(work_.back());
      work_.pop_back();
      for (;;) {
        if ((++stats_.instructions & 255) == 0 && timeUp()) break;
        if (++s.steps > opt_.max_steps_per_path) {
          cutPath(s, Cut::Steps);
          break;
        }
        first_fork_.reset();
        StepOutcome r = step(s);
        replay_start_.reset();
        s.replay.clear();
        s.replay_pos = 0;
        if (r == StepOutcome::Ended) break;
      }
      if (stop_) break;
    }
  } catch (...) {
    stopWatchdog();
    syncSolver({});
    throw;
  }
  stopWatchdog();
  syncSolver({});
}

}  // namespace pasda::symexec
