// Summarisable loops (include/pasda/diff/loops.hpp): what each natural loop reads and writes,
// where it exits and what it may throw, for loops whose effect a function of the locals and
// primitive arrays it reads describes completely.
#include "pasda/diff/loops.hpp"

#include <algorithm>
#include <set>

#include "helpers.hpp"
#include "method_facts.hpp"

namespace pasda::diff {

using detail::LocalAccess;
using detail::MethodFacts;
using jvm::Instruction;
using jvm::Opcode;

namespace {

bool primitiveDescriptor(const std::string& d) {
  for (char c : d)
    if (c == 'L' || c == '[') return false;
  return true;
}

/// JDK static methods of primitives only whose result depends on their arguments alone.
bool pureJdkCall(const jvm::MemberRef& m) {
  if (!primitiveDescriptor(m.descriptor)) return false;
  if (m.owner == "java/lang/Math" || m.owner == "java/lang/StrictMath") return m.name != "random";
  for (const char* box : {"Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"})
    if (m.owner == std::string("java/lang/") + box) return true;
  return false;
}

struct Facts {
  std::set<std::pair<int, char>> reads, writes;
  std::set<int> ref_reads;
  std::set<std::string> exceptions;
  std::string cls;                             // the method's class
  const std::set<std::string>* pure = nullptr;  // its methods the loop may call (name:descriptor)
  const std::function<bool(const jvm::MemberRef&)>* leaf = nullptr;  // other classes' arithmetic leaves
  bool array_stores = false;  // primitive array stores and primitive field reads allowed
  bool stores = false;        // ... and seen
  std::set<std::tuple<int, std::string, std::string>> field_reads;
};

/// "" when instruction `in` may be in a summarised loop; `f` collects what it reads and throws.
std::string check(const Instruction& in, Facts& f) {
  using O = Opcode;
  LocalAccess la = detail::localAccess(in);
  if (la.slot >= 0) {
    if (in.op == O::ret) return "subroutine return";
    if (la.type == 'A') {
      if (la.store) return "writes a reference local";
      f.ref_reads.insert(la.slot);
      return "";
    }
    if (la.load) f.reads.insert({la.slot, la.type});
    if (la.store) f.writes.insert({la.slot, la.type});
    return "";
  }
  switch (in.op) {
    case O::iaload: case O::laload: case O::faload: case O::daload: case O::baload: case O::caload:
    case O::saload:
      f.exceptions.insert("java/lang/ArrayIndexOutOfBoundsException");
      f.exceptions.insert("java/lang/NullPointerException");
      return "";
    case O::iastore: case O::lastore: case O::fastore: case O::dastore: case O::bastore: case O::castore:
    case O::sastore:
      if (!f.array_stores) return std::string("stores into an array (") + std::string(jvm::mnemonic(in.op)) + ")";
      f.stores = true;
      f.exceptions.insert("java/lang/ArrayIndexOutOfBoundsException");
      f.exceptions.insert("java/lang/NullPointerException");
      return "";
    case O::arraylength: f.exceptions.insert("java/lang/NullPointerException"); return "";
    case O::idiv: case O::irem: case O::ldiv: case O::lrem:
      f.exceptions.insert("java/lang/ArithmeticException");
      return "";
    case O::ifnull: case O::ifnonnull: return "";
    case O::ldc: case O::ldc_w: case O::ldc2_w:
      switch (in.constant.kind) {
        case jvm::ConstValue::Kind::Int: case jvm::ConstValue::Kind::Long:
        case jvm::ConstValue::Kind::Float: case jvm::ConstValue::Kind::Double: return "";
        default: return "reference constant";
      }
    case O::invokestatic:
      if (f.pure && in.member.owner == f.cls && f.pure->count(in.member.name + ":" + in.member.descriptor)) return "";
      if (f.leaf && *f.leaf && (*f.leaf)(in.member)) {
        f.exceptions.insert("java/lang/ArithmeticException");
        return "";
      }
      if (!pureJdkCall(in.member)) return "calls " + in.member.owner + "." + in.member.name;
      f.exceptions.insert("java/lang/ArithmeticException");  // (Math.toIntExact & co.)
      return "";
    case O::ireturn: case O::lreturn: case O::freturn: case O::dreturn: case O::return_: return "";
    default: break;
  }
  const auto op = static_cast<int>(in.op);
  // Constants, stack operations, arithmetic, conversions, comparisons, numeric branches, switches.
  const bool plain = (op >= static_cast<int>(O::nop) && op <= static_cast<int>(O::sipush) && in.op != O::aconst_null) ||
                     (op >= static_cast<int>(O::pop) && op <= static_cast<int>(O::lookupswitch) &&
                      in.op != O::if_acmpeq && in.op != O::if_acmpne && in.op != O::jsr && in.op != O::ret);
  if (plain) return "";
  return std::string("instruction ") + std::string(jvm::mnemonic(in.op));
}

char returnKind(Opcode op) {
  switch (op) {
    case Opcode::ireturn: return 'I';
    case Opcode::lreturn: return 'J';
    case Opcode::freturn: return 'F';
    case Opcode::dreturn: return 'D';
    default: return 'V';
  }
}

/// The summary of one loop, or why it has none.
std::string summarise(const MethodFacts& F, int header, const std::vector<int>& body, Facts& facts, LoopSummary& out) {
  if (F.depth[static_cast<std::size_t>(header)] != 0) return "operand stack not empty at the header";
  std::set<int> in(body.begin(), body.end());
  in.insert(header);
  std::set<std::uint32_t> exits;
  for (int i : in) {
    const Instruction& insn = F.at(i);
    if (!F.handler_succs[static_cast<std::size_t>(i)].empty()) return "inside an exception handler's range";
    if (insn.op == Opcode::getfield && facts.array_stores) {
      // A primitive field of the object a reference local holds, read right after the local's
      // load (no jump lands between them): loop-invariant, as nothing in the loop writes a field.
      const std::string why = "reads field " + insn.member.name + " at pc " + std::to_string(insn.pc);
      if (!primitiveDescriptor(insn.member.descriptor)) return why + " (a reference)";
      const LocalAccess prev = i > 0 && in.count(i - 1) ? detail::localAccess(F.at(i - 1)) : LocalAccess{};
      if (prev.slot < 0 || prev.type != 'A' || !prev.load) return why + " (not of a local)";
      for (int j = 0; j < F.size(); ++j)
        if (j != i - 1) {
          const auto& succ = F.succs[static_cast<std::size_t>(j)];
          if (std::find(succ.begin(), succ.end(), i) != succ.end()) return why + " (a jump lands on it)";
        }
      facts.field_reads.insert({prev.slot, insn.member.name, insn.member.descriptor});
      facts.exceptions.insert("java/lang/NullPointerException");
      continue;
    }
    if (std::string why = check(insn, facts); !why.empty()) return why + " at pc " + std::to_string(insn.pc);
    const char rk = returnKind(insn.op);
    if (rk != 'V' || insn.op == Opcode::return_) out.returns.emplace_back(insn.pc, rk);
    for (int t : F.succs[static_cast<std::size_t>(i)]) {
      if (in.count(t)) continue;
      if (t >= F.size() || F.depth[static_cast<std::size_t>(t)] != 0) return "leaves with values on the operand stack";
      exits.insert(F.at(t).pc);
    }
  }
  out.header = header;
  out.header_pc = F.at(header).pc;
  out.reads.assign(facts.reads.begin(), facts.reads.end());
  out.ref_reads.assign(facts.ref_reads.begin(), facts.ref_reads.end());
  out.writes.assign(facts.writes.begin(), facts.writes.end());
  out.exits.assign(exits.begin(), exits.end());
  out.exceptions.assign(facts.exceptions.begin(), facts.exceptions.end());
  out.stores_arrays = facts.stores;
  out.field_reads.assign(facts.field_reads.begin(), facts.field_reads.end());
  return "";
}

}  // namespace

std::vector<LoopSummary> summarisableLoops(const jvm::ClassFile& cf, const jvm::Method& m,
                                           std::vector<std::string>* why, const std::set<std::string>* pureCalls,
                                           const std::function<bool(const jvm::MemberRef&)>& leafCall,
                                           bool arrayStores) {
  std::vector<LoopSummary> out;
  if (!m.code) return out;
  MethodFacts F;
  try {
    F = detail::analyseMethod(cf, m);
  } catch (const std::exception& e) {
    if (why) why->push_back(e.what());
    return out;
  }
  if (!F.depth_ok) {
    if (why && !F.loops.empty()) why->push_back("the operand stack's depths are not known at every instruction");
    return out;
  }
  for (const auto& [header, body] : F.loops) {
    LoopSummary s;
    Facts facts;
    facts.cls = cf.name();
    facts.pure = pureCalls;
    facts.leaf = &leafCall;
    facts.array_stores = arrayStores;
    if (std::string no = summarise(F, header, body, facts, s); !no.empty()) {
      if (why) why->push_back("loop at pc " + std::to_string(F.at(header).pc) + ": " + no);
      continue;
    }
    for (const auto& [other, otherBody] : F.loops)
      if (other != header && std::find(otherBody.begin(), otherBody.end(), header) != otherBody.end()) ++s.depth;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace pasda::diff
