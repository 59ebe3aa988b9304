// Horn clauses over one relation with Spacer (include/pasda/solver/horn.hpp): the invariant is
// read back as terms that really are inductive, reachable bad states answer Unsat, and what
// Spacer cannot express as terms is left out rather than mistranslated.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "pasda/solver/horn.hpp"
#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

Term conj(TermManager& tm, const std::vector<Term>& ks) {
  Term acc = tm.boolLit(true);
  for (Term k : ks) acc = tm.land(acc, k);
  return acc;
}

/// Two loops over i, one adding `a` from the sixth iteration on by a test of `i`, the other
/// by a flag set when `i` reaches 5: equal sums need a disjunctive relation between the flag
/// and the counter, which no equality states.
struct FlagLoops {
  TermManager& tm;
  Term io, in, on, so, sn, n, a;
  explicit FlagLoops(TermManager& t)
      : tm(t),
        io(t.var("io", Sort::Int)), in(t.var("in", Sort::Int)), on(t.var("on", Sort::Int)),
        so(t.var("so", Sort::Int)), sn(t.var("sn", Sort::Int)), n(t.var("n", Sort::Int)), a(t.var("a", Sort::Int)) {}
  HornProblem problem(int threshold) {
    HornProblem p;
    p.vars = {io, in, on, so, sn, n, a};
    const Term zero = tm.intLit(0), one = tm.intLit(1);
    p.init.push_back(conj(tm, {tm.eq(io, zero), tm.eq(in, zero), tm.eq(on, zero), tm.eq(so, sn)}));
    const Term on2 = tm.ite(tm.eq(in, tm.intLit(threshold)), one, on);
    p.steps.push_back({conj(tm, {tm.lt(io, n), tm.lt(in, n)}),
                       {tm.add(io, one), tm.add(in, one), on2, tm.ite(tm.ge(io, tm.intLit(5)), tm.add(so, a), so),
                        tm.ite(tm.eq(on2, one), tm.add(sn, a), sn), n, a}});
    p.bad.push_back(tm.lnot(tm.eq(tm.lt(io, n), tm.lt(in, n))));
    p.bad.push_back(conj(tm, {tm.ge(io, n), tm.ge(in, n), tm.ne(so, sn)}));
    return p;
  }
};

TEST(Horn, FindsADisjunctiveInvariantThatIsInductive) {
  TermManager tm(Arith::Math);
  FlagLoops f(tm);
  const HornProblem p = f.problem(5);
  const HornAnswer ans = solveHorn(tm, p, 10000);
  ASSERT_EQ(ans.status, Status::Sat) << ans.reason;
  ASSERT_FALSE(ans.invariant.empty());
  // Check the answer independently: init implies it, it is preserved by the step, and it
  // excludes both bad formulas.
  const Term inv = conj(tm, ans.invariant);
  std::unordered_map<Term, Term, TermHash> post;
  for (std::size_t i = 0; i < p.vars.size(); ++i) post.emplace(p.vars[i], p.steps[0].post[i]);
  auto s = makeZ3Solver(tm, {});
  EXPECT_EQ(s->check({p.init[0], tm.lnot(inv)}).status, Status::Unsat);
  EXPECT_EQ(s->check({inv, p.steps[0].guard, tm.lnot(tm.substitute(inv, post))}).status, Status::Unsat);
  for (Term b : p.bad) EXPECT_EQ(s->check({inv, b}).status, Status::Unsat);
  // It says more than equalities: the flag is bounded by the counter.
  EXPECT_EQ(s->check({inv, tm.eq(f.on, tm.intLit(1)), tm.lt(f.in, tm.intLit(6))}).status, Status::Unsat);
}

TEST(Horn, AReachableBadStateIsUnsat) {
  TermManager tm(Arith::Math);
  FlagLoops f(tm);
  // The flag set one iteration late: after six iterations the sums differ.
  const HornAnswer ans = solveHorn(tm, f.problem(6), 10000);
  EXPECT_EQ(ans.status, Status::Unsat);
  EXPECT_TRUE(ans.invariant.empty());
}

TEST(Horn, AtomsAreRebuiltWithoutSubtraction) {
  // x <= y as an invariant of x, y both counting up from 0 with x only while x < y: under Java's
  // arithmetic `x - y <= 0` would wrap where `x <= y` does not, so the read-back says `x <= y`.
  TermManager tm(Arith::Java);
  Term x = tm.var("x", Sort::Int), y = tm.var("y", Sort::Int);
  HornProblem p;
  p.vars = {x, y};
  p.init.push_back(tm.land(tm.eq(x, tm.intLit(0)), tm.ge(y, tm.intLit(0))));
  p.steps.push_back({tm.lt(x, y), {tm.add(x, tm.intLit(1)), y}});
  p.bad.push_back(tm.gt(x, y));
  const HornAnswer ans = solveHorn(tm, p, 10000);
  ASSERT_EQ(ans.status, Status::Sat) << ans.reason;
  bool found = false;
  for (Term t : ans.invariant) {
    const std::string text = tm.toString(t);
    EXPECT_EQ(text.find(" - "), std::string::npos) << text;
    found = found || t == tm.le(x, y) || t == tm.ge(y, x) || t == tm.lnot(tm.gt(x, y)) || t == tm.lnot(tm.lt(y, x));
  }
  EXPECT_TRUE(found);
}

TEST(Horn, CallsOfOneFunctionOnEqualArgumentsGiveEqualResults) {
  // s += f(i) against t += f(j), i and j counting together: s == t needs f(i) == f(j) where
  // i == j. Spacer takes no uninterpreted functions; their applications are abstracted with
  // Ackermann's constraints, which keep exactly that.
  TermManager tm(Arith::Math);
  Term i = tm.var("i", Sort::Int), j = tm.var("j", Sort::Int), s = tm.var("s", Sort::Int), t = tm.var("t", Sort::Int),
       n = tm.var("n", Sort::Int);
  auto f = [&](Term x) { return tm.apply("helper", FunKind::Helper, Sort::Int, {x}); };
  HornProblem p;
  p.vars = {i, j, s, t, n};
  p.init.push_back(conj(tm, {tm.eq(i, tm.intLit(0)), tm.eq(j, tm.intLit(0)), tm.eq(s, t)}));
  p.steps.push_back({conj(tm, {tm.lt(i, n), tm.lt(j, n)}),
                     {tm.add(i, tm.intLit(1)), tm.add(j, tm.intLit(1)), tm.add(s, f(i)), tm.add(t, f(j)), n}});
  p.bad.push_back(tm.lnot(tm.eq(tm.lt(i, n), tm.lt(j, n))));
  p.bad.push_back(conj(tm, {tm.ge(i, n), tm.ne(s, t)}));
  const HornAnswer ans = solveHorn(tm, p, 10000);
  ASSERT_EQ(ans.status, Status::Sat) << ans.reason;
  auto z = makeZ3Solver(tm, {});
  const Term inv = conj(tm, ans.invariant);
  EXPECT_EQ(z->check({inv, tm.ne(s, t)}).status, Status::Unsat) << tm.toString(inv);
  // Where the arguments differ nothing relates the results: the sums can differ.
  HornProblem q = p;
  q.steps[0].post[3] = tm.add(t, f(tm.add(j, tm.intLit(1))));
  EXPECT_EQ(solveHorn(tm, q, 10000).status, Status::Unsat);
}

TEST(Horn, MismatchedPostStateIsUnknownNotAnError) {
  TermManager tm(Arith::Math);
  Term x = tm.var("x", Sort::Int);
  HornProblem p;
  p.vars = {x};
  p.init.push_back(tm.eq(x, tm.intLit(0)));
  p.steps.push_back({tm.boolLit(true), {}});
  const HornAnswer ans = solveHorn(tm, p, 1000);
  EXPECT_EQ(ans.status, Status::Unknown);
  EXPECT_FALSE(ans.reason.empty());
}

/// Resident memory of this process in MB (Linux: /proc/self/statm).
double residentMb() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

TEST(Horn, ABudgetTooSmallToFinishEndsWithoutLeaking) {
  // Z3 4.8.12 leaks about 1 MB each time a timeout cancels Spacer in its first milliseconds
  // (LeakSanitizer, the pipeline fuzzer's finding; with the timeout as the budget, these calls
  // grew the process by 32 MB per 80): budgets of a few milliseconds, cut short, must end as
  // Unknown at the resource limit without memory growing call after call.
  TermManager tm(Arith::Math);
  FlagLoops f(tm);
  const HornProblem p = f.problem(5);
  for (int i = 0; i < 5; ++i) (void)solveHorn(tm, p, 1 + static_cast<unsigned>(i % 4));  // warm up the shared context
  const double before = residentMb();
  int unknown = 0;
  for (int i = 0; i < 160; ++i) {
    const HornAnswer ans = solveHorn(tm, p, 1 + static_cast<unsigned>(i % 4));
    if (ans.status == Status::Unknown) {
      ++unknown;
      EXPECT_NE(ans.reason.find("budget"), std::string::npos) << ans.reason;
    }
  }
  EXPECT_GT(unknown, 120) << "the budgets were large enough to finish: the test checks nothing";
  EXPECT_LT(residentMb() - before, 24.0) << "memory grew by " << residentMb() - before << " MB over 160 calls";
}

}  // namespace
