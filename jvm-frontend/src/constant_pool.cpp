// ConstantPool lookups and adders (JVMS 4.4).
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

namespace {
std::string idx(std::uint16_t i) { return "constant-pool index " + std::to_string(i); }
}  // namespace

bool ConstantPool::valid(std::uint16_t index) const {
  return index > 0 && index < entries.size() && entries[index].tag != CpTag::None;
}

const CpEntry& ConstantPool::at(std::uint16_t index) const {
  if (!valid(index)) throw std::out_of_range("invalid " + idx(index));
  return entries[index];
}

const std::string& ConstantPool::utf8(std::uint16_t index) const {
  const CpEntry& e = at(index);
  if (e.tag != CpTag::Utf8) throw std::out_of_range(idx(index) + " is not a Utf8 entry");
  return e.utf8;
}

std::string ConstantPool::className(std::uint16_t classIndex) const {
  const CpEntry& e = at(classIndex);
  if (e.tag != CpTag::Class) throw std::out_of_range(idx(classIndex) + " is not a Class entry");
  return utf8(e.ref1);
}

std::pair<std::string, std::string> ConstantPool::nameAndType(std::uint16_t index) const {
  const CpEntry& e = at(index);
  if (e.tag != CpTag::NameAndType) throw std::out_of_range(idx(index) + " is not a NameAndType entry");
  return {utf8(e.ref1), utf8(e.ref2)};
}

MemberRef ConstantPool::member(std::uint16_t refIndex) const {
  const CpEntry& e = at(refIndex);
  if (e.tag != CpTag::Fieldref && e.tag != CpTag::Methodref && e.tag != CpTag::InterfaceMethodref)
    throw std::out_of_range(idx(refIndex) + " is not a field or method reference");
  MemberRef r;
  r.owner = className(e.ref1);
  auto [n, d] = nameAndType(e.ref2);
  r.name = std::move(n);
  r.descriptor = std::move(d);
  r.interface = e.tag == CpTag::InterfaceMethodref;
  return r;
}

namespace {
std::uint16_t findOrAdd(ConstantPool& pool, const CpEntry& want) {
  for (std::size_t i = 1; i < pool.entries.size(); ++i) {
    const CpEntry& e = pool.entries[i];
    if (e.tag == want.tag && e.utf8 == want.utf8 && e.value == want.value && e.ref1 == want.ref1 &&
        e.ref2 == want.ref2 && e.kind == want.kind)
      return static_cast<std::uint16_t>(i);
  }
  bool wide = want.tag == CpTag::Long || want.tag == CpTag::Double;
  if (pool.entries.size() + (wide ? 2 : 1) > 0xffff) throw std::length_error("constant pool is full");
  pool.entries.push_back(want);
  auto index = static_cast<std::uint16_t>(pool.entries.size() - 1);
  if (wide) pool.entries.push_back(CpEntry{});
  return index;
}
}  // namespace

std::uint16_t ConstantPool::addUtf8(std::string_view s) {
  if (s.size() > 0xffff) throw std::length_error("Utf8 constant longer than 65535 bytes");
  CpEntry e;
  e.tag = CpTag::Utf8;
  e.utf8 = std::string(s);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addClass(std::string_view internalName) {
  CpEntry e;
  e.tag = CpTag::Class;
  e.ref1 = addUtf8(internalName);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addString(std::string_view s) {
  CpEntry e;
  e.tag = CpTag::String;
  e.ref1 = addUtf8(s);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addInteger(std::int32_t v) {
  CpEntry e;
  e.tag = CpTag::Integer;
  e.value = static_cast<std::uint32_t>(v);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addFloat(float v) {
  CpEntry e;
  e.tag = CpTag::Float;
  e.value = std::bit_cast<std::uint32_t>(v);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addLong(std::int64_t v) {
  CpEntry e;
  e.tag = CpTag::Long;
  e.value = static_cast<std::uint64_t>(v);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addDouble(double v) {
  CpEntry e;
  e.tag = CpTag::Double;
  e.value = std::bit_cast<std::uint64_t>(v);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addNameAndType(std::string_view name, std::string_view descriptor) {
  CpEntry e;
  e.tag = CpTag::NameAndType;
  e.ref1 = addUtf8(name);
  e.ref2 = addUtf8(descriptor);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addFieldref(std::string_view owner, std::string_view name, std::string_view desc) {
  CpEntry e;
  e.tag = CpTag::Fieldref;
  e.ref1 = addClass(owner);
  e.ref2 = addNameAndType(name, desc);
  return findOrAdd(*this, e);
}

std::uint16_t ConstantPool::addMethodref(std::string_view owner, std::string_view name, std::string_view desc,
                                         bool interface) {
  CpEntry e;
  e.tag = interface ? CpTag::InterfaceMethodref : CpTag::Methodref;
  e.ref1 = addClass(owner);
  e.ref2 = addNameAndType(name, desc);
  return findOrAdd(*this, e);
}

}  // namespace pasda::jvm
