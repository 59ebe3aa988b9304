// The concrete semantics of the term layer's operations, as pure functions: Java's (bit-exact)
// and, where it differs, the math model's. Constant folding and the witness evaluator both use
// them; tests check them against Z3's translation and against a real JVM (docs/arithmetic-models.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "pasda/terms/term.hpp"

namespace pasda::terms::semantics {

// ---- raw IEEE bits (the one place that reinterprets them) -------------------------------------

double doubleOfBits(std::uint64_t bits);
float floatOfBits(std::uint32_t bits);
std::uint64_t bitsOfDouble(double d);
std::uint32_t bitsOfFloat(float f);

/// A concrete value in the literal encoding of Node::bits: boolean 0/1, int and long
/// sign-extended, float (low 32 bits) and double raw IEEE bits, a reference an opaque id.
/// Under Arith::Math an Int or Long holds an unbounded integer, as far as int64 reaches.
struct Value {
  Sort sort = Sort::Int;
  std::uint64_t bits = 0;

  static Value ofBool(bool b) { return {Sort::Bool, b ? 1u : 0u}; }
  static Value ofInt(std::int32_t v) { return {Sort::Int, static_cast<std::uint64_t>(static_cast<std::int64_t>(v))}; }
  static Value ofLong(std::int64_t v) { return {Sort::Long, static_cast<std::uint64_t>(v)}; }
  static Value ofInteger(Sort s, std::int64_t v) { return {s, static_cast<std::uint64_t>(v)}; }
  static Value ofFloat(float f) { return {Sort::Float, bitsOfFloat(f)}; }
  static Value ofDouble(double d) { return {Sort::Double, bitsOfDouble(d)}; }

  bool asBool() const { return bits != 0; }
  std::int32_t asInt() const { return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)); }  // Java's int
  std::int64_t asLong() const { return static_cast<std::int64_t>(bits); }
  float asFloat() const { return floatOfBits(static_cast<std::uint32_t>(bits)); }
  /// A float or double as a double (a float widens exactly).
  double asDouble() const { return sort == Sort::Float ? static_cast<double>(asFloat()) : doubleOfBits(bits); }
};

// ---- Java, one family at a time -----------------------------------------------------------

/// int arithmetic and bit operations (Add Sub Mul Div Rem Shl Shr Ushr BitAnd BitOr BitXor):
/// wrap-around, truncating division, MIN / -1 = MIN, MIN % -1 = 0, shift amounts & 31.
/// Empty for a zero divisor (Java throws) and for any other operator.
std::optional<std::int32_t> javaInt(Op op, std::int32_t a, std::int32_t b);
/// The same for long; for shifts `b` is the int amount (masked & 63).
std::optional<std::int64_t> javaLong(Op op, std::int64_t a, std::int64_t b);
/// float / double arithmetic (Add Sub Mul Div, and Rem = C's fmod), IEEE round to nearest.
std::optional<float> javaFloat(Op op, float a, float b);
std::optional<double> javaDouble(Op op, double a, double b);

/// IEEE comparison (Eq Ne Lt Le Gt Ge): false when an operand is NaN except Ne; -0.0 == 0.0.
std::optional<bool> javaCompareFloating(Op op, double a, double b);
/// lcmp on two integers; fcmpl/dcmpl (nanResult -1) and fcmpg/dcmpg (nanResult 1).
std::int32_t javaCmp(std::int64_t a, std::int64_t b);
std::int32_t javaCmpFloating(double a, double b, std::int32_t nanResult);

/// d2i, d2l, f2i, f2l (pass the float widened): NaN -> 0, saturating, truncating toward zero.
std::int32_t javaToInt(double d);
std::int64_t javaToLong(double d);
/// i2b, i2c, i2s.
std::int32_t javaI2B(std::int32_t v);
std::int32_t javaI2C(std::int32_t v);
std::int32_t javaI2S(std::int32_t v);

/// Math.floor / Math.ceil / Math.rint (round half to even); NaN, infinities and signed zeros
/// are kept. The float overloads are the same functions in float (exact).
double javaRound(Op op, double d);
float javaRound(Op op, float f);

/// Double.equals / Float.equals on raw bits: NaN equals NaN (any payload), +0.0 != -0.0.
bool javaSameFloating(Sort s, std::uint64_t a, std::uint64_t b);

/// A library function (sin, cos, ..., pow, atan2, hypot; optionally prefixed by Math. or
/// StrictMath.) on doubles, by the C library with Java's special cases where C differs
/// (pow(x, NaN) is NaN even for x = 1, pow(+-1, +-Inf) is NaN). Java allows 1 ulp of error
/// for these (sqrt is exact in both). Empty for an unknown function or arity.
std::optional<double> javaLibrary(std::string_view fn, std::span<const double> args);

// ---- whole operations --------------------------------------------------------------------

/// Java's value of `op` (any operator but Lit, Var and Apply) on `args` (values of the operand
/// sorts the term layer checks), with result sort `result` (for Convert: the target sort).
/// Empty when Java has no value (an integer division or remainder by zero throws).
std::optional<Value> evalJava(Op op, Sort result, std::span<const Value> args);

/// The math model's value of `op` where the term layer can compute it exactly: integers are
/// unbounded (empty when the result leaves int64), floats and doubles are the reals their
/// literals denote, so only exact operations have a value (negation, comparisons of finite
/// values, floor/ceil/rint, exact conversions, truncation); rounded arithmetic, NaN and the
/// infinities have none. Bit operations, shifts and narrowing act on the two's-complement
/// image of the Java width (as the solver encodes them). RawBits/FromBits have a value only
/// where the real determines the bits.
std::optional<Value> evalMath(Op op, Sort result, std::span<const Value> args);

}  // namespace pasda::terms::semantics
