// The witness stage's concrete evaluator: arbitrarily deep terms evaluate without recursion
// (issue 16: a 2,000-statement method crashed it), in both models and at both precisions; the
// branch distance of a deep conjunction; and the Java model gives the shared semantics' value
// for every operation (the evaluator only carries values to and from them).
#include <gtest/gtest.h>
#include <pthread.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <functional>

#include "../../src/witness/eval.hpp"
#include "support/semantics_cases.hpp"

using namespace pasda::terms;
using pasda::witness::detail::Assignment;
using pasda::witness::detail::Evaluator;
using F100 = boost::multiprecision::cpp_bin_float_100;

namespace {

constexpr int kDepth = 50000;

// Runs `f` on a thread with a 512 KiB stack: a walk that recursed once per level would need
// tens of megabytes at kDepth.
void onSmallStack(const std::function<void()>& f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 512 * 1024);
  pthread_t th;
  auto body = [](void* p) -> void* {
    (*static_cast<const std::function<void()>*>(p))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&th, &attr, body, const_cast<std::function<void()>*>(&f)), 0);
  pthread_join(th, nullptr);
  pthread_attr_destroy(&attr);
}

// r = (r * 31 + x + k) % 1000003, kDepth times: the same value in both models.
Term deepInt(TermManager& tm, Term x) {
  Term r = tm.intLit(0);
  for (int k = 0; k < kDepth; ++k) r = tm.rem(tm.add(tm.add(tm.mul(r, tm.intLit(31)), x), tm.intLit(k % 1000)), tm.intLit(1000003));
  return r;
}

std::int64_t deepIntValue(std::int64_t x) {
  std::int64_t r = 0;
  for (int k = 0; k < kDepth; ++k) r = (r * 31 + x + k % 1000) % 1000003;
  return r;
}

TEST(Evaluator, DeepIntegerTermInBothModelsAndPrecisions) {
  for (Arith arith : {Arith::Math, Arith::Java}) {
    TermManager tm(arith);
    Term x = tm.var("x", Sort::Int);
    Term r = deepInt(tm, x);
    Term pc = tm.gt(r, tm.intLit(-1));
    Assignment a{{x.id, 7}};
    const bool java = arith == Arith::Java;
    onSmallStack([&] {
      Evaluator<double> ev(tm, java);
      ev.reset(a);
      auto v = ev.eval(r);
      ASSERT_TRUE(v.has_value());
      EXPECT_EQ(static_cast<std::int64_t>(v->i), deepIntValue(7)) << arithName(arith);
      EXPECT_EQ(ev.distance(pc, true), 0.0);
      if (!java) {
        Evaluator<F100> hp(tm, false);
        hp.track_error = true;
        hp.reset(a);
        auto w = hp.eval(r);
        ASSERT_TRUE(w.has_value());
        EXPECT_EQ(static_cast<std::int64_t>(w->i), deepIntValue(7));
      }
    });
  }
}

TEST(Evaluator, DeepRealTermAtHighPrecision) {
  // d = d * 0.5 + y converges to 2y; the math model's error tracking follows every level.
  TermManager tm(Arith::Math);
  Term y = tm.var("y", Sort::Double);
  Term d = tm.doubleLit(0.0);
  for (int k = 0; k < kDepth; ++k) d = tm.add(tm.mul(d, tm.doubleLit(0.5)), y);
  Assignment a{{y.id, pasda::terms::semantics::bitsOfDouble(3.0)}};
  onSmallStack([&] {
    Evaluator<F100> hp(tm, false);
    hp.track_error = true;
    hp.reset(a);
    auto v = hp.eval(tm.lt(d, tm.doubleLit(6.5)));
    ASSERT_TRUE(v.has_value());
    EXPECT_TRUE(v->b);
    EXPECT_FALSE(hp.uncertain);
  });
}

TEST(Evaluator, DistanceOfADeepConjunction) {
  // x > 0 && x > 1 && ... && x > n-1, nested as one left-deep chain. With x = n all hold;
  // with x = 0 none does, and the distance towards true is the sum over the conjuncts.
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int);
  const int n = 100000;
  Term pc = tm.gt(x, tm.intLit(0));
  for (int k = 1; k < n; ++k) pc = tm.land(pc, tm.gt(x, tm.intLit(k)));
  Assignment a{{x.id, static_cast<std::uint64_t>(n)}};
  Assignment b{{x.id, 0}};
  onSmallStack([&] {
    Evaluator<double> ev(tm, true);
    ev.reset(a);
    EXPECT_EQ(ev.distance(pc, true), 0.0);
    ev.reset(b);
    double d = ev.distance(pc, true);
    double expected = 0;
    for (int k = 0; k < n; ++k) expected += 1 + std::log1p(static_cast<double>(k));
    EXPECT_NEAR(d, expected, expected * 1e-12);
    EXPECT_EQ(ev.distance(pc, false), 0.0);  // every conjunct is false already
    ev.reset(a);
    EXPECT_NEAR(ev.distance(pc, false), 1 + std::log1p(1.0), 1e-12);  // the nearest: x > n-1
  });
}

TEST(Evaluator, JavaModelIsTheSharedSemantics) {
  TermManager tm(Arith::Java);
  Evaluator<double> ev(tm, true);
  int compared = 0;
  std::uint64_t seed = 31;
  for (const auto& c : pasda::testsupport::allOpCases()) {
    std::vector<Term> vars;
    for (std::size_t i = 0; i < c.operands.size(); ++i)
      vars.push_back(tm.var("a" + std::to_string(i) + sortName(c.operands[i]), c.operands[i]));
    Term e = tm.make(c.op, c.result, vars);
    for (const auto& t : pasda::testsupport::operandTuples(c.operands, 50, seed++)) {
      Assignment a;
      for (std::size_t i = 0; i < vars.size(); ++i) a[vars[i].id] = t[i].bits;
      ev.reset(a);
      auto v = ev.eval(e);
      auto expected = semantics::evalJava(c.op, c.result, t);
      ASSERT_EQ(v.has_value(), expected.has_value()) << c.name();
      if (!v) continue;
      std::uint64_t bits = isFloating(v->sort) ? (v->sort == Sort::Float ? semantics::bitsOfFloat(static_cast<float>(v->r))
                                                                          : semantics::bitsOfDouble(v->r))
                                               : v->sort == Sort::Bool ? std::uint64_t{v->b}
                                                                       : static_cast<std::uint64_t>(static_cast<std::int64_t>(v->i));
      EXPECT_TRUE(pasda::testsupport::sameUpToNaN(c.result, expected->bits, bits)) << c.name();
      ++compared;
    }
  }
  EXPECT_GT(compared, 50000);
}

}  // namespace
