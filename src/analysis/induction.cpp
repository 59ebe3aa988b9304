// Induction (issue 13; docs/depth-limit.md, "Coupled loops"): before PASDA's iterations, one
// iteration over the product with the outermost loops of the compared method coupled — each
// version's loop summarised by its own functions, the two related by an invariant proved
// inductive over their bodies (symexec's LoopCoupler). Only an EQ result counts: it holds for
// every input, whatever the trip counts. Anything else leaves the run to the tool's iterations.
#include <chrono>

#include "iteration.hpp"
#include "pasda/diff/loops.hpp"

namespace pasda::analysis {

using symexec::Clock;

namespace {

/// The outermost summarisable loops of one version's compared method whose reads are locals only.
std::vector<diff::LoopSummary> outermostLoops(const jvm::ClassFile& cf, const std::string& name, const std::string& desc) {
  std::vector<diff::LoopSummary> out;
  const jvm::Method* m = cf.findMethod(name, desc);
  if (!m) return out;
  for (diff::LoopSummary& l : diff::summarisableLoops(cf, *m))
    if (l.depth == 0) out.push_back(std::move(l));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.header_pc < b.header_pc; });
  return out;
}

symexec::LoopSummaryHook hookOf(const diff::LoopSummary& l) {
  symexec::LoopSummaryHook h;
  h.header_pc = l.header_pc;
  h.reads = l.reads;
  h.ref_reads = l.ref_reads;
  h.writes = l.writes;
  h.exits = l.exits;
  h.returns = l.returns;
  h.exceptions = l.exceptions;
  return h;
}

}  // namespace

std::vector<symexec::CoupledLoop> couplableLoops(const Prepared& p) {
  const std::vector<diff::LoopSummary> oldLoops = outermostLoops(p.old_cls, p.name, p.old_descriptor);
  const std::vector<diff::LoopSummary> newLoops = outermostLoops(p.new_cls, p.name, p.new_descriptor);
  std::vector<symexec::CoupledLoop> out;
  if (oldLoops.empty() || oldLoops.size() != newLoops.size()) return out;
  for (std::size_t i = 0; i < oldLoops.size(); ++i) {
    // Loops over arrays need the arrays' contents as loop state: not coupled (yet).
    if (!oldLoops[i].ref_reads.empty() || !newLoops[i].ref_reads.empty()) return {};
    if (oldLoops[i].exits.size() != newLoops[i].exits.size()) return {};
    symexec::CoupledLoop c;
    c.pair = static_cast<int>(i) + 1;
    c.method[pasda::Version::kOld] = p.old_name + "." + p.name + ":" + p.old_descriptor;
    c.method[pasda::Version::kNew] = p.new_name + "." + p.name + ":" + p.new_descriptor;
    c.loop[pasda::Version::kOld] = hookOf(oldLoops[i]);
    c.loop[pasda::Version::kNew] = hookOf(newLoops[i]);
    out.push_back(std::move(c));
  }
  return out;
}

bool proveByInduction(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  if (!o.induction || o.mode != Tool::Pasda) return false;
  IterationPlan plan;
  plan.coupled = couplableLoops(env.prepared);
  if (plan.coupled.empty()) return false;
  const Clock::time_point runDeadline = env.deadline;
  if (env.deadline != Clock::time_point::max()) {
    const auto left = env.deadline - Clock::now();
    env.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(left * o.time.induction_share);
  }
  StepTimes steps;
  RunMonitor* monitor = env.monitor;  // an attempt that fails is not part of the run's progress
  env.monitor = nullptr;
  const std::set<std::string> warnings = env.warnings;
  IterationResult it = runProductIteration(env, plan, steps);
  env.monitor = monitor;
  env.deadline = runDeadline;
  std::string invariants;
  for (const std::string& u : it.uifs) invariants += (invariants.empty() ? "" : "; ") + u;
  if (it.result == Verdict::EQ && !it.timed_out && it.error.empty()) {
    run.iterations.push_back(std::move(it));
    run.steps = steps;
    run.induction_note = "proved: " + invariants;
    if (monitor) {
      const IterationResult& done = run.iterations.back();
      monitor->beginIteration(done.index, done.uifs);
      for (const PartitionResult& p : done.partitions) monitor->partition(p);
      monitor->endIteration(done);
    }
    return true;
  }
  env.warnings = warnings;  // (the attempt's own warnings went with it)
  run.steps = steps;  // the attempt's time counts in the run's steps
  run.induction_note = "not proved (" + std::string(classify::verdictName(it.result)) +
                       (it.timed_out ? ", timed out" : "") + (it.error.empty() ? "" : ", " + it.error) + ")" +
                       (invariants.empty() ? "" : ": " + invariants);
  return false;
}

}  // namespace pasda::analysis
