// SolverOptions::model_override (issue 17, "math first"): a Java run's terms decided over
// unbounded integers and reals, with models that are literals of the Java run.
#include <gtest/gtest.h>

#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

std::unique_ptr<Solver> mathSolverOf(TermManager& tm) {
  SolverOptions so;
  so.model_override = Arith::Math;
  return makeZ3Solver(tm, so);
}

TEST(ModelOverride, JavaTermsOverTheIntegers) {
  TermManager tm(Arith::Java);
  auto java = makeZ3Solver(tm, {});
  auto math = mathSolverOf(tm);
  Term x = tm.var("x", Sort::Int);
  Term wraps = tm.le(tm.add(x, tm.intLit(1)), x);  // x + 1 <= x: only by overflow
  EXPECT_EQ(java->check({wraps}).status, Status::Sat);
  EXPECT_EQ(math->check({wraps}).status, Status::Unsat);
  // x + x > 2147483000 without wrapping: x > 1073741500, and the math model's inputs stay in
  // the Java range, as literals of the Java run.
  ASSERT_EQ(math->check({tm.gt(tm.add(x, x), tm.intLit(2147483000))}).status, Status::Sat);
  auto v = math->model({x}).lookup(x);
  ASSERT_TRUE(v.has_value());
  EXPECT_GT(*tm.asInteger(*v), 1073741500);
  EXPECT_LE(*tm.asInteger(*v), 2147483647);
}

TEST(ModelOverride, JavaDoublesOverTheReals) {
  TermManager tm(Arith::Java);
  auto java = makeZ3Solver(tm, {});
  auto math = mathSolverOf(tm);
  Term a = tm.var("a", Sort::Double), b = tm.var("b", Sort::Double);
  Term cancels = tm.lnot(tm.same(tm.sub(tm.add(a, b), b), a));  // (a + b) - b differs from a
  EXPECT_EQ(math->check({cancels}).status, Status::Unsat) << "exact over the reals";
  java->setTimeoutMs(20000);
  EXPECT_EQ(java->check({cancels}).status, Status::Sat) << "rounds in IEEE doubles";
  // A real model comes back as the nearest double of the Java run.
  ASSERT_EQ(math->check({tm.eq(tm.mul(a, tm.doubleLit(4.0)), tm.doubleLit(1.0))}).status, Status::Sat);
  auto v = math->model({a}).lookup(a);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(tm.sort(*v), Sort::Double);
  EXPECT_EQ(tm.toString(*v), tm.toString(tm.doubleLit(0.25)));
}

}  // namespace
