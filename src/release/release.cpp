// The release diff's driver: inventory and categories, the shard's part, the analysis of the
// affected and changed methods in worker processes, and merging the shards' JSON outputs.
#include "pasda/release/release.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "inventory.hpp"
#include "pool.hpp"
#include "pasda/report/release_report.hpp"

namespace pasda::release {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

std::string nowIso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::tm tmv{};
  gmtime_r(&t, &tmv);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  return buf;
}

// FNV-1a, 64 bits: the fingerprint that ties the shards of one diff together. It depends on
// the contents of the diff and the settings, not on where the jars lie on each host.
struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

std::string fingerprint(const ReleaseResult& all, const ReleaseOptions& o) {
  Fnv f;
  for (const std::string& s : {std::string(analysis::toolName(o.analysis.mode)), std::string(terms::arithName(o.analysis.arith)),
                               std::to_string(o.analysis.depth_limit), std::to_string(o.method_timeout_s),
                               o.class_filter})
    f.add(s);
  if (!o.analysis.deepen) f.add("deepen off");  // (the default, on, keeps the fingerprints of before)
  if (!o.analysis.induction) f.add("induction off");
  if (!o.analysis.split_time) f.add("split-time off");
  if (!o.analysis.deep_search) f.add("deep-search off");
  for (const MethodEntry& m : all.methods) {
    f.add(m.key());
    f.add(categoryName(m.category));
  }
  for (const ClassChange& c : all.classes) f.add(c.cls + " " + c.status);
  return f.hex();
}

// The entries of shard K of N: round robin over each category in key order, so that every
// shard gets its share of the analysed methods.
template <class T, class Group>
std::vector<T> shardOf(const std::vector<T>& items, int shard, int count, Group group) {
  if (count <= 1) return items;
  std::vector<T> out;
  std::map<int, std::size_t> seen;
  for (const T& x : items) {
    std::size_t i = seen[group(x)]++;
    if (static_cast<int>(i % static_cast<std::size_t>(count)) == shard - 1) out.push_back(x);
  }
  return out;
}

// Methods that are in an analysed category but cannot be run on their own.
std::string notAnalysable(const detail::Side& o, const detail::Side& n, const MethodEntry& m) {
  if (m.name == "<clinit>")
    return "class initialisers are not analysed on their own: the methods that read the static state they "
           "build are affected and analysed";
  const bool a = detail::codeSize(o, m) > 0, b = detail::codeSize(n, m) > 0;
  if (!a && !b) return "no code in either version (abstract or native): only its modifiers changed";
  if (!a || !b) return "code in one version only (abstract or native in the other)";
  return "";
}

// What the release report keeps of a run (the database gets it whole): the reported iteration's
// partitions, the undecided and NEQ ones first, at most kKeptPartitions of them, with long texts
// clipped and at most kKeptState pieces of final state per effect; the other iterations keep
// their summaries. A whole release has runs with thousands of partitions, each with the state of
// every static field, and the coordinator holds every method's run until the end.
constexpr std::size_t kKeptPartitions = 25;
constexpr std::size_t kKeptText = 1500;
constexpr std::size_t kKeptValue = 500;
constexpr std::size_t kKeptState = 10;
constexpr std::size_t kKeptStateText = 200;

void clip(std::string& s, std::size_t limit) {
  if (s.size() > limit) s = s.substr(0, limit) + " ... (" + std::to_string(s.size() - limit) + " more characters)";
}

void compactEffect(analysis::Effect& e) {
  clip(e.value, kKeptValue);
  if (e.state.size() > kKeptState) {
    const std::size_t more = e.state.size() - kKeptState;
    e.state.resize(kKeptState);
    e.state.emplace_back("...", std::to_string(more) + " more");
  }
  for (auto& [name, value] : e.state) clip(value, kKeptStateText);
}

void compact(analysis::RunResult& run) {
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < run.iterations.size(); ++i) {
    auto& ps = run.iterations[i].partitions;
    if (i != run.reported_iteration) {
      dropped += ps.size();
      ps.clear();
      continue;
    }
    std::stable_partition(ps.begin(), ps.end(), [](const analysis::PartitionResult& p) {
      return p.result != classify::Verdict::EQ && p.result != classify::Verdict::UNREACHABLE;
    });
    if (ps.size() > kKeptPartitions) {
      dropped += ps.size() - kKeptPartitions;
      ps.resize(kKeptPartitions);
    }
    std::sort(ps.begin(), ps.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
    for (auto& p : ps) {
      clip(p.path_condition, kKeptText);
      clip(p.differs, kKeptValue);
      clip(p.neq_old, kKeptValue);
      clip(p.neq_new, kKeptValue);
      compactEffect(p.old_effect);
      compactEffect(p.new_effect);
    }
  }
  if (dropped)
    run.warnings.push_back(std::to_string(dropped) + " partition(s) are left out of the release report (those of "
                           "other iterations, then EQ ones); --db keeps all of them");
}

// Job ids from here on are changed methods outside this run's entries (another shard's, or a
// class the --class filter left out) whose verdicts the rule of equivalent callees asks for.
constexpr std::size_t kHelperBase = std::size_t{1} << 40;

struct Plan {
  std::vector<detail::Job> first;    // analysed first (with the helpers)
  std::vector<detail::Job> second;   // affected methods the rule may decide
  std::vector<std::string> helpers;  // keys of the helper jobs (id kHelperBase + i)
};

// "a.B.f(I)I" -> a job for a/B.f (I)I.
detail::Job jobOfKey(std::size_t id, const std::string& key) {
  const auto paren = key.find('(');
  const auto dot = key.rfind('.', paren);
  return {id, jvm::toInternalName(key.substr(0, dot)), key.substr(dot + 1, paren - dot - 1), key.substr(paren)};
}

Plan planJobs(const ReleaseResult& r, const detail::Side& o, const ReleaseOptions& opt) {
  Plan plan;
  std::set<std::string> here, helpers;
  for (const MethodEntry& m : r.methods) here.insert(m.key());
  std::vector<std::size_t> size(r.methods.size(), 0);
  for (std::size_t i = 0; i < r.methods.size(); ++i) {
    const MethodEntry& m = r.methods[i];
    if ((!analysed(m.category) && m.category != Category::Identical) || m.verdict) continue;
    size[i] = detail::codeSize(o, m);
    const bool rule = opt.identical_shortcut && m.category == Category::Affected && !m.changed_callees.empty();
    (rule ? plan.second : plan.first).push_back({i, jvm::toInternalName(m.cls), m.name, m.descriptor});
    if (rule)
      for (const std::string& k : m.changed_callees)
        if (!here.count(k)) helpers.insert(k);
  }
  const bool deadline = opt.timeout_s > 0;
  for (auto* jobs : {&plan.first, &plan.second})
    std::stable_sort(jobs->begin(), jobs->end(), [&](const detail::Job& a, const detail::Job& b) {
      return deadline ? size[a.id] < size[b.id] : size[a.id] > size[b.id];
    });
  for (const std::string& k : helpers) {
    plan.first.push_back(jobOfKey(kHelperBase + plan.helpers.size(), k));
    plan.helpers.push_back(k);
  }
  return plan;
}

// Decides `m` EQ when every changed method it reaches is EQ (docs/release-diff.md,
// "Equivalent callees"); false when the rule does not apply.
bool applyCalleeRule(MethodEntry& m, const std::map<std::string, classify::Verdict>& verdicts) {
  if (m.changed_callees.empty()) return false;
  for (const std::string& k : m.changed_callees) {
    auto it = verdicts.find(k);
    if (it == verdicts.end() || it->second != classify::Verdict::EQ) return false;
  }
  m.verdict = classify::Verdict::EQ;
  m.by_callees = true;
  m.run.reset();
  m.time_s = 0;
  std::string list;
  for (std::size_t i = 0; i < m.changed_callees.size() && i < 4; ++i) list += (i ? ", " : "") + m.changed_callees[i];
  if (m.changed_callees.size() > 4) list += " and " + std::to_string(m.changed_callees.size() - 4) + " more";
  m.note = "EQ by equivalent callees: its own code is identical and every changed method it reaches is EQ (" + list + ")";
  return true;
}

}  // namespace

bool isReleaseInput(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".jar") == 0;
}

ReleaseResult runRelease(const ReleaseOptions& opt, const Observer& obs) {
  const auto t0 = Clock::now();
  if (opt.shard < 1 || opt.shard > opt.shard_count)
    throw analysis::InputError("--shard", "must be K/N with 1 <= K <= N");
  const std::string started = nowIso();
  detail::Side o = detail::openSide(opt.old_path, opt.analysis.classpath_old);
  detail::Side n = detail::openSide(opt.new_path, opt.analysis.classpath_new);
  ReleaseResult all = detail::inventory(o, n, opt.class_filter);
  ReleaseSettings& s = all.settings;
  s.old_path = opt.old_path;
  s.new_path = opt.new_path;
  s.class_filter = opt.class_filter;
  s.tool = opt.analysis.mode;
  s.arith = terms::arithName(opt.analysis.arith);
  s.depth_limit = opt.analysis.depth_limit;
  s.method_timeout_s = opt.method_timeout_s;
  s.timeout_s = opt.timeout_s;
  s.jobs = opt.jobs;
  s.shard = opt.shard;
  s.shard_count = opt.shard_count;
  s.fingerprint = fingerprint(all, opt);
  s.version = opt.version;
  all.started_at = started;
  for (MethodEntry& m : all.methods) {
    if (m.category == Category::Identical && opt.identical_shortcut) {
      m.verdict = classify::Verdict::EQ;
    } else if (analysed(m.category) || m.category == Category::Identical) {
      m.note = notAnalysable(o, n, m);
      if (!m.note.empty()) m.verdict = classify::Verdict::UNKNOWN;
    }
  }
  ReleaseResult r = all;
  r.methods = shardOf(all.methods, opt.shard, opt.shard_count, [](const MethodEntry& m) { return static_cast<int>(m.category); });
  r.classes = shardOf(all.classes, opt.shard, opt.shard_count, [](const ClassChange&) { return 0; });
  r.oracle_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // The analysed methods, largest first so that the long ones do not come last (the shortest
  // wall time of a diff that runs to its end); under the diff's own --timeout smallest first,
  // so that as many methods as the deadline allows are decided. The affected methods the rule
  // of equivalent callees may decide come last, after the changed methods it asks about.
  Plan plan = planJobs(r, o, opt);
  if (obs.started) obs.started(r);

  detail::PoolConfig cfg;
  cfg.workers = std::max(1, std::min<int>(opt.jobs, static_cast<int>(std::max<std::size_t>(plan.first.size(), 1))));
  cfg.old_path = opt.old_path;
  cfg.new_path = opt.new_path;
  cfg.old_classpath = opt.analysis.classpath_old;
  cfg.new_classpath = opt.analysis.classpath_new;
  cfg.options = opt.analysis;
  cfg.method_timeout_s = opt.method_timeout_s;
  cfg.grace_s = opt.grace_s;
  if (opt.timeout_s > 0) cfg.deadline = t0 + std::chrono::microseconds(static_cast<long long>(opt.timeout_s * 1e6));
  Progress progress;
  progress.total = plan.first.size() - plan.helpers.size() + plan.second.size();
  auto report = [&] {
    progress.elapsed_s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (obs.progress) obs.progress(progress);
  };
  auto finished = [&](MethodEntry& m) {
    ++progress.done;
    if (m.verdict == classify::Verdict::NEQ) ++progress.neq;
    if (obs.method_done) obs.method_done(m);  // with the whole run (the database stores it all)
    if (m.run) compact(*m.run);
    report();
  };
  std::map<std::string, classify::Verdict> helperVerdicts;
  auto done = [&](const detail::Job& job, detail::Outcome out) {
    const classify::Verdict v = out.run ? out.run->result : out.verdict;
    if (job.id >= kHelperBase) {  // a changed method of another shard or class: for the rule only
      helperVerdicts[plan.helpers[job.id - kHelperBase]] = v;
      return;
    }
    MethodEntry& m = r.methods[job.id];
    m.time_s = out.time_s;
    m.note = out.note;
    m.verdict = v;
    m.run = std::move(out.run);
    finished(m);
  };
  report();
  detail::runPool(cfg, plan.first, done, report);
  // The rule of equivalent callees: an affected method whose changed callees are all EQ.
  std::map<std::string, classify::Verdict> verdicts = helperVerdicts;
  for (const MethodEntry& m : r.methods)
    if (m.verdict) verdicts[m.key()] = *m.verdict;
  std::vector<detail::Job> rest;
  for (const detail::Job& job : plan.second) {
    MethodEntry& m = r.methods[job.id];
    if (applyCalleeRule(m, verdicts)) finished(m);
    else rest.push_back(job);
  }
  if (!rest.empty()) detail::runPool(cfg, rest, done, report);
  r.runtime_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

ReleaseResult mergeShards(const std::vector<std::string>& files) {
  if (files.empty()) throw analysis::InputError("--merge", "no shard outputs given");
  ReleaseResult merged;
  std::set<int> shards;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::ifstream in(files[i], std::ios::binary);
    if (!in) throw analysis::InputError(files[i], "cannot open file");
    std::stringstream ss;
    ss << in.rdbuf();
    ReleaseResult part;
    try {
      part = report::releaseFromJson(report::parseJson(ss.str()));
    } catch (const report::JsonError& e) {
      throw analysis::InputError(files[i], std::string("not the JSON output of a release diff: ") + e.what());
    }
    if (i == 0) {
      merged.settings = part.settings;
      merged.classes_old = part.classes_old;
      merged.classes_new = part.classes_new;
      merged.classes_common = part.classes_common;
      merged.methods_total = part.methods_total;
      merged.started_at = part.started_at;
    } else if (part.settings.fingerprint != merged.settings.fingerprint) {
      throw analysis::InputError(files[i], "belongs to another diff than " + files[0] + " (fingerprints differ)");
    } else if (part.settings.shard_count != merged.settings.shard_count) {
      throw analysis::InputError(files[i], "was split into another number of shards than " + files[0]);
    }
    if (!shards.insert(part.settings.shard).second)
      throw analysis::InputError(files[i], "repeats shard " + std::to_string(part.settings.shard));
    merged.runtime_s = std::max(merged.runtime_s, part.runtime_s);
    merged.oracle_s = std::max(merged.oracle_s, part.oracle_s);
    merged.started_at = std::min(merged.started_at, part.started_at);
    for (auto& m : part.methods) merged.methods.push_back(std::move(m));
    for (auto& c : part.classes) merged.classes.push_back(std::move(c));
    for (auto& w : part.warnings) merged.warnings.push_back(std::move(w));
  }
  if (static_cast<int>(shards.size()) != merged.settings.shard_count)
    merged.warnings.push_back("only " + std::to_string(shards.size()) + " of " +
                              std::to_string(merged.settings.shard_count) + " shards were merged");
  merged.settings.shard = 1;
  merged.settings.shard_count = 1;
  std::sort(merged.methods.begin(), merged.methods.end(), [](const MethodEntry& x, const MethodEntry& y) {
    return std::tie(x.cls, x.name, x.descriptor) < std::tie(y.cls, y.name, y.descriptor);
  });
  std::sort(merged.classes.begin(), merged.classes.end(), [](const ClassChange& x, const ClassChange& y) { return x.cls < y.cls; });
  return merged;
}

}  // namespace pasda::release
