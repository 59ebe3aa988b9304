// LONG: every benchmark pair of ../shared/ardiff-benchmark/cases.tsv through
// `pasda-jvm --method snippet --timeout 5`, two at a time. Asserts no ERROR, no crash, the
// deadline honoured, and no false proof (EQ on a NEQ case or NEQ on an EQ case).
// Run it alone with: ctest -R BenchmarkPairsLong (excluded from quick runs with -E Long).
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "e2e/cli_support.hpp"

namespace e2e {
namespace {

struct Pair {
  std::string name, expected, method, old_file, new_file;
  CliRun run;
  std::string result;
  bool model_named = false;  // the result line says "(arithmetic: math)"
};

std::string classFile(const std::string& dotted) {
  std::string p = dotted;
  for (char& c : p)
    if (c == '.') c = '/';
  return std::string(PASDA_BENCHMARK_CLASSES) + "/" + p + ".class";
}

TEST(E2e, BenchmarkPairsLong) {
  std::ifstream tsv(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv");
  if (!tsv || !fs::exists(PASDA_BENCHMARK_CLASSES)) GTEST_SKIP() << "benchmark not available";
  std::vector<Pair> pairs;
  std::string line;
  std::getline(tsv, line);
  while (std::getline(tsv, line)) {
    std::vector<std::string> col;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) col.push_back(f);
    if (col.size() < 6) continue;
    pairs.push_back({col[0], col[1], col[2], classFile(col[4]), classFile(col[5]), {}, {}});
  }
  ASSERT_GE(pairs.size(), 140u);

  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < pairs.size();) {
      Pair& p = pairs[i];
      p.run = runCli({"-q", "--method", p.method, "--timeout", "5", p.old_file, p.new_file});
      std::vector<std::string> l = lines(p.run.out);
      p.result = !l.empty() && l[0].rfind("Result: ", 0) == 0 ? l[0].substr(8, l[0].find(' ', 8) - 8) : "(none)";
      p.model_named = !l.empty() && l[0].find(" (arithmetic: math)") != std::string::npos;
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();

  std::map<std::string, int> counts;
  int correctProofs = 0;
  for (const Pair& p : pairs) {
    SCOPED_TRACE(p.name);
    ++counts[p.result];
    EXPECT_NE(p.run.code, 2) << p.name << ": " << p.run.out << p.run.err;
    EXPECT_NE(p.result, "ERROR") << p.name << ": " << p.run.out << p.run.err;
    EXPECT_NE(p.result, "(none)") << p.name << ": " << p.run.err;
    EXPECT_TRUE(p.result == "(none)" || p.model_named) << p.name << ": " << p.run.out;
    EXPECT_LT(p.run.seconds, 12.0) << p.name << " overran --timeout 5";
    if (p.expected == "EQ") {
      EXPECT_NE(p.result, "NEQ") << "false NEQ proof on " << p.name;
    }
    if (p.expected == "NEQ") {
      EXPECT_NE(p.result, "EQ") << "false EQ proof on " << p.name;
    }
    correctProofs += p.result == p.expected;
  }
  std::string summary;
  for (const auto& [k, v] : counts) summary += " " + k + "=" + std::to_string(v);
  std::printf("[ benchmark ] %zu pairs, %d correct proofs;%s\n", pairs.size(), correctProofs, summary.c_str());
}

}  // namespace
}  // namespace e2e
