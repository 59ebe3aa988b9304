// Helpers for the command-line tests of issues 5 and 7: run the built pasda-jvm, capture
// stdout, stderr and the exit status; locate the compiled fixtures; read the JSON report.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/json_check.hpp"
#include "support/process.hpp"

namespace cli_test {

namespace fs = std::filesystem;
using pasda::testing::Json;
using pasda::testing::JsonParser;

using pasda::testsupport::CliRun;
using pasda::testsupport::runCli;
using pasda::testsupport::scratch;
using pasda::testsupport::shellQuote;
using pasda::testsupport::slurp;

/// Tests of JVM replays need java. The test tree cannot be configured without it
/// (tests/CMakeLists.txt), but the binary may run elsewhere: on CI a missing java fails, on a
/// developer machine it skips (REQUIRE_JAVA()).
inline bool javaMissing(std::string& why) {
  const std::string java = PASDA_JAVA;
  if (!java.empty() && ::access(java.c_str(), X_OK) == 0) return false;
  why = "java (" + java + ") is not executable";
  return true;
}

inline bool onCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

#define REQUIRE_JAVA()                                  \
  do {                                                  \
    std::string why_;                                   \
    if (::cli_test::javaMissing(why_)) {                \
      if (::cli_test::onCi()) FAIL() << why_ << " (CI=true)"; \
      GTEST_SKIP() << why_;                             \
    }                                                   \
  } while (0)

/// The first line's result class ("EQ", "NEQ", "ERROR", ...) of a text run, or "(none)".
/// ("Result: ERROR (error: ...)" gives "ERROR".)
inline std::string resultLine(const CliRun& r) {
  std::string first = r.out.substr(0, r.out.find('\n'));
  if (first.rfind("Result: ", 0) != 0) return "(none)";
  std::string cls = first.substr(8);
  return cls.substr(0, cls.find(' '));
}

/// A compiled fixture: ${PASDA_FIXTURE_CLASSES}/<folder>/<side>/<package path>/<cls>.class.
inline std::string fixtureClass(const std::string& folder, const std::string& side, const std::string& pkg,
                                const std::string& cls) {
  std::string p = pkg;
  for (char& c : p)
    if (c == '.') c = '/';
  return std::string(PASDA_FIXTURE_CLASSES) + "/" + folder + "/" + side + "/" + p + "/" + cls + ".class";
}

/// A JSON run: the parsed report (the test fails when the output is not JSON).
struct JsonRun {
  CliRun run;
  Json json;
  bool ok = false;
};

inline JsonRun runJson(std::vector<std::string> args) {
  args.insert(args.begin(), {"--format", "json"});
  JsonRun j;
  j.run = runCli(args);
  try {
    j.json = JsonParser(j.run.out).parse();
    j.ok = j.json.type == Json::Type::Object && j.json.find("result") != nullptr;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON (" << e.what() << "): exit " << j.run.code << "\n" << j.run.out << j.run.err;
  }
  return j;
}

/// State entries of an effect as (name, value) pairs.
inline std::vector<std::pair<std::string, std::string>> stateOf(const Json& effect) {
  std::vector<std::pair<std::string, std::string>> out;
  const Json* st = effect.find("state");
  if (!st || st->type != Json::Type::Array) return out;
  for (const Json& e : st->array) {
    const Json* n = e.find("name");
    const Json* v = e.find("value");
    if (n && v) out.emplace_back(n->string, v->type == Json::Type::String ? v->string : "");
  }
  return out;
}

/// Names of the state entries whose old and new values are written differently (or that
/// only one side has).
inline std::vector<std::string> differingState(const Json& partition) {
  auto o = stateOf(partition["effect_old"]);
  auto n = stateOf(partition["effect_new"]);
  std::vector<std::string> out;
  auto lookup = [](const std::vector<std::pair<std::string, std::string>>& v, const std::string& k,
                   std::string& val) {
    for (const auto& [a, b] : v)
      if (a == k) {
        val = b;
        return true;
      }
    return false;
  };
  for (const auto& [k, v] : o) {
    std::string w;
    if (!lookup(n, k, w) || w != v) out.push_back(k);
  }
  for (const auto& [k, v] : n) {
    std::string w;
    if (!lookup(o, k, w)) out.push_back(k);
  }
  return out;
}

inline bool contains(const std::vector<std::string>& v, const std::string& x) {
  for (const std::string& s : v)
    if (s == x) return true;
  return false;
}

inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

/// The witness entry `name` of a partition ("" when absent).
inline std::string witnessValue(const Json& partition, const std::string& name) {
  const Json* w = partition.find("witness");
  if (!w || w->type != Json::Type::Object) return "";
  const Json* v = w->find(name);
  return v && v->type == Json::Type::String ? v->string : "";
}

}  // namespace cli_test
