// The worker processes of a release diff are expendable: a worker that crashes or stops
// answering in the middle of a method is replaced, that method is reported (ERROR / TIMEOUT
// with the reason) and every other method still gets its result. The worker is crashed and
// frozen from outside (signals to the test's own grandchild process, by its id).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pasda/report/json.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using pasda::report::Json;
using pasda::testsupport::CliRun;
using pasda::testsupport::runShell;
using pasda::testsupport::scratch;
using pasda::testsupport::shellQuote;
using pasda::testsupport::slurp;

struct Outcome {
  int code = -1;
  Json json;
  double seconds = 0;
  std::vector<std::string> left_in_tmp;  // what the diff left in its $TMPDIR
};

// Runs a release diff of the slow fixture with one worker and sends `signal` to that worker
// `delay` seconds after it started (while it analyses Slow.split, the largest method, which
// runs to its limit: --settle off, as its undecided partitions would otherwise end it early).
Outcome diffAndSignal(const std::string& signal, const std::string& delay, const std::string& methodTimeout) {
  const std::string c = std::string(PASDA_FIXTURE_CLASSES) + "/release/slow/";
  const fs::path d = scratch("workers");
  const std::string out = (d / "out.json").string(), err = (d / "err.txt").string();
  // A temporary directory of the diff's own: the workers' files must all be gone at the end,
  // those of the worker that was crashed or ended from outside too.
  const fs::path tmp = d / "tmp";
  fs::create_directories(tmp);
  const std::string script =
      "TMPDIR=" + shellQuote(tmp.string()) + " " + shellQuote(PASDA_CLI) + " " + shellQuote(c + "old") + " " +
      shellQuote(c + "new") +
      " --jobs 1 --arith java --settle off --format json --method-timeout " + methodTimeout + " > " + shellQuote(out) +
      " 2> " +
      shellQuote(err) + " & pid=$!\n"
      "w=''; for i in $(seq 200); do w=$(pgrep -P $pid | head -n 1); [ -n \"$w\" ] && break; sleep 0.05; done\n"
      "[ -n \"$w\" ] || { echo no-worker; kill $pid; exit 9; }\n"
      "sleep " + delay + "; kill -" + signal + " $w\n"
      "wait $pid; echo rc=$?\n";
  CliRun r = runShell("sh -c " + shellQuote(script));
  Outcome o;
  o.seconds = r.seconds;
  auto at = r.out.find("rc=");
  EXPECT_NE(at, std::string::npos) << r.out << r.err << slurp(err);
  if (at != std::string::npos) o.code = std::stoi(r.out.substr(at + 3));
  try {
    o.json = pasda::report::parseJson(slurp(out));
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what() << "\n" << slurp(err);
  }
  std::error_code ec;
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec))
    o.left_in_tmp.push_back(it->path().filename().string());
  fs::remove_all(d);
  return o;
}

std::map<std::string, const Json*> methods(const Json& j) {
  std::map<std::string, const Json*> m;
  if (j.contains("methods"))
    for (const Json& x : j.at("methods")) m[x.at("method").get<std::string>()] = &x;
  return m;
}

TEST(ReleaseWorkers, ACrashLosesOnlyItsMethod) {
  Outcome o = diffAndSignal("SEGV", "1", "20");
  auto m = methods(o.json);
  ASSERT_EQ(m.count("split"), 1u);
  ASSERT_EQ(m.count("quick"), 1u);
  EXPECT_EQ(m["split"]->at("result").get<std::string>(), "ERROR");
  EXPECT_NE(m["split"]->at("note").get<std::string>().find("crashed"), std::string::npos) << m["split"]->dump();
  EXPECT_TRUE(m["split"]->at("run").is_null());
  // The method after it ran in a fresh worker and was decided.
  EXPECT_EQ(m["quick"]->at("result").get<std::string>(), "NEQ");
  EXPECT_EQ(o.code, 1);
  EXPECT_LT(o.seconds, 15) << "the crash was not noticed at once";
  EXPECT_TRUE(o.left_in_tmp.empty()) << o.left_in_tmp.front();
}

TEST(ReleaseWorkers, AWorkerThatStopsAnsweringIsEndedAfterItsLimit) {
  // Frozen at once: the analysis can never return, as with a solver call that ignores its limit.
  Outcome o = diffAndSignal("STOP", "0.3", "2");
  auto m = methods(o.json);
  ASSERT_EQ(m.count("split"), 1u);
  EXPECT_EQ(m["split"]->at("result").get<std::string>(), "TIMEOUT");
  EXPECT_NE(m["split"]->at("note").get<std::string>().find("did not stop at its deadline"), std::string::npos)
      << m["split"]->dump();
  EXPECT_EQ(m["quick"]->at("result").get<std::string>(), "NEQ");
  EXPECT_EQ(o.code, 1);
  // Ended after the method's limit and the margin (2 * 1.1 + 0.7 + 5 s), not later.
  EXPECT_LT(o.seconds, 20);
  EXPECT_TRUE(o.left_in_tmp.empty()) << o.left_in_tmp.front();
}

TEST(ReleaseWorkers, TheDiffsOwnTimeoutDecidesTheSmallestFirstAndLeavesTheRestUnstarted) {
  // Three changed methods: quick (tiny), mid and big (factoring chains that run to their
  // limit). Under the diff's own --timeout the smallest come first: quick is decided, mid takes
  // the rest of the diff's time (its own limit cut to what was left), and big, the largest,
  // never starts. (Largest first, quick would never have started.)
  const std::string c = std::string(PASDA_FIXTURE_CLASSES) + "/release/deadline/";
  CliRun r = pasda::testsupport::runCli({c + "old", c + "new", "--jobs", "1", "--arith", "java", "--format", "json",
                                         "--timeout", "3", "--method-timeout", "30", "--settle", "off"});
  const Json j = pasda::report::parseJson(r.out);
  auto m = methods(j);
  ASSERT_EQ(m.count("quick"), 1u) << r.out << r.err;
  ASSERT_EQ(m.count("mid"), 1u);
  ASSERT_EQ(m.count("big"), 1u);
  EXPECT_EQ(m["quick"]->at("result").get<std::string>(), "NEQ") << m["quick"]->dump();
  EXPECT_NE(m["mid"]->at("result").get<std::string>(), "EQ") << m["mid"]->dump();
  EXPECT_EQ(m["big"]->at("result").get<std::string>(), "TIMEOUT") << m["big"]->dump();
  EXPECT_NE(m["big"]->at("note").get<std::string>().find("--timeout"), std::string::npos) << m["big"]->dump();
  EXPECT_EQ(r.code, 1);
  EXPECT_LT(r.seconds, 12);
}

}  // namespace
