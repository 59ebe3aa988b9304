// The IEEE identities of the normaliser (src/terms/normalise.cpp, floatingIdentity and
// floatingComparison): each case builds an expression through the term manager, where the
// identity rewrites it, and computes the same expression with the machine's own IEEE doubles
// (rounding to nearest, as Java). Substituting every pair of edge operands (NaN, signed zeros,
// infinities, subnormals, ...) into the normalised term must fold to the machine's value,
// bit for bit (any NaN equal to any NaN): a rewrite that is not an identity fails here. Each
// case also checks that its rewrite fired, so the test fails if one is removed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "pasda/terms/term.hpp"

using namespace pasda::terms;

namespace {

using Build = std::function<Term(TermManager&, Term, Term)>;
using Reference = std::function<double(double, double)>;
using Rewritten = std::function<bool(TermManager&, Term, Term, Term)>;  // (tm, x, y, built term)

struct Case {
  std::string name;
  Build build;
  Reference ref;
  Rewritten fired;
};

std::vector<double> edges() {
  const double inf = std::numeric_limits<double>::infinity();
  return {std::numeric_limits<double>::quiet_NaN(), 0.0, -0.0, 1.0, -1.0, inf, -inf,
          std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
          std::numeric_limits<double>::min(), 0.1, -3.5, 8.0, -8.0, 1e154, 3.0000000000000004};
}

bool sameBits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  std::uint64_t ua = 0, ub = 0;
  std::memcpy(&ua, &a, 8);
  std::memcpy(&ub, &b, 8);
  return ua == ub;
}

double folded(TermManager& tm, Term t, Term x, Term y, double vx, double vy) {
  Term r = tm.substitute(t, {{x, tm.doubleLit(vx)}, {y, tm.doubleLit(vy)}});
  if (tm.sort(r) == Sort::Bool) {
    auto b = tm.asBool(r);
    return b ? (*b ? 1.0 : 0.0) : -99.0;
  }
  auto d = tm.asFloating(r);
  return d ? *d : -99.0;
}

Term lit(TermManager& tm, double v) { return tm.doubleLit(v); }
// Math.abs(double) as the library model builds it: (a <= 0.0) ? 0.0 - a : a
Term absOf(TermManager& tm, Term a) { return tm.ite(tm.le(a, lit(tm, 0.0)), tm.sub(lit(tm, 0.0), a), a); }
double absRef(double a) { return a <= 0.0 ? 0.0 - a : a; }
bool is(TermManager&, Term t, Term want) { return t == want; }

std::vector<Case> cases() {
  return {
      {"x * 1", [](TermManager& tm, Term x, Term) { return tm.mul(x, lit(tm, 1.0)); },
       [](double x, double) { return x * 1.0; }, [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, x); }},
      {"1 * x", [](TermManager& tm, Term x, Term) { return tm.mul(lit(tm, 1.0), x); },
       [](double x, double) { return 1.0 * x; }, [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, x); }},
      {"x / 1", [](TermManager& tm, Term x, Term) { return tm.div(x, lit(tm, 1.0)); },
       [](double x, double) { return x / 1.0; }, [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, x); }},
      {"x * -1", [](TermManager& tm, Term x, Term) { return tm.mul(x, lit(tm, -1.0)); },
       [](double x, double) { return x * -1.0; },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.neg(x)); }},
      {"x / -1", [](TermManager& tm, Term x, Term) { return tm.div(x, lit(tm, -1.0)); },
       [](double x, double) { return x / -1.0; },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.neg(x)); }},
      {"x - 0.0", [](TermManager& tm, Term x, Term) { return tm.sub(x, lit(tm, 0.0)); },
       [](double x, double) { return x - 0.0; }, [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, x); }},
      {"x + -0.0", [](TermManager& tm, Term x, Term) { return tm.add(x, lit(tm, -0.0)); },
       [](double x, double) { return x + -0.0; }, [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, x); }},
      {"-x * -y", [](TermManager& tm, Term x, Term y) { return tm.mul(tm.neg(x), tm.neg(y)); },
       [](double x, double y) { return (-x) * (-y); },
       [](TermManager& tm, Term x, Term y, Term t) { return is(tm, t, tm.mul(x, y)); }},
      {"-x / -y", [](TermManager& tm, Term x, Term y) { return tm.div(tm.neg(x), tm.neg(y)); },
       [](double x, double y) { return (-x) / (-y); },
       [](TermManager& tm, Term x, Term y, Term t) { return is(tm, t, tm.div(x, y)); }},
      {"(0 - x)^2", [](TermManager& tm, Term x, Term) { Term p = tm.sub(lit(tm, 0.0), x); return tm.mul(p, p); },
       [](double x, double) { return (0.0 - x) * (0.0 - x); },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.mul(x, x)); }},
      {"(-0 - x)^2", [](TermManager& tm, Term x, Term) { Term p = tm.sub(lit(tm, -0.0), x); return tm.mul(p, p); },
       [](double x, double) { return (-0.0 - x) * (-0.0 - x); },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.mul(x, x)); }},
      {"abs(x)^2", [](TermManager& tm, Term x, Term) { Term a = absOf(tm, x); return tm.mul(a, a); },
       [](double x, double) { return absRef(x) * absRef(x); },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.mul(x, x)); }},
      {"-x < -y", [](TermManager& tm, Term x, Term y) { return tm.lt(tm.neg(x), tm.neg(y)); },
       [](double x, double y) { return -x < -y ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term y, Term t) { return is(tm, t, tm.gt(x, y)); }},
      {"-x <= -y", [](TermManager& tm, Term x, Term y) { return tm.le(tm.neg(x), tm.neg(y)); },
       [](double x, double y) { return -x <= -y ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term y, Term t) { return is(tm, t, tm.ge(x, y)); }},
      {"-x > -8", [](TermManager& tm, Term x, Term) { return tm.gt(tm.neg(x), lit(tm, -8.0)); },
       [](double x, double) { return -x > -8.0 ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.lt(x, lit(tm, 8.0))); }},
      {"-8 >= -x", [](TermManager& tm, Term x, Term) { return tm.ge(lit(tm, -8.0), tm.neg(x)); },
       [](double x, double) { return -8.0 >= -x ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.le(lit(tm, 8.0), x)); }},
      {"-x == -y", [](TermManager& tm, Term x, Term y) { return tm.eq(tm.neg(x), tm.neg(y)); },
       [](double x, double y) { return -x == -y ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term y, Term t) { return is(tm, t, tm.eq(x, y)); }},
      {"-x != -0", [](TermManager& tm, Term x, Term) { return tm.ne(tm.neg(x), lit(tm, -0.0)); },
       [](double x, double) { return -x != -0.0 ? 1.0 : 0.0; },
       [](TermManager& tm, Term x, Term, Term t) { return is(tm, t, tm.ne(x, lit(tm, 0.0))); }},
  };
}

TEST(FloatIdentities, EveryRewriteHoldsOnEveryEdgeOperandUnderJava) {
  for (const Case& c : cases()) {
    TermManager tm(Arith::Java);
    Term x = tm.var("x", Sort::Double), y = tm.var("y", Sort::Double);
    Term t = c.build(tm, x, y);
    EXPECT_TRUE(c.fired(tm, x, y, t)) << c.name << " was not rewritten: " << tm.toString(t);
    for (double vx : edges())
      for (double vy : edges()) {
        const double want = c.ref(vx, vy), got = folded(tm, t, x, y, vx, vy);
        EXPECT_TRUE(sameBits(want, got)) << c.name << " at x = " << vx << ", y = " << vy << ": the machine says "
                                         << want << ", the normalised term " << got;
      }
  }
}

// The rewrites that are NOT identities of IEEE arithmetic stay undone under Java.
TEST(FloatIdentities, NonIdentitiesAreLeftAlone) {
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Double), y = tm.var("y", Sort::Double);
  EXPECT_NE(tm.add(x, lit(tm, 0.0)), x);                         // -0.0 + 0.0 is +0.0
  EXPECT_NE(tm.sub(x, lit(tm, -0.0)), x);                        // -0.0 - -0.0 is +0.0
  EXPECT_NE(tm.sub(lit(tm, 0.0), x), tm.neg(x));                 // 0.0 - 0.0 is +0.0, -(0.0) is -0.0
  EXPECT_NE(tm.mul(tm.neg(x), y), tm.mul(x, tm.neg(y)));         // (kept as built; both are exact though)
  Term p = tm.sub(lit(tm, 0.0), x);
  EXPECT_NE(tm.mul(p, y), tm.mul(x, y));                         // not a square
  // Integers: -a < -b is not b < a for Integer.MIN_VALUE.
  Term i = tm.var("i", Sort::Int), j = tm.var("j", Sort::Int);
  EXPECT_NE(tm.lt(tm.neg(i), tm.neg(j)), tm.gt(i, j));
}

TEST(FloatIdentities, FloatOperandsToo) {
  TermManager tm(Arith::Java);
  Term f = tm.var("f", Sort::Float);
  EXPECT_EQ(tm.mul(f, tm.floatLit(1.0f)), f);
  EXPECT_EQ(tm.gt(tm.neg(f), tm.floatLit(-8.0f)), tm.lt(f, tm.floatLit(8.0f)));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Term r = tm.substitute(tm.gt(tm.neg(f), tm.floatLit(-8.0f)), {{f, tm.floatLit(nan)}});
  EXPECT_EQ(tm.asBool(r), false);
}

}  // namespace
