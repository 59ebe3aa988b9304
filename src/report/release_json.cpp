// Report stage: a release diff as JSON, both ways (--format json writes it, --merge reads the
// shards' outputs back), and the figures every release report shares.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "format.hpp"
#include "pasda/report/release_report.hpp"

namespace pasda::report {

using release::Category;
using release::MethodEntry;
using release::ReleaseResult;

namespace {

Json optText(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }
Json number(double d) { return std::isfinite(d) ? Json(d) : Json(nullptr); }

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

const Json& need(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw JsonError(std::string("missing key '") + key + "'");
  return j.at(key);
}

std::string str(const Json& j, const char* key) {
  const Json& v = need(j, key);
  if (v.is_null()) return "";
  if (!v.is_string()) throw JsonError(std::string("'") + key + "' is not a string");
  return v.get<std::string>();
}

double num(const Json& j, const char* key) {
  const Json& v = need(j, key);
  if (v.is_null()) return 0;
  if (!v.is_number()) throw JsonError(std::string("'") + key + "' is not a number");
  return v.get<double>();
}

std::vector<std::string> strs(const Json& j, const char* key) {
  const Json& v = need(j, key);
  if (!v.is_array()) throw JsonError(std::string("'") + key + "' is not an array");
  std::vector<std::string> out;
  for (const Json& x : v) {
    if (!x.is_string()) throw JsonError(std::string("'") + key + "' holds a non-string");
    out.push_back(x.get<std::string>());
  }
  return out;
}

Json method(const MethodEntry& m) {
  Json j = Json::object();
  j["class"] = m.cls;
  j["method"] = m.name;
  j["descriptor"] = m.descriptor;
  j["category"] = release::categoryName(m.category);
  j["result"] = m.verdict ? Json(classify::verdictName(*m.verdict)) : Json(nullptr);
  j["decided_by"] = m.run                             ? Json("analysis")
                    : m.category == Category::Identical ? Json("identical code")
                    : m.by_callees                      ? Json("equivalent callees")
                                                        : Json(nullptr);
  j["changed_callees"] = m.changed_callees;
  j["reason"] = optText(m.reason);
  j["api_changes"] = m.api_changes;
  j["note"] = optText(m.note);
  j["time_s"] = number(m.time_s);
  const analysis::PartitionResult* p = firstNeq(m);
  j["witness_call"] = p ? optText(p->witness_call) : Json(nullptr);
  j["differs"] = p ? optText(p->differs) : Json(nullptr);
  j["witness_built_by_fields"] = p ? fieldBuiltObjects(p->witness_call) : std::vector<std::string>{};
  j["causes"] = methodCauses(m);
  if (m.run) {
    Json run = runToJson(*m.run);
    run.erase("partitions");  // a copy of the reported iteration's, which "iterations" holds
    j["run"] = std::move(run);
  } else {
    j["run"] = nullptr;
  }
  return j;
}

}  // namespace

ReleaseTimings releaseTimings(const ReleaseResult& r) {
  ReleaseTimings t;
  t.wall_s = r.runtime_s;
  t.oracle_s = r.oracle_s;
  std::vector<double> times;
  for (const MethodEntry& m : r.methods)
    if (m.run) times.push_back(m.time_s);
  t.analysed = times.size();
  t.median_s = quantile(times, 0.5);
  t.p95_s = quantile(times, 0.95);
  t.max_s = times.empty() ? 0 : *std::max_element(times.begin(), times.end());
  std::map<std::string, std::size_t> perClass;
  for (const MethodEntry& m : r.methods) ++perClass[m.cls];
  std::vector<double> counts;
  for (const auto& [cls, n] : perClass) {
    counts.push_back(static_cast<double>(n));
    t.methods_per_class_max = std::max(t.methods_per_class_max, n);
  }
  t.classes = perClass.size();
  t.methods_per_class_median = quantile(counts, 0.5);
  t.methods_per_class_p95 = quantile(counts, 0.95);
  return t;
}

const analysis::PartitionResult* firstNeq(const MethodEntry& m) {
  if (!m.run || m.run->reported_iteration >= m.run->iterations.size()) return nullptr;
  for (const auto& p : m.run->iterations[m.run->reported_iteration].partitions)
    if (p.result == classify::Verdict::NEQ) return &p;
  return nullptr;
}

std::vector<std::string> fieldBuiltObjects(const std::string& call) {
  // Objects are rendered `Name{field = value, ...}` (src/witness/replay.cpp); string and char
  // literals are skipped, so a brace inside one is not an object.
  std::vector<std::string> out;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  for (std::size_t i = 0; i < call.size(); ++i) {
    const char c = call[i];
    if (c == '"' || c == '\'') {
      for (++i; i < call.size() && call[i] != c; ++i)
        if (call[i] == '\\') ++i;
      continue;
    }
    if (c != '{' || i == 0 || !word(call[i - 1])) continue;
    std::size_t b = i;
    while (b > 0 && word(call[b - 1])) --b;
    std::string name = call.substr(b, i - b);
    if (name != "static" && std::isupper(static_cast<unsigned char>(name[0])) &&
        std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(std::move(name));
  }
  return out;
}

std::vector<std::string> methodCauses(const MethodEntry& m) {
  std::vector<std::string> out;
  if (!m.run || m.run->reported_iteration >= m.run->iterations.size()) return out;
  for (const auto& p : m.run->iterations[m.run->reported_iteration].partitions) {
    if (p.result != classify::Verdict::NEQ) continue;
    for (const analysis::Cause& c : p.causes) {
      std::string t = detail::causeText(c);
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(std::move(t));
    }
  }
  return out;
}

std::string undecidedReason(const MethodEntry& m) {
  if (!m.run) return m.note.empty() ? std::string("not analysed") : m.note;
  const analysis::RunResult& run = *m.run;
  if (!run.errors.empty()) return run.errors.substr(0, run.errors.find('\n'));
  std::map<std::string, int> kinds;
  if (run.reported_iteration < run.iterations.size())
    for (const auto& p : run.iterations[run.reported_iteration].partitions)
      if (p.result != classify::Verdict::EQ && p.result != classify::Verdict::UNREACHABLE)
        ++kinds[classify::verdictName(p.result)];
  std::string out;
  for (const auto& [k, n] : kinds) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + k;
  if (!out.empty()) out += " partition" + std::string(kinds.size() == 1 && kinds.begin()->second == 1 ? "" : "s");
  if (run.timed_out) out += (out.empty() ? "" : "; ") + std::string("the method's time limit was reached");
  // (the settle rule's warning: the exploration ended early because EQ was ruled out)
  for (const std::string& w : run.warnings)
    if (w.rfind("the exploration settled: ", 0) == 0) {
      out += (out.empty() ? "" : "; ") + w.substr(std::string("the exploration ").size());
      break;
    }
  return out.empty() ? std::string("no partition was decided") : out;
}

Json releaseToJson(const ReleaseResult& r) {
  const release::Counts c = release::countOf(r);
  const ReleaseTimings t = releaseTimings(r);
  Json j = Json::object();
  j["kind"] = "release-diff";
  j["result"] = classify::verdictName(release::overallVerdict(r));
  j["exit_code"] = release::releaseExitCode(r);
  const auto& s = r.settings;
  j["arithmetic"] = s.arith;  // the model the verdicts are under (also settings.arith)
  j["settings"] = Json{{"old_path", s.old_path},       {"new_path", s.new_path},
                       {"class", optText(s.class_filter)}, {"tool", analysis::toolName(s.tool)},
                       {"arith", s.arith},             {"depth_limit", s.depth_limit},
                       {"method_timeout_s", number(s.method_timeout_s)},
                       {"timeout_s", s.timeout_s > 0 ? number(s.timeout_s) : Json(nullptr)},
                       {"jobs", s.jobs},               {"shard", s.shard},
                       {"shard_count", s.shard_count}, {"fingerprint", s.fingerprint},
                       {"version", s.version}};
  Json counts = Json::object();
  for (Category k : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    counts[release::categoryName(k)] = c.per_category[static_cast<int>(k)];
  counts["EQ"] = c.eq;
  counts["NEQ"] = c.neq;
  counts["undecided"] = c.undecided;
  counts["analysed"] = c.analysed;
  counts["not_run"] = c.not_run;
  counts["eq_by_callees"] = c.eq_by_callees;
  j["counts"] = counts;
  j["classes_old"] = r.classes_old;
  j["classes_new"] = r.classes_new;
  j["classes_common"] = r.classes_common;
  j["methods_total"] = r.methods_total;
  j["started_at"] = optText(r.started_at);
  j["runtime_s"] = number(r.runtime_s);
  j["oracle_s"] = number(r.oracle_s);
  j["timings"] = Json{{"analysed", t.analysed},
                      {"median_s", number(t.median_s)},
                      {"p95_s", number(t.p95_s)},
                      {"max_s", number(t.max_s)},
                      {"classes", t.classes},
                      {"methods_per_class_median", number(t.methods_per_class_median)},
                      {"methods_per_class_p95", number(t.methods_per_class_p95)},
                      {"methods_per_class_max", t.methods_per_class_max}};
  j["warnings"] = r.warnings;
  j["classes"] = Json::array();
  for (const auto& cc : r.classes)
    j["classes"].push_back(Json{{"class", cc.cls}, {"status", cc.status}, {"api_changes", cc.api_changes}});
  j["methods"] = Json::array();
  for (const auto& m : r.methods) j["methods"].push_back(method(m));
  return j;
}

ReleaseResult releaseFromJson(const Json& j) {
  if (!j.is_object() || j.value("kind", std::string()) != "release-diff")
    throw JsonError("not a release diff (kind is not \"release-diff\")");
  ReleaseResult r;
  const Json& s = need(j, "settings");
  r.settings.old_path = str(s, "old_path");
  r.settings.new_path = str(s, "new_path");
  r.settings.class_filter = str(s, "class");
  const std::string tool = str(s, "tool");
  if (auto t = analysis::parseTool(tool)) r.settings.tool = *t;
  else throw JsonError("'tool' is not a tool: '" + tool + "'");
  r.settings.arith = str(s, "arith");
  r.settings.depth_limit = static_cast<int>(num(s, "depth_limit"));
  r.settings.method_timeout_s = num(s, "method_timeout_s");
  r.settings.timeout_s = num(s, "timeout_s");
  r.settings.jobs = static_cast<int>(num(s, "jobs"));
  r.settings.shard = static_cast<int>(num(s, "shard"));
  r.settings.shard_count = static_cast<int>(num(s, "shard_count"));
  r.settings.fingerprint = str(s, "fingerprint");
  r.settings.version = str(s, "version");
  r.classes_old = static_cast<std::size_t>(num(j, "classes_old"));
  r.classes_new = static_cast<std::size_t>(num(j, "classes_new"));
  r.classes_common = static_cast<std::size_t>(num(j, "classes_common"));
  r.methods_total = static_cast<std::size_t>(num(j, "methods_total"));
  r.started_at = str(j, "started_at");
  r.runtime_s = num(j, "runtime_s");
  r.oracle_s = num(j, "oracle_s");
  r.warnings = strs(j, "warnings");
  for (const Json& c : need(j, "classes")) r.classes.push_back({str(c, "class"), str(c, "status"), strs(c, "api_changes")});
  for (const Json& x : need(j, "methods")) {
    MethodEntry m;
    m.cls = str(x, "class");
    m.name = str(x, "method");
    m.descriptor = str(x, "descriptor");
    auto cat = release::parseCategory(str(x, "category"));
    if (!cat) throw JsonError("unknown category '" + str(x, "category") + "'");
    m.category = *cat;
    const std::string res = str(x, "result");
    if (!res.empty()) {
      auto v = classify::parseVerdict(res);
      if (!v) throw JsonError("unknown result '" + res + "'");
      m.verdict = *v;
    }
    m.reason = str(x, "reason");
    m.api_changes = strs(x, "api_changes");
    m.note = str(x, "note");
    if (x.contains("changed_callees")) m.changed_callees = strs(x, "changed_callees");  // (absent before 7 Dec 2026)
    m.by_callees = str(x, "decided_by") == "equivalent callees";
    m.time_s = num(x, "time_s");
    const Json& run = need(x, "run");
    if (!run.is_null()) m.run = runFromJson(run);
    r.methods.push_back(std::move(m));
  }
  return r;
}

void printReleaseJson(const ReleaseResult& r, std::ostream& out) { out << dumpJson(releaseToJson(r)) << '\n'; }

}  // namespace pasda::report
