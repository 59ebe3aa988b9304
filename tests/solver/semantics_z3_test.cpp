// Property test: the term layer's concrete semantics (java_semantics.hpp, used by folding and
// the witness evaluator) against the Z3 translation, operation by operation, in both models.
// For each group of operations with the same operand sorts, operand tuples (edge values crossed,
// then seeded random values) are bound to fresh variables with Same assumptions; one Sat check
// per batch, then Z3's model evaluates every operation applied to the variables (so nothing is
// folded on the way) and its value is compared with the semantics' value.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "pasda/solver/solver.hpp"
#include "support/semantics_cases.hpp"

using namespace pasda::terms;
using namespace pasda::solver;
using pasda::testsupport::OpCase;
using pasda::terms::semantics::Value;

namespace {

constexpr std::size_t kBatch = 160;

struct Tally {
  std::map<std::string, int> compared;
  int mismatches = 0;
};

// Groups the cases by operand sorts, so that one model serves every case of a group.
std::map<std::vector<Sort>, std::vector<OpCase>> byOperands(const std::vector<OpCase>& cases) {
  std::map<std::vector<Sort>, std::vector<OpCase>> g;
  for (const OpCase& c : cases) g[c.operands].push_back(c);
  return g;
}

// Java: Z3 has one NaN, so doubleToRawLongBits of a NaN is the canonical pattern there;
// Java keeps the payload. Both must at least be NaN patterns.
bool rawBitsOfNaN(const OpCase& c, const std::vector<Value>& t, std::uint64_t ours, std::uint64_t z3) {
  if (c.op != Op::RawBits || !std::isnan(t[0].asDouble())) return false;
  Sort fs = c.operands[0];
  return std::isnan(Value{fs, ours}.asDouble()) && std::isnan(Value{fs, z3}.asDouble());
}

// Math: floating results are reals, so compare values (0.0 and -0.0 are one real).
bool sameMath(Sort s, std::uint64_t a, std::uint64_t b) {
  if (isFloating(s)) return Value{s, a}.asDouble() == Value{s, b}.asDouble();
  return a == b;
}

void runGroup(TermManager& tm, Solver& solver, const std::vector<Sort>& sorts, const std::vector<OpCase>& cases,
              const std::vector<std::vector<Value>>& tuples, Tally& tally) {
  const bool java = tm.arith() == Arith::Java;
  for (std::size_t start = 0; start < tuples.size(); start += kBatch) {
    std::size_t n = std::min(kBatch, tuples.size() - start);
    std::vector<std::vector<Term>> vars(n);
    std::vector<Term> assumptions;
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t i = 0; i < sorts.size(); ++i) {
        Term v = tm.var("v" + std::to_string(k) + "_" + std::to_string(i) + "_" + sortName(sorts[i]), sorts[i]);
        vars[k].push_back(v);
        assumptions.push_back(tm.same(v, tm.lit(sorts[i], tuples[start + k][i].bits)));
      }
    }
    auto r = solver.check(assumptions);
    ASSERT_EQ(r.status, Status::Sat) << r.reason;
    for (const OpCase& c : cases) {
      for (std::size_t k = 0; k < n; ++k) {
        const auto& t = tuples[start + k];
        auto expected = java ? semantics::evalJava(c.op, c.result, t) : semantics::evalMath(c.op, c.result, t);
        Term e = tm.make(c.op, c.result, vars[k]);
        std::string exact;
        auto z = solver.eval(e, &exact);
        std::string args;
        for (const Value& a : t) args += " " + tm.toString(tm.lit(a.sort, a.bits));
        if (!expected) {
          // Java: no value only for an integer division by zero (the interpreter branches first).
          // Math: integer results beyond int64 must be beyond int64 in Z3 too.
          bool byZero = (c.op == Op::Div || c.op == Op::Rem) && isIntegral(c.result) && t[1].bits == 0;
          if (!java && !byZero && isIntegral(c.result) && !isFloating(c.operands[0]) &&
              (c.op == Op::Add || c.op == Op::Sub || c.op == Op::Mul || c.op == Op::Div || c.op == Op::Neg)) {
            EXPECT_FALSE(z.has_value()) << c.name() << args << ": no int64 value here, Z3 " << tm.toString(*z);
            ++tally.compared[c.name()];
          }
          continue;
        }
        ++tally.compared[c.name()];
        bool ok = z.has_value() && tm.sort(*z) == expected->sort;
        if (ok) {
          std::uint64_t zb = tm.node(*z).bits;
          ok = java ? (pasda::testsupport::sameUpToNaN(c.result, expected->bits, zb) || rawBitsOfNaN(c, t, expected->bits, zb))
                    : sameMath(c.result, expected->bits, zb);
        }
        if (!ok) {
          ++tally.mismatches;
          if (tally.mismatches <= 30)
            ADD_FAILURE() << arithName(tm.arith()) << " " << c.name() << args << ": semantics "
                          << tm.toString(tm.lit(expected->sort, expected->bits)) << ", Z3 "
                          << (z ? tm.toString(*z) : "no literal (" + exact + ")");
        }
      }
    }
  }
}

void expectEveryCaseCompared(const std::vector<OpCase>& cases, const Tally& tally, int atLeast) {
  for (const OpCase& c : cases) {
    auto it = tally.compared.find(c.name());
    EXPECT_GE(it == tally.compared.end() ? 0 : it->second, atLeast) << c.name() << " was hardly compared";
  }
}

TEST(SemanticsVsZ3, JavaModelEveryOperation) {
  TermManager tm(Arith::Java);
  SolverOptions o;
  o.exact_fp_remainder = true;  // numerals only: fp.rem is cheap to evaluate
  o.timeout_ms = 20000;
  auto solver = makeZ3Solver(tm, o);
  const std::vector<OpCase> cases = pasda::testsupport::allOpCases();
  Tally tally;
  std::uint64_t seed = 1;
  for (const auto& [sorts, group] : byOperands(cases)) {
    runGroup(tm, *solver, sorts, group, pasda::testsupport::operandTuples(sorts, 200, seed++), tally);
    if (HasFatalFailure()) return;
  }
  expectEveryCaseCompared(cases, tally, 60);
  int total = 0;
  for (const auto& [name, k] : tally.compared) total += k;
  std::printf("[ semantics ] java: %d values compared over %zu operations, %d mismatches\n", total, cases.size(),
              tally.mismatches);
}

TEST(SemanticsVsZ3, MathModelWhereConcrete) {
  // The math model's concrete values (integers exact, reals exact) against its Z3 translation:
  // Int/Real sorts, truncating division, bit operations through int2bv/bv2int. Floating
  // operands are finite (reals have no NaN or infinity), integers in their Java ranges (the
  // inputs' range axioms); RawBits/FromBits are uninterpreted in Z3, so they are left out.
  TermManager tm(Arith::Math);
  SolverOptions o;
  o.timeout_ms = 20000;
  auto solver = makeZ3Solver(tm, o);
  std::vector<OpCase> cases;
  for (const OpCase& c : pasda::testsupport::allOpCases())
    if (c.op != Op::RawBits && c.op != Op::FromBits) cases.push_back(c);
  Tally tally;
  std::uint64_t seed = 100;
  for (const auto& [sorts, group] : byOperands(cases)) {
    std::vector<std::vector<Value>> tuples;
    for (auto& t : pasda::testsupport::operandTuples(sorts, 200, seed++)) {
      bool finite = true;
      for (const Value& v : t) finite = finite && (!isFloating(v.sort) || std::isfinite(v.asDouble()));
      if (finite) tuples.push_back(std::move(t));
    }
    runGroup(tm, *solver, sorts, group, tuples, tally);
    if (HasFatalFailure()) return;
  }
  // Rounded real arithmetic and inexact conversions have no concrete math value by design.
  std::vector<OpCase> concrete;
  for (const OpCase& c : cases) {
    bool rounded = isFloating(c.result) && (c.op == Op::Add || c.op == Op::Sub || c.op == Op::Mul ||
                                            c.op == Op::Div || c.op == Op::Rem);
    if (!rounded) concrete.push_back(c);
  }
  expectEveryCaseCompared(concrete, tally, 15);
  int total = 0;
  for (const auto& [name, k] : tally.compared) total += k;
  std::printf("[ semantics ] math: %d values compared, %d mismatches\n", total, tally.mismatches);
}

}  // namespace
