// Iterations of the partition-based tools (PASDA, PRV) over the product program.
#include "iteration.hpp"

#include "pasda/diff/loops.hpp"

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <mutex>

#include "explain.hpp"
#include "partition.hpp"
#include "witnesses.hpp"
#include "pasda/diff/closure.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Term;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string lineRange(const std::vector<int>& lines) {
  if (lines.empty()) return "-";
  return lines.front() == lines.back() ? std::to_string(lines.front())
                                       : std::to_string(lines.front()) + "-" + std::to_string(lines.back());
}

}  // namespace

PartitionClassifier::Limits classifierLimits(const Options& o, unsigned queryMs, Clock::time_point deadline) {
  PartitionClassifier::Limits l;
  l.solver_timeout_ms = queryMs;
  l.deadline = deadline;
  if (o.arith == terms::Arith::Java) {
    // Issue 17: hard (floating-point) queries may use a quarter of the run, then 100 ms each.
    if (o.hard_query_share > 0) l.hard_budget_s = std::max(1.0, o.timeout_s * o.hard_query_share);
    l.skip_pc_of_identical = true;
  }
  return l;
}


void loadProgram(const IterationEnv& env, symexec::Program& program) {
  const Prepared& p = env.prepared;
  program.add(symexec::kProduct, p.product.product);
  program.add(symexec::kProduct, p.product.exception);
  program.add(symexec::kOld, p.old_cls);
  program.add(symexec::kNew, p.new_cls);
  program.setClassPath(symexec::kOld, p.old_classpath);
  program.setClassPath(symexec::kNew, p.new_classpath);
}

/// The identical-closure oracle over the versions' class paths, shared by the exploration's
/// callbacks (null without class paths), and the analysed class's names.
struct SharedOracle {
  std::mutex lock;
  std::unique_ptr<diff::ClosureOracle> oracle;
  std::string renamed[2], orig;
  /// owner, descriptor as the code names them, mapped back to the original class. Either
  /// version's renamed class maps back, whatever the side: the product's own code (side
  /// kProduct) calls both (a call of the new version's class from the product was once asked
  /// about under its renamed name, unknown to the oracle: no override found, so the product
  /// ran the new version's code where it forked the old one's on the receiver's exact class).
  std::pair<std::string, std::string> original(const std::string& owner,
                                               const std::string& desc) const {
    std::string o = owner, d = desc;
    for (const std::string& mine : renamed) {
      if (o == mine) o = orig;
      for (std::size_t at = 0; (at = d.find("L" + mine + ";", at)) != std::string::npos; at += orig.size() + 2)
        d.replace(at + 1, mine.size(), orig);
    }
    return {o, d};
  }
};

std::shared_ptr<SharedOracle> sharedOracle(const Prepared& p) {
  if (!p.old_classpath || !p.new_classpath) return nullptr;
  diff::ClosureOptions co;
  if (p.orig_old_name != p.orig_new_name) co = {p.orig_old_name, p.orig_new_name};
  auto shared = std::make_shared<SharedOracle>();
  shared->oracle = std::make_unique<diff::ClosureOracle>(*p.old_classpath, *p.new_classpath, co);
  shared->renamed[0] = p.old_name;
  shared->renamed[1] = p.new_name;
  shared->orig = p.orig_old_name;
  return shared;
}

/// ExecOptions::shared_lambda: the identical-closure oracle's sharedFunction.
std::function<bool(symexec::Side, const std::string&, const std::string&, const std::string&,
                   const std::vector<std::string>&)>
sharedLambdaOracle(std::shared_ptr<SharedOracle> shared) {
  if (!shared) return {};
  return [shared](symexec::Side side, const std::string& owner, const std::string& name, const std::string& desc,
                  const std::vector<std::string>& types) {
    auto [o, d] = shared->original(owner, desc);
    std::lock_guard<std::mutex> g(shared->lock);
    try {
      return shared->oracle->sharedFunction(o, name, d, types);
    } catch (const std::exception&) {
      return false;  // not decided: each version's lambda is its own
    }
  };
}

/// ExecOptions::shared_call: the identical-closure oracle's callIdentical.
std::function<bool(symexec::Side, const std::string&, const std::string&, const std::string&, bool)> sharedCallOracle(
    std::shared_ptr<SharedOracle> shared) {
  if (!shared) return {};
  return [shared](symexec::Side side, const std::string& owner, const std::string& name, const std::string& desc,
                  bool dispatches) {
    auto [o, d] = shared->original(owner, desc);
    std::lock_guard<std::mutex> g(shared->lock);
    try {
      return shared->oracle->callIdentical(o, name, d, dispatches);
    } catch (const std::exception&) {
      return false;  // not decided: each version's call is its own
    }
  };
}

/// ExecOptions::overridden: the oracle's overridden.
std::function<bool(symexec::Side, const std::string&, const std::string&, const std::string&)> overriddenOracle(
    std::shared_ptr<SharedOracle> shared) {
  if (!shared) return {};
  return [shared](symexec::Side side, const std::string& owner, const std::string& name, const std::string& desc) {
    auto [o, d] = shared->original(owner, desc);
    std::lock_guard<std::mutex> g(shared->lock);
    try {
      return shared->oracle->overridden(o, name, d);
    } catch (const std::exception&) {
      return true;  // not decided: an override may run
    }
  };
}

/// ExecOptions::loop_summaries: the summarisable loops (diff::summarisableLoops) of methods
/// whose closure is identical in both versions, or whose own code is and whose loops call only
/// such methods, under names both versions share.
std::function<std::vector<symexec::LoopSummaryHook>(symexec::Side, const symexec::MethodInfo&)> loopSummaryOracle(
    std::shared_ptr<SharedOracle> shared) {
  if (!shared) return {};
  return [shared](symexec::Side side, const symexec::MethodInfo& m) {
    std::vector<symexec::LoopSummaryHook> hooks;
    if (!m.method || !m.method->code || !m.owner) return hooks;
    auto [o, d] = shared->original(m.owner->name, m.descriptor);
    // A method whose closure is identical, or one whose own code is (its loops then may call
    // only program methods whose closures are: the same function in both versions again).
    bool closure = false;
    {
      std::lock_guard<std::mutex> g(shared->lock);
      try {
        closure = shared->oracle->method(o, m.name, d).verdict == diff::ClosureVerdict::Identical;
        if (!closure && !shared->oracle->sameCode(o, m.name, d)) return hooks;
      } catch (const std::exception&) {
        return hooks;
      }
    }
    auto same = [&shared](const jvm::MemberRef& r) {
      auto [ro, rd] = shared->original(r.owner, r.descriptor);
      std::lock_guard<std::mutex> g(shared->lock);
      try {
        return shared->oracle->method(ro, r.name, rd).verdict == diff::ClosureVerdict::Identical;
      } catch (const std::exception&) {
        return false;
      }
    };
    // (calls of other classes' arithmetic leaves, named as the side's code names them)
    auto leaf = [&shared, side](const jvm::MemberRef& r) {
      auto [lo, ld] = shared->original(r.owner, r.descriptor);
      std::lock_guard<std::mutex> g(shared->lock);
      try {
        return shared->oracle->arithmeticLeaf(lo, r.name, ld);
      } catch (const std::exception&) {
        return false;
      }
    };
    // (instance methods of the class: whether a subclass in the path overrides one, in either version)
    auto overridable = [&shared](const jvm::MemberRef& r) {
      auto [ro, rd] = shared->original(r.owner, r.descriptor);
      std::lock_guard<std::mutex> g(shared->lock);
      try {
        return shared->oracle->overridden(ro, r.name, rd);
      } catch (const std::exception&) {
        return true;
      }
    };
    // (PASDA_TRACE_LOOPS, for developers: why each loop of a method is not summarised, on stderr)
    static const bool trace = std::getenv("PASDA_TRACE_LOOPS") != nullptr;
    std::vector<std::string> why;
    const std::vector<diff::LoopSummary> loops =
        diff::summarisableLoops(m.owner->cf, *m.method, trace ? &why : nullptr, nullptr, leaf, true, overridable,
                                closure ? std::function<bool(const jvm::MemberRef&)>{} : same);
    for (const std::string& w : why) std::cerr << "[loops] " << o << "." << m.name << d << ": " << w << "\n";
    for (const diff::LoopSummary& l : loops) {
      // (calls on receivers, BitSet's methods: they may run program code the loop does not name)
      if (!closure && (l.calls_on_receivers || l.calls_bitsets)) continue;
      symexec::LoopSummaryHook h;
      h.header_pc = l.header_pc;
      h.fn = "loop:" + o + "." + m.name + d + "#" + std::to_string(l.header);
      h.reads = l.reads;
      h.ref_reads = l.ref_reads;
      h.writes = l.writes;
      h.exits = l.exits;
      h.returns = l.returns;
      h.exceptions = l.exceptions;
      h.stores_arrays = l.stores_arrays;
      h.field_reads = l.field_reads;
      h.field_writes = l.field_writes;
      h.reads_objects = l.reads_objects;
      h.calls_helpers = l.calls_helpers;
      h.changes_library_objects = l.changes_library_objects;
      h.calls_bitsets = l.calls_bitsets;
      h.calls_on_receivers = l.calls_on_receivers;
      h.iae_from_lengths_only = l.iae_from_lengths_only;
      h.own_code_only = !closure;
      hooks.push_back(std::move(h));
    }
    return hooks;
  };
}

void setHeapOptions(const IterationEnv& env, symexec::ExecOptions& eo) {
  const Prepared& p = env.prepared;
  eo.heap_bound = env.options->heap_bound;
  eo.static_inputs = env.options->static_inputs;
  eo.compare_output = env.options->compare_output;
  eo.main_class[symexec::kOld] = p.old_name;
  eo.main_class[symexec::kNew] = p.new_name;
  std::shared_ptr<SharedOracle> oracle = sharedOracle(p);
  eo.shared_lambda = sharedLambdaOracle(oracle);
  eo.shared_call = sharedCallOracle(oracle);
  eo.overridden = overriddenOracle(oracle);
  if (env.options->loop_summaries) eo.loop_summaries = loopSummaryOracle(oracle);
}

void applyAbstraction(const IterationEnv& env, const diff::MatchResult* match, const Abstraction& abs,
                      AbstractionIndex& index, symexec::ExecOptions& eo, IterationResult& it) {
  const Prepared& p = env.prepared;
  for (const std::string& h : abs.helpers) {
    const std::string symbol = index.helperSymbol(h);
    eo.abstracted_methods[p.old_name + "." + renameMember(h, p.orig_old_name, p.old_name)] = symbol;
    eo.abstracted_methods[p.new_name + "." + renameMember(h, p.orig_new_name, p.new_name)] = symbol;
    it.uifs.push_back(symbol + ": calls of the identical helper " + h);
  }
  if (!match) return;
  for (const diff::Region& r : match->regions) {
    if (!abs.regions.count(r.id)) continue;
    const std::string fn = AbstractionId::ofRegion(r.id).name();
    std::vector<std::string> symbols;
    for (const diff::RegionVar& v : r.outputs) symbols.push_back(index.regionSymbol(r.id, v.name));
    for (pasda::Version side : kBothVersions) {
      symexec::RegionHook h;
      h.side = symexec::Side(side);
      // (The product renames the analysed class, in its own descriptors too.)
      const std::string& name = side == pasda::Version::kOld ? p.old_name : p.new_name;
      h.method = name + "." + renameMember(r.method, side == pasda::Version::kOld ? p.orig_old_name : p.orig_new_name, name);
      h.start_pc = r.start_pc[side];
      h.exit_pc = r.exit_pc[side];
      for (const diff::RegionVar& v : r.inputs) h.inputs.emplace_back(v.slot[side], v.type);
      for (const diff::RegionVar& v : r.outputs) h.outputs.emplace_back(v.slot[side], v.type);
      h.output_fns = symbols;
      eo.regions.push_back(std::move(h));
    }
    std::string ins, outs;
    for (const auto& v : r.inputs) ins += (ins.empty() ? "" : ", ") + v.name;
    for (const auto& v : r.outputs) outs += (outs.empty() ? "" : ", ") + v.name;
    std::string where;
    for (pasda::Version side : kBothVersions)
      where += std::string(where.empty() ? "" : ", ") + std::string(versionName(side)) + " lines " +
               lineRange(r.lines[side]) + " pc " + std::to_string(r.start_pc[side]) + "-" +
               std::to_string(r.exit_pc[side]);
    it.uifs.push_back(fn + ": (" + outs + ") := " + fn + "(" + ins + "), " + where);
  }
}

std::string renameDescriptor(std::string d, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return d;
  const std::string pat = "L" + from + ";", rep = "L" + to + ";";
  for (auto pos = d.find(pat); pos != std::string::npos; pos = d.find(pat, pos + rep.size())) d.replace(pos, pat.size(), rep);
  return d;
}

std::string renameMember(const std::string& member, const std::string& from, const std::string& to) {
  const auto colon = member.find(':');
  if (colon == std::string::npos) return member;
  return member.substr(0, colon + 1) + renameDescriptor(member.substr(colon + 1), from, to);
}

std::string javaCall(const std::string& method, const std::vector<std::string>& args) {
  std::string call = method + "(";
  for (std::size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  return call + ")";
}

std::string javaCall(const std::string& method, const std::vector<WitnessValue>& args) {
  std::vector<std::string> literals;
  for (const WitnessValue& w : args) literals.push_back(w.literal);
  return javaCall(method, literals);
}

symexec::ExecOptions baseExecOptions(const IterationEnv& env, unsigned solverTimeoutMs, bool jvmMargin) {
  const Options& o = *env.options;
  const TimePolicy& t = o.time;
  symexec::ExecOptions eo;
  eo.depth_limit = o.depth_limit;
  eo.deadline = env.deadline;
  if (env.deadline != Clock::time_point::max()) {
    auto margin = secondsOf(std::min(t.explore_margin_cap_s, o.timeout_s * t.explore_margin_share));
    if (jvmMargin) margin += secondsOf(std::min(t.jvm_margin_cap_s, o.timeout_s * t.jvm_margin_share));
    eo.deadline = env.deadline - margin;
  }
  eo.solver_timeout_ms = o.feasibility_timeout_ms ? o.feasibility_timeout_ms : std::min(solverTimeoutMs, t.feasibility_cap_ms);
  eo.max_array_length = o.max_array_length;
  return eo;
}

unsigned h1QueryMs(const Options& o) {
  return o.solver_timeout_ms ? std::min(o.solver_timeout_ms, o.time.h1_query_cap_ms) : o.time.h1_query_cap_ms;
}

Clock::time_point h1Deadline(const IterationEnv& env) {
  const TimePolicy& t = env.options->time;
  auto now = Clock::now();
  if (env.deadline == Clock::time_point::max()) return now + secondsOf(t.h1_unbounded_s);
  const double left = std::chrono::duration<double>(env.deadline - now).count();
  return now + secondsOf(std::min(left * t.h1_share, t.h1_cap_s));
}

void countAbstractions(const terms::TermManager& tm, const AbstractionIndex& index, terms::Term root,
                       std::map<AbstractionId, int>& counts) {
  if (!root || !tm.containsUif(root)) return;
  std::vector<terms::Term> stack{root};
  std::set<std::uint32_t> seen;
  while (!stack.empty()) {
    terms::Term t = stack.back();
    stack.pop_back();
    if (!seen.insert(t.id).second) continue;
    const terms::Node& n = tm.node(t);
    if (auto id = index.of(n)) counts[*id] += 1;
    for (terms::Term c : n.args)
      if (tm.containsUif(c)) stack.push_back(c);
  }
}

IterationResult runIteration(IterationEnv& env, IterationKind& kind, int index, StepTimes& steps) {
  IterationResult it;
  it.index = index;
  const auto t0 = Clock::now();
  try {
    auto ti = Clock::now();
    kind.setUp(it);
    steps.initialization += since(ti);
    if (env.monitor) env.monitor->beginIteration(index, it.uifs);
    kind.explore(it, steps);
  } catch (const std::exception& e) {
    it.error = e.what();
  }
  auto tp = Clock::now();
  kind.finish(it);
  it.runtime_s = since(t0);
  steps.program_classification += since(tp);
  return it;
}

namespace {

/// The run's warnings: the explorations' (at most kMaxWarnings, then a count of the others).
void collectWarnings(const IterationEnv& env, RunResult& run) {
  constexpr std::size_t kMaxWarnings = 40;
  std::size_t n = 0;
  for (const std::string& w : env.warnings) {
    if (n++ < kMaxWarnings) run.warnings.push_back(w);
  }
  if (n > kMaxWarnings) run.warnings.push_back(std::to_string(n - kMaxWarnings) + " more warnings");
}

void runIterations(IterationEnv& env, RunResult& run);

}  // namespace

void runTool(IterationEnv& env, RunResult& run) {
  runIterations(env, run);
  collectWarnings(env, run);
}

namespace {

void runIterations(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  const Prepared& p = env.prepared;
  auto decisive = [](Verdict v) { return v == Verdict::EQ || v == Verdict::NEQ || v == Verdict::ERROR; };
  auto timeLeft = [&] { return Clock::now() < env.deadline; };
  const bool summary = summaryBased(o.mode);

  // Later iterations (PASDA) and every iteration of ARDiff/DSE abstract unchanged code.
  auto ti = Clock::now();
  diff::MatchResult match;
  try {
    match = diff::match(p.orig_old, p.orig_new, p.name + ":" + p.descriptor);
  } catch (const std::exception& e) {
    run.warnings.push_back(std::string("unchanged-block matching failed: ") + e.what());
  }
  Abstraction abs;
  for (const diff::Region& r : match.regions)
    if (diff::worthAbstracting(r)) abs.regions.insert(r.id);
  for (const std::string& h : match.pure_helpers) abs.helpers.insert(h);  // effect-free, cannot throw
  run.steps.instrumentation += since(ti);

  if (o.mode == Tool::Pasda || o.mode == Tool::Prv) {
    // The first iteration (no abstraction) may not take the whole run when a later one has
    // something to abstract: it gets a share of the time left, the abstracted ones the rest.
    const Clock::time_point runDeadline = env.deadline;
    const bool abstractsLoop = std::any_of(match.regions.begin(), match.regions.end(), [&](const diff::Region& r) {
      return abs.regions.count(r.id) && r.whole_loop;
    });
    if (o.mode == Tool::Pasda && o.split_time && abstractsLoop && env.deadline != Clock::time_point::max()) {
      const auto left = env.deadline - Clock::now();
      env.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(left * o.time.first_iteration_share);
    }
    run.iterations.push_back(runProductIteration(env, IterationPlan{}, run.steps));
    env.deadline = runDeadline;
    if (env.monitor) env.monitor->endIteration(run.iterations.back());
    // A settled first iteration ends the run: the abstracted iterations PASDA would try next
    // could still prove EQ where library calls kept the first one undecided, but on
    // commons-lang3 none did so for a settled method (docs/release-diff.md, "The settle rule"),
    // and they took the rest of its budget.
    if (o.mode == Tool::Prv || decisive(run.iterations.back().result) || run.iterations.back().settled || !timeLeft())
      return;
  }
  if (!summary && abs.empty()) return;  // nothing to abstract: iteration 1 stands

  int index = static_cast<int>(run.iterations.size()) + 1;
  for (;;) {
    UifUsage usage;
    IterationPlan plan;
    plan.index = index;
    plan.match = &match;
    plan.abs = abs;
    plan.usage = &usage;
    IterationResult it = summary ? runSummaryIteration(env, plan, run.steps) : runProductIteration(env, plan, run.steps);
    if (env.monitor) env.monitor->endIteration(it);
    run.iterations.push_back(std::move(it));
    const IterationResult& last = run.iterations.back();
    if (decisive(last.result) || last.timed_out || !timeLeft() || o.mode == Tool::Dse) return;
    auto tr = Clock::now();
    std::optional<AbstractionId> next = chooseRefinement(abs, match, usage);
    run.steps.refinement += since(tr);
    if (!next) return;
    if (next->kind == AbstractionId::Kind::Region) abs.regions.erase(next->region);
    else
      for (auto h = abs.helpers.begin(); h != abs.helpers.end(); ++h)
        if (AbstractionId::ofHelper(*h) == *next) {
          abs.helpers.erase(h);
          break;
        }
    ++index;
  }
}

}  // namespace

}  // namespace pasda::analysis
