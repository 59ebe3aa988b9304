// Opcode names (as javap prints them) and instruction predicates (JVMS 6.5).
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "pasda/jvm/instruction.hpp"

namespace pasda::jvm {

namespace {

constexpr std::array<std::string_view, 0xca> kNames = {
    "nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3", "iconst_4", "iconst_5",
    "lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2", "dconst_0", "dconst_1", "bipush", "sipush", "ldc",
    "ldc_w", "ldc2_w", "iload", "lload", "fload", "dload", "aload", "iload_0", "iload_1", "iload_2", "iload_3",
    "lload_0", "lload_1", "lload_2", "lload_3", "fload_0", "fload_1", "fload_2", "fload_3", "dload_0", "dload_1",
    "dload_2", "dload_3", "aload_0", "aload_1", "aload_2", "aload_3", "iaload", "laload", "faload", "daload",
    "aaload", "baload", "caload", "saload", "istore", "lstore", "fstore", "dstore", "astore", "istore_0",
    "istore_1", "istore_2", "istore_3", "lstore_0", "lstore_1", "lstore_2", "lstore_3", "fstore_0", "fstore_1",
    "fstore_2", "fstore_3", "dstore_0", "dstore_1", "dstore_2", "dstore_3", "astore_0", "astore_1", "astore_2",
    "astore_3", "iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore", "pop",
    "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap", "iadd", "ladd", "fadd", "dadd",
    "isub", "lsub", "fsub", "dsub", "imul", "lmul", "fmul", "dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem",
    "frem", "drem", "ineg", "lneg", "fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr", "lushr", "iand",
    "land", "ior", "lor", "ixor", "lxor", "iinc", "i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l", "f2d",
    "d2i", "d2l", "d2f", "i2b", "i2c", "i2s", "lcmp", "fcmpl", "fcmpg", "dcmpl", "dcmpg", "ifeq", "ifne", "iflt",
    "ifge", "ifgt", "ifle", "if_icmpeq", "if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple",
    "if_acmpeq", "if_acmpne", "goto", "jsr", "ret", "tableswitch", "lookupswitch", "ireturn", "lreturn",
    "freturn", "dreturn", "areturn", "return", "getstatic", "putstatic", "getfield", "putfield", "invokevirtual",
    "invokespecial", "invokestatic", "invokeinterface", "invokedynamic", "new", "newarray", "anewarray",
    "arraylength", "athrow", "checkcast", "instanceof", "monitorenter", "monitorexit", "wide", "multianewarray",
    "ifnull", "ifnonnull", "goto_w", "jsr_w"};

std::uint8_t code(Opcode op) { return static_cast<std::uint8_t>(op); }

}  // namespace

std::string_view mnemonic(Opcode op) {
  std::uint8_t b = code(op);
  return b < kNames.size() ? kNames[b] : std::string_view("<invalid>");
}

bool isValidOpcode(std::uint8_t byte) { return byte < kNames.size(); }

std::string javapMnemonic(const Instruction& insn) {
  std::string m(mnemonic(insn.op));
  if (insn.wide) m += "_w";
  return m;
}

std::string_view newarrayTypeName(std::int32_t atype) {
  static constexpr std::array<std::string_view, 8> names = {"boolean", "char", "float", "double",
                                                            "byte",    "short", "int",  "long"};
  return atype >= 4 && atype <= 11 ? names[static_cast<std::size_t>(atype - 4)] : std::string_view("?");
}

bool Instruction::isConditional() const {
  std::uint8_t b = code(op);
  return (b >= code(Opcode::ifeq) && b <= code(Opcode::if_acmpne)) || op == Opcode::ifnull || op == Opcode::ifnonnull;
}

bool Instruction::isBranch() const {
  return isConditional() || op == Opcode::goto_ || op == Opcode::goto_w || op == Opcode::jsr ||
         op == Opcode::jsr_w || op == Opcode::tableswitch || op == Opcode::lookupswitch;
}

bool Instruction::isReturn() const {
  std::uint8_t b = code(op);
  return b >= code(Opcode::ireturn) && b <= code(Opcode::return_);
}

bool Instruction::endsBlock() const { return isBranch() || isReturn() || op == Opcode::athrow || op == Opcode::ret; }

std::string formatFloat(double v, bool single) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  auto res = single ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v))
                    : std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eE") == std::string::npos && s.find("inf") == std::string::npos) s += ".0";
  return s;
}

std::string constantText(const ConstValue& c) {
  switch (c.kind) {
    case ConstValue::Kind::Int: return "int " + std::to_string(c.i);
    case ConstValue::Kind::Long: return "long " + std::to_string(c.i) + "l";
    case ConstValue::Kind::Float: return "float " + formatFloat(c.d, true) + "f";
    case ConstValue::Kind::Double: return "double " + formatFloat(c.d, false) + "d";
    case ConstValue::Kind::String: return "String " + c.text;
    case ConstValue::Kind::Class: return "class " + c.text;
    case ConstValue::Kind::MethodType: return "MethodType " + c.text;
    case ConstValue::Kind::MethodHandle: return "MethodHandle " + c.text;
    case ConstValue::Kind::Dynamic: return "Dynamic " + c.text;
  }
  return {};
}

std::string Instruction::operandText() const {
  std::uint8_t b = code(op);
  auto memberText = [&] { return member.owner + "." + member.name + ":" + member.descriptor; };
  switch (op) {
    case Opcode::bipush: case Opcode::sipush: return std::to_string(imm);
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w: return constantText(constant);
    case Opcode::iinc: return std::to_string(local) + ", " + std::to_string(imm);
    case Opcode::ret: return std::to_string(local);
    case Opcode::tableswitch: case Opcode::lookupswitch: {
      std::string s = "{ ";
      for (const auto& [key, t] : sw.cases) s += std::to_string(key) + ": " + std::to_string(t) + ", ";
      return s + "default: " + std::to_string(sw.default_target) + " }";
    }
    case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield:
    case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
      return memberText();
    case Opcode::invokeinterface: return memberText() + ", " + std::to_string(imm);
    case Opcode::invokedynamic:
      return "#" + std::to_string(imm) + ":" + member.name + ":" + member.descriptor;
    case Opcode::new_: case Opcode::anewarray: case Opcode::checkcast: case Opcode::instanceof: return type;
    case Opcode::newarray: return std::string(newarrayTypeName(imm));
    case Opcode::multianewarray: return type + ", " + std::to_string(imm);
    default: break;
  }
  if (isBranch()) return std::to_string(target);
  // xload/xstore with an explicit index (the _n forms carry it in the mnemonic).
  if ((b >= code(Opcode::iload) && b <= code(Opcode::aload)) || (b >= code(Opcode::istore) && b <= code(Opcode::astore)))
    return std::to_string(local);
  return {};
}

}  // namespace pasda::jvm
