// Report stage: the machine-readable report (one JSON object, see report.hpp for the keys).
#include "format.hpp"
#include "json_writer.hpp"
#include "pasda/report/report.hpp"

namespace pasda::report {

using analysis::Effect;
using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;
using classify::verdictName;
using detail::JsonWriter;

namespace {

void optStatus(JsonWriter& w, const char* key, const std::optional<solver::Status>& s) {
  w.key(key);
  if (s) w.value(detail::statusText(*s));
  else w.null();
}

void lines(JsonWriter& w, const char* key, const std::vector<int>& ls) {
  w.key(key).beginArray();
  for (int l : ls) w.value(l);
  w.endArray();
}

void effect(JsonWriter& w, const char* key, const Effect& e) {
  w.key(key).beginObject();
  w.field("kind", detail::effectKindText(e.kind));
  if (e.kind == Effect::Kind::Return) w.field("value", e.value);
  if (e.kind == Effect::Kind::Throw) w.field("exception", e.exception);
  w.key("state").beginArray();
  for (const auto& [name, value] : e.state) w.beginObject().field("name", name).field("value", value).endObject();
  w.endArray();
  w.endObject();
}

void partition(JsonWriter& w, const PartitionResult& p) {
  w.beginObject();
  w.field("index", p.index);
  w.field("result", verdictName(p.result));
  w.field("path_condition", p.path_condition.empty() ? std::string("true") : p.path_condition);
  w.field("constraint_count", p.constraint_count);
  w.key("witness").beginObject();
  for (const auto& v : p.witness) w.field(v.name, v.literal);
  w.endObject();
  w.key("witness_values").beginArray();
  for (const auto& v : p.witness) {
    w.beginObject().field("name", v.name).field("type", v.type).field("literal", v.literal);
    w.optionalText("exact", v.exact).endObject();
  }
  w.endArray();
  w.optionalText("witness_call", p.witness_call);
  w.field("reachability", classify::reachabilityName(p.reachability));
  w.field("output_class", verdictName(p.output_class));
  lines(w, "lines_old", p.lines_old);
  lines(w, "lines_new", p.lines_new);
  w.field("output_old", p.old_effect.text());
  w.field("output_new", p.new_effect.text());
  effect(w, "effect_old", p.old_effect);
  effect(w, "effect_new", p.new_effect);
  w.field("pc_status", detail::statusText(p.pc_status));
  optStatus(w, "neq_status", p.neq_status);
  optStatus(w, "eq_status", p.eq_status);
  w.optionalText("reason_unknown", p.reason_unknown);
  w.optionalText("differs", p.differs);
  w.optionalText("neq_output_old", p.neq_old);
  w.optionalText("neq_output_new", p.neq_new);
  w.field("uif_pc", p.uif_pc).field("uif_old", p.uif_old).field("uif_new", p.uif_new);
  w.field("depth_limited", p.depth_limited).field("timed_out", p.timed_out);
  w.optionalText("decided_by", p.decided_by);
  w.key("replays").beginArray();
  for (const auto& r : p.replays) {
    w.beginObject().field("engine", r.engine).field("output_old", r.old_out).field("output_new", r.new_out);
    w.field("differs", r.differs).optionalText("note", r.note).endObject();
  }
  w.endArray();
  w.field("time_s", p.time_s);
  w.endObject();
}

void partitions(JsonWriter& w, const std::vector<PartitionResult>& ps) {
  w.beginArray();
  for (const auto& p : ps) partition(w, p);
  w.endArray();
}

void iteration(JsonWriter& w, const IterationResult& it) {
  w.beginObject();
  w.field("index", it.index);
  w.field("result", verdictName(it.result));
  w.field("timed_out", it.timed_out).field("depth_limited", it.depth_limited).field("has_uif", it.has_uif);
  w.optionalText("error", it.error);
  w.field("runtime_s", it.runtime_s);
  w.key("uifs").beginArray();
  for (const auto& u : it.uifs) w.value(u);
  w.endArray();
  w.field("partition_count", it.partitions.size());
  w.key("partitions");
  partitions(w, it.partitions);
  w.endObject();
}

void settings(JsonWriter& w, const analysis::RunSettings& s) {
  w.beginObject();
  w.field("tool", s.tool).field("old_path", s.old_path).field("new_path", s.new_path);
  w.field("class_old", s.class_old).field("class_new", s.class_new).field("method", s.method);
  w.field("timeout_s", s.timeout_s).field("depth_limit", s.depth_limit).field("arith", s.arith);
  w.field("solver_timeout_ms", s.solver_timeout_ms).field("heap_bound", s.heap_bound);
  w.optionalText("benchmark", s.benchmark).optionalText("expected", s.expected);
  w.field("version", s.version);
  w.endObject();
}

}  // namespace

void printJson(const RunResult& run, std::ostream& out) {
  JsonWriter w(out);
  w.beginObject();
  w.field("result", verdictName(run.result));
  w.field("exit_code", classify::exitCode(run.result));
  w.optionalText("precheck", run.precheck);
  w.field("errors", run.errors);
  w.key("warnings").beginArray();
  for (const auto& m : run.warnings) w.value(m);
  w.endArray();
  w.field("timed_out", run.timed_out).field("depth_limited", run.depth_limited).field("has_uif", run.has_uif);
  w.field("runtime_s", run.runtime_s);
  w.optionalText("started_at", run.started_at);
  w.key("settings");
  settings(w, run.settings);
  const IterationResult* reported = detail::reportedIteration(run);
  w.key("reported_iteration");
  if (reported) w.value(reported->index);
  else w.null();
  w.key("partitions");
  if (reported) partitions(w, reported->partitions);
  else w.beginArray().endArray();
  w.key("iterations").beginArray();
  for (const auto& it : run.iterations) iteration(w, it);
  w.endArray();
  w.key("steps").beginObject();
  for (const auto& [name, secs] : detail::stepList(run.steps)) w.field(name, secs);
  w.endObject();
  w.endObject();
  out << '\n';
}

}  // namespace pasda::report
