// Shared by the property tests of the concrete semantics (tests/terms against a JVM,
// tests/solver against Z3): the catalogue of every term operation with its operand and result
// sorts, and generated operands (edge values of each sort crossed with each other, then seeded
// random values).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pasda/terms/java_semantics.hpp"

namespace pasda::testsupport {

using terms::Op;
using terms::Sort;
using terms::semantics::Value;

struct OpCase {
  Op op;
  std::vector<Sort> operands;
  Sort result;
  std::string fn;  // Apply only: the library function

  std::string name() const {
    std::string s = op == Op::Apply ? fn : terms::opName(op);
    s += "(";
    for (std::size_t i = 0; i < operands.size(); ++i) s += (i ? "," : "") + std::string(terms::sortName(operands[i]));
    return s + ")" + terms::sortName(result);
  }
};

/// Every operation of the term layer over concrete values, once per sort combination.
inline std::vector<OpCase> allOpCases() {
  std::vector<OpCase> out;
  const Sort numeric[] = {Sort::Int, Sort::Long, Sort::Float, Sort::Double};
  for (Sort s : numeric) {
    for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem}) out.push_back({op, {s, s}, s, {}});
    out.push_back({Op::Neg, {s}, s, {}});
    for (Op op : {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Same}) out.push_back({op, {s, s}, Sort::Bool, {}});
    for (Sort to : numeric)
      if (to != s) out.push_back({Op::Convert, {s}, to, {}});
    out.push_back({Op::Ite, {Sort::Bool, s, s}, s, {}});
    if (terms::isIntegral(s)) {
      for (Op op : {Op::BitAnd, Op::BitOr, Op::BitXor}) out.push_back({op, {s, s}, s, {}});
      for (Op op : {Op::Shl, Op::Shr, Op::Ushr}) out.push_back({op, {s, Sort::Int}, s, {}});
      out.push_back({Op::Cmp, {s, s}, Sort::Int, {}});
      out.push_back({Op::FromBits, {s}, s == Sort::Int ? Sort::Float : Sort::Double, {}});
    } else {
      for (Op op : {Op::CmpL, Op::CmpG}) out.push_back({op, {s, s}, Sort::Int, {}});
      for (Op op : {Op::Floor, Op::Ceil, Op::Rint}) out.push_back({op, {s}, s, {}});
      out.push_back({Op::RawBits, {s}, s == Sort::Float ? Sort::Int : Sort::Long, {}});
    }
  }
  for (Op op : {Op::I2B, Op::I2C, Op::I2S}) out.push_back({op, {Sort::Int}, Sort::Int, {}});
  out.push_back({Op::Not, {Sort::Bool}, Sort::Bool, {}});
  for (Op op : {Op::And, Op::Or, Op::Eq, Op::Ne, Op::Same}) out.push_back({op, {Sort::Bool, Sort::Bool}, Sort::Bool, {}});
  out.push_back({Op::Ite, {Sort::Bool, Sort::Bool, Sort::Bool}, Sort::Bool, {}});
  return out;
}

/// The library functions the term layer folds (Apply of FunKind::Library on doubles).
inline std::vector<OpCase> libraryOpCases() {
  std::vector<OpCase> out;
  for (const char* f : {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "log10",
                        "sqrt", "cbrt", "expm1", "log1p"})
    out.push_back({Op::Apply, {Sort::Double}, Sort::Double, f});
  for (const char* f : {"atan2", "pow", "hypot"}) out.push_back({Op::Apply, {Sort::Double, Sort::Double}, Sort::Double, f});
  return out;
}

/// Edge values of a sort: zeros, units, the limits of every Java width, shift amounts around
/// the masks, signed zeros, NaN (canonical and not), infinities, subnormals, halves (rounding
/// ties) and the saturation bounds of the conversions.
inline std::vector<Value> edgeValues(Sort s) {
  std::vector<Value> v;
  constexpr std::int64_t I32MIN = std::numeric_limits<std::int32_t>::min(), I32MAX = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t I64MIN = std::numeric_limits<std::int64_t>::min(), I64MAX = std::numeric_limits<std::int64_t>::max();
  switch (s) {
    case Sort::Bool: return {Value::ofBool(false), Value::ofBool(true)};
    case Sort::Int:
      for (std::int64_t x : std::initializer_list<std::int64_t>{0LL, 1LL, -1LL, 2LL, -2LL, 3LL, 7LL, -7LL, 31LL, 32LL, 33LL, 63LL, 64LL, 65LL, -33LL, 127LL,
                             128LL, -128LL, -129LL, 255LL, 32767LL, 32768LL, -32768LL, -32769LL, 65535LL, 65536LL,
                             1LL << 30, 0x55555555LL, I32MAX, I32MIN, I32MAX - 1, I32MIN + 1})
        v.push_back(Value::ofInt(static_cast<std::int32_t>(x)));
      return v;
    case Sort::Long:
      for (std::int64_t x : std::initializer_list<std::int64_t>{0LL, 1LL, -1LL, 2LL, -7LL, 7LL, 31LL, 32LL, 63LL, 64LL, 65LL, I32MAX, I32MIN, I32MAX + 1,
                             I32MIN - 1, 1LL << 53, (1LL << 53) + 1, -(1LL << 53) - 1, 1LL << 62, 0x5555555555555555LL,
                             I64MAX, I64MIN, I64MAX - 1, I64MIN + 1, 123456789012345LL})
        v.push_back(Value::ofLong(x));
      return v;
    case Sort::Float:
      for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.5f, 3.7f, -3.7f, 5.5f, 2.0f, 3.0f, 0.1f,
                      1e10f, -1e10f, 2147483648.0f, -2147483648.0f, 9.223372e18f, -9.223372e18f, 16777217.0f, 8388608.5f,
                      1e-45f, 1.1754944e-38f, 3.4028235e38f, -3.4028235e38f, std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
        v.push_back(Value::ofFloat(x));
      v.push_back(Value{Sort::Float, 0xFFC00001u});  // a NaN with another sign and payload
      return v;
    case Sort::Double:
      for (double x : {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 3.7, -3.7, 5.5, 2.0, 0.1, 1e10, -1e10, 1e300,
                       -1e300, 1e-300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 2147483647.5,
                       -2147483648.9, 2147483648.0, 9.223372036854775807e18, -9.223372036854775808e18,
                       0.49999999999999994, 4503599627370497.0, 3.4028235677973366e38, 1.401298464324817e-45,
                       std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN()})
        v.push_back(Value::ofDouble(x));
      v.push_back(Value{Sort::Double, 0xFFF8000000000123ull});  // a NaN with another sign and payload
      return v;
    case Sort::Ref: break;
  }
  return v;
}

/// A random value of a sort: random bits half of the time (every class of IEEE value, NaNs
/// rarely), otherwise a value of moderate magnitude (where arithmetic is interesting).
inline Value randomValue(Sort s, std::mt19937_64& rng) {
  const bool raw = rng() % 2 == 0;
  switch (s) {
    case Sort::Bool: return Value::ofBool(rng() % 2);
    case Sort::Int:
      return Value::ofInt(static_cast<std::int32_t>(raw ? rng() : static_cast<std::uint64_t>(static_cast<std::int64_t>(rng() % 2001) - 1000)));
    case Sort::Long: return Value::ofLong(static_cast<std::int64_t>(rng() >> (raw ? 0 : rng() % 64)));
    case Sort::Float: {
      auto b = static_cast<std::uint32_t>(rng());
      if (!raw) b = (b & 0x807FFFFFu) | ((117u + static_cast<std::uint32_t>(rng() % 40)) << 23);
      return Value{Sort::Float, b};
    }
    case Sort::Double: {
      std::uint64_t b = rng();
      if (!raw) b = (b & 0x800FFFFFFFFFFFFFull) | ((1003ull + rng() % 60) << 52);
      return Value{Sort::Double, b};
    }
    case Sort::Ref: break;
  }
  return Value{};
}

/// Operand tuples of the given sorts: every combination of edge values (for two operands), the edge
/// values paired with random ones, and `random` fully random tuples; deterministic per seed.
inline std::vector<std::vector<Value>> operandTuples(const std::vector<Sort>& s, std::size_t random, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Value>> out;
  if (s.size() == 1) {
    for (const Value& a : edgeValues(s[0])) out.push_back({a});
  } else if (s.size() == 2) {
    for (const Value& a : edgeValues(s[0]))
      for (const Value& b : edgeValues(s[1])) out.push_back({a, b});
    for (const Value& a : edgeValues(s[0])) out.push_back({a, randomValue(s[1], rng)});
    for (const Value& b : edgeValues(s[1])) out.push_back({randomValue(s[0], rng), b});
  } else {
    for (const Value& c0 : edgeValues(s[0]))
      for (const Value& a : edgeValues(s[1])) out.push_back({c0, a, randomValue(s[2], rng)});
  }
  for (std::size_t k = 0; k < random; ++k) {
    std::vector<Value> t;
    for (Sort x : s) t.push_back(randomValue(x, rng));
    out.push_back(std::move(t));
  }
  return out;
}

/// Whether two results of sort `s` are the same Java value up to NaN payloads (Java does not
/// specify them; any NaN equals any NaN).
inline bool sameUpToNaN(Sort s, std::uint64_t a, std::uint64_t b) {
  if (terms::isFloating(s)) {
    double x = Value{s, a}.asDouble(), y = Value{s, b}.asDouble();
    if (x != x || y != y) return x != x && y != y;
    return s == Sort::Float ? static_cast<std::uint32_t>(a) == static_cast<std::uint32_t>(b) : a == b;
  }
  if (s == Sort::Int) return static_cast<std::uint32_t>(a) == static_cast<std::uint32_t>(b);
  return a == b;
}

}  // namespace pasda::testsupport
