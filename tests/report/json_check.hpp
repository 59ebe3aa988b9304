// Test helper: a strict little JSON parser (RFC 8259 syntax) producing a small DOM, so that
// tests can both validate the report's JSON and look values up.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pasda::testing {

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  const Json* find(const std::string& key) const {
    for (const auto& [k, v] : object) if (k == key) return &v;
    return nullptr;
  }
  const Json& operator[](const std::string& key) const {
    const Json* v = find(key);
    if (!v) throw std::runtime_error("missing key " + key);
    return *v;
  }
  const Json& operator[](std::size_t i) const { return array.at(i); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    ws();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("invalid JSON at offset " + std::to_string(i_) + ": " + what);
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) { ++i_; return true; }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(i_, w.size(), w) == 0) { i_ += w.size(); return true; }
    return false;
  }
  Json value() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.type = Json::Type::Object;
      if (eat('}')) return v;
      do {
        ws();
        std::string k = str();
        expect(':');
        v.object.emplace_back(std::move(k), value());
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++i_;
      v.type = Json::Type::Array;
      if (eat(']')) return v;
      do v.array.push_back(value()); while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.type = Json::Type::String;
      v.string = str();
    } else if (literal("true")) { v.type = Json::Type::Bool; v.boolean = true; }
    else if (literal("false")) { v.type = Json::Type::Bool; }
    else if (literal("null")) { v.type = Json::Type::Null; }
    else { v.type = Json::Type::Number; v.number = num(); }
    return v;
  }
  double num() {
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ >= s_.size() || !isdigit(s_[i_])) fail("bad number");
    if (s_[i_] == '0') ++i_;
    else while (i_ < s_.size() && isdigit(s_[i_])) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !isdigit(s_[i_])) fail("bad fraction");
      while (i_ < s_.size() && isdigit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !isdigit(s_[i_])) fail("bad exponent");
      while (i_ < s_.size() && isdigit(s_[i_])) ++i_;
    }
    return std::stod(s_.substr(start, i_ - start));
  }
  static bool isdigit(char c) { return c >= '0' && c <= '9'; }
  void utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    else { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
           out += static_cast<char>(0x80 | (cp & 0x3F)); }
  }
  std::string str() {
    if (i_ >= s_.size() || s_[i_] != '"') fail("expected string");
    ++i_;
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return out;
      if (c < 0x20) fail("raw control character in string");
      if (c != '\\') { out += static_cast<char>(c); continue; }
      if (i_ >= s_.size()) fail("bad escape");
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) fail("short \\u escape");
          const std::uint32_t cp = static_cast<std::uint32_t>(std::stoul(s_.substr(i_, 4), nullptr, 16));
          i_ += 4;
          utf8(out, cp);
          break;
        }
        default: fail("unknown escape");
      }
    }
  }
  const std::string& s_;
  std::size_t i_ = 0;
};

inline Json parseJson(const std::string& text) { return JsonParser(text).parse(); }

}  // namespace pasda::testing
