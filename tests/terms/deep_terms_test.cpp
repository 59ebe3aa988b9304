// Every walk of the term layer over arbitrarily deep terms (issue 16): building with folding and
// normalisation, substitution, variable collection and printing run on a thread with a small
// stack, so a walk that recursed once per level would crash; the printer's output stays well
// formed when it elides what exceeds its budget.
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>

#include "pasda/terms/term.hpp"

using namespace pasda::terms;

namespace {

constexpr int kDepth = 50000;

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

// Parentheses balance and never close more than they opened.
bool balanced(const std::string& s) {
  long depth = 0;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return false;
  }
  return depth == 0;
}

// r = r * 31 + x + k (k = 0..n-1), the shape of the straight-line method.
Term chain(TermManager& tm, Term x, int n) {
  Term r = tm.intLit(0);
  for (int k = 0; k < n; ++k) r = tm.add(tm.add(tm.mul(r, tm.intLit(31)), x), tm.intLit(k));
  return r;
}

TEST(DeepTerms, SubstituteAndCollectVarsOnADeepChain) {
  for (Arith arith : {Arith::Java, Arith::Math}) {
    TermManager tm(arith);
    Term x = tm.var("x", Sort::Int);
    onSmallStack([&] {
      Term r = chain(tm, x, kDepth);
      std::vector<Term> vars;
      tm.collectVars(r, vars);
      ASSERT_EQ(vars, std::vector<Term>{x});
      if (arith == Arith::Java) {
        // Substituting the input folds the whole chain to Java's wrapped value.
        Term v = tm.substitute(r, {{x, tm.intLit(3)}});
        std::uint32_t expected = 0;
        for (int k = 0; k < kDepth; ++k) expected = expected * 31u + 3u + static_cast<std::uint32_t>(k);
        ASSERT_TRUE(tm.isLit(v));
        EXPECT_EQ(*tm.asInteger(v), static_cast<std::int32_t>(expected));
      } else {
        // Math: unbounded integers; the chain leaves int64 and stays symbolic, but the
        // substitution is still a walk over every level.
        Term y = tm.var("y", Sort::Int);
        Term v = tm.substitute(r, {{x, y}});
        std::vector<Term> after;
        tm.collectVars(v, after);
        EXPECT_EQ(after, std::vector<Term>{y});
      }
    });
  }
}

TEST(DeepTerms, PrinterRendersDeepTermsWellFormed) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int);
  onSmallStack([&] {
    // Small enough to render in full: every level is there.
    Term small = chain(tm, x, 2000);
    std::string s = tm.toString(tm.gt(small, tm.intLit(5)));
    EXPECT_TRUE(balanced(s));
    EXPECT_EQ(s.find("..."), std::string::npos);
    std::size_t xs = 0;
    for (std::size_t p = 0; (p = s.find('x', p)) != std::string::npos; ++p) ++xs;
    EXPECT_EQ(xs, 2000u);
    EXPECT_EQ(s.substr(s.size() - 16), " * 31 + 1999 > 5") << s.substr(s.size() - 40);
  });
}

TEST(DeepTerms, PrinterElidesBeyondItsBudgetAndStaysBalanced) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int);
  onSmallStack([&] {
    // Deeper than the budget: what is pending when it runs out (a closing parenthesis and
    // "* 31 + k" per level, leaves included) is still emitted, sub-terms are elided.
    Term deep = chain(tm, tm.add(x, tm.var("y", Sort::Int)), 2 * kDepth);
    std::string s = tm.toString(tm.lt(deep, tm.intLit(0)));
    EXPECT_TRUE(balanced(s));
    EXPECT_LT(s.size(), (1u << 20) + 40u * kDepth);
    EXPECT_EQ(s.substr(s.size() - 4), " < 0");
    // A DAG whose tree is 2^60 nodes: shared sub-terms are expanded until the budget.
    Term t = x;
    for (int k = 0; k < 60; ++k) t = tm.mul(tm.add(t, tm.intLit(k)), t);
    std::string u = tm.toString(t);
    EXPECT_TRUE(balanced(u));
    EXPECT_NE(u.find("..."), std::string::npos);
    EXPECT_LT(u.size(), 2u << 20);
  });
}

}  // namespace
