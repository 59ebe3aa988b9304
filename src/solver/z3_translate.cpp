// Term -> Z3 translation.
//   Math: Int/Long -> Int, Float/Double -> Real, Java's truncating / and % encoded over
//         Euclidean div/mod, bit operations through int2bv/bv2int, RawBits/FromBits and library
//         functions uninterpreted.
//   Java: Int/Long -> BV32/BV64, Float/Double -> Float32/Float64 (RNE), with explicit encodings
//         where Z3's operators differ from Java's (masked shifts, fmod, saturating conversions,
//         NaN-aware three-way comparisons). See docs/arithmetic-models.md.
#include "z3_translate.hpp"

#include <cmath>

#include "pasda/terms/java_semantics.hpp"

namespace pasda::solver::detail {

using terms::Node;
using terms::Op;
using terms::Sort;
using terms::Term;

namespace {

// Decimal digits (little-endian, base 1e9) times 2^k.
std::string timesPow2(std::uint64_t m, int k) {
  std::vector<std::uint32_t> limbs;
  while (m) {
    limbs.push_back(static_cast<std::uint32_t>(m % 1000000000u));
    m /= 1000000000u;
  }
  if (limbs.empty()) return "0";
  for (int i = 0; i < k; ++i) {
    std::uint64_t carry = 0;
    for (auto& l : limbs) {
      std::uint64_t v = static_cast<std::uint64_t>(l) * 2 + carry;
      l = static_cast<std::uint32_t>(v % 1000000000u);
      carry = v / 1000000000u;
    }
    if (carry) limbs.push_back(static_cast<std::uint32_t>(carry));
  }
  std::string s = std::to_string(limbs.back());
  for (std::size_t i = limbs.size() - 1; i-- > 0;) {
    std::string part = std::to_string(limbs[i]);
    s += std::string(9 - part.size(), '0') + part;
  }
  return s;
}

}  // namespace

std::string exactRational(double d) {
  if (d == 0) return "0";
  bool negative = d < 0;
  int exp = 0;
  double f = std::frexp(std::fabs(d), &exp);  // |d| = f * 2^exp, f in [0.5, 1)
  auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
  int e = exp - 53;
  while (e < 0 && (m & 1) == 0) {
    m >>= 1;
    ++e;
  }
  std::string text = e >= 0 ? timesPow2(m, e) : timesPow2(m, 0) + "/" + timesPow2(1, -e);
  return negative ? "-" + text : text;
}

Translator::Translator(z3::context& ctx, terms::TermManager& tm, terms::Arith arith, bool boundIntegers,
                       bool exactFpRemainder)
    : ctx_(ctx), tm_(tm), arith_(arith), boundIntegers_(boundIntegers), exactFpRemainder_(exactFpRemainder) {}

z3::expr Translator::wrap(Z3_ast a) {
  ctx_.check_error();
  return z3::expr(ctx_, a);
}

z3::expr Translator::rne() { return wrap(Z3_mk_fpa_rne(ctx_)); }

std::string Translator::freshName(const std::string& base) {
  int& n = usedNames_[base];
  ++n;
  return n == 1 ? base : base + "!" + std::to_string(n);
}

z3::sort Translator::sortOf(Sort s) {
  bool java = arith_ == terms::Arith::Java;
  switch (s) {
    case Sort::Bool: return ctx_.bool_sort();
    case Sort::Int: return java ? ctx_.bv_sort(32) : ctx_.int_sort();
    case Sort::Long: return java ? ctx_.bv_sort(64) : ctx_.int_sort();
    case Sort::Float: return java ? ctx_.fpa_sort(8, 24) : ctx_.real_sort();
    case Sort::Double: return java ? ctx_.fpa_sort(11, 53) : ctx_.real_sort();
    case Sort::Ref:
      if (!refSort_) refSort_ = ctx_.uninterpreted_sort("Ref");
      return *refSort_;
  }
  return ctx_.bool_sort();
}

std::vector<z3::expr> Translator::takeNewAxioms() {
  std::vector<z3::expr> out;
  out.swap(newAxioms_);
  return out;
}

z3::expr Translator::valueHandle(Term var) {
  (*this)(var);
  auto it = handles_.find(var.id);
  return it != handles_.end() ? it->second : cache_.at(var.id);
}

z3::expr Translator::operator()(Term root) {
  if (auto it = cache_.find(root.id); it != cache_.end()) return it->second;
  // Iterative post-order so that deep terms do not overflow the stack.
  std::vector<std::pair<Term, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (cache_.count(t.id)) continue;
    const Node& n = tm_.node(t);
    if (!expanded && !n.args.empty()) {
      stack.push_back({t, true});
      for (Term a : n.args)
        if (!cache_.count(a.id)) stack.push_back({a, false});
      continue;
    }
    std::vector<z3::expr> args;
    args.reserve(n.args.size());
    bool fl = terms::isFloating(n.sort);
    for (Term a : n.args) {
      args.push_back(cache_.at(a.id));
      fl = fl || floating_[a.id];
    }
    floating_[t.id] = fl;
    cache_.emplace(t.id, translateNode(t, args));
  }
  return cache_.at(root.id);
}

z3::expr Translator::translateNode(Term t, const std::vector<z3::expr>& a) {
  const Node& n = tm_.node(t);
  switch (n.op) {
    case Op::Lit: return literal(n);
    case Op::Var: return variable(t, n);
    case Op::Apply: return apply(n, a);
    case Op::Not: return !a[0];
    case Op::And: return a[0] && a[1];
    case Op::Or: return a[0] || a[1];
    case Op::Ite: return z3::ite(a[0], a[1], a[2]);
    default: break;
  }
  return arith_ == terms::Arith::Java ? translateJava(n, a) : translateMath(n, a);
}

z3::expr Translator::literal(const Node& n) {
  bool java = arith_ == terms::Arith::Java;
  switch (n.sort) {
    case Sort::Bool: return ctx_.bool_val(n.bits != 0);
    case Sort::Int:
      return java ? ctx_.bv_val(static_cast<std::uint64_t>(n.bits & 0xFFFFFFFFull), 32)
                  : ctx_.int_val(static_cast<std::int64_t>(n.bits));
    case Sort::Long:
      return java ? ctx_.bv_val(static_cast<std::uint64_t>(n.bits), 64) : ctx_.int_val(static_cast<std::int64_t>(n.bits));
    case Sort::Float: case Sort::Double: {
      unsigned w = n.sort == Sort::Float ? 32 : 64;
      if (java) return wrap(Z3_mk_fpa_to_fp_bv(ctx_, ctx_.bv_val(static_cast<std::uint64_t>(n.bits), w), sortOf(n.sort)));
      double d = terms::semantics::Value{n.sort, n.bits}.asDouble();
      if (std::isfinite(d)) return ctx_.real_val(exactRational(d).c_str());
      // Reals have no NaN or infinities: such a literal is an opaque real constant.
      std::string name = std::isnan(d) ? "NaN" : (d > 0 ? "+Infinity" : "-Infinity");
      return ctx_.constant(name.c_str(), ctx_.real_sort());
    }
    case Sort::Ref:
      return ctx_.constant(n.bits == 0 ? "null" : ("ref#" + std::to_string(n.bits)).c_str(), sortOf(Sort::Ref));
  }
  return ctx_.bool_val(false);
}

z3::expr Translator::variable(Term t, const Node& n) {
  variables_.push_back(t);
  bool java = arith_ == terms::Arith::Java;
  if (java && terms::isFloating(n.sort)) {
    // A floating input is the IEEE value of a bit-vector: models then carry exact bits.
    unsigned w = n.sort == Sort::Float ? 32 : 64;
    z3::expr bits = ctx_.bv_const(freshName(n.name + "!bits").c_str(), w);
    handles_.emplace(t.id, bits);
    return wrap(Z3_mk_fpa_to_fp_bv(ctx_, bits, sortOf(n.sort)));
  }
  z3::expr v = ctx_.constant(freshName(n.name).c_str(), sortOf(n.sort));
  if (!java && boundIntegers_ && terms::isIntegral(n.sort)) {
    std::int64_t lo = n.sort == Sort::Int ? INT32_MIN : INT64_MIN;
    std::int64_t hi = n.sort == Sort::Int ? INT32_MAX : INT64_MAX;
    newAxioms_.push_back(ctx_.int_val(lo) <= v && v <= ctx_.int_val(hi));
  }
  return v;
}

z3::func_decl Translator::function(const std::string& name, const std::vector<Sort>& dom, Sort range,
                                   const char* kind) {
  std::string key = std::string(kind) + ":" + name + "(";
  for (Sort s : dom) key += std::string(terms::sortName(s)) + ",";
  key += ")";
  key += terms::sortName(range);
  if (auto it = functions_.find(key); it != functions_.end()) return it->second;
  z3::sort_vector zdom(ctx_);
  for (Sort s : dom) zdom.push_back(sortOf(s));
  z3::func_decl f = ctx_.function(freshName(name).c_str(), zdom, sortOf(range));
  functions_.emplace(key, f);
  return f;
}

z3::expr Translator::apply(const Node& n, const std::vector<z3::expr>& a) {
  std::vector<Sort> dom;
  for (Term t : n.args) dom.push_back(tm_.sort(t));
  const char* kind = n.fun == terms::FunKind::Library ? "lib" : "uif";
  z3::func_decl f = function(n.name, dom, n.sort, kind);
  z3::expr_vector args(ctx_);
  for (const auto& e : a) args.push_back(e);
  return f(args);
}

// ---- Java (bit-exact) -------------------------------------------------------------------------

z3::expr Translator::fmod(const z3::expr& x, const z3::expr& y, Sort s) {
  if (!exactFpRemainder_) {
    // Special cases exactly (Java/C fmod): NaN if x is NaN or infinite or y is NaN or zero;
    // x if y is infinite or x is zero. The general case is an uninterpreted function, because
    // fp.rem on Float64 is not tractable for Z3 4.8.12 (see docs/arithmetic-models.md).
    z3::func_decl f = function(s == Sort::Float ? "frem" : "drem", {s, s}, s, "fmod");
    z3::expr nan = ctx_.fpa_nan(sortOf(s));
    return z3::ite(x.mk_is_nan() || y.mk_is_nan() || x.mk_is_inf() || y.mk_is_zero(), nan,
                   z3::ite(y.mk_is_inf() || x.mk_is_zero(), x, f(x, y)));
  }
  // Java's % on doubles is C's fmod: r = x - trunc(x/y)*y, sign of x, |r| < |y|.
  // fp.rem is IEEE remainder: r' = x - round_half_even(x/y)*y, |r'| <= |y|/2. Both are exact.
  // When r' is zero, NaN, or has x's sign, fmod = r'; otherwise fmod = r' + sign(x)*|y|
  // (computed exactly: the result is representable, so the RNE addition does not round).
  auto isNeg = [&](const z3::expr& e) { return wrap(Z3_mk_fpa_is_negative(ctx_, e)); };
  z3::expr r = wrap(Z3_mk_fpa_rem(ctx_, x, y));
  z3::expr absY = wrap(Z3_mk_fpa_abs(ctx_, y));
  z3::expr signedY = z3::ite(isNeg(x), wrap(Z3_mk_fpa_neg(ctx_, absY)), absY);
  z3::expr keep = r.mk_is_nan() || r.mk_is_zero() || (isNeg(r) == isNeg(x));
  return z3::ite(keep, r, wrap(Z3_mk_fpa_add(ctx_, rne(), r, signedY)));
}

z3::expr Translator::javaToIntegral(const z3::expr& x, Sort from, Sort to) {
  // d2i/d2l/f2i/f2l: NaN -> 0, saturate at the bounds, otherwise truncate (RTZ).
  unsigned w = to == Sort::Int ? 32 : 64;
  z3::sort fs = sortOf(from);
  double bound = to == Sort::Int ? 2147483648.0 : 9223372036854775808.0;  // 2^31, 2^63 (exact in float too)
  z3::expr hiF = from == Sort::Float ? wrap(Z3_mk_fpa_numeral_float(ctx_, static_cast<float>(bound), fs))
                                     : wrap(Z3_mk_fpa_numeral_double(ctx_, bound, fs));
  z3::expr loF = wrap(Z3_mk_fpa_neg(ctx_, hiF));
  std::uint64_t maxBits = to == Sort::Int ? 0x7FFFFFFFull : 0x7FFFFFFFFFFFFFFFull;
  std::uint64_t minBits = to == Sort::Int ? 0x80000000ull : 0x8000000000000000ull;
  z3::expr conv = wrap(Z3_mk_fpa_to_sbv(ctx_, wrap(Z3_mk_fpa_rtz(ctx_)), x, w));
  return z3::ite(x.mk_is_nan(), ctx_.bv_val(0, w),
                 z3::ite(wrap(Z3_mk_fpa_geq(ctx_, x, hiF)), ctx_.bv_val(maxBits, w),
                         z3::ite(wrap(Z3_mk_fpa_leq(ctx_, x, loF)), ctx_.bv_val(minBits, w), conv)));
}

z3::expr Translator::translateJava(const Node& n, const std::vector<z3::expr>& a) {
  const Sort os = tm_.sort(n.args[0]);
  const bool fp = terms::isFloating(os);
  const unsigned w = os == Sort::Long ? 64 : 32;
  auto cmp3 = [&](int nanResult) {
    z3::expr lt = fp ? wrap(Z3_mk_fpa_lt(ctx_, a[0], a[1])) : z3::slt(a[0], a[1]);
    z3::expr gt = fp ? wrap(Z3_mk_fpa_gt(ctx_, a[0], a[1])) : z3::sgt(a[0], a[1]);
    z3::expr r = z3::ite(lt, ctx_.bv_val(-1, 32), z3::ite(gt, ctx_.bv_val(1, 32), ctx_.bv_val(0, 32)));
    if (fp) r = z3::ite(a[0].mk_is_nan() || a[1].mk_is_nan(), ctx_.bv_val(nanResult, 32), r);
    return r;
  };
  auto amount = [&]() {
    // Java masks the shift amount: & 31 for int, & 63 for long.
    z3::expr m = a[1] & ctx_.bv_val(w - 1, 32);
    return w == 64 ? z3::zext(m, 32) : m;
  };
  switch (n.op) {
    case Op::Add: return fp ? wrap(Z3_mk_fpa_add(ctx_, rne(), a[0], a[1])) : a[0] + a[1];
    case Op::Sub: return fp ? wrap(Z3_mk_fpa_sub(ctx_, rne(), a[0], a[1])) : a[0] - a[1];
    case Op::Mul: return fp ? wrap(Z3_mk_fpa_mul(ctx_, rne(), a[0], a[1])) : a[0] * a[1];
    case Op::Div: return fp ? wrap(Z3_mk_fpa_div(ctx_, rne(), a[0], a[1])) : wrap(Z3_mk_bvsdiv(ctx_, a[0], a[1]));
    case Op::Rem: return fp ? fmod(a[0], a[1], os) : wrap(Z3_mk_bvsrem(ctx_, a[0], a[1]));
    case Op::Neg: return fp ? wrap(Z3_mk_fpa_neg(ctx_, a[0])) : -a[0];
    case Op::Shl: return z3::shl(a[0], amount());
    case Op::Shr: return z3::ashr(a[0], amount());
    case Op::Ushr: return z3::lshr(a[0], amount());
    case Op::BitAnd: return a[0] & a[1];
    case Op::BitOr: return a[0] | a[1];
    case Op::BitXor: return a[0] ^ a[1];
    case Op::Eq: return fp ? wrap(Z3_mk_fpa_eq(ctx_, a[0], a[1])) : a[0] == a[1];
    case Op::Ne: return fp ? !wrap(Z3_mk_fpa_eq(ctx_, a[0], a[1])) : a[0] != a[1];
    case Op::Lt: return fp ? wrap(Z3_mk_fpa_lt(ctx_, a[0], a[1])) : z3::slt(a[0], a[1]);
    case Op::Le: return fp ? wrap(Z3_mk_fpa_leq(ctx_, a[0], a[1])) : z3::sle(a[0], a[1]);
    case Op::Gt: return fp ? wrap(Z3_mk_fpa_gt(ctx_, a[0], a[1])) : z3::sgt(a[0], a[1]);
    case Op::Ge: return fp ? wrap(Z3_mk_fpa_geq(ctx_, a[0], a[1])) : z3::sge(a[0], a[1]);
    case Op::Cmp: return cmp3(0);
    case Op::CmpL: return cmp3(-1);
    case Op::CmpG: return cmp3(1);
    case Op::Convert: {
      Sort to = n.sort;
      if (os == to) return a[0];
      if (terms::isIntegral(os)) {
        if (to == Sort::Long) return z3::sext(a[0], 32);
        if (to == Sort::Int) return a[0].extract(31, 0);
        return wrap(Z3_mk_fpa_to_fp_signed(ctx_, rne(), a[0], sortOf(to)));  // i2f/i2d/l2f/l2d: RNE
      }
      if (terms::isFloating(to)) return wrap(Z3_mk_fpa_to_fp_float(ctx_, rne(), a[0], sortOf(to)));
      return javaToIntegral(a[0], os, to);
    }
    case Op::I2B: return z3::sext(a[0].extract(7, 0), 24);
    case Op::I2C: return z3::zext(a[0].extract(15, 0), 16);
    case Op::I2S: return z3::sext(a[0].extract(15, 0), 16);
    case Op::Floor: return wrap(Z3_mk_fpa_round_to_integral(ctx_, wrap(Z3_mk_fpa_rtn(ctx_)), a[0]));
    case Op::Ceil: return wrap(Z3_mk_fpa_round_to_integral(ctx_, wrap(Z3_mk_fpa_rtp(ctx_)), a[0]));
    case Op::Rint: return wrap(Z3_mk_fpa_round_to_integral(ctx_, rne(), a[0]));
    case Op::RawBits: {
      // Z3 has a single NaN; its raw bits are taken as the canonical NaN (0x7ff8... / 0x7fc0...).
      bool dbl = os == Sort::Double;
      z3::expr canon = dbl ? ctx_.bv_val(static_cast<std::uint64_t>(0x7FF8000000000000ull), 64)
                           : ctx_.bv_val(static_cast<std::uint64_t>(0x7FC00000ull), 32);
      return z3::ite(a[0].mk_is_nan(), canon, a[0].mk_to_ieee_bv());
    }
    case Op::FromBits: return wrap(Z3_mk_fpa_to_fp_bv(ctx_, a[0], sortOf(n.sort)));
    case Op::Same:
      // Z3's = on floating point is structural: one NaN, +0 != -0 -- exactly Double.equals.
      return a[0] == a[1];
    default: break;
  }
  throw terms::TermError(std::string("cannot translate ") + terms::opName(n.op));
}

// ---- Math (paper model) -----------------------------------------------------------------------

z3::expr Translator::toInt(const z3::expr& x) { return wrap(Z3_mk_real2int(ctx_, x)); }

z3::expr Translator::truncReal(const z3::expr& x) {
  // Truncation toward zero; Z3's to_int is floor.
  return z3::ite(x >= 0, toInt(x), -toInt(-x));
}

z3::expr Translator::translateMath(const Node& n, const std::vector<z3::expr>& a) {
  const Sort os = tm_.sort(n.args[0]);
  const bool real = terms::isFloating(os);
  const unsigned w = os == Sort::Long ? 64 : 32;
  auto toBv = [&](const z3::expr& e, unsigned width) { return z3::int2bv(width, e); };
  auto signedOf = [&](const z3::expr& bv) { return z3::bv2int(bv, true); };
  auto amount = [&]() { return toBv(a[1], w) & ctx_.bv_val(w - 1, w); };
  auto cmp3 = [&]() {
    return z3::ite(a[0] < a[1], ctx_.int_val(-1), z3::ite(a[0] > a[1], ctx_.int_val(1), ctx_.int_val(0)));
  };
  switch (n.op) {
    case Op::Add: return a[0] + a[1];
    case Op::Sub: return a[0] - a[1];
    case Op::Mul: return a[0] * a[1];
    case Op::Div:
      if (real) return a[0] / a[1];
      // Java truncates toward zero; Z3's div is Euclidean. For x >= 0 they agree.
      return z3::ite(a[0] >= 0, a[0] / a[1], -((-a[0]) / a[1]));
    case Op::Rem:
      if (real) return a[0] - a[1] * z3::to_real(truncReal(a[0] / a[1]));
      return z3::ite(a[0] >= 0, z3::mod(a[0], a[1]), -z3::mod(-a[0], a[1]));
    case Op::Neg: return -a[0];
    case Op::Shl: return signedOf(z3::shl(toBv(a[0], w), amount()));
    case Op::Shr: return signedOf(z3::ashr(toBv(a[0], w), amount()));
    case Op::Ushr: return signedOf(z3::lshr(toBv(a[0], w), amount()));
    case Op::BitAnd: return signedOf(toBv(a[0], w) & toBv(a[1], w));
    case Op::BitOr: return signedOf(toBv(a[0], w) | toBv(a[1], w));
    case Op::BitXor: return signedOf(toBv(a[0], w) ^ toBv(a[1], w));
    case Op::Eq: case Op::Same: return a[0] == a[1];
    case Op::Ne: return a[0] != a[1];
    case Op::Lt: return a[0] < a[1];
    case Op::Le: return a[0] <= a[1];
    case Op::Gt: return a[0] > a[1];
    case Op::Ge: return a[0] >= a[1];
    case Op::Cmp: case Op::CmpL: case Op::CmpG: return cmp3();
    case Op::Convert: {
      Sort to = n.sort;
      if (terms::isIntegral(os) == terms::isIntegral(to)) return a[0];  // int<->long, float<->double
      if (terms::isIntegral(os)) return z3::to_real(a[0]);
      return truncReal(a[0]);
    }
    case Op::I2B: return z3::bv2int(toBv(a[0], 32).extract(7, 0), true);
    case Op::I2C: return z3::bv2int(toBv(a[0], 32).extract(15, 0), false);
    case Op::I2S: return z3::bv2int(toBv(a[0], 32).extract(15, 0), true);
    case Op::Floor: return z3::to_real(toInt(a[0]));
    case Op::Ceil: return -z3::to_real(toInt(-a[0]));
    case Op::Rint: {
      // Round half to even.
      z3::expr f = toInt(a[0]);
      z3::expr frac = a[0] - z3::to_real(f);
      z3::expr half = ctx_.real_val(1, 2);
      z3::expr even = z3::mod(f, 2) == 0;
      z3::expr r = z3::ite(frac < half, f, z3::ite(frac > half, f + 1, z3::ite(even, f, f + 1)));
      return z3::to_real(r);
    }
    case Op::RawBits: {
      z3::func_decl f = function(n.sort == Sort::Int ? "Float.floatToRawIntBits" : "Double.doubleToRawLongBits",
                                 {os}, n.sort, "bits");
      return f(a[0]);
    }
    case Op::FromBits: {
      z3::func_decl f = function(n.sort == Sort::Float ? "Float.intBitsToFloat" : "Double.longBitsToDouble",
                                 {os}, n.sort, "bits");
      return f(a[0]);
    }
    default: break;
  }
  throw terms::TermError(std::string("cannot translate ") + terms::opName(n.op));
}

}  // namespace pasda::solver::detail
