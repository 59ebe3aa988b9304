// Run progress that survives a solver call that never returns (analyzeGuarded).
#include <future>
#include <thread>

#include "pasda/analysis/analysis.hpp"
#include "pasda/symexec/executor.hpp"
#include "iteration.hpp"

namespace pasda::analysis {

void RunMonitor::header(const RunResult& run) {
  std::lock_guard<std::mutex> lock(mu_);
  run_ = run;
  run_.iterations.clear();
  run_.depth_limit_used = run.settings.depth_limit;
  run_.deepening_rounds = 1;
}

void RunMonitor::beginIteration(int index, const std::vector<std::string>& uifs) {
  std::lock_guard<std::mutex> lock(mu_);
  IterationResult it;
  it.index = index;
  it.uifs = uifs;
  run_.iterations.push_back(std::move(it));
  in_iteration_ = true;
}

void RunMonitor::partition(const PartitionResult& p) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_iteration_) {
    IterationResult it;
    it.index = static_cast<int>(run_.iterations.size()) + 1;
    run_.iterations.push_back(std::move(it));
    in_iteration_ = true;
  }
  run_.iterations.back().partitions.push_back(p);
}

void RunMonitor::endIteration(const IterationResult& it) {
  std::lock_guard<std::mutex> lock(mu_);
  if (in_iteration_ && !run_.iterations.empty() && run_.iterations.back().index == it.index) {
    run_.iterations.back() = it;
  } else {
    run_.iterations.push_back(it);
  }
  in_iteration_ = false;
}

void RunMonitor::beginRound(const RunResult& completed, int depth) {
  std::lock_guard<std::mutex> lock(mu_);
  completed_ = completed;
  run_.iterations.clear();
  run_.depth_limit_used = depth;
  run_.deepening_rounds = completed.deepening_rounds + 1;
  in_iteration_ = false;
}

RunResult RunMonitor::partial() const {
  RunResult run = run_;
  if (in_iteration_ && !run.iterations.empty()) {
    IterationResult& it = run.iterations.back();
    it.timed_out = true;
    classify::IterationFacts f;
    f.timed_out = true;
    for (const PartitionResult& p : it.partitions) {
      f.partitions.push_back(p.result);
      it.depth_limited = it.depth_limited || p.result == Verdict::DEPTH_LIMITED;
      it.has_uif = it.has_uif || p.uif_pc || p.uif_old || p.uif_new;
    }
    it.result = classify::iterationVerdict(f);
  }
  if (!applyReportedIteration(run)) run.result = Verdict::TIMEOUT;
  if (run.settings.tool == Tool::Prv) run.result = classify::withoutBestEffort(run.result);
  return run;
}

RunResult RunMonitor::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  RunResult run = partial();
  // A deeper round that did not finish replaces the last completed one only with a NEQ it
  // established (the rule of deepen.cpp).
  if (completed_ && run.result != Verdict::NEQ) {
    const int rounds = run.deepening_rounds;
    run = *completed_;
    run.deepening_rounds = rounds;
    run.deepening_note = "a deeper round did not finish; the result of depth " +
                         std::to_string(run.depth_limit_used) + " stands";
  }
  run.timed_out = true;
  run.warnings.push_back("a solver call did not return at the deadline; the run was reported from what had finished");
  return run;
}

RunResult analyzeGuarded(const Version& oldV, const Version& newV, const Options& options, double grace_s,
                         bool& abandoned) {
  abandoned = false;
  auto start = symexec::Clock::now();
  auto monitor = std::make_shared<RunMonitor>();
  auto task = std::make_shared<std::packaged_task<RunResult()>>(
      [&oldV, &newV, options, monitor] { return analyze(oldV, newV, options, monitor.get()); });
  std::future<RunResult> result = task->get_future();
  std::thread worker([task] { (*task)(); });
  auto limit = start + std::chrono::microseconds(static_cast<long long>((options.timeout_s + grace_s) * 1e6));
  if (result.wait_until(limit) == std::future_status::ready) {
    worker.join();
    return result.get();  // rethrows InputError
  }
  worker.detach();  // stuck in a solver call; the process ends without waiting for it
  abandoned = true;
  RunResult run = monitor->snapshot();
  run.runtime_s = std::chrono::duration<double>(symexec::Clock::now() - start).count();
  return run;
}

}  // namespace pasda::analysis
