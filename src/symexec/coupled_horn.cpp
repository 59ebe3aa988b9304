// The third source of coupling-invariant candidates: Horn clauses over the two loop bodies,
// solved by Spacer (docs/depth-limit.md, "Coupled loops", "A third source of invariants").
// What Spacer returns is a candidate like any other: Houdini keeps it only where the solver
// proves it, under the analysed arithmetic, at the entries and after every pair of iterations.
#include <algorithm>
#include <chrono>

#include "coupled_loops.hpp"
#include "pasda/solver/horn.hpp"

namespace pasda::symexec {

namespace {

constexpr std::size_t kMaxGoals = 6;     // single equalities tried after all of them together
constexpr unsigned kHornMs = 2000;        // every Spacer call of one loop pair together, at most
constexpr std::size_t kMaxStepPairs = 256; // pairs of body paths; beyond, the clauses cost more than they give
constexpr unsigned kMinCallMs = 50;        // a call with less is not made (Spacer takes some 15 ms to start)

}  // namespace

void LoopCoupler::widenByHorn(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& initial,
                              std::vector<Conjunct>& inductive) {
  // The equalities across the versions that held at the entries but are not inductive alone:
  // the outputs a stronger relation (a flag against a counter, a bound) may still keep equal.
  std::vector<Conjunct> goals;
  for (const Conjunct& k : initial)
    if (k.kind == Conjunct::Kind::Equal && k.va != k.vb && std::find(inductive.begin(), inductive.end(), k) == inductive.end())
      goals.push_back(k);
  if (goals.size() > kMaxGoals) goals.resize(kMaxGoals);
  const std::vector<Conjunct> extra = hornCandidates(c, b, initial, inductive, goals);
  if (extra.empty()) return;
  auto backTogether = [](const BodyPath& p, const BodyPath& q) { return p.back && q.back; };
  auto sameExit = [](const BodyPath& p, const BodyPath& q) {
    return !p.back && !q.back && !p.cut && !q.cut && p.outcome.kind == LoopOutcome::Kind::Exit && p.outcome == q.outcome;
  };
  std::vector<Conjunct> widened = inductive;
  widened.insert(widened.end(), extra.begin(), extra.end());
  if (!houdini(b, widened, nullptr, backTogether)) return;
  // Spacer's answer is rarely the simplest: drop each of its conjuncts whose absence keeps the
  // rest inductive, the loops in lock step and every goal that held at the exits holding there.
  auto holdsAtExits = [&](const std::vector<Conjunct>& ks, const Conjunct& g) {
    std::vector<Conjunct> e{g};
    return houdini(b, e, &ks, sameExit) && e.size() == 1;
  };
  std::vector<Conjunct> kept;
  for (const Conjunct& g : goals)
    if (holdsAtExits(widened, g)) kept.push_back(g);
  const bool lockStep = outcomesCorrespond(b, widened);
  const Clock::time_point until = std::min(opt_.deadline, Clock::now() + std::chrono::milliseconds(kHornMs));
  for (std::size_t i = widened.size(); i-- > inductive.size() && Clock::now() < until;) {
    std::vector<Conjunct> trial = widened;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
    std::vector<Conjunct> still = trial;
    if (!houdini(b, still, nullptr, backTogether) || still.size() != trial.size()) continue;
    if (lockStep && !outcomesCorrespond(b, trial)) continue;
    if (!std::all_of(kept.begin(), kept.end(), [&](const Conjunct& g) { return holdsAtExits(trial, g); })) continue;
    widened = std::move(trial);
  }
  inductive = std::move(widened);
}

std::vector<Conjunct> LoopCoupler::hornCandidates(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& initial,
                                                  const std::vector<Conjunct>& inductive,
                                                  const std::vector<Conjunct>& goals) {
  if (!hornWorthTrying(c, b, inductive, goals)) return {};
  const std::optional<HornClauses> h = hornClauses(b, initial, inductive);
  return h ? askSpacer(c, *h, goals) : std::vector<Conjunct>{};
}

bool LoopCoupler::hornWorthTrying(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& inductive,
                                  const std::vector<Conjunct>& goals) {
  // Counted before any query: past the bound, even deciding whether to ask would cost more
  // than the clauses are worth (Houdini's lock-step check queries the pairs).
  // (At most 16 times the bound are looked at: a body with a thousand paths has a million pairs.)
  std::size_t feasible = 0, seen = 0;
  for (const BodyPath& p : b.paths[Version::kOld])
    for (const BodyPath& q : b.paths[Version::kNew]) {
      if (feasible > kMaxStepPairs || ++seen > 16 * kMaxStepPairs) break;
      Term pcs = tm_.boolLit(true);
      for (Term t : p.pc) pcs = tm_.land(pcs, t);
      for (Term t : q.pc) pcs = tm_.land(pcs, t);
      feasible += contradictory(pcs) ? 0 : 1;
    }
  if (feasible > kMaxStepPairs || seen > 16 * kMaxStepPairs) {
    note("loop pair " + std::to_string(c.pair) + ": Horn clauses: not tried (more than " + std::to_string(kMaxStepPairs) +
         " pairs of body paths)");
    return false;
  }
  return !goals.empty() || !outcomesCorrespond(b, inductive);

}

std::optional<LoopCoupler::HornClauses> LoopCoupler::hornClauses(const Bodies& b, const std::vector<Conjunct>& initial,
                                                                 const std::vector<Conjunct>& inductive) {
  // The relation's variables: the numeric header variables of both loops.
  HornClauses out;
  solver::HornProblem& base = out.base;
  std::vector<std::pair<Version, int>> at;
  for (Version v : kBothVersions)
    for (const auto& [slot, x] : b.header[v])
      if (x && tm_.sort(x) != terms::Sort::Ref && tm_.sort(x) != terms::Sort::Bool) {
        base.vars.push_back(x);
        at.emplace_back(v, slot);
      }
  if (base.vars.empty()) return std::nullopt;
  auto conj = [&](const std::vector<Term>& ts, Term acc) {
    for (Term t : ts) acc = tm_.land(acc, t);
    return acc;
  };
  base.init.push_back(conj(all(initial, b.header), tm_.boolLit(true)));
  // What Houdini proved inductive already holds at every header visit: assumed in the clauses,
  // so that Spacer does not spend its time (and its answer's size) rediscovering it.
  const Term known = conj(all(inductive, b.header), tm_.boolLit(true));
  auto stateAfter = [&](const BodyPath& p, const BodyPath& q) {
    LoopState st = b.header;
    for (const auto& [slot, t] : p.post) if (t) st[Version::kOld][slot] = t;
    for (const auto& [slot, t] : q.post) if (t) st[Version::kNew][slot] = t;
    return st;
  };
  for (const BodyPath& p : b.paths[Version::kOld])
    for (const BodyPath& q : b.paths[Version::kNew]) {
      Term pcs = conj(q.pc, conj(p.pc, tm_.boolLit(true)));
      if (contradictory(pcs)) continue;
      pcs = tm_.land(known, pcs);
      const bool together = !p.cut && !q.cut && p.back == q.back && (p.back || p.outcome == q.outcome);
      if (!together) {
        base.bad.push_back(pcs);
      } else if (p.back) {
        const LoopState st = stateAfter(p, q);
        solver::HornProblem::Step step{pcs, {}};
        for (const auto& [v, slot] : at) step.post.push_back(st[v].at(slot));
        base.steps.push_back(std::move(step));
      } else if (p.outcome.kind == LoopOutcome::Kind::Return && p.ret && q.ret) {
        base.bad.push_back(tm_.land(pcs, tm_.lnot(tm_.same(p.ret, q.ret))));
      } else if (p.outcome.kind == LoopOutcome::Kind::Exit) {
        out.exits.emplace_back(pcs, stateAfter(p, q));
      }
    }
  return out;
}

std::vector<Conjunct> LoopCoupler::askSpacer(const CoupledLoop& c, const HornClauses& h, const std::vector<Conjunct>& goals) {
  // Spacer is asked for an invariant that keeps the loops in lock step and, at their exits,
  // the goals equal: all of them first, then each alone (some may differ legitimately).
  std::vector<std::vector<Conjunct>> tries;
  if (!goals.empty()) tries.push_back(goals);
  if (goals.size() > 1)
    for (const Conjunct& g : goals) tries.push_back({g});
  if (tries.empty()) tries.push_back({});
  std::vector<Conjunct> out;
  std::string outcome = "no invariant (Spacer: the goals can differ)";
  const Clock::time_point until = std::min(opt_.deadline, Clock::now() + std::chrono::milliseconds(kHornMs));
  for (const std::vector<Conjunct>& want : tries) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    const auto ms = static_cast<unsigned>(std::max<std::int64_t>(0, opt_.deadline == until ? left / 4 : left));
    if (ms < kMinCallMs) {
      outcome = "no invariant within the time";
      break;
    }
    solver::HornProblem p = h.base;
    for (const auto& [pcs, st] : h.exits)
      for (const Conjunct& g : want) p.bad.push_back(tm_.land(pcs, tm_.lnot(instantiate(g, st))));
    const solver::HornAnswer ans = solver::solveHorn(tm_, p, ms);
    if (ans.status == solver::Status::Unknown) {  // the single goals would fare no better
      // Z3's reason may quote the whole clause: its first line, shortened, is enough.
      std::string why = ans.reason.substr(0, ans.reason.find('\n'));
      if (why.size() > 80) why = why.substr(0, 77) + "...";
      outcome = "no invariant (Spacer: " + (why.empty() ? std::string("unknown") : why) + ")";
      break;
    }
    if (ans.status != solver::Status::Sat) continue;
    for (Term t : ans.invariant) {
      if (auto lit = tm_.asBool(t); lit) continue;
      const Conjunct k{Conjunct::Kind::Formula, Version::kOld, Version::kNew, 0, 0, t};
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    }
    if (!out.empty() && want.size() > 1) break;  // one answer serving every goal is enough
  }
  note("loop pair " + std::to_string(c.pair) + ": Horn clauses: " +
       (out.empty() ? outcome : std::to_string(out.size()) + " candidate conjuncts from Spacer"));
  return out;
}

}  // namespace pasda::symexec
