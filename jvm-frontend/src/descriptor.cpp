// Field and method descriptors (JVMS 4.3).
#include "pasda/jvm/descriptor.hpp"

#include <stdexcept>

namespace pasda::jvm {

namespace {

[[noreturn]] void bad(std::string_view d, const char* why) {
  throw std::invalid_argument("malformed descriptor '" + std::string(d) + "': " + why);
}

/// Parse one field type starting at `i`; advances `i`.
TypeDesc parseOne(std::string_view d, std::size_t& i, bool allowVoid) {
  std::size_t start = i;
  if (i >= d.size()) bad(d, "unexpected end");
  char c = d[i];
  TypeDesc t;
  t.kind = c;
  switch (c) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': ++i; break;
    case 'V':
      if (!allowVoid) bad(d, "void is only a return type");
      ++i;
      break;
    case 'L': {
      std::size_t semi = d.find(';', i);
      if (semi == std::string_view::npos || semi == i + 1) bad(d, "unterminated class name");
      for (std::size_t k = i + 1; k < semi; ++k)
        if (d[k] == '.' || d[k] == '[' || d[k] == '(' || d[k] == ')') bad(d, "illegal character in class name");
      i = semi + 1;
      break;
    }
    case '[': {
      std::size_t dims = 0;
      while (i < d.size() && d[i] == '[') {
        ++i;
        ++dims;
      }
      if (dims > 255) bad(d, "more than 255 array dimensions");
      (void)parseOne(d, i, false);
      break;
    }
    default: bad(d, "unknown type character");
  }
  t.text = std::string(d.substr(start, i - start));
  return t;
}

}  // namespace

std::string TypeDesc::className() const {
  if (kind != 'L' || text.size() < 3) return {};
  return text.substr(1, text.size() - 2);
}

std::string TypeDesc::elementDescriptor() const { return kind == '[' ? text.substr(1) : std::string(); }

std::string TypeDesc::javaName() const {
  switch (kind) {
    case 'B': return "byte";
    case 'C': return "char";
    case 'D': return "double";
    case 'F': return "float";
    case 'I': return "int";
    case 'J': return "long";
    case 'S': return "short";
    case 'Z': return "boolean";
    case 'V': return "void";
    case 'L': {
      std::string n = className();
      for (char& ch : n)
        if (ch == '/') ch = '.';
      return n;
    }
    case '[': {
      std::size_t i = 0;
      return parseOne(elementDescriptor(), i, false).javaName() + "[]";
    }
    default: return text;
  }
}

int MethodDesc::paramSlots() const {
  int n = 0;
  for (const TypeDesc& p : params) n += p.slots();
  return n;
}

TypeDesc parseFieldDescriptor(std::string_view d) {
  std::size_t i = 0;
  TypeDesc t = parseOne(d, i, false);
  if (i != d.size()) bad(d, "trailing characters");
  return t;
}

MethodDesc parseMethodDescriptor(std::string_view d) {
  if (d.empty() || d[0] != '(') bad(d, "method descriptor must start with '('");
  MethodDesc m;
  std::size_t i = 1;
  while (i < d.size() && d[i] != ')') m.params.push_back(parseOne(d, i, false));
  if (i >= d.size()) bad(d, "missing ')'");
  ++i;
  m.ret = parseOne(d, i, true);
  if (i != d.size()) bad(d, "trailing characters");
  return m;
}

}  // namespace pasda::jvm
