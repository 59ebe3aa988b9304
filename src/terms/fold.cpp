// Constant folding of operations over literals, per arithmetic model.
//
// Arith::Java: every operation folds, bit-exactly as the JVM computes it (float operations in
// float precision, int/long wrap-around, masked shifts, saturating conversions, fmod for %).
// Arith::Math: integers fold when the exact result fits int64; floating arithmetic does not
// fold (a real result would have to be rounded), except exact operations (negation, floor/ceil/
// rint, comparisons of finite literals, exact conversions).
#include <cmath>
#include <cstring>
#include <limits>

#include "impl.hpp"

namespace pasda::terms::detail {
namespace {

using i32 = std::int32_t;
using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A literal's value, unpacked.
struct Val {
  Sort sort;
  u64 bits;
  i64 i() const { return static_cast<i64>(bits); }
  double d() const { return bitsToDouble(bits); }
  float f() const { return bitsToFloat(bits); }
  double asDouble() const { return sort == Sort::Float ? static_cast<double>(f()) : d(); }
};

Term mkInt(TermManager& tm, Sort s, i64 v) { return tm.lit(s, static_cast<u64>(v)); }
Term mkF(TermManager& tm, float v) { return tm.floatLit(v); }
Term mkD(TermManager& tm, double v) { return tm.doubleLit(v); }

i32 wrap32(i64 v) { return static_cast<i32>(static_cast<u32>(static_cast<u64>(v))); }

// Java integer semantics on the (wrapped) values; width 32 for Int, 64 for Long.
std::optional<i64> javaIntOp(Op op, Sort s, i64 a, i64 b) {
  if (s == Sort::Int) {
    i32 x = wrap32(a), y = wrap32(b);
    u32 ux = static_cast<u32>(x), uy = static_cast<u32>(y);
    switch (op) {
      case Op::Add: return static_cast<i32>(ux + uy);
      case Op::Sub: return static_cast<i32>(ux - uy);
      case Op::Mul: return static_cast<i32>(static_cast<u32>(static_cast<u64>(ux) * uy));
      case Op::Div:
        if (y == 0) return std::nullopt;
        if (x == std::numeric_limits<i32>::min() && y == -1) return x;
        return x / y;
      case Op::Rem:
        if (y == 0) return std::nullopt;
        if (y == -1) return 0;
        return x % y;
      case Op::Shl: return static_cast<i32>(ux << (y & 31));
      case Op::Shr: return x >> (y & 31);
      case Op::Ushr: return static_cast<i32>(ux >> (y & 31));
      case Op::BitAnd: return x & y;
      case Op::BitOr: return x | y;
      case Op::BitXor: return x ^ y;
      default: return std::nullopt;
    }
  }
  u64 ux = static_cast<u64>(a), uy = static_cast<u64>(b);
  switch (op) {
    case Op::Add: return static_cast<i64>(ux + uy);
    case Op::Sub: return static_cast<i64>(ux - uy);
    case Op::Mul: return static_cast<i64>(ux * uy);
    case Op::Div:
      if (b == 0) return std::nullopt;
      if (a == std::numeric_limits<i64>::min() && b == -1) return a;
      return a / b;
    case Op::Rem:
      if (b == 0) return std::nullopt;
      if (b == -1) return 0;
      return a % b;
    case Op::Shl: return static_cast<i64>(ux << (wrap32(b) & 63));
    case Op::Shr: return a >> (wrap32(b) & 63);
    case Op::Ushr: return static_cast<i64>(ux >> (wrap32(b) & 63));
    case Op::BitAnd: return a & b;
    case Op::BitOr: return a | b;
    case Op::BitXor: return a ^ b;
    default: return std::nullopt;
  }
}

// Exact integer arithmetic under Math: fold only when the result fits int64.
std::optional<i64> mathIntOp(Op op, Sort s, i64 a, i64 b) {
  i64 r = 0;
  switch (op) {
    case Op::Add: if (__builtin_add_overflow(a, b, &r)) return std::nullopt; return r;
    case Op::Sub: if (__builtin_sub_overflow(a, b, &r)) return std::nullopt; return r;
    case Op::Mul: if (__builtin_mul_overflow(a, b, &r)) return std::nullopt; return r;
    case Op::Div:
      if (b == 0 || (a == std::numeric_limits<i64>::min() && b == -1)) return std::nullopt;
      return a / b;  // C++ truncates toward zero, like Java
    case Op::Rem:
      if (b == 0) return std::nullopt;
      if (b == -1) return 0;
      return a % b;
    default:
      // Bit operations and shifts act on the two's-complement image of the Java width
      // (the solver encodes them with int2bv/bv2int): Java semantics on the wrapped values.
      return javaIntOp(op, s, a, b);
  }
}

template <class F>
std::optional<F> javaFloatOp(Op op, F x, F y) {
  switch (op) {
    case Op::Add: return static_cast<F>(x + y);
    case Op::Sub: return static_cast<F>(x - y);
    case Op::Mul: return static_cast<F>(x * y);
    case Op::Div: return static_cast<F>(x / y);
    case Op::Rem: return static_cast<F>(std::fmod(x, y));
    default: return std::nullopt;
  }
}

std::optional<bool> compare(Op op, double x, double y) {
  switch (op) {
    case Op::Eq: return x == y;
    case Op::Ne: return x != y;
    case Op::Lt: return x < y;
    case Op::Le: return x <= y;
    case Op::Gt: return x > y;
    case Op::Ge: return x >= y;
    default: return std::nullopt;
  }
}

std::optional<bool> compareInt(Op op, i64 x, i64 y) {
  switch (op) {
    case Op::Eq: return x == y;
    case Op::Ne: return x != y;
    case Op::Lt: return x < y;
    case Op::Le: return x <= y;
    case Op::Gt: return x > y;
    case Op::Ge: return x >= y;
    default: return std::nullopt;
  }
}

// Java's saturating floating -> integral conversion (d2i, d2l, f2i, f2l).
i64 saturate(double d, Sort to) {
  if (std::isnan(d)) return 0;
  if (to == Sort::Int) {
    if (d >= 2147483648.0) return std::numeric_limits<i32>::max();
    if (d <= -2147483648.0) return std::numeric_limits<i32>::min();
    return static_cast<i32>(d);
  }
  if (d >= 9223372036854775808.0) return std::numeric_limits<i64>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<i64>::min();
  return static_cast<i64>(d);
}

Term javaConvert(TermManager& tm, const Val& a, Sort to) {
  Sort from = a.sort;
  if (isIntegral(from)) {
    i64 v = from == Sort::Int ? wrap32(a.i()) : a.i();
    switch (to) {
      case Sort::Int: return tm.intLit(wrap32(v));
      case Sort::Long: return tm.longLit(v);
      case Sort::Float: return mkF(tm, static_cast<float>(v));  // one rounding (RNE), no double detour
      case Sort::Double: return mkD(tm, static_cast<double>(v));
      default: return {};
    }
  }
  if (from == Sort::Float) {
    float f = a.f();
    switch (to) {
      case Sort::Int: case Sort::Long: return mkInt(tm, to, saturate(static_cast<double>(f), to));
      case Sort::Float: return mkF(tm, f);
      case Sort::Double: return mkD(tm, static_cast<double>(f));
      default: return {};
    }
  }
  double d = a.d();
  switch (to) {
    case Sort::Int: case Sort::Long: return mkInt(tm, to, saturate(d, to));
    case Sort::Float: return mkF(tm, static_cast<float>(d));
    case Sort::Double: return mkD(tm, d);
    default: return {};
  }
}

Term mathConvert(TermManager& tm, const Val& a, Sort to) {
  Sort from = a.sort;
  if (isIntegral(from)) {
    i64 v = a.i();
    if (isIntegral(to)) return mkInt(tm, to, v);  // unbounded integers: the value is kept
    if (to == Sort::Double) {
      double d = static_cast<double>(v);
      // Exact iff converting back gives v (guard 2^63, which does not fit int64).
      if (d < 9223372036854775808.0 && static_cast<i64>(d) == v) return mkD(tm, d);
      return {};
    }
    float f = static_cast<float>(v);
    if (static_cast<double>(f) < 9223372036854775808.0 && static_cast<i64>(f) == v) return mkF(tm, f);
    return {};
  }
  double d = a.asDouble();
  if (!std::isfinite(d)) return {};
  if (isIntegral(to)) {
    double t = std::trunc(d);
    if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) return mkInt(tm, to, static_cast<i64>(t));
    return {};
  }
  if (to == Sort::Double) return mkD(tm, d);
  float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) return mkF(tm, f);
  return {};
}

i64 cmp3(double x, double y, int nanResult) {
  if (std::isnan(x) || std::isnan(y)) return nanResult;
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace

Term foldLiterals(TermManager& tm, Op op, Sort sort, const std::vector<Term>& args) {
  const bool java = tm.arith() == Arith::Java;
  std::vector<Val> v;
  v.reserve(args.size());
  for (Term a : args) v.push_back(Val{tm.sort(a), tm.node(a).bits});
  const Sort s0 = v.empty() ? Sort::Bool : v[0].sort;

  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem:
    case Op::Shl: case Op::Shr: case Op::Ushr: case Op::BitAnd: case Op::BitOr: case Op::BitXor: {
      if (isIntegral(s0)) {
        auto r = java ? javaIntOp(op, s0, v[0].i(), v[1].i()) : mathIntOp(op, s0, v[0].i(), v[1].i());
        return r ? mkInt(tm, s0, *r) : Term{};
      }
      if (!java) return {};  // reals: no rounding allowed
      if (s0 == Sort::Float) {
        auto r = javaFloatOp<float>(op, v[0].f(), v[1].f());
        return r ? mkF(tm, *r) : Term{};
      }
      auto r = javaFloatOp<double>(op, v[0].d(), v[1].d());
      return r ? mkD(tm, *r) : Term{};
    }
    case Op::Neg:
      if (s0 == Sort::Int && java) return tm.intLit(static_cast<i32>(0u - static_cast<u32>(wrap32(v[0].i()))));
      if (isIntegral(s0)) {
        if (java) return mkInt(tm, s0, static_cast<i64>(0ull - v[0].bits));
        if (v[0].i() == std::numeric_limits<i64>::min()) return {};
        return mkInt(tm, s0, -v[0].i());
      }
      // Negation of a floating literal is exact (flips the sign bit) in both models.
      if (s0 == Sort::Float) return mkF(tm, -v[0].f());
      return mkD(tm, -v[0].d());
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      if (s0 == Sort::Bool || s0 == Sort::Ref) {
        if (op == Op::Eq) return tm.boolLit(v[0].bits == v[1].bits);
        if (op == Op::Ne) return tm.boolLit(v[0].bits != v[1].bits);
        return {};
      }
      if (isIntegral(s0)) {
        i64 x = v[0].i(), y = v[1].i();
        if (java && s0 == Sort::Int) x = wrap32(x), y = wrap32(y);
        return tm.boolLit(*compareInt(op, x, y));
      }
      double x = v[0].asDouble(), y = v[1].asDouble();
      // Under Math a literal denotes its exact rational value; NaN/Inf have none.
      if (!java && (!std::isfinite(x) || !std::isfinite(y))) return {};
      return tm.boolLit(*compare(op, x, y));
    }
    case Op::Cmp: case Op::CmpL: case Op::CmpG: {
      if (isIntegral(s0)) {
        i64 x = v[0].i(), y = v[1].i();
        return tm.intLit(x < y ? -1 : (x > y ? 1 : 0));
      }
      double x = v[0].asDouble(), y = v[1].asDouble();
      if (!java && (!std::isfinite(x) || !std::isfinite(y))) return {};
      return tm.intLit(static_cast<i32>(cmp3(x, y, op == Op::CmpG ? 1 : -1)));
    }
    case Op::Not: return tm.boolLit(v[0].bits == 0);
    case Op::And: return tm.boolLit(v[0].bits != 0 && v[1].bits != 0);
    case Op::Or: return tm.boolLit(v[0].bits != 0 || v[1].bits != 0);
    case Op::Ite: return v[0].bits != 0 ? args[1] : args[2];
    case Op::Convert: return java ? javaConvert(tm, v[0], sort) : mathConvert(tm, v[0], sort);
    case Op::I2B: return tm.intLit(static_cast<std::int8_t>(static_cast<std::uint8_t>(v[0].bits)));
    case Op::I2C: return tm.intLit(static_cast<std::uint16_t>(v[0].bits));
    case Op::I2S: return tm.intLit(static_cast<std::int16_t>(static_cast<std::uint16_t>(v[0].bits)));
    case Op::Floor: case Op::Ceil: case Op::Rint: {
      // Exact in both models (the integral value of a finite floating number is representable).
      if (!java && !std::isfinite(v[0].asDouble())) return {};
      if (s0 == Sort::Float) {
        float f = v[0].f();
        float r = op == Op::Floor ? std::floor(f) : op == Op::Ceil ? std::ceil(f) : std::nearbyint(f);
        return mkF(tm, r);
      }
      double d = v[0].d();
      double r = op == Op::Floor ? std::floor(d) : op == Op::Ceil ? std::ceil(d) : std::nearbyint(d);
      return mkD(tm, r);
    }
    case Op::RawBits: {
      // Math: the solver treats RawBits as an uninterpreted function of a real; fold only where
      // the real determines the bits (finite, and not -0.0, which equals 0.0 as a real).
      double d = v[0].asDouble();
      if (!java && (!std::isfinite(d) || (d == 0 && std::signbit(d)))) return {};
      if (s0 == Sort::Float) return tm.intLit(static_cast<i32>(static_cast<u32>(v[0].bits)));
      return tm.longLit(v[0].i());
    }
    case Op::FromBits: {
      Term r = s0 == Sort::Int ? tm.lit(Sort::Float, v[0].bits & 0xFFFFFFFFull) : tm.lit(Sort::Double, v[0].bits);
      if (!java && !std::isfinite(*tm.asFloating(r))) return {};
      return r;
    }
    case Op::Same: {
      if (isFloating(s0)) {
        double x = v[0].asDouble(), y = v[1].asDouble();
        if (java) {
          // Double.equals / Float.equals: compare the bits with NaN canonicalised.
          if (std::isnan(x) || std::isnan(y)) return tm.boolLit(std::isnan(x) && std::isnan(y));
          return tm.boolLit(v[0].bits == v[1].bits);
        }
        if (!std::isfinite(x) || !std::isfinite(y)) return {};
        return tm.boolLit(x == y);
      }
      if (java && s0 == Sort::Int) return tm.boolLit(wrap32(v[0].i()) == wrap32(v[1].i()));
      return tm.boolLit(v[0].bits == v[1].bits);
    }
    default: return {};
  }
}

Term foldLibrary(TermManager& tm, std::string_view fn, Sort result, const std::vector<Term>& args) {
  if (result != Sort::Double || args.empty() || args.size() > 2) return {};
  double x[2] = {0, 0};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!tm.isLit(args[i]) || tm.sort(args[i]) != Sort::Double) return {};
    x[i] = *tm.asFloating(args[i]);
  }
  // Accept both "sin" and "Math.sin" / "StrictMath.sin".
  if (auto dot = fn.rfind('.'); dot != std::string_view::npos) {
    std::string_view owner = fn.substr(0, dot);
    if (owner != "Math" && owner != "StrictMath" && owner != "java.lang.Math" && owner != "java.lang.StrictMath")
      return {};
    fn = fn.substr(dot + 1);
  }
  using F1 = double (*)(double);
  using F2 = double (*)(double, double);
  struct E1 { const char* name; F1 f; };
  struct E2 { const char* name; F2 f; };
  static const E1 unary[] = {
      {"sin", [](double a) { return std::sin(a); }},   {"cos", [](double a) { return std::cos(a); }},
      {"tan", [](double a) { return std::tan(a); }},   {"asin", [](double a) { return std::asin(a); }},
      {"acos", [](double a) { return std::acos(a); }}, {"atan", [](double a) { return std::atan(a); }},
      {"sinh", [](double a) { return std::sinh(a); }}, {"cosh", [](double a) { return std::cosh(a); }},
      {"tanh", [](double a) { return std::tanh(a); }}, {"exp", [](double a) { return std::exp(a); }},
      {"log", [](double a) { return std::log(a); }},   {"log10", [](double a) { return std::log10(a); }},
      {"sqrt", [](double a) { return std::sqrt(a); }}, {"cbrt", [](double a) { return std::cbrt(a); }},
      {"expm1", [](double a) { return std::expm1(a); }}, {"log1p", [](double a) { return std::log1p(a); }},
  };
  static const E2 binary[] = {
      {"atan2", [](double a, double b) { return std::atan2(a, b); }},
      {"pow", [](double a, double b) {
         // Java differs from C: pow(x, NaN) is NaN even for x == 1, and pow(+-1, +-Inf) is NaN.
         if (std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
         if (std::isinf(b) && std::fabs(a) == 1.0) return std::numeric_limits<double>::quiet_NaN();
         return std::pow(a, b);
       }},
      {"hypot", [](double a, double b) { return std::hypot(a, b); }},
  };
  std::optional<double> r;
  if (args.size() == 1) {
    for (const auto& e : unary)
      if (fn == e.name) r = e.f(x[0]);
  } else {
    for (const auto& e : binary)
      if (fn == e.name) r = e.f(x[0], x[1]);
  }
  if (!r) return {};
  if (tm.arith() == Arith::Math && (!std::isfinite(*r) || !std::isfinite(x[0]) || !std::isfinite(x[1]))) return {};
  return tm.doubleLit(*r);
}

}  // namespace pasda::terms::detail
