// Store stage (private): a thin RAII layer over the SQLite C API. Every failure becomes a
// StoreError naming the database path and SQLite's message.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "pasda/store/store.hpp"

namespace pasda::store::detail {

class Db;

/// A prepared statement. Parameters are bound in order by run()/query().
class Stmt {
 public:
  Stmt(Db& db, std::string_view sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  /// Binds the arguments to parameters 1..n, executes to completion, resets.
  template <class... A>
  void run(const A&... args) {
    start(args...);
    while (step()) {
    }
    reset();
  }
  /// Binds the arguments; then call step() until it returns false, reading columns.
  template <class... A>
  void start(const A&... args) {
    reset();
    int i = 1;
    (bindOne(i++, args), ...);
  }
  bool step();  // true while a row is available
  void reset();

  bool isNull(int col) const;
  std::int64_t integer(int col) const;
  double real(int col) const;
  std::string text(int col) const;  // "" for NULL
  std::optional<std::int64_t> optInteger(int col) const;

 private:
  void bindOne(int i, std::nullptr_t);
  void bindOne(int i, std::int64_t v);
  void bindOne(int i, int v) { bindOne(i, static_cast<std::int64_t>(v)); }
  void bindOne(int i, unsigned v) { bindOne(i, static_cast<std::int64_t>(v)); }
  void bindOne(int i, std::size_t v) { bindOne(i, static_cast<std::int64_t>(v)); }
  void bindOne(int i, bool v) { bindOne(i, static_cast<std::int64_t>(v ? 1 : 0)); }
  void bindOne(int i, double v);
  void bindOne(int i, std::string_view v);
  void bindOne(int i, const std::string& v) { bindOne(i, std::string_view(v)); }
  void bindOne(int i, const char* v) { bindOne(i, std::string_view(v)); }
  template <class T>
  void bindOne(int i, const std::optional<T>& v) {
    if (v) bindOne(i, *v); else bindOne(i, nullptr);
  }
  void check(int rc, const char* what);

  Db& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// One open connection. Waiting for another connection's lock (SQLite's busy handler and the
/// retries of exec) never goes past the deadline, so that a locked database cannot hold a run
/// beyond its time limit.
class Db {
 public:
  using Clock = std::chrono::steady_clock;
  Db(const std::string& path, int busyTimeoutMs);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void setDeadline(std::optional<Clock::time_point> deadline) { deadline_ = deadline; }
  /// Runs one or more statements without results; `busyRetryMs` > 0 retries while SQLITE_BUSY.
  void exec(const char* sql, int busyRetryMs = 0);
  std::int64_t lastInsertId() const;
  [[noreturn]] void fail(const std::string& what, int rc) const;
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  static int onBusy(void* self, int count);
  Clock::time_point capped(Clock::time_point t) const { return deadline_ && *deadline_ < t ? *deadline_ : t; }

  sqlite3* db_ = nullptr;
  std::string path_;
  int busy_timeout_ms_;
  std::optional<Clock::time_point> deadline_;
  Clock::time_point busy_since_{};
};

/// `sql` cut to `max` characters on one line (whitespace runs become one space), for messages.
std::string sqlSnippet(std::string_view sql, std::size_t max = 60);

/// Optional text: empty strings are stored as NULL.
inline std::optional<std::string_view> nullIfEmpty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return std::string_view(s);
}

}  // namespace pasda::store::detail
