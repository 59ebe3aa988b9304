// The Z3 translation of arbitrarily deep terms (issue 16): the translator walks with an explicit
// stack, and Z3 itself copes with the depth the interpreter can build from one method (the
// JVM's 64 KiB code limit allows about 20,000 nested operations per method; loops with a
// constant trip count build deeper ones, cut by the instruction budget).
#include <gtest/gtest.h>

#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

constexpr int kDepth = 20000;  // 200,000 also works (74 s, 3.4 GB in Z3)

TEST(DeepTranslation, DeepChainIsDecidedAndEvaluatedInBothModels) {
  for (Arith arith : {Arith::Java, Arith::Math}) {
    TermManager tm(arith);
    Term x = tm.var("x", Sort::Int);
    Term r = tm.intLit(0);
    for (int k = 0; k < kDepth; ++k)
      r = tm.rem(tm.add(tm.add(tm.mul(r, tm.intLit(31)), x), tm.intLit(k % 1000)), tm.intLit(1000003));
    std::int64_t expected = 0;
    for (int k = 0; k < kDepth; ++k) expected = (expected * 31 + 5 + k % 1000) % 1000003;
    SolverOptions o;
    o.timeout_ms = 60000;
    auto s = makeZ3Solver(tm, o);
    auto res = s->check({tm.eq(x, tm.intLit(5))});
    ASSERT_EQ(res.status, Status::Sat) << arithName(arith) << ": " << res.reason;
    auto v = s->eval(r);
    ASSERT_TRUE(v.has_value()) << arithName(arith);
    EXPECT_EQ(tm.asInteger(*v), expected) << arithName(arith);
  }
}

}  // namespace
