// Store stage (private): the connection state shared by store.cpp (writing) and load.cpp (reading).
#pragma once

#include <string_view>

#include "pasda/store/store.hpp"
#include "sqlite_db.hpp"

namespace pasda::store {

struct Store::Impl {
  Impl(const std::string& path, const StoreOptions& o) : options(o), db(path, o.busy_timeout_ms) {}
  StoreOptions options;
  detail::Db db;
};

namespace detail {

const char* effectKindName(analysis::Effect::Kind k);
/// Throws StoreError (on `db`'s path) for a name it does not know.
analysis::Effect::Kind parseEffectKind(const Db& db, std::string_view name);

/// The step names and numbers of the paper's Table 10, in step order.
struct StepName {
  const char* task;
  int step;
  double analysis::StepTimes::*field;
};
extern const StepName kSteps[7];

}  // namespace detail
}  // namespace pasda::store
