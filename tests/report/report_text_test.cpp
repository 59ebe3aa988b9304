// Text report: result line first, one table row per partition, width, verbosity levels.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "pasda/report/report.hpp"
#include "store/sample_run.hpp"

namespace pasda::report {
namespace {

using testing::sampleRun;

std::vector<std::string> textLines(const analysis::RunResult& r, int verbosity) {
  std::ostringstream out;
  printText(r, out, verbosity);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

int partitionRows(const std::vector<std::string>& lines) {
  static const std::regex row(R"(^  \d+ +(EQ|NEQ|MAYBE_EQ|MAYBE_NEQ|UNKNOWN|DEPTH_LIMITED|TIMEOUT|UNREACHABLE) .*(REACHABLE).*)");
  int n = 0;
  for (const auto& l : lines) n += std::regex_match(l, row) ? 1 : 0;
  return n;
}

TEST(ReportText, ResultLineFirstAndOneRowPerPartition) {
  const auto lines = textLines(sampleRun(), 1);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "Result: NEQ (arithmetic: java)") << "the result line names the model of the verdict";
  EXPECT_EQ(partitionRows(lines), 3);
  const std::string all = [&] {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
  }();
  EXPECT_NE(all.find("x <= 0 && s.equals(\"a\\\"b\")"), std::string::npos);
  EXPECT_NE(all.find("x = -2147483648, y = 0.3333333333333333 (exact 1/3)"), std::string::npos);
  EXPECT_NE(all.find("throw java.lang.ArithmeticException"), std::string::npos);
  EXPECT_NE(all.find("3-4, 7"), std::string::npos);
  EXPECT_NE(all.find("Iterations:"), std::string::npos);
  EXPECT_NE(all.find("symbolic-execution"), std::string::npos);
  EXPECT_NE(all.find("5.50 s"), std::string::npos);
  EXPECT_EQ(all.find('\t'), std::string::npos);
}

TEST(ReportText, QuietPrintsOnlyTheResultLine) {
  analysis::RunResult r = sampleRun();
  r.result = analysis::Verdict::NEQ;
  r.precheck = "return types differ: int vs long";
  auto lines = textLines(r, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "Result: NEQ (arithmetic: java) (pre-check: return types differ: int vs long)");
  r.precheck.clear();
  r.result = analysis::Verdict::ERROR;
  r.errors = "unsupported opcode invokedynamic\n  at line 4";
  lines = textLines(r, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "Result: ERROR (arithmetic: java) (error: unsupported opcode invokedynamic ...)");
}

TEST(ReportText, LinesStayWithin100Columns) {
  analysis::RunResult r = sampleRun();
  std::string pc;
  for (int i = 0; i < 30; ++i) pc += (i ? " && " : "") + std::string("x") + std::to_string(i) + " > " + std::to_string(i * 1000);
  r.iterations[0].partitions[0].path_condition = pc;
  for (int l = 1; l < 80; l += 2) r.iterations[0].partitions[1].lines_old.push_back(l);
  for (int verbosity : {1, 2}) {
    const auto lines = textLines(r, verbosity);
    for (const auto& l : lines) EXPECT_LE(l.size(), 100u) << "verbosity " << verbosity << ": " << l;
    EXPECT_EQ(partitionRows(lines), 3);  // iteration 2 has none
    std::string joined;
    for (const auto& l : lines) joined += l + " ";
    EXPECT_NE(joined.find("x29 > 29000"), std::string::npos);  // nothing of the pc is lost
  }
}

TEST(ReportText, VerboseAddsStatusesReplaysAndUifs) {
  const auto quiet = textLines(sampleRun(), 1);
  const auto verbose = textLines(sampleRun(), 2);
  EXPECT_GT(verbose.size(), quiet.size());
  std::string all;
  for (const auto& l : verbose) all += l + "\n";
  EXPECT_NE(all.find("pc SAT, neq SAT, eq UNSAT"), std::string::npos);
  EXPECT_NE(all.find("replay   interp: old throw java.lang.ArithmeticException, new return -1 (differ)"),
            std::string::npos);
  EXPECT_NE(all.find("UIF_1(x, y) = pc 4..17"), std::string::npos);
  EXPECT_NE(all.find("Partitions of iteration 2 (0):"), std::string::npos);
}

TEST(ReportText, RunWithoutIterations) {
  analysis::RunResult r;
  r.result = analysis::Verdict::ERROR;
  r.errors = "no method both versions declare";
  const auto lines = textLines(r, 1);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "Result: ERROR (arithmetic: math) (error: no method both versions declare)");
  EXPECT_EQ(partitionRows(lines), 0);
}

TEST(ReportFormat, CompactLineRanges) {
  EXPECT_EQ(formatLines({}), "-");
  EXPECT_EQ(formatLines({7}), "7");
  EXPECT_EQ(formatLines({3, 4, 5, 9}), "3-5, 9");
  EXPECT_EQ(formatLines({1, 3, 4, 10, 11, 12}), "1, 3-4, 10-12");
}

TEST(EffectText, EveryKind) {
  analysis::Effect e;
  EXPECT_EQ(e.text(), "none");
  e.kind = analysis::Effect::Kind::Return;
  e.value = "x + 1";
  EXPECT_EQ(e.text(), "return x + 1");
  e.kind = analysis::Effect::Kind::Throw;
  e.exception = "java.lang.ArithmeticException";
  EXPECT_EQ(e.text(), "throw java.lang.ArithmeticException");
  e.kind = analysis::Effect::Kind::Void;
  e.state = {{"this.count", "x + 1"}};
  EXPECT_EQ(e.text(), "void; this.count = x + 1");
}

}  // namespace
}  // namespace pasda::report
