// Z3 backend: sat/unsat/unknown in both models, Java-vs-Z3 operator differences, models,
// integer bounding, timeout, interrupt and push/pop reuse.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <atomic>
#include <thread>

#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

std::uint64_t bitsOf(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// `phi` is valid iff its negation is unsat.
Status validity(Solver& s, TermManager& tm, Term phi) {
  auto r = s.check({tm.lnot(phi)});
  return r.status == Status::Unsat ? Status::Sat : (r.status == Status::Sat ? Status::Unsat : Status::Unknown);
}

TEST(SolverMath, TruncatingDivisionNotEuclidean) {
  TermManager tm(Arith::Math);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
  // x == -7 && y == 2 implies x / y == -3 and x % y == -1 (Z3's div would give -4 and 1).
  Term pre = tm.land(tm.eq(x, tm.intLit(-7)), tm.eq(y, tm.intLit(2)));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.div(x, y), tm.intLit(-3)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.rem(x, y), tm.intLit(-1)))), Status::Sat);
  // In general: y != 0 implies (x / y) * y + x % y == x, and |x % y| < |y| with the sign of x.
  Term nz = tm.ne(y, tm.intLit(0));
  Term id = tm.eq(tm.add(tm.mul(tm.div(x, y), y), tm.rem(x, y)), x);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(nz), id)), Status::Sat);
  Term signOk = tm.lor(tm.lnot(tm.lt(x, tm.intLit(0))), tm.le(tm.rem(x, y), tm.intLit(0)));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(nz), signOk)), Status::Sat);
}

TEST(SolverMath, IntegersAreUnboundedButInputsBounded) {
  TermManager tm(Arith::Math);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int);
  // Unbounded arithmetic: x + 1 > x always (no wrap-around).
  EXPECT_EQ(validity(*s, tm, tm.gt(tm.add(x, tm.intLit(1)), x)), Status::Sat);
  // Inputs are bounded to the Java range.
  EXPECT_EQ(s->check({tm.gt(x, tm.intLit(2147483647))}).status, Status::Unsat);
  auto r = s->check({tm.ge(tm.mul(x, tm.intLit(2)), tm.add(tm.intLit(2147483647), tm.intLit(2147483647)))});
  ASSERT_EQ(r.status, Status::Sat);
  EXPECT_EQ(tm.asInteger(*s->model({x}).lookup(x)), 2147483647);
  // Bounds survive push/pop even when the variable was first seen inside a scope.
  Term z = tm.var("z", Sort::Long);
  s->push();
  s->add(tm.gt(z, tm.longLit(5)));
  EXPECT_EQ(s->check().status, Status::Sat);
  s->pop();
  s->push();
  s->add(tm.lt(tm.convert(z, Sort::Double), tm.doubleLit(-1e19)));
  EXPECT_EQ(s->check().status, Status::Unsat);
  s->pop();
  // Without bounding, the same query is satisfiable.
  SolverOptions o;
  o.bound_integer_inputs = false;
  auto u = makeZ3Solver(tm, o);
  EXPECT_EQ(u->check({tm.gt(x, tm.intLit(2147483647))}).status, Status::Sat);
}

TEST(SolverMath, RealsConversionsAndModels) {
  TermManager tm(Arith::Math);
  auto s = makeZ3Solver(tm, {});
  Term d = tm.var("d", Sort::Double);
  // Reals: 0.1 + 0.2 == 0.3 holds exactly on the decimal values? No: the literals are the
  // exact binary values, whose sum differs from the binary 0.3.
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.add(tm.doubleLit(0.1), tm.doubleLit(0.2)), tm.doubleLit(0.3))), Status::Unsat);
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.add(tm.doubleLit(0.5), tm.doubleLit(0.25)), tm.doubleLit(0.75))), Status::Sat);
  // (int) d truncates toward zero.
  Term pre = tm.eq(d, tm.doubleLit(-2.5));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.convert(d, Sort::Int), tm.intLit(-2)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.floor(d), tm.doubleLit(-3.0)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.rint(d), tm.doubleLit(-2.0)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.rem(d, tm.doubleLit(2.0)), tm.doubleLit(-0.5)))), Status::Sat);
  // A model value that is not a double: d * 3 == 1.
  ASSERT_EQ(s->check({tm.eq(tm.mul(d, tm.doubleLit(3.0)), tm.doubleLit(1.0))}).status, Status::Sat);
  Model m = s->model({d});
  ASSERT_EQ(m.values.size(), 1u);
  EXPECT_EQ(m.values[0].exact, "1/3");
  EXPECT_EQ(tm.asFloating(m.values[0].value), 1.0 / 3.0);
  // An algebraic value: d * d == 2.
  ASSERT_EQ(s->check({tm.eq(tm.mul(d, d), tm.doubleLit(2.0)), tm.gt(d, tm.doubleLit(0.0))}).status, Status::Sat);
  m = s->model({d});
  EXPECT_NEAR(*tm.asFloating(m.values[0].value), std::sqrt(2.0), 1e-15);
  EXPECT_FALSE(m.values[0].exact.empty());
  // An exact double stays exact (empty `exact`).
  ASSERT_EQ(s->check({tm.eq(d, tm.doubleLit(0.1))}).status, Status::Sat);
  m = s->model({d});
  EXPECT_EQ(tm.asFloating(m.values[0].value), 0.1);
  EXPECT_EQ(m.values[0].exact, "");
}

TEST(SolverMath, BitOperationsAndUninterpretedFunctions) {
  TermManager tm(Arith::Math);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int);
  Term pre = tm.eq(x, tm.intLit(-8));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.shr(x, tm.intLit(33)), tm.intLit(-4)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.ushr(x, tm.intLit(28)), tm.intLit(15)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.i2b(tm.add(x, tm.intLit(300))), tm.intLit(36)))), Status::Sat);
  Term d = tm.var("d", Sort::Double), e = tm.var("e", Sort::Double);
  Term sd = tm.apply("sin", FunKind::Library, Sort::Double, {d});
  Term se = tm.apply("sin", FunKind::Library, Sort::Double, {e});
  // Congruence: d == e implies sin(d) == sin(e); nothing else is known about sin.
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.ne(d, e), tm.eq(sd, se))), Status::Sat);
  EXPECT_EQ(s->check({tm.gt(sd, tm.doubleLit(2.0))}).status, Status::Sat);  // uninterpreted
  Term u = tm.apply("UIF_1", FunKind::Uif, Sort::Int, {x});
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.sub(u, u), tm.intLit(0))), Status::Sat);
}

TEST(SolverJava, WrapAroundAndShiftMasking) {
  TermManager tm(Arith::Java);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int);
  EXPECT_EQ(s->check({tm.lt(tm.add(x, tm.intLit(1)), x)}).status, Status::Sat);  // overflow exists
  Model m = s->model({x});
  EXPECT_EQ(tm.asInteger(*m.lookup(x)), 2147483647);
  // 1 << x with x == 33 is 2 (Z3's bvshl would give 0).
  Term one = tm.intLit(1);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.ne(x, tm.intLit(33)), tm.eq(tm.shl(one, x), tm.intLit(2)))), Status::Sat);
  Term l = tm.var("l", Sort::Long);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.ne(x, tm.intLit(65)), tm.eq(tm.shl(l, x), tm.mul(l, tm.longLit(2))))), Status::Sat);
  // Division truncates; MIN / -1 == MIN.
  Term y = tm.var("y", Sort::Int);
  Term pre = tm.land(tm.eq(x, tm.intLit(-7)), tm.eq(y, tm.intLit(2)));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(pre), tm.eq(tm.div(x, y), tm.intLit(-3)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.div(tm.intLit(INT32_MIN), tm.neg(tm.intLit(1))), tm.intLit(INT32_MIN))), Status::Sat);
  // x / 4 != x >> 2 for negative x.
  EXPECT_EQ(s->check({tm.ne(tm.div(x, tm.intLit(4)), tm.shr(x, tm.intLit(2)))}).status, Status::Sat);
}

TEST(SolverJava, FloatingPointSemantics) {
  TermManager tm(Arith::Java);
  auto s = makeZ3Solver(tm, {});
  Term d = tm.var("d", Sort::Double);
  // d + 0.0 differs structurally from d only for d == -0.0.
  ASSERT_EQ(s->check({tm.lnot(tm.same(tm.add(d, tm.doubleLit(0.0)), d))}).status, Status::Sat);
  Model m = s->model({d});
  EXPECT_EQ(tm.node(*m.lookup(d)).bits, bitsOf(-0.0));
  // NaN: d != d is satisfiable and the model is a NaN.
  ASSERT_EQ(s->check({tm.ne(d, d)}).status, Status::Sat);
  EXPECT_TRUE(std::isnan(*tm.asFloating(*s->model({d}).lookup(d))));
  // Same is Double.equals: reflexive even on NaN, distinguishes signed zeros.
  Term e = tm.var("e", Sort::Double);
  EXPECT_EQ(s->check({tm.same(d, e), tm.ne(d, e)}).status, Status::Sat);  // both NaN
  EXPECT_EQ(s->check({tm.same(d, e), tm.ne(d, e), tm.lnot(tm.ne(d, d))}).status, Status::Unsat);
  EXPECT_EQ(s->check({tm.eq(d, e), tm.lnot(tm.same(d, e))}).status, Status::Sat);  // 0.0 vs -0.0
  // dcmpl/dcmpg with NaN.
  Term nan = tm.doubleLit(std::nan(""));
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.cmpl(d, nan), tm.intLit(-1))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.eq(tm.cmpg(nan, d), tm.intLit(1))), Status::Sat);
  // d2i saturates and maps NaN to 0.
  Term i = tm.convert(d, Sort::Int);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.eq(d, d), tm.eq(i, tm.intLit(0)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lor(tm.lt(d, tm.doubleLit(1e10)), tm.ne(d, d)), tm.eq(i, tm.intLit(INT32_MAX)))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lor(tm.gt(d, tm.doubleLit(-1e300)), tm.ne(d, d)), tm.eq(tm.convert(d, Sort::Long), tm.longLit(INT64_MIN)))), Status::Sat);
}

TEST(SolverJava, FmodIsNotIeeeRemainder) {
  // The exact encoding (fp.rem adjusted to fmod), checked by evaluation in a model: Z3
  // evaluates fp.rem on numerals exactly; proving with it on symbols is intractable.
  TermManager tm(Arith::Java);
  SolverOptions o;
  o.exact_fp_remainder = true;
  auto s = makeZ3Solver(tm, o);
  Term x = tm.var("x", Sort::Double), y = tm.var("y", Sort::Double);
  struct Case { double x, y; };
  const Case cases[] = {{5.5, 2.0}, {-5.5, 2.0}, {5.5, -2.0}, {-4.0, 2.0}, {4.0, -2.0}, {1e300, 3.0},
                        {-7.25, 0.5}, {3.0, INFINITY}, {-0.0, 1.0}, {1.0, 0.0}, {INFINITY, 1.0}, {6.5, 2.0},
                        {-6.5, 2.0}, {2.5, 1.0}, {1e-310, 3e-320}};
  for (const Case& c : cases) {
    ASSERT_EQ(s->check({tm.same(x, tm.doubleLit(c.x)), tm.same(y, tm.doubleLit(c.y))}).status, Status::Sat);
    auto v = s->eval(tm.rem(x, y));
    ASSERT_TRUE(v.has_value());
    double want = std::fmod(c.x, c.y);
    double got = *tm.asFloating(*v);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << c.x << " % " << c.y;
    } else {
      EXPECT_EQ(bitsOf(got), bitsOf(want)) << c.x << " % " << c.y << " gave " << got;
    }
  }
  // 5.5 % 2.0 == 1.5 in Java; IEEE remainder gives -0.5.
  EXPECT_EQ(std::remainder(5.5, 2.0), -0.5);
}

TEST(SolverJava, DefaultFmodKeepsSpecialCasesExact) {
  TermManager tm(Arith::Java);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Double), y = tm.var("y", Sort::Double);
  Term r = tm.rem(x, y);
  // y == 0 -> NaN; x infinite -> NaN; y infinite and x finite -> x.
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.ne(y, tm.doubleLit(0.0)), tm.ne(r, r))), Status::Sat);
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.ne(x, tm.doubleLit(INFINITY)), tm.ne(r, r))), Status::Sat);
  Term yInf = tm.eq(y, tm.doubleLit(INFINITY));
  Term xFin = tm.land(tm.lt(x, tm.doubleLit(INFINITY)), tm.gt(x, tm.doubleLit(-INFINITY)));
  EXPECT_EQ(validity(*s, tm, tm.lor(tm.lnot(tm.land(yInf, xFin)), tm.same(r, x))), Status::Sat);
  // The general case is uninterpreted (but a function: congruence holds).
  EXPECT_EQ(validity(*s, tm, tm.same(r, tm.rem(x, y))), Status::Sat);
  auto t0 = std::chrono::steady_clock::now();
  auto res = s->check({tm.ne(r, tm.doubleLit(1.0))});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
  EXPECT_EQ(res.status, Status::Sat);
}

TEST(SolverJava, ModelGivesExactBits) {
  TermManager tm(Arith::Java);
  auto s = makeZ3Solver(tm, {});
  Term d = tm.var("d", Sort::Double);
  Term f = tm.var("f", Sort::Float);
  ASSERT_EQ(s->check({tm.eq(d, tm.doubleLit(0.1)), tm.eq(tm.convert(d, Sort::Float), f)}).status, Status::Sat);
  Model m = s->model({f, d});
  ASSERT_EQ(m.values.size(), 2u);
  EXPECT_EQ(m.values[0].var, d);  // sorted by name
  EXPECT_EQ(tm.asFloating(*m.lookup(d)), 0.1);
  EXPECT_EQ(tm.asFloating(*m.lookup(f)), static_cast<double>(0.1f));
  auto v = s->eval(tm.mul(d, tm.doubleLit(3.0)));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(tm.asFloating(*v), 0.1 * 3.0);
  auto nanv = s->eval(tm.div(tm.sub(d, d), tm.sub(d, d)));
  ASSERT_TRUE(nanv.has_value());
  EXPECT_TRUE(std::isnan(*tm.asFloating(*nanv)));
  // A raw-bits query: the model carries the NaN payload.
  Term b = tm.rawBits(d);
  ASSERT_EQ(s->check({tm.ne(d, d)}).status, Status::Sat);
  auto bits = tm.node(*s->model({d}).lookup(d)).bits;
  EXPECT_EQ(bits & 0x7FF0000000000000ull, 0x7FF0000000000000ull);
  EXPECT_NE(bits & 0x000FFFFFFFFFFFFFull, 0u);
  (void)b;
}

TEST(SolverBoth, PushPopReuseAndAssumptions) {
  for (Arith ar : {Arith::Math, Arith::Java}) {
    TermManager tm(ar);
    auto s = makeZ3Solver(tm, {});
    Term x = tm.var("x", Sort::Int);
    s->add(tm.gt(x, tm.intLit(0)));
    for (int k = 0; k < 50; ++k) {
      s->push();
      s->add(tm.lt(x, tm.intLit(k)));
      EXPECT_EQ(s->check().status, k > 1 ? Status::Sat : Status::Unsat) << k;
      EXPECT_EQ(s->levels(), 1u);
      s->pop();
    }
    EXPECT_EQ(s->check({tm.eq(x, tm.intLit(0))}).status, Status::Unsat);
    EXPECT_EQ(s->check({tm.eq(x, tm.intLit(7))}).status, Status::Sat);
    EXPECT_EQ(tm.asInteger(*s->model({x}).lookup(x)), 7);
    EXPECT_EQ(s->check().status, Status::Sat);  // assumptions do not persist
    EXPECT_EQ(s->levels(), 0u);
    EXPECT_GE(s->checks(), 53u);
    EXPECT_THROW(s->pop(), SolverError);
    EXPECT_THROW(s->add(x), SolverError);
  }
}

TEST(SolverBoth, ModelWithoutSatThrows) {
  TermManager tm(Arith::Java);
  auto s = makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int);
  EXPECT_THROW(s->model({x}), SolverError);
  ASSERT_EQ(s->check({tm.ne(x, x)}).status, Status::Unsat);
  EXPECT_THROW(s->eval(x), SolverError);
}

// A Float64 query the toolchain notes measured at minutes: (x + y) + z != x + (y + z).
Term hardFloatQuery(TermManager& tm) {
  Term x = tm.var("hx", Sort::Double), y = tm.var("hy", Sort::Double), z = tm.var("hz", Sort::Double);
  Term lhs = tm.div(tm.mul(tm.add(x, y), z), tm.sub(y, z));
  Term rhs = tm.div(tm.add(tm.mul(x, z), tm.mul(y, z)), tm.sub(y, z));
  return tm.lnot(tm.same(lhs, rhs));
}

TEST(SolverBoth, TimeoutReturnsUnknownPromptly) {
  TermManager tm(Arith::Java);
  SolverOptions o;
  o.timeout_ms = 200;
  auto s = makeZ3Solver(tm, o);
  Term q = hardFloatQuery(tm);
  Term fin = tm.land(tm.lt(tm.var("hx", Sort::Double), tm.doubleLit(1e300)),
                     tm.gt(tm.var("hx", Sort::Double), tm.doubleLit(-1e300)));
  auto t0 = std::chrono::steady_clock::now();
  auto r = s->check({q, fin, tm.ne(tm.var("hy", Sort::Double), tm.var("hz", Sort::Double))});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.0);
  if (r.status == Status::Unknown) {
    EXPECT_EQ(r.reason, "timeout");
  }
  // Unknown is never reported as Unsat; the answer here must be Unknown or Sat (it is satisfiable).
  EXPECT_NE(r.status, Status::Unsat);
  // The solver stays usable.
  EXPECT_EQ(s->check({tm.eq(tm.var("k", Sort::Int), tm.intLit(1))}).status, Status::Sat);
}

TEST(SolverBoth, NonlinearIntegerTimeout) {
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.timeout_ms = 200;
  auto s = makeZ3Solver(tm, o);
  // x^3 + y^3 == z^3 with positive x, y, z (no solution, hard for NIA).
  Term x = tm.var("x", Sort::Long), y = tm.var("y", Sort::Long), z = tm.var("z", Sort::Long);
  auto cube = [&](Term v) { return tm.mul(tm.mul(v, v), v); };
  Term one = tm.longLit(1);
  auto t0 = std::chrono::steady_clock::now();
  auto r = s->check({tm.eq(tm.add(cube(x), cube(y)), cube(z)), tm.ge(x, one), tm.ge(y, one), tm.ge(z, one)});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.0);
  EXPECT_NE(r.status, Status::Sat);
  if (r.status == Status::Unknown) {
    EXPECT_FALSE(r.reason.empty());
  }
}

TEST(SolverMath, ACheckThatOverrunsItsLimitRenewsTheSolverWithItsAssertions) {
  // No grace after the limit: a hard check at 1 ms is abandoned while Z3 still runs it (the
  // solver is "retired"); the backend then continues on a fresh context holding the same
  // assertions, twice, and stays retired after the third.
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.retire_grace_ms = 0;
  o.nonlinear_ms = 0;
  auto s = makeZ3Solver(tm, o);
  Term x = tm.var("x", Sort::Long), y = tm.var("y", Sort::Long), z = tm.var("z", Sort::Long);
  auto cube = [&](Term v) { return tm.mul(tm.mul(v, v), v); };
  Term one = tm.longLit(1);
  s->add(tm.ge(x, one));
  s->push();
  s->add(tm.ge(y, tm.longLit(5)));
  const std::vector<Term> hard = {tm.eq(tm.add(cube(x), cube(y)), cube(z)), tm.ge(z, one)};
  int abandoned = 0;
  for (int attempt = 0; attempt < 200 && !s->retired(); ++attempt) {
    s->setTimeoutMs(1);
    CheckResult r = s->check(hard);
    EXPECT_NE(r.status, Status::Sat);
    if (r.reason.find("retired") == std::string::npos) continue;
    ++abandoned;
    if (s->retired()) break;
    // Renewed: both levels' assertions are there, and pop still works.
    s->setTimeoutMs(5000);
    EXPECT_EQ(s->levels(), 1u);
    EXPECT_EQ(s->check({tm.lt(y, tm.longLit(5))}).status, Status::Unsat);
    EXPECT_EQ(s->check({tm.lt(x, one)}).status, Status::Unsat);
    EXPECT_EQ(s->check({tm.eq(y, tm.longLit(7)), tm.eq(x, one)}).status, Status::Sat);
    s->pop(1);
    EXPECT_EQ(s->check({tm.eq(y, tm.longLit(1))}).status, Status::Sat);
    EXPECT_EQ(s->check({tm.lt(x, one)}).status, Status::Unsat);
    s->push();
    s->add(tm.ge(y, tm.longLit(5)));
  }
  ASSERT_EQ(abandoned, 3) << "expected two renewals, then retirement";
  EXPECT_TRUE(s->retired());
  CheckResult after = s->check({tm.eq(x, one)});
  EXPECT_EQ(after.status, Status::Unknown);
  EXPECT_GT(s->checks(), 6u);  // statistics survive the renewals (the last context ran one check)
}

TEST(SolverBoth, InterruptFromAnotherThread) {
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.timeout_ms = 20000;
  auto s = makeZ3Solver(tm, o);
  Term x = tm.var("x", Sort::Long), y = tm.var("y", Sort::Long), z = tm.var("z", Sort::Long);
  auto cube = [&](Term v) { return tm.mul(tm.mul(v, v), v); };
  Term one = tm.longLit(1);
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    s->interrupt();
  });
  auto t0 = std::chrono::steady_clock::now();
  auto r = s->check({tm.eq(tm.add(cube(x), cube(y)), cube(z)), tm.ge(x, one), tm.ge(y, one), tm.ge(z, one)});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  killer.join();
  EXPECT_LT(secs, 2.0);
  EXPECT_NE(r.status, Status::Sat);
  if (secs >= 0.15) {
    EXPECT_EQ(r.status, Status::Unknown);
    EXPECT_EQ(r.reason, "interrupted");
  }
  // An interrupt with no check in flight is sticky for the next check only.
  s->interrupt();
  auto r2 = s->check({tm.eq(x, one)});
  EXPECT_EQ(r2.status, Status::Unknown);
  EXPECT_EQ(r2.reason, "interrupted");
  EXPECT_EQ(s->check({tm.eq(x, one)}).status, Status::Sat);
}

}  // namespace

namespace {

TEST(SolverQuantifiers, ForallBindsOnlyTheListedVariables) {
  for (Arith a : {Arith::Math, Arith::Java}) {
    TermManager tm(a);
    auto s = makeZ3Solver(tm, {});
    Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
    // exists y forall x . x + y == x  (y = 0)
    EXPECT_EQ(s->checkForall(tm.eq(tm.add(x, y), x), {x}).status, Status::Sat);
    // exists y forall x . x + y == x + 1 + x  has no y
    EXPECT_EQ(s->checkForall(tm.eq(tm.add(x, y), tm.add(tm.add(x, tm.intLit(1)), x)), {x}).status, Status::Unsat);
    // with nothing bound it is a plain satisfiability check
    EXPECT_EQ(s->checkForall(tm.eq(tm.add(x, y), tm.intLit(3)), {}).status, Status::Sat);
    // the asserted formulas constrain the free variables
    s->push();
    s->add(tm.eq(y, tm.intLit(1)));
    EXPECT_EQ(s->checkForall(tm.eq(tm.add(x, y), x), {x}).status, Status::Unsat);
    s->pop();
    EXPECT_EQ(s->check({}).status, Status::Sat);  // the solver stays usable
  }
  TermManager tm(Arith::Math);
  auto s = makeZ3Solver(tm, {});
  Term c = tm.var("c", Sort::Int);
  EXPECT_THROW(s->checkForall(tm.eq(c, c), {tm.add(c, tm.intLit(1))}), SolverError);
}

TEST(SolverQuantifiers, NullSolverDoesNotClaimAnAnswer) {
  TermManager tm(Arith::Math);
  auto s = makeNullSolver();
  Term x = tm.var("x", Sort::Int);
  EXPECT_EQ(s->checkForall(tm.eq(x, x), {x}).status, Status::Unknown);
}

}  // namespace

/// x^3 + y^3 == z^3 over positive longs (no solution; hard for NIA): a check that runs long.
std::vector<Term> positiveCubeSum(TermManager& tm) {
  Term x = tm.var("x", Sort::Long), y = tm.var("y", Sort::Long), z = tm.var("z", Sort::Long);
  auto cube = [&](Term v) { return tm.mul(tm.mul(v, v), v); };
  Term one = tm.longLit(1);
  return {tm.eq(tm.add(cube(x), cube(y)), cube(z)), tm.ge(x, one), tm.ge(y, one), tm.ge(z, one)};
}

TEST(SolverContexts, SolversOfOneThreadShareOneContext) {
  // Creating a context costs tens of milliseconds here (docs/architecture.md, "Solver
  // contexts"): the solvers of one thread, and those created after them, share one.
  TermManager tm(Arith::Math);
  SolverOptions o;
  const std::uint64_t before = z3ContextsCreated();
  std::vector<std::unique_ptr<Solver>> solvers;
  for (int i = 0; i < 5; ++i) {
    solvers.push_back(makeZ3Solver(tm, o));
    Term x = tm.var("x", Sort::Int);
    solvers.back()->add(tm.ge(x, tm.intLit(i)));
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(solvers[i]->check({tm.lt(tm.var("x", Sort::Int), tm.intLit(i))}).status, Status::Unsat) << i;
    EXPECT_EQ(solvers[i]->check({tm.eq(tm.var("x", Sort::Int), tm.intLit(i))}).status, Status::Sat) << i;
  }
  solvers.clear();
  auto later = makeZ3Solver(tm, o);
  EXPECT_EQ(later->check({tm.eq(tm.var("y", Sort::Int), tm.intLit(3))}).status, Status::Sat);
  EXPECT_LE(z3ContextsCreated() - before, 1u);
  // Another thread gets a context of its own (the first one is still in use here).
  std::uint64_t inThread = 0;
  std::thread([&] {
    const std::uint64_t start = z3ContextsCreated();
    auto s = makeZ3Solver(tm, o);
    EXPECT_EQ(s->check({tm.eq(tm.var("z", Sort::Int), tm.intLit(1))}).status, Status::Sat);
    inThread = z3ContextsCreated() - start;
  }).join();
  EXPECT_LE(inThread, 1u);
}

TEST(SolverContexts, ARunawayCheckRetiresTheSolversSharingItsContextAndTheyGoOnElsewhere) {
  // Two solvers of one thread share a context; a check of the first that overruns its limit
  // (Z3 still inside it) must not let the second touch that context again. The second goes on
  // with its assertions on a fresh context and answers as before.
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.retire_grace_ms = 0;
  o.nonlinear_ms = 0;
  auto runaway = makeZ3Solver(tm, o);
  auto bystander = makeZ3Solver(tm, SolverOptions{});
  Term x = tm.var("x", Sort::Long), y = tm.var("y", Sort::Long);
  bystander->add(tm.ge(x, tm.longLit(10)));
  bystander->push();
  bystander->add(tm.le(x, tm.longLit(12)));
  ASSERT_EQ(bystander->check({tm.eq(x, tm.longLit(11))}).status, Status::Sat);
  const std::vector<Term> hard = positiveCubeSum(tm);
  bool overran = false;
  for (int attempt = 0; attempt < 200 && !overran; ++attempt) {
    runaway->setTimeoutMs(1);
    CheckResult r = runaway->check(hard);
    overran = r.reason.find("retired") != std::string::npos;
  }
  ASSERT_TRUE(overran) << "no check overran its 1 ms limit in 200 attempts";
  EXPECT_TRUE(bystander->retired()) << "a solver sharing the runaway check's context must stop using it";
  // The bystander renews before its next call; its answers are those of its assertions.
  EXPECT_EQ(bystander->levels(), 1u);
  EXPECT_EQ(bystander->check({tm.eq(x, tm.longLit(13))}).status, Status::Unsat);
  CheckResult r = bystander->check({tm.eq(x, tm.longLit(12))});
  EXPECT_EQ(r.status, Status::Sat) << r.reason;
  EXPECT_EQ(bystander->model({x}).lookup(x), tm.longLit(12));
  bystander->pop(1);
  EXPECT_EQ(bystander->check({tm.eq(x, tm.longLit(20))}).status, Status::Sat);
  EXPECT_EQ(bystander->check({tm.eq(x, tm.longLit(9))}).status, Status::Unsat);
  EXPECT_FALSE(bystander->retired());
  // A solver made now gets a context the runaway check is not in.
  auto next = makeZ3Solver(tm, SolverOptions{});
  EXPECT_EQ(next->check({tm.eq(y, tm.longLit(2))}).status, Status::Sat);
}

TEST(SolverContexts, AStaleInterruptDoesNotRefuseTheNextPushOfASolverSharingTheContext) {
  // The watchdog interrupts a check at the deadline; the interrupt can land as that check
  // returns and leave the context's cancel flag set. In a shared context the next push may be
  // another solver's, which Z3 refused ("push canceled": Ell/ellpi/NEq ended as ERROR once).
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.timeout_ms = 2000;
  auto a = makeZ3Solver(tm, o);
  auto b = makeZ3Solver(tm, o);
  Term x = tm.var("x", Sort::Long);
  const std::vector<Term> hard = positiveCubeSum(tm);
  b->add(tm.ge(x, tm.longLit(3)));
  for (int round = 0; round < 150; ++round) {
    // The interrupts keep coming while the check ends (the watchdog's loop): some land in the
    // moment after Z3 returned.
    std::atomic<bool> done{false};
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(200 * (round % 9)));
      while (!done) a->interrupt();
    });
    a->setTimeoutMs(1 + round % 3);
    (void)a->check(hard);
    done = true;
    stopper.join();
    // Right after: the other solver pushes, asserts, checks and pops as usual.
    b->push();
    b->add(tm.le(x, tm.longLit(4)));
    CheckResult r = b->check({tm.eq(x, tm.longLit(4))});
    EXPECT_EQ(r.status, Status::Sat) << round << ": " << r.reason;
    EXPECT_EQ(b->check({tm.eq(x, tm.longLit(5))}).status, Status::Unsat) << round;
    b->pop(1);
  }
}
