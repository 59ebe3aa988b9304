// The identical-closure oracle on fixtures that exercise each rule it follows
// (tests/fixtures/release/closure/{old,new}): direct calls, virtual dispatch to a subclass's
// override, lambda bodies, class initialisers, reflection, JDK call-backs, removed methods,
// identified class names, and on the commons-lang3 release pair when it is present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <algorithm>

#include "pasda/diff/closure.hpp"
#include "pasda/diff/diff.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using pasda::diff::ClosureOptions;
using pasda::diff::ClosureOracle;
using pasda::diff::ClosureVerdict;
using pasda::diff::MethodClosure;
using pasda::jvm::ClassPath;

const std::string kPkg = "fixtures/release/closure/";

ClassPath side(const char* which) {
  ClassPath cp;
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/release/closure/" + which);
  return cp;
}

class Closure : public ::testing::Test {
 protected:
  ClassPath old_ = side("old"), new_ = side("new");
  ClosureOracle oracle_{old_, new_};
  MethodClosure of(const std::string& cls, const std::string& name, const std::string& desc) {
    return oracle_.method(kPkg + cls, name, desc);
  }
};

TEST_F(Closure, LeavesAndDirectCalls) {
  EXPECT_EQ(of("Leaf", "id", "(I)I").verdict, ClosureVerdict::Identical);
  EXPECT_EQ(of("Leaf", "pure", "(II)I").verdict, ClosureVerdict::Identical);
  MethodClosure changed = of("Leaf", "changed", "(I)I");
  EXPECT_EQ(changed.verdict, ClosureVerdict::Changed);
  EXPECT_NE(changed.reason.find("code differs"), std::string::npos) << changed.reason;
  MethodClosure affected = of("Leaf", "callsChanged", "(I)I");
  EXPECT_EQ(affected.verdict, ClosureVerdict::Affected);
  EXPECT_NE(affected.reason.find("Leaf.changed(I)I"), std::string::npos) << affected.reason;
  EXPECT_TRUE(oracle_.sameCode(kPkg + "Leaf", "callsChanged", "(I)I"));
  EXPECT_FALSE(oracle_.sameCode(kPkg + "Leaf", "changed", "(I)I"));
}

// The rule of equivalent callees: the changed methods an affected method reaches, when they
// are all the differences it reaches and no handler on a way to them can catch their exceptions.
TEST_F(Closure, ChangedCalleesForTheRuleOfEquivalentCallees) {
  auto callees = [&](const std::string& cls, const std::string& name, const std::string& desc) {
    return oracle_.changedCallees(kPkg + cls, name, desc);
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(callees("Leaf", "callsChanged", "(I)I"), V{kPkg + "Leaf.changed(I)I"});
  EXPECT_EQ(callees("Leaf", "beside", "(I)I"), V{kPkg + "Leaf.changed(I)I"});  // guarded reaches no change
  EXPECT_EQ(callees("Leaf", "catching", "(I)I"), V{});                        // a handler sees changed's exceptions
  EXPECT_EQ(callees("Leaf", "throughCatching", "(I)I"), V{});
  EXPECT_EQ(callees("Base", "run", "(I)I"), V{kPkg + "Sub.step(I)I"});          // by dispatch to an override
  EXPECT_EQ(callees("Cfg", "get", "()I"), V{});                                 // a class initialiser differs
  EXPECT_EQ(callees("Gone", "user", "(I)I"), V{});                              // changed itself
  EXPECT_EQ(callees("Leaf", "id", "(I)I"), V{});                                // identical
}

TEST_F(Closure, VirtualCallsReachEveryOverride) {
  // Base.step is the same in both versions, but this.step may run Sub.step, which changed.
  EXPECT_EQ(of("Base", "step", "(I)I").verdict, ClosureVerdict::Identical);
  MethodClosure run = of("Base", "run", "(I)I");
  EXPECT_EQ(run.verdict, ClosureVerdict::Affected);
  EXPECT_NE(run.reason.find("Sub.step(I)I"), std::string::npos) << run.reason;
}

TEST_F(Closure, AnAbstractMethodReachesItsImplementations) {
  // No code of its own, but a call of it runs an override: Shape.area's only implementation
  // changed (affected); every implementation of Poly.sides is the same (identical).
  MethodClosure area = of("Shape", "area", "(I)I");
  EXPECT_EQ(area.verdict, ClosureVerdict::Affected);
  EXPECT_NE(area.reason.find("Square.area(I)I"), std::string::npos) << area.reason;
  EXPECT_EQ(of("Poly", "sides", "()I").verdict, ClosureVerdict::Identical) << of("Poly", "sides", "()I").reason;
}

TEST_F(Closure, LambdaBodiesAreFollowed) {
  MethodClosure apply = of("Lam", "apply", "(I)I");
  EXPECT_EQ(apply.verdict, ClosureVerdict::Affected);
  EXPECT_NE(apply.reason.find("lambda$apply$0"), std::string::npos) << apply.reason;
}

TEST_F(Closure, ClassInitialisersCount) {
  MethodClosure get = of("Cfg", "get", "()I");
  EXPECT_EQ(get.verdict, ClosureVerdict::Affected);
  EXPECT_NE(get.reason.find("<clinit>"), std::string::npos) << get.reason;
  EXPECT_EQ(of("Cfg", "plain", "(I)I").verdict, ClosureVerdict::Affected);
}

TEST_F(Closure, AFieldAddedWithAConstantInitialiserLeavesTheInitialiserComparable) {
  EXPECT_EQ(of("Added", "get", "(I)I").verdict, ClosureVerdict::Identical) << of("Added", "get", "(I)I").reason;
  // A new field whose initialiser creates an object: the initialisers differ.
  MethodClosure grown = of("Grown", "get", "(I)I");
  EXPECT_EQ(grown.verdict, ClosureVerdict::Affected);
  EXPECT_NE(grown.reason.find("<clinit>"), std::string::npos) << grown.reason;
  // A changed constant stored to a field both versions declare is still a difference (Cfg).
  EXPECT_EQ(of("Cfg", "get", "()I").verdict, ClosureVerdict::Affected);
}

TEST_F(Closure, LambdasBuildingArraysOrJdkObjectsFromValuesArePure) {
  EXPECT_TRUE(oracle_.pureIdentical(kPkg + "Added", "lambda$buffer$0", "(I)[C"));
  EXPECT_TRUE(oracle_.pureIdentical(kPkg + "Added", "lambda$set$1", "()Ljava/util/Set;"));
  // A program object's constructor is program code.
  EXPECT_FALSE(oracle_.pureIdentical(kPkg + "Added", "lambda$point$2", "()Ljava/lang/Object;"));
}

TEST_F(Closure, MethodReferencesToTheJdkAreSharedWhenTheyCannotCallBack) {
  // HashSet::new as a Supplier, Integer::parseInt as a Function<String, Integer>.
  EXPECT_TRUE(oracle_.sharedFunction("java/util/HashSet", "<init>", "()V",
                                     {"()Ljava/util/HashSet;", "()Ljava/util/function/Supplier;"}));
  EXPECT_TRUE(oracle_.sharedFunction("java/lang/Integer", "parseInt", "(Ljava/lang/String;)I",
                                     {"(Ljava/lang/String;)Ljava/lang/Integer;", "()Ljava/util/function/Function;"}));
  // String.valueOf(Object) calls toString() of whatever it is given.
  EXPECT_FALSE(oracle_.sharedFunction("java/lang/String", "valueOf", "(Ljava/lang/Object;)Ljava/lang/String;",
                                      {"(Ljava/lang/Object;)Ljava/lang/String;", "()Ljava/util/function/Function;"}));
  // String.valueOf(char) is safe, but the functional interface hands it a program object here.
  EXPECT_FALSE(oracle_.sharedFunction("java/lang/String", "length", "()I",
                                      {"(L" + kPkg + "Point;)Ljava/lang/Integer;", "()Ljava/util/function/Function;"}));
  // A bound receiver of a JDK collection (list::contains calls equals of program objects).
  EXPECT_FALSE(oracle_.sharedFunction("java/util/List", "contains", "(Ljava/lang/Object;)Z",
                                      {"(Ljava/lang/String;)Z", "(Ljava/util/List;)Ljava/util/function/Predicate;"}));
  // A final reflection class's describing method given objects of that class (MethodUtils'
  // Comparator.comparing(Method::toString)): no program code runs. Invoking one runs it.
  EXPECT_TRUE(oracle_.sharedFunction("java/lang/reflect/Method", "toString", "()Ljava/lang/String;",
                                     {"(Ljava/lang/reflect/Method;)Ljava/lang/Object;", "()Ljava/util/function/Function;"}));
  EXPECT_TRUE(oracle_.sharedFunction("java/lang/Class", "getName", "()Ljava/lang/String;",
                                     {"(Ljava/lang/Class;)Ljava/lang/String;", "()Ljava/util/function/Function;"}));
  EXPECT_FALSE(oracle_.sharedFunction("java/lang/reflect/Method", "invoke",
                                      "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
                                      {"(Ljava/lang/reflect/Method;)Ljava/lang/Object;", "()Ljava/util/function/Function;"}));
  EXPECT_FALSE(oracle_.sharedFunction("java/lang/Class", "newInstance", "()Ljava/lang/Object;",
                                      {"(Ljava/lang/Class;)Ljava/lang/Object;", "()Ljava/util/function/Function;"}));
  // ... and given a program object (through a functional interface of its own), not shared.
  EXPECT_FALSE(oracle_.sharedFunction("java/lang/reflect/Method", "toString", "()Ljava/lang/String;",
                                      {"(L" + kPkg + "Point;)Ljava/lang/Object;", "()Ljava/util/function/Function;"}));
  // A lambda body of the path: pureIdentical decides (Leaf.pure is the same pure code).
  EXPECT_TRUE(oracle_.sharedFunction(kPkg + "Leaf", "pure", "(II)I", {"(II)I", "()Ljava/util/function/IntBinaryOperator;"}));
  EXPECT_FALSE(oracle_.sharedFunction(kPkg + "Leaf", "changed", "(I)I", {"(I)I", "()Ljava/util/function/IntUnaryOperator;"}));
}

// Holder becomes a Supplier in the new version, with a default get(): a call of Supplier.get()
// on an object that may be a Box may now run it. On a lambda it runs the lambda's body only —
// also in a callee that is given the lambda as an argument.
TEST_F(Closure, ACallOnALambdaRunsItsBodyAndNoOverride) {
  const std::string sd = "(Ljava/util/function/Supplier;)Ljava/lang/Object;";
  MethodClosure copy = of("Supp", "copy", sd);
  EXPECT_EQ(copy.verdict, ClosureVerdict::Affected);
  EXPECT_NE(copy.reason.find("Holder.get()"), std::string::npos) << copy.reason;
  for (const char* m : {"viaLambda", "local"}) {
    MethodClosure c = of("Supp", m, "(I)Ljava/lang/Object;");
    EXPECT_EQ(c.verdict, ClosureVerdict::Identical) << m << ": " << c.reason;
  }
  // The argument may be a Box: from a parameter, from a field, or either of a lambda and a parameter.
  for (auto [m, d] : {std::pair{"viaParameter", sd}, std::pair{"throughField", std::string("(I)Ljava/lang/Object;")},
                      std::pair{"either", "(Z" + sd.substr(1)}}) {
    MethodClosure c = of("Supp", m, d);
    EXPECT_EQ(c.verdict, ClosureVerdict::Affected) << m;
    EXPECT_NE(c.reason.find("Holder.get()"), std::string::npos) << m << ": " << c.reason;
  }
  // The lambda's body is still followed: it changed.
  MethodClosure body = of("Supp", "changedBody", "(I)Ljava/lang/Object;");
  EXPECT_EQ(body.verdict, ClosureVerdict::Affected);
  EXPECT_NE(body.reason.find("lambda$changedBody$"), std::string::npos) << body.reason;
  EXPECT_EQ(body.reason.find("Holder"), std::string::npos) << body.reason;
}

TEST_F(Closure, ReflectionIsNeverIdentical) {
  MethodClosure make = of("Refl", "make", "(Ljava/lang/String;)Ljava/lang/Object;");
  EXPECT_EQ(make.verdict, ClosureVerdict::Affected);
  EXPECT_NE(make.reason.find("reflection"), std::string::npos) << make.reason;
}

TEST_F(Closure, JdkCallBacks) {
  // String.valueOf(Object) may call any toString(), and Point.toString changed.
  MethodClosure show = of("Cb", "show", "(Ljava/lang/Object;)Ljava/lang/String;");
  EXPECT_EQ(show.verdict, ClosureVerdict::Affected);
  EXPECT_NE(show.reason.find("Point.toString"), std::string::npos) << show.reason;
  // A String holds no object of the analysed classes; no hashCode() of them differs.
  EXPECT_EQ(of("Cb", "len", "(Ljava/lang/String;)I").verdict, ClosureVerdict::Identical);
  EXPECT_EQ(of("Cb", "hash", "(Ljava/lang/Object;)I").verdict, ClosureVerdict::Identical);
  // Nothing is known of what an Iterator does: any method JDK code may call back counts.
  EXPECT_EQ(of("Cb", "first", "(Ljava/util/List;)Ljava/lang/Object;").verdict, ClosureVerdict::Affected);
  // StringBuilder.append(int) and a JDK exception's constructor given a String call nothing back
  // (append(Object) and Throwable(Throwable) would call toString()); append(Object) does.
  MethodClosure label = of("Cb", "label", "(Ljava/lang/Object;I)Ljava/lang/String;");
  EXPECT_EQ(label.verdict, ClosureVerdict::Identical) << label.reason;
  MethodClosure labelOf = of("Cb", "labelOf", "(Ljava/lang/Object;)Ljava/lang/String;");
  EXPECT_EQ(labelOf.verdict, ClosureVerdict::Affected);
  EXPECT_NE(labelOf.reason.find("Point.toString"), std::string::npos) << labelOf.reason;
}

TEST_F(Closure, JdkCodeGivenNoObjectOfThePathCallsNothingBack) {
  // String.valueOf(Arrays.asList(Boolean.FALSE, Boolean.TRUE)): the list and its elements are
  // the JDK's, made here; no toString() of the path can run.
  MethodClosure constants = of("Cb", "constants", "()Ljava/lang/String;");
  EXPECT_EQ(constants.verdict, ClosureVerdict::Identical) << constants.reason;
  // An object that may be the path's reaching the JDK, by any way: Point.toString() may run.
  for (const char* m : {"added", "stored"}) {
    MethodClosure c = of("Cb", m, "(Ljava/lang/Object;)Ljava/lang/String;");
    EXPECT_EQ(c.verdict, ClosureVerdict::Affected) << m;
    EXPECT_NE(c.reason.find("Point.toString"), std::string::npos) << m << ": " << c.reason;
  }
  for (const char* m : {"made", "supplied", "caught", "current"}) {
    MethodClosure c = of("Cb", m, "()Ljava/lang/String;");
    EXPECT_EQ(c.verdict, ClosureVerdict::Affected) << m;
    EXPECT_NE(c.reason.find("Point.toString"), std::string::npos) << m << ": " << c.reason;
  }
}

TEST_F(Closure, MethodsInOneVersionOnly) {
  EXPECT_EQ(of("Gone", "was", "(I)I").verdict, ClosureVerdict::Missing);
  EXPECT_EQ(of("Gone", "now", "(I)I").verdict, ClosureVerdict::Missing);
  EXPECT_EQ(of("Gone", "user", "(I)I").verdict, ClosureVerdict::Changed);
  EXPECT_EQ(of("Nowhere", "f", "()V").verdict, ClosureVerdict::Missing);
}

TEST(ClosureIdentified, ClassNamesOfTheVersionsIdentified) {
  ClassPath o = side("old"), n = side("new");
  {
    ClosureOracle plain(o, n);
    EXPECT_EQ(plain.method(kPkg + "Ident", "self", "(I)I").verdict, ClosureVerdict::Missing);
  }
  ClosureOptions opt;
  opt.old_name = kPkg + "Ident";
  opt.new_name = kPkg + "Ident2";
  ClosureOracle oracle(o, n, opt);
  MethodClosure self = oracle.method(kPkg + "Ident", "self", "(I)I");
  EXPECT_EQ(self.verdict, ClosureVerdict::Identical) << self.reason;
}

// The release pair of ../shared: the oracle's figures (printed) and a few methods whose
// category follows from the two releases' code, checked by hand with javap.
TEST(ClosureRelease, CommonsLang3) {
  const std::string dir = std::string(PASDA_SOURCE_DIR) + "/../shared/releases/commons-lang3";
  const std::string a = dir + "/commons-lang3-3.17.0.jar", b = dir + "/commons-lang3-3.18.0.jar";
  if (!std::filesystem::exists(a) || !std::filesystem::exists(b)) {
    if (std::getenv("CI") && std::string(std::getenv("CI")) == "true") FAIL() << "missing " << dir;
    GTEST_SKIP() << "commons-lang3 releases not found at " << dir;
  }
  ClassPath o, n;
  o.addJar(a);
  n.addJar(b);
  ClosureOracle oracle(o, n);
  int counts[4] = {0, 0, 0, 0};
  for (const std::string& c : o.list()) {
    const pasda::jvm::ClassFile* cf = o.load(c);
    for (const auto& m : cf->methods) ++counts[static_cast<int>(oracle.method(c, m.name, m.descriptor).verdict)];
  }
  std::printf("commons-lang3 3.17.0 -> 3.18.0: identical %d, affected %d, changed %d, missing %d (%zu nodes)\n",
              counts[0], counts[1], counts[2], counts[3], oracle.nodesExamined());
  EXPECT_GT(counts[0], 500);
  EXPECT_GT(counts[2], 100);
  // StringUtils.equals(CharSequence, CharSequence) was rewritten in 3.18.0 (49 -> 5 instructions).
  EXPECT_EQ(oracle.method("org/apache/commons/lang3/StringUtils", "equals",
                          "(Ljava/lang/CharSequence;Ljava/lang/CharSequence;)Z").verdict,
            ClosureVerdict::Changed);
  // DatePrinter.format(long) is abstract; its implementation FastDatePrinter.format changed.
  EXPECT_EQ(oracle.method("org/apache/commons/lang3/time/DatePrinter", "format", "(J)Ljava/lang/String;").verdict,
            ClosureVerdict::Affected);
  // CharUtils.isAscii(char) is "return ch < 128" in both, but CharUtils' initialiser changed.
  EXPECT_EQ(oracle.method("org/apache/commons/lang3/CharUtils", "isAscii", "(C)Z").verdict, ClosureVerdict::Affected);
}

}  // namespace

namespace {

// The matcher's helper comparison must see bootstrap arguments too: two helpers that differ
// only in a string-concatenation recipe are not identical (else both versions would share one
// uninterpreted function for them, and a real difference would be proved EQ).
TEST(MatcherBootstrap, HelpersDifferingOnlyInABootstrapArgumentAreNotIdentical) {
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/release/indy/";
  pasda::jvm::ClassFile a = pasda::jvm::loadClassFile(base + "old/fixtures/release/indy/C.class");
  pasda::jvm::ClassFile b = pasda::jvm::loadClassFile(base + "new/fixtures/release/indy/C.class");
  pasda::diff::MatchResult m = pasda::diff::match(a, b, "f:(I)I");
  for (const std::string& h : m.identical_helpers) EXPECT_NE(h, "label:(I)Ljava/lang/String;");
  // ... and the same class against itself still has it identical.
  pasda::diff::MatchResult same = pasda::diff::match(a, a, "f:(I)I");
  EXPECT_NE(std::find(same.identical_helpers.begin(), same.identical_helpers.end(), "label:(I)Ljava/lang/String;"),
            same.identical_helpers.end());
}

}  // namespace
