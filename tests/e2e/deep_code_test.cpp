// Generated extreme methods through the whole pipeline (issue 16): long straight-line code
// (5,000 statements), 200-deep nesting of ifs and blocks, a 1,000-case switch, a 1,000-deep
// expression and a chain of 1,000 calls; each as an old/new pair that differs in one constant
// and as a pair of equal versions. All sources are compiled in one JVM at test time
// (tests/tools/BatchCompile.java), every pair runs through pasda-jvm in both arithmetic models,
// and each run must end with a verdict or one clean error line, never a signal, within a wall
// time bound relative to --timeout, and never with a false proof.
// The issue's own reproducer (2,000 statements, SIGSEGV in the witness stage) is a quick test;
// the generator is Long (GeneratedExtremeMethodsLong).
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "e2e/cli_support.hpp"

namespace e2e {
namespace {

struct Generated {
  std::string name;  // folder and class name
  bool differs;      // the new version differs in one constant
  std::function<std::string(const std::string& cls, bool isNew)> source;
};

// r = r * 31 + x + k, `n` times; the new version changes the constant of statement `n / 2`
// (or returns r + 1 when `retPlusOne`, the issue's shape).
std::string straightLine(const std::string& cls, int n, bool isNew, bool retPlusOne) {
  std::string s = "public class " + cls + " {\n  public static int m(int x) {\n    int r = 0;\n";
  for (int k = 0; k < n; ++k) {
    int c = (isNew && !retPlusOne && k == n / 2) ? k + 1 : k;
    s += "    r = r * 31 + x + " + std::to_string(c) + ";\n";
  }
  s += std::string("    return ") + (isNew && retPlusOne ? "r + 1" : "r") + ";\n  }\n}\n";
  return s;
}

// `depth` nested ifs, each opening a block with a local of its own; the innermost block adds a
// constant that the new version changes.
std::string nested(const std::string& cls, int depth, bool isNew) {
  std::string s = "public class " + cls + " {\n  public static int m(int x, int y) {\n    int r = 0;\n";
  for (int k = 0; k < depth; ++k) {
    std::string ind(static_cast<std::size_t>(4 + (k % 40)), ' ');
    s += ind + "if (x > " + std::to_string(k) + " - y) { int v" + std::to_string(k) + " = r + " + std::to_string(k) +
         "; { r = v" + std::to_string(k) + " * 3 + y;\n";
  }
  s += "    r += " + std::string(isNew ? "2" : "1") + ";\n";
  for (int k = depth; k-- > 0;) s += "    } }\n";
  s += "    return r;\n  }\n}\n";
  return s;
}

// A switch over `cases` values; the new version changes the constant of the middle case.
std::string wideSwitch(const std::string& cls, int cases, bool isNew) {
  std::string s = "public class " + cls + " {\n  public static int m(int x) {\n    int r;\n    switch (x) {\n";
  for (int k = 0; k < cases; ++k) {
    int c = k * 7 + ((isNew && k == cases / 2) ? 1 : 0);
    s += "      case " + std::to_string(k * 3) + ": r = x * " + std::to_string(c) + " + 1; break;\n";
  }
  s += "      default: r = -x;\n    }\n    return r;\n  }\n}\n";
  return s;
}

// One expression nested `depth` deep: ((x * 3 + 0) * 3 + 1) ..., the new version adds 1.
std::string deepExpression(const std::string& cls, int depth, bool isNew) {
  std::string e = "x";
  for (int k = 0; k < depth; ++k) e = "(" + e + " * 3 + " + std::to_string(k) + ")";
  return "public class " + cls + " {\n  public static int m(int x) {\n    return " + e + (isNew ? " + 1" : "") +
         ";\n  }\n}\n";
}

// A chain of `n` static methods, each calling the next; the last one's constant differs.
std::string callChain(const std::string& cls, int n, bool isNew) {
  std::string s = "public class " + cls + " {\n";
  for (int k = 0; k < n; ++k) {
    std::string body = k + 1 < n ? "m" + std::to_string(k + 1) + "(x) + " + std::to_string(k % 7)
                                 : std::string("x * 5 + ") + (isNew ? "2" : "1");
    s += "  static int m" + std::to_string(k) + "(int x) { return " + body + "; }\n";
  }
  s += "  public static int m(int x) { return m0(x); }\n}\n";
  return s;
}

// Writes every pair under `src/<name>/{old,new}/<Name>.java` and compiles them all in one JVM.
void writeAndCompile(const std::vector<Generated>& gens, const fs::path& src, const fs::path& out) {
  for (const Generated& g : gens) {
    for (bool isNew : {false, true}) {
      fs::path dir = src / g.name / (isNew ? "new" : "old");
      fs::create_directories(dir);
      std::ofstream(dir / (g.name + ".java")) << g.source(g.name, isNew);
    }
  }
  // javac itself recurses over nested expressions: give it a large stack.
  CliRun c = runShell(quote(PASDA_JAVA) + " -Xss256m " + quote(std::string(PASDA_SOURCE_DIR) + "/tests/tools/BatchCompile.java") +
                      " --tree " + quote(src.string()) + " " + quote(out.string()));
  ASSERT_EQ(c.code, 0) << "javac failed:\n" << c.err;
}

std::string classFile(const fs::path& out, const Generated& g, bool isNew) {
  return (out / g.name / (isNew ? "new" : "old") / (g.name + ".class")).string();
}

// The run ended as promised: a verdict (first line "Result: X", exit 0/1/3) or exactly one error
// line (exit 2), no signal, within the bound; and no false proof.
void expectCleanEnd(const Generated& g, const std::string& arith, const CliRun& r, double bound) {
  SCOPED_TRACE(g.name + " --arith " + arith);
  ASSERT_LT(r.code, 128) << "killed by signal " << (r.code - 128) << "\nstderr: " << r.err;
  EXPECT_LE(r.seconds, bound);
  if (r.code == 2) {
    std::vector<std::string> e = lines(r.err);
    ASSERT_EQ(e.size(), 1u) << r.err;
    EXPECT_EQ(e[0].rfind("pasda-jvm: error: ", 0), 0u) << e[0];
    return;
  }
  std::vector<std::string> o = lines(r.out);
  ASSERT_FALSE(o.empty()) << "no output; stderr: " << r.err;
  ASSERT_EQ(o[0].rfind("Result: ", 0), 0u) << o[0];
  std::string verdict = o[0].substr(8, o[0].find(' ', 8) - 8);  // "Result: NEQ (arithmetic: java)"
  EXPECT_NE(o[0].find(" (arithmetic: " + arith + ")"), std::string::npos) << o[0];
  int expectedCode = verdict == "EQ" ? 0 : verdict == "NEQ" ? 1 : verdict == "ERROR" ? 2 : 3;
  EXPECT_EQ(r.code, expectedCode) << verdict;
  if (g.differs) EXPECT_NE(verdict, "EQ") << "false EQ";
  else EXPECT_NE(verdict, "NEQ") << "false NEQ";
  std::printf("[ deep code ] %-14s %-4s %-13s %5.1f s\n", g.name.c_str(), arith.c_str(), verdict.c_str(), r.seconds);
}

TEST(DeepCode, IssueReproducer2000StatementsIsNeqInBothModels) {
  // Issue 16, item 1: SIGSEGV in the witness stage's high-precision evaluator.
  Generated g{"Straight2000", true, [](const std::string& c, bool n) { return straightLine(c, 2000, n, true); }};
  fs::path dir = scratch("deep2000");
  writeAndCompile({g}, dir / "src", dir / "classes");
  for (const std::string arith : {"math", "java"}) {
    CliRun r = runCli({"-q", "--arith", arith, "--timeout", "30", classFile(dir / "classes", g, false),
                       classFile(dir / "classes", g, true)});
    expectCleanEnd(g, arith, r, 40);
    EXPECT_EQ(r.code, 1) << arith << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.rfind("Result: NEQ", 0), 0u) << arith << ": " << r.out;
  }
  fs::remove_all(dir);
}

TEST(DeepCode, GeneratedExtremeMethodsLong) {
  const int timeout = 5;
  const double bound = 1.5 * timeout + 3;
  std::vector<Generated> gens;
  for (bool differs : {true, false}) {
    std::string tag = differs ? "Neq" : "Eq";
    gens.push_back({"Straight" + tag, differs, [differs](const std::string& c, bool n) {
                      return straightLine(c, 5000, n && differs, false);
                    }});
    gens.push_back({"Nested" + tag, differs, [differs](const std::string& c, bool n) { return nested(c, 200, n && differs); }});
    gens.push_back({"Switch" + tag, differs, [differs](const std::string& c, bool n) {
                      return wideSwitch(c, 1000, n && differs);
                    }});
    gens.push_back({"Expr" + tag, differs, [differs](const std::string& c, bool n) {
                      return deepExpression(c, 1000, n && differs);
                    }});
    gens.push_back({"Calls" + tag, differs, [differs](const std::string& c, bool n) { return callChain(c, 1000, n && differs); }});
  }
  fs::path dir = scratch("deepgen");
  writeAndCompile(gens, dir / "src", dir / "classes");
  struct Job {
    const Generated* g;
    std::string arith;
    CliRun run;
  };
  std::vector<Job> jobs;
  for (const Generated& g : gens)
    for (const char* arith : {"math", "java"}) jobs.push_back({&g, arith, {}});
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      Job& j = jobs[i];
      j.run = runCli({"-q", "--arith", j.arith, "--timeout", std::to_string(timeout),
                      classFile(dir / "classes", *j.g, false), classFile(dir / "classes", *j.g, true)});
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  for (const Job& j : jobs) expectCleanEnd(*j.g, j.arith, j.run, bound);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace e2e
