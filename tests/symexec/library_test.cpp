// java.lang.Math / StrictMath models (exact ones folded to Java's values, transcendental ones
// as inexact function symbols), Double bit conversions, unknown library calls (uninterpreted
// with a warning) and println (no effect).
#include <cmath>
#include <cstring>
#include <limits>

#include "symexec/support.hpp"

namespace symtest {
namespace {

using Point = std::unordered_map<Term, Term, pasda::terms::TermHash>;

std::uint64_t bitsOf(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

class Library : public BothModels {
 protected:
  Harness h{GetParam()};
  TermManager& tm = h.tm();
};

TEST_P(Library, TranscendentalsAreInexactFunctionSymbols) {
  for (const char* name : {"sin", "strictCos", "exp", "log", "atan", "sqrt"}) {
    SCOPED_TRACE(name);
    Explored e = h.explore("Lib", name, "(D)D");
    ASSERT_EQ(e.parts.size(), 1u);
    EXPECT_TRUE(tm.containsLibrary(e.parts[0].entry.value));
    EXPECT_FALSE(tm.containsUif(e.parts[0].entry.value));  // not a UIF of the refinement
  }
  for (const char* name : {"pow", "atan2"}) {
    Explored e = h.explore("Lib", name, "(DD)D");
    ASSERT_EQ(e.parts.size(), 1u);
    EXPECT_TRUE(tm.containsLibrary(e.parts[0].entry.value)) << name;
  }
}

TEST_P(Library, BranchOnAnInexactFunctionKeepsBothSides) {
  Explored e = h.explore("Lib", "sinBranch", "(D)D");
  ASSERT_EQ(e.parts.size(), 2u);
  for (const RawPartition& p : e.parts) EXPECT_TRUE(tm.containsLibrary(h.pc(p)));
}

TEST_P(Library, ExactModelsHaveNoBranchesAndNoFunctionSymbols) {
  struct Case { const char* name; const char* desc; };
  const Case cases[] = {{"dabs", "(D)D"},  {"iabs", "(I)I"},  {"labs", "(J)J"},    {"dmax", "(DD)D"},
                        {"dmin", "(DD)D"}, {"imax", "(II)I"}, {"imin", "(II)I"},   {"signum", "(D)D"},
                        {"radians", "(D)D"}, {"degrees", "(D)D"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Explored e = h.explore("Lib", c.name, c.desc);
    ASSERT_EQ(e.parts.size(), 1u);
    EXPECT_EQ(e.parts[0].entry.kind, ExecEffect::Kind::Return);
    EXPECT_FALSE(tm.containsLibrary(e.parts[0].entry.value));
  }
  Explored e = h.explore("Lib", "imax", "(II)I");
  Term a = h.var(e, "a"), b = h.var(e, "b");
  EXPECT_TRUE(h.alwaysEqual(h.pc(e.parts[0]), e.parts[0].entry.value, tm.ite(tm.ge(a, b), a, b)));
  Explored s = h.explore("Lib", "dabs", "(D)D");
  EXPECT_TRUE(h.returnsAt(s.parts[0], {{h.var(s, "x"), tm.doubleLit(-2.5)}}, tm.doubleLit(2.5)));
}

TEST_P(Library, UnknownLibraryCallIsAnUninterpretedFunctionWithAWarning) {
  Explored e = h.explore("Lib", "unknown", "(I)I");
  ASSERT_EQ(e.parts.size(), 1u);
  EXPECT_TRUE(tm.containsLibrary(e.parts[0].entry.value));
  bool warned = false;
  for (const std::string& w : e.stats.warnings) warned = warned || w.find("java/lang/Integer.bitCount") != std::string::npos;
  EXPECT_TRUE(warned) << "no warning names Integer.bitCount";
  bool inPartition = false;
  for (const std::string& w : e.parts[0].warnings) inPartition = inPartition || w.find("bitCount") != std::string::npos;
  EXPECT_TRUE(inPartition);
}

TEST_P(Library, PrintlnHasNoEffect) {
  Explored e = h.explore("Lib", "printing", "(I)I");
  ASSERT_EQ(e.parts.size(), 2u);
  Term x = h.var(e, "x");
  for (const RawPartition& p : e.parts) {
    auto v = tm.asInteger(p.entry.value);
    ASSERT_TRUE(v);
    EXPECT_TRUE(h.equivalent(h.pc(p), *v == 1 ? tm.gt(x, tm.intLit(3)) : tm.le(x, tm.intLit(3))));
  }
  for (const std::string& w : e.stats.warnings) EXPECT_EQ(w.find("println"), std::string::npos) << w;
}

INSTANTIATE_TEST_SUITE_P(Models, Library, ::testing::Values(Arith::Math, Arith::Java), modelName);

// ---- Java model: the exact models fold to Java's values ------------------------------------

class JavaLibrary : public ::testing::Test {
 protected:
  Harness h{Arith::Java};
  TermManager& tm = h.tm();
  Term eval(const char* name, const char* desc, std::vector<Term> args) {
    Explored e = h.explore("Lib", name, desc);
    EXPECT_EQ(e.parts.size(), 1u);
    Point pt;
    for (std::size_t i = 0; i < args.size(); ++i) pt[e.in.terms[i]] = args[i];
    return h.at(e.parts.at(0).entry.value, pt);
  }
  std::uint64_t dbits(Term t) {
    EXPECT_TRUE(tm.isLit(t));
    EXPECT_EQ(tm.sort(t), Sort::Double);
    return tm.node(t).bits;
  }
};

TEST_F(JavaLibrary, SignedZeroAndNaNInAbsMinMaxSignum) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Term d = tm.doubleLit(0);
  (void)d;
  EXPECT_EQ(dbits(eval("dabs", "(D)D", {tm.doubleLit(-0.0)})), bitsOf(0.0));
  EXPECT_EQ(dbits(eval("dmax", "(DD)D", {tm.doubleLit(-0.0), tm.doubleLit(0.0)})), bitsOf(0.0));
  EXPECT_EQ(dbits(eval("dmax", "(DD)D", {tm.doubleLit(0.0), tm.doubleLit(-0.0)})), bitsOf(0.0));
  EXPECT_EQ(dbits(eval("dmin", "(DD)D", {tm.doubleLit(0.0), tm.doubleLit(-0.0)})), bitsOf(-0.0));
  EXPECT_EQ(dbits(eval("dmin", "(DD)D", {tm.doubleLit(-0.0), tm.doubleLit(0.0)})), bitsOf(-0.0));
  EXPECT_TRUE(std::isnan(*tm.asFloating(eval("dmax", "(DD)D", {tm.doubleLit(nan), tm.doubleLit(1)}))));
  EXPECT_TRUE(std::isnan(*tm.asFloating(eval("dmin", "(DD)D", {tm.doubleLit(1), tm.doubleLit(nan)}))));
  EXPECT_EQ(dbits(eval("signum", "(D)D", {tm.doubleLit(-0.0)})), bitsOf(-0.0));
  EXPECT_EQ(*tm.asFloating(eval("signum", "(D)D", {tm.doubleLit(-3)})), -1.0);
  EXPECT_TRUE(std::isnan(*tm.asFloating(eval("signum", "(D)D", {tm.doubleLit(nan)}))));
  EXPECT_EQ(tm.asInteger(eval("iabs", "(I)I", {tm.intLit(INT32_MIN)})), INT32_MIN);
  EXPECT_EQ(tm.asInteger(eval("labs", "(J)J", {tm.longLit(-5)})), 5);
}

TEST_F(JavaLibrary, RoundingFunctions) {
  EXPECT_EQ(*tm.asFloating(eval("floor", "(D)D", {tm.doubleLit(-1.5)})), -2.0);
  EXPECT_EQ(*tm.asFloating(eval("ceil", "(D)D", {tm.doubleLit(-1.5)})), -1.0);
  EXPECT_EQ(dbits(eval("ceil", "(D)D", {tm.doubleLit(-0.5)})), bitsOf(-0.0));
  EXPECT_EQ(*tm.asFloating(eval("rint", "(D)D", {tm.doubleLit(2.5)})), 2.0);
  EXPECT_EQ(*tm.asFloating(eval("rint", "(D)D", {tm.doubleLit(3.5)})), 4.0);
  EXPECT_EQ(tm.asInteger(eval("round", "(D)J", {tm.doubleLit(2.5)})), 3);
  EXPECT_EQ(tm.asInteger(eval("round", "(D)J", {tm.doubleLit(-2.5)})), -2);
  EXPECT_EQ(tm.asInteger(eval("round", "(D)J", {tm.doubleLit(0.49999999999999994)})), 0);
  EXPECT_EQ(tm.asInteger(eval("round", "(D)J", {tm.doubleLit(std::nan(""))})), 0);
  EXPECT_EQ(tm.asInteger(eval("round", "(D)J", {tm.doubleLit(1e300)})), INT64_MAX);
  EXPECT_EQ(tm.asInteger(eval("roundF", "(F)I", {tm.floatLit(-7.5f)})), -7);
  EXPECT_EQ(tm.asInteger(eval("exponent", "(D)I", {tm.doubleLit(1024.0)})), 10);
  EXPECT_EQ(tm.asInteger(eval("exponent", "(D)I", {tm.doubleLit(0.0)})), -1023);
}

TEST_F(JavaLibrary, BitConversions) {
  EXPECT_EQ(tm.asInteger(eval("rawBits", "(D)J", {tm.doubleLit(1.0)})), 0x3ff0000000000000LL);
  EXPECT_EQ(tm.asInteger(eval("rawBits", "(D)J", {tm.doubleLit(-0.0)})), static_cast<std::int64_t>(0x8000000000000000ULL));
  EXPECT_EQ(dbits(eval("fromBits", "(J)D", {tm.longLit(0x4000000000000000LL)})), bitsOf(2.0));
  // Symbolically: fromBits(rawBits(x)) is x for every non-NaN x.
  Explored e = h.explore("Lib", "rawBits", "(D)J");
  Term x = e.in.terms[0];
  Term round = tm.fromBits(e.parts.at(0).entry.value);
  EXPECT_TRUE(h.valid(tm.lor(tm.lnot(tm.eq(x, x)), tm.same(round, x))));
}

}  // namespace
}  // namespace symtest
