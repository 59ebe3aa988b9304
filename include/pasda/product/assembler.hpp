// A tiny bytecode assembler with labels, for generated classes (product, replay drivers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::product {

class Assembler {
 public:
  explicit Assembler(jvm::ConstantPool& pool) : pool_(pool) {}
  int newLabel();
  void bind(int label);
  std::uint16_t here() const { return static_cast<std::uint16_t>(code_.size()); }
  void op(jvm::Opcode o);
  void u1(std::uint8_t v) { code_.push_back(v); }
  void u2(std::uint16_t v);
  void jump(jvm::Opcode o, int label);  // 16-bit branch
  void load(char kind, int slot);       // by descriptor letter
  void store(char kind, int slot);
  void ret(char kind);
  void pushDefault(char kind);
  void invoke(jvm::Opcode o, const std::string& owner, const std::string& name, const std::string& desc);
  void field(jvm::Opcode o, const std::string& owner, const std::string& name, const std::string& desc);
  void newObject(const std::string& cls);
  void ldcString(const std::string& s);
  void iconst(int v);
  std::vector<std::uint8_t> finish();  // resolves labels

 private:
  jvm::ConstantPool& pool_;
  std::vector<std::uint8_t> code_;
  std::vector<int> labels_;
  std::vector<std::pair<std::size_t, int>> fixups_;  // (offset of opcode, label)
};

/// A method of `cf` with the given code (names interned in cf's pool, a Code attribute whose
/// body the writer produces from Method::code).
jvm::Method codeMethod(jvm::ClassFile& cf, std::uint16_t access, const std::string& name, const std::string& desc,
                       std::vector<std::uint8_t> code, std::uint16_t maxStack, std::uint16_t maxLocals,
                       std::vector<jvm::ExceptionHandler> handlers = {});

}  // namespace pasda::product
