// Coupled loops (ExecOptions::coupled_loops, issue 13; docs/depth-limit.md, "Coupled loops").
//
// The old version's run of its loop is replaced by functions of the loop's variables at the
// header (its own functions, not shared with the new version): which outcome it has, and each
// written variable's value where it leaves. When the new version reaches its loop on the same
// path, the conjuncts over both loops' variables that hold at the two entries (checked against
// the path condition) are weakened to the largest subset S that is inductive: for every pair
// of paths through one iteration of the two bodies from a header state satisfying S, if both
// come back to their headers, S holds again (a Houdini fixpoint over the body paths, which one
// exploration of each body from a symbolic header state gives). S must also make the bodies
// take corresponding outcomes together (lock step), and returns inside them return equal
// values. By induction over the iterations, both loops then run the same number of iterations
// and leave by corresponding outcomes, in states related by the part of S that holds after
// every pair of corresponding exits: that relation, between the old loop's function values and
// the new loop's, is added to the path. Nothing here is shared between the versions, so only
// a proof relates the two loops: a path where none is found is cut.
#include "coupled_loops.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include "interpreter.hpp"
#include "pasda/symexec/affine.hpp"

namespace pasda::symexec {

namespace {

/// The ratios tried after lock step fails: iterations of the old loop and of the new per step.
constexpr std::array<LoopCoupler::Ratio, 4> kRatios{{{2, 1}, {1, 2}, {3, 1}, {1, 3}}};

/// Paths of one step at most, for a ratio to be tried: `paths` per iteration, `times` iterations.
constexpr std::size_t kMaxRatioStepPaths = 64;

bool composable(std::size_t paths, int times) {
  std::size_t n = 1;
  for (int i = 0; i < times; ++i) {
    n *= std::max<std::size_t>(paths, 1);
    if (n > kMaxRatioStepPaths) return false;
  }
  return true;
}

std::string ratioText(const LoopCoupler::Ratio& r) {
  return std::to_string(r[Version::kOld]) + " old iteration" + (r[Version::kOld] > 1 ? "s" : "") + " per " +
         (r[Version::kNew] > 1 ? std::to_string(r[Version::kNew]) + " new ones" : std::string("new one"));
}

/// Candidates over more variables than this are not tried (the queries grow quadratically).
constexpr std::size_t kMaxCandidates = 800;

std::string conjunctKey(const Conjunct& k) {
  return std::to_string(static_cast<int>(k.kind)) + ":" + std::to_string(static_cast<int>(k.va)) + ":" +
         std::to_string(k.a) + ":" + std::to_string(static_cast<int>(k.vb)) + ":" + std::to_string(k.b) + ":" +
         std::to_string(k.c ? k.c.id : 0u);
}

/// The local's source name at `pc` (LocalVariableTable), or v<slot>.
std::string slotName(const MethodInfo* m, int slot, std::uint32_t pc) {
  if (m && m->method && m->method->code)
    for (const jvm::LocalVariable& lv : m->method->code->local_variables)
      if (lv.index == slot && pc >= lv.start_pc && pc <= static_cast<std::uint32_t>(lv.start_pc) + lv.length) return lv.name;
  return "v" + std::to_string(slot);
}

/// `t` as an affine function of the coordinates `index` gives (x' = a · x + c), or nullopt
/// when it is not one (a product of variables, a division, a call, another variable).
std::optional<affine::Map::Row> affineOf(const terms::TermManager& tm, Term t,
                                         const std::unordered_map<Term, std::size_t, terms::TermHash>& index,
                                         std::size_t n, int depth = 0) {
  using terms::Op;
  if (depth > 64) return std::nullopt;
  const terms::Node& node = tm.node(t);
  if (!terms::isIntegral(node.sort)) return std::nullopt;
  affine::Map::Row row{affine::Vector(n, affine::Rational(0)), affine::Rational(0)};
  switch (node.op) {
    case Op::Lit: {
      const std::optional<std::int64_t> v = tm.asInteger(t);
      if (!v) return std::nullopt;
      row.constant = affine::Rational(*v);
      return row;
    }
    case Op::Var: {
      auto it = index.find(t);
      if (it == index.end()) return std::nullopt;
      row.coefficients[it->second] = 1;
      return row;
    }
    case Op::Neg: {
      auto a = affineOf(tm, node.args[0], index, n, depth + 1);
      if (!a) return std::nullopt;
      for (auto& x : a->coefficients) x = -x;
      a->constant = -a->constant;
      return a;
    }
    case Op::Add: case Op::Sub: {
      auto a = affineOf(tm, node.args[0], index, n, depth + 1);
      auto b = a ? affineOf(tm, node.args[1], index, n, depth + 1) : std::nullopt;
      if (!b) return std::nullopt;
      const int sign = node.op == Op::Add ? 1 : -1;
      for (std::size_t i = 0; i < n; ++i) a->coefficients[i] += sign * b->coefficients[i];
      a->constant += sign * b->constant;
      return a;
    }
    case Op::Mul: {
      for (int k : {0, 1}) {
        const std::optional<std::int64_t> f = tm.asInteger(node.args[static_cast<std::size_t>(k)]);
        if (!f) continue;
        auto a = affineOf(tm, node.args[static_cast<std::size_t>(1 - k)], index, n, depth + 1);
        if (!a) return std::nullopt;
        for (auto& x : a->coefficients) x *= *f;
        a->constant *= *f;
        return a;
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

/// The key of a map (to try each distinct one once).
std::string mapKey(const affine::Map& m) {
  std::string k;
  for (const auto& r : m.rows) {
    if (!r) {
      k += "?;";
      continue;
    }
    for (const auto& x : r->coefficients) k += x.str() + ",";
    k += r->constant.str() + ";";
  }
  return k;
}

/// The entries as affine equalities over the coordinates (`at`: (version, slot) -> index), as
/// far as the initial equalities, offsets and constants say.
std::vector<affine::Equality> entryEqualities(const terms::TermManager& tm, const std::vector<Conjunct>& initial,
                                              const std::map<std::pair<Version, int>, std::size_t>& at, std::size_t n) {
  std::vector<affine::Equality> entry;
  for (const Conjunct& k : initial) {
    auto x = at.find({k.va, k.a});
    if (x == at.end() || k.kind == Conjunct::Kind::Formula) continue;
    affine::Equality e{affine::Vector(n, affine::Rational(0)), affine::Rational(0)};
    e.a[x->second] = 1;
    if (k.kind != Conjunct::Kind::Constant) {
      auto y = at.find({k.vb, k.b});
      if (y == at.end() || y->second == x->second) continue;
      e.a[y->second] = -1;
    }
    if (k.kind != Conjunct::Kind::Equal) {
      const std::optional<std::int64_t> v = tm.asInteger(k.c);
      if (!v) continue;
      e.c = *v;
    }
    entry.push_back(std::move(e));
  }
  return entry;
}

/// Bounds of Karr's analysis: coordinates, pairs of body paths, pairs checked for feasibility.
constexpr std::size_t kMaxAffineVariables = 24;
constexpr std::size_t kMaxAffinePairs = 4096;
constexpr std::size_t kMaxAffineQueries = 16;

}  // namespace

bool Conjunct::operator<(const Conjunct& o) const { return conjunctKey(*this) < conjunctKey(o); }
bool Conjunct::operator==(const Conjunct& o) const { return conjunctKey(*this) == conjunctKey(o); }

std::vector<LoopOutcome> loopOutcomes(const LoopSummaryHook& h) {
  std::vector<LoopOutcome> out;
  for (std::size_t i = 0; i < h.exits.size(); ++i) out.push_back({LoopOutcome::Kind::Exit, i, 'V', ""});
  if (!h.returns.empty()) {
    const char kind = h.returns.front().second;
    for (const auto& [pc, k] : h.returns)
      if (k != kind) return {};
    out.push_back({LoopOutcome::Kind::Return, 0, kind, ""});
  }
  for (const std::string& e : h.exceptions) out.push_back({LoopOutcome::Kind::Throw, 0, 'V', e});
  return out;
}

std::vector<std::pair<int, char>> LoopCoupler::variables(const LoopSummaryHook& h) {
  std::map<int, char> vars;
  for (auto [slot, kind] : h.reads) vars.emplace(slot, kind);
  for (auto [slot, kind] : h.writes) vars.emplace(slot, kind);
  return {vars.begin(), vars.end()};
}

const MethodInfo* LoopCoupler::method(Version v, const CoupledLoop& c) {
  const std::string& key = c.method[v];
  const auto colon = key.find(':');
  const auto dot = key.rfind('.', colon);
  if (colon == std::string::npos || dot == std::string::npos) return nullptr;
  return program_.resolveMethod(Side(v), key.substr(0, dot), key.substr(dot + 1, colon - dot - 1), key.substr(colon + 1));
}

const CoupledLoop* LoopCoupler::at(const Frame& f) {
  if (!resolved_) {
    resolved_ = true;
    for (const CoupledLoop& c : opt_.coupled_loops)
      for (Version v : kBothVersions)
        if (const MethodInfo* m = method(v, c)) at_[{m, c.loop[v].header_pc}] = &c;
  }
  if (f.ip < 0 || static_cast<std::size_t>(f.ip) >= f.m->insns.size()) return nullptr;
  auto it = at_.find({f.m, f.m->insns[static_cast<std::size_t>(f.ip)].pc});
  if (it == at_.end() || f.side.isProduct()) return nullptr;
  return it->second;
}

std::vector<Conjunct> LoopCoupler::candidates(const CoupledLoop& c, const LoopState& entry, bool aligned) {
  struct Var {
    Version v;
    int slot;
    Term e;
    std::string name;
    bool written;
  };
  std::vector<Var> vars;
  for (Version v : kBothVersions) {
    const MethodInfo* m = method(v, c);
    std::set<int> written;
    for (auto [slot, kind] : c.loop[v].writes) written.insert(slot);
    for (auto [slot, kind] : variables(c.loop[v])) {
      auto it = entry[v].find(slot);
      if (it != entry[v].end() && it->second)
        vars.push_back({v, slot, it->second, slotName(m, slot, c.loop[v].header_pc), written.count(slot) > 0});
    }
  }
  // Aligned: a variable of one version with its namesake of the other (or the same slot
  // without names), and the variables of one version the loop does not write with each other.
  auto related = [&](const Var& x, const Var& y) {
    if (!aligned) return true;
    if (x.v == y.v) return !x.written && !y.written;
    return x.name == y.name;
  };
  std::vector<Conjunct> out;
  for (const Var& x : vars)
    if (tm_.isLit(x.e)) out.push_back({Conjunct::Kind::Constant, x.v, x.v, x.slot, 0, x.e});
  // Bounds within a version: a variable the loop writes against an integral one it only reads,
  // both ways (i(new) <= n(new): what keeps `i != n` in lock step with `i < n`). Formulas over
  // the bodies' header variables, so only once both bodies are explored.
  const Bodies& b = bodies(c, Ratio{1, 1});  // the header variables are those of every ratio
  if (b.failure.empty())
    for (const Var& w : vars)
      for (const Var& r : vars) {
        if (w.v != r.v || !w.written || r.written || !terms::isIntegral(tm_.sort(w.e)) || tm_.sort(w.e) != tm_.sort(r.e))
          continue;
        if (out.size() + 2 >= kMaxCandidates) break;
        const Term hw = b.header[w.v].at(w.slot), hr = b.header[r.v].at(r.slot);
        out.push_back({Conjunct::Kind::Formula, w.v, w.v, 0, 0, tm_.le(hw, hr)});
        out.push_back({Conjunct::Kind::Formula, w.v, w.v, 0, 0, tm_.le(hr, hw)});
      }
  const bool exactDifferences = tm_.arith() == terms::Arith::Math;
  for (std::size_t i = 0; i < vars.size(); ++i)
    for (std::size_t j = i + 1; j < vars.size(); ++j) {
      const Var &x = vars[i], &y = vars[j];
      const Sort s = tm_.sort(x.e);
      if (s != tm_.sort(y.e) || !related(x, y)) continue;
      // Two constants that the loop does not change: their Constant conjuncts say it all.
      if (tm_.isLit(x.e) && tm_.isLit(y.e) && !x.written && !y.written) continue;
      if (out.size() >= kMaxCandidates) return out;
      out.push_back({Conjunct::Kind::Equal, x.v, y.v, x.slot, y.slot, Term{}});
      if (!terms::isIntegral(s) && !exactDifferences) continue;  // IEEE differences are not translations
      Term d = tm_.sub(x.e, y.e);
      if (tm_.isLit(d) && d != tm_.lit(s, 0))
        out.push_back({Conjunct::Kind::Offset, x.v, y.v, x.slot, y.slot, d});
    }
  return out;
}

Term LoopCoupler::instantiate(const Conjunct& k, const LoopState& st) {
  auto value = [&](Version v, int slot) {
    auto it = st[v].find(slot);
    if (it == st[v].end() || !it->second) throw ExecError("coupled loops: no value of local " + std::to_string(slot));
    return it->second;
  };
  if (k.kind == Conjunct::Kind::Formula) {
    // The formula over the header variables, at `st`. A variable without a value here (one
    // the loop writes before it reads, at an entry) leaves the conjunct out: a weaker relation.
    std::vector<Term> vars;
    tm_.collectVars(k.c, vars);
    std::unordered_map<Term, Term, terms::TermHash> at;
    for (Term x : vars) {
      auto h = header_vars_.find(x);
      if (h == header_vars_.end()) continue;
      auto it = st[h->second.first].find(h->second.second);
      if (it == st[h->second.first].end() || !it->second) return tm_.boolLit(true);
      if (it->second != x) at.emplace(x, it->second);
    }
    return at.empty() ? k.c : tm_.substitute(k.c, at);
  }
  const Term a = value(k.va, k.a);
  switch (k.kind) {
    case Conjunct::Kind::Constant: return tm_.same(a, k.c);
    case Conjunct::Kind::Equal: return tm_.same(a, value(k.vb, k.b));
    case Conjunct::Kind::Offset: return tm_.eq(tm_.sub(a, value(k.vb, k.b)), k.c);
    case Conjunct::Kind::Formula: break;
  }
  return tm_.boolLit(false);
}

std::vector<Term> LoopCoupler::all(const std::vector<Conjunct>& ks, const LoopState& st) {
  std::vector<Term> out;
  out.reserve(ks.size());
  for (const Conjunct& k : ks) out.push_back(instantiate(k, st));
  return out;
}

solver::Status LoopCoupler::query(const std::vector<Term>& facts, const std::vector<Term>& probe, std::vector<bool>* holds) {
  solver::Solver& z = *opt_.proof_solver;
  unsigned budget = opt_.solver_timeout_ms;
  if (opt_.deadline != Clock::time_point::max()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(opt_.deadline - Clock::now()).count();
    if (left <= 0) return solver::Status::Unknown;
    if (budget == 0 || static_cast<unsigned long long>(left) < budget) budget = static_cast<unsigned>(left);
  }
  z.push();
  for (Term f : facts) z.add(f);
  z.setTimeoutMs(budget);
  solver::Status st = solver::Status::Unknown;
  try {
    st = z.check().status;
    if (st == solver::Status::Sat && holds) {
      holds->assign(probe.size(), false);
      for (std::size_t i = 0; i < probe.size(); ++i) {
        std::optional<Term> v = z.eval(probe[i]);
        std::optional<bool> b = v ? tm_.asBool(*v) : std::nullopt;
        (*holds)[i] = b && *b;
      }
    }
  } catch (const std::exception&) {
    st = solver::Status::Unknown;
  }
  z.pop();
  return st;
}

LoopCoupler::Assumed LoopCoupler::assume(const std::vector<Conjunct>& ks, const LoopState& header) {
  // Union-find over the loop variables of both versions, by (version, slot).
  std::map<std::pair<Version, int>, std::pair<Version, int>> parent;
  auto find = [&](std::pair<Version, int> k) {
    while (parent.count(k) && parent[k] != k) k = parent[k];
    return k;
  };
  auto var = [&](std::pair<Version, int> k) { return header[k.first].at(k.second); };
  // Every equality and constant is substituted, floating-point ones under Java too: `same` is
  // Z3's structural equality, which has one NaN and tells +0.0 from -0.0, so two values that are
  // the same are one value of the model. (NaN payloads are not modelled anywhere in the engine,
  // docs/arithmetic-models.md; Java's operations other than the raw-bit conversions cannot tell
  // them apart.)
  auto substitutable = [&](std::pair<Version, int>) { return true; };
  Assumed out;
  std::map<std::pair<Version, int>, Term> constant;
  for (const Conjunct& k : ks) {
    const std::pair<Version, int> x{k.va, k.a}, y{k.vb, k.b};
    if (k.kind == Conjunct::Kind::Equal && substitutable(x)) {
      parent.emplace(x, x);
      parent.emplace(y, y);
      const auto rx = find(x), ry = find(y);
      if (rx != ry) parent[std::max(rx, ry)] = std::min(rx, ry);
    } else if (k.kind == Conjunct::Kind::Constant && substitutable(x)) {
      parent.emplace(x, x);
    }
  }
  std::vector<Conjunct> rest;
  for (const Conjunct& k : ks) {
    const std::pair<Version, int> x{k.va, k.a};
    if (k.kind == Conjunct::Kind::Constant && substitutable(x)) {
      auto [it, fresh] = constant.emplace(find(x), k.c);
      if (!fresh && it->second != k.c) rest.push_back(k);  // (contradictory: kept as a fact)
    } else if (k.kind != Conjunct::Kind::Equal || !substitutable(x)) {
      rest.push_back(k);
    }
  }
  for (const auto& [key, up] : parent) {
    const auto root = find(key);
    auto c = constant.find(root);
    const Term to = c != constant.end() ? c->second : var(root);
    if (to != var(key)) out.sigma.emplace(var(key), to);
  }
  // An offset b == a - c whose b is in no class yet becomes a substitution too.
  for (const Conjunct& k : rest) {
    const std::pair<Version, int> y{k.vb, k.b};
    if (k.kind == Conjunct::Kind::Offset && !parent.count(y) && !out.sigma.count(var(y)) && !out.sigma.count(var({k.va, k.a})) &&
        std::pair<Version, int>{k.va, k.a} != y) {
      bool usedAsTarget = false;
      for (const auto& [from, to] : out.sigma) {
        std::vector<Term> vars;
        tm_.collectVars(to, vars);
        usedAsTarget = usedAsTarget || std::find(vars.begin(), vars.end(), var(y)) != vars.end();
      }
      if (!usedAsTarget) {
        const Term a = var({k.va, k.a});
        out.sigma.emplace(var(y), tm_.sub(out.sigma.count(a) ? out.sigma.at(a) : a, k.c));
        parent.emplace(y, y);
        continue;
      }
    }
    out.facts.push_back(instantiate(k, header));
  }
  for (Term& f : out.facts) f = out.sigma.empty() ? f : tm_.substitute(f, out.sigma);
  return out;
}

bool LoopCoupler::contradictory(Term conj) const {
  if (auto b = tm_.asBool(conj)) return !*b;
  std::set<Term> atoms;
  std::vector<Term> stack{conj};
  while (!stack.empty()) {
    const Term t = stack.back();
    stack.pop_back();
    if (tm_.op(t) == terms::Op::And) {
      for (Term c : tm_.node(t).args) stack.push_back(c);
    } else {
      atoms.insert(t);
    }
  }
  auto& tm = const_cast<terms::TermManager&>(tm_);
  for (Term t : atoms)
    if (atoms.count(tm.lnot(t))) return true;
  return false;
}

std::vector<LoopCoupler::PathView> LoopCoupler::view(const std::vector<BodyPath>& paths, const Assumed& a) {
  auto sub = [&](Term t) { return !t || a.sigma.empty() ? t : tm_.substitute(t, a.sigma); };
  std::vector<PathView> out;
  for (const BodyPath& p : paths) {
    PathView v;
    v.path = &p;
    v.pc = tm_.boolLit(true);
    for (Term c : p.pc) v.pc = tm_.land(v.pc, sub(c));
    for (const auto& [slot, t] : p.post) v.post[slot] = sub(t);
    v.ret = sub(p.ret);
    out.push_back(std::move(v));
  }
  return out;
}

std::optional<bool> LoopCoupler::dropFailing(const Bodies& b, std::vector<Conjunct>& ks, const std::vector<Conjunct>& assumed,
                                             const std::function<bool(const BodyPath&, const BodyPath&)>& select) {
  const Assumed a = assume(assumed, b.header);
  const std::vector<PathView> olds = view(b.paths[Version::kOld], a), news = view(b.paths[Version::kNew], a);
  for (const PathView& p : olds) {
    if (auto f = tm_.asBool(p.pc); f && !*f) continue;
    for (const PathView& q : news) {
      if (!select(*p.path, *q.path)) continue;
      Term pcs = tm_.land(p.pc, q.pc);
      if (contradictory(pcs)) continue;
      LoopState post;
      post[Version::kOld] = p.post;
      post[Version::kNew] = q.post;
      const std::vector<Term> goal = all(ks, post);
      Term conj = tm_.boolLit(true);
      for (Term g : goal) conj = tm_.land(conj, g);
      if (auto t = tm_.asBool(conj); t && *t) continue;
      std::vector<Term> facts = a.facts;
      facts.push_back(pcs);
      facts.push_back(tm_.lnot(conj));
      std::vector<bool> holds;
      const solver::Status st = query(facts, goal, &holds);
      if (st == solver::Status::Unsat) continue;
      // The solver cannot tell (nonlinear, floating point): what does not hold syntactically is
      // dropped — a weaker invariant, never a wrong one.
      if (st != solver::Status::Sat) {
        holds.clear();
        for (Term g : goal) holds.push_back(tm_.asBool(g).value_or(false));
      }
      std::vector<Conjunct> kept;
      for (std::size_t i = 0; i < ks.size(); ++i)
        if (holds[i]) kept.push_back(ks[i]);
      if (kept.size() == ks.size()) return std::nullopt;  // a model falsifies the conjunction but no conjunct
      ks = std::move(kept);
      return true;
    }
  }
  return false;
}

bool LoopCoupler::houdini(const Bodies& b, std::vector<Conjunct>& ks, const std::vector<Conjunct>* assumed,
                          const std::function<bool(const BodyPath&, const BodyPath&)>& select) {
  for (std::size_t round = 0; round <= ks.size() + 1; ++round) {
    const std::optional<bool> dropped = dropFailing(b, ks, assumed ? *assumed : ks, select);
    if (!dropped) return false;
    if (!*dropped) return true;
  }
  return false;
}

std::vector<Conjunct> LoopCoupler::affineCandidates(const CoupledLoop& c, const Bodies& b,
                                                    const std::vector<Conjunct>& initial,
                                                    const std::vector<Conjunct>& inductive) {
  (void)c;
  // Coordinates: the integral loop variables of both versions.
  std::vector<Term> coords;
  std::map<std::pair<Version, int>, std::size_t> at;
  for (Version v : kBothVersions)
    for (const auto& [slot, x] : b.header[v])
      if (terms::isIntegral(tm_.sort(x))) {
        at[{v, slot}] = coords.size();
        coords.push_back(x);
      }
  const std::size_t n = coords.size();
  if (n < 2 || n > kMaxAffineVariables) return {};
  const std::optional<std::vector<affine::Map>> maps = iterationMaps(b, inductive, coords);
  if (!maps) return {};
  const affine::Space reach = affine::closure(affine::Space::solutions(n, entryEqualities(tm_, initial, at, n)), *maps);
  // Its equalities as conjuncts, each checked to follow from the initial conjuncts.
  const std::vector<Term> given = all(initial, b.header);
  std::vector<Conjunct> out;
  for (const affine::Equality& e : reach.equalities()) {
    const std::optional<Conjunct> k = affineConjunct(e, coords);
    if (!k || std::find(inductive.begin(), inductive.end(), *k) != inductive.end()) continue;
    std::vector<Term> facts = given;
    facts.push_back(tm_.lnot(instantiate(*k, b.header)));
    if (query(facts, {}, nullptr) != solver::Status::Unsat) continue;
    out.push_back(*k);
  }
  return out;
}

std::optional<std::vector<affine::Map>> LoopCoupler::iterationMaps(const Bodies& b, const std::vector<Conjunct>& inductive,
                                                                   const std::vector<Term>& coords) {
  const std::size_t n = coords.size();
  std::unordered_map<Term, std::size_t, terms::TermHash> index;
  for (std::size_t i = 0; i < n; ++i) index[coords[i]] = i;
  // One map per distinct pair of iterations that both come back to their headers and that
  // the inductive conjuncts found so far leave feasible.
  const Assumed a = assume(inductive, b.header);
  const std::vector<PathView> olds = view(b.paths[Version::kOld], a), news = view(b.paths[Version::kNew], a);
  // Pairs the solver shows infeasible are left out (a more precise space), but only where
  // there are few: with many paths (Ell/brent's 40 × 40) the queries would cost more than the
  // whole proof, and the syntactic test alone is kept.
  std::size_t backOld = 0, backNew = 0;
  for (const PathView& pv : olds) backOld += pv.path->back ? 1 : 0;
  for (const PathView& qv : news) backNew += qv.path->back ? 1 : 0;
  const bool filter = backOld * backNew <= kMaxAffineQueries;
  std::map<std::string, affine::Map> maps;
  std::size_t pairs = 0;
  for (const PathView& pv : olds) {
    if (!pv.path->back) continue;
    for (const PathView& qv : news) {
      if (!qv.path->back) continue;
      const Term pcs = tm_.land(pv.pc, qv.pc);
      if (contradictory(pcs)) continue;
      if (++pairs > kMaxAffinePairs) return std::nullopt;
      affine::Map m;
      for (std::size_t i = 0; i < n; ++i) {
        const auto& [v, slot] = header_vars_.at(coords[i]);
        const std::map<int, Term>& post = v == Version::kOld ? pv.path->post : qv.path->post;
        auto it = post.find(slot);
        m.rows.push_back(it != post.end() && it->second ? affineOf(tm_, it->second, index, n) : std::nullopt);
      }
      std::string key = mapKey(m);
      if (maps.count(key)) continue;
      if (filter) {
        std::vector<Term> facts = a.facts;
        facts.push_back(pcs);
        if (query(facts, {}, nullptr) == solver::Status::Unsat) continue;
      }
      maps.emplace(std::move(key), std::move(m));
    }
  }
  std::vector<affine::Map> out;
  for (auto& [key, m] : maps) out.push_back(std::move(m));
  return out;
}

std::optional<Conjunct> LoopCoupler::affineConjunct(const affine::Equality& e, const std::vector<Term>& coords) {
  std::vector<std::size_t> support;
  bool units = true;
  for (std::size_t i = 0; i < coords.size(); ++i)
    if (e.a[i] != 0) {
      support.push_back(i);
      units = units && (e.a[i] == 1 || e.a[i] == -1);
    }
  if (support.empty()) return std::nullopt;
  // One sort, coefficients and constant within its range.
  const Sort sort = tm_.sort(coords[support[0]]);
  const affine::Rational lo = sort == Sort::Int ? affine::Rational(INT32_MIN) : affine::Rational(INT64_MIN);
  const affine::Rational hi = sort == Sort::Int ? affine::Rational(INT32_MAX) : affine::Rational(INT64_MAX);
  auto fits = [&](const affine::Rational& r) { return r >= lo && r <= hi; };
  bool ok = fits(e.c);
  for (std::size_t i : support) ok = ok && tm_.sort(coords[i]) == sort && fits(e.a[i]);
  if (!ok) return std::nullopt;
  auto literal = [&](const affine::Rational& r) {
    return tm_.lit(sort, static_cast<std::uint64_t>(static_cast<std::int64_t>(boost::multiprecision::numerator(r))));
  };
  // x == c and x - y == c are the ordinary kinds (whose equalities substitute); the rest
  // are formulas.
  Conjunct k;
  if (units && support.size() == 1) {
    k.kind = Conjunct::Kind::Constant;
    k.c = literal(e.c * e.a[support[0]]);
  } else if (units && support.size() == 2 && e.a[support[0]] != e.a[support[1]]) {
    k.kind = e.c == 0 ? Conjunct::Kind::Equal : Conjunct::Kind::Offset;
    if (e.c != 0) k.c = literal(e.c * e.a[support[0]]);
  } else {
    // (the first coefficient is positive: the sum starts with it, negative ones subtract)
    Term lhs;
    for (std::size_t i : support) {
      const affine::Rational mag = e.a[i] < 0 ? affine::Rational(-e.a[i]) : e.a[i];
      const Term term = mag == 1 ? coords[i] : tm_.mul(literal(mag), coords[i]);
      lhs = !lhs ? term : e.a[i] < 0 ? tm_.sub(lhs, term) : tm_.add(lhs, term);
    }
    k.kind = Conjunct::Kind::Formula;
    k.c = tm_.eq(lhs, literal(e.c));
    return k;
  }
  std::tie(k.va, k.a) = header_vars_.at(coords[support[0]]);
  if (support.size() > 1) {
    std::tie(k.vb, k.b) = header_vars_.at(coords[support[1]]);
  } else {
    k.vb = k.va;  // (as candidates() makes constants)
    k.b = 0;
  }
  return k;
}

bool LoopCoupler::outcomesCorrespond(const Bodies& b, const std::vector<Conjunct>& ks) {
  const Assumed a = assume(ks, b.header);
  const std::vector<PathView> olds = view(b.paths[Version::kOld], a), news = view(b.paths[Version::kNew], a);
  for (const PathView& pv : olds)
    for (const PathView& qv : news) {
      const BodyPath &p = *pv.path, &q = *qv.path;
      Term pcs = tm_.land(pv.pc, qv.pc);
      if (contradictory(pcs)) continue;
      std::vector<Term> facts = a.facts;
      facts.push_back(pcs);
      const bool together = !p.cut && !q.cut && p.back == q.back && (p.back || p.outcome == q.outcome);
      if (!together) {
        if (query(facts, {}, nullptr) != solver::Status::Unsat) return false;
        continue;
      }
      if (!p.back && p.outcome.kind == LoopOutcome::Kind::Return && pv.ret && qv.ret) {
        Term same = tm_.same(pv.ret, qv.ret);
        if (auto t = tm_.asBool(same); t && *t) continue;
        facts.push_back(tm_.lnot(same));
        if (query(facts, {}, nullptr) != solver::Status::Unsat) return false;
      }
    }
  return true;
}

std::optional<LoopCoupler::Proof> LoopCoupler::prove(const CoupledLoop& c, const std::vector<Conjunct>& initial,
                                                    bool ratios) {
  std::vector<Conjunct> key = initial;
  std::sort(key.begin(), key.end());
  auto cached = proofs_.find({c.pair, ratios, key});
  if (cached != proofs_.end()) return cached->second;
  const std::string where = "loop pair " + std::to_string(c.pair) + " (old pc " + std::to_string(c.loop[Version::kOld].header_pc) +
                            ", new pc " + std::to_string(c.loop[Version::kNew].header_pc) + ")";
  std::optional<Proof> proof;
  if (!ratios) {
    proof = proveAt(c, initial, Ratio{1, 1}, where);
  } else {
    // A loop unrolled (or halved) against the other runs at a fixed ratio: a step of two or
    // three iterations of one loop against one of the other, with the same proof over the
    // composed bodies; only where the composed bodies stay small (the proof's queries grow
    // with the pairs of their paths). Notes of ratios that fail are not kept (one line says
    // which were tried).
    const Bodies& one = bodies(c, Ratio{1, 1});
    const std::set<std::string> before = notes_;
    std::string tried;
    for (const Ratio& r : kRatios) {
      if (proof || !one.failure.empty() || Clock::now() >= opt_.deadline) break;
      if (!composable(one.paths[Version::kOld].size(), r[Version::kOld]) ||
          !composable(one.paths[Version::kNew].size(), r[Version::kNew]))
        continue;
      proof = proveAt(c, initial, r, where + " at " + ratioText(r));
      if (!proof) {
        notes_ = before;
        tried += (tried.empty() ? "" : ", ") + ratioText(r);
      }
    }
    if (!proof && !tried.empty()) note(where + ": not coupled at " + tried + " either");
  }
  proofs_.emplace(std::make_tuple(c.pair, ratios, key), proof);
  return proof;
}

std::optional<LoopCoupler::Proof> LoopCoupler::proveAt(const CoupledLoop& c, const std::vector<Conjunct>& initial, Ratio r,
                                                      const std::string& where) {
  std::optional<Proof> proof;
  const Bodies& b = bodies(c, r);
  std::vector<Conjunct> inductive = initial;
  auto backTogether = [](const BodyPath& p, const BodyPath& q) { return p.back && q.back; };
  // The affine equalities Karr's analysis finds (k(old) == 2 * m(new), ...) join the inductive
  // conjuncts when they are inductive with them; anything they do not prove is dropped again.
  // Then, where the loops are not in lock step or an equality across the versions was lost, the
  // conjuncts of Spacer's invariant for the Horn clauses over both bodies, checked the same way.
  auto widen = [&](std::vector<Conjunct> extra) {
    if (extra.empty()) return;
    std::vector<Conjunct> widened = inductive;
    widened.insert(widened.end(), extra.begin(), extra.end());
    if (houdini(b, widened, nullptr, backTogether)) inductive = std::move(widened);
  };
  auto widenAffine = [&] {
    widen(affineCandidates(c, b, initial, inductive));
    widenByHorn(c, b, initial, inductive);
  };
  if (!b.failure.empty()) {
    note(where + ": not coupled: " + b.failure);
  } else if (!houdini(b, inductive, nullptr, backTogether)) {
    note(where + ": not coupled: no inductive invariant found among the entry relations");
  } else if (!(widenAffine(), outcomesCorrespond(b, inductive))) {
    note(where + ": not coupled: the loops do not run in lock step under " +
         (inductive.empty() ? std::string("any relation found") : describe(c, inductive)));
  } else {
    std::vector<Conjunct> atExit = inductive;
    auto sameExit = [](const BodyPath& p, const BodyPath& q) {
      return !p.back && !q.back && !p.cut && !q.cut && p.outcome.kind == LoopOutcome::Kind::Exit && p.outcome == q.outcome;
    };
    if (!houdini(b, atExit, &inductive, sameExit)) atExit.clear();
    note(where + ": invariant " + describe(c, inductive) + "; at the exits " + describe(c, atExit));
    proof = Proof{inductive, atExit};
  }
  return proof;
}

std::string LoopCoupler::describe(const CoupledLoop& c, const std::vector<Conjunct>& ks) const {
  if (ks.empty()) return "(nothing)";
  auto* self = const_cast<LoopCoupler*>(this);
  auto name = [&](Version v, int slot) {
    return slotName(self->method(v, c), slot, c.loop[v].header_pc) + "(" + std::string(versionName(v)) + ")";
  };
  std::string out;
  for (const Conjunct& k : ks) {
    out += out.empty() ? "" : ", ";
    switch (k.kind) {
      case Conjunct::Kind::Constant: out += name(k.va, k.a) + " == " + tm_.toString(k.c); break;
      case Conjunct::Kind::Equal: out += name(k.va, k.a) + " == " + name(k.vb, k.b); break;
      case Conjunct::Kind::Offset: out += name(k.va, k.a) + " - " + name(k.vb, k.b) + " == " + tm_.toString(k.c); break;
      case Conjunct::Kind::Formula: {
        std::vector<Term> vars;
        tm_.collectVars(k.c, vars);
        std::unordered_map<Term, Term, terms::TermHash> named;
        for (Term x : vars)
          if (auto h = header_vars_.find(x); h != header_vars_.end())
            named.emplace(x, self->tm_.var(name(h->second.first, h->second.second), tm_.sort(x)));
        out += tm_.toString(named.empty() ? k.c : self->tm_.substitute(k.c, named));
        break;
      }
    }
  }
  return out;
}

}  // namespace pasda::symexec
