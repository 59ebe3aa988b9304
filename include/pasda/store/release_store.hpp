// Store stage: a release diff in the results database, written as the diff runs: the diff's
// row at the start, one row per method (with its run, if analysed) as it finishes, the totals
// at the end. Each write is one transaction, so an interrupted diff keeps what had finished.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pasda/analysis/release_result.hpp"
#include "pasda/store/store.hpp"

namespace pasda::store {

class ReleaseStore {
 public:
  /// Opens (or creates, or migrates to schema 3) the database. Throws StoreError.
  explicit ReleaseStore(const std::string& path, StoreOptions options = {});
  ~ReleaseStore();
  ReleaseStore(const ReleaseStore&) = delete;
  ReleaseStore& operator=(const ReleaseStore&) = delete;

  /// The diff's row (result still NULL) and its classes' rows; returns the diff id.
  std::int64_t begin(const release::ReleaseResult& diff);
  /// One finished method: its run (table run and children) and its release_method row.
  void method(const release::MethodEntry& m);
  /// The diff's result, exit status and run time.
  void finish(const release::ReleaseResult& diff);
  std::int64_t diffId() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pasda::store
