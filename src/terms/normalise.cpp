// Light normalisation of non-literal operations: canonical operand order for commutative
// operators, neutral and absorbing elements, double negation, negated comparisons, trivial
// ite/and/or. Every rewrite is an identity of the manager's arithmetic model; the ones that
// only hold for exact (ring) arithmetic are restricted to integers and, under Math, reals.
#include <cmath>
#include <utility>

#include "impl.hpp"

namespace pasda::terms::detail {
namespace {

bool isCommutative(Op op) {
  switch (op) {
    case Op::Add: case Op::Mul: case Op::BitAnd: case Op::BitOr: case Op::BitXor:
    case Op::Eq: case Op::Ne: case Op::Same: case Op::And: case Op::Or:
      return true;
    default:
      return false;
  }
}

// Integer literal with value v, or (when `reals`) a finite floating literal with value v.
bool litIs(const TermManager& tm, Term t, double v, bool reals) {
  if (!tm.isLit(t)) return false;
  if (auto i = tm.asInteger(t)) return static_cast<double>(*i) == v;
  if (reals) {
    auto d = tm.asFloating(t);
    return d && *d == v;
  }
  return false;
}

Term zeroOf(TermManager& tm, Sort s) {
  switch (s) {
    case Sort::Int: return tm.intLit(0);
    case Sort::Long: return tm.longLit(0);
    case Sort::Float: return tm.floatLit(0.0f);
    case Sort::Double: return tm.doubleLit(0.0);
    default: return {};
  }
}

Op negatedComparison(Op op) {
  switch (op) {
    case Op::Lt: return Op::Ge;
    case Op::Le: return Op::Gt;
    case Op::Gt: return Op::Le;
    case Op::Ge: return Op::Lt;
    case Op::Eq: return Op::Ne;
    case Op::Ne: return Op::Eq;
    default: return Op::Lit;
  }
}

bool isRounding(Op op) { return op == Op::Floor || op == Op::Ceil || op == Op::Rint; }

/// One application to simplify: its operator, sorts, operands and the model's facts.
struct Simplify {
  TermManager& tm;
  Op op;
  Sort sort;  // result
  Sort os;    // operands
  bool java, ring, reals;
  Term a, b;
  const std::vector<Term>& args;

  // The identities of each operator family; an empty term when none applies.
  Term arithmeticIdentity() const;
  Term floatingIdentity() const;
  Term floatingComparison() const;
  Term bitIdentity() const;
  Term comparisonIdentity() const;
  Term logicIdentity() const;
  Term conversionIdentity() const;
};

/// Ring identities (x-x = 0, x*0 = 0, ...): for integers in both models, for reals under Math, never for IEEE floats (NaN, infinities, signed zeros); shifts by 0.
Term Simplify::arithmeticIdentity() const {
  switch (op) {
    case Op::Add:
      if (ring && litIs(tm, b, 0, reals)) return a;
      break;
    case Op::Sub:
      if (ring && litIs(tm, b, 0, reals)) return a;
      if (ring && a == b) return zeroOf(tm, os);
      if (ring && litIs(tm, a, 0, reals)) return tm.neg(b);
      break;
    case Op::Mul:
      if (ring && litIs(tm, b, 1, reals)) return a;
      if (ring && litIs(tm, b, 0, reals)) return zeroOf(tm, os);
      if (ring && litIs(tm, b, -1, reals)) return tm.neg(a);
      break;
    case Op::Div:
      if (ring && litIs(tm, b, 1, reals)) return a;
      if (ring && litIs(tm, b, -1, reals)) return tm.neg(a);
      break;
    case Op::Rem:
      if (isIntegral(os) && (litIs(tm, b, 1, false) || litIs(tm, b, -1, false))) return zeroOf(tm, os);
      break;
    case Op::Neg:
      if (tm.op(a) == Op::Neg) return tm.node(a).args[0];
      break;
    case Op::Shl: case Op::Shr: case Op::Ushr:
      // Under Math a shift by 0 still wraps its operand to the Java width.
      if (java && tm.isLit(b) && (*tm.asInteger(b) & (os == Sort::Int ? 31 : 63)) == 0) return a;
      break;
    default:
      break;
  }
  return {};
}

/// A floating literal with exactly the value v, the sign of a zero included.
bool floatLitIs(const TermManager& tm, Term t, double v) {
  if (!tm.isLit(t)) return false;
  auto d = tm.asFloating(t);
  return d && *d == v && std::signbit(*d) == std::signbit(v);
}

/// The magnitude of p when p is -x or 0 - x (either zero): |p| = |x| exactly.
Term unsignedOperand(const TermManager& tm, Term p) {
  const Node& n = tm.node(p);
  if (n.op == Op::Neg) return n.args[0];
  if (n.op == Op::Sub && tm.isLit(n.args[0])) {
    auto z = tm.asFloating(n.args[0]);
    if (z && *z == 0.0) return n.args[1];
  }
  return {};
}

/// Identities of IEEE arithmetic with rounding to nearest, exact for every operand (NaN,
/// infinities and signed zeros included), hence true under Java and for reals alike:
/// x*1 = x/1 = x, x*-1 = x/-1 = -x, x-(+0) = x+(-0) = x; (-x)*(-y) = x*y and (-x)/(-y) = x/y
/// (the sign of the exact result is the same and rounding to nearest is symmetric); p*p = x*x
/// when p is -x or 0-x (a square depends on the magnitude only); ite(c,p,q)^2 is its squares'
/// common term when p*p and q*q normalise to one term (Math.abs(x) squared is x*x).
Term Simplify::floatingIdentity() const {
  switch (op) {
    case Op::Mul: case Op::Div: {
      if (floatLitIs(tm, b, 1.0)) return a;
      if (floatLitIs(tm, b, -1.0)) return tm.neg(a);
      if (tm.op(a) == Op::Neg && tm.op(b) == Op::Neg)
        return tm.make(op, sort, {tm.node(a).args[0], tm.node(b).args[0]});
      if (op != Op::Mul || a != b) break;
      if (Term x = unsignedOperand(tm, a)) return tm.mul(x, x);
      if (tm.op(a) == Op::Ite && tm.op(tm.node(a).args[1]) != Op::Ite && tm.op(tm.node(a).args[2]) != Op::Ite) {
        const Node& n = tm.node(a);  // (branches that are no ite: the work stays linear)
        Term pp = tm.mul(n.args[1], n.args[1]), qq = tm.mul(n.args[2], n.args[2]);
        if (pp == qq) return pp;
      }
      break;
    }
    case Op::Sub:
      if (floatLitIs(tm, b, 0.0)) return a;
      break;
    case Op::Add:
      if (floatLitIs(tm, b, -0.0)) return a;
      break;
    default:
      break;
  }
  return {};
}

/// IEEE comparisons of negated operands (a literal counts as the negation of its negation):
/// -a < -b is b < a, -a == -b is a == b, with the same answer for NaN (false) and zeros.
Term Simplify::floatingComparison() const {
  auto negated = [&](Term t) -> Term {
    if (tm.op(t) == Op::Neg) return tm.node(t).args[0];
    if (!tm.isLit(t)) return {};
    auto d = tm.asFloating(t);
    if (!d) return {};
    return os == Sort::Float ? tm.floatLit(-static_cast<float>(*d)) : tm.doubleLit(-*d);
  };
  if (tm.op(a) != Op::Neg && tm.op(b) != Op::Neg) return {};
  Term na = negated(a), nb = negated(b);
  if (!na || !nb) return {};
  switch (op) {
    case Op::Lt: return tm.gt(na, nb);
    case Op::Le: return tm.ge(na, nb);
    case Op::Gt: return tm.lt(na, nb);
    case Op::Ge: return tm.le(na, nb);
    case Op::Eq: return tm.eq(na, nb);
    case Op::Ne: return tm.ne(na, nb);
    default: return {};
  }
}

/// x & 0, x | -1, x ^ x, and the identities that hold only with Java's widths.
Term Simplify::bitIdentity() const {
  switch (op) {
    case Op::BitAnd:
      if (litIs(tm, b, 0, false)) return zeroOf(tm, os);
      if (java && (litIs(tm, b, -1, false) || a == b)) return a;
      break;
    case Op::BitOr:
      if (litIs(tm, b, -1, false)) return b;
      if (java && (litIs(tm, b, 0, false) || a == b)) return a;
      break;
    case Op::BitXor:
      if (a == b) return zeroOf(tm, os);
      if (java && litIs(tm, b, 0, false)) return a;
      break;
    default:
      break;
  }
  return {};
}

/// Comparisons of a term with itself, of booleans with literals, three-way compares, negated comparisons.
Term Simplify::comparisonIdentity() const {
  switch (op) {
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (a == b && (ring || os == Sort::Bool || os == Sort::Ref))
        return tm.boolLit(op == Op::Eq || op == Op::Le || op == Op::Ge);
      if (os == Sort::Bool && tm.isLit(b) && (op == Op::Eq || op == Op::Ne)) {
        bool positive = (*tm.asBool(b)) == (op == Op::Eq);
        return positive ? a : tm.lnot(a);
      }
      break;
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      if (a == b && ring) return tm.intLit(0);
      if (op != Op::Cmp && isIntegral(os)) return tm.cmp(a, b);
      break;
    case Op::Not: {
      const Node& n = tm.node(a);
      if (n.op == Op::Not) return n.args[0];
      Op negated = negatedComparison(n.op);
      if (negated != Op::Lit) {
        Sort cs = tm.sort(n.args[0]);
        // !(a < b) is a >= b only without NaN; != is the negation of == in every model.
        bool exact = n.op == Op::Eq || n.op == Op::Ne || isIntegral(cs) || !isFloating(cs) || !java;
        if (exact) return tm.make(negated, Sort::Bool, {n.args[0], n.args[1]});
      }
      break;
    }
    default:
      break;
  }
  return {};
}

/// And, Or and Ite with literals, equal or complementary operands.
Term Simplify::logicIdentity() const {
  switch (op) {
    case Op::And: case Op::Or: {
      bool isAnd = op == Op::And;
      if (auto lb = tm.asBool(b)) return (*lb == isAnd) ? a : b;  // literal sorted last
      if (a == b) return a;
      auto negOf = [&](Term x, Term y) { return tm.op(x) == Op::Not && tm.node(x).args[0] == y; };
      if (negOf(a, b) || negOf(b, a)) return tm.boolLit(!isAnd);
      break;
    }
    case Op::Ite: {
      Term c = args[0], t = args[1], e = args[2];
      if (auto lc = tm.asBool(c)) return *lc ? t : e;
      if (t == e) return t;
      if (tm.op(c) == Op::Not) return tm.ite(tm.node(c).args[0], e, t);
      if (sort == Sort::Bool) {
        auto lt = tm.asBool(t), le = tm.asBool(e);
        if (lt && le) return *lt ? c : tm.lnot(c);  // (true,false) or (false,true)
        if (lt) return *lt ? tm.lor(c, e) : tm.land(tm.lnot(c), e);
        if (le) return *le ? tm.lor(tm.lnot(c), t) : tm.land(c, t);
      }
      break;
    }
    default:
      break;
  }
  return {};
}

/// Conversions, roundings, bit views and Same that undo or repeat each other.
Term Simplify::conversionIdentity() const {
  switch (op) {
    case Op::Convert: {
      if (os == sort) return a;
      const Node& n = tm.node(a);
      // l2i(i2l x) = x and d2f(f2d x) = x: the widening is exact.
      if (n.op == Op::Convert && tm.sort(n.args[0]) == sort &&
          ((sort == Sort::Int && os == Sort::Long) || (sort == Sort::Float && os == Sort::Double)))
        return n.args[0];
      break;
    }
    case Op::I2B: case Op::I2C: case Op::I2S:
      if (tm.op(a) == op) return a;
      break;
    case Op::Floor: case Op::Ceil: case Op::Rint:
      if (isRounding(tm.op(a))) return a;
      break;
    case Op::RawBits:
      if (java && tm.op(a) == Op::FromBits) return tm.node(a).args[0];
      break;
    case Op::FromBits:
      if (java && tm.op(a) == Op::RawBits) return tm.node(a).args[0];
      break;
    case Op::Same:
      if (a == b) return tm.boolLit(true);
      if (!(java && isFloating(os))) return tm.eq(a, b);
      break;
    default:
      break;
  }
  return {};
}

}  // namespace

Term normalise(TermManager& tm, Op op, Sort sort, std::vector<Term>& args) {
  const bool java = tm.arith() == Arith::Java;
  if (isCommutative(op)) {
    Term& a = args[0];
    Term& b = args[1];
    bool la = tm.isLit(a), lb = tm.isLit(b);
    if ((la && !lb) || (la == lb && b < a)) std::swap(a, b);
  }
  const Sort os = args.empty() ? sort : tm.sort(args[0]);  // operand sort
  const bool ring = isIntegral(os) || (!java && isFloating(os));
  const bool reals = !java && isFloating(os);
  Simplify in{tm, op, sort, os, java, ring, reals, args.empty() ? Term{} : args[0], args.size() > 1 ? args[1] : Term{}, args};
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div:
      if (Term t = in.arithmeticIdentity()) return t;
      return isFloating(os) ? in.floatingIdentity() : Term{};
    case Op::Rem: case Op::Neg: case Op::Shl: case Op::Shr: case Op::Ushr:
      return in.arithmeticIdentity();
    case Op::BitAnd: case Op::BitOr: case Op::BitXor:
      return in.bitIdentity();
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (Term t = in.comparisonIdentity()) return t;
      return isFloating(os) ? in.floatingComparison() : Term{};
    case Op::Cmp: case Op::CmpL: case Op::CmpG: case Op::Not:
      return in.comparisonIdentity();
    case Op::And: case Op::Or: case Op::Ite:
      return in.logicIdentity();
    case Op::Convert: case Op::I2B: case Op::I2C: case Op::I2S: case Op::Floor: case Op::Ceil: case Op::Rint:
    case Op::RawBits: case Op::FromBits: case Op::Same:
      return in.conversionIdentity();
    default:
      return {};
  }
}

}  // namespace pasda::terms::detail
