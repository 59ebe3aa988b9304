// Constant folding under Arith::Java: bit-exact Java semantics per opcode family.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "pasda/terms/term.hpp"

using namespace pasda::terms;

namespace {

std::uint64_t bitsOf(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

class JavaFold : public ::testing::Test {
 protected:
  TermManager tm{Arith::Java};
  std::int64_t I(Term t) {
    auto v = tm.asInteger(t);
    EXPECT_TRUE(v.has_value()) << tm.toString(t);
    return v.value_or(12345);
  }
  double D(Term t) {
    auto v = tm.asFloating(t);
    EXPECT_TRUE(v.has_value()) << tm.toString(t);
    return v.value_or(12345);
  }
  bool B(Term t) {
    auto v = tm.asBool(t);
    EXPECT_TRUE(v.has_value()) << tm.toString(t);
    return v.value_or(false);
  }
  Term i(std::int32_t v) { return tm.intLit(v); }
  Term l(std::int64_t v) { return tm.longLit(v); }
  Term d(double v) { return tm.doubleLit(v); }
  Term f(float v) { return tm.floatLit(v); }
};

constexpr std::int32_t IMIN = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t IMAX = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t LMIN = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t LMAX = std::numeric_limits<std::int64_t>::max();
const double NaN = std::numeric_limits<double>::quiet_NaN();
const double Inf = std::numeric_limits<double>::infinity();

TEST_F(JavaFold, IntArithmeticWraps) {
  EXPECT_EQ(I(tm.add(i(IMAX), i(1))), IMIN);
  EXPECT_EQ(I(tm.sub(i(IMIN), i(1))), IMAX);
  EXPECT_EQ(I(tm.mul(i(65536), i(65536))), 0);
  EXPECT_EQ(I(tm.mul(i(IMAX), i(2))), -2);
  EXPECT_EQ(I(tm.neg(i(IMIN))), IMIN);
  EXPECT_EQ(I(tm.add(l(LMAX), l(1))), LMIN);
  EXPECT_EQ(I(tm.neg(l(LMIN))), LMIN);
  EXPECT_EQ(tm.sort(tm.add(l(1), l(2))), Sort::Long);
}

TEST_F(JavaFold, DivisionTruncatesAndMinOverMinusOne) {
  EXPECT_EQ(I(tm.div(i(-7), i(2))), -3);
  EXPECT_EQ(I(tm.rem(i(-7), i(2))), -1);
  EXPECT_EQ(I(tm.div(i(7), i(-2))), -3);
  EXPECT_EQ(I(tm.rem(i(7), i(-2))), 1);
  EXPECT_EQ(I(tm.div(i(IMIN), i(-1))), IMIN);
  EXPECT_EQ(I(tm.rem(i(IMIN), i(-1))), 0);
  EXPECT_EQ(I(tm.div(l(LMIN), l(-1))), LMIN);
  EXPECT_EQ(I(tm.rem(l(LMIN), l(-1))), 0);
  // A zero divisor does not fold (the interpreter branches on it first).
  EXPECT_FALSE(tm.isLit(tm.div(i(1), i(0))));
  EXPECT_FALSE(tm.isLit(tm.rem(l(1), l(0))));
}

TEST_F(JavaFold, ShiftsAreMasked) {
  EXPECT_EQ(I(tm.shl(i(1), i(33))), 2);
  EXPECT_EQ(I(tm.shl(i(1), i(32))), 1);
  EXPECT_EQ(I(tm.shl(i(1), i(-1))), IMIN);
  EXPECT_EQ(I(tm.shr(i(-16), i(2))), -4);
  EXPECT_EQ(I(tm.ushr(i(-16), i(28))), 15);
  EXPECT_EQ(I(tm.ushr(i(-1), i(32))), -1);
  EXPECT_EQ(I(tm.shl(l(1), i(65))), 2);
  EXPECT_EQ(I(tm.shl(l(1), i(63))), LMIN);
  EXPECT_EQ(I(tm.ushr(l(-1), i(60))), 15);
  EXPECT_EQ(I(tm.shr(l(LMIN), i(63))), -1);
  EXPECT_EQ(I(tm.bitAnd(i(0xF0), i(0x3C))), 0x30);
  EXPECT_EQ(I(tm.bitOr(i(0xF0), i(0x0F))), 0xFF);
  EXPECT_EQ(I(tm.bitXor(l(-1), l(5))), -6);
}

TEST_F(JavaFold, IntegerComparisonsAndLcmp) {
  EXPECT_TRUE(B(tm.lt(i(IMIN), i(IMAX))));
  EXPECT_FALSE(B(tm.ge(l(-1), l(0))));
  EXPECT_EQ(I(tm.cmp(l(LMIN), l(LMAX))), -1);
  EXPECT_EQ(I(tm.cmp(l(5), l(5))), 0);
  EXPECT_EQ(I(tm.cmp(l(6), l(5))), 1);
  EXPECT_TRUE(B(tm.ne(i(1), i(2))));
}

TEST_F(JavaFold, FloatingComparisonsWithNaNAndZeros) {
  EXPECT_FALSE(B(tm.eq(d(NaN), d(NaN))));
  EXPECT_TRUE(B(tm.ne(d(NaN), d(NaN))));
  EXPECT_FALSE(B(tm.lt(d(NaN), d(1))));
  EXPECT_FALSE(B(tm.ge(d(NaN), d(1))));
  EXPECT_TRUE(B(tm.eq(d(0.0), d(-0.0))));
  EXPECT_FALSE(B(tm.lt(d(-0.0), d(0.0))));
  EXPECT_EQ(I(tm.cmpl(d(NaN), d(1))), -1);
  EXPECT_EQ(I(tm.cmpg(d(NaN), d(1))), 1);
  EXPECT_EQ(I(tm.cmpl(d(1), d(NaN))), -1);
  EXPECT_EQ(I(tm.cmpg(f(1), f(std::nanf("")))), 1);
  EXPECT_EQ(I(tm.cmpl(d(-0.0), d(0.0))), 0);
  EXPECT_EQ(I(tm.cmpg(d(2), d(1))), 1);
  EXPECT_EQ(I(tm.cmpl(d(-Inf), d(Inf))), -1);
}

TEST_F(JavaFold, DoubleArithmeticIsIeee) {
  EXPECT_EQ(D(tm.add(d(0.1), d(0.2))), 0.1 + 0.2);
  EXPECT_EQ(bitsOf(D(tm.add(d(-0.0), d(0.0)))), bitsOf(0.0));
  EXPECT_EQ(bitsOf(D(tm.mul(d(-1.0), d(0.0)))), bitsOf(-0.0));
  EXPECT_EQ(D(tm.div(d(1.0), d(0.0))), Inf);
  EXPECT_EQ(D(tm.div(d(-1.0), d(0.0))), -Inf);
  EXPECT_TRUE(std::isnan(D(tm.div(d(0.0), d(0.0)))));
  EXPECT_TRUE(std::isnan(D(tm.sub(d(Inf), d(Inf)))));
  EXPECT_EQ(bitsOf(D(tm.neg(d(0.0)))), bitsOf(-0.0));
}

TEST_F(JavaFold, FloatArithmeticRoundsToFloat) {
  // 16777216f + 1f == 16777216f in float precision, 16777217 in double.
  Term r = tm.add(f(16777216.0f), f(1.0f));
  EXPECT_EQ(tm.sort(r), Sort::Float);
  EXPECT_EQ(D(r), 16777216.0);
  // 0.1f * 3f rounds in float.
  EXPECT_EQ(D(tm.mul(f(0.1f), f(3.0f))), static_cast<double>(0.1f * 3.0f));
  EXPECT_NE(D(tm.mul(f(0.1f), f(3.0f))), static_cast<double>(0.1f) * 3.0);
  EXPECT_EQ(D(tm.div(f(1.0f), f(3.0f))), static_cast<double>(1.0f / 3.0f));
}

TEST_F(JavaFold, FloatingRemainderIsFmod) {
  EXPECT_EQ(D(tm.rem(d(5.5), d(2.0))), 1.5);
  EXPECT_EQ(D(tm.rem(d(-5.5), d(2.0))), -1.5);
  EXPECT_EQ(D(tm.rem(d(5.5), d(-2.0))), 1.5);
  EXPECT_EQ(bitsOf(D(tm.rem(d(-4.0), d(2.0)))), bitsOf(-0.0));
  EXPECT_TRUE(std::isnan(D(tm.rem(d(1.0), d(0.0)))));
  EXPECT_TRUE(std::isnan(D(tm.rem(d(Inf), d(2.0)))));
  EXPECT_EQ(D(tm.rem(d(3.0), d(Inf))), 3.0);
  EXPECT_EQ(D(tm.rem(f(7.5f), f(2.0f))), 1.5);
}

TEST_F(JavaFold, ConversionsSaturate) {
  EXPECT_EQ(I(tm.convert(d(1e10), Sort::Int)), IMAX);
  EXPECT_EQ(I(tm.convert(d(-1e10), Sort::Int)), IMIN);
  EXPECT_EQ(I(tm.convert(d(NaN), Sort::Int)), 0);
  EXPECT_EQ(I(tm.convert(d(-Inf), Sort::Int)), IMIN);
  EXPECT_EQ(I(tm.convert(d(Inf), Sort::Long)), LMAX);
  EXPECT_EQ(I(tm.convert(d(NaN), Sort::Long)), 0);
  EXPECT_EQ(I(tm.convert(d(-2.9), Sort::Int)), -2);
  EXPECT_EQ(I(tm.convert(d(2.9), Sort::Long)), 2);
  EXPECT_EQ(I(tm.convert(f(3e9f), Sort::Int)), IMAX);
  EXPECT_EQ(I(tm.convert(f(std::nanf("")), Sort::Long)), 0);
  EXPECT_EQ(I(tm.convert(l(0x100000001LL), Sort::Int)), 1);
  EXPECT_EQ(I(tm.convert(l(-1), Sort::Int)), -1);
  EXPECT_EQ(I(tm.convert(i(-5), Sort::Long)), -5);
  EXPECT_EQ(tm.sort(tm.convert(i(-5), Sort::Long)), Sort::Long);
  // long -> float rounds once (not via double): 2^60 + 2^36 + 1 rounds up in float.
  std::int64_t big = (1LL << 60) + (1LL << 36) + 1;
  EXPECT_EQ(D(tm.convert(l(big), Sort::Float)), static_cast<double>(static_cast<float>(big)));
  EXPECT_EQ(D(tm.convert(l((1LL << 53) + 1), Sort::Double)), 9007199254740992.0);
  EXPECT_EQ(D(tm.convert(d(0.1), Sort::Float)), static_cast<double>(0.1f));
  EXPECT_EQ(D(tm.convert(f(0.1f), Sort::Double)), static_cast<double>(0.1f));
}

TEST_F(JavaFold, Narrowing) {
  EXPECT_EQ(I(tm.i2b(i(200))), -56);
  EXPECT_EQ(I(tm.i2b(i(-129))), 127);
  EXPECT_EQ(I(tm.i2c(i(-1))), 65535);
  EXPECT_EQ(I(tm.i2s(i(40000))), -25536);
  EXPECT_EQ(I(tm.i2s(i(-32768))), -32768);
}

TEST_F(JavaFold, RoundingAndBits) {
  EXPECT_EQ(D(tm.floor(d(-0.5))), -1.0);
  EXPECT_EQ(bitsOf(D(tm.ceil(d(-0.5)))), bitsOf(-0.0));
  EXPECT_EQ(D(tm.rint(d(2.5))), 2.0);
  EXPECT_EQ(D(tm.rint(d(3.5))), 4.0);
  EXPECT_EQ(bitsOf(D(tm.rint(d(-0.4)))), bitsOf(-0.0));
  EXPECT_TRUE(std::isnan(D(tm.floor(d(NaN)))));
  EXPECT_EQ(I(tm.rawBits(d(1.0))), 0x3FF0000000000000LL);
  EXPECT_EQ(I(tm.rawBits(d(-0.0))), LMIN);
  Term oddNaN = tm.lit(Sort::Double, 0x7FF0000000000001ULL);
  EXPECT_EQ(I(tm.rawBits(oddNaN)), 0x7FF0000000000001LL);
  EXPECT_EQ(tm.fromBits(l(0x7FF0000000000001LL)), oddNaN);
  EXPECT_EQ(D(tm.fromBits(l(0x4000000000000000LL))), 2.0);
  EXPECT_EQ(I(tm.rawBits(f(1.0f))), 0x3F800000);
}

TEST_F(JavaFold, SameIsDoubleEquals) {
  EXPECT_TRUE(B(tm.same(d(NaN), tm.lit(Sort::Double, 0x7FF0000000000001ULL))));
  EXPECT_FALSE(B(tm.same(d(0.0), d(-0.0))));
  EXPECT_TRUE(B(tm.same(d(1.5), d(1.5))));
  EXPECT_FALSE(B(tm.same(d(NaN), d(1.0))));
  EXPECT_TRUE(B(tm.same(i(3), i(3))));
  EXPECT_FALSE(B(tm.same(f(0.0f), f(-0.0f))));
  Term x = tm.var("x", Sort::Double);
  EXPECT_TRUE(B(tm.same(x, x)));  // Double.equals is reflexive, NaN included
}

TEST_F(JavaFold, BooleansAndIte) {
  Term t = tm.boolLit(true), fl = tm.boolLit(false);
  EXPECT_FALSE(B(tm.land(t, fl)));
  EXPECT_TRUE(B(tm.lor(t, fl)));
  EXPECT_FALSE(B(tm.lnot(t)));
  EXPECT_EQ(tm.ite(t, i(1), i(2)), i(1));
  EXPECT_EQ(tm.ite(fl, i(1), i(2)), i(2));
}

TEST_F(JavaFold, LibraryFunctions) {
  Term s = tm.apply("sin", FunKind::Library, Sort::Double, {d(0.5)});
  EXPECT_EQ(D(s), std::sin(0.5));
  EXPECT_EQ(D(tm.apply("Math.sqrt", FunKind::Library, Sort::Double, {d(2.0)})), std::sqrt(2.0));
  EXPECT_TRUE(std::isnan(D(tm.apply("sqrt", FunKind::Library, Sort::Double, {d(-1.0)}))));
  EXPECT_EQ(D(tm.apply("pow", FunKind::Library, Sort::Double, {d(2.0), d(10.0)})), 1024.0);
  // Java: pow(1, NaN) is NaN (C says 1), pow(-1, Inf) is NaN (C says 1).
  EXPECT_TRUE(std::isnan(D(tm.apply("pow", FunKind::Library, Sort::Double, {d(1.0), d(NaN)}))));
  EXPECT_TRUE(std::isnan(D(tm.apply("pow", FunKind::Library, Sort::Double, {d(-1.0), d(Inf)}))));
  EXPECT_EQ(D(tm.apply("atan2", FunKind::Library, Sort::Double, {d(1.0), d(1.0)})), std::atan2(1.0, 1.0));
  // Unknown functions and non-library kinds stay applications.
  EXPECT_FALSE(tm.isLit(tm.apply("frobnicate", FunKind::Library, Sort::Double, {d(1.0)})));
  EXPECT_FALSE(tm.isLit(tm.apply("sin", FunKind::Uif, Sort::Double, {d(1.0)})));
  EXPECT_FALSE(tm.isLit(tm.apply("Other.sin", FunKind::Library, Sort::Double, {d(1.0)})));
}

TEST_F(JavaFold, BadSortsThrow) {
  EXPECT_THROW(tm.add(i(1), l(2)), TermError);
  EXPECT_THROW(tm.shl(i(1), l(2)), TermError);
  EXPECT_THROW(tm.land(i(1), tm.boolLit(true)), TermError);
  EXPECT_THROW(tm.ite(i(1), i(1), i(2)), TermError);
  EXPECT_THROW(tm.node(Term{999999}), TermError);
  EXPECT_THROW(tm.make(Op::Add, Sort::Int, {i(1)}), TermError);
  EXPECT_THROW(tm.var("", Sort::Int), TermError);
}

}  // namespace
