// The release-diff command: parse its options, run the diff with a progress line on a
// terminal, store each method as it finishes, then print, write the reports and tests, and
// map the result to the exit status (docs/release-diff.md).
#include "release_cmd.hpp"

#include "output.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>

#include "pasda/release/release.hpp"
#include "pasda/report/junit.hpp"
#include "pasda/report/release_report.hpp"
#include "pasda/store/release_store.hpp"
#include "pasda/witness/witness.hpp"

namespace po = boost::program_options;

namespace pasda::cli {

namespace {

struct Shard {
  int k = 1, n = 1;
};

Shard parseShard(const std::string& s) {
  Shard out;
  auto slash = s.find('/');
  try {
    std::size_t a = 0, b = 0;
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    out.k = std::stoi(s.substr(0, slash), &a);
    out.n = std::stoi(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1) throw std::invalid_argument("trailing characters");
  } catch (const std::exception&) {
    throw analysis::InputError("--shard", "must be K/N, e.g. 2/4, not '" + s + "'");
  }
  if (out.n < 1 || out.n > 100000 || out.k < 1 || out.k > out.n)
    throw analysis::InputError("--shard", "must be K/N with 1 <= K <= N, not '" + s + "'");
  return out;
}

std::string clock(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  char buf[32];
  const long t = static_cast<long>(s + 0.5);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
  else std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  return buf;
}

// The progress line on standard error, only when it is a terminal.
struct ProgressLine {
  bool on = false;
  void show(const release::Progress& p) {
    if (!on) return;
    const double eta = p.done ? p.elapsed_s / static_cast<double>(p.done) * static_cast<double>(p.total - p.done) : NAN;
    std::fprintf(stderr, "\r\033[K[%zu/%zu] NEQ %zu  elapsed %s  ETA %s", p.done, p.total, p.neq,
                 clock(p.elapsed_s).c_str(), p.done ? clock(eta).c_str() : "?");
    std::fflush(stderr);
  }
  void clear() {
    if (on) std::fprintf(stderr, "\r\033[K");
  }
};

void emitTests(const release::ReleaseResult& r, const std::string& dir, int verbosity) {
  std::size_t files = 0;
  for (const auto& m : r.methods) {
    if (!m.run || !m.verdict || *m.verdict != classify::Verdict::NEQ) continue;
    files += report::emitJUnit(*m.run, jvm::toInternalName(m.cls), m.name, m.descriptor, dir, true).size();
  }
  if (verbosity > 0) std::cerr << "pasda-jvm: " << files << " JUnit test file(s) written to " << dir << "\n";
}

}  // namespace

void addReleaseOptions(po::options_description& options) {
  // clang-format off
  options.add_options()
    ("jobs,j", po::value<int>(), "release diff: worker processes analysing methods in parallel (default: the number "
                                 "of cores)")
    ("method-timeout", po::value<double>()->default_value(10), "release diff: wall-clock limit of each analysed "
                                                               "method, seconds (--timeout, when given, bounds the "
                                                               "whole diff)")
    ("shard", po::value<std::string>(), "release diff: analyse only part K/N of the methods (deterministic; run "
                                        "every K on its own host, then merge with --merge or merge-db)")
    ("report", po::value<std::string>(), "release diff: write DIR/index.html (self-contained, sortable) and "
                                         "DIR/summary.md (for a pull-request comment)")
    ("fail-on", po::value<std::string>(), "release diff exit status for CI: 'neq' (1 on any NEQ, else 0) or "
                                          "'undecided' (1 on any NEQ or undecided method, else 0)")
    ("merge", "combine the JSON outputs of the shards of one release diff (the inputs) as if it ran unsharded");
  // clang-format on
}

bool wantsRelease(const po::variables_map& vm, const std::vector<std::string>& inputs) {
  if (vm.count("merge")) return true;
  if (vm.count("method") || vm.count("show-blocks") || vm.count("emit-product") || inputs.size() != 2) return false;
  return release::isReleaseInput(inputs[0]) && release::isReleaseInput(inputs[1]);
}

int runReleaseCommand(const po::variables_map& vm, const analysis::Options& options,
                      const std::vector<std::string>& inputs, const std::string& version) {
  const int verbosity = vm.count("quiet") ? 0 : vm.count("verbose") ? 2 : 1;
  const std::string format = vm["format"].as<std::string>();
  const std::string failOn = vm.count("fail-on") ? vm["fail-on"].as<std::string>() : "";
  if (!failOn.empty() && failOn != "neq" && failOn != "undecided")
    throw analysis::InputError("--fail-on", "must be neq or undecided, not '" + failOn + "'");
  // Every output target is checked before the diff runs, so that its results are never lost.
  if (vm.count("report")) prepareOutputDirectory("report", vm["report"].as<std::string>());
  if (vm.count("emit-tests")) prepareOutputDirectory("emit-tests", vm["emit-tests"].as<std::string>());
  release::ReleaseResult result;
  std::unique_ptr<store::ReleaseStore> db;
  const std::string dbPath = vm.count("db") ? vm["db"].as<std::string>() : "";
  auto openDb = [&] {
    if (dbPath.empty()) return;
    try {
      db = std::make_unique<store::ReleaseStore>(dbPath);
    } catch (const std::exception& e) {
      throw analysis::InputError(dbPath, e.what());
    }
  };
  std::string dbError;
  auto guarded = [&](auto&& write) {
    if (!db || !dbError.empty()) return;
    try {
      write();
    } catch (const std::exception& e) {
      dbError = e.what();  // reported at the end; the diff goes on
    }
  };

  if (vm.count("merge")) {
    if (inputs.empty()) throw analysis::InputError("--merge", "give the JSON outputs of the shards as inputs");
    result = release::mergeShards(inputs);
    openDb();
    guarded([&] {
      db->begin(result);  // every method without a run
      for (const auto& m : result.methods)
        if (m.run) db->method(m);
      db->finish(result);
    });
  } else {
    release::ReleaseOptions ro;
    ro.old_path = inputs[0];
    ro.new_path = inputs[1];
    ro.class_filter = options.class_name;
    ro.analysis = options;
    // Deepening makes a method whose loop runs over an unconstrained input use its whole
    // budget (measured: no benchmark pair decided by it at 10 s); a release diff of thousands
    // of methods deepens only when asked to.
    if (vm["deepen"].defaulted()) ro.analysis.deepen = false;
    // The settle rule: of a method that can no longer be EQ, more paths can only find a NEQ.
    // On commons-lang3 every NEQ partition closed within 0.35 s of the method's first partition
    // that ruled EQ out, while such methods used 85 % of the diff's time at 10 s each
    // (docs/release-diff.md, "The settle rule").
    if (vm["settle"].as<std::string>() == "auto") ro.analysis.settle_s = 1.0;
    // The diff's own oracle has put every method it sends to a worker outside "identical" (or
    // --shortcut off sends identical ones to be analysed): a run must not build the oracle again
    // to ask (0.07 s a method in a worker, 160 s of a whole diff's worker time).
    ro.analysis.identical_shortcut = false;
    ro.method_timeout_s = vm["method-timeout"].as<double>();
    if (!(ro.method_timeout_s > 0) || ro.method_timeout_s > 1e6)
      throw analysis::InputError("--method-timeout", "must be a positive number of seconds");
    ro.timeout_s = vm["timeout"].defaulted() ? 0 : options.timeout_s;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    ro.jobs = vm.count("jobs") ? vm["jobs"].as<int>() : static_cast<int>(cores);
    if (ro.jobs < 1 || ro.jobs > 1024) throw analysis::InputError("--jobs", "must be between 1 and 1024");
    if (vm.count("shard")) {
      Shard s = parseShard(vm["shard"].as<std::string>());
      ro.shard = s.k;
      ro.shard_count = s.n;
    }
    ro.version = version;
    ro.identical_shortcut = vm["shortcut"].as<std::string>() == "on";
    openDb();
    ProgressLine progress;
    progress.on = verbosity > 0 && ::isatty(2);
    release::Observer obs;
    obs.started = [&](const release::ReleaseResult& r) { guarded([&] { db->begin(r); }); };
    obs.method_done = [&](const release::MethodEntry& m) { guarded([&] { db->method(m); }); };
    obs.progress = [&](const release::Progress& p) { progress.show(p); };
    result = release::runRelease(ro, obs);
    progress.clear();
    guarded([&] { db->finish(result); });
  }
  if (!dbError.empty()) result.warnings.push_back("the database " + dbPath + " was not fully written: " + dbError);
  if (vm.count("report")) {
    const std::string dir = vm["report"].as<std::string>();
    try {
      auto files = report::writeReleaseReport(result, dir);
      if (verbosity > 0) std::cerr << "pasda-jvm: report written to " << files.front() << "\n";
    } catch (const std::exception& e) {
      result.warnings.push_back(std::string("the report was not written: ") + e.what());
    }
  }
  if (vm.count("emit-tests")) emitTests(result, vm["emit-tests"].as<std::string>(), verbosity);
  if (format == "json") report::printReleaseJson(result, std::cout);
  else report::printReleaseText(result, std::cout, verbosity);
  return release::releaseExitCode(result, failOn);
}

}  // namespace pasda::cli
