// Issue 17: Java's own arithmetic is the default. Four pairs (tests/fixtures/cli/javaarith) that
// are equivalent over unbounded integers and reals and differ in a JVM, in the shapes of the five
// benchmark pairs whose labels are wrong for Java: an int overflow in a product and in a loop
// counter, NaN through Math.max, a floating-point reassociation. Each is EQ under --arith math and
// NEQ under the default, with a witness that the interpreter and a real JVM replay to a difference.
#include <sys/stat.h>

#include <cstdlib>

#include "cli/support.hpp"

namespace cli_test {
namespace {

using pasda::testsupport::runCliDefaults;

struct Shape {
  const char* method;
  const char* what;
};

void PrintTo(const Shape& s, std::ostream* os) { *os << s.method; }

std::string oldShapes() { return fixtureClass("cli/javaarith", "old", "fixtures.cli.javaarith", "Shapes"); }
std::string newShapes() { return fixtureClass("cli/javaarith", "new", "fixtures.cli.javaarith", "Shapes"); }

class JavaShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(JavaShapes, EqualUnderMath) {
  const Shape& s = GetParam();
  JsonRun j = runJson({"--arith", "math", "--timeout", "30", "--method", s.method, oldShapes(), newShapes()});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << s.what << "\n" << j.run.out;
  EXPECT_EQ(j.json["arithmetic"].string, "math");
  EXPECT_EQ(j.run.code, 0);
}

TEST_P(JavaShapes, DifferentUnderTheDefaultWithAReplayedWitness) {
  const Shape& s = GetParam();
  REQUIRE_JAVA();
  // No --arith: the default model.
  CliRun r = runCliDefaults({"--format", "json", "--timeout", "30", "--method", s.method, oldShapes(), newShapes()});
  Json j;
  ASSERT_NO_THROW(j = JsonParser(r.out).parse()) << r.out << r.err;
  EXPECT_EQ(j["result"].string, "NEQ") << s.what << "\n" << r.out;
  EXPECT_EQ(j["arithmetic"].string, "java");
  EXPECT_EQ(j["settings"]["arith"].string, "java");
  EXPECT_EQ(r.code, 1);
  int confirmed = 0;
  for (const Json& p : j["partitions"].array) {
    if (p["result"].string != "NEQ") continue;
    EXPECT_NE(p["witness_call"].string, "") << r.out;
    bool interp = false, jvm = false;
    for (const Json& rep : p["replays"].array) {
      if (rep["engine"].string == "interp") interp = interp || rep["differs"].boolean;
      if (rep["engine"].string == "jvm") {
        jvm = jvm || rep["differs"].boolean;
        EXPECT_NE(rep["output_old"].string, rep["output_new"].string) << p["witness_call"].string;
      }
    }
    EXPECT_TRUE(interp && jvm) << "NEQ partition without a replayed difference: " << p["witness_call"].string;
    confirmed += interp && jvm;
  }
  EXPECT_GE(confirmed, 1) << r.out;
}

// The same floating-point computation in both versions: EQ under Java without a query, every EQ
// partition decided by the identical terms (issue 17's first mechanism).
TEST(JavaDefault, IdenticalFloatingPointTermsAreEqualWithoutAQuery) {
  CliRun r = runCliDefaults({"--format", "json", "--timeout", "30", "--method", "fused", oldShapes(), newShapes()});
  Json j;
  ASSERT_NO_THROW(j = JsonParser(r.out).parse()) << r.out << r.err;
  EXPECT_EQ(j["result"].string, "EQ") << r.out;
  EXPECT_EQ(j["arithmetic"].string, "java");
  int eq = 0;
  for (const Json& p : j["partitions"].array) {
    if (p["result"].string != "EQ") continue;
    ++eq;
    EXPECT_EQ(p["decided_by"].string, "identical") << p["path_condition"].string;
    EXPECT_EQ(p["neq_status"].string, "UNSAT");
  }
  EXPECT_EQ(eq, 2) << r.out;
}

// The text output names the model on the result line, also when it is the default.
TEST(JavaDefault, ResultLineNamesTheModel) {
  CliRun def = runCliDefaults({"-q", "--method", "above", oldShapes(), newShapes()});
  EXPECT_EQ(def.out, "Result: NEQ (arithmetic: java)\n") << def.err;
  CliRun math = runCliDefaults({"-q", "--arith", "math", "--method", "above", oldShapes(), newShapes()});
  EXPECT_EQ(math.out, "Result: EQ (arithmetic: math)\n") << math.err;
  CliRun help = runCliDefaults({"--help"});
  EXPECT_NE(help.out.find("--arith arg (=java)"), std::string::npos) << help.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, JavaShapes,
    ::testing::Values(Shape{"positive", "a * b > 0 overflows: 65536 * 65536 is 0 in Java"},
                      Shape{"above", "x + 3 > x is false for x near Integer.MAX_VALUE"},
                      Shape{"largest", "Math.max(a, NaN) is NaN, b > a is false for b = NaN"},
                      Shape{"cancel", "(a + b) - b rounds: a = 1, b = 1e300 gives 0"}),
    [](const ::testing::TestParamInfo<Shape>& shape) { return std::string(shape.param.method); });

}  // namespace
}  // namespace cli_test
