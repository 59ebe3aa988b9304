// java.lang.reflect.Array and the primitive classes' TYPE constants on real code, end to end
// through the CLI (tests/fixtures/realcode/reflectarray: the shape of commons-lang3's
// ArrayUtils.add). Before these models, `Array.newInstance(Integer.TYPE, n)` was an unknown
// object and every Array.set on it a call of the version's own (it might call back into
// program code): identical code ended MAYBE_NEQ.
#include "cli/support.hpp"

namespace cli_test {
namespace {

const std::string kRoot = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/reflectarray/";

JsonRun reflRun(const std::string& method, const std::string& arith) {
  return runJson({kRoot + "old", kRoot + "new", "--class", "realcode.reflectarray.Refl", "--method", method,
                  "--shortcut", "off", "--arith", arith, "--timeout", "30", "--stop-at-neq", "no"});
}

TEST(ReflectArrays, ArraysMadeAndFilledReflectivelyAreExact) {
  // append: identical code through Array.newInstance(Integer.TYPE, ...) and Array.set.
  // narrow, widen, nullInto, sameBox, read: the old version goes through Array.set/get, the new
  // one writes what the JVM does (the order of the checks, unboxing, widening, a new box per
  // get): EQ only if the models are exact. appendLazily: the array comes from a lambda behind a
  // Supplier; the lambda is the same in both versions, so its call is shared although another
  // implementation of Supplier.get changed (it was a call of each version's own: MAYBE_NEQ).
  for (const char* arith : {"java", "math"})
    for (const char* method : {"append", "narrow", "widen", "nullInto", "sameBox", "read", "appendLazily"}) {
      JsonRun j = reflRun(method, arith);
      ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
      EXPECT_EQ(j.json["result"].string, "EQ") << method << " " << arith << "\n" << j.run.out;
    }
}

TEST(ReflectArrays, ArraysOfReferencesAreExactWithinTheBound) {
  // Array.set/get on a String[] against aastore/aaload: every partition within the array
  // bound is EQ (past it, elements of arrays of references are not held: not EQ, never NEQ).
  for (const char* method : {"put", "fetch"}) {
    JsonRun j = reflRun(method, "java");
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_NE(j.json["result"].string, "NEQ") << method << "\n" << j.run.out;
    int within = 0;
    for (const Json& part : j.json["partitions"].array) {
      if (part["path_condition"].string.find("a.length > 8") != std::string::npos) continue;
      ++within;
      EXPECT_EQ(part["result"].string, "EQ") << method << ": " << part["path_condition"].string;
    }
    EXPECT_GT(within, 20) << method;
  }
}

TEST(ReflectArrays, ADifferentElementOrLambdaIsNeqWithAReplayedWitness) {
  // appendByte stores x + 1; lazyLonger's lambda makes the array one longer: a lambda that
  // changed is not shared, and the difference replays in a real JVM.
  REQUIRE_JAVA();
  for (const char* method : {"appendByte", "lazyLonger"}) {
    JsonRun j = reflRun(method, "java");
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "NEQ") << method << "\n" << j.run.out;
    int confirmed = 0;
    for (const Json& p : j.json["partitions"].array) {
      if (p["result"].string != "NEQ") continue;
      for (const Json& rep : p["replays"].array)
        if (rep["engine"].string == "jvm" && rep["differs"].boolean) ++confirmed;
    }
    EXPECT_GE(confirmed, 1) << method << "\n" << j.run.out;
  }
}

}  // namespace
}  // namespace cli_test
