// The release diff end to end: two small multi-class jars built here from the fixtures of
// tests/fixtures/release/lib (one method of every category), diffed by the built pasda-jvm:
// categories, verdicts, signature changes, exit statuses, JSON, the database, JUnit tests, the
// HTML report read back from a real headless browser's DOM, sharding (merge-db and --merge
// against the unsharded run), and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "pasda/report/json.hpp"
#include "pasda/store/store.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using pasda::report::Json;
using pasda::testsupport::CliRun;
using pasda::testsupport::runCli;
using pasda::testsupport::runShell;
using pasda::testsupport::scratch;
using pasda::testsupport::shellQuote;
using pasda::testsupport::slurp;

const std::string kLib = "fixtures.release.lib.";

bool ci() {
  const char* v = std::getenv("CI");
  return v && std::string(v) == "true";
}

std::string classes(const std::string& side) { return std::string(PASDA_FIXTURE_CLASSES) + "/release/lib/" + side; }

// The JDK's jar tool next to the java the build found.
std::string jarTool() {
  std::error_code ec;
  fs::path java = fs::canonical(PASDA_JAVA, ec);
  fs::path jar = (ec ? fs::path(PASDA_JAVA) : java).parent_path() / "jar";
  return fs::exists(jar) ? jar.string() : std::string("jar");
}

// Packs the classes under `dir` (optionally only those matching `only`) into `out`.
void makeJar(const std::string& dir, const fs::path& out, const std::string& only = "") {
  std::string files = only.empty() ? "." : only;
  CliRun r = runShell("cd " + shellQuote(dir) + " && " + shellQuote(jarTool()) + " cf " + shellQuote(out.string()) + " " + files);
  ASSERT_EQ(r.code, 0) << r.err;
}

struct Jars {
  fs::path dir = scratch("release");
  fs::path oldJar = dir / "lib-1.0.jar", newJar = dir / "lib-1.1.jar";
  Jars() {
    makeJar(classes("old"), oldJar);
    makeJar(classes("new"), newJar);
  }
};

Json parse(const CliRun& r) {
  try {
    return pasda::report::parseJson(r.out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.out.substr(0, 400) << "\nstderr: " << r.err;
    return Json::object();
  }
}

std::map<std::string, const Json*> byKey(const Json& j) {
  std::map<std::string, const Json*> out;
  for (const Json& m : j.at("methods"))
    out[m.at("class").get<std::string>() + "." + m.at("method").get<std::string>() + m.at("descriptor").get<std::string>()] = &m;
  return out;
}

std::string str(const Json& j, const char* key) { return j.at(key).is_null() ? "" : j.at(key).get<std::string>(); }

bool undecided(const std::string& r) { return !r.empty() && r != "EQ" && r != "NEQ"; }

// (category, result) of every method of the fixture pair; "?" = undecided.
const std::map<std::string, std::pair<std::string, std::string>> kExpected = {
    {kLib + "Calc.<init>()V", {"identical", "EQ"}},  {kLib + "Calc.square(I)I", {"identical", "EQ"}},
    {kLib + "Calc.identity(I)I", {"identical", "EQ"}}, {kLib + "Calc.dist(II)I", {"affected", "EQ"}},
    {kLib + "Calc.price(I)I", {"changed", "NEQ"}},    {kLib + "Calc.twice(I)I", {"changed", "EQ"}},
    {kLib + "Calc.total(I)I", {"affected", "NEQ"}},   {kLib + "Calc.safeDist(II)I", {"affected", "EQ"}},
    {kLib + "Calc.scale(I)I", {"removed", ""}},        {kLib + "Calc.scale(J)J", {"added", ""}},
    {kLib + "Calc.half(I)I", {"removed", ""}},         {kLib + "Calc.cube(I)I", {"added", ""}},
    {kLib + "Helper.<init>()V", {"identical", "EQ"}}, {kLib + "Helper.abs(I)I", {"changed", "EQ"}},
    {kLib + "Count.<init>()V", {"identical", "EQ"}},  {kLib + "Count.count(I)I", {"changed", "?"}},
    {kLib + "Legacy.<init>()V", {"removed", ""}},      {kLib + "Legacy.f(I)I", {"removed", ""}},
    {kLib + "Fresh.<init>()V", {"added", ""}},         {kLib + "Fresh.g(I)I", {"added", ""}},
};

void expectCategories(const Json& j) {
  auto methods = byKey(j);
  EXPECT_EQ(methods.size(), kExpected.size());
  for (const auto& [key, want] : kExpected) {
    SCOPED_TRACE(key);
    auto it = methods.find(key);
    ASSERT_NE(it, methods.end());
    EXPECT_EQ(str(*it->second, "category"), want.first);
    const std::string got = str(*it->second, "result");
    if (want.second == "?") EXPECT_TRUE(undecided(got)) << got;
    else EXPECT_EQ(got, want.second);
  }
}

TEST(ReleaseDiff, CategoriesVerdictsSignatureChangesAndOutputs) {
  Jars jars;
  const fs::path report = jars.dir / "report", tests = jars.dir / "tests", db = jars.dir / "diff.db";
  CliRun r = runCli({jars.oldJar.string(), jars.newJar.string(), "--format", "json", "--jobs", "2", "--report",
                     report.string(), "--db", db.string(), "--emit-tests", tests.string()});
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";
  const Json j = parse(r);
  EXPECT_EQ(str(j, "kind"), "release-diff");
  EXPECT_EQ(str(j, "result"), "NEQ");
  EXPECT_EQ(j.at("exit_code").get<int>(), 1);
  expectCategories(j);
  const Json& c = j.at("counts");
  EXPECT_EQ(c.at("added").get<int>(), 4);
  EXPECT_EQ(c.at("removed").get<int>(), 4);
  EXPECT_EQ(c.at("identical").get<int>(), 5);
  EXPECT_EQ(c.at("affected").get<int>(), 3);
  EXPECT_EQ(c.at("changed").get<int>(), 4);
  EXPECT_EQ(c.at("NEQ").get<int>(), 2);
  EXPECT_EQ(c.at("undecided").get<int>(), 1);
  EXPECT_EQ(c.at("EQ").get<int>(), 9);
  EXPECT_EQ(c.at("eq_by_callees").get<int>(), 1);
  EXPECT_EQ(c.at("not_run").get<int>(), 0);
  auto methods = byKey(j);
  // What the NEQ rests on: a run with a witness; the identical ones were not run.
  const Json& price = *methods.at(kLib + "Calc.price(I)I");
  EXPECT_EQ(str(price, "decided_by"), "analysis");
  EXPECT_NE(str(price, "witness_call").find("price("), std::string::npos);
  EXPECT_EQ(str(price.at("run"), "result"), "NEQ");
  // Its cause (issue 14): the changed line 11 of the new Calc.java, in every minimal set.
  ASSERT_FALSE(price.at("causes").empty()) << price.dump();
  for (const Json& cause : price.at("causes")) EXPECT_EQ(cause.get<std::string>().rfind("new line 11 (", 0), 0u) << cause;
  EXPECT_TRUE(methods.at(kLib + "Calc.square(I)I")->at("run").is_null());
  EXPECT_EQ(str(*methods.at(kLib + "Calc.square(I)I"), "decided_by"), "identical code");
  EXPECT_NE(str(*methods.at(kLib + "Calc.dist(II)I"), "reason").find("Helper.abs(I)I"), std::string::npos);
  // The rule of equivalent callees: dist reaches only Helper.abs, which is EQ, so dist is EQ
  // without a run; total reaches price (NEQ) and safeDist catches exceptions: both analysed.
  const Json& dist = *methods.at(kLib + "Calc.dist(II)I");
  EXPECT_EQ(str(dist, "decided_by"), "equivalent callees");
  EXPECT_TRUE(dist.at("run").is_null());
  EXPECT_EQ(dist.at("changed_callees").dump(), "[\"" + kLib + "Helper.abs(I)I\"]");
  const Json& total = *methods.at(kLib + "Calc.total(I)I");
  EXPECT_EQ(str(total, "decided_by"), "analysis");
  EXPECT_EQ(total.at("changed_callees").dump(), "[\"" + kLib + "Calc.price(I)I\"]");
  const Json& safeDist = *methods.at(kLib + "Calc.safeDist(II)I");
  EXPECT_EQ(str(safeDist, "decided_by"), "analysis");
  EXPECT_TRUE(safeDist.at("changed_callees").empty());
  // Signature-level changes beside the verdicts.
  EXPECT_EQ(methods.at(kLib + "Calc.twice(I)I")->at("api_changes").dump(), "[\"visibility: public -> protected\"]");
  EXPECT_NE(methods.at(kLib + "Calc.scale(J)J")->at("api_changes").dump().find("descriptor: (I)I -> (J)J"), std::string::npos);
  std::map<std::string, std::string> classStatus;
  for (const Json& cc : j.at("classes")) classStatus[str(cc, "class")] = str(cc, "status");
  EXPECT_EQ(classStatus, (std::map<std::string, std::string>{{kLib + "Fresh", "added"}, {kLib + "Legacy", "removed"}}));
  // The database: one row per method, tied to the diff; the NEQ method's run is stored.
  CliRun q = runShell("sqlite3 " + shellQuote(db.string()) +
                      " \"SELECT count(*), count(DISTINCT diff_id), sum(run_id IS NOT NULL) FROM release_method; "
                      "SELECT m.result FROM release_method m JOIN run r ON r.id = m.run_id WHERE m.method = 'price'; "
                      "SELECT result, exit_code FROM release_diff; SELECT version FROM schema_version\"");
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.out, "20|1|6\nNEQ\nNEQ|1\n" + std::to_string(pasda::store::kSchemaVersion) + "\n");
  // JUnit tests for the confirmed NEQ; both report files.
  EXPECT_TRUE(fs::exists(tests / "fixtures/release/lib/Calc_price_RegressionTest.java"));
  EXPECT_TRUE(fs::exists(report / "index.html"));
  const std::string md = slurp(report / "summary.md");
  EXPECT_NE(md.find("release diff: **NEQ**"), std::string::npos) << md;
  EXPECT_NE(md.find("Calc.price(I)I"), std::string::npos) << md;
  fs::remove_all(jars.dir);
}

// Issue 17: a release diff is under Java's arithmetic unless --arith math is given, and the
// result line says which.
TEST(ReleaseDiff, DefaultArithmeticIsJavaAndNamed) {
  Jars jars;
  const std::string a = jars.oldJar.string(), b = jars.newJar.string();
  CliRun def = pasda::testsupport::runCliDefaults({a, b, "-q", "--class", kLib + "Helper"});
  EXPECT_EQ(def.code, 0) << def.out << def.err;
  EXPECT_EQ(def.out.rfind("Result: EQ (arithmetic: java; ", 0), 0u) << def.out;
  CliRun math = runCli({a, b, "-q", "--class", kLib + "Helper", "--arith", "math"});
  EXPECT_EQ(math.out.rfind("Result: EQ (arithmetic: math; ", 0), 0u) << math.out;
  fs::remove_all(jars.dir);
}

TEST(ReleaseDiff, ExitStatusAndFailOn) {
  Jars jars;
  const std::string a = jars.oldJar.string(), b = jars.newJar.string();
  CliRun text = runCli({a, b, "--jobs", "2"});
  EXPECT_EQ(text.code, 1);
  EXPECT_EQ(text.out.rfind("Result: NEQ", 0), 0u) << text.out;
  // NEQ first, then the undecided, then EQ by analysis.
  const auto neq = text.out.find("\nNEQ (2):"), und = text.out.find("\nUndecided (1):"), eq = text.out.find("\nEQ by analysis");
  EXPECT_TRUE(neq != std::string::npos && und != std::string::npos && eq != std::string::npos && neq < und && und < eq)
      << text.out;
  EXPECT_EQ(runCli({a, b, "-q", "--class", kLib + "Helper"}).code, 0);
  EXPECT_EQ(runCli({a, b, "-q", "--class", kLib + "Count"}).code, 3);
  EXPECT_EQ(runCli({a, b, "-q", "--class", kLib + "Count", "--fail-on", "neq"}).code, 0);
  EXPECT_EQ(runCli({a, b, "-q", "--class", kLib + "Count", "--fail-on", "undecided"}).code, 1);
  EXPECT_EQ(runCli({a, b, "-q", "--class", kLib + "Helper", "--fail-on", "undecided"}).code, 0);
  EXPECT_EQ(runCli({a, b, "-q", "--fail-on", "neq"}).code, 1);
  // Class-path directories work like jars; a class only in one version is "removed", not an error.
  CliRun dirs = runCli({classes("old"), classes("new"), "-q", "--class", kLib + "Legacy", "--format", "json"});
  EXPECT_EQ(dirs.code, 0) << dirs.err;
  const Json j = parse(dirs);
  EXPECT_EQ(j.at("counts").at("removed").get<int>(), 2);
  fs::remove_all(jars.dir);
}

// The rule of equivalent callees asks about changed methods outside the run's entries too: with
// --class Calc, Helper.abs is analysed for the rule only (not reported), and dist is EQ by it.
// --shortcut off analyses dist like any other method.
TEST(ReleaseDiff, EquivalentCalleesAcrossTheClassFilterAndOff) {
  Jars jars;
  const std::string a = jars.oldJar.string(), b = jars.newJar.string();
  for (const std::string shortcut : {"on", "off"}) {
    SCOPED_TRACE(shortcut);
    CliRun r = runCli({a, b, "--class", kLib + "Calc", "--shortcut", shortcut, "--format", "json"});
    ASSERT_EQ(r.code, 1) << r.err;
    const Json j = parse(r);
    auto methods = byKey(j);
    EXPECT_EQ(methods.count(kLib + "Helper.abs(I)I"), 0u);
    const Json& dist = *methods.at(kLib + "Calc.dist(II)I");
    EXPECT_EQ(str(dist, "result"), "EQ");
    EXPECT_EQ(str(dist, "decided_by"), shortcut == "on" ? "equivalent callees" : "analysis");
    EXPECT_EQ(dist.at("run").is_null(), shortcut == "on");
    EXPECT_EQ(str(*methods.at(kLib + "Calc.total(I)I"), "result"), "NEQ");
  }
  fs::remove_all(jars.dir);
}

// Attribute text as the browser serialises it, back to plain text.
std::string unescape(std::string s) {
  for (auto [from, to] : {std::pair<const char*, const char*>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
    for (std::size_t p; (p = s.find(from)) != std::string::npos;) s.replace(p, std::string(from).size(), to);
  return s;
}

// The HTML page opened in Debian's chromium: after its script ran, every method is a row of
// the table with its category and result.
TEST(ReleaseDiff, HtmlReportInAHeadlessBrowser) {
  CliRun which = runShell("command -v chromium");
  if (which.code != 0) {
    if (ci()) FAIL() << "chromium is missing (scripts/setup-deps installs it)";
    GTEST_SKIP() << "chromium not installed; scripts/setup-deps installs it";
  }
  Jars jars;
  const fs::path report = jars.dir / "report";
  CliRun r = runCli({jars.oldJar.string(), jars.newJar.string(), "--format", "json", "--report", report.string()});
  ASSERT_EQ(r.code, 1) << r.err;
  const Json j = parse(r);
  const fs::path profile = jars.dir / "chromium-profile";
  CliRun dom = runShell(
      "chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir=" + shellQuote(profile.string()) +
      " --dump-dom " + shellQuote("file://" + (report / "index.html").string()));
  ASSERT_EQ(dom.code, 0) << dom.err;
  EXPECT_NE(dom.out.find("data-rendered=\"yes\""), std::string::npos) << "the page's script did not run";
  std::map<std::string, std::pair<std::string, std::string>> rows;
  const std::regex row(R"re(<tr class="m" data-key="([^"]*)" data-category="([^"]*)" data-result="([^"]*)">)re");
  for (auto it = std::sregex_iterator(dom.out.begin(), dom.out.end(), row); it != std::sregex_iterator(); ++it)
    rows[unescape((*it)[1])] = {(*it)[2], (*it)[3]};
  ASSERT_EQ(rows.size(), j.at("methods").size()) << dom.out.substr(0, 2000);
  for (const auto& [key, m] : byKey(j)) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(rows.count(key));
    EXPECT_EQ(rows[key].first, str(*m, "category"));
    EXPECT_EQ(rows[key].second, str(*m, "result"));
  }
  // The result column shows the verdict (NEQ in the page's red class).
  EXPECT_NE(dom.out.find("<td class=\"result NEQ\">NEQ</td>"), std::string::npos);
  fs::remove_all(jars.dir);
}

std::string methodRows(const fs::path& db) {
  CliRun q = runShell("sqlite3 " + shellQuote(db.string()) +
                      " \"SELECT class, method, descriptor, category, coalesce(result, '-'), run_id IS NOT NULL, "
                      "(SELECT count(DISTINCT fingerprint) FROM release_diff) FROM release_method "
                      "ORDER BY class, method, descriptor\"");
  EXPECT_EQ(q.code, 0) << q.err;
  return q.out;
}

TEST(ReleaseDiff, ShardsMergedEqualTheUnshardedRun) {
  Jars jars;
  const std::string a = jars.oldJar.string(), b = jars.newJar.string();
  const fs::path whole = jars.dir / "whole.db", s1 = jars.dir / "s1.db", s2 = jars.dir / "s2.db", merged = jars.dir / "merged.db";
  // A generous solver limit: the comparison is about the split, so no verdict may depend on how
  // loaded the machine is while the three diffs run.
  const std::vector<std::string> common = {a, b, "--format", "json", "--solver-timeout", "10000"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args);
  };
  CliRun full = with({"--db", whole.string()});
  CliRun p1 = with({"--shard", "1/2", "--db", s1.string()});
  CliRun p2 = with({"--shard", "2/2", "--db", s2.string()});
  ASSERT_EQ(full.code, 1) << full.err;
  ASSERT_NE(p1.code, 2) << p1.err;
  ASSERT_NE(p2.code, 2) << p2.err;
  // Each shard has a part; together they cover every method once.
  const Json j1 = parse(p1), j2 = parse(p2), jf = parse(full);
  EXPECT_GT(j1.at("methods").size(), 0u);
  EXPECT_GT(j2.at("methods").size(), 0u);
  EXPECT_EQ(j1.at("methods").size() + j2.at("methods").size(), jf.at("methods").size());
  EXPECT_EQ(str(j1.at("settings"), "fingerprint"), str(jf.at("settings"), "fingerprint"));
  // merge-db of the shards' databases == the unsharded database (methods, categories, results, runs).
  CliRun m = runShell("python3 " + shellQuote(std::string(PASDA_SOURCE_DIR) + "/ardiff-benchmark/merge-db") + " " +
                      shellQuote(merged.string()) + " " + shellQuote(s1.string()) + " " + shellQuote(s2.string()));
  ASSERT_EQ(m.code, 0) << m.err << m.out;
  const std::string want = methodRows(whole);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 20);
  EXPECT_EQ(methodRows(merged), want);
  // --merge of the shards' JSON outputs == the unsharded JSON (per method and in total).
  std::ofstream(jars.dir / "s1.json") << p1.out;
  std::ofstream(jars.dir / "s2.json") << p2.out;
  CliRun mj = runCli({"--merge", (jars.dir / "s2.json").string(), (jars.dir / "s1.json").string(), "--format", "json"});
  ASSERT_EQ(mj.code, full.code) << mj.err;
  const Json jm = parse(mj);
  expectCategories(jm);
  EXPECT_EQ(jm.at("counts").dump(), jf.at("counts").dump());
  auto want2 = byKey(jf);
  for (const auto& [key, mm] : byKey(jm)) {
    EXPECT_EQ(str(*mm, "result"), str(*want2.at(key), "result")) << key;
    EXPECT_EQ(str(*mm, "decided_by"), str(*want2.at(key), "decided_by")) << key;
    EXPECT_EQ(mm->at("changed_callees").dump(), want2.at(key)->at("changed_callees").dump()) << key;
  }
  EXPECT_EQ(str(*byKey(jm).at(kLib + "Calc.dist(II)I"), "decided_by"), "equivalent callees");
  // Merging one shard twice, or shards of different diffs, is refused.
  EXPECT_EQ(runCli({"--merge", (jars.dir / "s1.json").string(), (jars.dir / "s1.json").string()}).code, 2);
  fs::remove_all(jars.dir);
}

// On a terminal (a pseudo-terminal from script(1)), a progress line is drawn on stderr and
// redrawn in place; -q turns it off.
TEST(ReleaseDiff, ProgressOnATerminalOnly) {
  if (runShell("command -v script").code != 0) GTEST_SKIP() << "script(1) (bsdutils) is not installed";
  Jars jars;
  const std::string cmd = shellQuote(PASDA_CLI) + " " + shellQuote(jars.oldJar.string()) + " " +
                          shellQuote(jars.newJar.string()) + " --jobs 1 --arith math";
  CliRun tty = runShell("script -qec " + shellQuote(cmd) + " /dev/null");
  EXPECT_NE(tty.out.find("\r\033[K["), std::string::npos) << tty.out.substr(0, 300);
  EXPECT_NE(tty.out.find("/7] NEQ "), std::string::npos) << tty.out.substr(0, 300);
  EXPECT_NE(tty.out.find(" ETA "), std::string::npos);
  EXPECT_NE(tty.out.find("Result: NEQ"), std::string::npos);
  CliRun quiet = runShell("script -qec " + shellQuote(cmd + " -q") + " /dev/null");
  EXPECT_EQ(quiet.out.find(" ETA "), std::string::npos) << quiet.out;
  EXPECT_NE(quiet.out.find("Result: NEQ"), std::string::npos);
  fs::remove_all(jars.dir);
}

void expectOneErrorLine(const CliRun& r, const std::string& mention) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.rfind("pasda-jvm: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

TEST(ReleaseDiff, BadInputIsOneLineAndStatus2) {
  Jars jars;
  const std::string good = jars.oldJar.string();
  const fs::path notZip = jars.dir / "broken.jar", empty = jars.dir / "empty", onlyOld = jars.dir / "only-old.jar",
                 onlyNew = jars.dir / "only-new.jar";
  std::ofstream(notZip) << "this is not a zip archive\n";
  fs::create_directories(empty);
  std::ofstream(empty / "README.txt") << "no classes here\n";
  makeJar(classes("old"), onlyOld, "fixtures/release/lib/Legacy.class");
  makeJar(classes("new"), onlyNew, "fixtures/release/lib/Fresh.class");
  expectOneErrorLine(runCli({notZip.string(), good}), "broken.jar");
  expectOneErrorLine(runCli({good, empty.string()}), "no class files");
  expectOneErrorLine(runCli({onlyOld.string(), onlyNew.string()}), "no class in common");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--class", "no.Such"}), "no.Such");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--shard", "3/2"}), "--shard");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--shard", "x"}), "--shard");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--fail-on", "maybe"}), "--fail-on");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--jobs", "0"}), "--jobs");
  expectOneErrorLine(runCli({good, jars.newJar.string(), "--method-timeout", "0"}), "--method-timeout");
  std::ofstream(jars.dir / "single.json") << "{\"result\": \"EQ\"}\n";
  expectOneErrorLine(runCli({"--merge", (jars.dir / "single.json").string()}), "single.json");
  fs::remove_all(jars.dir);
}

}  // namespace
