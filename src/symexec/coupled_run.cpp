// Coupled loops in an exploration (ExecOptions::coupled_loops; the proofs are LoopCoupler's,
// coupled_loops.cpp): the old version's loop becomes functions of its variables at the header,
// and the new version's, reached on the same path, functions related to them by the proved
// coupling invariant.
#include "interpreter.hpp"

namespace pasda::symexec {

namespace {

/// The loop variables that hold a value of their kind at the header (slot -> value).
std::map<int, Term> loopEntry(const Frame& f, const LoopSummaryHook& h, terms::TermManager& tm) {
  std::map<int, Term> entry;
  for (auto [slot, kind] : LoopCoupler::variables(h)) {
    const auto i = static_cast<std::size_t>(slot);
    if (i < f.locals.size() && f.locals[i] && tm.sort(f.locals[i]) == sortOfDescriptor(kind)) entry[slot] = f.locals[i];
  }
  return entry;
}

/// The arguments of a loop's functions: every loop variable's entry value (0 for one without a
/// value here: the loop writes it before it reads it), in slot order. A variable the loop only
/// writes is an argument too: where the loop leaves without writing it, it keeps its value.
std::vector<Term> loopArgs(const std::map<int, Term>& entry, const LoopSummaryHook& h, terms::TermManager& tm) {
  std::vector<Term> args;
  for (auto [slot, kind] : LoopCoupler::variables(h)) {
    auto it = entry.find(slot);
    args.push_back(it != entry.end() ? it->second : tm.lit(sortOfDescriptor(kind), 0));
  }
  return args;
}

/// The loop's state where it leaves: entry values, written variables replaced by functions.
std::map<int, Term> loopExit(const std::map<int, Term>& entry, const LoopSummaryHook& h, const std::string& base,
                             const std::vector<Term>& args, terms::TermManager& tm) {
  std::map<int, Term> exit = entry;
  for (auto [slot, kind] : h.writes)
    exit[slot] = tm.apply(base + ":" + std::to_string(slot), terms::FunKind::Uif, sortOfDescriptor(kind), args);
  return exit;
}

}  // namespace

std::optional<StepOutcome> Interpreter::enterCoupledLoop(State& s) {
  Frame& f = s.frames.back();
  if (!opt_.proof_solver || !f.stack.empty()) return std::nullopt;
  const CoupledLoop* c = coupler_.at(f);
  if (!c) return std::nullopt;
  return f.side.version() == Version::kOld ? coupleOld(s, *c) : coupleNew(s, *c);
}

std::optional<StepOutcome> Interpreter::coupleOld(State& s, const CoupledLoop& c) {
  const LoopSummaryHook& h = c.loop[Version::kOld];
  const std::vector<LoopOutcome> outs = loopOutcomes(h);
  if (outs.empty()) return std::nullopt;
  if (s.coupled.count(c.pair)) {  // the compared method entered its outermost loop twice: not a lock step
    explorer_.cutPath(s, Explorer::Cut::Depth);
    return StepOutcome::Ended;
  }
  const std::map<int, Term> entry = loopEntry(s.frames.back(), h, tm_);
  const std::vector<Term> args = loopArgs(entry, h, tm_);
  const std::string base = "coupled" + std::to_string(c.pair) + ":old";
  std::size_t k = outs.size() - 1;
  if (outs.size() > 1) {
    Term outcome = tm_.apply(base + ":outcome", terms::FunKind::Uif, Sort::Int, args);
    for (std::size_t i = 0; i + 1 < outs.size(); ++i) {
      std::optional<bool> d = explorer_.branch(s, tm_.eq(outcome, tm_.intLit(static_cast<std::int32_t>(i))), false);
      if (!d) return StepOutcome::Ended;
      if (*d) {
        k = i;
        break;
      }
    }
  }
  State::CoupledRun run;
  run.entry = entry;
  run.outcome = k;
  run.exit = loopExit(entry, h, base, args, tm_);
  if (outs[k].kind == LoopOutcome::Kind::Return && outs[k].ret_kind != 'V')
    run.ret = tm_.apply(base + ":return", terms::FunKind::Uif, sortOfDescriptor(outs[k].ret_kind), args);
  s.coupled[c.pair] = run;
  explorer_.note(s, "loops of the two versions are related by a coupling invariant (induction)");
  return leaveLoop(s, h, outs[k], run.exit, run.ret);
}

std::optional<StepOutcome> Interpreter::coupleNew(State& s, const CoupledLoop& c) {
  auto it = s.coupled.find(c.pair);
  if (it == s.coupled.end()) return std::nullopt;  // the old loop did not run on this path: this one runs
  const State::CoupledRun& old = it->second;
  const LoopSummaryHook& h = c.loop[Version::kNew];
  LoopState entry;
  entry[Version::kOld] = old.entry;
  entry[Version::kNew] = loopEntry(s.frames.back(), h, tm_);
  // The conjuncts that hold at both entries on this path, then the inductive part of them:
  // the aligned relations first, then all; in lock step, then (all of them) at fixed ratios.
  std::optional<LoopCoupler::Proof> proof;
  std::vector<Conjunct> initial;
  for (bool aligned : {true, false}) {
    const std::vector<Conjunct> candidates = coupler_.candidates(c, entry, aligned);
    std::vector<Term> facts;
    for (const Conjunct& k : candidates) facts.push_back(coupler_.instantiate(k, entry));
    const std::vector<bool> holds = explorer_.implied(s, facts);
    initial.clear();
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (holds[i]) initial.push_back(candidates[i]);
    proof = coupler_.prove(c, initial);
    if (proof) break;
  }
  if (!proof) proof = coupler_.prove(c, initial, true);
  if (!proof) {  // unrelated functions of each loop prove nothing: the path is cut
    explorer_.note(s, "coupled loops without an inductive invariant: paths cut");
    explorer_.cutPath(s, Explorer::Cut::Depth);
    return StepOutcome::Ended;
  }
  // The proof makes the new loop leave as the old one did (lock step).
  // (a copy: loopOutcomes returns a temporary vector, which a reference into it outlived)
  const LoopOutcome how = loopOutcomes(c.loop[Version::kOld]).at(old.outcome);
  const std::vector<LoopOutcome> outs = loopOutcomes(h);
  auto same = std::find(outs.begin(), outs.end(), how);
  if (same == outs.end()) return StepOutcome::Ended;  // the old outcome has no partner: not a real path
  const std::vector<Term> args = loopArgs(entry[Version::kNew], h, tm_);
  const std::string base = "coupled" + std::to_string(c.pair) + ":new";
  LoopState done;
  done[Version::kOld] = old.exit;
  done[Version::kNew] = loopExit(entry[Version::kNew], h, base, args, tm_);
  Term ret;
  if (how.kind == LoopOutcome::Kind::Return && how.ret_kind != 'V')
    ret = old.ret ? old.ret : tm_.apply(base + ":return", terms::FunKind::Uif, sortOfDescriptor(how.ret_kind), args);
  // A new variable the exit relation equates with an old one (or a constant) leaves the loop
  // with that very value instead of a function value plus an equality: the code after the
  // loops then computes the same terms in both versions, and equal outputs need no query
  // (under Java too: `same` is the model's identity, one NaN, +0.0 distinct from -0.0).
  if (how.kind == LoopOutcome::Kind::Exit)
    for (const Conjunct& k : proof->at_exit) {
      if (k.kind == Conjunct::Kind::Constant && k.va == Version::kNew && done[Version::kNew].count(k.a)) {
        done[Version::kNew][k.a] = k.c;
      } else if (k.kind == Conjunct::Kind::Equal && k.va != k.vb) {
        const bool newFirst = k.va == Version::kNew;
        const int n = newFirst ? k.a : k.b, o = newFirst ? k.b : k.a;
        if (done[Version::kNew].count(n) && done[Version::kOld].count(o)) done[Version::kNew][n] = done[Version::kOld][o];
      }
    }
  Term relation = tm_.boolLit(true);
  if (how.kind == LoopOutcome::Kind::Exit)
    for (const Conjunct& k : proof->at_exit) relation = tm_.land(relation, coupler_.instantiate(k, done));
  if (ret && old.ret) relation = tm_.land(relation, tm_.same(old.ret, ret));
  if (!explorer_.assume(s, relation)) return StepOutcome::Ended;
  return leaveLoop(s, h, *same, done[Version::kNew], ret);
}

StepOutcome Interpreter::leaveLoop(State& s, const LoopSummaryHook& h, const LoopOutcome& o,
                                   const std::map<int, Term>& exit, Term ret) {
  switch (o.kind) {
    case LoopOutcome::Kind::Exit: {
      Frame& top = s.frames.back();
      for (const auto& [slot, value] : exit) {
        const std::size_t need = static_cast<std::size_t>(slot) + 2;
        if (top.locals.size() < need) top.locals.resize(need);
        top.locals[static_cast<std::size_t>(slot)] = value;
      }
      return jumpTo(s, static_cast<std::int32_t>(h.exits[o.exit]));
    }
    case LoopOutcome::Kind::Return:
      if (o.ret_kind == 'V') return returnFrom(s, std::nullopt);
      return returnFrom(s, ret);
    case LoopOutcome::Kind::Throw:
      return throwNew(s, o.exception);
  }
  return StepOutcome::Ended;
}

}  // namespace pasda::symexec
