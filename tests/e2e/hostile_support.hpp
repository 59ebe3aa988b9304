// The hostile-input suite's way of running pasda-jvm: a child process (no shell) with its
// stdout captured, sent to /dev/full or closed, optionally as an unprivileged user, measured
// for wall time and peak resident size (the child's own rusage from wait4), and killed by a
// watchdog so that a hang fails the test instead of stalling the suite.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "e2e/cli_support.hpp"

namespace e2e::hostile {

enum class Stdout { Capture, DevFull, Closed };

struct Spawn {
  Stdout out = Stdout::Capture;
  bool unprivileged = false;  // as user/group 65534 (nobody) when the tests run as root
  double kill_after_s = 60;   // the watchdog
};

struct Measured {
  int code = -1;  // exit status, or 128 + signal
  std::string out, err;
  double seconds = 0;
  long max_rss_kb = 0;
  bool killed = false;  // by the watchdog
};

/// Peak resident size allowed for a run that must refuse its input at once (the binary with
/// Z3 and SQLite loaded is about 20 MB).
inline constexpr long kRefusalRssKb = 100 * 1024;

inline Measured runMeasured(const std::vector<std::string>& args, const Spawn& how = {}) {
  fs::path d = scratch("measured");
  const std::string outPath = (d / "out").string(), errPath = (d / "err").string();
  std::vector<std::string> argv{PASDA_CLI};
  const std::vector<std::string> chosen = pasda::testsupport::withArith(args);  // math unless chosen
  argv.insert(argv.end(), chosen.begin(), chosen.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const bool dropPrivileges = how.unprivileged && ::geteuid() == 0;

  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    int in = ::open("/dev/null", O_RDONLY);
    ::dup2(in, 0);
    int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, 2);
    if (how.out == Stdout::Closed) {
      ::close(1);
    } else {
      int out = how.out == Stdout::DevFull ? ::open("/dev/full", O_WRONLY)
                                           : ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      if (out > 2) ::close(out);
    }
    if (in > 2) ::close(in);
    if (err > 2) ::close(err);
    if (dropPrivileges && (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(126);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  Measured r;
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return r;
  }
  int status = 0;
  struct rusage ru {};
  for (;;) {
    const pid_t got = ::wait4(pid, &status, WNOHANG, &ru);
    if (got == pid) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.killed && elapsed > how.kill_after_s) {
      ::kill(pid, SIGKILL);
      r.killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.max_rss_kb = ru.ru_maxrss;
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  fs::remove_all(d);
  return r;
}

inline std::string describe(const Measured& r) {
  return "exit " + std::to_string(r.code) + (r.killed ? " (killed by the watchdog)" : "") + " after " +
         std::to_string(r.seconds) + " s, peak " + std::to_string(r.max_rss_kb / 1024) + " MB\nstdout: " + r.out +
         "\nstderr: " + r.err;
}

/// Exit status 2 and stderr exactly one line "pasda-jvm: error: ..." containing every string
/// of `mentions` (and, unless `stdoutMayHaveResult`, nothing on stdout).
inline void expectOneErrorLine(const Measured& r, const std::vector<std::string>& mentions,
                               bool stdoutMayHaveResult = false) {
  EXPECT_FALSE(r.killed) << describe(r);
  EXPECT_EQ(r.code, 2) << describe(r);
  ASSERT_FALSE(r.err.empty()) << describe(r);
  EXPECT_EQ(r.err.back(), '\n') << describe(r);
  const std::string line = r.err.substr(0, r.err.size() - 1);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "more than one line on stderr: " << describe(r);
  EXPECT_EQ(line.rfind("pasda-jvm: error: ", 0), 0u) << describe(r);
  for (const std::string& m : mentions) EXPECT_NE(line.find(m), std::string::npos) << "missing '" << m << "' in " << line;
  if (!stdoutMayHaveResult) {
    EXPECT_TRUE(r.out.empty()) << describe(r);
  }
}

}  // namespace e2e::hostile
