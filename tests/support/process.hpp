// Shared by the command-line test suites (tests/cli, tests/e2e): run the built pasda-jvm or a
// shell command with stdout and stderr captured through files, and scratch directories.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace pasda::testsupport {

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

/// `s` in single quotes for /bin/sh.
inline std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The scratch directories of this test process, removed when it ends (a test that fails
/// half-way leaves none behind in the temporary directory either).
struct ScratchDirs {
  std::mutex mu;
  std::vector<fs::path> dirs;
  ~ScratchDirs() {
    std::error_code ec;
    for (const fs::path& d : dirs) fs::remove_all(d, ec);
  }
};
inline ScratchDirs& scratchDirs() {
  static ScratchDirs all;
  return all;
}

/// A fresh scratch directory (unique per process, thread and call), removed at exit.
inline fs::path scratch(const std::string& tag = "run") {
  static std::atomic<int> counter{0};
  std::ostringstream tid;
  tid << std::hash<std::thread::id>{}(std::this_thread::get_id());
  fs::path d = fs::path(::testing::TempDir()) / ("pasda_" + tag + "_" + std::to_string(::getpid()) + "_" +
                                                  tid.str() + "_" + std::to_string(counter++));
  fs::remove_all(d);
  fs::create_directories(d);
  {
    ScratchDirs& all = scratchDirs();
    std::lock_guard<std::mutex> lock(all.mu);
    all.dirs.push_back(d);
  }
  return d;
}

/// Run `cmd` through the shell (stdin from /dev/null), stdout and stderr captured.
inline CliRun runShell(const std::string& cmd) {
  fs::path d = scratch("out");
  std::string full = cmd + " > " + shellQuote((d / "out").string()) + " 2> " + shellQuote((d / "err").string()) +
                     " < /dev/null";
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

/// `args` with `--arith math` in front unless they choose a model themselves. The suites were
/// written when the paper's model was the default; since issue 17 the default is `java`, and
/// the tests that relied on `math` pass it explicitly through this. Tests of the default
/// itself use runCliDefaults.
inline std::vector<std::string> withArith(const std::vector<std::string>& args, const std::string& arith = "math") {
  for (const std::string& a : args)
    if (a == "--arith" || a.rfind("--arith=", 0) == 0) return args;
  std::vector<std::string> out{"--arith", arith};
  out.insert(out.end(), args.begin(), args.end());
  return out;
}

/// Run the built pasda-jvm (PASDA_CLI) with exactly `args` (the CLI's own defaults apply).
inline CliRun runCliDefaults(const std::vector<std::string>& args) {
  std::string cmd = shellQuote(PASDA_CLI);
  for (const std::string& a : args) cmd += " " + shellQuote(a);
  return runShell(cmd);
}

/// Run the built pasda-jvm (PASDA_CLI) with `args` under `--arith math` unless they say otherwise.
inline CliRun runCli(const std::vector<std::string>& args) { return runCliDefaults(withArith(args)); }

}  // namespace pasda::testsupport
