// Folding under Arith::Math, normalisation, printing, substitution and DAG queries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pasda/terms/term.hpp"

using namespace pasda::terms;

namespace {

constexpr std::int64_t LMAX = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t LMIN = std::numeric_limits<std::int64_t>::min();

TEST(MathFold, IntegersAreUnboundedWithinInt64) {
  TermManager tm(Arith::Math);
  EXPECT_EQ(tm.asInteger(tm.add(tm.intLit(2147483647), tm.intLit(1))), 2147483648LL);
  EXPECT_EQ(tm.asInteger(tm.mul(tm.intLit(65536), tm.intLit(65536))), 4294967296LL);
  EXPECT_FALSE(tm.isLit(tm.add(tm.longLit(LMAX), tm.longLit(1))));  // beyond int64: left symbolic
  EXPECT_FALSE(tm.isLit(tm.mul(tm.longLit(LMAX), tm.longLit(2))));
  EXPECT_FALSE(tm.isLit(tm.neg(tm.longLit(LMIN))));
  EXPECT_FALSE(tm.isLit(tm.div(tm.longLit(LMIN), tm.longLit(-1))));
  EXPECT_EQ(tm.asInteger(tm.div(tm.intLit(-7), tm.intLit(2))), -3);  // truncation, not Euclid
  EXPECT_EQ(tm.asInteger(tm.rem(tm.intLit(-7), tm.intLit(2))), -1);
  EXPECT_EQ(tm.asInteger(tm.rem(tm.intLit(7), tm.intLit(-2))), 1);
  // Bit operations act on the Java-width image.
  EXPECT_EQ(tm.asInteger(tm.shl(tm.intLit(1), tm.intLit(33))), 2);
  EXPECT_EQ(tm.asInteger(tm.bitAnd(tm.intLit(12), tm.intLit(10))), 8);
}

TEST(MathFold, FloatingArithmeticDoesNotRound) {
  TermManager tm(Arith::Math);
  Term a = tm.doubleLit(0.1), b = tm.doubleLit(0.2);
  EXPECT_FALSE(tm.isLit(tm.add(a, b)));
  EXPECT_FALSE(tm.isLit(tm.mul(a, b)));
  EXPECT_EQ(tm.asFloating(tm.neg(a)), -0.1);
  // Comparisons of finite literals compare exact values.
  EXPECT_EQ(tm.asBool(tm.lt(a, b)), true);
  EXPECT_EQ(tm.asBool(tm.eq(tm.doubleLit(0.0), tm.doubleLit(-0.0))), true);
  EXPECT_EQ(tm.asBool(tm.lt(tm.convert(tm.floatLit(0.1f), Sort::Double), tm.doubleLit(0.1))), false);
  // No value for NaN: not folded.
  EXPECT_FALSE(tm.isLit(tm.lt(tm.doubleLit(std::nan("")), b)));
  // Library functions fold only to finite values.
  EXPECT_TRUE(tm.isLit(tm.apply("sin", FunKind::Library, Sort::Double, {a})));
  EXPECT_FALSE(tm.isLit(tm.apply("log", FunKind::Library, Sort::Double, {tm.doubleLit(0.0)})));
}

TEST(MathFold, Conversions) {
  TermManager tm(Arith::Math);
  EXPECT_EQ(tm.asInteger(tm.convert(tm.doubleLit(-2.7), Sort::Int)), -2);
  EXPECT_EQ(tm.asInteger(tm.convert(tm.doubleLit(1e10), Sort::Int)), 10000000000LL);  // no saturation
  EXPECT_FALSE(tm.isLit(tm.convert(tm.doubleLit(1e300), Sort::Long)));
  EXPECT_EQ(tm.asFloating(tm.convert(tm.intLit(3), Sort::Double)), 3.0);
  EXPECT_FALSE(tm.isLit(tm.convert(tm.longLit((1LL << 53) + 1), Sort::Double)));  // not exact
  EXPECT_FALSE(tm.isLit(tm.convert(tm.doubleLit(0.1), Sort::Float)));             // not exact
  EXPECT_TRUE(tm.isLit(tm.convert(tm.doubleLit(0.5), Sort::Float)));
  EXPECT_EQ(tm.asInteger(tm.convert(tm.longLit(1LL << 40), Sort::Int)), 1LL << 40);  // unbounded
  EXPECT_EQ(tm.asFloating(tm.floor(tm.doubleLit(-1.5))), -2.0);
}

TEST(Normalise, CommutativeOrderAndIdentities) {
  for (Arith ar : {Arith::Math, Arith::Java}) {
    TermManager tm(ar);
    Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
    EXPECT_EQ(tm.add(x, y), tm.add(y, x));
    EXPECT_EQ(tm.mul(tm.intLit(3), x), tm.mul(x, tm.intLit(3)));
    EXPECT_EQ(tm.node(tm.add(tm.intLit(3), x)).args[1], tm.intLit(3));  // literal last
    EXPECT_EQ(tm.add(x, tm.intLit(0)), x);
    EXPECT_EQ(tm.sub(x, tm.intLit(0)), x);
    EXPECT_EQ(tm.mul(x, tm.intLit(1)), x);
    EXPECT_EQ(tm.mul(x, tm.intLit(0)), tm.intLit(0));
    EXPECT_EQ(tm.sub(x, x), tm.intLit(0));
    EXPECT_EQ(tm.neg(tm.neg(x)), x);
    EXPECT_EQ(tm.rem(x, tm.intLit(1)), tm.intLit(0));
    EXPECT_EQ(tm.eq(x, x), tm.boolLit(true));
    EXPECT_EQ(tm.lt(x, x), tm.boolLit(false));
    Term c = tm.lt(x, y);
    EXPECT_EQ(tm.lnot(tm.lnot(c)), c);
    EXPECT_EQ(tm.lnot(c), tm.ge(x, y));
    EXPECT_EQ(tm.lnot(tm.eq(x, y)), tm.ne(x, y));
    EXPECT_EQ(tm.land(c, tm.boolLit(true)), c);
    EXPECT_EQ(tm.land(c, tm.boolLit(false)), tm.boolLit(false));
    EXPECT_EQ(tm.lor(c, tm.boolLit(true)), tm.boolLit(true));
    EXPECT_EQ(tm.lor(tm.boolLit(false), c), c);
    Term bv = tm.var("b", Sort::Bool);
    EXPECT_EQ(tm.land(bv, tm.lnot(bv)), tm.boolLit(false));
    EXPECT_EQ(tm.lor(tm.lnot(bv), bv), tm.boolLit(true));
    EXPECT_EQ(tm.eq(bv, tm.boolLit(false)), tm.lnot(bv));
    EXPECT_EQ(tm.ite(c, x, x), x);
    EXPECT_EQ(tm.ite(tm.boolLit(true), x, y), x);
    EXPECT_EQ(tm.ite(c, tm.boolLit(true), tm.boolLit(false)), c);
    EXPECT_EQ(tm.ite(tm.lnot(bv), x, y), tm.ite(bv, y, x));
    EXPECT_EQ(tm.convert(tm.convert(x, Sort::Long), Sort::Int), x);
    EXPECT_EQ(tm.cmpl(x, y), tm.cmp(x, y));
  }
}

TEST(Normalise, JavaFloatsKeepIeeeCorners) {
  TermManager tm(Arith::Java);
  Term d = tm.var("d", Sort::Double), e = tm.var("e", Sort::Double);
  EXPECT_NE(tm.add(d, tm.doubleLit(0.0)), d);        // -0.0 + 0.0 == 0.0
  EXPECT_NE(tm.mul(d, tm.doubleLit(0.0)), tm.doubleLit(0.0));  // NaN, Inf, -0.0
  EXPECT_NE(tm.sub(d, d), tm.doubleLit(0.0));
  EXPECT_FALSE(tm.isLit(tm.eq(d, d)));               // false for NaN
  EXPECT_NE(tm.lnot(tm.lt(d, e)), tm.ge(d, e));      // NaN
  EXPECT_EQ(tm.lnot(tm.eq(d, e)), tm.ne(d, e));      // != is the negation of ==
  EXPECT_EQ(tm.add(d, e), tm.add(e, d));             // commutative order for IEEE add as well
  EXPECT_EQ(tm.rawBits(tm.fromBits(tm.var("b", Sort::Long))), tm.var("b", Sort::Long));
  TermManager mm(Arith::Math);
  Term r = mm.var("r", Sort::Double);
  EXPECT_EQ(mm.add(r, mm.doubleLit(0.0)), r);
  EXPECT_EQ(mm.mul(r, mm.doubleLit(0.0)), mm.doubleLit(0.0));
  EXPECT_EQ(mm.same(r, mm.var("s", Sort::Double)), mm.eq(r, mm.var("s", Sort::Double)));
}

TEST(Printer, JavaSyntaxWithMinimalParentheses) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
  Term d = tm.var("d", Sort::Double);
  EXPECT_EQ(tm.toString(tm.gt(tm.mul(tm.add(x, tm.intLit(1)), y), tm.intLit(3))), "y * (x + 1) > 3");
  EXPECT_EQ(tm.toString(tm.sub(x, tm.sub(y, tm.intLit(1)))), "x - (y - 1)");
  EXPECT_EQ(tm.toString(tm.sub(tm.sub(x, y), tm.intLit(1))), "x - y - 1");
  EXPECT_EQ(tm.toString(tm.add(x, tm.intLit(-5))), "x + -5");
  EXPECT_EQ(tm.toString(tm.intLit(2147483647)), "2147483647");
  EXPECT_EQ(tm.toString(tm.longLit(5)), "5L");
  EXPECT_EQ(tm.toString(tm.floatLit(1.5f)), "1.5f");
  EXPECT_EQ(tm.toString(tm.doubleLit(1e-5)), "1.0E-5");
  EXPECT_EQ(tm.toString(tm.doubleLit(0.001)), "0.001");
  EXPECT_EQ(tm.toString(tm.doubleLit(1e7)), "1.0E7");
  EXPECT_EQ(tm.toString(tm.doubleLit(1234567.0)), "1234567.0");
  EXPECT_EQ(tm.toString(tm.doubleLit(100.0)), "100.0");
  EXPECT_EQ(tm.toString(tm.doubleLit(0.1)), "0.1");
  EXPECT_EQ(tm.toString(tm.doubleLit(-2.5e-300)), "-2.5E-300");
  EXPECT_EQ(tm.toString(tm.doubleLit(std::nan(""))), "Double.NaN");
  EXPECT_EQ(tm.toString(tm.doubleLit(-0.0)), "-0.0");
  EXPECT_EQ(tm.toString(tm.doubleLit(-INFINITY)), "Double.NEGATIVE_INFINITY");
  EXPECT_EQ(tm.toString(tm.apply("sin", FunKind::Library, Sort::Double, {d})), "Math.sin(d)");
  EXPECT_EQ(tm.toString(tm.convert(d, Sort::Int)), "(int) d");
  EXPECT_EQ(tm.toString(tm.convert(tm.add(d, tm.doubleLit(1.0)), Sort::Long)), "(long) (d + 1.0)");
  EXPECT_EQ(tm.toString(tm.apply("UIF_3", FunKind::Uif, Sort::Int, {x, y})), "UIF_3(x, y)");
  Term c = tm.lt(x, y);
  EXPECT_EQ(tm.toString(tm.add(tm.ite(c, x, y), tm.intLit(1))), "(x < y ? x : y) + 1");
  EXPECT_EQ(tm.toString(tm.land(tm.lor(c, tm.eq(x, tm.intLit(0))), tm.ne(y, tm.intLit(2)))),
            "y != 2 && (x < y || x == 0)");
  EXPECT_EQ(tm.toString(tm.lnot(tm.lt(d, tm.doubleLit(1.0)))), "!(d < 1.0)");
  EXPECT_EQ(tm.toString(tm.same(d, tm.var("e", Sort::Double))), "Double.compare(d, e) == 0");
  EXPECT_EQ(tm.toString(tm.neg(tm.add(x, y))), "-(x + y)");
  EXPECT_EQ(tm.toString(tm.shl(x, tm.add(y, tm.intLit(1)))), "x << y + 1");
  EXPECT_EQ(tm.toString(tm.bitAnd(tm.add(x, y), tm.intLit(255))), "x + y & 255");
  EXPECT_EQ(tm.toString(tm.i2b(x)), "(byte) x");
  EXPECT_EQ(tm.toString(tm.cmp(tm.var("a", Sort::Long), tm.var("b", Sort::Long))), "Long.compare(a, b)");
}

TEST(Substitute, ReplacesAndRefolds) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
  Term e = tm.add(tm.mul(x, tm.intLit(2)), y);
  Term r = tm.substitute(e, {{x, tm.intLit(3)}, {y, tm.intLit(4)}});
  EXPECT_EQ(tm.asInteger(r), 10);
  Term r2 = tm.substitute(e, {{y, x}});
  EXPECT_EQ(r2, tm.add(tm.mul(x, tm.intLit(2)), x));
  EXPECT_EQ(tm.substitute(e, {}), e);
  EXPECT_THROW(tm.substitute(e, {{x, tm.longLit(1)}}), TermError);
}

TEST(Queries, FlagsAndVars) {
  TermManager tm(Arith::Math);
  Term x = tm.var("x", Sort::Double), n = tm.var("n", Sort::Int);
  Term s = tm.apply("sin", FunKind::Library, Sort::Double, {x});
  Term u = tm.apply("UIF_1", FunKind::Uif, Sort::Double, {x});
  Term h = tm.apply("helper", FunKind::Helper, Sort::Int, {n});
  EXPECT_TRUE(tm.containsLibrary(tm.add(s, x)));
  EXPECT_FALSE(tm.containsUif(tm.add(s, x)));
  EXPECT_TRUE(tm.containsUif(tm.lt(u, x)));
  EXPECT_TRUE(tm.containsUif(h));
  EXPECT_FALSE(tm.containsLibrary(h));
  std::vector<Term> vars;
  tm.collectVars(tm.land(tm.lt(s, u), tm.gt(h, n)), vars);
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_TRUE(vars[0] < vars[1]);
  EXPECT_EQ(tm.var("x", Sort::Double), x);
  EXPECT_NE(tm.var("x", Sort::Int), x);  // same name, other sort: another variable
}

TEST(Queries, DeepChainsDoNotOverflowTheStack) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int);
  Term acc = x;
  for (int k = 0; k < 100000; ++k) acc = tm.add(tm.mul(acc, tm.var("y", Sort::Int)), tm.intLit(k % 7 + 1));
  std::vector<Term> vars;
  tm.collectVars(acc, vars);
  EXPECT_EQ(vars.size(), 2u);
  EXPECT_FALSE(tm.containsUif(acc));
  Term sub = tm.substitute(acc, {{x, tm.var("z", Sort::Int)}});
  EXPECT_NE(sub, acc);
  std::string s = tm.toString(acc);
  EXPECT_GT(s.size(), 1000u);
  EXPECT_EQ(tm.asInteger(tm.substitute(acc, {{x, tm.intLit(0)}, {tm.var("y", Sort::Int), tm.intLit(0)}})),
            99999 % 7 + 1);
}

}  // namespace
