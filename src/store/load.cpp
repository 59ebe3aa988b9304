// Store stage: reading runs back (used by tests and by tools that inspect a database).
#include <algorithm>
#include <string>

#include "pasda/store/store.hpp"
#include "store_impl.hpp"

namespace pasda::store {

using analysis::Effect;
using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;
using detail::Stmt;

namespace {

classify::Verdict verdictOf(const detail::Db& db, const std::string& text) {
  auto v = classify::parseVerdict(text);
  if (!v) throw StoreError(db.path(), "corrupt row: unknown result '" + text + "'");
  return *v;
}

solver::Status statusOf(const detail::Db& db, std::int64_t v) {
  if (v < -1 || v > 1) throw StoreError(db.path(), "corrupt row: status " + std::to_string(v));
  return static_cast<solver::Status>(v);
}

std::optional<solver::Status> optStatus(const detail::Db& db, const Stmt& st, int col) {
  if (st.isNull(col)) return std::nullopt;
  return statusOf(db, st.integer(col));
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = s.find('\n', start);
    out.push_back(s.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

void loadPartitionDetails(detail::Db& mdb, std::int64_t pid, PartitionResult& p) {
  Stmt state(mdb, "SELECT version, name, value FROM partition_state WHERE partition_id = ? ORDER BY version, position");
  state.start(pid);
  while (state.step()) {
    auto& target = state.integer(0) == 1 ? p.old_effect.state : p.new_effect.state;
    target.emplace_back(state.text(1), state.text(2));
  }
  Stmt witness(mdb, "SELECT name, type, literal, exact FROM witness WHERE partition_id = ? ORDER BY position");
  witness.start(pid);
  while (witness.step()) {
    p.witness.push_back({witness.text(0), witness.text(1), witness.text(2), witness.text(3)});
  }
  Stmt replay(mdb, "SELECT engine, output_v1, output_v2, differs, note FROM replay WHERE partition_id = ? "
                   "ORDER BY position");
  replay.start(pid);
  while (replay.step()) {
    p.replays.push_back({replay.text(0), replay.text(1), replay.text(2), replay.integer(3) != 0, replay.text(4)});
  }
  Stmt cause(mdb, "SELECT alternative, side, line, kind, method, old_code, new_code FROM cause WHERE partition_id = ? "
                  "ORDER BY alternative, position");
  cause.start(pid);
  while (cause.step()) {
    const auto a = static_cast<std::size_t>(cause.integer(0));
    if (p.causes.size() <= a) p.causes.resize(a + 1);
    p.causes[a].lines.push_back({cause.text(1), static_cast<int>(cause.integer(2)), cause.text(3), cause.text(4),
                                 cause.text(5), cause.text(6), {}});
  }
}

void loadPartitions(detail::Db& db, std::int64_t iterationId, IterationResult& it) {
  Stmt st(db, "SELECT id, partition, result, reachability, output_class, pc_status, neq_status, eq_status, "
              "reason_unknown, neq_result_v1, neq_result_v2, has_uif_pc, has_uif_v1, has_uif_v2, "
              "constraint_count, path_condition, is_depth_limited, has_timed_out, decided_by, runtime, "
              "witness_call, kind_v1, value_v1, exception_v1, kind_v2, value_v2, exception_v2, lines_v1, lines_v2 "
              "FROM partition WHERE iteration_id = ? ORDER BY id");
  st.start(iterationId);
  while (st.step()) {
    PartitionResult p;
    const std::int64_t pid = st.integer(0);
    p.index = static_cast<int>(st.integer(1));
    p.result = verdictOf(db, st.text(2));
    auto reach = classify::parseReachability(st.text(3));
    if (!reach) throw StoreError(db.path(), "corrupt row: reachability '" + st.text(3) + "'");
    p.reachability = *reach;
    p.output_class = verdictOf(db, st.text(4));
    p.pc_status = statusOf(db, st.integer(5));
    p.neq_status = optStatus(db, st, 6);
    p.eq_status = optStatus(db, st, 7);
    p.reason_unknown = st.text(8);
    p.neq_old = st.text(9);
    p.neq_new = st.text(10);
    p.uif_pc = st.integer(11) != 0;
    p.uif_old = st.integer(12) != 0;
    p.uif_new = st.integer(13) != 0;
    p.constraint_count = static_cast<std::size_t>(st.integer(14));
    p.path_condition = st.text(15);
    p.depth_limited = st.integer(16) != 0;
    p.timed_out = st.integer(17) != 0;
    p.decided_by = st.text(18);
    p.time_s = st.real(19);
    p.witness_call = st.text(20);
    p.old_effect.kind = detail::parseEffectKind(db, st.text(21));
    p.old_effect.value = st.text(22);
    p.old_effect.exception = st.text(23);
    p.new_effect.kind = detail::parseEffectKind(db, st.text(24));
    p.new_effect.value = st.text(25);
    p.new_effect.exception = st.text(26);
    p.lines_old = detail::decodeLines(db, st.text(27));
    p.lines_new = detail::decodeLines(db, st.text(28));
    loadPartitionDetails(db, pid, p);
    it.partitions.push_back(std::move(p));
  }
}

}  // namespace

std::optional<RunResult> Store::loadRun(std::int64_t runId) const {
  detail::Db& db = impl_->db;
  Stmt st(db, "SELECT r.benchmark, b.expected, r.result, r.has_timed_out, r.is_depth_limited, r.has_uif, "
              "r.result_iteration, r.runtime, r.errors, r.precheck, r.started_at, r.old_path, r.new_path, "
              "r.class_old, r.class_new, r.method, r.version, s.tool, s.run_timeout, s.solver_timeout_ms, "
              "s.depth_limit, s.arith, s.heap_bound "
              "FROM run r JOIN settings s ON s.run_id = r.id LEFT JOIN benchmark b ON b.benchmark = r.benchmark "
              "WHERE r.id = ?");
  st.start(runId);
  if (!st.step()) return std::nullopt;
  RunResult r;
  auto& s = r.settings;
  s.benchmark = st.text(0);
  s.expected = st.text(1);
  r.result = verdictOf(db, st.text(2));
  r.timed_out = st.integer(3) != 0;
  r.depth_limited = st.integer(4) != 0;
  r.has_uif = st.integer(5) != 0;
  r.reported_iteration = st.isNull(6) ? 0 : static_cast<std::size_t>(std::max<std::int64_t>(st.integer(6) - 1, 0));
  r.runtime_s = st.real(7);
  r.errors = st.text(8);
  r.precheck = st.text(9);
  r.started_at = st.text(10);
  s.old_path = st.text(11);
  s.new_path = st.text(12);
  s.class_old = st.text(13);
  s.class_new = st.text(14);
  s.method = st.text(15);
  s.version = st.text(16);
  if (auto t = analysis::parseTool(st.text(17))) s.tool = *t;
  else throw StoreError(db.path(), "corrupt row: unknown tool '" + st.text(17) + "'");
  s.timeout_s = st.real(18);
  s.solver_timeout_ms = static_cast<unsigned>(st.integer(19));
  s.depth_limit = static_cast<int>(st.integer(20));
  s.arith = st.text(21);
  s.heap_bound = static_cast<int>(st.integer(22));
  st.reset();

  Stmt decision(db, "SELECT decided_by, induction_note FROM decision WHERE run_id = ?");
  decision.start(runId);
  if (decision.step()) {  // runs of a migrated file have none
    r.decided_by = decision.text(0);
    r.induction_note = decision.text(1);
  }
  decision.reset();
  Stmt deepening(db, "SELECT enabled, depth_limit_used, rounds, note FROM deepening WHERE run_id = ?");
  deepening.start(runId);
  if (deepening.step()) {  // runs of a migrated file have none
    s.deepen = deepening.integer(0) != 0;
    r.depth_limit_used = static_cast<int>(deepening.integer(1));
    r.deepening_rounds = static_cast<int>(deepening.integer(2));
    r.deepening_note = deepening.text(3);
  }
  deepening.reset();

  Stmt warnings(db, "SELECT message FROM warning WHERE run_id = ? ORDER BY position");
  warnings.start(runId);
  while (warnings.step()) r.warnings.push_back(warnings.text(0));

  Stmt its(db, "SELECT id, iteration, result, has_timed_out, is_depth_limited, has_uif, runtime, errors, uifs "
               "FROM iteration WHERE run_id = ? ORDER BY id");
  its.start(runId);
  while (its.step()) {
    IterationResult it;
    const std::int64_t iid = its.integer(0);
    it.index = static_cast<int>(its.integer(1));
    it.result = verdictOf(db, its.text(2));
    it.timed_out = its.integer(3) != 0;
    it.depth_limited = its.integer(4) != 0;
    it.has_uif = its.integer(5) != 0;
    it.runtime_s = its.real(6);
    it.error = its.text(7);
    it.uifs = splitLines(its.text(8));
    loadPartitions(db, iid, it);
    r.iterations.push_back(std::move(it));
  }

  Stmt steps(db, "SELECT step, runtime FROM runtime WHERE run_id = ? AND topic = 'run' AND step > 0");
  steps.start(runId);
  while (steps.step()) {
    for (const auto& step : detail::kSteps) {
      if (step.step == steps.integer(0)) r.steps.*step.field = steps.real(1);
    }
  }
  return r;
}

std::vector<std::int64_t> Store::runIds() const {
  Stmt st(impl_->db, "SELECT id FROM run ORDER BY id");
  std::vector<std::int64_t> ids;
  st.start();
  while (st.step()) ids.push_back(st.integer(0));
  return ids;
}

std::int64_t Store::countRows(const std::string& table) const {
  const auto& names = tableNames();
  const auto& release = releaseTableNames();
  if (std::find(names.begin(), names.end(), table) == names.end() &&
      std::find(release.begin(), release.end(), table) == release.end()) {
    throw StoreError(impl_->db.path(), "no table named '" + table + "' in the schema");
  }
  Stmt st(impl_->db, "SELECT count(*) FROM " + table);  // name checked against the fixed list above
  st.start();
  st.step();
  return st.integer(0);
}

}  // namespace pasda::store
