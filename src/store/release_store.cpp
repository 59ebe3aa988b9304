// Store stage: writing release diffs (tables release_diff, release_class, release_method).
#include "pasda/store/release_store.hpp"

#include "sqlite_db.hpp"

namespace pasda::store {

using detail::nullIfEmpty;
using detail::Stmt;

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : "\n") + s;
  return out;
}

}  // namespace

struct ReleaseStore::Impl {
  Impl(const std::string& path, const StoreOptions& o) : runs(path, o), options(o), db(path, o.busy_timeout_ms) {
    db.exec("PRAGMA foreign_keys = ON");
  }
  Store runs;  // creates or migrates the schema, and writes the runs
  StoreOptions options;
  detail::Db db;
  std::int64_t diff = 0;

  template <class F>
  void transaction(F&& body) {
    db.exec("BEGIN IMMEDIATE", options.begin_retry_ms);
    try {
      body();
      db.exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
};

ReleaseStore::ReleaseStore(const std::string& path, StoreOptions options)
    : impl_(std::make_unique<Impl>(path, options)) {}
ReleaseStore::~ReleaseStore() = default;

std::int64_t ReleaseStore::diffId() const { return impl_->diff; }

std::int64_t ReleaseStore::begin(const release::ReleaseResult& d) {
  Impl& I = *impl_;
  const auto& s = d.settings;
  I.transaction([&] {
    Stmt diff(I.db,
              "INSERT INTO release_diff(fingerprint, shard, shard_count, old_path, new_path, class_filter, tool, arith, "
              "depth_limit, method_timeout, run_timeout, jobs, method_count, started_at, version) "
              "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    diff.run(s.fingerprint, s.shard, s.shard_count, s.old_path, s.new_path, nullIfEmpty(s.class_filter), analysis::toolName(s.tool),
             s.arith, s.depth_limit, s.method_timeout_s,
             s.timeout_s > 0 ? std::optional<double>(s.timeout_s) : std::nullopt, s.jobs, d.methods.size(),
             d.started_at, nullIfEmpty(s.version));
    I.diff = I.db.lastInsertId();
    Stmt cls(I.db, "INSERT INTO release_class(diff_id, class, status, api_changes) VALUES(?,?,?,?)");
    for (const auto& c : d.classes) cls.run(I.diff, c.cls, c.status, joined(c.api_changes));
    // Methods decided without analysis are complete already.
    Stmt m(I.db,
           "INSERT INTO release_method(diff_id, class, method, descriptor, category, result, run_id, reason, "
           "api_changes, note, runtime) VALUES(?,?,?,?,?,?,NULL,?,?,?,?)");
    for (const auto& e : d.methods) {
      if (release::analysed(e.category) && !e.verdict) continue;
      m.run(I.diff, e.cls, e.name, e.descriptor, release::categoryName(e.category),
            e.verdict ? std::optional<std::string>(classify::verdictName(*e.verdict)) : std::nullopt,
            nullIfEmpty(e.reason), nullIfEmpty(joined(e.api_changes)), nullIfEmpty(e.note), e.time_s);
    }
  });
  return I.diff;
}

void ReleaseStore::method(const release::MethodEntry& e) {
  Impl& I = *impl_;
  std::optional<std::int64_t> runId;
  if (e.run) runId = I.runs.appendRun(*e.run);
  I.transaction([&] {
    Stmt m(I.db,
           "INSERT OR REPLACE INTO release_method(diff_id, class, method, descriptor, category, result, run_id, reason, "
           "api_changes, note, runtime) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    m.run(I.diff, e.cls, e.name, e.descriptor, release::categoryName(e.category),
          e.verdict ? std::optional<std::string>(classify::verdictName(*e.verdict)) : std::nullopt, runId,
          nullIfEmpty(e.reason), nullIfEmpty(joined(e.api_changes)), nullIfEmpty(e.note), e.time_s);
  });
}

void ReleaseStore::finish(const release::ReleaseResult& d) {
  Impl& I = *impl_;
  I.transaction([&] {
    Stmt u(I.db, "UPDATE release_diff SET result = ?, exit_code = ?, runtime = ? WHERE id = ?");
    u.run(classify::verdictName(release::overallVerdict(d)), release::releaseExitCode(d), d.runtime_s, I.diff);
  });
}

}  // namespace pasda::store
