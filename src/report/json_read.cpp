// Report stage: reading a run back from its JSON object (runFromJson), for the worker
// processes of a release diff and for merging shard outputs. Every malformed value is a
// JsonError naming the key.
#include <string_view>

#include "format.hpp"
#include "pasda/report/json.hpp"

namespace pasda::report {

using analysis::Effect;
using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;

namespace {

const Json& at(const Json& j, const char* key) {
  if (!j.is_object()) throw JsonError(std::string("expected an object holding '") + key + "'");
  auto it = j.find(key);
  if (it == j.end()) throw JsonError(std::string("missing key '") + key + "'");
  return *it;
}

std::string text(const Json& j, const char* key) {
  const Json& v = at(j, key);
  if (v.is_null()) return "";
  if (!v.is_string()) throw JsonError(std::string("'") + key + "' is not a string");
  return v.get<std::string>();
}

bool flag(const Json& j, const char* key) {
  const Json& v = at(j, key);
  if (!v.is_boolean()) throw JsonError(std::string("'") + key + "' is not a boolean");
  return v.get<bool>();
}

double real(const Json& j, const char* key) {
  const Json& v = at(j, key);
  if (v.is_null()) return 0;
  if (!v.is_number()) throw JsonError(std::string("'") + key + "' is not a number");
  return v.get<double>();
}

long long integer(const Json& j, const char* key) {
  const Json& v = at(j, key);
  if (!v.is_number_integer() && !v.is_number_unsigned()) throw JsonError(std::string("'") + key + "' is not an integer");
  return v.get<long long>();
}

const Json& array(const Json& j, const char* key) {
  const Json& v = at(j, key);
  if (!v.is_array()) throw JsonError(std::string("'") + key + "' is not an array");
  return v;
}

classify::Verdict verdict(const Json& j, const char* key) {
  auto v = classify::parseVerdict(text(j, key));
  if (!v) throw JsonError(std::string("'") + key + "' is not a result class");
  return *v;
}

std::optional<solver::Status> status(const Json& j, const char* key) {
  const std::string s = text(j, key);
  if (s.empty()) return std::nullopt;
  for (solver::Status st : {solver::Status::Sat, solver::Status::Unsat, solver::Status::Unknown})
    if (s == detail::statusText(st)) return st;
  throw JsonError(std::string("'") + key + "' is not a solver status");
}

std::vector<int> lines(const Json& j, const char* key) {
  std::vector<int> out;
  for (const Json& l : array(j, key)) {
    if (!l.is_number_integer()) throw JsonError(std::string("'") + key + "' holds a non-integer");
    out.push_back(l.get<int>());
  }
  return out;
}

std::vector<std::string> strings(const Json& j, const char* key) {
  std::vector<std::string> out;
  for (const Json& s : array(j, key)) {
    if (!s.is_string()) throw JsonError(std::string("'") + key + "' holds a non-string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Effect effect(const Json& j) {
  Effect e;
  const std::string kind = text(j, "kind");
  bool known = false;
  for (Effect::Kind k : {Effect::Kind::Return, Effect::Kind::Throw, Effect::Kind::Void, Effect::Kind::None})
    if (kind == detail::effectKindText(k)) {
      e.kind = k;
      known = true;
    }
  if (!known) throw JsonError("unknown effect kind '" + kind + "'");
  if (e.kind == Effect::Kind::Return) e.value = text(j, "value");
  if (e.kind == Effect::Kind::Throw) e.exception = text(j, "exception");
  for (const Json& s : array(j, "state")) e.state.emplace_back(text(s, "name"), text(s, "value"));
  return e;
}

analysis::Cause cause(const Json& a) {
  if (!a.is_array()) throw JsonError("'cause' is not an array");
  analysis::Cause c;
  for (const Json& l : a) {
    c.lines.push_back({text(l, "side"), static_cast<int>(integer(l, "line")), text(l, "kind"), text(l, "method"),
                       text(l, "old_code"), text(l, "new_code"), {}});
    if (l.contains("near_new_lines")) c.lines.back().near_new_lines = lines(l, "near_new_lines");
  }
  return c;
}

/// The explanation of a partition; absent in the JSON of versions before issue 14.
void causes(const Json& j, PartitionResult& p) {
  if (!j.contains("cause")) return;
  analysis::Cause first = cause(at(j, "cause"));
  if (!first.lines.empty()) p.causes.push_back(std::move(first));
  if (j.contains("cause_alternatives"))
    for (const Json& a : array(j, "cause_alternatives")) p.causes.push_back(cause(a));
  if (j.contains("cause_note")) p.cause_note = text(j, "cause_note");
  if (j.contains("explain_s")) p.explain_s = real(j, "explain_s");
}

PartitionResult partition(const Json& j) {
  PartitionResult p;
  p.index = static_cast<int>(integer(j, "index"));
  p.result = verdict(j, "result");
  p.path_condition = text(j, "path_condition");
  p.constraint_count = static_cast<std::size_t>(integer(j, "constraint_count"));
  for (const Json& w : array(j, "witness_values"))
    p.witness.push_back({text(w, "name"), text(w, "type"), text(w, "literal"), text(w, "exact")});
  p.witness_call = text(j, "witness_call");
  causes(j, p);
  auto reach = classify::parseReachability(text(j, "reachability"));
  if (!reach) throw JsonError("'reachability' is not a reachability");
  p.reachability = *reach;
  p.output_class = verdict(j, "output_class");
  p.lines_old = lines(j, "lines_old");
  p.lines_new = lines(j, "lines_new");
  p.old_effect = effect(at(j, "effect_old"));
  p.new_effect = effect(at(j, "effect_new"));
  auto pc = status(j, "pc_status");
  if (!pc) throw JsonError("'pc_status' is missing");
  p.pc_status = *pc;
  p.neq_status = status(j, "neq_status");
  p.eq_status = status(j, "eq_status");
  p.reason_unknown = text(j, "reason_unknown");
  p.differs = text(j, "differs");
  p.neq_old = text(j, "neq_output_old");
  p.neq_new = text(j, "neq_output_new");
  p.uif_pc = flag(j, "uif_pc");
  p.uif_old = flag(j, "uif_old");
  p.uif_new = flag(j, "uif_new");
  p.depth_limited = flag(j, "depth_limited");
  p.timed_out = flag(j, "timed_out");
  p.decided_by = text(j, "decided_by");
  for (const Json& r : array(j, "replays"))
    p.replays.push_back({text(r, "engine"), text(r, "output_old"), text(r, "output_new"), flag(r, "differs"), text(r, "note")});
  p.time_s = real(j, "time_s");
  return p;
}

IterationResult iteration(const Json& j) {
  IterationResult it;
  it.index = static_cast<int>(integer(j, "index"));
  it.result = verdict(j, "result");
  it.timed_out = flag(j, "timed_out");
  it.depth_limited = flag(j, "depth_limited");
  it.has_uif = flag(j, "has_uif");
  it.error = text(j, "error");
  it.runtime_s = real(j, "runtime_s");
  it.uifs = strings(j, "uifs");
  for (const Json& p : array(j, "partitions")) it.partitions.push_back(partition(p));
  return it;
}

}  // namespace

RunResult runFromJson(const Json& j) {
  RunResult r;
  r.result = verdict(j, "result");
  r.precheck = text(j, "precheck");
  r.errors = text(j, "errors");
  r.warnings = strings(j, "warnings");
  r.timed_out = flag(j, "timed_out");
  r.depth_limited = flag(j, "depth_limited");
  r.has_uif = flag(j, "has_uif");
  r.depth_limit_used = static_cast<int>(integer(j, "depth_limit_used"));
  r.deepening_rounds = static_cast<int>(integer(j, "deepening_rounds"));
  r.deepening_note = text(j, "deepening_note");
  if (j.contains("decided_by")) r.decided_by = text(j, "decided_by");  // (absent in older files)
  if (j.contains("induction_note")) r.induction_note = text(j, "induction_note");
  r.runtime_s = real(j, "runtime_s");
  r.started_at = text(j, "started_at");
  const Json& s = at(j, "settings");
  const std::string tool = text(s, "tool");
  if (auto t = analysis::parseTool(tool)) r.settings.tool = *t;
  else throw JsonError("'tool' is not a tool: '" + tool + "'");
  r.settings.old_path = text(s, "old_path");
  r.settings.new_path = text(s, "new_path");
  r.settings.class_old = text(s, "class_old");
  r.settings.class_new = text(s, "class_new");
  r.settings.method = text(s, "method");
  r.settings.timeout_s = real(s, "timeout_s");
  r.settings.depth_limit = static_cast<int>(integer(s, "depth_limit"));
  r.settings.deepen = flag(s, "deepen");
  r.settings.arith = text(s, "arith");
  r.settings.solver_timeout_ms = static_cast<unsigned>(integer(s, "solver_timeout_ms"));
  r.settings.heap_bound = static_cast<int>(integer(s, "heap_bound"));
  r.settings.benchmark = text(s, "benchmark");
  r.settings.expected = text(s, "expected");
  r.settings.version = text(s, "version");
  for (const Json& it : array(j, "iterations")) r.iterations.push_back(iteration(it));
  const Json& rep = at(j, "reported_iteration");
  if (!rep.is_null()) {
    const long long idx = integer(j, "reported_iteration");
    for (std::size_t k = 0; k < r.iterations.size(); ++k)
      if (r.iterations[k].index == idx) r.reported_iteration = k;
  }
  const Json& steps = at(j, "steps");
  analysis::StepTimes& st = r.steps;
  std::pair<const char*, double*> fields[] = {{"initialization", &st.initialization},
                                              {"instrumentation", &st.instrumentation},
                                              {"symbolic-execution", &st.symbolic_execution},
                                              {"partition-classification", &st.partition_classification},
                                              {"program-classification", &st.program_classification},
                                              {"refinement", &st.refinement},
                                              {"finalization", &st.finalization}};
  for (auto& [name, field] : fields) *field = real(steps, name);
  return r;
}

}  // namespace pasda::report
