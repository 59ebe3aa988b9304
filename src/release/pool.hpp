// Internal to the release stage: the worker processes that analyse methods. Each worker is a
// forked copy of the coordinator with its own class paths, solver contexts and replay JVM;
// jobs go to it as lines on a pipe and results come back as JSON lines on another. A worker
// that crashes or does not return in time is killed and replaced; its method is reported as
// ERROR or TIMEOUT and no other method is affected.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"

namespace pasda::release::detail {

struct Job {
  std::size_t id = 0;  // the caller's identifier
  std::string cls;     // internal name
  std::string name, descriptor;
};

/// What became of a job.
struct Outcome {
  std::optional<analysis::RunResult> run;
  classify::Verdict verdict = classify::Verdict::ERROR;  // when there is no run
  std::string note;
  double time_s = 0;
};

struct PoolConfig {
  int workers = 1;
  std::string old_path, new_path;            // the versions (jars or directories)
  std::string old_classpath, new_classpath;  // extra class paths
  analysis::Options options;                 // per-method analysis settings
  double method_timeout_s = 10;
  double grace_s = analysis::TimePolicy{}.abandon_grace_s;
  /// The diff's deadline: jobs not started by then are not analysed (time_point::max(): none).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// Analyse `jobs` (in the given order) with config.workers processes; `done` is called in the
/// calling process once per job, in completion order; `tick` about twice a second.
void runPool(const PoolConfig& config, const std::vector<Job>& jobs,
             const std::function<void(const Job&, Outcome)>& done, const std::function<void()>& tick);

}  // namespace pasda::release::detail
