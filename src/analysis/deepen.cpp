// Iterative deepening of the depth limit (docs/depth-limit.md, "Deepening"): while the result
// of a run rests on paths cut by the depth limit's decision budget and time remains, the run is
// repeated with twice the budget. A deeper round replaces the last one only when it completed
// or established a NEQ; otherwise the last completed round stands.
#include <algorithm>
#include <chrono>

#include "iteration.hpp"

namespace pasda::analysis {

using symexec::Clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The largest budget a round may use (--depth-limit's own maximum).
constexpr int kMaxDeepenedLimit = 100'000;
/// A deeper round starts only with at least this much time before its deadline.

bool decisive(Verdict v) { return v == Verdict::EQ || v == Verdict::NEQ || v == Verdict::ERROR; }

/// A larger budget could change the result: it is undecided, the round ran to its end, and some
/// iteration has a partition cut by the decision budget (not by a heap, length or step bound).
bool wantsDeeperRound(const RunResult& run) {
  if (decisive(run.result) || run.timed_out || !run.errors.empty()) return false;
  for (const IterationResult& it : run.iterations)
    if (it.settled) return false;  // (the partition that settled it is no depth cut: it stays deeper)
  for (const IterationResult& it : run.iterations)
    if (it.depth_cuts > 0) return true;
  return false;
}

/// A deeper round replaces the last completed one when it completed itself (no iteration cut
/// by the deadline, no error), or when it found a NEQ partition: a NEQ partition is
/// established by its own query (and replay) whether or not the rest of the round finished,
/// as the iteration rules already accept (docs/classification.md, rule 2).
bool supersedes(const RunResult& deeper) {
  if (deeper.result == Verdict::NEQ) return true;
  return !deeper.timed_out && deeper.errors.empty() && deeper.result != Verdict::ERROR &&
         deeper.result != Verdict::TIMEOUT && !deeper.iterations.empty();
}

/// What the run leaves for the wrap-up after the last round: classification, the store and the
/// report (a twentieth of the timeout, at most half a second).
Clock::duration wrapUpMargin(const Options& o) {
  return std::chrono::microseconds(static_cast<long long>(std::min(o.time.wrapup_cap_s, o.timeout_s * o.time.wrapup_share) * 1e6));
}


/// One deeper round with `depth`, until `deadline`: the whole tool again (every iteration),
/// with the options of the run and the time that is left.
RunResult deeperRound(IterationEnv& env, const RunResult& last, int depth, Clock::time_point deadline) {
  const Options* user = env.options;
  const Clock::time_point runDeadline = env.deadline;
  Options o = *user;
  o.depth_limit = depth;
  o.timeout_s = std::max(1e-3, std::chrono::duration<double>(deadline - Clock::now()).count());
  env.options = &o;
  env.deadline = deadline;
  RunResult deeper;
  deeper.settings = last.settings;
  deeper.started_at = last.started_at;
  if (env.monitor) env.monitor->beginRound(last, depth);
  runTool(env, deeper);
  classifyRun(deeper);
  env.options = user;
  env.deadline = runDeadline;
  return deeper;
}

}  // namespace

void addSteps(StepTimes& to, const StepTimes& from) {
  to.initialization += from.initialization;
  to.instrumentation += from.instrumentation;
  to.symbolic_execution += from.symbolic_execution;
  to.partition_classification += from.partition_classification;
  to.program_classification += from.program_classification;
  to.refinement += from.refinement;
  to.finalization += from.finalization;
}

bool applyReportedIteration(RunResult& run) {
  std::vector<classify::IterationOutcome> outcomes;
  for (const IterationResult& it : run.iterations) outcomes.push_back({it.result, it.timed_out});
  if (outcomes.empty()) return false;
  run.reported_iteration = classify::reportedIteration(outcomes);
  const IterationResult& rep = run.iterations[run.reported_iteration];
  run.result = rep.result;
  run.depth_limited = rep.depth_limited;
  run.has_uif = rep.has_uif;
  return true;
}

void classifyRun(RunResult& run) {
  auto tf = Clock::now();
  if (!applyReportedIteration(run)) {
    run.result = Verdict::ERROR;
  } else {
    run.timed_out = run.iterations.back().timed_out;
    if (!run.iterations.back().error.empty()) run.errors = run.iterations.back().error;
  }
  run.steps.finalization += since(tf);
}

void runRounds(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  if (proveByRecursion(env, run) || proveByInduction(env, run)) {
    classifyRun(run);
    run.depth_limit_used = o.depth_limit;
    run.deepening_rounds = 1;
    return;
  }
  runTool(env, run);
  classifyRun(run);
  run.depth_limit_used = o.depth_limit;
  run.deepening_rounds = 1;
  if (!o.deepen) return;
  const Clock::time_point deadline =
      env.deadline == Clock::time_point::max() ? env.deadline : env.deadline - wrapUpMargin(o);
  int depth = o.depth_limit;
  while (wantsDeeperRound(run)) {
    if (depth >= kMaxDeepenedLimit) {
      run.deepening_note = "the depth limit reached its maximum, " + std::to_string(depth);
      return;
    }
    if (std::chrono::duration<double>(deadline - Clock::now()).count() < o.time.min_round_s) {
      run.deepening_note = "no time left for a round at depth " + std::to_string(std::max(1, 2 * depth));
      return;
    }
    depth = std::min(kMaxDeepenedLimit, std::max(1, 2 * depth));
    RunResult deeper = deeperRound(env, run, depth, deadline);
    ++run.deepening_rounds;
    StepTimes steps = run.steps;
    addSteps(steps, deeper.steps);
    if (!supersedes(deeper)) {
      run.steps = steps;
      run.deepening_note = "the round at depth " + std::to_string(depth) + " did not complete (" +
                           classify::verdictName(deeper.result) + (deeper.timed_out ? ", timed out" : "") +
                           "); the result of depth " + std::to_string(run.depth_limit_used) + " stands";
      return;
    }
    const int rounds = run.deepening_rounds;
    const std::string induction = run.induction_note;
    run = std::move(deeper);
    run.induction_note = induction;
    run.steps = steps;
    run.depth_limit_used = depth;
    run.deepening_rounds = rounds;
  }
}

}  // namespace pasda::analysis
