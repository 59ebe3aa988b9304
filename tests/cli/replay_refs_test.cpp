// Issue 11, replay for real inputs: witnesses whose inputs are strings and arrays are built in a
// real JVM (tests/fixtures/realcode/replay_refs). A solver NEQ must carry a JVM replay that
// differs; a MAYBE_NEQ whose witness differs in the JVM becomes NEQ (decided by replay) under
// Java's semantics only; an output that changes from one call to the next proves nothing.
#include "cli/support.hpp"

namespace cli_test {
namespace {

std::string texts(const char* side) { return fixtureClass("realcode/replay_refs", side, "realcode.replayrefs", "Texts"); }

/// A run under Java's semantics (pasda-jvm's default) unless `extra` names the model.
JsonRun run(const std::string& method, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"--method", method, "--stop-at-neq", "no", "--timeout", "30"};
  if (!contains(extra, "--arith")) a.insert(a.end(), {"--arith", "java"});
  a.insert(a.end(), extra.begin(), extra.end());
  a.push_back(texts("old"));
  a.push_back(texts("new"));
  return runJson(a);
}

/// The JVM replays of the partitions whose result is `verdict`: (witness call, replay).
std::vector<std::pair<std::string, const Json*>> jvmReplays(const Json& j, const std::string& verdict) {
  std::vector<std::pair<std::string, const Json*>> out;
  for (const Json& p : j["partitions"].array) {
    if (p["result"].string != verdict) continue;
    const Json* found = nullptr;
    for (const Json& rep : p["replays"].array)
      if (rep["engine"].string == "jvm") found = &rep;
    out.push_back({p["witness_call"].string, found});
  }
  return out;
}

/// Every NEQ partition has a JVM replay that differs, and its call holds `literal`.
void expectConfirmedNeq(const JsonRun& j, const std::string& literal) {
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  auto reps = jvmReplays(j.json, "NEQ");
  ASSERT_FALSE(reps.empty()) << j.run.out;
  for (const auto& [call, rep] : reps) {
    ASSERT_NE(rep, nullptr) << "NEQ without a JVM replay: " << call;
    EXPECT_TRUE((*rep)["differs"].boolean) << call << ": " << (*rep)["note"].string;
    EXPECT_NE((*rep)["output_old"].string, (*rep)["output_new"].string) << call;
    EXPECT_NE(call.find(literal), std::string::npos) << call;
  }
}

TEST(ReplayReferences, AnArrayPastTheLengthBoundIsBuiltInTheJvm) {
  // realcode/long_array: the versions differ at length 11 only, past --max-array-length 8;
  // the witness is an array of the model's length (its elements were never read).
  REQUIRE_JAVA();
  const std::string a = fixtureClass("realcode/long_array", "old", "realcode.longarray", "Lengths");
  const std::string b = fixtureClass("realcode/long_array", "new", "realcode.longarray", "Lengths");
  JsonRun j = runJson({"--method", "len", "--stop-at-neq", "no", a, b});
  expectConfirmedNeq(j, "len(new int[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})");
}

TEST(ReplayReferences, StringInputIsBuiltInTheJvm) {
  REQUIRE_JAVA();
  expectConfirmedNeq(run("special"), "special(\"");
}

TEST(ReplayReferences, ArrayInputIsBuiltInTheJvm) {
  REQUIRE_JAVA();
  JsonRun j = run("total");
  expectConfirmedNeq(j, "total(new int[] {");
  // The witness gives the array whole, and its elements one by one.
  for (const Json& p : j.json["partitions"].array)
    if (p["result"].string == "NEQ") {
      EXPECT_EQ(p["witness"]["a"].string.rfind("new int[] {", 0), 0u) << p["witness_call"].string;
      EXPECT_NE(p["witness"].find("a[0]"), nullptr) << p["witness_call"].string;
    }
}

TEST(ReplayReferences, StringResultsAreComparedByContent) {
  REQUIRE_JAVA();
  JsonRun j = run("tag");
  expectConfirmedNeq(j, "tag(");
  bool literal = false;
  for (const auto& [call, rep] : jvmReplays(j.json, "NEQ"))
    if (rep) literal = literal || (*rep)["output_old"].string.rfind("\"<", 0) == 0;
  EXPECT_TRUE(literal) << j.run.out;
}

TEST(ReplayReferences, AMaybeNeqThroughAnUnmodelledCallIsConfirmedByTheJvm) {
  REQUIRE_JAVA();
  JsonRun j = run("afterUnknown");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  int byReplay = 0;
  for (const Json& p : j.json["partitions"].array)
    if (p["result"].string == "NEQ") {
      EXPECT_EQ(p["decided_by"].string, "replay") << p["witness_call"].string;
      byReplay += p["decided_by"].string == "replay";
    }
  EXPECT_GE(byReplay, 1);
  // Under the math model a difference in the JVM is no proof: the pair stays MAYBE_NEQ.
  JsonRun m = run("afterUnknown", {"--arith", "math"});
  ASSERT_TRUE(m.ok) << m.run.out << m.run.err;
  EXPECT_EQ(m.json["result"].string, "MAYBE_NEQ") << m.run.out;
}

TEST(ReplayReferences, OutputsThatChangeFromCallToCallAreNoDifference) {
  REQUIRE_JAVA();
  // Identical code whose result depends on an identity hash: the engine's shortcut is off, so
  // only the engine and the replay decide. Never NEQ.
  for (int k = 0; k < 3; ++k) {
    JsonRun j = run("stamp", {"--shortcut", "off"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "NEQ") << j.run.out;
  }
}

TEST(ReplayReferences, AJdkObjectInputIsBuiltByItsConstructor) {
  // draw(r, 6): the old version returns 1 + r.nextInt(1) = 1, the new 0. Built without its
  // constructor, the Random had no seed: the old version "threw" a NullPointerException.
  REQUIRE_JAVA();
  JsonRun j = run("draw");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  bool seen = false;
  for (const auto& [call, rep] : jvmReplays(j.json, j.json["result"].string)) {
    if (!rep || call.find(", 6)") == std::string::npos || call.find("null") != std::string::npos) continue;
    seen = true;
    EXPECT_EQ((*rep)["output_old"].string, "1") << call;
    EXPECT_EQ((*rep)["output_new"].string, "0") << call;
  }
  EXPECT_TRUE(seen) << j.run.out;
}

TEST(ReplayReferences, JUnitTestsAssertStringResults) {
  REQUIRE_JAVA();
  const std::string dir = scratch("replay-refs-junit").string();
  JsonRun j = run("tag", {"--emit-tests", dir});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  const std::string src = slurp(dir + "/realcode/replayrefs/Texts_tag_RegressionTest.java");
  EXPECT_NE(src.find("assertEquals(\"<>\", realcode.replayrefs.Texts.tag(\"\"));"), std::string::npos) << src;
}

// Instance methods (tests/fixtures/realcode/receivers): each version's call gets a receiver of
// its own class, built without a constructor, with the fields the witness names set.
JsonRun account(const std::string& method) {
  return runJson({"--method", method, "--stop-at-neq", "no", "--timeout", "30",
                  fixtureClass("realcode/receivers", "old", "realcode.receivers", "Account"),
                  fixtureClass("realcode/receivers", "new", "realcode.receivers", "Account")});
}

/// Some NEQ partition's JVM replay differs with a call holding `literal`; no NEQ's JVM replay
/// ran to equal outputs.
void expectReplayedNeq(const JsonRun& j, const std::string& literal) {
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  int differing = 0;
  for (const auto& [call, rep] : jvmReplays(j.json, "NEQ")) {
    if (!rep) continue;
    EXPECT_TRUE((*rep)["differs"].boolean || !(*rep)["note"].string.empty()) << call;
    if ((*rep)["differs"].boolean && call.find(literal) != std::string::npos) ++differing;
  }
  EXPECT_GE(differing, 1) << "no NEQ replayed to a difference with " << literal << "\n" << j.run.out;
}

TEST(ReplayReferences, AnInstanceMethodsReceiverIsBuiltInTheJvm) {
  REQUIRE_JAVA();
  expectReplayedNeq(account("limit"), "Account{parent = Account{balance = ");  // an object field
  expectReplayedNeq(account("named"), "Account{owner = \"");                   // a string field
  expectReplayedNeq(account("last"), "Account{history = new long[] {");         // an array field
  // A parameter of the analysed class: each version's copy is of that version's class.
  expectReplayedNeq(account("gap"), ".gap(Account{balance = ");
}

TEST(ReplayReferences, StaticFieldsAreSetBeforeTheCallInTheJvm) {
  // realcode/mean: `sum / count` reads two non-final statics, inputs of the witness.
  REQUIRE_JAVA();
  JsonRun j = runJson({"--method", "mean", "--stop-at-neq", "no",
                       fixtureClass("realcode/mean", "old", "realcode.mean", "Stats"),
                       fixtureClass("realcode/mean", "new", "realcode.mean", "Stats")});
  expectReplayedNeq(j, " with static{count = ");
}

TEST(ReplayReferences, AnotherClassesStaticFieldsAreInputsAndComparedInTheJvm) {
  // realcode/helperstatics: Registry.count, a non-final static of another class of the
  // program, holds any value at entry (its initialiser's 0 only, both were a false EQ).
  REQUIRE_JAVA();
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/helperstatics/";
  auto run = [&](const std::string& method, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{root + "old", root + "new", "--class", "realcode.helperstatics.Uses", "--method",
                                  method, "--shortcut", "off"};
    args.insert(args.end(), extra.begin(), extra.end());
    return runJson(args);
  };
  // A difference only when the static is 5 at entry: the JVM sets it before both calls.
  expectReplayedNeq(run("peek"), "with static{realcode.helperstatics.Registry.count = 5}");
  // Only the old version writes it: equal results, the state the call leaves differs.
  JsonRun counted = run("counted");
  expectReplayedNeq(counted, "with static{realcode.helperstatics.Registry.count = ");
  int stateDiffers = 0;
  for (const auto& [call, rep] : jvmReplays(counted.json, "NEQ"))
    if (rep && (*rep)["differs"].boolean &&
        (*rep)["note"].string.find("realcode.helperstatics.Registry.count: ") != std::string::npos)
      ++stateDiffers;
  EXPECT_GE(stateDiffers, 1) << counted.run.out;
  // A reference static of another class, built by the JVM (an array of three elements).
  expectReplayedNeq(run("wide"), "realcode.helperstatics.Registry.names = new java.lang.String[3]");
  // A private static written by no code but its initialiser holds the initialiser's value
  // (was an input: a "difference" for base != 7, which no caller can bring about) ...
  JsonRun scaled = run("scaled");
  ASSERT_TRUE(scaled.ok) << scaled.run.out << scaled.run.err;
  EXPECT_EQ(scaled.json["result"].string, "EQ") << scaled.run.out;
  // ... but one a method of its class writes is an input.
  expectReplayedNeq(run("capped"), "with static{realcode.helperstatics.Registry.limit = ");
  // The same reads and writes in both versions (an array static too): EQ by the engine.
  JsonRun same = run("same");
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  // --static-inputs off: statics start at their initialisers' values (the paper's view).
  JsonRun off = run("peek", {"--static-inputs", "off"});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_EQ(off.json["result"].string, "EQ") << off.run.out;
}

TEST(ReplayReferences, AnInputTheJvmCannotBuildIsNotJudged) {
  // An object of an abstract class (Number) has no class to instantiate and no stand-in (an
  // interface such as probe's Comparable gets one: ReplayState.InputsOfInterfaceTypes...): the
  // replay says so and the solver's proof stands on its own (never "no difference").
  REQUIRE_JAVA();
  JsonRun j = account("weigh");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  int notJudged = 0;
  for (const auto& [call, rep] : jvmReplays(j.json, "NEQ"))
    if (rep && (*rep)["note"].string.rfind("not judged: the JVM could not build", 0) == 0) {
      EXPECT_FALSE((*rep)["differs"].boolean) << call;
      ++notJudged;
    }
  EXPECT_GE(notJudged, 1) << j.run.out;
}

TEST(ReplayReferences, AReplayFailingAlikeInItsEnvironmentIsNotJudged) {
  // realcode/elsewhere without its Helper class: the engine sees an unmodelled call (MAYBE_NEQ),
  // the JVM throws NoClassDefFoundError in both versions — which says nothing either way.
  REQUIRE_JAVA();
  std::vector<std::string> classes;
  for (const char* side : {"old", "new"}) {
    classes.push_back(fixtureClass("realcode/elsewhere", side, "realcode.elsewhere", "Calls"));
    std::filesystem::remove(std::filesystem::path(classes.back()).parent_path() / "Helper.class");
  }
  JsonRun j = runJson({"--method", "twice", classes[0], classes[1]});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "MAYBE_NEQ") << j.run.out;
  int notJudged = 0;
  for (const auto& [call, rep] : jvmReplays(j.json, "MAYBE_NEQ"))
    if (rep) {
      EXPECT_FALSE((*rep)["differs"].boolean) << call;
      EXPECT_EQ((*rep)["note"].string, "not judged: the JVM replay failed with an Error (java.lang.NoClassDefFoundError)")
          << call;
      ++notJudged;
    }
  EXPECT_GE(notJudged, 1) << j.run.out;
}

TEST(ReplayReferences, APrivateMethodIsCalledThroughReflectionOverEachVersionsClassPath) {
  // realcode/privates as two class directories: the difference lies in Helper, which only each
  // version's own class path has as that version has it; the methods are private.
  REQUIRE_JAVA();
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/privates/";
  for (const char* method : {"twice", "scaled"}) {
    JsonRun j = runJson({"--class", "realcode.privates.Hidden", "--method", method, "--stop-at-neq", "no",
                         root + "old", root + "new"});
    expectConfirmedNeq(j, std::string(method) + "(");
  }
}


// tests/fixtures/realcode/replay_state, run over its class directories (the enum and the
// switch map are classes of their own).
JsonRun counter(const std::string& method, const std::vector<std::string>& extra = {}) {
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/replay_state/";
  std::vector<std::string> a = {root + "old", root + "new", "--class", "realcode.replaystate.Counter", "--method", method,
                                "--stop-at-neq", "no", "--timeout", "30"};
  a.insert(a.end(), extra.begin(), extra.end());
  return runJson(a);
}

TEST(ReplayState, AMethodWithoutParametersIsReplayedOnItsReceiver) {
  // phase() on a Counter whose phase is null: IllegalStateException against the new version's
  // NullPointerException (its switch). The witness has no argument, only a receiver.
  REQUIRE_JAVA();
  JsonRun j = counter("phase");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  bool seen = false;
  for (const auto& [call, rep] : jvmReplays(j.json, "NEQ")) {
    ASSERT_NE(rep, nullptr) << "NEQ without a JVM replay: " << call;
    EXPECT_TRUE((*rep)["differs"].boolean) << call << ": " << (*rep)["note"].string;
    // (the only difference: an enum constant never makes them differ)
    EXPECT_NE(call.find("phase = null"), std::string::npos) << call << "\n" << j.run.out;
    if (call.find("phase = null") == std::string::npos) continue;
    seen = true;
    EXPECT_NE((*rep)["output_old"].string.find("IllegalStateException"), std::string::npos) << call;
    EXPECT_NE((*rep)["output_new"].string.find("NullPointerException"), std::string::npos) << call;
  }
  EXPECT_TRUE(seen) << j.run.out;
  // A witness's enum value is the constant of the model's ordinal, built by its name in each
  // version (Enum.valueOf): it runs, to equal results. An ordinal no constant has cannot be
  // built; an instance made without a constructor (no constant at all) would have "confirmed"
  // these undecided partitions as NEQ.
  int ran = 0, refused = 0;
  for (const auto& [call, rep] : jvmReplays(j.json, "MAYBE_NEQ")) {
    if (!rep || call.find("$ordinal") == std::string::npos) continue;
    EXPECT_FALSE((*rep)["differs"].boolean) << call << ": " << (*rep)["note"].string;
    if ((*rep)["note"].string.rfind("not judged: the JVM could not build", 0) == 0) ++refused;
    else if (!(*rep)["output_old"].string.empty() && (*rep)["output_old"].string == (*rep)["output_new"].string) ++ran;
  }
  EXPECT_GE(ran, 1) << j.run.out;
  EXPECT_GE(refused, 1) << j.run.out;
}

TEST(ReplayState, ADifferenceInTheStateLeftBehindIsConfirmedInTheJvm) {
  // resize(n) throws alike in both versions but sets the size first in the old one; mark(a, 7)
  // returns nothing and stores a different element; sized(3) returns a new Counter (results
  // compared by null-ness) whose size differs; bump() changes a field of the Cell in a field;
  // count(2) adds to a static field. Equal results, different states.
  REQUIRE_JAVA();
  for (const auto& [method, where] : std::vector<std::pair<std::string, std::string>>{
           {"resize", "this.size: "},
           {"mark", "argument 1: [[7"},
           {"sized", "result.size: 3 vs 4"},
           {"bump", "this.cell.value: 6 vs 7"},  // an object inside the receiver
           {"count", "static.calls: "}}) {        // a static field
    JsonRun j = counter(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
    auto reps = jvmReplays(j.json, "NEQ");
    ASSERT_FALSE(reps.empty()) << j.run.out;
    for (const auto& [call, rep] : reps) {
      ASSERT_NE(rep, nullptr) << "NEQ without a JVM replay: " << call;
      EXPECT_TRUE((*rep)["differs"].boolean) << method << " " << call << ": " << (*rep)["note"].string;
      EXPECT_EQ((*rep)["output_old"].string, (*rep)["output_new"].string) << call;
      EXPECT_NE((*rep)["note"].string.find("the state after the call differs: " + where), std::string::npos)
          << call << ": " << (*rep)["note"].string;
    }
  }
}

TEST(ReplayState, InputsOfInterfaceTypesGetStandInsThatConfirmDifferences) {
  // sizeOf(CharSequence) and supplied(IntSupplier): the engine cannot run the calls on them
  // (MAYBE_NEQ); the JVM gives both versions "" and a proxy answering 0, on which they differ
  // (-1 vs 0, 1 vs 0): NEQ decided by the replay (Java's semantics), the stand-ins named in its
  // note. A probe(Comparable) solver NEQ is confirmed on one.
  REQUIRE_JAVA();
  for (const auto& [method, type] : std::vector<std::pair<std::string, std::string>>{
           {"sizeOf", "java.lang.CharSequence"}, {"supplied", "java.util.function.IntSupplier"}}) {
    JsonRun j = counter(method, {"--arith", "java"});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "NEQ") << method << "\n" << j.run.out;
    int byReplay = 0;
    for (const Json& p : j.json["partitions"].array) {
      if (p["result"].string != "NEQ") continue;
      EXPECT_EQ(p["decided_by"].string, "replay") << p["witness_call"].string;
      for (const Json& rep : p["replays"].array)
        if (rep["engine"].string == "jvm" && rep["differs"].boolean) {
          ++byReplay;
          EXPECT_NE(rep["note"].string.find("stood in for (" + type), std::string::npos) << rep["note"].string;
        }
    }
    EXPECT_GE(byReplay, 1) << method << "\n" << j.run.out;
  }
  expectReplayedNeq(account("probe"), ".probe(Comparable{})");
}

TEST(ReplayState, AFieldOfOneVersionOnlyIsNoDifference) {
  // touch() counts in `touched` in the old version and in `hits` in the new: no field of one
  // version has a counterpart to differ from, in the engine or in the JVM.
  REQUIRE_JAVA();
  JsonRun j = counter("touch");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_NE(j.json["result"].string, "NEQ") << j.run.out;
  EXPECT_NE(j.json["result"].string, "EQ") << j.run.out;
}

TEST(ReplayState, TheReplaysOwnFramesAreNoDifference) {
  // Trace.trace prints a Throwable's stack trace; it is the same in both versions, but it may
  // run Failure.getMessage, which changed, so the engine leaves it undecided and the JVM
  // replays its witness Throwable{}. Each version's driver builds that Throwable, which records
  // the driver's frames: the two traces differed by the drivers' names alone and the replay
  // "confirmed" a difference (a false NEQ, ExceptionUtils.getStackTrace in commons-lang3).
  REQUIRE_JAVA();
  const std::string a = fixtureClass("realcode/trace", "old", "realcode.trace", "Trace");
  const std::string b = fixtureClass("realcode/trace", "new", "realcode.trace", "Trace");
  JsonRun j = runJson({a, b, "--method", "trace", "--shortcut", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "MAYBE_NEQ") << j.run.out;
  int replayed = 0;
  for (const Json& p : j.json["partitions"].array)
    for (const Json& rep : p["replays"].array)
      if (rep["engine"].string == "jvm" && !rep["output_old"].string.empty()) {
        ++replayed;
        EXPECT_FALSE(rep["differs"].boolean) << rep["output_old"].string << " vs " << rep["output_new"].string;
        EXPECT_NE(rep["output_old"].string.find("PasdaReplayDriver."), std::string::npos) << rep["output_old"].string;
      }
  EXPECT_GE(replayed, 1) << j.run.out;
}

}  // namespace
}  // namespace cli_test
