// Constrained Horn clauses over one relation, solved by Z3's Spacer (include/pasda/solver/horn.hpp),
// and Spacer's invariant read back as terms.
#include "pasda/solver/horn.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "z3_contexts.hpp"
#include "z3_translate.hpp"

namespace pasda::solver {

namespace {

using terms::Sort;
using terms::Term;

// Debian's Z3 (4.8.12) leaks memory when a timeout cancels Spacer: about 1 MB per call when the
// timer fires in its first milliseconds, some hundred bytes later (LeakSanitizer, 6 Dec: the
// pipeline fuzzer's finding), and nothing when Spacer stops at a resource limit. So the budget
// is given as a resource limit, at about what Spacer spends per millisecond on this machine
// (850 to 1,000 units on the tests' flag problem, after some 15 ms of setting up), and the
// timeout is only a backstop at three times the budget and never below 250 ms, which a run near
// the calibrated speed does not reach.
constexpr std::uint64_t kRlimitPerMs = 1000;
constexpr std::uint64_t kBackstopFactor = 3;
constexpr std::uint64_t kMinBackstopMs = 250;

/// The uninterpreted constants of `e` (the variables a clause quantifies).
void collectConstants(const z3::expr& e, std::set<unsigned>& seen, z3::expr_vector& out) {
  if (!e.is_app()) return;
  const unsigned id = Z3_get_ast_id(e.ctx(), e);
  if (!seen.insert(id).second) return;
  if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
    out.push_back(e);
    return;
  }
  for (unsigned i = 0; i < e.num_args(); ++i) collectConstants(e.arg(i), seen, out);
}

/// What Spacer does not take: applications of uninterpreted functions (calls of identical
/// helpers, library functions the model leaves open) and nonlinear arithmetic (a product of two
/// unknowns, a division or remainder by one, a power, a conversion from bit-vectors).
bool abstracted(const z3::expr& e) {
  if (e.num_args() == 0) return false;
  switch (e.decl().decl_kind()) {
    case Z3_OP_UNINTERPRETED: case Z3_OP_POWER: case Z3_OP_BV2INT: case Z3_OP_INT2BV: return true;
    case Z3_OP_DIV: case Z3_OP_IDIV: case Z3_OP_MOD: case Z3_OP_REM: return !e.arg(1).is_numeral();
    case Z3_OP_MUL: {
      unsigned unknowns = 0;
      for (unsigned i = 0; i < e.num_args(); ++i) unknowns += e.arg(i).is_numeral() ? 0 : 1;
      return unknowns > 1;
    }
    default: return false;
  }
}

/// The subterms `abstracted` names in `e`, innermost first.
void collectApplications(const z3::expr& e, std::set<unsigned>& seen, std::vector<z3::expr>& out) {
  if (!e.is_app() || !seen.insert(Z3_get_ast_id(e.ctx(), e)).second) return;
  for (unsigned i = 0; i < e.num_args(); ++i) collectApplications(e.arg(i), seen, out);
  if (abstracted(e)) out.push_back(e);
}

/// Each such subterm becomes a fresh constant of the clause, with Ackermann's constraints
/// (equal arguments, equal results) for two applications of one function — exact within the
/// clause for functions, an over-approximation for the arithmetic; across clauses (iterations) the results are merely
/// arbitrary, which only makes the clauses weaker.
z3::expr ackermannize(const z3::expr& clause, const z3::func_decl& inv) {
  std::set<unsigned> seen;
  std::vector<z3::expr> apps;
  collectApplications(clause, seen, apps);
  z3::context& ctx = clause.ctx();
  z3::expr_vector from(ctx), to(ctx);
  std::vector<std::pair<z3::expr, z3::expr>> replaced;  // (application with its arguments replaced, constant)
  for (const z3::expr& a : apps) {
    if (z3::eq(a.decl(), inv)) continue;
    z3::expr_vector args(ctx);
    for (unsigned i = 0; i < a.num_args(); ++i) args.push_back(a.arg(i).substitute(from, to));
    z3::expr k = ctx.constant(("ack!" + std::to_string(from.size())).c_str(), a.get_sort());
    replaced.emplace_back(a.decl()(args), k);
    from.push_back(a);
    to.push_back(k);
  }
  if (from.empty()) return clause;
  z3::expr side = ctx.bool_val(true);
  for (std::size_t i = 0; i < replaced.size(); ++i)
    for (std::size_t j = i + 1; j < replaced.size(); ++j) {
      const z3::expr &p = replaced[i].first, &q = replaced[j].first;
      if (!z3::eq(p.decl(), q.decl())) continue;
      z3::expr same = ctx.bool_val(true);
      for (unsigned k = 0; k < p.num_args(); ++k) same = same && p.arg(k) == q.arg(k);
      side = side && z3::implies(same, replaced[i].second == replaced[j].second);
    }
  // clause is body => head: the constraints join the body.
  return z3::implies(clause.arg(0).substitute(from, to) && side, clause.arg(1).substitute(from, to));
}

void addClause(z3::solver& s, const z3::func_decl& inv, const z3::expr& body, const z3::expr& head) {
  z3::expr clause = ackermannize(z3::implies(body, head), inv);
  std::set<unsigned> seen;
  z3::expr_vector vars(s.ctx());
  collectConstants(clause, seen, vars);
  s.add(vars.empty() ? clause : z3::forall(vars, clause));
}

/// Reads Spacer's interpretation (a formula over de Bruijn variables, index i = vars[i]) back
/// into terms. Arithmetic atoms are read as linear sums and rebuilt without subtraction: every
/// coefficient on the side where it is positive (`x <= y`, not `x - y <= 0`), so that under
/// Java's wrapping arithmetic the atom means what Spacer meant wherever the sums do not wrap.
class Reader {
 public:
  Reader(terms::TermManager& tm, const std::vector<Term>& vars) : tm_(tm), vars_(vars) {}

  std::optional<Term> formula(const z3::expr& e) {
    if (e.is_true()) return tm_.boolLit(true);
    if (e.is_false()) return tm_.boolLit(false);
    if (!e.is_app()) return std::nullopt;
    const Z3_decl_kind k = e.decl().decl_kind();
    std::vector<Term> args;
    if (k == Z3_OP_AND || k == Z3_OP_OR || k == Z3_OP_NOT || k == Z3_OP_IMPLIES ||
        (k == Z3_OP_EQ && e.arg(0).is_bool())) {
      for (unsigned i = 0; i < e.num_args(); ++i) {
        std::optional<Term> a = formula(e.arg(i));
        if (!a) return std::nullopt;
        args.push_back(*a);
      }
      switch (k) {
        case Z3_OP_NOT: return tm_.lnot(args[0]);
        case Z3_OP_IMPLIES: return tm_.lor(tm_.lnot(args[0]), args[1]);
        case Z3_OP_EQ: return tm_.lor(tm_.land(args[0], args[1]), tm_.land(tm_.lnot(args[0]), tm_.lnot(args[1])));
        default: {
          Term acc = args[0];
          for (std::size_t i = 1; i < args.size(); ++i) acc = k == Z3_OP_AND ? tm_.land(acc, args[i]) : tm_.lor(acc, args[i]);
          return acc;
        }
      }
    }
    if (e.num_args() != 2) return std::nullopt;
    if (k != Z3_OP_LE && k != Z3_OP_GE && k != Z3_OP_LT && k != Z3_OP_GT && k != Z3_OP_EQ) return std::nullopt;
    return atom(k, e.arg(0), e.arg(1));
  }

 private:
  /// sum of coefficient * vars[index] + constant, in exact rationals as Z3 numerals.
  struct Linear {
    std::map<unsigned, z3::expr> coef;
    std::optional<z3::expr> constant;
  };

  static z3::expr plus(const std::optional<z3::expr>& a, const z3::expr& b) { return a ? (*a + b).simplify() : b; }

  bool linear(const z3::expr& e, const z3::expr& scale, Linear& out) {
    if (Z3_get_ast_kind(e.ctx(), e) == Z3_VAR_AST) {
      const unsigned i = Z3_get_index_value(e.ctx(), e);
      if (i >= vars_.size()) return false;
      auto it = out.coef.find(i);
      if (it == out.coef.end()) out.coef.emplace(i, scale);
      else it->second = (it->second + scale).simplify();
      return true;
    }
    if (e.is_numeral()) {
      out.constant = plus(out.constant, (scale * e).simplify());
      return true;
    }
    if (!e.is_app()) return false;
    switch (e.decl().decl_kind()) {
      case Z3_OP_ADD:
        for (unsigned i = 0; i < e.num_args(); ++i)
          if (!linear(e.arg(i), scale, out)) return false;
        return true;
      case Z3_OP_SUB:
        for (unsigned i = 0; i < e.num_args(); ++i)
          if (!linear(e.arg(i), i == 0 ? scale : (-scale).simplify(), out)) return false;
        return true;
      case Z3_OP_UMINUS: return linear(e.arg(0), (-scale).simplify(), out);
      case Z3_OP_TO_REAL: return linear(e.arg(0), scale, out);
      case Z3_OP_MUL: {
        z3::expr factor = scale;
        std::optional<z3::expr> rest;
        for (unsigned i = 0; i < e.num_args(); ++i) {
          if (e.arg(i).is_numeral()) factor = (factor * e.arg(i)).simplify();
          else if (rest) return false;  // nonlinear
          else rest = e.arg(i);
        }
        if (!rest) {
          out.constant = plus(out.constant, factor);
          return true;
        }
        return linear(*rest, factor, out);
      }
      default: return false;
    }
  }

  /// The literal of sort `s` equal to the numeral `v`, if there is one.
  std::optional<Term> literal(const z3::expr& v, Sort s) {
    std::string text;
    if (terms::isIntegral(s)) {
      std::int64_t x = 0;
      if (!v.is_numeral_i64(x)) return std::nullopt;
      if (s == Sort::Int && (x < INT32_MIN || x > INT32_MAX)) return std::nullopt;
      return s == Sort::Int ? tm_.intLit(static_cast<std::int32_t>(x)) : tm_.longLit(x);
    }
    std::optional<Term> t = detail::literalOfValue(tm_, v, s, text, false);
    return t && text.empty() ? t : std::nullopt;  // only rationals the float or double is exactly
  }

  /// sum of |coefficient| * var over the variables whose coefficient has sign `positive`, plus
  /// `extra` (a non-negative numeral); nullopt if nothing is summed (the side is 0).
  std::optional<Term> side(const Linear& l, bool positive, const std::optional<z3::expr>& extra, Sort s, bool& ok) {
    std::optional<Term> acc;
    auto addTerm = [&](Term t) { acc = acc ? tm_.add(*acc, t) : t; };
    for (const auto& [i, c] : l.coef) {
      const bool pos = c.is_numeral() && (c > 0).simplify().is_true();
      const bool zero = (c == 0).simplify().is_true();
      if (zero || pos != positive) continue;
      z3::expr mag = positive ? c : (-c).simplify();
      const bool one = (mag == 1).simplify().is_true();
      std::optional<Term> k = one ? std::nullopt : literal(mag, s);
      if (!one && !k) ok = false;
      if (!ok) return std::nullopt;
      addTerm(one ? vars_[i] : tm_.mul(*k, vars_[i]));
    }
    if (extra) {
      std::optional<Term> k = literal(*extra, s);
      if (!k) {
        ok = false;
        return std::nullopt;
      }
      addTerm(*k);
    }
    return acc;
  }

  std::optional<Term> atom(Z3_decl_kind k, const z3::expr& lhs, const z3::expr& rhs) {
    z3::context& ctx = lhs.ctx();
    Linear l;
    if (!linear(lhs, ctx.int_val(1), l) || !linear(rhs, ctx.int_val(-1), l)) return std::nullopt;
    // lhs - rhs == sum + c; one sort for every variable of the atom.
    std::optional<Sort> sort;
    for (const auto& [i, c] : l.coef) {
      if ((c == 0).simplify().is_true()) continue;
      const Sort s = tm_.sort(vars_[i]);
      if (sort && *sort != s) return std::nullopt;
      sort = s;
    }
    if (!sort) return std::nullopt;  // no variable: nothing to relate
    z3::expr c = l.constant ? *l.constant : ctx.int_val(0);
    const bool integral = terms::isIntegral(*sort);
    // Integers: P + 1 <= N is P < N, and P >= N + 1 is P > N (no constant to wrap).
    if (integral && k == Z3_OP_LE && (c == 1).simplify().is_true()) k = Z3_OP_LT, c = ctx.int_val(0);
    else if (integral && k == Z3_OP_GE && (c == -1).simplify().is_true()) k = Z3_OP_GT, c = ctx.int_val(0);
    bool ok = true;
    const bool keepPos = (c > 0).simplify().is_true();
    const bool keepNeg = (c < 0).simplify().is_true();
    std::optional<z3::expr> onLeft = keepPos ? std::optional<z3::expr>(c) : std::nullopt;
    std::optional<z3::expr> onRight = keepNeg ? std::optional<z3::expr>((-c).simplify()) : std::nullopt;
    std::optional<Term> p = side(l, true, onLeft, *sort, ok);
    std::optional<Term> n = ok ? side(l, false, onRight, *sort, ok) : std::nullopt;
    if (!ok) return std::nullopt;
    const Term zero = *literal(ctx.int_val(0), *sort);
    const Term a = p ? *p : zero, b = n ? *n : zero;
    switch (k) {
      case Z3_OP_LE: return tm_.le(a, b);
      case Z3_OP_GE: return tm_.ge(a, b);
      case Z3_OP_LT: return tm_.lt(a, b);
      case Z3_OP_GT: return tm_.gt(a, b);
      default: return tm_.eq(a, b);
    }
  }

  terms::TermManager& tm_;
  const std::vector<Term>& vars_;
};

void conjuncts(const z3::expr& e, std::vector<z3::expr>& out) {
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
    for (unsigned i = 0; i < e.num_args(); ++i) conjuncts(e.arg(i), out);
    return;
  }
  out.push_back(e);
}

}  // namespace

HornAnswer solveHorn(terms::TermManager& tm, const HornProblem& p, unsigned timeout_ms, terms::Arith arith) {
  HornAnswer out;
  const auto t0 = std::chrono::steady_clock::now();
  for (const HornProblem::Step& st : p.steps)
    if (st.post.size() != p.vars.size()) {
      out.reason = "a step's post state does not give every variable";
      return out;
    }
  try {
    // The thread's shared context: a fresh one would cost more than most Spacer calls
    // (src/solver/z3_contexts.hpp).
    const std::shared_ptr<detail::SharedContext> shared = detail::ContextPool::instance().acquire(detail::ContextPool::Main);
    z3::context& ctx = shared->ctx;
    detail::Translator tr(ctx, tm, arith, false, false);
    z3::sort_vector dom(ctx);
    z3::expr_vector args(ctx);
    for (Term v : p.vars) {
      dom.push_back(tr.sortOf(tm.sort(v)));
      args.push_back(tr(v));
    }
    z3::func_decl inv = ctx.function("inv", dom, ctx.bool_sort());
    z3::solver s(ctx, "HORN");
    z3::params params(ctx);
    if (timeout_ms > 0) {
      const std::uint64_t units = std::min<std::uint64_t>(std::uint64_t{timeout_ms} * kRlimitPerMs, 0xffffffffu);
      params.set("rlimit", static_cast<unsigned>(units));
      const std::uint64_t backstop = std::max(std::uint64_t{timeout_ms} * kBackstopFactor, kMinBackstopMs);
      params.set("timeout", static_cast<unsigned>(std::min<std::uint64_t>(backstop, 0xffffffffu)));
    }
    s.set(params);
    for (Term i : p.init) addClause(s, inv, tr(i), inv(args));
    for (const HornProblem::Step& st : p.steps) {
      z3::expr_vector post(ctx);
      for (Term t : st.post) post.push_back(tr(t));
      addClause(s, inv, inv(args) && tr(st.guard), inv(post));
    }
    for (Term b : p.bad) addClause(s, inv, inv(args) && tr(b), ctx.bool_val(false));
    const z3::check_result r = s.check();
    if (r == z3::unsat) {
      out.status = Status::Unsat;
    } else if (r == z3::unknown) {
      out.reason = s.reason_unknown();
      if (out.reason.find("resource limit") != std::string::npos) out.reason = "its budget of " + std::to_string(timeout_ms) + " ms is spent";
    } else {
      out.status = Status::Sat;
      z3::model m = s.get_model();
      std::vector<z3::expr> parts;  // no interpretation: no relation to read
      if (m.has_interp(inv)) conjuncts(m.get_func_interp(inv).else_value(), parts);
      Reader read(tm, p.vars);
      for (const z3::expr& part : parts)
        if (std::optional<Term> t = read.formula(part)) out.invariant.push_back(*t);
    }
  } catch (const z3::exception& e) {
    out.status = Status::Unknown;
    out.reason = e.msg();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace pasda::solver
