// Convenience accessors of the class-file model.
#include <algorithm>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

std::uint16_t Code::lineAt(std::uint32_t pc) const {
  // The entry with the greatest start_pc <= pc wins (ties: the later entry, as javap shows).
  std::uint16_t line = 0;
  std::int64_t best = -1;
  for (const LineNumber& ln : line_numbers) {
    if (ln.start_pc <= pc && static_cast<std::int64_t>(ln.start_pc) >= best) {
      best = ln.start_pc;
      line = ln.line;
    }
  }
  return line;
}

std::string ClassFile::name() const { return pool.className(this_class); }

std::string ClassFile::superName() const { return super_class == 0 ? std::string() : pool.className(super_class); }

const Method* ClassFile::findMethod(std::string_view n, std::string_view d) const {
  for (const Method& m : methods)
    if (m.name == n && m.descriptor == d) return &m;
  return nullptr;
}

Method* ClassFile::findMethod(std::string_view n, std::string_view d) {
  for (Method& m : methods)
    if (m.name == n && m.descriptor == d) return &m;
  return nullptr;
}

const Field* ClassFile::findField(std::string_view n, std::string_view d) const {
  for (const Field& f : fields)
    if (f.name == n && f.descriptor == d) return &f;
  return nullptr;
}

std::string ClassFile::sourceFile() const {
  for (const Attribute& a : attributes) {
    if (!pool.valid(a.name_index) || pool.at(a.name_index).tag != CpTag::Utf8) continue;
    if (pool.utf8(a.name_index) != "SourceFile" || a.data.size() != 2) continue;
    auto i = static_cast<std::uint16_t>((a.data[0] << 8) | a.data[1]);
    if (pool.valid(i) && pool.at(i).tag == CpTag::Utf8) return pool.utf8(i);
  }
  return {};
}

const Attribute* findAttribute(const ConstantPool& pool, const std::vector<Attribute>& attrs, std::string_view name) {
  for (const Attribute& a : attrs)
    if (pool.valid(a.name_index) && pool.at(a.name_index).tag == CpTag::Utf8 && pool.utf8(a.name_index) == name)
      return &a;
  return nullptr;
}

Method& addMethod(ClassFile& cf, std::uint16_t access, std::string_view name, std::string_view descriptor,
                  std::optional<Code> code) {
  Method m;
  m.access_flags = access;
  m.name_index = cf.pool.addUtf8(name);
  m.descriptor_index = cf.pool.addUtf8(descriptor);
  m.name = std::string(name);
  m.descriptor = std::string(descriptor);
  if (code) {
    Attribute slot;
    slot.name_index = cf.pool.addUtf8("Code");
    m.attributes.push_back(std::move(slot));  // body re-written from m.code by writeClass
    m.code = std::move(code);
  }
  cf.methods.push_back(std::move(m));
  return cf.methods.back();
}

}  // namespace pasda::jvm
