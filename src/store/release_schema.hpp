// Store stage (private): the release-diff tables of schema version 3 and the migration from 2.
#pragma once

#include <cstdint>

#include "sqlite_db.hpp"

namespace pasda::store::detail {

/// CREATE TABLE/INDEX IF NOT EXISTS statements of the release-diff tables, separated by ';'.
extern const char* const kReleaseSchemaSql;

/// Bring a database of schema version `found` to the current version, inside the caller's
/// transaction after both schemas were created. False when `found` cannot be migrated.
bool migrate(Db& db, std::int64_t found);

}  // namespace pasda::store::detail
