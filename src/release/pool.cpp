// Worker processes for a release diff. Processes rather than threads: a Z3 call that ignores
// its limit can only be stopped by ending its process, and a crash in one method must not take
// the other methods' results with it. The coordinator is single-threaded (it forks safely) and
// owns all results; a worker holds only the method it is analysing.
#include "pool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>

#include "inventory.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/report/json.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::release::detail {

using Clock = std::chrono::steady_clock;
using report::Json;

namespace {

// How long a worker that has finished analysing may take to send its run.
constexpr int kSerialiseSeconds = 120;

bool writeAll(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads whole lines from a file descriptor.
struct LineReader {
  int fd = -1;
  std::string buffer;
  /// Blocking: the next line, or nullopt at end of file.
  std::optional<std::string> next() {
    for (;;) {
      if (auto line = take()) return line;
      char chunk[65536];
      ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      buffer.append(chunk, static_cast<std::size_t>(n));
    }
  }
  /// A complete line already buffered, if any.
  std::optional<std::string> take() {
    auto nl = buffer.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string line = buffer.substr(0, nl);
    buffer.erase(0, nl + 1);
    return line;
  }
};

std::string signalName(int sig) {
  const char* d = ::strsignal(sig);
  return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
}

// ----- the worker process -----

// `resultFd` receives a short "analysed" line as soon as the analysis is over, before the run
// is serialised (which takes seconds for a run with many partitions): the coordinator then
// knows the worker is not stuck.
Json analyseOne(const Json& job, const PoolConfig& cfg, const Side& o, const Side& n,
                const std::shared_ptr<witness::JvmSession>& jvm, bool& abandoned, int resultFd) {
  const std::string cls = job.at("cls").get<std::string>();
  const std::string method = job.at("name").get<std::string>() + ":" + job.at("descriptor").get<std::string>();
  Json out = {{"id", job.at("id")}};
  try {
    const jvm::ClassFile* oc = o.full->load(cls);
    const jvm::ClassFile* nc = n.full->load(cls);
    if (!oc || !nc) throw analysis::InputError(cls, "class missing in one version");
    auto oldV = std::make_unique<analysis::Version>(analysis::Version{cfg.old_path, *oc, o.full});
    auto newV = std::make_unique<analysis::Version>(analysis::Version{cfg.new_path, *nc, n.full});
    analysis::Options opt = cfg.options;
    opt.class_name = jvm::toDottedName(cls);
    opt.method = method;
    opt.timeout_s = job.at("timeout").get<double>();
    opt.jvm_session = jvm;
    analysis::RunResult run = analysis::analyzeGuarded(*oldV, *newV, opt, cfg.grace_s, abandoned);
    writeAll(resultFd, report::dumpJson(Json{{"id", job.at("id")}, {"analysed", true}}) + "\n");
    if (abandoned) {
      // The stuck analysis thread still reads both versions: they must outlive it, i.e. live
      // until this process ends (right after the result is sent).
      oldV.release();
      newV.release();
    }
    out["run"] = report::runToJson(run);
  } catch (const analysis::InputError& e) {
    out["error"] = e.file() + ": " + e.reason();
  } catch (const jvm::FormatError& e) {
    out["error"] = e.file() + ": " + e.reason();
  } catch (const std::exception& e) {
    out["error"] = std::string("internal error: ") + e.what();
  }
  return out;
}

[[noreturn]] void workerMain(const PoolConfig& cfg, int jobFd, int resultFd) {
  ::signal(SIGPIPE, SIG_DFL);
  try {
    // Class paths of its own: libzip handles must not be shared with the coordinator.
    Side o = openSide(cfg.old_path, cfg.old_classpath);
    Side n = openSide(cfg.new_path, cfg.new_classpath);
    // One replay JVM for all the methods of this worker, started on first use.
    std::shared_ptr<witness::JvmSession> jvm;
    if (cfg.options.replay == "auto" || cfg.options.replay == "jvm") jvm = std::make_shared<witness::JvmSession>();
    LineReader in{jobFd, {}};
    while (auto line = in.next()) {
      bool abandoned = false;
      Json result = analyseOne(report::parseJson(*line), cfg, o, n, jvm, abandoned, resultFd);
      result["exiting"] = abandoned;
      if (!writeAll(resultFd, report::dumpJson(result) + "\n")) break;
      if (abandoned) break;  // a solver call is still running in a thread: this process must end
    }
    jvm.reset();  // ends the replay JVM and removes its files (_exit runs no destructors)
    // Ended here, inside the scope: a stuck analysis thread may still use the class paths.
    ::_exit(0);
  } catch (const std::exception& e) {
    writeAll(resultFd, report::dumpJson(Json{{"fatal", e.what()}}) + "\n");
  }
  ::_exit(0);
}

// ----- the coordinator's view of a worker -----

struct Worker {
  pid_t pid = -1;
  /// The worker's temporary directory ($TMPDIR in the worker: its replay JVM's server class,
  /// the replays' classes). A worker that ends in the middle of a run — abandoned to a stuck
  /// solver call, or killed — leaves files there; reap() removes them all.
  std::string tmp_dir;
  int job_fd = -1, result_fd = -1;
  LineReader results;
  std::optional<std::size_t> job;  // index into the job list
  Clock::time_point started, kill_at;
};

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::unique_ptr<Worker> spawn(const PoolConfig& cfg, const std::vector<std::unique_ptr<Worker>>& others) {
  int jobs[2], results[2];
  if (::pipe2(jobs, O_CLOEXEC) != 0) return nullptr;
  if (::pipe2(results, O_CLOEXEC) != 0) {
    ::close(jobs[0]);
    ::close(jobs[1]);
    return nullptr;
  }
  std::error_code ec;
  std::filesystem::path root = std::filesystem::temp_directory_path(ec);
  if (ec) root = "/tmp";
  std::string tmp = (root / "pasda-jvm-worker-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) tmp.clear();  // (then the worker uses the temporary directory itself)
  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {jobs[0], jobs[1], results[0], results[1]}) ::close(fd);
    if (!tmp.empty()) std::filesystem::remove_all(tmp, ec);
    return nullptr;
  }
  if (pid == 0) {
    if (!tmp.empty()) ::setenv("TMPDIR", tmp.c_str(), 1);
    // The other workers' pipe ends stay with the coordinator only: holding one would keep a
    // worker from ever seeing the end of its job pipe.
    for (const auto& w : others)
      if (w) {
        if (w->job_fd >= 0) ::close(w->job_fd);
        if (w->result_fd >= 0) ::close(w->result_fd);
      }
    ::close(jobs[1]);
    ::close(results[0]);
    workerMain(cfg, jobs[0], results[1]);
  }
  ::close(jobs[0]);
  ::close(results[1]);
  auto w = std::make_unique<Worker>();
  w->pid = pid;
  w->tmp_dir = tmp;
  w->job_fd = jobs[1];
  w->result_fd = results[0];
  w->results.fd = results[0];
  return w;
}

// Closes a worker's pipes, kills it if asked, and waits for it. Returns its wait status.
int waitFor(Worker& w, bool kill) {
  closeFd(w.job_fd);
  closeFd(w.result_fd);
  if (kill) ::kill(w.pid, SIGKILL);
  int status = 0;
  // A worker whose job pipe is closed ends at once; one that does not is killed after 2 s.
  for (int waited = 0; waited < 200; ++waited) {
    pid_t r = ::waitpid(w.pid, &status, WNOHANG);
    if (r == w.pid || (r < 0 && errno != EINTR)) return status;
    ::usleep(10000);
  }
  ::kill(w.pid, SIGKILL);
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Removes a reaped worker's temporary directory; the crash reports of its replay JVMs
// (pasda-jvm-replay-crash-*.log) move to the temporary directory first, to be read.
void removeWorkerFiles(Worker& w) {
  if (w.tmp_dir.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = w.tmp_dir;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().rfind("pasda-jvm-replay-crash-", 0) == 0) {
      std::error_code moved;
      fs::rename(it->path(), dir.parent_path() / it->path().filename(), moved);
    }
  fs::remove_all(dir, ec);
  w.tmp_dir.clear();
}

// Ends a worker: waitFor, then its files go. Returns its wait status.
int reap(Worker& w, bool kill) {
  const int status = waitFor(w, kill);
  removeWorkerFiles(w);
  return status;
}

Outcome fromResult(const Json& j, double seconds) {
  Outcome o;
  o.time_s = seconds;
  if (j.contains("run")) {
    o.run = report::runFromJson(j.at("run"));
    o.verdict = o.run->result;
  } else {
    o.verdict = classify::Verdict::ERROR;
    o.note = j.value("error", std::string("the worker sent no result"));
  }
  return o;
}

}  // namespace

namespace {

// The coordinator's loop, in three steps repeated until every job has an outcome: hand jobs to
// idle workers, collect results (or notice a worker that ended), end workers past their limit.
class Coordinator {
 public:
  Coordinator(const PoolConfig& cfg, const std::vector<Job>& jobs, const std::function<void(const Job&, Outcome)>& done)
      : cfg_(cfg), jobs_(jobs), done_(done), workers_(static_cast<std::size_t>(std::max(1, cfg.workers))) {
    for (std::size_t i = 0; i < jobs.size(); ++i) pending_.push_back(i);
  }
  ~Coordinator() {
    for (auto& w : workers_)
      if (w) reap(*w, false);
  }

  bool finished() const {
    for (const auto& w : workers_)
      if (w && w->job) return false;
    return pending_.empty();
  }

  void handOut() {
    const auto now = Clock::now();
    for (auto& w : workers_) {
      if (pending_.empty()) return;
      if (w && w->job) continue;
      const double left = cfg_.deadline == Clock::time_point::max()
                              ? cfg_.method_timeout_s
                              : std::chrono::duration<double>(cfg_.deadline - now).count();
      if (left < 0.5) return notStarted();
      if (!w) w = spawn(cfg_, workers_);
      if (!w) throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
      const std::size_t j = pending_.front();
      pending_.pop_front();
      const double timeout = std::min(cfg_.method_timeout_s, left);
      Json line = {{"id", j}, {"cls", jobs_[j].cls}, {"name", jobs_[j].name}, {"descriptor", jobs_[j].descriptor},
                   {"timeout", timeout}};
      w->job = j;
      w->started = now;
      // The worker's own guard answers at timeout + grace; beyond this margin it is stuck.
      w->kill_at = now + std::chrono::milliseconds(static_cast<long long>((timeout * 1.1 + cfg_.grace_s + 5.0) * 1000));
      if (!writeAll(w->job_fd, report::dumpJson(line) + "\n")) lost(w, false);
    }
  }

  void collect(int waitMs) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    for (std::size_t k = 0; k < workers_.size(); ++k)
      if (workers_[k] && workers_[k]->job) {
        fds.push_back({workers_[k]->result_fd, POLLIN, 0});
        which.push_back(k);
      }
    int r = ::poll(fds.data(), fds.size(), waitMs);
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (std::size_t f = 0; r > 0 && f < fds.size(); ++f) {
      if (!(fds[f].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      auto& w = workers_[which[f]];
      char chunk[65536];
      ssize_t n = ::read(w->result_fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        lost(w, false);
        continue;
      }
      w->results.buffer.append(chunk, static_cast<std::size_t>(n));
      while (w && w->job) {
        auto line = w->results.take();
        if (!line) break;
        received(w, *line);
      }
    }
  }

  void endOverdue() {
    const auto now = Clock::now();
    for (auto& w : workers_)
      if (w && w->job && now >= w->kill_at) lost(w, true);
  }

 private:
  void finish(Worker& w, Outcome o) {
    const std::size_t j = *w.job;
    w.job.reset();
    done_(jobs_[j], std::move(o));
  }

  void notStarted() {
    while (!pending_.empty()) {
      Outcome o;
      o.verdict = classify::Verdict::TIMEOUT;
      o.note = "not analysed: the diff's --timeout was reached";
      done_(jobs_[pending_.front()], std::move(o));
      pending_.pop_front();
    }
  }

  void received(std::unique_ptr<Worker>& w, const std::string& line) {
    const double secs = std::chrono::duration<double>(Clock::now() - w->started).count();
    Outcome o;
    bool exiting = false;
    try {
      Json j = report::parseJson(line);
      if (j.value("analysed", false)) {
        // Done analysing, now serialising its run: give that time (bounded all the same).
        w->kill_at = std::max(w->kill_at, Clock::now() + std::chrono::seconds(kSerialiseSeconds));
        return;
      }
      exiting = j.value("exiting", false);
      if (j.contains("fatal")) throw std::runtime_error(j.at("fatal").get<std::string>());
      o = fromResult(j, secs);
    } catch (const std::exception& e) {
      o.verdict = classify::Verdict::ERROR;
      o.note = std::string("the worker's result could not be read: ") + e.what();
      o.time_s = secs;
    }
    finish(*w, std::move(o));
    if (exiting) {  // it left a stuck solver thread behind and ends: replace it
      reap(*w, false);
      w.reset();
    }
  }

  // A worker ended (killed: it was past its limit); its method gets an outcome saying so.
  void lost(std::unique_ptr<Worker>& w, bool killed) {
    const int status = reap(*w, killed);
    if (w->job) {
      Outcome o;
      o.time_s = std::chrono::duration<double>(Clock::now() - w->started).count();
      if (killed) {
        o.verdict = classify::Verdict::TIMEOUT;
        o.note = "the analysis did not stop at its deadline; its worker was ended after " +
                 std::to_string(static_cast<int>(o.time_s)) + " s";
      } else {
        o.verdict = classify::Verdict::ERROR;
        o.note = WIFSIGNALED(status) ? "the analysis crashed (" + signalName(WTERMSIG(status)) + ")"
                                     : "the analysis ended without a result (exit status " +
                                           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
      }
      finish(*w, std::move(o));
    }
    w.reset();
  }

  const PoolConfig& cfg_;
  const std::vector<Job>& jobs_;
  const std::function<void(const Job&, Outcome)>& done_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::deque<std::size_t> pending_;
};

}  // namespace

void runPool(const PoolConfig& cfg, const std::vector<Job>& jobs, const std::function<void(const Job&, Outcome)>& done,
             const std::function<void()>& tick) {
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);  // a dead worker's job pipe must not end the coordinator
  {
    Coordinator c(cfg, jobs, done);
    auto lastTick = Clock::now();
    for (c.handOut(); !c.finished(); c.handOut()) {
      c.collect(200);
      c.endOverdue();
      if (tick && Clock::now() - lastTick >= std::chrono::milliseconds(500)) {
        tick();
        lastTick = Clock::now();
      }
    }
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
}

}  // namespace pasda::release::detail
