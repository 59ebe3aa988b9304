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

/// The outermost summarisable loops of one version's compared method; `why` gets the reasons of
/// the loops that are not.
std::vector<diff::LoopSummary> outermostLoops(const jvm::ClassFile& cf, const std::string& name, const std::string& desc,
                                              const Abstraction& abs, std::vector<std::string>& why) {
  std::vector<diff::LoopSummary> out;
  const jvm::Method* m = cf.findMethod(name, desc);
  if (!m) return out;
  for (diff::LoopSummary& l : diff::summarisableLoops(cf, *m, &why, &abs.helpers))
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

/// Is the loop with header `pc` inside one of the abstracted regions of version `v`'s method?
bool insideRegion(const diff::MatchResult* match, const Abstraction& abs, const std::string& method, pasda::Version v,
                  std::uint32_t pc) {
  if (!match) return false;
  for (const diff::Region& r : match->regions)
    if (abs.regions.count(r.id) && r.method == method && r.start_pc[v] <= pc && pc < r.exit_pc[v]) return true;
  return false;
}

std::vector<symexec::CoupledLoop> couplableLoops(const Prepared& p, const diff::MatchResult* match,
                                                 const Abstraction& abs, std::string* why) {
  std::vector<std::string> reasons;
  std::vector<diff::LoopSummary> oldLoops = outermostLoops(p.old_cls, p.name, p.old_descriptor, abs, reasons);
  std::vector<diff::LoopSummary> newLoops = outermostLoops(p.new_cls, p.name, p.new_descriptor, abs, reasons);
  // Loops in abstracted regions (unchanged whole loops) are functions of the regions already.
  const std::string method = p.name + ":" + p.descriptor;
  std::erase_if(oldLoops, [&](const auto& l) { return insideRegion(match, abs, method, pasda::Version::kOld, l.header_pc); });
  std::erase_if(newLoops, [&](const auto& l) { return insideRegion(match, abs, method, pasda::Version::kNew, l.header_pc); });
  std::vector<symexec::CoupledLoop> out;
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::vector<symexec::CoupledLoop>{};
  };
  if (!reasons.empty()) return fail("a loop cannot be summarised: " + reasons.front());
  if (oldLoops.empty()) return fail("");
  if (oldLoops.size() != newLoops.size())
    return fail("the versions have " + std::to_string(oldLoops.size()) + " and " + std::to_string(newLoops.size()) + " loops");
  for (std::size_t i = 0; i < oldLoops.size(); ++i) {
    // Loops over arrays need the arrays' contents as loop state: not coupled (yet).
    if (!oldLoops[i].ref_reads.empty() || !newLoops[i].ref_reads.empty()) return fail("a loop reads an array or a reference");
    if (oldLoops[i].exits.size() != newLoops[i].exits.size()) return fail("two loops have different numbers of exits");
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

namespace {

/// Append `note` to the run's induction note (the recursion rule's, then the loops').
void addNote(RunResult& run, const std::string& note) {
  run.induction_note += (run.induction_note.empty() ? "" : "; ") + note;
}

/// Run a proof-only iteration (`plan`: coupled loops or shared recursion) with a share of the
/// time left; its EQ becomes the run's only iteration, anything else leaves the run as it was
/// (the attempt's time counted) with a note saying what the attempt found.
bool attemptProof(IterationEnv& env, RunResult& run, const IterationPlan& plan, const std::string& label) {
  const Options& o = *env.options;
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
    addSteps(run.steps, steps);
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
  addSteps(run.steps, steps);  // the attempt's time counts in the run's steps
  std::map<std::string, int> classes;  // the attempt's partitions by class, e.g. "3 EQ, 1 DEPTH_LIMITED"
  for (const PartitionResult& p : it.partitions) ++classes[classify::verdictName(p.result)];
  std::string counts;
  for (const auto& [cls, n] : classes) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + cls;
  addNote(run, label + "not proved (" + std::string(classify::verdictName(it.result)) +
                       (it.timed_out ? ", timed out" : "") + (it.error.empty() ? "" : ", " + it.error) +
                       (counts.empty() ? "" : "; partitions: " + counts) + ")" + (invariants.empty() ? "" : ": " + invariants));
  return false;
}

}  // namespace

bool proveByInduction(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  if (!o.induction || o.mode != Tool::Pasda) return false;
  IterationPlan plan;
  // Unchanged whole loops are shared functions of their inputs (PASDA's regions), identical
  // pure helpers shared functions of their arguments: loops of the versions may contain them.
  diff::MatchResult match;
  try {
    const Prepared& p = env.prepared;
    match = diff::match(p.orig_old, p.orig_new, p.name + ":" + p.descriptor);
  } catch (const std::exception&) {
    match = diff::MatchResult{};
  }
  for (const std::string& h : match.pure_helpers) plan.abs.helpers.insert(h);
  // The unchanged loops nested in the compared method's outermost loops, not those: an
  // outermost loop is coupled with its partner instead (unchanged code given different inputs,
  // c = 0 against c = 1 before it, has no shared function to be but may keep an offset).
  {
    const Prepared& p = env.prepared;
    std::vector<std::uint32_t> outer[2];
    for (pasda::Version v : pasda::kBothVersions) {
      const jvm::ClassFile& cf = v == pasda::Version::kOld ? p.old_cls : p.new_cls;
      const std::string& desc = v == pasda::Version::kOld ? p.old_descriptor : p.new_descriptor;
      if (const jvm::Method* m = cf.findMethod(p.name, desc))
        for (const diff::LoopSummary& l : diff::summarisableLoops(cf, *m, nullptr, &plan.abs.helpers))
          if (l.depth == 0) outer[static_cast<int>(v)].push_back(l.header_pc);
    }
    const std::string method = p.name + ":" + p.descriptor;
    for (const diff::Region& r : match.regions) {
      if (!r.whole_loop || !diff::worthAbstracting(r) || r.method != method) continue;
      bool holdsOuter = false;
      for (pasda::Version v : pasda::kBothVersions)
        for (std::uint32_t h : outer[static_cast<int>(v)]) holdsOuter = holdsOuter || (r.start_pc[v] <= h && h < r.exit_pc[v]);
      if (!holdsOuter) plan.abs.regions.insert(r.id);
    }
  }
  plan.match = &match;
  std::string why;
  plan.coupled = couplableLoops(env.prepared, &match, plan.abs, &why);
  if (plan.coupled.empty()) {
    if (!why.empty()) addNote(run, "not tried: " + why);
    return false;
  }
  return attemptProof(env, run, plan, "");
}

bool proveByRecursion(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  if (!o.induction || o.mode != Tool::Pasda) return false;
  const Prepared& p = env.prepared;
  diff::MatchResult match;
  try {
    match = diff::match(p.orig_old, p.orig_new, p.name + ":" + p.descriptor);
  } catch (const std::exception&) {
    return false;
  }
  if (!match.shares_recursion) {
    if (!match.recursion_note.empty()) addNote(run, "recursion rule not tried: " + match.recursion_note);
    return false;
  }
  IterationPlan plan;
  for (const std::string& h : match.pure_helpers) plan.abs.helpers.insert(h);
  plan.shared_recursion = true;
  return attemptProof(env, run, plan, "recursion rule ");
}

}  // namespace pasda::analysis
