// Bytecode decoder (JVMS 6.5): turns a code array into instructions with resolved operands.
#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "bytes.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::jvm {

namespace {

constexpr std::array<std::string_view, 10> kRefKinds = {
    "?", "REF_getField", "REF_getStatic", "REF_putField", "REF_putStatic", "REF_invokeVirtual",
    "REF_invokeStatic", "REF_invokeSpecial", "REF_newInvokeSpecial", "REF_invokeInterface"};

std::uint8_t ob(Opcode op) { return static_cast<std::uint8_t>(op); }

class Decoder {
 public:
  Decoder(const ClassFile& cf, const Code& code, const std::string& file)
      : cf_(cf), code_(code), file_(file), in_(code.bytes.data(), code.bytes.size(), file, code.file_offset) {}

  std::vector<Instruction> run() {
    std::size_t len = code_.bytes.size();
    if (len == 0 || len > 0xffff) in_.failAt(code_.file_offset, "code length out of range (1 to 65535)");
    std::vector<Instruction> out;
    std::vector<bool> start(len + 1, false);
    while (!in_.atEnd()) {
      Instruction insn = one();
      start[insn.pc] = true;
      out.push_back(std::move(insn));
    }
    start[len] = true;  // end of code: legal only as a handler end_pc
    auto check = [&](const Instruction& i, std::int64_t t) {
      if (t < 0 || t >= static_cast<std::int64_t>(len) || !start[static_cast<std::size_t>(t)])
        in_.failAt(code_.file_offset + i.pc, "branch target " + std::to_string(t) + " of " +
                                                 std::string(mnemonic(i.op)) + " at pc " + std::to_string(i.pc) +
                                                 " is not an instruction in the code");
    };
    for (const Instruction& i : out) {
      if (i.op == Opcode::tableswitch || i.op == Opcode::lookupswitch) {
        check(i, i.sw.default_target);
        for (const auto& c : i.sw.cases) check(i, c.second);
      } else if (i.isBranch()) {
        check(i, i.target);
      }
    }
    for (const ExceptionHandler& h : code_.handlers) {
      if (h.start_pc >= len || !start[h.start_pc] || h.end_pc > len || !start[h.end_pc] || h.handler_pc >= len ||
          !start[h.handler_pc] || h.start_pc >= h.end_pc)
        in_.failAt(code_.file_offset, "exception-table entry [" + std::to_string(h.start_pc) + ", " +
                                          std::to_string(h.end_pc) + ") -> " + std::to_string(h.handler_pc) +
                                          " does not match instruction boundaries");
    }
    return out;
  }

 private:
  [[noreturn]] void failPc(std::uint32_t pc, const std::string& why) const {
    in_.failAt(code_.file_offset + pc, why + " (pc " + std::to_string(pc) + ")");
  }

  const CpEntry& entry(std::uint32_t pc, std::uint16_t index, std::initializer_list<CpTag> tags, const char* what) {
    if (cf_.pool.valid(index)) {
      const CpEntry& e = cf_.pool.entries[index];
      for (CpTag t : tags)
        if (e.tag == t) return e;
    }
    failPc(pc, std::string(what) + ": constant-pool index " + std::to_string(index) + " has the wrong kind");
  }

  MemberRef memberAt(std::uint32_t pc, std::uint16_t index, bool field) {
    if (field) entry(pc, index, {CpTag::Fieldref}, "field instruction");
    else entry(pc, index, {CpTag::Methodref, CpTag::InterfaceMethodref}, "invoke instruction");
    try {
      MemberRef m = cf_.pool.member(index);
      if (field) (void)parseFieldDescriptor(m.descriptor);
      else (void)parseMethodDescriptor(m.descriptor);
      return m;
    } catch (const std::exception& e) {
      failPc(pc, std::string("bad member reference: ") + e.what());
    }
  }

  std::string classAt(std::uint32_t pc, std::uint16_t index) {
    const CpEntry& e = entry(pc, index, {CpTag::Class}, "class operand");
    try {
      return cf_.pool.utf8(e.ref1);
    } catch (const std::exception& ex) {
      failPc(pc, std::string("bad class operand: ") + ex.what());
    }
  }

  void ldc(Instruction& insn, bool twoSlot) {
    const CpEntry& e = twoSlot ? entry(insn.pc, insn.cp_index, {CpTag::Long, CpTag::Double, CpTag::Dynamic}, "ldc2_w")
                               : entry(insn.pc, insn.cp_index,
                                       {CpTag::Integer, CpTag::Float, CpTag::String, CpTag::Class, CpTag::MethodType,
                                        CpTag::MethodHandle, CpTag::Dynamic},
                                       "ldc");
    (void)e;
    try {
      insn.constant = resolveConstant(cf_.pool, insn.cp_index);
    } catch (const std::exception& ex) {
      failPc(insn.pc, std::string("bad ldc constant: ") + ex.what());
    }
  }

  std::int32_t s4() { return static_cast<std::int32_t>(in_.u4("switch operand")); }

  void sw(Instruction& insn, bool table) {
    while ((in_.pos() % 4) != 0) (void)in_.u1("switch padding");
    std::int64_t pc = insn.pc;
    insn.sw.default_target = static_cast<std::int32_t>(std::clamp<std::int64_t>(pc + s4(), -1, 0x10000));
    auto tgt = [&](std::int32_t off) { return static_cast<std::int32_t>(std::clamp<std::int64_t>(pc + off, -1, 0x10000)); };
    if (table) {
      insn.sw.low = s4();
      insn.sw.high = s4();
      if (insn.sw.low > insn.sw.high) failPc(insn.pc, "tableswitch low > high");
      std::int64_t n = std::int64_t{insn.sw.high} - insn.sw.low + 1;
      if (n * 4 > static_cast<std::int64_t>(in_.remaining())) failPc(insn.pc, "tableswitch runs past the end of the code");
      for (std::int64_t k = 0; k < n; ++k) insn.sw.cases.emplace_back(static_cast<std::int32_t>(insn.sw.low + k), tgt(s4()));
    } else {
      std::int32_t n = s4();
      if (n < 0 || std::int64_t{n} * 8 > static_cast<std::int64_t>(in_.remaining()))
        failPc(insn.pc, "lookupswitch pair count out of range");
      for (std::int32_t k = 0; k < n; ++k) {
        std::int32_t key = s4();
        insn.sw.cases.emplace_back(key, tgt(s4()));
        if (k > 0 && insn.sw.cases[k - 1].first >= key) failPc(insn.pc, "lookupswitch keys not sorted");
      }
    }
  }

  Instruction one() {
    Instruction insn;
    insn.pc = static_cast<std::uint32_t>(in_.pos());
    std::uint8_t b = in_.u1("opcode");
    if (!isValidOpcode(b)) failPc(insn.pc, "bad opcode " + std::to_string(b));
    insn.op = static_cast<Opcode>(b);
    std::uint8_t iload = ob(Opcode::iload), aload = ob(Opcode::aload), istore = ob(Opcode::istore),
                 astore = ob(Opcode::astore);
    if (insn.op == Opcode::wide) {
      insn.wide = true;
      std::uint8_t w = in_.u1("wide opcode");
      bool ok = (w >= iload && w <= aload) || (w >= istore && w <= astore) || w == ob(Opcode::ret) || w == ob(Opcode::iinc);
      if (!ok) failPc(insn.pc, "bad opcode " + std::to_string(w) + " after wide");
      insn.op = static_cast<Opcode>(w);
      insn.local = in_.u2("wide local index");
      if (insn.op == Opcode::iinc) insn.imm = static_cast<std::int16_t>(in_.u2("iinc constant"));
    } else if ((b >= iload && b <= aload) || (b >= istore && b <= astore) || insn.op == Opcode::ret) {
      insn.local = in_.u1("local index");
    } else if (b >= ob(Opcode::iload_0) && b <= ob(Opcode::aload_3)) {
      insn.local = (b - ob(Opcode::iload_0)) % 4;
    } else if (b >= ob(Opcode::istore_0) && b <= ob(Opcode::astore_3)) {
      insn.local = (b - ob(Opcode::istore_0)) % 4;
    } else {
      switch (insn.op) {
        case Opcode::bipush: insn.imm = static_cast<std::int8_t>(in_.u1("bipush operand")); break;
        case Opcode::sipush: insn.imm = static_cast<std::int16_t>(in_.u2("sipush operand")); break;
        case Opcode::ldc: insn.cp_index = in_.u1("ldc index"); ldc(insn, false); break;
        case Opcode::ldc_w: insn.cp_index = in_.u2("ldc_w index"); ldc(insn, false); break;
        case Opcode::ldc2_w: insn.cp_index = in_.u2("ldc2_w index"); ldc(insn, true); break;
        case Opcode::iinc:
          insn.local = in_.u1("iinc index");
          insn.imm = static_cast<std::int8_t>(in_.u1("iinc constant"));
          break;
        case Opcode::goto_w: case Opcode::jsr_w:
          insn.target = static_cast<std::int32_t>(
              std::clamp<std::int64_t>(std::int64_t{insn.pc} + static_cast<std::int32_t>(in_.u4("branch offset")), -1, 0x10000));
          break;
        case Opcode::tableswitch: sw(insn, true); break;
        case Opcode::lookupswitch: sw(insn, false); break;
        case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield:
          insn.cp_index = in_.u2("field index");
          insn.member = memberAt(insn.pc, insn.cp_index, true);
          break;
        case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
          insn.cp_index = in_.u2("method index");
          insn.member = memberAt(insn.pc, insn.cp_index, false);
          break;
        case Opcode::invokeinterface:
          insn.cp_index = in_.u2("method index");
          insn.imm = in_.u1("invokeinterface count");
          if (in_.u1("invokeinterface zero") != 0 || insn.imm == 0) failPc(insn.pc, "malformed invokeinterface operands");
          insn.member = memberAt(insn.pc, insn.cp_index, false);
          break;
        case Opcode::invokedynamic: {
          insn.cp_index = in_.u2("invokedynamic index");
          if (in_.u2("invokedynamic zero") != 0) failPc(insn.pc, "malformed invokedynamic operands");
          const CpEntry& e = entry(insn.pc, insn.cp_index, {CpTag::InvokeDynamic}, "invokedynamic");
          try {
            auto [n, d] = cf_.pool.nameAndType(e.ref2);
            (void)parseMethodDescriptor(d);
            insn.member.name = std::move(n);
            insn.member.descriptor = std::move(d);
          } catch (const std::exception& ex) {
            failPc(insn.pc, std::string("bad invokedynamic operand: ") + ex.what());
          }
          insn.imm = e.ref1;
          break;
        }
        case Opcode::new_: case Opcode::anewarray: case Opcode::checkcast: case Opcode::instanceof:
          insn.cp_index = in_.u2("class index");
          insn.type = classAt(insn.pc, insn.cp_index);
          break;
        case Opcode::newarray:
          insn.imm = in_.u1("newarray type");
          if (insn.imm < 4 || insn.imm > 11) failPc(insn.pc, "bad newarray type " + std::to_string(insn.imm));
          break;
        case Opcode::multianewarray:
          insn.cp_index = in_.u2("class index");
          insn.type = classAt(insn.pc, insn.cp_index);
          insn.imm = in_.u1("dimensions");
          if (insn.imm == 0) failPc(insn.pc, "multianewarray with 0 dimensions");
          break;
        default:
          if (insn.isBranch())
            insn.target = static_cast<std::int32_t>(insn.pc) + static_cast<std::int16_t>(in_.u2("branch offset"));
          break;
      }
    }
    insn.length = static_cast<std::uint32_t>(in_.pos() - insn.pc);
    return insn;
  }

  const ClassFile& cf_;
  const Code& code_;
  const std::string& file_;
  detail::Reader in_;
};

}  // namespace

ConstValue resolveConstant(const ConstantPool& pool, std::uint16_t index) {
  const CpEntry& e = pool.at(index);
  ConstValue c;
  switch (e.tag) {
    case CpTag::Integer:
      c.kind = ConstValue::Kind::Int;
      c.i = static_cast<std::int32_t>(static_cast<std::uint32_t>(e.value));
      break;
    case CpTag::Long:
      c.kind = ConstValue::Kind::Long;
      c.i = static_cast<std::int64_t>(e.value);
      break;
    case CpTag::Float:
      c.kind = ConstValue::Kind::Float;
      c.bits = e.value & 0xffffffffu;
      c.d = std::bit_cast<float>(static_cast<std::uint32_t>(c.bits));
      break;
    case CpTag::Double:
      c.kind = ConstValue::Kind::Double;
      c.bits = e.value;
      c.d = std::bit_cast<double>(e.value);
      break;
    case CpTag::String: c.kind = ConstValue::Kind::String; c.text = pool.utf8(e.ref1); break;
    case CpTag::Class: c.kind = ConstValue::Kind::Class; c.text = pool.utf8(e.ref1); break;
    case CpTag::MethodType: c.kind = ConstValue::Kind::MethodType; c.text = pool.utf8(e.ref1); break;
    case CpTag::MethodHandle: {
      c.kind = ConstValue::Kind::MethodHandle;
      MemberRef m = pool.member(e.ref1);
      c.text = std::string(kRefKinds[e.kind <= 9 ? e.kind : 0]) + " " + m.owner + "." + m.name + ":" + m.descriptor;
      break;
    }
    case CpTag::Dynamic: {
      c.kind = ConstValue::Kind::Dynamic;
      auto [n, d] = pool.nameAndType(e.ref2);
      c.text = "#" + std::to_string(e.ref1) + ":" + n + ":" + d;
      break;
    }
    default: throw std::out_of_range("constant-pool index " + std::to_string(index) + " is not a loadable constant");
  }
  return c;
}

std::vector<Instruction> decode(const ClassFile& cf, const Code& code, const std::string& file) {
  return Decoder(cf, code, file).run();
}

}  // namespace pasda::jvm
