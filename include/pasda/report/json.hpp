// Report stage: runs as JSON values (nlohmann-json), both ways. The same object is printed by
// `pasda-jvm --format json`, sent from a release diff's worker processes to the coordinator,
// and embedded per method in a release diff's JSON (which --merge reads back).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "pasda/analysis/result.hpp"

namespace pasda::report {

/// Objects keep their keys in insertion order (the documented order of the report).
using Json = nlohmann::ordered_json;

/// A JSON text that is not what the reader expects (missing key, wrong type, unknown name).
class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The run as the object of printJson (keys documented in report.hpp).
Json runToJson(const analysis::RunResult& run);

/// The inverse of runToJson for every field a RunResult has (the duplicated "partitions" of
/// the reported iteration is ignored). Throws JsonError.
analysis::RunResult runFromJson(const Json& j);

/// Compact UTF-8 text of `j`: invalid UTF-8 bytes in strings become U+FFFD, non-finite
/// numbers null.
std::string dumpJson(const Json& j, int indent = -1);

/// Parse a JSON text; throws JsonError with the position on a syntax error.
Json parseJson(const std::string& text);

}  // namespace pasda::report
