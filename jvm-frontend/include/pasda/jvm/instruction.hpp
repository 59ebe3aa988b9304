// Bytecode: opcodes and decoded instructions with resolved operands.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

/// Every opcode of the JVM specification (values are the opcode bytes).
enum class Opcode : std::uint8_t {
  nop = 0x00, aconst_null, iconst_m1, iconst_0, iconst_1, iconst_2, iconst_3, iconst_4, iconst_5,
  lconst_0, lconst_1, fconst_0, fconst_1, fconst_2, dconst_0, dconst_1, bipush, sipush, ldc, ldc_w, ldc2_w,
  iload, lload, fload, dload, aload,
  iload_0, iload_1, iload_2, iload_3, lload_0, lload_1, lload_2, lload_3, fload_0, fload_1, fload_2, fload_3,
  dload_0, dload_1, dload_2, dload_3, aload_0, aload_1, aload_2, aload_3,
  iaload, laload, faload, daload, aaload, baload, caload, saload,
  istore, lstore, fstore, dstore, astore,
  istore_0, istore_1, istore_2, istore_3, lstore_0, lstore_1, lstore_2, lstore_3,
  fstore_0, fstore_1, fstore_2, fstore_3, dstore_0, dstore_1, dstore_2, dstore_3,
  astore_0, astore_1, astore_2, astore_3,
  iastore, lastore, fastore, dastore, aastore, bastore, castore, sastore,
  pop, pop2, dup, dup_x1, dup_x2, dup2, dup2_x1, dup2_x2, swap,
  iadd, ladd, fadd, dadd, isub, lsub, fsub, dsub, imul, lmul, fmul, dmul, idiv, ldiv, fdiv, ddiv,
  irem, lrem, frem, drem, ineg, lneg, fneg, dneg, ishl, lshl, ishr, lshr, iushr, lushr,
  iand, land, ior, lor, ixor, lxor, iinc,
  i2l, i2f, i2d, l2i, l2f, l2d, f2i, f2l, f2d, d2i, d2l, d2f, i2b, i2c, i2s,
  lcmp, fcmpl, fcmpg, dcmpl, dcmpg,
  ifeq, ifne, iflt, ifge, ifgt, ifle, if_icmpeq, if_icmpne, if_icmplt, if_icmpge, if_icmpgt, if_icmple,
  if_acmpeq, if_acmpne, goto_, jsr, ret, tableswitch, lookupswitch,
  ireturn, lreturn, freturn, dreturn, areturn, return_,
  getstatic, putstatic, getfield, putfield, invokevirtual, invokespecial, invokestatic, invokeinterface,
  invokedynamic, new_, newarray, anewarray, arraylength, athrow, checkcast, instanceof,
  monitorenter, monitorexit, wide, multianewarray, ifnull, ifnonnull, goto_w, jsr_w,
  // 0xca breakpoint and 0xfe/0xff impdep1/2 are reserved and rejected by the decoder.
};

/// The mnemonic as javap prints it ("goto", "return", "new", ...).
std::string_view mnemonic(Opcode op);
bool isValidOpcode(std::uint8_t byte);

/// A constant loaded by ldc/ldc_w/ldc2_w (or the value of a ConstantValue attribute).
struct ConstValue {
  enum class Kind : std::uint8_t { Int, Long, Float, Double, String, Class, MethodType, MethodHandle, Dynamic };
  Kind kind = Kind::Int;
  std::int64_t i = 0;  // Int, Long
  double d = 0;        // Float, Double (float widened exactly)
  std::uint64_t bits = 0;  // raw IEEE bits of Float (low 32) / Double
  std::string text;    // String value, Class internal name, MethodType descriptor, ...
};

struct SwitchTable {
  std::int32_t default_target = 0;                          // absolute pc
  std::vector<std::pair<std::int32_t, std::int32_t>> cases;  // (key, absolute target pc), in file order
  std::int32_t low = 0, high = 0;                            // tableswitch only
};

struct Instruction {
  std::uint32_t pc = 0;
  std::uint32_t length = 0;  // bytes, including wide prefix and switch padding
  Opcode op = Opcode::nop;
  bool wide = false;         // had a wide prefix
  std::int32_t local = -1;   // local-variable index (xload/xstore incl. _n forms, iinc, ret)
  std::int32_t imm = 0;      // bipush/sipush value, iinc delta, newarray atype, multianewarray dims, invokeinterface count,
                             // invokedynamic bootstrap-method index
  std::int32_t target = -1;  // absolute branch target (if*, goto, goto_w, jsr, jsr_w)
  std::uint16_t cp_index = 0;  // constant-pool operand, if any
  ConstValue constant;       // ldc*, resolved
  MemberRef member;          // field and method instructions (invokedynamic: name/descriptor, owner empty)
  std::string type;          // new/anewarray/checkcast/instanceof/multianewarray: class or array descriptor
  SwitchTable sw;            // tableswitch/lookupswitch

  bool isBranch() const;       // conditional or unconditional jump, switch, jsr
  bool isConditional() const;  // if*
  bool isReturn() const;       // *return
  bool endsBlock() const;      // branch, return, athrow, ret
  /// javap-style operand text, e.g. "#7 // Method java/lang/Math.sin:(D)D" is NOT used; we print
  /// "java/lang/Math.sin:(D)D", "3", "L12" style operands for --dump.
  std::string operandText() const;
};

/// Decode the whole code array of a method. Throws FormatError (bad opcode, truncated operand,
/// bad constant-pool index or tag, branch target out of range or not at an instruction start).
std::vector<Instruction> decode(const ClassFile& cf, const Code& code, const std::string& file);

/// The mnemonic exactly as `javap -c` prints it: wide forms get a "_w" suffix ("iinc_w", "iload_w").
std::string javapMnemonic(const Instruction& insn);
/// newarray element type name for an atype code 4..11 ("int", "boolean", ...), "?" otherwise.
std::string_view newarrayTypeName(std::int32_t atype);
/// Resolve a loadable constant (Integer, Float, Long, Double, String, Class, MethodType,
/// MethodHandle, Dynamic) at `index`; throws std::out_of_range for any other entry.
ConstValue resolveConstant(const ConstantPool& pool, std::uint16_t index);
/// javap-like text of a constant: "int 5", "long 7l", "float 1.5f", "double 2.0d", "String abc", "class a/B".
std::string constantText(const ConstValue& c);

}  // namespace pasda::jvm
