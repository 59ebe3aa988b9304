// pasda-jvm end to end: every program-level class reached by a fixture, with its exit code;
// the paper's two listings; JSON keys; the SQLite store; the signature pre-check.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "e2e/cli_support.hpp"
#include "pasda/jvm/loader.hpp"
#include "pasda/store/store.hpp"
#include "pasda/symexec/concrete.hpp"
#include "report/json_check.hpp"

namespace e2e {
namespace {

using pasda::testing::Json;
using pasda::testing::JsonParser;

struct ClassCase {
  const char* name;
  std::string old_file, new_file;
  std::vector<std::string> options;
  const char* result;
  int exit_code;
};

std::vector<ClassCase> classCases() {
  return {
      {"EQ", cliClass("eqmax", "old", "MaxSum"), cliClass("eqmax", "new", "MaxSum"), {}, "EQ", 0},
      {"NEQ", e2eClass("divzero", "old", "Div"), e2eClass("divzero", "new", "Div"), {}, "NEQ", 1},
      // The paper's Listing 1 at its one depth limit (deepening would spend the whole timeout).
      {"MAYBE_EQ", e2eClass("listing1", "old", "Listing1"), e2eClass("listing1", "new", "Listing1"),
       {"--deepen", "off"}, "MAYBE_EQ", 3},
      // sin is an inexact function symbol: the outputs may differ, the solver cannot be sure.
      {"MAYBE_NEQ", cliClass("sinneq", "old", "Wave"), cliClass("sinneq", "new", "Wave"), {"--replay", "off"},
       "MAYBE_NEQ", 3},
      // With witness replay and search (the default), the same pair is proven NEQ.
      {"NEQ_BY_REPLAY", cliClass("sinneq", "old", "Wave"), cliClass("sinneq", "new", "Wave"), {}, "NEQ", 1},
      // Float64 associativity (bit-blasted IEEE multiplications, seconds for Z3) under a 1 ms
      // query limit: the Neq and Eq queries both give up, on any machine.
      {"UNKNOWN", cliClass("modmul", "old", "Mod"), cliClass("modmul", "new", "Mod"),
       {"--arith", "java", "--math-first", "no", "--solver-timeout", "1", "--replay", "off"}, "UNKNOWN", 3},
      // Every path needs a loop decision; with no budget (and no deepening) all partitions are
      // cut. (Induction off: `s += 2` against `s++; return 2 * s` is EQ by induction, with
      // s(old) == 2 * s(new) from Karr's analysis — tests/cli/induction_test.cpp.)
      {"DEPTH_LIMITED", cliClass("loops", "old", "Sum"), cliClass("loops", "new", "Sum"),
       {"--depth-limit", "0", "--deepen", "off", "--induction", "off"},
       "DEPTH_LIMITED", 3},
      // Every path must decide twelve branches that each mean factoring a 60-bit semiprime
      // (each query ends "unknown" at its limit): no partition finishes within 1 s.
      {"TIMEOUT", cliClass("factor", "old", "Factor"), cliClass("factor", "new", "Factor"),
       {"--arith", "java", "--timeout", "1"}, "TIMEOUT", 3},
  };
}

class ProgramClass : public ::testing::TestWithParam<ClassCase> {};

TEST_P(ProgramClass, ResultLineAndExitCode) {
  const ClassCase& c = GetParam();
  std::vector<std::string> args = {"-q"};
  args.insert(args.end(), c.options.begin(), c.options.end());
  args.push_back(c.old_file);
  args.push_back(c.new_file);
  CliRun r = runCli(args);
  EXPECT_EQ(r.code, c.exit_code) << r.out << r.err;
  ASSERT_FALSE(r.out.empty()) << r.err;
  // The result line names the arithmetic model of the verdict (math unless the case chose java).
  const bool java = std::find(c.options.begin(), c.options.end(), std::string("java")) != c.options.end();
  // A result established otherwise than by the solver's proof names its mechanism.
  const std::string by = std::string(c.name) == "NEQ_BY_REPLAY" ? " (decided by: replay)" : "";
  EXPECT_EQ(lines(r.out).at(0),
            std::string("Result: ") + c.result + " (arithmetic: " + (java ? "java" : "math") + ")" + by)
      << r.out;
  if (std::string(c.name) == "TIMEOUT") {
    EXPECT_LT(r.seconds, 3.5) << "the run overran --timeout 1";
  }
}

TEST_P(ProgramClass, JsonAgreesWithText) {
  const ClassCase& c = GetParam();
  std::vector<std::string> args = {"--format", "json"};
  args.insert(args.end(), c.options.begin(), c.options.end());
  args.push_back(c.old_file);
  args.push_back(c.new_file);
  CliRun r = runCli(args);
  EXPECT_EQ(r.code, c.exit_code);
  Json j = JsonParser(r.out).parse();
  EXPECT_EQ(j["result"].string, c.result);
  {
    const bool java = std::find(c.options.begin(), c.options.end(), std::string("java")) != c.options.end();
    EXPECT_EQ(j["arithmetic"].string, java ? "java" : "math");
  }
  ASSERT_EQ(j["partitions"].type, Json::Type::Array);
  ASSERT_EQ(j["iterations"].type, Json::Type::Array);
  EXPECT_GE(j["iterations"].array.size(), 1u);
  EXPECT_EQ(j["runtime_s"].type, Json::Type::Number);
  for (const Json& p : j["partitions"].array) {
    EXPECT_EQ(p["result"].type, Json::Type::String);
    EXPECT_EQ(p["path_condition"].type, Json::Type::String);
    ASSERT_NE(p.find("witness"), nullptr);
    if (p["result"].string == "NEQ" || p["result"].string == "MAYBE_NEQ") {
      EXPECT_FALSE(p["witness"].object.empty()) << "a " << p["result"].string << " partition without a witness";
    }
  }
  if (std::string(c.name) == "TIMEOUT") {
    EXPECT_TRUE(j["partitions"].array.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ProgramClass, ::testing::ValuesIn(classCases()),
                         [](const ::testing::TestParamInfo<ClassCase>& i) { return std::string(i.param.name); });

TEST(Listings, Listing1IsMaybeEqAtDepthTen) {
  CliRun r = runCli({"--format", "json", "--depth-limit", "10", "--deepen", "off",
                     e2eClass("listing1", "old", "Listing1"), e2eClass("listing1", "new", "Listing1")});
  ASSERT_EQ(r.code, 3) << r.err;
  Json j = JsonParser(r.out).parse();
  EXPECT_EQ(j["result"].string, "MAYBE_EQ");
  int eq = 0, limited = 0;
  for (const Json& p : j["partitions"].array) {
    const std::string& res = p["result"].string;
    EXPECT_TRUE(res == "EQ" || res == "DEPTH_LIMITED") << res << " for " << p["path_condition"].string;
    eq += res == "EQ";
    limited += res == "DEPTH_LIMITED";
  }
  EXPECT_GE(eq, 2);  // x <= 0 and small positive x are proven
  EXPECT_GE(limited, 1);
  EXPECT_EQ(j["settings"]["depth_limit"].number, 10);
}

// Parse a witness literal as printed for a Java call.
pasda::terms::Term parseLiteral(pasda::terms::TermManager& tm, const std::string& type, std::string lit) {
  if (type == "int" || type == "short" || type == "byte" || type == "char" || type == "boolean") {
    if (lit == "true") return tm.intLit(1);
    if (lit == "false") return tm.intLit(0);
    return tm.intLit(static_cast<std::int32_t>(std::stol(lit)));
  }
  if (!lit.empty() && (lit.back() == 'L' || lit.back() == 'd' || lit.back() == 'D' || lit.back() == 'f' || lit.back() == 'F'))
    lit.pop_back();
  if (type == "long") return tm.longLit(std::stoll(lit));
  double v;
  if (lit.find("NaN") != std::string::npos) v = std::nan("");
  else if (lit.find("NEGATIVE_INFINITY") != std::string::npos) v = -INFINITY;
  else if (lit.find("POSITIVE_INFINITY") != std::string::npos) v = INFINITY;
  else v = std::stod(lit);
  return type == "float" ? tm.floatLit(static_cast<float>(v)) : tm.doubleLit(v);
}

/// Run a version's method concretely (Java semantics) on the witness; render the effect.
std::string replay(const std::string& classFile, const std::string& internalName, const std::string& method,
                   const std::string& desc, const Json& witness) {
  pasda::terms::TermManager tm(pasda::terms::Arith::Java);
  pasda::symexec::Program program;
  std::string root = classFile.substr(0, classFile.size() - internalName.size() - 6);
  program.setClassPath(pasda::symexec::kOld, std::make_shared<pasda::jvm::ClassPath>(pasda::jvm::ClassPath::parse(root)));
  const auto* cls = program.find(pasda::symexec::kOld, internalName);
  if (!cls) return "no class";
  const auto* m = cls->method(method, desc);
  if (!m) return "no method";
  std::vector<pasda::terms::Term> args;
  for (const Json& w : witness.array) args.push_back(parseLiteral(tm, w["type"].string, w["literal"].string));
  pasda::symexec::ConcreteRun run = pasda::symexec::runConcrete(program, tm, *m, args, {});
  if (!run.completed) return "incomplete: " + run.error;
  const auto& e = run.partition.entry;
  if (e.kind == pasda::symexec::ExecEffect::Kind::Throw) return "throw " + e.exception;
  // Raw bits: Double.equals semantics.
  return "return " + std::to_string(tm.node(e.value).bits) + " (" + tm.toString(e.value) + ")";
}

TEST(Listings, Listing2IsNeqWithAWitnessThatReallyDiffers) {
  const std::string oldF = e2eClass("listing2", "old", "Listing2"), newF = e2eClass("listing2", "new", "Listing2");
  CliRun r = runCli({"--format", "json", oldF, newF});
  ASSERT_EQ(r.code, 1) << r.err;
  Json j = JsonParser(r.out).parse();
  EXPECT_EQ(j["result"].string, "NEQ");
  int neq = 0;
  for (const Json& p : j["partitions"].array) {
    if (p["result"].string != "NEQ") continue;
    ++neq;
    const Json& w = p["witness_values"];
    ASSERT_EQ(w.array.size(), 2u);
    std::string o = replay(oldF, "fixtures/listing2/Listing2", "scale", "(DI)D", w);
    std::string n = replay(newF, "fixtures/listing2/Listing2", "scale", "(DI)D", w);
    EXPECT_EQ(o.rfind("return", 0), 0u) << o;
    EXPECT_NE(o, n) << "the witness " << p["witness_call"].string << " does not separate the versions";
    // The witness is a boundary input: n == 10.
    EXPECT_EQ(p["witness"]["n"].string, "10");
  }
  EXPECT_EQ(neq, 1);
}

TEST(Store, DbAppendsOneRunPerInvocation) {
  fs::path d = scratch("db");
  std::string db = (d / "results.sqlite").string();
  for (int i = 0; i < 2; ++i) {
    CliRun r = runCli({"-q", "--db", db, e2eClass("listing2", "old", "Listing2"), e2eClass("listing2", "new", "Listing2")});
    ASSERT_EQ(r.code, 1) << r.err;
  }
  pasda::store::Store st(db);
  EXPECT_EQ(st.countRows("run"), 2);
  EXPECT_EQ(st.countRows("partition"), 6);  // three partitions per run
  EXPECT_GE(st.countRows("witness"), 2);
  fs::remove_all(d);
}

TEST(PreCheck, DifferentParameterTypesAreNeqWithTheReason) {
  CliRun r = runCli({"--method", "f", cliClass("sig", "old", "Sig"), cliClass("sig", "new", "Sig")});
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string first = lines(r.out).at(0);
  EXPECT_EQ(first.rfind("Result: NEQ", 0), 0u) << first;
  EXPECT_NE(first.find("(I)I"), std::string::npos) << r.out;  // the reason names both signatures
  EXPECT_NE(first.find("(J)I"), std::string::npos) << r.out;
  CliRun j = runCli({"--format", "json", "--method", "f", cliClass("sig", "old", "Sig"), cliClass("sig", "new", "Sig")});
  Json js = JsonParser(j.out).parse();
  EXPECT_EQ(js["result"].string, "NEQ");
  EXPECT_EQ(js["precheck"].type, Json::Type::String);
  EXPECT_NE(js["precheck"].string.find("differ"), std::string::npos) << js["precheck"].string;
}

}  // namespace
}  // namespace e2e
