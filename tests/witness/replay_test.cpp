// Replay of witness inputs: the interpreter's concrete mode on the product, and a real JVM
// running a generated driver; both must tell the same story.
#include <cmath>
#include <limits>

#include "../../src/witness/driver.hpp"
#include "witness/support.hpp"

namespace wtest {
namespace {

using pasda::witness::replayInterp;

TEST(ReplayInterp, Listing2DiffersOnlyAtTheChangedBoundary) {
  Pair p("e2e/listing2", "fixtures/listing2/Listing2", "scale", "(DI)D");
  auto r = replayInterp(p.env(), {D(1.5), I(10)});
  EXPECT_EQ(r.engine, "interp");
  EXPECT_TRUE(r.differs) << r.note;
  EXPECT_EQ(r.old_out, "11.5");  // old: n > 10 -> x + n; new: n >= 10 -> x * 2
  EXPECT_EQ(r.new_out, "3.0");

  auto same = replayInterp(p.env(), {D(1.5), I(3)});
  EXPECT_FALSE(same.differs) << same.note;
  EXPECT_EQ(same.old_out, "4.5");
  EXPECT_EQ(same.new_out, "4.5");

  auto big = replayInterp(p.env(), {D(-0.0), I(11)});  // both take x * 2: -0.0 on both sides
  EXPECT_FALSE(big.differs);
  EXPECT_EQ(big.old_out, "-0.0");
}

TEST(ReplayInterp, ExceptionsAreComparedByClass) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "calc", "(DI)D");
  auto r = replayInterp(p.env(), {D(1.0), I(0)});
  EXPECT_TRUE(r.differs);
  EXPECT_EQ(r.old_out, "throws java.lang.IllegalArgumentException");
  EXPECT_EQ(r.new_out, "throws java.lang.IllegalStateException");

  Pair d("witness/mixed", "fixtures/witness/mixed/Mixed", "div", "(II)I");
  auto t = replayInterp(d.env(), {I(101), I(0)});  // old divides by zero, new by one
  EXPECT_TRUE(t.differs);
  EXPECT_EQ(t.old_out, "throws java.lang.ArithmeticException");
  EXPECT_EQ(t.new_out, "101");
  auto e = replayInterp(d.env(), {I(5), I(7)});
  EXPECT_FALSE(e.differs);
  EXPECT_EQ(e.old_out, "-2");
}

TEST(ReplayInterp, NaNEqualsNaNUnderDoubleEquals) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "calc", "(DI)D");
  auto r = replayInterp(p.env(), {D(std::numeric_limits<double>::quiet_NaN()), I(2)});
  EXPECT_FALSE(r.differs);
  EXPECT_EQ(r.old_out, "Double.NaN");
  auto between = replayInterp(p.env(), {D(3.25), I(1)});  // 4.25 vs 3.25
  EXPECT_TRUE(between.differs);
  EXPECT_EQ(between.old_out, "4.25");
  EXPECT_EQ(between.new_out, "3.25");
}

TEST(ReplayInterp, ObjectsOfTheAnalysedClassAreComparedByTheirFields) {
  // Both versions return a new Frac: one class under two renamed names. Equal fields are no
  // difference (before: the two names made every such result differ, a false NEQ of the deep
  // search on identical code); a different field is.
  Pair p("witness/objects", "fixtures/witness/objects/Frac", "reduced", "(II)Ljava/lang/Object;");
  auto same = replayInterp(p.env(), {I(3), I(1)});
  EXPECT_FALSE(same.differs) << same.note;
  auto other = replayInterp(p.env(), {I(6), I(3)});  // den 1 in the old version, 3 in the new
  EXPECT_TRUE(other.differs) << other.note;
  // Without the names the two classes cannot be identified: every result would differ.
  pasda::witness::ReplayEnv blind = p.env();
  blind.main_class = {};
  EXPECT_TRUE(replayInterp(blind, {I(3), I(1)}).differs);
}

TEST(ReplayInterp, MissingProgramIsAReportedFailureNotACrash) {
  pasda::witness::ReplayEnv env;
  auto r = replayInterp(env, {I(1)});
  EXPECT_FALSE(r.differs);
  EXPECT_FALSE(r.note.empty());
}

// Every witness of a run in one JVM, compared with the interpreter's replay of the same inputs.
void expectAgreement(const Pair& p, const std::string& tag, const std::vector<std::vector<InputValue>>& inputs) {
  TempDir dir(tag);
  auto jvm = p.jvm(dir.path, inputs);
  ASSERT_TRUE(jvm.has_value()) << "java is installed on the build machine";
  ASSERT_EQ(jvm->size(), inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto in = replayInterp(p.env(), inputs[i]);
    const auto& j = (*jvm)[i];
    SCOPED_TRACE("witness " + std::to_string(i));
    EXPECT_EQ(j.engine, "jvm");
    EXPECT_TRUE(j.note.empty()) << j.note;
    EXPECT_EQ(j.old_out, in.old_out);
    EXPECT_EQ(j.new_out, in.new_out);
    EXPECT_EQ(j.differs, in.differs);
  }
}

TEST(ReplayJvm, AgreesWithInterpreterOnListing2) {
  Pair p("e2e/listing2", "fixtures/listing2/Listing2", "scale", "(DI)D");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expectAgreement(p, "l2", {{D(1.5), I(10)}, {D(1.5), I(3)}, {D(-0.0), I(11)}, {D(nan), I(10)},
                            {D(1e308), I(10)}, {D(0.1), I(2147483647)}, {D(-4.9e-324), I(-2147483647 - 1)}});
}

TEST(ReplayJvm, AgreesWithInterpreterOnExceptionsAndNarrowTypes) {
  Pair calc("witness/mixed", "fixtures/witness/mixed/Mixed", "calc", "(DI)D");
  expectAgreement(calc, "calc", {{D(1.0), I(0)}, {D(3.25), I(1)}, {D(7.0), I(3)}, {D(3.0), I(-1)}});
  Pair div("witness/mixed", "fixtures/witness/mixed/Mixed", "div", "(II)I");
  expectAgreement(div, "div", {{I(101), I(0)}, {I(101), I(-1)}, {I(5), I(7)}, {I(2147483647), I(-1)}});
  Pair widen("witness/mixed", "fixtures/witness/mixed/Mixed", "widen", "(ISCZF)J");
  expectAgreement(widen, "widen",
                  {{I(3), I(-7), I(65), I(1), F(2.75f)}, {I(3), I(-7), I(65), I(0), F(2.75f)},
                   {I(-2147483647 - 1), I(32767), I(65535), I(1), F(std::numeric_limits<float>::infinity())}});
}

TEST(ReplayJvm, TranscendentalResultsAgreeOnTheDifference) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "wave", "(D)D");
  TempDir dir("wave");
  std::vector<std::vector<InputValue>> in = {{D(1.0)}, {D(4.0)}, {D(2.999)}, {D(100.5)}};
  auto jvm = p.jvm(dir.path, in);
  ASSERT_TRUE(jvm.has_value());
  const bool expected[] = {false, true, false, true};
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ((*jvm)[i].differs, expected[i]) << i;
    EXPECT_EQ(replayInterp(p.env(), in[i]).differs, expected[i]) << i;
  }
}

TEST(ReplayJvm, AbsentJavaGivesNullopt) {
  Pair p("e2e/listing2", "fixtures/listing2/Listing2", "scale", "(DI)D");
  pasda::witness::ReplayEnv env = p.env();
  env.java = "/nonexistent/bin/java";
  TempDir dir("nojava");
  EXPECT_FALSE(pasda::witness::replayJvm(dir.path.string(), env, p.oldName(), p.newName(), "scale", "(DI)D",
                                         {{D(1.0), I(1)}})
                   .has_value());
}

TEST(ReplayJvm, VersionsOnOneClassPathRunInOneJvm) {
  // The benchmark's layout: oldV and newV side by side in one package on one class path. One
  // JVM runs both (a second one, started beside it on two cores, doubled the replay's wall time).
  pasda::witness::ReplayEnv env;
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/witness/onepath";
  env.old_classpath = env.new_classpath = {root};
  EXPECT_TRUE(pasda::witness::replaysInOneJvm(env, "onepath.OldV", "onepath.NewV"));
  TempDir dir("onepath");
  auto jvm = pasda::witness::replayJvm(dir.path.string(), env, "onepath.OldV", "onepath.NewV", "f", "(I)I", {{I(3)}, {I(9)}});
  ASSERT_TRUE(jvm.has_value());
  ASSERT_EQ(jvm->size(), 2u);
  EXPECT_FALSE((*jvm)[0].differs) << (*jvm)[0].note;
  EXPECT_EQ((*jvm)[0].old_out, "4");
  EXPECT_TRUE((*jvm)[1].differs) << (*jvm)[1].note;
  EXPECT_EQ((*jvm)[1].old_out, "10");
  EXPECT_EQ((*jvm)[1].new_out, "11");
  // Versions of one name (two releases), or in two packages: a JVM per version.
  EXPECT_FALSE(pasda::witness::replaysInOneJvm(env, "onepath.OldV", "onepath.OldV"));
  EXPECT_FALSE(pasda::witness::replaysInOneJvm(env, "onepath.OldV", "other.NewV"));
  pasda::witness::ReplayEnv two = env;
  two.new_classpath = {root + "-new"};
  EXPECT_FALSE(pasda::witness::replaysInOneJvm(two, "onepath.OldV", "onepath.NewV"));
  EXPECT_TRUE(pasda::witness::replaysInOneJvm(pasda::witness::ReplayEnv{}, "a.Old", "a.New"));  // renamed copies
}

TEST(ReplayJvm, TheReplayJvmsHeapIsBounded) {
  // A witness that makes a version allocate 800 MB fails at once with an OutOfMemoryError (not
  // judged, by the analysis) instead of the JVM growing a default heap of a quarter of the
  // machine page by page; a small allocation runs as ever.
  pasda::witness::ReplayEnv env;
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/witness/onepath";
  env.old_classpath = env.new_classpath = {root};
  TempDir dir("alloc");
  auto jvm = pasda::witness::replayJvm(dir.path.string(), env, "onepath.OldV", "onepath.NewV", "alloc", "(I)I",
                                       {{I(100000000)}, {I(1000)}});
  ASSERT_TRUE(jvm.has_value());
  ASSERT_EQ(jvm->size(), 2u);
  EXPECT_EQ((*jvm)[0].old_out, "throws java.lang.OutOfMemoryError") << (*jvm)[0].note;
  EXPECT_EQ((*jvm)[0].new_out, "throws java.lang.OutOfMemoryError") << (*jvm)[0].note;
  EXPECT_EQ((*jvm)[1].old_out, "1000");
  EXPECT_EQ((*jvm)[1].new_out, "1001");
  EXPECT_TRUE((*jvm)[1].differs);
}

TEST(ReplayJvm, OutputsThatChangeFromCallToCallAreNoDifference) {
  // flip gives 0, 0, 1, 1, ... in the old version and 1, 1, 0, 0, ... in the new one: the old
  // version's first repeat agreed with its first call, and a single repeat took 0 against 1 for
  // a difference (a random bit does so half of the time: RandomUtils.nextInt(0, 2) was a NEQ).
  pasda::witness::ReplayEnv env;
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/witness/onepath";
  env.old_classpath = env.new_classpath = {root};
  TempDir dir("flip");
  auto jvm = pasda::witness::replayJvm(dir.path.string(), env, "onepath.OldV", "onepath.NewV", "flip", "(I)I", {{I(1)}});
  ASSERT_TRUE(jvm.has_value());
  ASSERT_EQ(jvm->size(), 1u);
  EXPECT_FALSE((*jvm)[0].differs) << (*jvm)[0].old_out << " vs " << (*jvm)[0].new_out;
  EXPECT_NE((*jvm)[0].note.find("gives different outputs on two calls"), std::string::npos) << (*jvm)[0].note;
}

TEST(ReplayJvmOutput, ALineCutShortByTheDeadlineIsNotAResult) {
  // A JVM killed at the replay deadline in the middle of "... throw java.lang.NullPointerException"
  // once made the new version's output "throws java.lang", a false NEQ on identical code
  // (ArrayUtils.shuffle with an unmodelled Random). Only complete lines are read.
  using pasda::witness::detail::completeLines;
  EXPECT_EQ(completeLines("PASDA-REPLAY 0 old void\nPASDA-REPLAY 0 new throw java.lang"), "PASDA-REPLAY 0 old void\n");
  EXPECT_EQ(completeLines("PASDA-REPLAY 0 new throw java.lang"), "");
  EXPECT_EQ(completeLines("a\nb\n"), "a\nb\n");
  EXPECT_EQ(completeLines(""), "");
}

TEST(ReplayJvmOutput, StatesAreComparedOnTheFieldsBothVersionsDeclare) {
  using pasda::witness::detail::stateDifference;
  const std::vector<std::string> names{"this", "argument 1"};
  // equal states; a field of one version only (renamed) is not compared
  EXPECT_EQ(stateDifference("size=3;buf=[[1, 2]]; | [[7]]", "size=3;buf=[[1, 2]]; | [[7]]", names), "");
  EXPECT_EQ(stateDifference("touched=1;size=2; | null", "hits=1;size=2; | null", names), "");
  // a common field, then an array argument's elements
  EXPECT_EQ(stateDifference("touched=1;size=2; | [[7]]", "hits=1;size=0; | [[7]]", names), "this.size: 2 vs 0");
  EXPECT_EQ(stateDifference("size=2; | [[7, 0]]", "size=2; | [[8, 0]]", names), "argument 1: [[7, 0]] vs [[8, 0]]");
  // a field hidden by a subclass's field of the same name is told apart by its occurrence
  EXPECT_EQ(stateDifference("x=1;x=2;", "x=1;x=3;", names), "this.x#1: 2 vs 3");
  // an object whose fields could not be listed ("?") is not compared; nor inputs that differ in number
  EXPECT_EQ(stateDifference("? | [[1]]", "size=1; | [[1]]", names), "");
  EXPECT_EQ(stateDifference("size=1;", "size=2; | [[1]]", names), "");
}

TEST(ReplayJvmOutput, StatesAreComparedAsGraphsUpToIsomorphism) {
  using pasda::witness::detail::stateDifference;
  const std::vector<std::string> names{"this", "static"};
  // objects inside objects, to the field that differs; numbering alone is no difference
  EXPECT_EQ(stateDifference("#0{cell=#1{value=6;};size=2;}", "#0{cell=#1{value=7;};size=2;}", names),
            "this.cell.value: 6 vs 7");
  EXPECT_EQ(stateDifference("#0{a=#1{v=1;};b=#2{v=1;};}", "#3{a=#5{v=1;};b=#4{v=1;};}", names), "");
  // the same object twice against two equal objects: the sharing differs
  EXPECT_EQ(stateDifference("#0{a=#1{v=1;};b=#1;}", "#0{a=#1{v=1;};b=#2{v=1;};}", names),
            "this.b: the objects are shared differently");
  // the same sharing met in another order (fields declared in another order) is no difference
  EXPECT_EQ(stateDifference("#0{a=#1{v=1;};b=#1;}", "#0{b=#1{v=1;};a=#1;}", names), "");
  // a cycle back to the receiver
  EXPECT_EQ(stateDifference("#0{self=#0;n=1;}", "#0{self=#0;n=1;}", names), "");
  EXPECT_EQ(stateDifference("#0{self=#0;n=1;}", "#0{self=#1{self=#1;n=1;};n=1;}", names),
            "this.self: the objects are shared differently");
  // sequences (reference arrays, lists): length and elements in order
  EXPECT_EQ(stateDifference("#0{xs=#1<[97];null;>;}", "#0{xs=#1<[97];null;>;}", names), "");
  EXPECT_EQ(stateDifference("#0{xs=#1<[97];null;>;}", "#0{xs=#1<[97];>;}", names), "this.xs: 2 vs 1 elements");
  EXPECT_EQ(stateDifference("#0{xs=#1<[97];null;>;}", "#0{xs=#1<[97];[98];>;}", names),
            "this.xs[1]: null vs [98]");
  // enum constants by name; an object not printed (a JDK object, past a bound) is no
  // difference against another object, but is against null
  EXPECT_EQ(stateDifference("#0{p=enum IDLE;}", "#0{p=enum RUNNING;}", names), "this.p: enum IDLE vs enum RUNNING");
  EXPECT_EQ(stateDifference("#0{m=obj;}", "#0{m=#1{v=1;};}", names), "");
  EXPECT_EQ(stateDifference("#0{m=obj;}", "#0{m=null;}", names), "this.m: obj vs null");
  // a field of one version's class only is not compared, at any depth
  EXPECT_EQ(stateDifference("#0{c=#1{old=1;v=2;};}", "#0{c=#1{renamed=5;v=2;};}", names), "");
  // a printout cut short is not compared
  EXPECT_EQ(stateDifference("#0{c=#1{v=1;", "#0{c=#1{v=2;};}", names), "");
}

TEST(ReplayJvmOutput, StaticFieldsAreComparedWhereTheCallFoundThemEqual) {
  using pasda::witness::detail::stateDifference;
  const std::vector<std::string> names{"static"};
  // the call adds 2 in one version, 3 in the other, from an equal start
  EXPECT_EQ(stateDifference("{calls=0;} ~ {calls=2;}", "{calls=0;} ~ {calls=3;}", names), "static.calls: 2 vs 3");
  EXPECT_EQ(stateDifference("{calls=0;} ~ {calls=2;}", "{calls=0;} ~ {calls=2;}", names), "");
  // each version's initialiser set `seed` apart and the call left it alone: not the call's doing
  EXPECT_EQ(stateDifference("{seed=1;calls=0;} ~ {seed=1;calls=2;}", "{seed=2;calls=0;} ~ {seed=2;calls=2;}", names),
            "");
  // ... but the fields that started equal are still compared
  EXPECT_EQ(stateDifference("{seed=1;calls=0;} ~ {seed=1;calls=2;}", "{seed=2;calls=0;} ~ {seed=2;calls=4;}", names),
            "static.calls: 2 vs 4");
  // a static field of one version only, and statics that cannot be listed, are not compared
  EXPECT_EQ(stateDifference("{a=1;} ~ {a=2;}", "{b=1;} ~ {b=3;}", names), "");
  EXPECT_EQ(stateDifference("? ~ ?", "{a=1;} ~ {a=3;}", names), "");
}

// The JVM replay runs each distinct call once (witnesses.cpp): two calls share a key exactly
// when every argument, the receiver and the statics are the same, down to nested fields.
TEST(CallKey, EqualCallsShareAKeyAndAnyDifferenceSeparatesThem) {
  using pasda::witness::CallContext;
  using pasda::witness::callKey;
  auto object = [](const std::string& cls, std::vector<std::string> names, std::vector<InputValue> values) {
    InputValue v{Sort::Ref, 0};
    v.ref = InputValue::Ref::Object;
    v.cls = cls;
    v.field_names = std::move(names);
    for (std::size_t i = 0; i < v.field_names.size(); ++i) v.field_descs.push_back("I");
    v.field_values = std::move(values);
    return v;
  };
  auto text = [](std::vector<std::uint64_t> units) {
    InputValue v{Sort::Ref, 0};
    v.ref = InputValue::Ref::String;
    v.elems = std::move(units);
    return v;
  };
  CallContext none;
  CallContext box;
  box.receiver = object("<main>", {"count"}, {I(3)});
  const std::string base = callKey({I(1), D(2.0), text({97, 98})}, box);
  EXPECT_EQ(base, callKey({I(1), D(2.0), text({97, 98})}, box));
  EXPECT_NE(base, callKey({I(2), D(2.0), text({97, 98})}, box));          // an argument
  EXPECT_NE(base, callKey({I(1), D(-2.0), text({97, 98})}, box));         // its bits
  EXPECT_NE(base, callKey({I(1), D(2.0), text({97})}, box));              // a string's units
  EXPECT_NE(base, callKey({I(1), D(2.0), text({98, 97})}, box));
  EXPECT_NE(base, callKey({I(1), D(2.0), text({97, 98})}, none));         // the receiver
  CallContext other = box;
  other.receiver.field_values[0] = I(4);                                   // one of its fields
  EXPECT_NE(base, callKey({I(1), D(2.0), text({97, 98})}, other));
  CallContext statics = box;
  statics.statics = object("<statics>", {"calls"}, {I(0)});                // the statics
  EXPECT_NE(base, callKey({I(1), D(2.0), text({97, 98})}, statics));
  // the same values in another order, or split differently between arguments, differ too
  EXPECT_NE(callKey({I(1), I(2)}, none), callKey({I(2), I(1)}, none));
  EXPECT_NE(callKey({I(12)}, none), callKey({I(1), I(2)}, none));
  EXPECT_NE(callKey({I(1)}, none), callKey({J(1)}, none));                 // the sort
}

}  // namespace
}  // namespace wtest
