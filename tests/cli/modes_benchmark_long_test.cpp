// LONG: each mode (pasda, prv, ardiff, dse) on every pair of the ARDiff benchmark
// (../shared/ardiff-benchmark/cases.tsv) with --timeout 2, two processes at a time: no ERROR,
// no crash, the deadline honoured, and no false proof (EQ on a NEQ case, NEQ on an EQ case).
// One test per mode (each well under ctest's 300 s); exclude them from quick runs with -E Long.
#include <atomic>
#include <map>
#include <thread>

#include "cli/support.hpp"

namespace cli_test {
namespace {

struct Pair {
  std::string name, expected, method, old_file, new_file;
  CliRun run;
  std::string result;
};

std::string benchmarkClass(const std::string& dotted) {
  std::string p = dotted;
  for (char& c : p)
    if (c == '.') c = '/';
  return std::string(PASDA_BENCHMARK_CLASSES) + "/" + p + ".class";
}

std::vector<Pair> benchmarkPairs() {
  std::vector<Pair> pairs;
  std::ifstream tsv(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv");
  std::string line;
  std::getline(tsv, line);  // header: case expected method in_paper old_class new_class
  while (std::getline(tsv, line)) {
    std::vector<std::string> col;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) col.push_back(f);
    if (col.size() < 6) continue;
    pairs.push_back({col[0], col[1], col[2], benchmarkClass(col[4]), benchmarkClass(col[5]), {}, {}});
  }
  return pairs;
}

class AllModesBenchmarkLong : public ::testing::TestWithParam<std::string> {};

TEST_P(AllModesBenchmarkLong, NoErrorNoFalseProof) {
  const std::string mode = GetParam();
  if (!fs::exists(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv") || !fs::exists(PASDA_BENCHMARK_CLASSES))
    GTEST_SKIP() << "benchmark not available";
  std::vector<Pair> pairs = benchmarkPairs();
  ASSERT_GE(pairs.size(), 140u);
  for (const Pair& p : pairs) ASSERT_TRUE(fs::exists(p.old_file) && fs::exists(p.new_file)) << p.name;

  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < pairs.size();) {
      Pair& p = pairs[i];
      p.run = runCli({"-q", "--mode", mode, "--method", p.method, "--timeout", "2", p.old_file, p.new_file});
      p.result = resultLine(p.run);
    }
  };
  auto t0 = std::chrono::steady_clock::now();
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::map<std::string, int> counts;
  int correct = 0;
  double slowest = 0;
  std::string slowestName;
  for (const Pair& p : pairs) {
    SCOPED_TRACE(p.name);
    ++counts[p.result];
    EXPECT_NE(p.run.code, 2) << p.name << ": " << p.run.out << p.run.err;
    EXPECT_LT(p.run.code, 4) << p.name << " crashed: " << p.run.err;
    EXPECT_NE(p.result, "ERROR") << p.name << ": " << p.run.out << p.run.err;
    EXPECT_NE(p.result, "(none)") << p.name << ": " << p.run.err;
    EXPECT_LT(p.run.seconds, 7.0) << p.name << " overran --timeout 2";
    if (p.expected == "EQ") {
      EXPECT_NE(p.result, "NEQ") << "false NEQ proof on " << p.name << " (" << mode << ")";
    }
    if (p.expected == "NEQ") {
      EXPECT_NE(p.result, "EQ") << "false EQ proof on " << p.name << " (" << mode << ")";
    }
    // PRV has no best-effort classes.
    if (mode == "prv") {
      EXPECT_TRUE(p.result.rfind("MAYBE_", 0) != 0) << p.name << ": " << p.result;
    }
    correct += p.result == p.expected;
    if (p.run.seconds > slowest) {
      slowest = p.run.seconds;
      slowestName = p.name;
    }
  }
  std::string summary;
  for (const auto& [k, v] : counts) summary += " " + k + "=" + std::to_string(v);
  std::printf("[ %s ] %zu pairs in %.0f s (slowest %s %.1f s), %d correct proofs;%s\n", mode.c_str(), pairs.size(),
              wall, slowestName.c_str(), slowest, correct, summary.c_str());
}

INSTANTIATE_TEST_SUITE_P(Cli, AllModesBenchmarkLong, ::testing::Values("pasda", "prv", "ardiff", "dse"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace cli_test
