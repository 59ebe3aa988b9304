// JSON report: valid JSON (own strict parser, and python3 when available), required keys,
// values surviving escaping.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "pasda/report/report.hpp"
#include "report/json_check.hpp"
#include "store/sample_run.hpp"

namespace pasda::report {
namespace {

using testing::Json;
using testing::parseJson;
using testing::sampleRun;

std::string jsonOf(const analysis::RunResult& r) {
  std::ostringstream out;
  printJson(r, out);
  return out.str();
}

TEST(ReportJson, ParsesAndHasTheRequiredKeys) {
  const std::string text = jsonOf(sampleRun());
  Json j;
  ASSERT_NO_THROW(j = parseJson(text)) << text;
  ASSERT_EQ(j.type, Json::Type::Object);
  for (const char* key : {"result", "exit_code", "partitions", "iterations", "runtime_s", "steps", "settings",
                          "reported_iteration", "timed_out", "warnings", "errors", "precheck"}) {
    EXPECT_NE(j.find(key), nullptr) << key;
  }
  EXPECT_EQ(j["result"].string, "NEQ");
  EXPECT_EQ(j["exit_code"].number, 1);
  EXPECT_EQ(j["runtime_s"].number, 10.25);
  EXPECT_TRUE(j["timed_out"].boolean);
  EXPECT_EQ(j["reported_iteration"].number, 1);
  EXPECT_EQ(j["precheck"].type, Json::Type::Null);
  ASSERT_EQ(j["warnings"].array.size(), 2u);
  EXPECT_EQ(j["warnings"][1].string, "second \"quoted\" warning");
  EXPECT_EQ(j["settings"]["tool"].string, "pasda");
  EXPECT_EQ(j["settings"]["solver_timeout_ms"].number, 5000);
  EXPECT_EQ(j["steps"].object.size(), 7u);
  EXPECT_EQ(j["steps"]["symbolic-execution"].number, 5.5);
  EXPECT_EQ(j["steps"]["partition-classification"].number, 2.25);
}

TEST(ReportJson, PartitionsOfTheReportedIteration) {
  const Json j = parseJson(jsonOf(sampleRun()));
  const Json& ps = j["partitions"];
  ASSERT_EQ(ps.array.size(), 3u);
  for (const auto& p : ps.array) {
    for (const char* key : {"result", "path_condition", "witness", "reachability", "output_class", "lines_old",
                            "lines_new", "output_old", "output_new", "pc_status", "neq_status", "eq_status"}) {
      EXPECT_NE(p.find(key), nullptr) << key;
    }
  }
  const Json& p2 = ps[1];
  EXPECT_EQ(p2["result"].string, "NEQ");
  EXPECT_EQ(p2["path_condition"].string, "x <= 0 && s.equals(\"a\\\"b\")");
  EXPECT_EQ(p2["witness"]["x"].string, "-2147483648");
  EXPECT_EQ(p2["witness"]["s"].string, "\"a\\\"b\\n\"");
  EXPECT_EQ(p2["witness_values"][1]["exact"].string, "1/3");
  EXPECT_EQ(p2["output_old"].string, "throw java.lang.ArithmeticException");
  EXPECT_EQ(p2["neq_status"].string, "SAT");
  EXPECT_EQ(p2["eq_status"].string, "UNSAT");
  ASSERT_EQ(p2["lines_new"].array.size(), 3u);
  EXPECT_EQ(p2["lines_new"][2].number, 11);
  EXPECT_EQ(p2["replays"][1]["note"].string, "tab\there \x01 caf\xc3\xa9");
  EXPECT_EQ(ps[0]["eq_status"].type, Json::Type::Null);
  EXPECT_EQ(ps[2]["reachability"].string, "MAYBE_REACHABLE");
  EXPECT_EQ(ps[2]["result"].string, "DEPTH_LIMITED");
  EXPECT_EQ(ps[0]["output_new"].string, "return x + 1; this.count = x; Demo.total = 0");
}

TEST(ReportJson, AllIterationsWithTheirPartitions) {
  analysis::RunResult r = sampleRun();
  r.reported_iteration = 1;  // the second, empty iteration
  const Json j = parseJson(jsonOf(r));
  EXPECT_EQ(j["reported_iteration"].number, 2);
  EXPECT_TRUE(j["partitions"].array.empty());
  const Json& its = j["iterations"];
  ASSERT_EQ(its.array.size(), 2u);
  EXPECT_EQ(its[0]["partitions"].array.size(), 3u);
  EXPECT_EQ(its[1]["result"].string, "TIMEOUT");
  EXPECT_EQ(its[1]["error"].string, "line one\nline two");
  EXPECT_EQ(its[1]["uifs"][0].string, "UIF_1(x, y) = pc 4..17");
}

TEST(ReportJson, RunWithoutIterations) {
  analysis::RunResult r;
  r.result = analysis::Verdict::ERROR;
  r.errors = "method foo missing in NEW";
  r.runtime_s = std::numeric_limits<double>::quiet_NaN();
  const Json j = parseJson(jsonOf(r));
  EXPECT_EQ(j["result"].string, "ERROR");
  EXPECT_EQ(j["exit_code"].number, 2);
  EXPECT_EQ(j["reported_iteration"].type, Json::Type::Null);
  EXPECT_EQ(j["runtime_s"].type, Json::Type::Null);  // non-finite numbers are not JSON
  EXPECT_TRUE(j["partitions"].array.empty());
  EXPECT_EQ(j["errors"].string, "method foo missing in NEW");
}

TEST(ReportJson, StringEscaping) {
  EXPECT_EQ(jsonString("plain"), "\"plain\"");
  EXPECT_EQ(jsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(jsonString("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(jsonString(std::string("\x01\x1f\x00", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(jsonString("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  // Invalid UTF-8: each maximal invalid subpart becomes U+FFFD (written as UTF-8, EF BF BD).
  EXPECT_EQ(jsonString("bad \xff byte"), "\"bad \xef\xbf\xbd byte\"");
  EXPECT_EQ(jsonString("cut \xc3"), "\"cut \xef\xbf\xbd\"");
  EXPECT_EQ(jsonString("overlong \xc0\xaf"), "\"overlong \xef\xbf\xbd\xef\xbf\xbd\"");
  EXPECT_EQ(jsonString("surrogate \xed\xa0\x80"), "\"surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
}

TEST(ReportJson, PythonAgreesWhenAvailable) {
  if (std::system("python3 -c 'import json' >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not available";
  analysis::RunResult r = sampleRun();
  r.iterations[0].partitions[0].path_condition = std::string("odd \x7f \xfe \x02 bytes");
  const auto file = std::filesystem::temp_directory_path() / ("pasda-report-" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(file, std::ios::binary);
    printJson(r, out);
  }
  const std::string cmd = "python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding=\"utf-8\")); "
                          "sys.exit(0 if d[\"result\"]==\"NEQ\" and len(d[\"iterations\"])==2 else 1)' " +
                          file.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace pasda::report
