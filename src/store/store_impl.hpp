// Store stage (private): the connection state shared by store.cpp (writing) and load.cpp (reading).
#pragma once

#include <string_view>
#include <vector>

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

/// Covered lines as text: ascending runs as ranges, in list order ("3-5,8,4"); "" for none.
std::string encodeLines(const std::vector<int>& lines);
/// The inverse; throws StoreError (on `db`'s path) for text that is not such a list.
std::vector<int> decodeLines(const Db& db, const std::string& text);

/// The step names and numbers of the paper's Table 10, in step order.
struct StepName {
  const char* task;
  int step;
  double analysis::StepTimes::*field;
};
extern const StepName kSteps[7];

}  // namespace detail
}  // namespace pasda::store
