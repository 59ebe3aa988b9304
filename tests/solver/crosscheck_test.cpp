// Cross-check: the term layer's Java folding and the Z3 Java encoding must agree. For random
// inputs, random small expressions are folded by substituting literals for the variables, and
// evaluated by Z3 in a model that binds the variables to the same literals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

class Gen {
 public:
  Gen(TermManager& tm, std::mt19937_64& rng) : tm_(tm), rng_(rng) {
    vars_[Sort::Int] = {tm.var("x", Sort::Int), tm.var("y", Sort::Int)};
    vars_[Sort::Long] = {tm.var("l", Sort::Long), tm.var("m", Sort::Long)};
    vars_[Sort::Float] = {tm.var("f", Sort::Float), tm.var("g", Sort::Float)};
    vars_[Sort::Double] = {tm.var("d", Sort::Double), tm.var("e", Sort::Double)};
  }

  std::vector<Term> allVars() const {
    std::vector<Term> v;
    for (const auto& [s, ts] : vars_) v.insert(v.end(), ts.begin(), ts.end());
    return v;
  }

  Term literal(Sort s) {
    static const std::int64_t ints[] = {0, 1, -1, 2, 3, 7, 31, 32, 33, 63, 64, 65, -7, 100, 255, 256, 65535, 65536,
                                        2147483647LL, -2147483648LL, 9223372036854775807LL,
                                        std::numeric_limits<std::int64_t>::min(), 1LL << 40, -(1LL << 53) - 1};
    static const double dbls[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 5.5, 2.0, 3.0, 1e10, -1e10, 1e300, -1e-300,
                                  4.9e-324, 2147483647.5, -2147483648.9, 9.3e18, 0.1,
                                  std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN()};
    bool special = rng_() % 2 == 0;
    switch (s) {
      case Sort::Int: return tm_.intLit(static_cast<std::int32_t>(special ? ints[rng_() % 24] : static_cast<std::int64_t>(rng_())));
      case Sort::Long: return tm_.longLit(special ? ints[rng_() % 24] : static_cast<std::int64_t>(rng_() >> (rng_() % 64)));
      case Sort::Float: {
        if (special) return tm_.floatLit(static_cast<float>(dbls[rng_() % 21]));
        std::uint32_t b = static_cast<std::uint32_t>(rng_());
        if (rng_() % 2) b = (b & 0x807FFFFFu) | ((120u + static_cast<std::uint32_t>(rng_() % 16)) << 23);
        return tm_.lit(Sort::Float, b);
      }
      case Sort::Double: {
        if (special) return tm_.doubleLit(dbls[rng_() % 21]);
        std::uint64_t b = rng_();
        if (rng_() % 2) b = (b & 0x800FFFFFFFFFFFFFull) | ((1015ull + rng_() % 16) << 52);
        return tm_.lit(Sort::Double, b);
      }
      default: return tm_.boolLit(rng_() % 2);
    }
  }

  Term leaf(Sort s) {
    if (s == Sort::Bool) return tm_.boolLit(rng_() % 2);
    if (rng_() % 4 == 0) return literal(s);
    return vars_[s][rng_() % 2];
  }

  Sort numeric() {
    static const Sort ss[] = {Sort::Int, Sort::Long, Sort::Float, Sort::Double};
    return ss[rng_() % 4];
  }

  Term expr(Sort s, int depth) {
    if (depth == 0) return leaf(s);
    auto sub = [&](Sort t) { return expr(t, depth - 1); };
    if (s == Sort::Bool) {
      Sort t = numeric();
      switch (rng_() % 9) {
        case 0: return tm_.eq(sub(t), sub(t));
        case 1: return tm_.ne(sub(t), sub(t));
        case 2: return tm_.lt(sub(t), sub(t));
        case 3: return tm_.le(sub(t), sub(t));
        case 4: return tm_.gt(sub(t), sub(t));
        case 5: return tm_.ge(sub(t), sub(t));
        case 6: return tm_.same(sub(t), sub(t));
        case 7: return tm_.lnot(sub(Sort::Bool));
        default: return rng_() % 2 ? tm_.land(sub(Sort::Bool), sub(Sort::Bool)) : tm_.lor(sub(Sort::Bool), sub(Sort::Bool));
      }
    }
    bool integral = isIntegral(s);
    unsigned k = rng_() % (integral ? 16 : 12);
    switch (k) {
      case 0: return tm_.add(sub(s), sub(s));
      case 1: return tm_.sub(sub(s), sub(s));
      case 2: return tm_.mul(sub(s), sub(s));
      case 3: return tm_.div(sub(s), sub(s));
      case 4: return tm_.rem(sub(s), sub(s));
      case 5: return tm_.neg(sub(s));
      case 6: return tm_.convert(sub(numeric()), s);
      case 7: return tm_.ite(sub(Sort::Bool), sub(s), sub(s));
      default: break;
    }
    if (integral) {
      switch (k) {
        case 8: return tm_.shl(sub(s), sub(Sort::Int));
        case 9: return tm_.shr(sub(s), sub(Sort::Int));
        case 10: return tm_.ushr(sub(s), sub(Sort::Int));
        case 11: return tm_.bitAnd(sub(s), sub(s));
        case 12: return tm_.bitXor(sub(s), sub(s));
        case 13: {
          if (s == Sort::Long) return tm_.bitOr(sub(s), sub(s));
          Sort t = numeric();
          return rng_() % 2 ? tm_.cmpl(sub(t), sub(t)) : tm_.cmpg(sub(t), sub(t));
        }
        case 14: return s == Sort::Int ? tm_.cmp(sub(Sort::Long), sub(Sort::Long)) : tm_.rawBits(tm_.doubleLit(1.5));
        default:
          if (s == Sort::Long) return tm_.convert(sub(Sort::Int), Sort::Long);
          return rng_() % 3 == 0 ? tm_.i2b(sub(s)) : (rng_() % 2 ? tm_.i2c(sub(s)) : tm_.i2s(sub(s)));
      }
    }
    switch (k) {
      case 8: return s == Sort::Double ? tm_.floor(sub(s)) : tm_.fromBits(sub(Sort::Int));
      case 9: return s == Sort::Double ? tm_.ceil(sub(s)) : tm_.add(sub(s), sub(s));
      case 10: return s == Sort::Double ? tm_.rint(sub(s)) : tm_.mul(sub(s), sub(s));
      default: return s == Sort::Double ? tm_.fromBits(sub(Sort::Long)) : tm_.div(sub(s), sub(s));
    }
  }

 private:
  TermManager& tm_;
  std::mt19937_64& rng_;
  std::map<Sort, std::vector<Term>> vars_;
};

bool sameValue(TermManager& tm, Term a, Term b) {
  if (a == b) return true;
  if (tm.sort(a) != tm.sort(b)) return false;
  if (isFloating(tm.sort(a))) {
    auto x = tm.asFloating(a), y = tm.asFloating(b);
    return x && y && std::isnan(*x) && std::isnan(*y);
  }
  return false;
}

TEST(CrossCheck, JavaFoldingAgreesWithZ3Encoding) {
  TermManager tm(Arith::Java);
  SolverOptions o;
  o.exact_fp_remainder = true;  // evaluation on numerals only: fp.rem is cheap there
  o.timeout_ms = 10000;
  auto s = makeZ3Solver(tm, o);
  std::mt19937_64 rng(20261129);
  Gen gen(tm, rng);
  std::vector<Term> vars = gen.allVars();
  int compared = 0;
  for (int round = 0; round < 150; ++round) {
    std::unordered_map<Term, Term, TermHash> binding;
    std::vector<Term> assumptions;
    for (Term v : vars) {
      Term lit = gen.literal(tm.sort(v));
      binding[v] = lit;
      assumptions.push_back(tm.same(v, lit));
    }
    auto r = s->check(assumptions);
    ASSERT_EQ(r.status, Status::Sat) << r.reason;
    for (int k = 0; k < 25; ++k) {
      static const Sort sorts[] = {Sort::Int, Sort::Long, Sort::Float, Sort::Double, Sort::Bool};
      Sort sort = sorts[rng() % 5];
      Term e = gen.expr(sort, 1 + static_cast<int>(rng() % 3));
      Term folded = tm.substitute(e, binding);
      if (!tm.isLit(folded)) continue;  // e.g. an integer division by zero: no Java value
      auto z = s->eval(e);
      ASSERT_TRUE(z.has_value()) << tm.toString(e);
      EXPECT_TRUE(sameValue(tm, folded, *z)) << "expr " << tm.toString(e) << "\n folded " << tm.toString(folded)
                                             << "\n z3 " << tm.toString(*z) << "\n binding round " << round;
      ++compared;
    }
  }
  EXPECT_GT(compared, 3000);
}

}  // namespace
