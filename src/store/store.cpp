// Store stage: opening the database and appending one run per transaction.
#include <algorithm>
#include <string>

#include "pasda/store/store.hpp"
#include "store_impl.hpp"

namespace pasda::store {

using analysis::Effect;
using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;
using detail::nullIfEmpty;
using detail::Stmt;

namespace detail {

const StepName kSteps[7] = {
    {"initialization", 1, &analysis::StepTimes::initialization},
    {"instrumentation", 2, &analysis::StepTimes::instrumentation},
    {"symbolic-execution", 3, &analysis::StepTimes::symbolic_execution},
    {"partition-classification", 4, &analysis::StepTimes::partition_classification},
    {"program-classification", 5, &analysis::StepTimes::program_classification},
    {"refinement", 6, &analysis::StepTimes::refinement},
    {"finalization", 7, &analysis::StepTimes::finalization},
};

const char* effectKindName(Effect::Kind k) {
  switch (k) {
    case Effect::Kind::Return: return "RETURN";
    case Effect::Kind::Throw: return "THROW";
    case Effect::Kind::Void: return "VOID";
    case Effect::Kind::None: return "NONE";
  }
  return "NONE";
}

Effect::Kind parseEffectKind(const Db& db, std::string_view name) {
  for (Effect::Kind k : {Effect::Kind::Return, Effect::Kind::Throw, Effect::Kind::Void, Effect::Kind::None}) {
    if (name == effectKindName(k)) return k;
  }
  throw StoreError(db.path(), "corrupt row: unknown effect kind '" + std::string(name) + "'");
}

std::string encodeLines(const std::vector<int>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(lines[i]);
    if (j > i) out += '-' + std::to_string(lines[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> decodeLines(const Db& db, const std::string& text) {
  std::vector<int> out;
  auto bad = [&] { return StoreError(db.path(), "corrupt row: covered lines '" + text + "'"); };
  std::size_t i = 0;
  auto number = [&]() {
    std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == start || i - start > 9) throw bad();
    return std::stoi(text.substr(start, i - start));
  };
  while (i < text.size()) {
    int a = number(), b = a;
    if (i < text.size() && text[i] == '-') {
      ++i;
      b = number();
      if (b < a || b - a > 1000000) throw bad();
    }
    for (int l = a; l <= b; ++l) out.push_back(l);
    if (i < text.size()) {
      if (text[i] != ',') throw bad();
      ++i;
      if (i == text.size()) throw bad();
    }
  }
  return out;
}

}  // namespace detail

namespace {

std::optional<int> statusValue(std::optional<solver::Status> s) {
  if (!s) return std::nullopt;
  return static_cast<int>(*s);
}

/// Prepared INSERT statements of one appendRun call.
struct Inserts {
  explicit Inserts(detail::Db& db)
      : benchmark(db, "INSERT INTO benchmark(benchmark, expected) VALUES(?1, ?2) "
                      "ON CONFLICT(benchmark) DO UPDATE SET expected = coalesce(excluded.expected, expected)"),
        run(db, "INSERT INTO run(benchmark, result, has_timed_out, is_depth_limited, has_uif, iteration_count, "
                "result_iteration, runtime, errors, precheck, started_at, old_path, new_path, class_old, "
                "class_new, method, version) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
        settings(db, "INSERT INTO settings(run_id, tool, run_timeout, solver_timeout_ms, depth_limit, arith, "
                     "heap_bound) VALUES(?,?,?,?,?,?,?)"),
        deepening(db, "INSERT INTO deepening(run_id, enabled, depth_limit_used, rounds, note) VALUES(?,?,?,?,?)"),
        decision(db, "INSERT INTO decision(run_id, decided_by, induction_note) VALUES(?,?,?)"),
        warning(db, "INSERT INTO warning(run_id, position, message) VALUES(?,?,?)"),
        iteration(db, "INSERT INTO iteration(run_id, iteration, result, has_timed_out, is_depth_limited, "
                      "has_uif, partition_count, runtime, errors, uifs) VALUES(?,?,?,?,?,?,?,?,?,?)"),
        partition(db, "INSERT INTO partition(iteration_id, partition, result, reachability, output_class, "
                      "pc_status, neq_status, eq_status, reason_unknown, neq_result_v1, neq_result_v2, "
                      "has_uif, has_uif_pc, has_uif_v1, has_uif_v2, constraint_count, path_condition, "
                      "output_v1, output_v2, is_depth_limited, has_timed_out, decided_by, runtime, "
                      "witness_call, kind_v1, value_v1, exception_v1, kind_v2, value_v2, exception_v2, lines_v1, "
                      "lines_v2) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
        state(db, "INSERT INTO partition_state(partition_id, version, position, name, value) VALUES(?,?,?,?,?)"),
        witness(db, "INSERT INTO witness(partition_id, position, name, type, literal, exact) VALUES(?,?,?,?,?,?)"),
        replay(db, "INSERT INTO replay(partition_id, position, engine, output_v1, output_v2, differs, note) "
                   "VALUES(?,?,?,?,?,?,?)"),
        cause(db, "INSERT INTO cause(partition_id, alternative, position, side, line, kind, method, old_code, "
                  "new_code) VALUES(?,?,?,?,?,?,?,?,?)"),
        runtime(db, "INSERT INTO runtime(run_id, topic, task, runtime, step) VALUES(?,?,?,?,?)") {}
  Stmt benchmark, run, settings, deepening, decision, warning, iteration, partition, state, witness, replay, cause, runtime;
};

std::string joinLines(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += '\n';
    out += items[i];
  }
  return out;
}

// A run's path conditions are stored within a budget: a run with ~100k partitions (one
// iteration of gam/betai at 30 s) has ~400 MB of them, and writing that took longer than the
// run itself. Beyond the budget every path condition keeps an equal prefix (at least
// kMinPathCondition characters) and says how much was left out.
constexpr std::size_t kPathConditionBudget = 32u << 20;
constexpr std::size_t kMinPathCondition = 240;

// The same holds for the rendered outputs (output_v1/v2 and value_v1/v2, which loops make as
// long as path conditions): one budget covers the five texts of every partition.
std::size_t pathConditionLimit(const RunResult& r) {
  std::size_t total = 0, count = 0;
  for (const IterationResult& it : r.iterations)
    for (const PartitionResult& p : it.partitions) {
      total += p.path_condition.size() + 2 * (p.old_effect.value.size() + p.new_effect.value.size());
      count += 5;
    }
  if (total <= kPathConditionBudget || count == 0) return std::string::npos;
  return std::max(kMinPathCondition, kPathConditionBudget / count);
}

std::string clipped(const std::string& s, std::size_t limit) {
  if (s.size() <= limit) return s;
  return s.substr(0, limit) + " ... (" + std::to_string(s.size() - limit) + " more characters not stored)";
}

void writePartition(detail::Db& db, Inserts& ins, std::int64_t iterationId, const PartitionResult& p,
                    std::size_t pcLimit) {
  const Effect& o = p.old_effect;
  const Effect& n = p.new_effect;
  ins.partition.run(iterationId, p.index, classify::verdictName(p.result),
                    classify::reachabilityName(p.reachability), classify::verdictName(p.output_class),
                    static_cast<int>(p.pc_status), statusValue(p.neq_status), statusValue(p.eq_status),
                    nullIfEmpty(p.reason_unknown), nullIfEmpty(p.neq_old), nullIfEmpty(p.neq_new),
                    p.uif_pc || p.uif_old || p.uif_new, p.uif_pc, p.uif_old, p.uif_new, p.constraint_count,
                    clipped(p.path_condition, pcLimit), clipped(o.text(), pcLimit), clipped(n.text(), pcLimit), p.depth_limited, p.timed_out, nullIfEmpty(p.decided_by),
                    p.time_s, nullIfEmpty(p.witness_call), detail::effectKindName(o.kind), nullIfEmpty(clipped(o.value, pcLimit)),
                    nullIfEmpty(o.exception), detail::effectKindName(n.kind), nullIfEmpty(clipped(n.value, pcLimit)),
                    nullIfEmpty(n.exception), detail::encodeLines(p.lines_old), detail::encodeLines(p.lines_new));
  const std::int64_t pid = db.lastInsertId();
  for (int version : {1, 2}) {
    const auto& state = version == 1 ? o.state : n.state;
    for (std::size_t i = 0; i < state.size(); ++i) ins.state.run(pid, version, i, state[i].first, state[i].second);
  }
  for (std::size_t i = 0; i < p.witness.size(); ++i) {
    const auto& w = p.witness[i];
    ins.witness.run(pid, i, w.name, w.type, w.literal, nullIfEmpty(w.exact));
  }
  for (std::size_t i = 0; i < p.replays.size(); ++i) {
    const auto& r = p.replays[i];
    ins.replay.run(pid, i, r.engine, r.old_out, r.new_out, r.differs, nullIfEmpty(r.note));
  }
  for (std::size_t a = 0; a < p.causes.size(); ++a)
    for (std::size_t i = 0; i < p.causes[a].lines.size(); ++i) {
      const auto& l = p.causes[a].lines[i];
      ins.cause.run(pid, a, i, l.side, l.line, l.kind, l.method, nullIfEmpty(l.old_code), nullIfEmpty(l.new_code));
    }
}

std::int64_t writeRun(detail::Db& db, const RunResult& r) {
  Inserts ins(db);
  const std::size_t pcLimit = pathConditionLimit(r);
  const auto& s = r.settings;
  if (!s.benchmark.empty()) ins.benchmark.run(s.benchmark, nullIfEmpty(s.expected));
  std::optional<std::int64_t> resultIteration;
  if (!r.iterations.empty()) resultIteration = static_cast<std::int64_t>(r.reported_iteration) + 1;
  ins.run.run(nullIfEmpty(s.benchmark), classify::verdictName(r.result), r.timed_out, r.depth_limited, r.has_uif,
              r.iterations.size(), resultIteration, r.runtime_s, nullIfEmpty(r.errors), nullIfEmpty(r.precheck),
              nullIfEmpty(r.started_at), s.old_path, s.new_path, s.class_old, s.class_new, s.method, s.version);
  const std::int64_t runId = db.lastInsertId();
  ins.settings.run(runId, analysis::toolName(s.tool), s.timeout_s, s.solver_timeout_ms, s.depth_limit, s.arith, s.heap_bound);
  ins.deepening.run(runId, s.deepen, r.depth_limit_used, r.deepening_rounds, nullIfEmpty(r.deepening_note));
  if (!r.decided_by.empty() || !r.induction_note.empty())
    ins.decision.run(runId, r.decided_by, nullIfEmpty(r.induction_note));
  for (std::size_t i = 0; i < r.warnings.size(); ++i) ins.warning.run(runId, i, r.warnings[i]);
  for (const IterationResult& it : r.iterations) {
    ins.iteration.run(runId, it.index, classify::verdictName(it.result), it.timed_out, it.depth_limited, it.has_uif,
                      it.partitions.size(), it.runtime_s, nullIfEmpty(it.error),
                      it.uifs.empty() ? std::optional<std::string>() : joinLines(it.uifs));
    const std::int64_t iterationId = db.lastInsertId();
    for (const PartitionResult& p : it.partitions) writePartition(db, ins, iterationId, p, pcLimit);
  }
  ins.runtime.run(runId, "run", "", r.runtime_s, 0);
  for (const auto& step : detail::kSteps) ins.runtime.run(runId, "run", step.task, r.steps.*step.field, step.step);
  return runId;
}

}  // namespace

Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

const std::string& Store::path() const { return impl_->db.path(); }

std::int64_t Store::appendRun(const RunResult& run) {
  detail::Db& db = impl_->db;
  db.exec("BEGIN IMMEDIATE", impl_->options.begin_retry_ms);
  try {
    const std::int64_t id = writeRun(db, run);
    db.exec("COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace pasda::store
