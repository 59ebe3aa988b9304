// renameClass: rewrite every mention of one internal class name as another.
// Strategy: each slot that holds a class name, descriptor or signature is pointed at a Utf8
// entry with the rewritten text (added or reused). Utf8 entries are never mutated, so a
// string literal that happens to share the bytes of a class name stays unchanged.
#include <cstring>
#include <stdexcept>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

namespace {

bool classStartContext(char c) { return std::strchr("()[;<>:^+-", c) != nullptr; }

/// Rewrite `Lfrom;`, `Lfrom<` and `Lfrom.` in a descriptor or signature.
std::string rewriteTypes(const std::string& s, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    bool here = s[i] == 'L' && (i == 0 || classStartContext(s[i - 1])) && s.size() > i + 1 + from.size() &&
                s.compare(i + 1, from.size(), from) == 0 && std::strchr(";<.", s[i + 1 + from.size()]) != nullptr &&
                s[i + 1 + from.size()] != '\0';
    if (here) {
      out += 'L';
      out += to;
      i += 1 + from.size();
    } else {
      out += s[i++];
    }
  }
  return out;
}

struct Renamer {
  ClassFile& cf;
  std::string_view from, to;

  std::uint16_t redirect(std::uint16_t index, bool className) {
    if (!cf.pool.valid(index) || cf.pool.entries[index].tag != CpTag::Utf8) return index;
    std::string old = cf.pool.entries[index].utf8;  // copy: addUtf8 may reallocate
    std::string now;
    if (className && old == from) now = std::string(to);
    else if (className && (old.empty() || old[0] != '[')) return index;
    else now = rewriteTypes(old, from, to);
    return now == old ? index : cf.pool.addUtf8(now);
  }

  void rawIndex(std::vector<std::uint8_t>& data, std::size_t at) {
    if (at + 2 > data.size()) return;
    auto old = static_cast<std::uint16_t>((data[at] << 8) | data[at + 1]);
    std::uint16_t now = redirect(old, false);
    data[at] = static_cast<std::uint8_t>(now >> 8);
    data[at + 1] = static_cast<std::uint8_t>(now);
  }

  bool named(const Attribute& a, std::string_view n) const {
    return cf.pool.valid(a.name_index) && cf.pool.entries[a.name_index].tag == CpTag::Utf8 &&
           cf.pool.entries[a.name_index].utf8 == n;
  }

  void signatures(std::vector<Attribute>& attrs) {
    for (Attribute& a : attrs)
      if (named(a, "Signature") && a.data.size() == 2) rawIndex(a.data, 0);
  }

  void code(Code& c) {
    for (Attribute& a : c.attributes) {
      if (!named(a, "LocalVariableTable") && !named(a, "LocalVariableTypeTable")) continue;
      if (a.data.size() < 2) continue;
      std::size_t n = (a.data[0] << 8) | a.data[1];
      for (std::size_t k = 0; k < n && 2 + k * 10 + 10 <= a.data.size(); ++k) rawIndex(a.data, 2 + k * 10 + 6);
    }
    for (LocalVariable& v : c.local_variables) v.descriptor = rewriteTypes(v.descriptor, from, to);
  }

  void member(Member& m) {
    m.descriptor_index = redirect(m.descriptor_index, false);
    m.descriptor = cf.pool.utf8(m.descriptor_index);
    signatures(m.attributes);
    if (m.code) code(*m.code);
  }

  void run() {
    std::size_t n = cf.pool.entries.size();  // entries added below need no rewriting
    for (std::size_t i = 1; i < n; ++i) {
      CpTag t = cf.pool.entries[i].tag;
      if (t == CpTag::Class) {
        std::uint16_t r = redirect(cf.pool.entries[i].ref1, true);
        cf.pool.entries[i].ref1 = r;
      } else if (t == CpTag::NameAndType) {
        std::uint16_t r = redirect(cf.pool.entries[i].ref2, false);
        cf.pool.entries[i].ref2 = r;
      } else if (t == CpTag::MethodType) {
        std::uint16_t r = redirect(cf.pool.entries[i].ref1, false);
        cf.pool.entries[i].ref1 = r;
      }
    }
    for (Field& f : cf.fields) member(f);
    for (Method& m : cf.methods) member(m);
    signatures(cf.attributes);
  }
};

}  // namespace

void renameClass(ClassFile& cf, std::string_view from, std::string_view to) {
  if (from.empty() || to.empty()) throw std::invalid_argument("renameClass: empty class name");
  Renamer{cf, from, to}.run();
}

}  // namespace pasda::jvm
