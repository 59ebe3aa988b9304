#include "pasda/product/assembler.hpp"

#include <stdexcept>

#include "pasda/jvm/descriptor.hpp"

namespace pasda::product {

using jvm::Opcode;

int Assembler::newLabel() {
  labels_.push_back(-1);
  return static_cast<int>(labels_.size()) - 1;
}

void Assembler::bind(int label) { labels_.at(static_cast<std::size_t>(label)) = static_cast<int>(code_.size()); }

void Assembler::op(Opcode o) { code_.push_back(static_cast<std::uint8_t>(o)); }

void Assembler::u2(std::uint16_t v) {
  code_.push_back(static_cast<std::uint8_t>(v >> 8));
  code_.push_back(static_cast<std::uint8_t>(v & 0xFF));
}

void Assembler::jump(Opcode o, int label) {
  fixups_.emplace_back(code_.size(), label);
  op(o);
  u2(0);
}

static Opcode loadOp(char k) {
  switch (k) {
    case 'J': return Opcode::lload;
    case 'F': return Opcode::fload;
    case 'D': return Opcode::dload;
    case 'L': case '[': return Opcode::aload;
    default: return Opcode::iload;
  }
}

static Opcode storeOp(char k) {
  switch (k) {
    case 'J': return Opcode::lstore;
    case 'F': return Opcode::fstore;
    case 'D': return Opcode::dstore;
    case 'L': case '[': return Opcode::astore;
    default: return Opcode::istore;
  }
}

void Assembler::load(char kind, int slot) {
  if (slot > 255) throw std::logic_error("product: too many locals");
  op(loadOp(kind));
  u1(static_cast<std::uint8_t>(slot));
}

void Assembler::store(char kind, int slot) {
  if (slot > 255) throw std::logic_error("product: too many locals");
  op(storeOp(kind));
  u1(static_cast<std::uint8_t>(slot));
}

void Assembler::ret(char kind) {
  switch (kind) {
    case 'V': op(Opcode::return_); break;
    case 'J': op(Opcode::lreturn); break;
    case 'F': op(Opcode::freturn); break;
    case 'D': op(Opcode::dreturn); break;
    case 'L': case '[': op(Opcode::areturn); break;
    default: op(Opcode::ireturn); break;
  }
}

void Assembler::pushDefault(char kind) {
  switch (kind) {
    case 'J': op(Opcode::lconst_0); break;
    case 'F': op(Opcode::fconst_0); break;
    case 'D': op(Opcode::dconst_0); break;
    case 'L': case '[': op(Opcode::aconst_null); break;
    default: op(Opcode::iconst_0); break;
  }
}

void Assembler::invoke(Opcode o, const std::string& owner, const std::string& name, const std::string& desc) {
  op(o);
  if (o != Opcode::invokeinterface) {
    u2(pool_.addMethodref(owner, name, desc));
    return;
  }
  // An InterfaceMethodref, then the argument slots (the receiver included) and a zero byte.
  u2(pool_.addMethodref(owner, name, desc, true));
  u1(static_cast<std::uint8_t>(1 + jvm::parseMethodDescriptor(desc).paramSlots()));
  u1(0);
}

void Assembler::field(Opcode o, const std::string& owner, const std::string& name, const std::string& desc) {
  op(o);
  u2(pool_.addFieldref(owner, name, desc));
}

void Assembler::newObject(const std::string& cls) {
  op(Opcode::new_);
  u2(pool_.addClass(cls));
}

void Assembler::ldcString(const std::string& s) {
  std::uint16_t idx = pool_.addString(s);
  if (idx < 256) {
    op(Opcode::ldc);
    u1(static_cast<std::uint8_t>(idx));
  } else {
    op(Opcode::ldc_w);
    u2(idx);
  }
}

void Assembler::iconst(int v) {
  if (v >= -1 && v <= 5) {
    op(static_cast<Opcode>(static_cast<int>(Opcode::iconst_0) + v));
  } else if (v >= -128 && v <= 127) {
    op(Opcode::bipush);
    u1(static_cast<std::uint8_t>(v));
  } else {
    op(Opcode::sipush);
    u2(static_cast<std::uint16_t>(v));
  }
}

std::vector<std::uint8_t> Assembler::finish() {
  for (auto [at, label] : fixups_) {
    int target = labels_.at(static_cast<std::size_t>(label));
    if (target < 0) throw std::logic_error("product: unbound label");
    int off = target - static_cast<int>(at);
    code_[at + 1] = static_cast<std::uint8_t>((off >> 8) & 0xFF);
    code_[at + 2] = static_cast<std::uint8_t>(off & 0xFF);
  }
  return code_;
}

jvm::Method codeMethod(jvm::ClassFile& cf, std::uint16_t access, const std::string& name, const std::string& desc,
                       std::vector<std::uint8_t> code, std::uint16_t maxStack, std::uint16_t maxLocals,
                       std::vector<jvm::ExceptionHandler> handlers) {
  jvm::Method m;
  m.access_flags = access;
  m.name = name;
  m.descriptor = desc;
  m.name_index = cf.pool.addUtf8(name);
  m.descriptor_index = cf.pool.addUtf8(desc);
  jvm::Code c;
  c.max_stack = maxStack;
  c.max_locals = maxLocals;
  c.bytes = std::move(code);
  c.handlers = std::move(handlers);
  m.code = std::move(c);
  jvm::Attribute codeAttr;
  codeAttr.name_index = cf.pool.addUtf8("Code");
  m.attributes.push_back(codeAttr);  // its body is written from m.code
  return m;
}

}  // namespace pasda::product
