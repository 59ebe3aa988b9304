// The bodies of coupled loops (src/symexec/coupled_loops.cpp): each version's loop body explored
// from a symbolic header state — one iteration for lock step, or several composed, so that a
// proof step can take two iterations of one loop against one of the other (docs/depth-limit.md,
// "Loops at fixed iteration ratios").
#include <algorithm>

#include "coupled_loops.hpp"
#include "interpreter.hpp"

namespace pasda::symexec {

namespace {

/// Bounds of one proof: paths of one step of a body (all its iterations together), and the
/// exploration of one iteration.
constexpr std::size_t kMaxBodyPaths = 1024;
constexpr std::uint64_t kMaxBodySteps = 100'000;
constexpr int kBodyDepthLimit = 64;

Term conjunction(terms::TermManager& tm, const std::vector<Term>& ts) {
  Term all = tm.boolLit(true);
  for (Term t : ts) all = tm.land(all, t);
  return all;
}

}  // namespace

std::string LoopCoupler::exploreBody(const CoupledLoop& c, Version v, Bodies& b, int times) {
  const MethodInfo* m = method(v, c);
  if (!m) return "the " + std::string(versionName(v)) + " method is not found";
  const LoopSummaryHook& h = c.loop[v];
  const std::vector<std::pair<int, char>> vars = variables(h);
  std::vector<Term> locals(m->max_locals);
  for (auto [slot, kind] : vars) {
    if (static_cast<std::size_t>(slot) >= locals.size()) locals.resize(static_cast<std::size_t>(slot) + 2);
    Term x = tm_.var("$loop" + std::to_string(c.pair) + "_" + std::string(versionName(v)) + "_" + std::to_string(slot),
                     sortOfDescriptor(kind));
    locals[static_cast<std::size_t>(slot)] = x;
    b.header[v][slot] = x;
    header_vars_[x] = {v, slot};
  }
  ExecOptions bo;
  bo.depth_limit = kBodyDepthLimit;
  bo.deadline = opt_.deadline;
  bo.solver_timeout_ms = opt_.solver_timeout_ms;
  bo.max_array_length = opt_.max_array_length;
  bo.max_steps_per_path = kMaxBodySteps;
  bo.main_class = opt_.main_class;
  bo.assume_feasible = true;  // the inductiveness queries filter infeasible paths
  bo.abstracted_methods = opt_.abstracted_methods;  // identical pure helpers: shared functions
  bo.regions = opt_.regions;                        // unchanged loops inside: shared functions
  bo.stop_at_pcs = h.exits;
  bo.stop_at_pcs.push_back(h.header_pc);
  std::vector<BodyPath>& paths = b.paths[v];
  // Iteration by iteration: the paths that come back before the last iteration go on from the
  // header with their values and their path condition; every other path ends the step there.
  std::vector<BodyPath> frontier;
  auto sink = [&](const RawPartition& raw, solver::Solver&) {
    BodyPath p;
    p.pc = raw.pc;
    if (raw.depth_limited) {
      p.cut = true;
    } else if (raw.stopped_at) {
      p.back = *raw.stopped_at == h.header_pc;
      if (!p.back) p.outcome.exit = static_cast<std::size_t>(std::find(h.exits.begin(), h.exits.end(), *raw.stopped_at) - h.exits.begin());
      for (auto [slot, kind] : vars)
        p.post[slot] = static_cast<std::size_t>(slot) < raw.stopped_locals.size() ? raw.stopped_locals[static_cast<std::size_t>(slot)] : Term{};
    } else if (raw.entry.kind == ExecEffect::Kind::Return || raw.entry.kind == ExecEffect::Kind::Void) {
      p.outcome.kind = LoopOutcome::Kind::Return;
      p.outcome.ret_kind = h.returns.empty() ? 'V' : h.returns.front().second;
      p.ret = raw.entry.value;
    } else if (raw.entry.kind == ExecEffect::Kind::Throw) {
      p.outcome.kind = LoopOutcome::Kind::Throw;
      p.outcome.exception = raw.entry.exception;
    } else {
      p.cut = true;
    }
    (p.back ? frontier : paths).push_back(std::move(p));
  };
  try {
    Executor ex(program_, tm_, *opt_.proof_solver, bo);
    ExecStats st = ex.exploreFrom(*m, h.header_pc, locals, {}, sink);
    for (int i = 1; i < times && !st.timed_out; ++i) {
      std::vector<BodyPath> from = std::move(frontier);
      frontier.clear();
      for (const BodyPath& p : from) {
        if (paths.size() + frontier.size() > kMaxBodyPaths || st.timed_out) break;
        std::vector<Term> next = locals;
        for (const auto& [slot, t] : p.post) next[static_cast<std::size_t>(slot)] = t;
        if (contradictory(conjunction(tm_, p.pc))) continue;  // cannot come back this way: nothing follows
        st = ex.exploreFrom(*m, h.header_pc, next, p.pc, sink);
      }
    }
    if (st.timed_out) return "the time ran out exploring the " + std::string(versionName(v)) + " loop's body";
  } catch (const std::exception& e) {
    return std::string("its body cannot be explored: ") + e.what();
  }
  paths.insert(paths.end(), std::make_move_iterator(frontier.begin()), std::make_move_iterator(frontier.end()));
  if (paths.size() > kMaxBodyPaths)
    return (times == 1 ? "a body iteration has more than " : "a step of the body has more than ") + std::to_string(kMaxBodyPaths) + " paths";
  for (const BodyPath& p : paths)
    for (const auto& [slot, t] : p.post)
      if (!t) return "a loop variable has no value where the body ends";
  return "";
}

const LoopCoupler::Bodies& LoopCoupler::bodies(const CoupledLoop& c, Ratio r) {
  const std::tuple<int, int, int> key{c.pair, r[Version::kOld], r[Version::kNew]};
  auto it = bodies_.find(key);
  if (it != bodies_.end()) return it->second;
  Bodies b;
  for (Version v : kBothVersions)
    if (b.failure.empty()) b.failure = exploreBody(c, v, b, r[v]);
  return bodies_.emplace(key, std::move(b)).first->second;
}

}  // namespace pasda::symexec
