// Report stage (private): a minimal streaming JSON writer (no external JSON library).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pasda::report::detail {

/// Writes one JSON value; commas and nesting are tracked so callers only name keys and values.
/// Objects and arrays are written compactly, with a newline before each member of the
/// outermost two levels for readability.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view k);

  JsonWriter& value(std::string_view s);
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::int64_t i);
  JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(unsigned i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(std::size_t i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(double d);  // non-finite -> null
  JsonWriter& null();

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  /// Key with a string value, or null when the string is empty.
  JsonWriter& optionalText(std::string_view k, const std::string& v) {
    key(k);
    return v.empty() ? null() : value(v);
  }

 private:
  void beforeValue();
  void newlineIndent();

  std::ostream& out_;
  struct Level {
    bool object;
    bool empty = true;
  };
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

}  // namespace pasda::report::detail
