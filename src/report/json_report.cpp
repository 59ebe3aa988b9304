// Report stage: the machine-readable report of a run (one JSON object, keys in report.hpp),
// written and read with nlohmann-json.
#include <cmath>

#include "format.hpp"
#include "pasda/report/json.hpp"
#include "pasda/report/report.hpp"

namespace pasda::report {

using analysis::Effect;
using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;
using classify::verdictName;

namespace {

Json optText(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }
Json number(double d) { return std::isfinite(d) ? Json(d) : Json(nullptr); }
Json optStatus(const std::optional<solver::Status>& s) { return s ? Json(detail::statusText(*s)) : Json(nullptr); }

Json effect(const Effect& e) {
  Json j = Json::object();
  j["kind"] = detail::effectKindText(e.kind);
  if (e.kind == Effect::Kind::Return) j["value"] = e.value;
  if (e.kind == Effect::Kind::Throw) j["exception"] = e.exception;
  j["state"] = Json::array();
  for (const auto& [name, value] : e.state) j["state"].push_back(Json{{"name", name}, {"value", value}});
  return j;
}

Json causeLines(const analysis::Cause& c) {
  Json a = Json::array();
  for (const analysis::CauseLine& l : c.lines)
    a.push_back(Json{{"side", l.side},         {"line", l.line},          {"kind", l.kind},
                     {"method", l.method},     {"old_code", optText(l.old_code)}, {"new_code", optText(l.new_code)},
                     {"near_new_lines", l.near_new_lines}});
  return a;
}

Json partition(const PartitionResult& p) {
  Json j = Json::object();
  j["index"] = p.index;
  j["result"] = verdictName(p.result);
  j["path_condition"] = p.path_condition.empty() ? std::string("true") : p.path_condition;
  j["constraint_count"] = p.constraint_count;
  j["witness"] = Json::object();
  for (const auto& v : p.witness) j["witness"][v.name] = v.literal;
  j["witness_values"] = Json::array();
  for (const auto& v : p.witness)
    j["witness_values"].push_back(
        Json{{"name", v.name}, {"type", v.type}, {"literal", v.literal}, {"exact", optText(v.exact)}});
  j["witness_call"] = optText(p.witness_call);
  j["reachability"] = classify::reachabilityName(p.reachability);
  j["output_class"] = verdictName(p.output_class);
  j["lines_old"] = p.lines_old;
  j["lines_new"] = p.lines_new;
  j["output_old"] = p.old_effect.text();
  j["output_new"] = p.new_effect.text();
  j["effect_old"] = effect(p.old_effect);
  j["effect_new"] = effect(p.new_effect);
  j["pc_status"] = detail::statusText(p.pc_status);
  j["neq_status"] = optStatus(p.neq_status);
  j["eq_status"] = optStatus(p.eq_status);
  j["reason_unknown"] = optText(p.reason_unknown);
  j["differs"] = optText(p.differs);
  j["neq_output_old"] = optText(p.neq_old);
  j["neq_output_new"] = optText(p.neq_new);
  j["uif_pc"] = p.uif_pc;
  j["uif_old"] = p.uif_old;
  j["uif_new"] = p.uif_new;
  j["depth_limited"] = p.depth_limited;
  j["timed_out"] = p.timed_out;
  j["decided_by"] = optText(p.decided_by);
  j["replays"] = Json::array();
  for (const auto& r : p.replays)
    j["replays"].push_back(Json{{"engine", r.engine},
                                {"output_old", r.old_out},
                                {"output_new", r.new_out},
                                {"differs", r.differs},
                                {"note", optText(r.note)}});
  // The explanation (issue 14): the smallest correction set, then the other minimal ones.
  j["cause"] = p.causes.empty() ? Json::array() : causeLines(p.causes.front());
  j["cause_alternatives"] = Json::array();
  for (std::size_t i = 1; i < p.causes.size(); ++i) j["cause_alternatives"].push_back(causeLines(p.causes[i]));
  j["cause_note"] = optText(p.cause_note);
  j["explain_s"] = number(p.explain_s);
  j["time_s"] = number(p.time_s);
  return j;
}

Json partitions(const std::vector<PartitionResult>& ps) {
  Json a = Json::array();
  for (const auto& p : ps) a.push_back(partition(p));
  return a;
}

Json iteration(const IterationResult& it) {
  Json j = Json::object();
  j["index"] = it.index;
  j["result"] = verdictName(it.result);
  j["timed_out"] = it.timed_out;
  j["depth_limited"] = it.depth_limited;
  j["has_uif"] = it.has_uif;
  j["error"] = optText(it.error);
  j["runtime_s"] = number(it.runtime_s);
  j["uifs"] = it.uifs;
  j["partition_count"] = it.partitions.size();
  j["partitions"] = partitions(it.partitions);
  return j;
}

Json settings(const analysis::RunSettings& s) {
  return Json{{"tool", analysis::toolName(s.tool)},
              {"old_path", s.old_path},
              {"new_path", s.new_path},
              {"class_old", s.class_old},
              {"class_new", s.class_new},
              {"method", s.method},
              {"timeout_s", number(s.timeout_s)},
              {"depth_limit", s.depth_limit},
              {"deepen", s.deepen},
              {"arith", s.arith},
              {"solver_timeout_ms", s.solver_timeout_ms},
              {"heap_bound", s.heap_bound},
              {"benchmark", optText(s.benchmark)},
              {"expected", optText(s.expected)},
              {"version", s.version}};
}

}  // namespace

Json runToJson(const RunResult& run) {
  Json j = Json::object();
  j["result"] = verdictName(run.result);
  j["arithmetic"] = run.settings.arith;  // the model the verdict is under (also settings.arith)
  j["exit_code"] = classify::exitCode(run.result);
  j["precheck"] = optText(run.precheck);
  j["errors"] = run.errors;
  j["warnings"] = run.warnings;
  j["timed_out"] = run.timed_out;
  j["depth_limited"] = run.depth_limited;
  j["has_uif"] = run.has_uif;
  j["depth_limit_used"] = run.depth_limit_used;
  j["deepening_rounds"] = run.deepening_rounds;
  j["deepening_note"] = optText(run.deepening_note);
  j["decided_by"] = optText(run.decided_by);
  j["induction_note"] = optText(run.induction_note);
  j["runtime_s"] = number(run.runtime_s);
  j["started_at"] = optText(run.started_at);
  j["settings"] = settings(run.settings);
  const IterationResult* reported = detail::reportedIteration(run);
  j["reported_iteration"] = reported ? Json(reported->index) : Json(nullptr);
  j["partitions"] = reported ? partitions(reported->partitions) : Json::array();
  j["iterations"] = Json::array();
  for (const auto& it : run.iterations) j["iterations"].push_back(iteration(it));
  j["steps"] = Json::object();
  for (const auto& [name, secs] : detail::stepList(run.steps)) j["steps"][name] = number(secs);
  return j;
}

std::string dumpJson(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Json parseJson(const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw JsonError(e.what());
  }
}

void printJson(const RunResult& run, std::ostream& out) { out << dumpJson(runToJson(run)) << '\n'; }

std::string jsonString(std::string_view s) { return dumpJson(Json(std::string(s))); }

}  // namespace pasda::report
