// Class-file writer: the inverse of parseClass. Raw attributes are written as stored; the Code
// attribute of a method is re-serialised from Method::code.
#include <stdexcept>
#include <string>

#include "bytes.hpp"
#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

namespace {

using detail::putU1;
using detail::putU2;
using detail::putU4;

std::uint16_t count16(std::size_t n, const char* what) {
  if (n > 0xffff) throw std::logic_error(std::string("too many ") + what + " for a class file");
  return static_cast<std::uint16_t>(n);
}

void writePool(const ConstantPool& pool, std::vector<std::uint8_t>& out) {
  if (pool.entries.empty()) throw std::logic_error("constant pool has no slot 0");
  putU2(out, count16(pool.entries.size(), "constant-pool entries"));
  for (std::size_t i = 1; i < pool.entries.size(); ++i) {
    const CpEntry& e = pool.entries[i];
    if (e.tag == CpTag::None) throw std::logic_error("unusable constant-pool slot " + std::to_string(i));
    putU1(out, static_cast<std::uint8_t>(e.tag));
    switch (e.tag) {
      case CpTag::Utf8:
        putU2(out, count16(e.utf8.size(), "Utf8 bytes"));
        out.insert(out.end(), e.utf8.begin(), e.utf8.end());
        break;
      case CpTag::Integer: case CpTag::Float: putU4(out, static_cast<std::uint32_t>(e.value)); break;
      case CpTag::Long: case CpTag::Double:
        putU4(out, static_cast<std::uint32_t>(e.value >> 32));
        putU4(out, static_cast<std::uint32_t>(e.value));
        if (i + 1 >= pool.entries.size() || pool.entries[i + 1].tag != CpTag::None)
          throw std::logic_error("Long/Double constant " + std::to_string(i) + " lacks its second slot");
        ++i;
        break;
      case CpTag::Class: case CpTag::String: case CpTag::MethodType: case CpTag::Module: case CpTag::Package:
        putU2(out, e.ref1);
        break;
      case CpTag::Fieldref: case CpTag::Methodref: case CpTag::InterfaceMethodref: case CpTag::NameAndType:
      case CpTag::Dynamic: case CpTag::InvokeDynamic:
        putU2(out, e.ref1);
        putU2(out, e.ref2);
        break;
      case CpTag::MethodHandle:
        putU1(out, e.kind);
        putU2(out, e.ref1);
        break;
      case CpTag::None: break;
    }
  }
}

void writeRaw(const Attribute& a, std::vector<std::uint8_t>& out) {
  putU2(out, a.name_index);
  if (a.data.size() > 0xffffffffu) throw std::logic_error("attribute too large");
  putU4(out, static_cast<std::uint32_t>(a.data.size()));
  out.insert(out.end(), a.data.begin(), a.data.end());
}

void writeCode(std::uint16_t nameIndex, const Code& c, std::vector<std::uint8_t>& out) {
  if (c.bytes.empty() || c.bytes.size() > 0xffff) throw std::logic_error("code length must be 1 to 65535");
  putU2(out, nameIndex);
  std::size_t lenAt = out.size();
  putU4(out, 0);
  putU2(out, c.max_stack);
  putU2(out, c.max_locals);
  putU4(out, static_cast<std::uint32_t>(c.bytes.size()));
  out.insert(out.end(), c.bytes.begin(), c.bytes.end());
  putU2(out, count16(c.handlers.size(), "exception handlers"));
  for (const ExceptionHandler& h : c.handlers) {
    putU2(out, h.start_pc);
    putU2(out, h.end_pc);
    putU2(out, h.handler_pc);
    putU2(out, h.catch_type);
  }
  putU2(out, count16(c.attributes.size(), "Code attributes"));
  for (const Attribute& a : c.attributes) writeRaw(a, out);
  detail::patchU4(out, lenAt, static_cast<std::uint32_t>(out.size() - lenAt - 4));
}

bool isNamed(const ConstantPool& pool, std::uint16_t index, std::string_view name) {
  return pool.valid(index) && pool.entries[index].tag == CpTag::Utf8 && pool.entries[index].utf8 == name;
}

void writeMember(const ConstantPool& pool, const Member& m, std::vector<std::uint8_t>& out) {
  putU2(out, m.access_flags);
  putU2(out, m.name_index);
  putU2(out, m.descriptor_index);
  putU2(out, count16(m.attributes.size(), "member attributes"));
  bool wroteCode = false;
  for (const Attribute& a : m.attributes) {
    if (m.code && isNamed(pool, a.name_index, "Code")) {
      if (wroteCode) throw std::logic_error("method " + m.name + " has two Code attribute slots");
      writeCode(a.name_index, *m.code, out);
      wroteCode = true;
    } else {
      writeRaw(a, out);
    }
  }
  if (m.code && !wroteCode)
    throw std::logic_error("method " + m.name + " has code but no Code attribute slot (use addMethod)");
}

}  // namespace

std::vector<std::uint8_t> writeClass(const ClassFile& cf) {
  std::vector<std::uint8_t> out;
  out.reserve(4096);
  putU4(out, 0xCAFEBABEu);
  putU2(out, cf.minor_version);
  putU2(out, cf.major_version);
  writePool(cf.pool, out);
  putU2(out, cf.access_flags);
  putU2(out, cf.this_class);
  putU2(out, cf.super_class);
  putU2(out, count16(cf.interfaces.size(), "interfaces"));
  for (std::uint16_t i : cf.interfaces) putU2(out, i);
  putU2(out, count16(cf.fields.size(), "fields"));
  for (const Field& f : cf.fields) writeMember(cf.pool, f, out);
  putU2(out, count16(cf.methods.size(), "methods"));
  for (const Method& m : cf.methods) writeMember(cf.pool, m, out);
  putU2(out, count16(cf.attributes.size(), "class attributes"));
  for (const Attribute& a : cf.attributes) writeRaw(a, out);
  return out;
}

}  // namespace pasda::jvm
