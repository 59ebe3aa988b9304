// Report stage: JSON writer and string escaping.
#include "json_writer.hpp"

#include <charconv>
#include <cmath>

#include "pasda/report/report.hpp"

namespace pasda::report {

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is invalid.
std::size_t utf8Length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len;
  std::uint32_t cp;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) { len = 2; cp = b0 & 0x1F; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; cp = b0 & 0x0F; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; cp = b0 & 0x07; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  // Reject overlong forms, surrogates and values beyond U+10FFFF.
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return len;
}

}  // namespace

std::string jsonString(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      default: break;
    }
    if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
      continue;
    }
    const std::size_t len = utf8Length(s, i);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  out += '"';
  return out;
}

namespace detail {

void JsonWriter::newlineIndent() {
  out_ << '\n';
  for (std::size_t i = 0; i < stack_.size(); ++i) out_ << "  ";
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& top = stack_.back();
  if (!top.empty) out_ << ',';
  top.empty = false;
  if (stack_.size() <= 2) newlineIndent();
}

JsonWriter& JsonWriter::key(std::string_view k) {
  Level& top = stack_.back();
  if (!top.empty) out_ << ',';
  top.empty = false;
  if (stack_.size() <= 2) newlineIndent();
  out_ << jsonString(k) << ": ";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::beginObject() {
  beforeValue();
  out_ << '{';
  stack_.push_back({true});
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  const bool wasEmpty = stack_.back().empty;
  stack_.pop_back();
  if (!wasEmpty && stack_.size() < 2) newlineIndent();
  out_ << '}';
  return *this;
}

JsonWriter& JsonWriter::beginArray() {
  beforeValue();
  out_ << '[';
  stack_.push_back({false});
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  const bool wasEmpty = stack_.back().empty;
  stack_.pop_back();
  if (!wasEmpty && stack_.size() < 2) newlineIndent();
  out_ << ']';
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ << jsonString(s);
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  beforeValue();
  out_ << (b ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
  beforeValue();
  out_ << i;
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();
  beforeValue();
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
  out_.write(buf, res.ptr - buf);
  return *this;
}

JsonWriter& JsonWriter::null() {
  beforeValue();
  out_ << "null";
  return *this;
}

}  // namespace detail
}  // namespace pasda::report
