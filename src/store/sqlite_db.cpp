// Store stage (private): SQLite connection and statement wrappers.
#include "sqlite_db.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <thread>

namespace pasda::store {

StoreError::StoreError(std::string path, std::string reason)
    : std::runtime_error("results database " + path + ": " + reason),
      path_(std::move(path)),
      reason_(std::move(reason)) {}

namespace detail {

std::string sqlSnippet(std::string_view sql, std::size_t max) {
  std::string out;
  for (char c : sql) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
    if (out.size() >= max) break;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

Db::Db(const std::string& path, int busyTimeoutMs) : path_(path), busy_timeout_ms_(busyTimeoutMs) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(path_, "cannot open: " + msg);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_handler(db_, &Db::onBusy, this);
}

// SQLite's busy timeout, but bounded by the deadline as well.
int Db::onBusy(void* self, int count) {
  Db& d = *static_cast<Db*>(self);
  const auto now = Clock::now();
  if (count == 0) d.busy_since_ = now;
  const auto limit = d.capped(d.busy_since_ + std::chrono::milliseconds(d.busy_timeout_ms_));
  if (now >= limit) return 0;
  static constexpr int kPauseMs[] = {1, 2, 5, 10, 15, 20, 25, 25, 50, 50, 100};
  const int pause = kPauseMs[std::min<std::size_t>(static_cast<std::size_t>(count), std::size(kPauseMs) - 1)];
  std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(pause), limit - now));
  return 1;
}

Db::~Db() { sqlite3_close_v2(db_); }

void Db::fail(const std::string& what, int rc) const {
  std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  const int primary = rc & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    throw StoreError(path_, "the database stayed locked by another connection; gave up waiting (" + what + ")");
  if (primary == SQLITE_NOTADB) throw StoreError(path_, "is not an SQLite database");
  if (primary == SQLITE_READONLY) throw StoreError(path_, "cannot write: the database is read-only (" + msg + ")");
  throw StoreError(path_, what + ": " + sqlSnippet(msg, 300) + " (code " + std::to_string(rc) + ")");
}

void Db::exec(const char* sql, int busyRetryMs) {
  const auto deadline = capped(Clock::now() + std::chrono::milliseconds(busyRetryMs));
  int pauseMs = 5;
  for (;;) {
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    const int primary = rc & 0xff;
    if ((primary == SQLITE_BUSY || primary == SQLITE_LOCKED) && Clock::now() < deadline) {
      // The busy handler already waited; another connection keeps the lock (or WAL recovery
      // is running, which does not invoke the handler). Back off and try again.
      std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(pauseMs), deadline - Clock::now()));
      pauseMs = std::min(pauseMs * 2, 200);
      continue;
    }
    fail("cannot execute '" + sqlSnippet(sql) + "'", rc);
  }
}

std::int64_t Db::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }

Stmt::Stmt(Db& db, std::string_view sql) : db_(db) {
  const int rc = sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
  if (rc != SQLITE_OK) db_.fail("cannot prepare '" + sqlSnippet(sql) + "'", rc);
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

void Stmt::check(int rc, const char* what) {
  if (rc != SQLITE_OK) db_.fail(what, rc);
}

void Stmt::bindOne(int i, std::nullptr_t) { check(sqlite3_bind_null(stmt_, i), "bind"); }
void Stmt::bindOne(int i, std::int64_t v) { check(sqlite3_bind_int64(stmt_, i, v), "bind"); }
void Stmt::bindOne(int i, double v) { check(sqlite3_bind_double(stmt_, i, v), "bind"); }
void Stmt::bindOne(int i, std::string_view v) {
  check(sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8), "bind");
}

bool Stmt::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string sql = sqlite3_sql(stmt_) ? sqlite3_sql(stmt_) : "";
  db_.fail("statement failed '" + sqlSnippet(sql) + "'", rc);
}

void Stmt::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Stmt::isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
std::int64_t Stmt::integer(int col) const { return sqlite3_column_int64(stmt_, col); }
double Stmt::real(int col) const { return sqlite3_column_double(stmt_, col); }
std::string Stmt::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}
std::optional<std::int64_t> Stmt::optInteger(int col) const {
  if (isNull(col)) return std::nullopt;
  return integer(col);
}

}  // namespace detail
}  // namespace pasda::store
