// JUnit emission for real: the emitted test is compiled with javac against the old class and
// run with the JUnit console launcher on the old class (passes) and on the new class (fails).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pasda/report/junit.hpp"
#include "witness/support.hpp"

namespace wtest {
namespace {

using pasda::analysis::PartitionResult;
using pasda::analysis::RunResult;
using pasda::analysis::Verdict;

const char* kJunitDir = "/usr/share/java";

std::string javaBin(const std::string& tool) {
  fs::path java(PASDA_JAVA);
  fs::path p = java.parent_path() / tool;
  return fs::exists(p) ? p.string() : tool;
}

int run(const std::string& cmd, std::string* out = nullptr) {
  std::string text;
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
  int status = ::pclose(f);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

PartitionResult neqPartition(int index, const std::vector<std::pair<std::string, std::string>>& args,
                             const pasda::analysis::Replay& replay) {
  PartitionResult p;
  p.index = index;
  p.path_condition = "a > 100";
  p.result = Verdict::NEQ;
  for (const auto& [type, lit] : args) p.witness.push_back({"p", type, lit, ""});
  p.replays.push_back(replay);
  p.decided_by = "replay";
  return p;
}

class JUnitEmission : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* jar : {"junit-jupiter-api.jar", "junit-platform-console-standalone.jar", "apiguardian.jar",
                            "opentest4j.jar"})
      if (std::string(jar).find("junit") != std::string::npos && !fs::exists(fs::path(kJunitDir) / jar))
        GTEST_SKIP() << "JUnit 5 (Debian junit5) not installed: " << jar;
  }

  // Compile `src` against the old classes; run it against `root`. Returns the launcher's status.
  int compileAndRun(const fs::path& work, const std::string& src, const std::string& root, std::string& log) {
    fs::path out = work / "test-classes";
    fs::create_directories(out);
    std::string api = std::string(kJunitDir) + "/junit-jupiter-api.jar";
    for (const char* extra : {"apiguardian.jar", "opentest4j.jar", "junit-platform-commons.jar"}) {
      fs::path p = fs::path(kJunitDir) / extra;
      if (fs::exists(p)) api += ":" + p.string();
    }
    std::string compile = javaBin("javac") + " -d " + out.string() + " -cp " + oldRoot_ + ":" + api + " " + src;
    EXPECT_EQ(run(compile, &log), 0) << log;
    std::string launch = std::string(PASDA_JAVA) + " -jar " + kJunitDir +
                         "/junit-platform-console-standalone.jar --disable-banner --details=summary -cp " + out.string() +
                         ":" + root + " --select-class " + testClass_;
    return run(launch, &log);
  }

  std::string oldRoot_, testClass_;
};

TEST_F(JUnitEmission, PassesOnOldAndFailsOnNew) {
  Pair div("witness/mixed", "fixtures/witness/mixed/Mixed", "div", "(II)I");
  Pair calc("witness/mixed", "fixtures/witness/mixed/Mixed", "calc", "(DI)D");
  oldRoot_ = div.oldRoot();
  TempDir work("junit");

  // Replays from the real JVM for the witnesses of two methods.
  auto rDiv = div.jvm(work.path / "replay-div", {{I(101), I(0)}, {I(101), I(-1)}, {I(150), I(4)}});
  ASSERT_TRUE(rDiv.has_value());
  ASSERT_TRUE((*rDiv)[0].differs && (*rDiv)[1].differs && (*rDiv)[2].differs);
  RunResult run;
  run.iterations.emplace_back();
  run.iterations[0].partitions.push_back(neqPartition(1, {{"int", "101"}, {"int", "0"}}, (*rDiv)[0]));   // old throws
  run.iterations[0].partitions.push_back(neqPartition(2, {{"int", "101"}, {"int", "-1"}}, (*rDiv)[1]));  // new throws
  run.iterations[0].partitions.push_back(neqPartition(3, {{"int", "150"}, {"int", "4"}}, (*rDiv)[2]));   // values
  // A MAYBE_NEQ and a NEQ without a differing replay are not pinned down.
  PartitionResult maybe = neqPartition(4, {{"int", "1"}, {"int", "1"}}, (*rDiv)[0]);
  maybe.result = Verdict::MAYBE_NEQ;
  run.iterations[0].partitions.push_back(maybe);
  PartitionResult noReplay = neqPartition(5, {{"int", "2"}, {"int", "2"}}, {});
  noReplay.replays.clear();
  run.iterations[0].partitions.push_back(noReplay);

  auto files = pasda::report::emitJUnit(run, "fixtures.witness.mixed.Mixed", "div", "(II)I", work.path.string());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string src = ss.str();
  EXPECT_NE(src.find("package fixtures.witness.mixed;"), std::string::npos);
  EXPECT_NE(src.find("Mixed.div(101, 0)"), std::string::npos);
  EXPECT_EQ(src.find("Mixed.div(1, 1)"), std::string::npos) << "MAYBE_NEQ is not a confirmed witness";
  EXPECT_EQ(src.find("Mixed.div(2, 2)"), std::string::npos) << "no replay evidence";
  EXPECT_NE(src.find("java.lang.ArithmeticException"), std::string::npos);
  testClass_ = "fixtures.witness.mixed.Mixed_div_RegressionTest";

  std::string log;
  EXPECT_EQ(compileAndRun(work.path, files[0], div.oldRoot(), log), 0) << "passes on the old class\n" << log;
  EXPECT_NE(log.find("3 tests successful"), std::string::npos) << log;
  EXPECT_EQ(compileAndRun(work.path, files[0], div.newRoot(), log), 1) << "fails on the new class\n" << log;
  EXPECT_NE(log.find("3 tests failed"), std::string::npos) << log;

  // A double-valued method: exact bits, and an exception-type change.
  auto rCalc = calc.jvm(work.path / "replay-calc", {{D(3.25), I(1)}, {D(1.0), I(0)}});
  ASSERT_TRUE(rCalc.has_value());
  RunResult run2;
  run2.iterations.emplace_back();
  run2.iterations[0].partitions.push_back(neqPartition(1, {{"double", "3.25"}, {"int", "1"}}, (*rCalc)[0]));
  run2.iterations[0].partitions.push_back(neqPartition(2, {{"double", "1.0"}, {"int", "0"}}, (*rCalc)[1]));
  fs::path dir2 = work.path / "calc";
  auto files2 = pasda::report::emitJUnit(run2, "fixtures/witness/mixed/Mixed", "calc", "(DI)D", dir2.string());
  ASSERT_EQ(files2.size(), 1u);
  testClass_ = "fixtures.witness.mixed.Mixed_calc_RegressionTest";
  fs::remove_all(work.path / "test-classes");
  EXPECT_EQ(compileAndRun(work.path, files2[0], calc.oldRoot(), log), 0) << log;
  EXPECT_NE(log.find("2 tests successful"), std::string::npos) << log;
  EXPECT_EQ(compileAndRun(work.path, files2[0], calc.newRoot(), log), 1) << log;
  EXPECT_NE(log.find("2 tests failed"), std::string::npos) << log;
}

TEST(JUnitEmit, NothingToPinWritesNoFile) {
  TempDir work("junit-none");
  RunResult run;
  run.iterations.emplace_back();
  EXPECT_TRUE(pasda::report::emitJUnit(run, "a.B", "m", "(I)I", work.path.string()).empty());
  EXPECT_TRUE(pasda::report::emitJUnit(run, "a.B", "m", "not a descriptor", work.path.string()).empty());
}

TEST(JUnitEmit, WitnessesWithAReceiverOrStaticsOrObjectsAreNotPinned) {
  // Their inputs are built by reflection in the JVM replay; a test would need the same code.
  TempDir work("junit-objects");
  pasda::analysis::Replay rep;
  rep.engine = "jvm";
  rep.differs = true;
  rep.old_out = "1";
  rep.new_out = "2";
  RunResult run;
  run.iterations.emplace_back();
  auto add = [&](const std::string& call, const std::string& lit) {
    PartitionResult p = neqPartition(static_cast<int>(run.iterations[0].partitions.size()) + 1, {{"int", lit}}, rep);
    p.witness_call = call;
    run.iterations[0].partitions.push_back(p);
  };
  add("B{n = 1}.m(3)", "3");
  add("m(3) with static{count = 2}", "3");
  add("m(B{n = 1})", "B{n = 1}");
  EXPECT_TRUE(pasda::report::emitJUnit(run, "a.B", "m", "(I)I", work.path.string()).empty());
  add("m(3)", "3");  // the one pasteable call
  auto files = pasda::report::emitJUnit(run, "a.B", "m", "(I)I", work.path.string());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  std::stringstream text;
  text << in.rdbuf();
  const std::string src = text.str();
  EXPECT_NE(src.find("assertEquals(1, a.B.m(3));"), std::string::npos) << src;
  EXPECT_EQ(src.find("n = 1"), std::string::npos) << src;
}

}  // namespace
}  // namespace wtest
