// Unmodelled library calls through the command line (issue 11): what the versions share — JDK
// code that cannot call back into program code, method references and lambdas of the same code,
// calls of program code whose every implementation is the same — and what stays each version's
// own. Split from objects_test.cpp.
#include <algorithm>

#include "cli/support.hpp"

namespace cli_test {
namespace {

/// Each of `methods` of the fixture class `cls` in tests/fixtures/<dir> is EQ by the engine.
void expectEqByTheEngine(const std::string& dir, const std::string& pkg, const std::string& cls,
                         const std::vector<std::string>& methods, const std::vector<std::string>& extra = {}) {
  const std::string a = fixtureClass(dir, "old", pkg, cls);
  const std::string b = fixtureClass(dir, "new", pkg, cls);
  for (const std::string& method : methods) {
    std::vector<std::string> args = {a, b, "--method", method, "--shortcut", "off"};
    args.insert(args.end(), extra.begin(), extra.end());
    JsonRun j = runJson(args);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, MethodReferencesToJdkCodeBuildEqualStaticState) {
  // ThreadLocal.withInitial(HashSet::new) and Integer::parseInt in <clinit>, at different call
  // sites in the two versions: the same function objects, so the static state is equal and
  // the unchanged method is EQ by the engine (before: MAYBE_NEQ, the state differed by site).
  for (const char* arith : {"java", "math"})
    expectEqByTheEngine("realcode/methodref", "realcode.methodref", "Registry", {"twice"}, {"--arith", arith});
}

TEST(UnknownCalls, MethodReferencesDescribingReflectionObjectsBuildEqualStaticState) {
  // Comparator.comparing(Method::toString) and (Class::getName) in <clinit>, in the other order
  // in the new version: the references only describe their receivers, so they are shared and
  // the constructor and the unchanged method are EQ (MethodUtils.<init> was MAYBE_NEQ).
  expectEqByTheEngine("realcode/methodref", "realcode.methodref", "Sorter", {"<init>", "twice"});
}

TEST(UnknownCalls, AnUnmodifiableViewOfProgramObjectsIsSharedOnEqualLists) {
  // Views.wrap returns Collections.unmodifiableList of a list holding its Object parameters:
  // the factory calls nothing on the list, so the view is one function of the list in both
  // versions (it was each version's own, as if it could call back: MAYBE_NEQ on identical code).
  expectEqByTheEngine("realcode/views", "realcode.views", "Views", {"wrap"});
}

TEST(UnknownCalls, JdkCallsThatNeverThrowOrNeverReturnNullDoNotFork) {
  // System.lineSeparator, Arrays.asList and Collections.unmodifiableList are total; Pattern.compile
  // may throw (a bad pattern) but never returns null.
  const std::string a = fixtureClass("realcode/methodref", "old", "realcode.methodref", "Initialised");
  const std::string b = fixtureClass("realcode/methodref", "new", "realcode.methodref", "Initialised");
  JsonRun j = runJson({a, b, "--method", "shift", "--shortcut", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  bool compileMayThrow = false;
  for (const Json& part : j.json["partitions"].array) {
    const std::string& pc = part["path_condition"].string;
    for (const char* never : {"throws:java.lang.System.lineSeparator", "isnull:java.lang.System.lineSeparator",
                              "throws:java.util.Arrays.asList", "isnull:java.util.Collections.unmodifiableList",
                              "isnull:java.util.regex.Pattern.compile"})
      EXPECT_EQ(pc.find(never), std::string::npos) << never << " in " << pc;
    compileMayThrow = compileMayThrow || pc.find("throws:java.util.regex.Pattern.compile") != std::string::npos;
  }
  EXPECT_TRUE(compileMayThrow) << j.run.out;
  // Two partitions: the initialiser throws in Pattern.compile (both versions alike), or it does not.
  EXPECT_EQ(j.json["partitions"].array.size(), 2u) << j.run.out;
}

TEST(UnknownCalls, ATableBuiltOfValuesInAFreshHashMapDoesNotFork) {
  const std::string a = fixtureClass("realcode/methodref", "old", "realcode.methodref", "Tables");
  const std::string b = fixtureClass("realcode/methodref", "new", "realcode.methodref", "Tables");
  JsonRun j = runJson({a, b, "--method", "shift", "--shortcut", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  ASSERT_EQ(j.json["partitions"].array.size(), 1u) << j.run.out;
  const std::string& pc = j.json["partitions"].array[0]["path_condition"].string;
  EXPECT_EQ(pc.find("throws:java.util.Map.put"), std::string::npos) << pc;
  EXPECT_EQ(pc.find("isnull:java.util.Map.put"), std::string::npos) << pc;
  // A key of a program class: put may run its hashCode(), so it may throw.
  const std::string k = fixtureClass("realcode/methodref", "old", "realcode.methodref", "KeyedTables");
  JsonRun keyed = runJson({k, k, "--method", "shift", "--shortcut", "off"});
  ASSERT_TRUE(keyed.ok) << keyed.run.out << keyed.run.err;
  bool mayThrow = false;
  for (const Json& part : keyed.json["partitions"].array)
    mayThrow = mayThrow || part["path_condition"].string.find("throws:java.util.Map.put") != std::string::npos;
  EXPECT_TRUE(mayThrow) << keyed.run.out;
}

TEST(DeepSearch, IdenticalCodeReturningItsOwnObjectsIsNeverNeq) {
  // A gcd loop cut by the depth limit, then `new Frac(...)`: the deep search replays the
  // product concretely past the limit. Its replay must identify the versions' renamed classes
  // (it did not: commons-lang3's Fraction.getReducedFraction(3, 3) was a false NEQ).
  const std::string a = fixtureClass("witness/objects", "old", "fixtures.witness.objects", "Frac");
  for (const char* arith : {"java", "math"}) {
    JsonRun j = runJson({a, a, "--method", "reduced", "--shortcut", "off", "--loop-summaries", "off", "--induction",
                         "off", "--arith", arith, "--timeout", "10"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "NEQ") << arith << "\n" << j.run.out;
    EXPECT_NE(j.json["result"].string, "MAYBE_NEQ") << arith << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, ACallOfProgramCodeIsSharedOnlyWhenEveryImplementationIsTheSame) {
  // s.area() on an input Shape: Square.area changed (1 -> 2), so Calc.area(new Square())
  // differs; sharing the call between the versions was a false EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/dispatch/";
  JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.dispatch.Calc", "--method", "area"});
  ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
  EXPECT_NE(changed.json["result"].string, "EQ") << changed.run.out;
  // The same implementations in both versions: one shared function, EQ by the engine.
  JsonRun same = runJson({root + "old", root + "old", "--class", "realcode.dispatch.Calc", "--method", "area",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  // The interface method itself analysed (no code: the product calls each version's Shape.area
  // on the input object): the same answers, the call named alike in both versions.
  JsonRun abstractChanged = runJson({root + "old", root + "new", "--class", "realcode.dispatch.Shape", "--method",
                                     "area", "--shortcut", "off"});
  ASSERT_TRUE(abstractChanged.ok) << abstractChanged.run.out << abstractChanged.run.err;
  EXPECT_NE(abstractChanged.json["result"].string, "EQ") << abstractChanged.run.out;
  JsonRun abstractSame = runJson({root + "old", root + "old", "--class", "realcode.dispatch.Shape", "--method",
                                  "area", "--shortcut", "off"});
  ASSERT_TRUE(abstractSame.ok) << abstractSame.run.out << abstractSame.run.err;
  EXPECT_EQ(abstractSame.json["result"].string, "EQ") << abstractSame.run.out;
}

TEST(UnknownCalls, ASharedCallOfProgramCodeSeesTheStaticFieldsTheVersionsWrote) {
  // s.area() reaches the same code in both versions (Square.area), which reads Holder.k; the
  // versions write 1 and 2 to it before the call. Sharing the call was a false EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/staticcall/";
  JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.staticcall.Calc", "--method", "f",
                             "--shortcut", "off"});
  ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
  EXPECT_NE(changed.json["result"].string, "EQ") << changed.run.out;
  // Equal writes (g): the call stays shared, EQ by the engine.
  JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.staticcall.Calc", "--method", "g",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
}

TEST(UnknownCalls, ALambdaWhoseBodyIsTheSameCodeIsSharedEvenWhenItCallsProgramCode) {
  // `x -> a.test(x) && b.test(x)`: not a pure function (it dispatches on what it captured),
  // but the same code in both versions, so the lambdas are one function of their captures
  // (was MAYBE_NEQ: each version's lambda its own). A changed body is never shared.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/lambda/";
  JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.lambda.Preds", "--method", "both",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.lambda.Preds", "--method", "either",
                             "--shortcut", "off"});
  ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
  EXPECT_NE(changed.json["result"].string, "EQ") << changed.run.out;
}

TEST(UnknownCalls, ACallOfALambdasOwnMethodRunsItsBody) {
  // `f.applyAsInt(x)` on `y -> y * 2` made by the method: the lambda's static body runs (it was
  // an unmodelled call, each version's own: MAYBE_NEQ against the same arithmetic written out).
  // A Supplier of an array of a captured length likewise (its result was any object, so a cast
  // could fail). A changed body is a NEQ with a witness.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/lambdacall/";
  for (const char* method : {"twice", "sized", "scaled"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.lambdacall.Run", "--method", method,
                         "--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, std::string(method) == "scaled" ? "NEQ" : "EQ") << method << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, ASuperCallOfJdkCodeDoesNotDispatch) {
  // super.getMessage() runs Throwable's code, not an override: the changed override in another
  // class of the program does not stop the versions sharing it (was MAYBE_NEQ).
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/superjdk/";
  JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.superjdk.Sub", "--method", "raw",
                       "--shortcut", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
}

TEST(UnknownCalls, AnUnmodelledJdkConstructorBuildsAFunctionOfItsArguments) {
  // `new String(buf, 0, n)` on an array past the bound: the fresh receiver is no argument of the
  // constructor (it held a different allocation term per version: MAYBE_NEQ on the same code).
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/ctor/";
  for (const char* method : {"head", "big"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.ctor.Text", "--method", method,
                         "--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
  }
  for (const char* method : {"tail", "radix"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.ctor.Text", "--method", method,
                         "--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, JdkCodeCallingBackAChangedToStringIsNotShared) {
  // String.valueOf(pt) and "pt " + pt call Pt.toString, which changed: NEQ (replayed), never EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/callback/";
  for (const char* method : {"show", "label"}) {
    JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.callback.Show", "--method", method});
    ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
    EXPECT_NE(changed.json["result"].string, "EQ") << method << "\n" << changed.run.out;
    // The same toString in both versions: shared, EQ by the engine.
    JsonRun same = runJson({root + "old", root + "old", "--class", "realcode.callback.Show", "--method", method,
                            "--shortcut", "off"});
    ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
    EXPECT_EQ(same.json["result"].string, "EQ") << method << "\n" << same.run.out;
  }
}

TEST(UnknownCalls, AnArrayOfValuesGivenToJdkCodeCallsNothingBack) {
  // String.format("v=%d", v): its Object[] holds a Long only, so the call runs no program code
  // and is shared (EQ, as in commons-lang3's Validate.isTrue(boolean, String, long)); an array
  // holding a Pt, whose toString changed, or other values in one version, are never EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/callback/";
  JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.callback.Show", "--method", "formatted",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  for (const char* method : {"formattedPt", "shifted"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.callback.Show", "--method", method,
                         "--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, AJdkContainerOfValuesCallsNothingBack) {
  // Collections.unmodifiableList(Arrays.asList(Boolean.FALSE, Boolean.TRUE)) in each version's
  // class initialiser (commons-lang3's BooleanUtils): a list of values, so the concatenation
  // that prints it and its element is shared (was MAYBE_NEQ: each version's list its own, as
  // Pt.toString changed). Never EQ: the array the list views given a Pt after the list was
  // made, or a list made of a Pt.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/callback/";
  JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.callback.Show", "--method", "flags",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  for (const char* method : {"viewed", "listed"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.callback.Show", "--method", method,
                         "--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
  }
}

TEST(UnknownCalls, ALibraryCallRunsTheLambdasItIsGivenAndWritesWhatTheyCaptured) {
  // forEach(add) may run `add`, which writes the array it captured: after the call the array's
  // element is unknown (not the 0 stored after the lambda was made), so the results differ.
  const std::string a = fixtureClass("realcode/capture", "old", "realcode.capture", "Totals");
  const std::string b = fixtureClass("realcode/capture", "new", "realcode.capture", "Totals");
  JsonRun j = runJson({a, b});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_NE(j.json["result"].string, "EQ");
  bool unknownAfterCall = false;
  for (const Json& part : j.json["partitions"].array)
    unknownAfterCall = unknownAfterCall ||
                       part["effect_old"]["value"].string.find("after:java.util.List.forEach") != std::string::npos;
  EXPECT_TRUE(unknownAfterCall) << j.run.out;
}

}  // namespace
}  // namespace cli_test
