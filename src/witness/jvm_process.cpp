// Running replay JVMs of their own (no session): a command with a wall-clock limit, the command
// line of a driver, and a split replay's two drivers side by side.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

#include "driver.hpp"
#include "render.hpp"

namespace pasda::witness::detail {

// Run a command with a wall-clock limit, collecting stdout and stderr. False on spawn failure.
bool runWithTimeout(const std::vector<std::string>& argv, double timeoutS, std::string& output, bool& timedOut) {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {
    // (the JVM ends with the thread that waits for it: a pasda-jvm killed meanwhile leaves no
    // replay running on)
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    std::vector<char*> args;
    for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long long>(timeoutS * 1000));
  timedOut = false;
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output.size() < (64u << 20)) output.append(buf, static_cast<std::size_t>(n));
  }
  if (timedOut) ::kill(pid, SIGKILL);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

/// The command of a replay JVM: class path `cp`, main class `driver` (internal or dotted name).
std::vector<std::string> jvmCommand(const std::string& java, const std::string& cp, std::string driver) {
  for (char& c : driver)
    if (c == '/') c = '.';
  std::vector<std::string> argv{java};
  for (const std::string& o : detail::jvmOptions()) argv.push_back(o);
  argv.insert(argv.end(), {"-cp", cp, driver});
  return argv;
}

/// The two drivers of a split replay, each in a JVM of its own over the replay directory and its
/// version's class path, at the same time (so the pair costs one JVM start of wall time).
bool runSplit(const std::string& java, const std::string& classDir, const ReplayEnv& env, const std::string& oldDriver,
              const std::string& newDriver, std::string& output, bool& timedOut) {
  auto cp = [&](const std::vector<std::string>& entries) {
    std::string out = classDir;
    for (const std::string& e : entries) out += ":" + e;
    return out;
  };
  auto argv = [&](const std::vector<std::string>& entries, const std::string& driver) {
    return jvmCommand(java, cp(entries), driver);
  };
  std::string oldOut, newOut;
  bool oldTimedOut = false, newTimedOut = false, oldRan = false;
  std::thread oldRun([&] { oldRan = runWithTimeout(argv(env.old_classpath, oldDriver), env.jvm_timeout_s, oldOut, oldTimedOut); });
  const bool newRan = runWithTimeout(argv(env.new_classpath, newDriver), env.jvm_timeout_s, newOut, newTimedOut);
  oldRun.join();
  output = detail::completeLines(oldOut) + detail::completeLines(newOut);
  timedOut = oldTimedOut || newTimedOut;
  return oldRan && newRan;
}


}  // namespace pasda::witness::detail
