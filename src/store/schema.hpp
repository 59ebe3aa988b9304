// Store stage (private): the SQL schema (documented in docs/schema.md).
#pragma once

namespace pasda::store::detail {

/// CREATE TABLE/INDEX IF NOT EXISTS statements for every table, separated by ';'.
extern const char* const kSchemaSql;

}  // namespace pasda::store::detail
