// Concrete semantics of the term operations (see java_semantics.hpp): Java's bit-exact rules and
// the math model's exact integer/real rules. C++ float/double arithmetic is IEEE-754 with round
// to nearest on every supported target, so it is Java's; what C++ leaves undefined (signed
// overflow, out-of-range conversions, oversized shifts) is done explicitly here.
#include "pasda/terms/java_semantics.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace pasda::terms::semantics {

using i32 = std::int32_t;
using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

double doubleOfBits(u64 bits) { return std::bit_cast<double>(bits); }
float floatOfBits(u32 bits) { return std::bit_cast<float>(bits); }
u64 bitsOfDouble(double d) { return std::bit_cast<u64>(d); }
u32 bitsOfFloat(float f) { return std::bit_cast<u32>(f); }

namespace {

i32 wrap32(i64 v) { return static_cast<i32>(static_cast<u32>(static_cast<u64>(v))); }

bool isShift(Op op) { return op == Op::Shl || op == Op::Shr || op == Op::Ushr; }

template <class T>
std::optional<bool> compareAs(Op op, T x, T y) {
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

template <class F>
std::optional<F> floatingArith(Op op, F x, F y) {
  switch (op) {
    case Op::Add: return static_cast<F>(x + y);
    case Op::Sub: return static_cast<F>(x - y);
    case Op::Mul: return static_cast<F>(x * y);
    case Op::Div: return static_cast<F>(x / y);
    case Op::Rem: return static_cast<F>(std::fmod(x, y));  // Java's % on floating values is C's fmod
    default: return std::nullopt;
  }
}

template <class F>
F roundAs(Op op, F x) {
  // std::nearbyint rounds in the current mode, which is round-to-nearest-even (never changed).
  switch (op) {
    case Op::Floor: return std::floor(x);
    case Op::Ceil: return std::ceil(x);
    default: return std::nearbyint(x);
  }
}

Value convertJava(const Value& a, Sort to) {
  if (isIntegral(a.sort)) {
    i64 v = a.sort == Sort::Int ? a.asInt() : a.asLong();
    switch (to) {
      case Sort::Int: return Value::ofInt(wrap32(v));
      case Sort::Long: return Value::ofLong(v);
      case Sort::Float: return Value::ofFloat(static_cast<float>(v));  // one rounding (RNE), no double detour
      default: return Value::ofDouble(static_cast<double>(v));
    }
  }
  double d = a.asDouble();  // a float widens exactly
  switch (to) {
    case Sort::Int: return Value::ofInt(javaToInt(d));
    case Sort::Long: return Value::ofLong(javaToLong(d));
    case Sort::Float: return Value::ofFloat(a.sort == Sort::Float ? a.asFloat() : static_cast<float>(d));
    default: return Value::ofDouble(d);
  }
}

// Exact integer arithmetic of the math model: a value only when the result fits int64.
std::optional<i64> mathInteger(Op op, Sort s, i64 a, i64 b) {
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
      // Bit operations and shifts act on the two's-complement image of the Java width (the
      // solver encodes them with int2bv/bv2int): Java's semantics on the wrapped values.
      if (s == Sort::Int) return javaInt(op, wrap32(a), wrap32(b));
      return javaLong(op, a, isShift(op) ? wrap32(b) : b);
  }
}

std::optional<Value> convertMath(const Value& a, Sort to) {
  if (isIntegral(a.sort)) {
    i64 v = a.asLong();
    if (isIntegral(to)) return Value::ofInteger(to, v);  // unbounded integers: the value is kept
    if (to == Sort::Double) {
      double d = static_cast<double>(v);
      // Exact iff converting back gives v (guard 2^63, which does not fit int64).
      if (d < 9223372036854775808.0 && static_cast<i64>(d) == v) return Value::ofDouble(d);
      return std::nullopt;
    }
    float f = static_cast<float>(v);
    if (static_cast<double>(f) < 9223372036854775808.0 && static_cast<i64>(f) == v) return Value::ofFloat(f);
    return std::nullopt;
  }
  double d = a.asDouble();
  if (!std::isfinite(d)) return std::nullopt;
  if (isIntegral(to)) {
    double t = std::trunc(d);
    if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) return Value::ofInteger(to, static_cast<i64>(t));
    return std::nullopt;
  }
  if (to == Sort::Double) return Value::ofDouble(d);
  float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) return Value::ofFloat(f);
  return std::nullopt;
}

// The operations whose value is the same in both models (booleans, references, narrowing).
std::optional<Value> evalCommon(Op op, std::span<const Value> v) {
  switch (op) {
    case Op::Not: return Value::ofBool(!v[0].asBool());
    case Op::And: return Value::ofBool(v[0].asBool() && v[1].asBool());
    case Op::Or: return Value::ofBool(v[0].asBool() || v[1].asBool());
    case Op::Ite: return v[0].asBool() ? v[1] : v[2];
    case Op::I2B: return Value::ofInt(javaI2B(v[0].asInt()));
    case Op::I2C: return Value::ofInt(javaI2C(v[0].asInt()));
    case Op::I2S: return Value::ofInt(javaI2S(v[0].asInt()));
    case Op::Eq: case Op::Ne:
      if (v[0].sort == Sort::Bool || v[0].sort == Sort::Ref) return Value::ofBool((v[0].bits == v[1].bits) == (op == Op::Eq));
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

// ---- Java, by family ----------------------------------------------------------------------

std::optional<i32> javaInt(Op op, i32 x, i32 y) {
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

std::optional<i64> javaLong(Op op, i64 a, i64 b) {
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
    case Op::Shl: return static_cast<i64>(ux << (b & 63));
    case Op::Shr: return a >> (b & 63);
    case Op::Ushr: return static_cast<i64>(ux >> (b & 63));
    case Op::BitAnd: return a & b;
    case Op::BitOr: return a | b;
    case Op::BitXor: return a ^ b;
    default: return std::nullopt;
  }
}

std::optional<float> javaFloat(Op op, float a, float b) { return floatingArith<float>(op, a, b); }
std::optional<double> javaDouble(Op op, double a, double b) { return floatingArith<double>(op, a, b); }

std::optional<bool> javaCompareFloating(Op op, double a, double b) { return compareAs<double>(op, a, b); }

i32 javaCmp(i64 a, i64 b) { return a < b ? -1 : (a > b ? 1 : 0); }

i32 javaCmpFloating(double a, double b, i32 nanResult) {
  if (std::isnan(a) || std::isnan(b)) return nanResult;
  return a < b ? -1 : (a > b ? 1 : 0);
}

i32 javaToInt(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 2147483648.0) return std::numeric_limits<i32>::max();
  if (d <= -2147483648.0) return std::numeric_limits<i32>::min();
  return static_cast<i32>(d);
}

i64 javaToLong(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775808.0) return std::numeric_limits<i64>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<i64>::min();
  return static_cast<i64>(d);
}

i32 javaI2B(i32 v) { return static_cast<std::int8_t>(static_cast<std::uint8_t>(static_cast<u32>(v))); }
i32 javaI2C(i32 v) { return static_cast<std::uint16_t>(static_cast<u32>(v)); }
i32 javaI2S(i32 v) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<u32>(v))); }

double javaRound(Op op, double d) { return roundAs<double>(op, d); }
float javaRound(Op op, float f) { return roundAs<float>(op, f); }

bool javaSameFloating(Sort s, u64 a, u64 b) {
  double x = s == Sort::Float ? static_cast<double>(floatOfBits(static_cast<u32>(a))) : doubleOfBits(a);
  double y = s == Sort::Float ? static_cast<double>(floatOfBits(static_cast<u32>(b))) : doubleOfBits(b);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return s == Sort::Float ? static_cast<u32>(a) == static_cast<u32>(b) : a == b;
}

std::optional<double> javaLibrary(std::string_view fn, std::span<const double> x) {
  // Accept both "sin" and "Math.sin" / "StrictMath.sin".
  if (auto dot = fn.rfind('.'); dot != std::string_view::npos) {
    std::string_view owner = fn.substr(0, dot);
    if (owner != "Math" && owner != "StrictMath" && owner != "java.lang.Math" && owner != "java.lang.StrictMath")
      return std::nullopt;
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
      {"sqrt", [](double a) { return std::sqrt(a); }},
      // glibc's double cbrt is off by up to 4 ulps (measured against the JVM); Java allows 1.
      {"cbrt", [](double a) { return static_cast<double>(std::cbrt(static_cast<long double>(a))); }},
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
  if (x.size() == 1) {
    for (const auto& e : unary)
      if (fn == e.name) return e.f(x[0]);
  } else if (x.size() == 2) {
    for (const auto& e : binary)
      if (fn == e.name) return e.f(x[0], x[1]);
  }
  return std::nullopt;
}

// ---- whole operations --------------------------------------------------------------------

// One switch over every operator: its length is the number of operators, each case one rule.
std::optional<Value> evalJava(Op op, Sort result, std::span<const Value> v) {
  if (auto c = evalCommon(op, v)) return c;
  const Sort s0 = v.empty() ? result : v[0].sort;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem:
    case Op::Shl: case Op::Shr: case Op::Ushr: case Op::BitAnd: case Op::BitOr: case Op::BitXor:
      switch (s0) {
        case Sort::Int:
          if (auto r = javaInt(op, v[0].asInt(), v[1].asInt())) return Value::ofInt(*r);
          return std::nullopt;
        case Sort::Long:
          if (auto r = javaLong(op, v[0].asLong(), isShift(op) ? v[1].asInt() : v[1].asLong())) return Value::ofLong(*r);
          return std::nullopt;
        case Sort::Float:
          if (auto r = javaFloat(op, v[0].asFloat(), v[1].asFloat())) return Value::ofFloat(*r);
          return std::nullopt;
        case Sort::Double:
          if (auto r = javaDouble(op, v[0].asDouble(), v[1].asDouble())) return Value::ofDouble(*r);
          return std::nullopt;
        default: return std::nullopt;
      }
    case Op::Neg:
      switch (s0) {
        case Sort::Int: return Value::ofInt(*javaInt(Op::Sub, 0, v[0].asInt()));
        case Sort::Long: return Value::ofLong(*javaLong(Op::Sub, 0, v[0].asLong()));
        case Sort::Float: return Value::ofFloat(-v[0].asFloat());
        case Sort::Double: return Value::ofDouble(-v[0].asDouble());
        default: return std::nullopt;
      }
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      std::optional<bool> r;
      if (s0 == Sort::Int) r = compareAs<i32>(op, v[0].asInt(), v[1].asInt());
      else if (s0 == Sort::Long) r = compareAs<i64>(op, v[0].asLong(), v[1].asLong());
      else if (isFloating(s0)) r = javaCompareFloating(op, v[0].asDouble(), v[1].asDouble());
      if (!r) return std::nullopt;
      return Value::ofBool(*r);
    }
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      if (s0 == Sort::Int) return Value::ofInt(javaCmp(v[0].asInt(), v[1].asInt()));
      if (s0 == Sort::Long) return Value::ofInt(javaCmp(v[0].asLong(), v[1].asLong()));
      return Value::ofInt(javaCmpFloating(v[0].asDouble(), v[1].asDouble(), op == Op::CmpG ? 1 : -1));
    case Op::Convert: return convertJava(v[0], result);
    case Op::Floor: case Op::Ceil: case Op::Rint:
      if (s0 == Sort::Float) return Value::ofFloat(javaRound(op, v[0].asFloat()));
      return Value::ofDouble(javaRound(op, v[0].asDouble()));
    case Op::RawBits:
      if (s0 == Sort::Float) return Value::ofInt(static_cast<i32>(static_cast<u32>(v[0].bits)));
      return Value::ofLong(v[0].asLong());
    case Op::FromBits:
      if (s0 == Sort::Int) return Value{Sort::Float, v[0].bits & 0xFFFFFFFFull};
      return Value{Sort::Double, v[0].bits};
    case Op::Same:
      if (isFloating(s0)) return Value::ofBool(javaSameFloating(s0, v[0].bits, v[1].bits));
      if (s0 == Sort::Int) return Value::ofBool(v[0].asInt() == v[1].asInt());
      return Value::ofBool(v[0].bits == v[1].bits);
    default: return std::nullopt;  // Lit, Var, Apply: not operations on values
  }
}

// The math model: one switch over every operator, like evalJava.
std::optional<Value> evalMath(Op op, Sort result, std::span<const Value> v) {
  if (auto c = evalCommon(op, v)) return c;
  const Sort s0 = v.empty() ? result : v[0].sort;
  auto finite = [&](std::size_t i) { return std::isfinite(v[i].asDouble()); };
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem:
    case Op::Shl: case Op::Shr: case Op::Ushr: case Op::BitAnd: case Op::BitOr: case Op::BitXor: {
      if (!isIntegral(s0)) return std::nullopt;  // reals: a double result would be rounded
      auto r = mathInteger(op, s0, v[0].asLong(), v[1].asLong());
      if (!r) return std::nullopt;
      return Value::ofInteger(s0, *r);
    }
    case Op::Neg:
      if (isIntegral(s0)) {
        if (v[0].asLong() == std::numeric_limits<i64>::min()) return std::nullopt;
        return Value::ofInteger(s0, -v[0].asLong());
      }
      // Negation of a floating literal is exact (flips the sign bit).
      if (s0 == Sort::Float) return Value::ofFloat(-v[0].asFloat());
      return Value::ofDouble(-v[0].asDouble());
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      std::optional<bool> r;
      if (isIntegral(s0)) r = compareAs<i64>(op, v[0].asLong(), v[1].asLong());
      // A literal denotes its exact rational value; NaN and the infinities have none.
      else if (isFloating(s0) && finite(0) && finite(1)) r = compareAs<double>(op, v[0].asDouble(), v[1].asDouble());
      if (!r) return std::nullopt;
      return Value::ofBool(*r);
    }
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      if (isIntegral(s0)) return Value::ofInt(javaCmp(v[0].asLong(), v[1].asLong()));
      if (!finite(0) || !finite(1)) return std::nullopt;
      return Value::ofInt(javaCmpFloating(v[0].asDouble(), v[1].asDouble(), -1));
    case Op::Convert: return convertMath(v[0], result);
    case Op::Floor: case Op::Ceil: case Op::Rint:
      // Exact: the integral value of a finite floating number is representable.
      if (!finite(0)) return std::nullopt;
      if (s0 == Sort::Float) return Value::ofFloat(javaRound(op, v[0].asFloat()));
      return Value::ofDouble(javaRound(op, v[0].asDouble()));
    case Op::RawBits: {
      // The solver treats RawBits as an uninterpreted function of a real: only where the real
      // determines the bits (finite, and not -0.0, which equals 0.0 as a real).
      double d = v[0].asDouble();
      if (!std::isfinite(d) || (d == 0 && std::signbit(d))) return std::nullopt;
      if (s0 == Sort::Float) return Value::ofInt(static_cast<i32>(static_cast<u32>(v[0].bits)));
      return Value::ofLong(v[0].asLong());
    }
    case Op::FromBits: {
      Value r = s0 == Sort::Int ? Value{Sort::Float, v[0].bits & 0xFFFFFFFFull} : Value{Sort::Double, v[0].bits};
      if (!std::isfinite(r.asDouble())) return std::nullopt;
      return r;
    }
    case Op::Same:
      if (isFloating(s0)) {
        if (!finite(0) || !finite(1)) return std::nullopt;
        return Value::ofBool(v[0].asDouble() == v[1].asDouble());  // reals: 0.0 and -0.0 are one value
      }
      return Value::ofBool(v[0].bits == v[1].bits);
    default: return std::nullopt;
  }
}

}  // namespace pasda::terms::semantics
