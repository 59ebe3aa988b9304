// ARDiff's H1 heuristic (equivalenceEnablingAbstractions) on hand-built summaries.
#include <gtest/gtest.h>

#include "../../src/analysis/iteration.hpp"
#include "pasda/solver/solver.hpp"

using namespace pasda;
using terms::Sort;
using terms::Term;

namespace {

struct Fixture {
  terms::TermManager tm{terms::Arith::Math};
  std::unique_ptr<solver::Solver> s = solver::makeZ3Solver(tm, {});
  Term x = tm.var("x", Sort::Int), ret = tm.var("ret", Sort::Int);
  analysis::AbstractionIndex index;  // the symbols an iteration would hand out
  Term uif(int region, const std::string& out, Term arg) {
    return tm.apply(index.regionSymbol(region, out), terms::FunKind::Uif, Sort::Int, {arg});
  }
  std::set<analysis::AbstractionId> h1(Term old, Term nw) {
    return analysis::equivalenceEnablingAbstractions(tm, *s, index, tm.eq(ret, old), tm.eq(ret, nw), 2000,
                                                     symexec::Clock::now() + std::chrono::seconds(10));
  }
};

TEST(H1, AKeyIsACandidateWhenSomeValuesOfItMakeTheVersionsEquivalent) {
  Fixture f;
  // old: ret = U1(x) + U2(x); new: ret = U2(x) + 5. U1 = 5 makes them equal whatever U2 and x
  // are; no value of U2 does that whatever U1 is.
  std::set<analysis::AbstractionId> c = f.h1(f.tm.add(f.uif(1, "a", f.x), f.uif(2, "b", f.x)), f.tm.add(f.uif(2, "b", f.x), f.tm.intLit(5)));
  EXPECT_EQ(c, (std::set<analysis::AbstractionId>{analysis::AbstractionId::ofRegion(1)}));
}

TEST(H1, NoCandidateWhenTheInputsDecide) {
  Fixture f;
  // old: ret = U1(x); new: ret = x + 1: no single value of U1's application equals x + 1 for all x.
  EXPECT_TRUE(f.h1(f.uif(1, "a", f.x), f.tm.add(f.x, f.tm.intLit(1))).empty());
  // Keys of the new summary only are never tested (as in ARDiff).
  EXPECT_TRUE(f.h1(f.x, f.uif(3, "c", f.x)).empty());
}

TEST(H1, HelpersAreKeysAndLibraryCallsAreQuantified) {
  Fixture f;
  Term helper = f.tm.apply(f.index.helperSymbol("sq:(I)I"), terms::FunKind::Helper, Sort::Int, {f.x});
  Term lib = f.tm.apply("sin", terms::FunKind::Library, Sort::Int, {f.x});
  // old: ret = sq(x) + sin(x); new: ret = sin(x) + 2: sq = 2 works whatever sin is.
  EXPECT_EQ(f.h1(f.tm.add(helper, lib), f.tm.add(lib, f.tm.intLit(2))), (std::set<analysis::AbstractionId>{analysis::AbstractionId::ofHelper("sq:(I)I")}));
}

TEST(H1, ASymbolTheIterationDidNotHandOutIsNoAbstraction) {
  Fixture f;
  // Named like a region's symbol, but not one of this iteration's: quantified like a library
  // function, so it is never a candidate (names are looked up, not taken apart).
  Term stranger = f.tm.apply("UIF_7_a", terms::FunKind::Uif, Sort::Int, {f.x});
  EXPECT_TRUE(f.h1(stranger, f.tm.intLit(5)).empty());
  EXPECT_EQ(f.h1(f.uif(7, "a", f.x), f.tm.intLit(5)),
            (std::set<analysis::AbstractionId>{analysis::AbstractionId::ofRegion(7)}));
}

TEST(H1, StopsAtTheDeadline) {
  Fixture f;
  auto c = analysis::equivalenceEnablingAbstractions(f.tm, *f.s, f.index, f.tm.eq(f.ret, f.uif(1, "a", f.x)),
                                                     f.tm.eq(f.ret, f.tm.intLit(5)), 2000, symexec::Clock::now());
  EXPECT_TRUE(c.empty());
  // Without the deadline the same query finds R1 (U1 = 5).
  EXPECT_EQ(f.h1(f.uif(1, "a", f.x), f.tm.intLit(5)), (std::set<analysis::AbstractionId>{analysis::AbstractionId::ofRegion(1)}));
}

}  // namespace
