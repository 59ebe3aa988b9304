// Helpers for the end-to-end tests of the pasda-jvm command line: run the built binary,
// capture stdout, stderr and the exit status; locate the compiled Java fixtures.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace e2e {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out, err;
  double seconds = 0;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// A fresh scratch directory per call (unique by pid and a counter).
inline fs::path scratch(const std::string& tag) {
  static int counter = 0;
  fs::path d = fs::path(::testing::TempDir()) /
               ("pasda_e2e_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// Run `cmd` through the shell with stdout/stderr captured in files.
inline CliRun runShell(const std::string& cmd) {
  fs::path d = scratch("run");
  std::string full = cmd + " > " + quote((d / "out").string()) + " 2> " + quote((d / "err").string());
  auto t0 = std::chrono::steady_clock::now();
  int st = std::system(full.c_str());
  CliRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  r.out = slurp(d / "out");
  r.err = slurp(d / "err");
  fs::remove_all(d);
  return r;
}

inline CliRun runCli(const std::vector<std::string>& args) {
  std::string cmd = quote(PASDA_CLI);
  for (const std::string& a : args) cmd += " " + quote(a);
  return runShell(cmd);
}

/// tests/fixtures/cli/<case>/<side>/... compiled: the class file of `cls` in package fixtures.cli.<case>.
inline std::string cliClass(const std::string& kase, const std::string& side, const std::string& cls) {
  return std::string(PASDA_FIXTURE_CLASSES) + "/cli/" + kase + "/" + side + "/fixtures/cli/" + kase + "/" + cls + ".class";
}
/// tests/fixtures/e2e/<case>/<side>/... compiled: package fixtures.<case>.
inline std::string e2eClass(const std::string& kase, const std::string& side, const std::string& cls) {
  return std::string(PASDA_FIXTURE_CLASSES) + "/e2e/" + kase + "/" + side + "/fixtures/" + kase + "/" + cls + ".class";
}

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace e2e
