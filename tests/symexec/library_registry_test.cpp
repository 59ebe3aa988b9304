// The library-model registry (white-box): its lookup rules, the JDK registry's contents, and a
// model that reads input fields and forks several times per call, run by the real explorer and
// interpreter (the fork contract of docs/interpreter.md).
#include <map>

#include "../../src/symexec/interpreter.hpp"
#include "symexec/support.hpp"

namespace symtest {
namespace {

using pasda::symexec::LibraryRegistry;
using pasda::symexec::Model;
using pasda::symexec::ModelCall;
using pasda::symexec::ModelResult;

using Fn = ModelResult (*)(ModelCall&);
ModelResult tagA(ModelCall&) { return ModelResult::none(); }
ModelResult tagB(ModelCall&) { return ModelResult::none(); }
ModelResult tagC(ModelCall&) { return ModelResult::none(); }
ModelResult tagD(ModelCall&) { return ModelResult::none(); }
ModelResult fallbackFn(ModelCall&) { return ModelResult::none(); }

/// Which of the tag functions a lookup found (nullptr for anything else).
Fn found(const Model& m) {
  const Fn* f = m.target<Fn>();
  return f ? *f : nullptr;
}

class Registry : public ::testing::Test {
 protected:
  void SetUp() override { r.setFallback(fallbackFn); }
  Fn find(const std::string& owner, const std::string& name, const std::string& desc, const std::string& dyn = "") {
    return found(r.find(owner, name, desc, dyn));
  }
  LibraryRegistry r;
};

TEST_F(Registry, ExactDescriptorBeforeOverloadsBeforeFallback) {
  r.add("java/lang/Math", "abs", "(I)I", tagA);
  r.addOverloads("java/lang/Math", "abs", tagB);
  EXPECT_EQ(find("java/lang/Math", "abs", "(I)I"), tagA);
  EXPECT_EQ(find("java/lang/Math", "abs", "(D)D"), tagB);
  EXPECT_EQ(find("java/lang/Math", "absExact", "(I)I"), fallbackFn);
  EXPECT_EQ(find("java/lang/StrictMath", "abs", "(I)I"), fallbackFn);
  EXPECT_EQ(r.size(), 2u);
}

TEST_F(Registry, TheReceiversDynamicClassComesFirst) {
  // CharSequence.length() and Object.equals on a String find the String models.
  r.add("java/lang/String", "length", "()I", tagA);
  r.addOverloads("java/lang/String", "equals", tagB);
  r.add("java/lang/Object", "equals", "(Ljava/lang/Object;)Z", tagC);
  EXPECT_EQ(find("java/lang/CharSequence", "length", "()I", "java/lang/String"), tagA);
  EXPECT_EQ(find("java/lang/Object", "equals", "(Ljava/lang/Object;)Z", "java/lang/String"), tagB);
  // Another receiver class falls back to the model of the class the call names.
  EXPECT_EQ(find("java/lang/Object", "equals", "(Ljava/lang/Object;)Z", "java/lang/Integer"), tagC);
  EXPECT_EQ(find("java/lang/CharSequence", "length", "()I", "java/lang/StringBuilder"), fallbackFn);
}

TEST_F(Registry, ClassWideEntriesMatchTheNamedClassOnly) {
  r.addClass("java/io/PrintStream", tagA);
  r.add("java/io/PrintStream", "checkError", "()Z", tagB);
  EXPECT_EQ(find("java/io/PrintStream", "println", "(I)V"), tagA);
  EXPECT_EQ(find("java/io/PrintStream", "checkError", "()Z"), tagB);
  // Object.hashCode on a PrintStream receiver is not a stream method.
  EXPECT_EQ(find("java/lang/Object", "hashCode", "()I", "java/io/PrintStream"), fallbackFn);
}

TEST_F(Registry, AnyOwnerAndArrayEntries) {
  r.addOverloads(LibraryRegistry::kAnyOwner, "<init>", tagA);
  r.add(LibraryRegistry::kAnyArray, "clone", "()Ljava/lang/Object;", tagB);
  r.add("java/util/ArrayList", "<init>", "(I)V", tagC);
  EXPECT_EQ(find("java/lang/RuntimeException", "<init>", "(Ljava/lang/String;)V"), tagA);
  EXPECT_EQ(find("java/util/ArrayList", "<init>", "(I)V"), tagC);
  EXPECT_EQ(find("java/util/ArrayList", "<init>", "()V"), tagA);
  // javac names the array class itself; a call through Object has the array as receiver.
  EXPECT_EQ(find("[Lfixtures/E;", "clone", "()Ljava/lang/Object;"), tagB);
  EXPECT_EQ(find("java/lang/Object", "clone", "()Ljava/lang/Object;", "[I"), tagB);
  EXPECT_EQ(find("java/lang/Object", "clone", "()Ljava/lang/Object;", "java/lang/String"), fallbackFn);
}

TEST_F(Registry, InvokeDynamicCallSitesHaveTheirOwnOwner) {
  r.addClass(LibraryRegistry::kInvokeDynamic, tagA);
  r.add(LibraryRegistry::kInvokeDynamic, "makeConcatWithConstants", "(I)Ljava/lang/String;", tagD);
  EXPECT_EQ(find(LibraryRegistry::kInvokeDynamic, "makeConcatWithConstants", "(I)Ljava/lang/String;"), tagD);
  EXPECT_EQ(find(LibraryRegistry::kInvokeDynamic, "apply", "()Ljava/util/function/Function;"), tagA);
}

TEST(JdkModels, HoldTheModelsOfEveryArea) {
  const LibraryRegistry& r = pasda::symexec::jdkModels();
  auto modelled = [&](const char* owner, const char* name, const char* desc, const char* dyn = "") {
    return &r.find(owner, name, desc, dyn) != &r.fallback();
  };
  for (const char* owner : {"java/lang/Math", "java/lang/StrictMath"}) {
    SCOPED_TRACE(owner);
    EXPECT_TRUE(modelled(owner, "abs", "(J)J"));
    EXPECT_TRUE(modelled(owner, "sin", "(D)D"));
    EXPECT_TRUE(modelled(owner, "pow", "(DD)D"));
    EXPECT_TRUE(modelled(owner, "round", "(F)I"));
    EXPECT_FALSE(modelled(owner, "round", "(D)D"));  // no such method: never guessed
    for (const char* d : {"(II)I", "(JJ)J", "(JI)I"}) EXPECT_TRUE(modelled(owner, "floorMod", d)) << d;
  }
  EXPECT_TRUE(modelled("java/lang/Double", "compare", "(DD)I"));
  EXPECT_TRUE(modelled("java/lang/Long", "compare", "(JJ)I"));
  EXPECT_TRUE(modelled("java/lang/Object", "getClass", "()Ljava/lang/Class;", "fixtures/symexec/Box"));
  EXPECT_TRUE(modelled("java/io/PrintStream", "println", "(Ljava/lang/String;)V"));
  EXPECT_TRUE(modelled("java/lang/IllegalStateException", "<init>", "()V"));
  EXPECT_TRUE(modelled(LibraryRegistry::kInvokeDynamic, "makeConcatWithConstants", "(I)Ljava/lang/String;"));
  EXPECT_FALSE(modelled("java/lang/Integer", "bitCount", "(I)I"));
  EXPECT_FALSE(modelled("java/lang/Object", "hashCode", "()I", "java/io/PrintStream"));
}

// ---- a model that forks several times, on the real explorer and interpreter ----------------

/// Explores a fixture method with the interpreter's pieces and a registry of the test's own.
Explored exploreWith(Harness& h, const LibraryRegistry& registry, const std::string& cls, const std::string& name,
                     const std::string& desc) {
  using namespace pasda::symexec;
  TermManager& tm = h.tm();
  const MethodInfo& m = h.method(cls, name, desc);
  Explored e;
  e.in = makeInputs(m, tm);
  ExecOptions opt;
  auto solver = pasda::solver::makeZ3Solver(tm, pasda::solver::SolverOptions{});
  Explorer explorer(tm, *solver, opt);
  InputHeap inputs(tm, h.program(), opt, explorer);
  Interpreter interpreter(h.program(), tm, opt, explorer, inputs, registry);
  interpreter.prepare();
  PartitionSink sink = [&](const RawPartition& p, pasda::solver::Solver&) { e.parts.push_back(p); };
  explorer.begin(sink, {});
  explorer.run(interpreter.initialState(m, e.in.terms, e.in.constraints),
               [&](State& s) { return interpreter.step(s); });
  e.stats = explorer.stats();
  return e;
}

/// Objects.hashCode(n), modelled as: -1 for null; otherwise a code of n.next's shape (0 null,
/// 1 n itself, 2 another node), then two forks on n.val with an allocation between them:
/// shape * 100 + (val > 0) * 10 + (val > 10).
ModelResult shapeAndSign(ModelCall& c) {
  TermManager& tm = c.tm();
  const std::string node = "Lfixtures/symexec/ModelProbe$Node;";
  Term n = c.arg(0);
  if (c.isNull(n)) return ModelResult::value(tm.intLit(-1));
  std::optional<Term> next = c.field(n, "next", node);  // a choice among null, n, a fresh node
  if (!next) return c.ended();
  int shape = c.isNull(*next) ? 0 : *next == n ? 1 : 2;
  std::optional<Term> val = c.field(n, "val", "I");
  if (!val) return c.ended();
  auto positive = c.branch(tm.gt(*val, tm.intLit(0)));
  if (!positive) return c.ended();
  c.newArray("I", {*val});  // an effect between the forks
  auto big = c.branch(tm.gt(*val, tm.intLit(10)));
  if (!big) return c.ended();
  return ModelResult::value(tm.intLit(shape * 100 + (*positive ? 10 : 0) + (*big ? 1 : 0)));
}

TEST(ModelForks, AModelThatReadsInputsAndForksSeveralTimesExploresEveryCombinationOnce) {
  for (Arith arith : {Arith::Math, Arith::Java}) {
    SCOPED_TRACE(arith == Arith::Java ? "java" : "math");
    Harness h(arith);
    TermManager& tm = h.tm();
    LibraryRegistry registry = pasda::symexec::jdkModels();
    registry.add("java/util/Objects", "hashCode", "(Ljava/lang/Object;)I", shapeAndSign);
    Explored e = exploreWith(h, registry, "ModelProbe", "probe", "(Lfixtures/symexec/ModelProbe$Node;)I");
    std::map<std::int64_t, int> seen;
    Term val = tm.var("n.val", Sort::Int);
    for (const RawPartition& p : e.parts) {
      ASSERT_EQ(p.entry.kind, ExecEffect::Kind::Return);
      ASSERT_FALSE(p.depth_limited);
      auto v = tm.asInteger(p.entry.value);
      ASSERT_TRUE(v);
      ++seen[*v];
      if (*v < 0) continue;
      // The value's sign digits must be what the path condition says about n.val.
      Term pc = h.pc(p);
      bool positive = (*v / 10) % 10 == 1, big = *v % 10 == 1;
      Term expect = positive ? (big ? tm.gt(val, tm.intLit(10)) : tm.land(tm.gt(val, tm.intLit(0)), tm.le(val, tm.intLit(10))))
                             : tm.le(val, tm.intLit(0));
      EXPECT_TRUE(h.equivalent(pc, expect)) << "partition " << *v << ": " << tm.toString(pc);
    }
    // null, then 3 shapes of n.next times 3 ranges of n.val (val <= 0 cannot be > 10).
    std::map<std::int64_t, int> expected = {{-1, 1}, {0, 1}, {10, 1}, {11, 1}, {100, 1}, {110, 1},
                                            {111, 1}, {200, 1}, {210, 1}, {211, 1}};
    EXPECT_EQ(seen, expected);
  }
}

}  // namespace
}  // namespace symtest
