// The witness stage's guard against differences of the run (analysis::partitionReadsTheRun):
// a partition whose path or outputs read the clock or an identity hash — the "clock#" and "run#" symbols the
// interpreter's unknown-call model adds (symexec/lib/unknown.cpp, appendSources) — is never made
// NEQ by two JVM runs that differ: one JVM per version shows two runs, not two versions.
#include <gtest/gtest.h>

#include "../../src/analysis/witnesses.hpp"

using namespace pasda;
using terms::FunKind;
using terms::Sort;
using terms::Term;

namespace {

TEST(RunValues, TheClockInAnOutputOrThePathIsAValueOfTheRun) {
  terms::TermManager tm{terms::Arith::Java};
  const Term x = tm.var("x", Sort::Int);
  const Term mark = tm.apply("clock#", FunKind::Library, Sort::Int, {});
  const Term clock = tm.apply("java.lang.System.nanoTime()", FunKind::Library, Sort::Long, {mark, tm.intLit(1)});
  const Term hash = tm.apply("java.lang.System.identityHashCode(Ljava/lang/Object;)", FunKind::Library, Sort::Int,
                             {tm.intLit(3), tm.apply("run#1", FunKind::Library, Sort::Int, {})});
  symexec::RawPartition plain;
  plain.pc = {tm.gt(x, tm.intLit(0))};
  plain.old_effect.value = tm.add(x, tm.intLit(1));
  plain.new_effect.value = tm.add(x, tm.intLit(2));
  EXPECT_FALSE(analysis::partitionReadsTheRun(tm, plain));

  symexec::RawPartition output = plain;
  output.new_effect.value = tm.add(tm.convert(clock, Sort::Int), x);
  EXPECT_TRUE(analysis::partitionReadsTheRun(tm, output));

  symexec::RawPartition path = plain;
  path.pc.push_back(tm.gt(clock, tm.longLit(0)));
  EXPECT_TRUE(analysis::partitionReadsTheRun(tm, path));

  symexec::RawPartition state = plain;
  state.old_effect.state.emplace_back("Clock.last", clock);
  state.new_effect.state.emplace_back("Clock.last", tm.longLit(0));
  EXPECT_TRUE(analysis::partitionReadsTheRun(tm, state));

  symexec::RawPartition hashed = plain;
  hashed.old_effect.value = tm.add(hash, x);
  EXPECT_TRUE(analysis::partitionReadsTheRun(tm, hashed));

  // A random draw is not a value of the run: its repeats in the JVM tell chance apart.
  symexec::RawPartition draw = plain;
  draw.new_effect.value = tm.apply("java.util.Random.nextInt(I)", FunKind::Library, Sort::Int, {tm.intLit(7), x});
  EXPECT_FALSE(analysis::partitionReadsTheRun(tm, draw));
}

// An input of a class whose instances the JVM makes and relies on is never built field by field:
// a `java.lang.reflect.Method` allocated without its constructor crashed the replay JVM
// (MethodHandles.Lookup.unreflect) in a release diff. An object of an ordinary class is built.
TEST(WitnessShapes, ObjectsTheJvmMakesItselfAreNotBuilt) {
  symexec::RawPartition p;
  auto shape = [](const std::string& path, const std::string& cls) {
    symexec::InputShape sh;
    sh.path = path;
    sh.cls = cls;
    return sh;
  };
  auto zero = [](Term) -> std::uint64_t { return 0; };
  for (const char* cls : {"java/lang/reflect/Method", "java/lang/invoke/MethodHandle", "java/lang/Class",
                          "java/lang/ref/WeakReference", "jdk/internal/misc/Unsafe", "java/lang/Module"}) {
    p.input_shapes = {shape("m", cls)};
    EXPECT_FALSE(analysis::shapeValue(p, p.input_shapes[0], zero).buildable()) << cls;
    EXPECT_TRUE(analysis::vmInternalClass(cls)) << cls;
  }
  for (const char* cls : {"org/x/Point", "java/lang/Thread", "java/util/ArrayList", "java/lang/StringBuilder"}) {
    p.input_shapes = {shape("m", cls)};
    EXPECT_TRUE(analysis::shapeValue(p, p.input_shapes[0], zero).buildable()) << cls;
    EXPECT_FALSE(analysis::vmInternalClass(cls)) << cls;
  }
}

}  // namespace
