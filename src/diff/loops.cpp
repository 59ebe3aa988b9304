// Summarisable loops (include/pasda/diff/loops.hpp): what each natural loop reads and writes,
// where it exits and what it may throw, for loops whose effect a function of the locals and
// primitive arrays it reads describes completely.
#include "pasda/diff/loops.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <map>
#include <set>

#include "helpers.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "method_facts.hpp"

namespace pasda::diff {

using detail::LocalAccess;
using detail::MethodFacts;
using jvm::Instruction;
using jvm::Opcode;

namespace {

/// What a CharSequence implementation other than String may throw from charAt or length: an
/// exception of unknown class (symexec's pseudo class of an unmodelled call).
const char* const kReceiverException = "<exception of java.lang.CharSequence.charAt(I)C>";

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

/// Whether a pureJdkCall method may throw ArithmeticException: the exact arithmetic of Math
/// (addExact, toIntExact, ...), floor and ceiling division and modulus, unsigned division of
/// the boxes; min, max, abs, signum, the conversions and the rest never throw.
bool mayThrowArithmetic(const jvm::MemberRef& m) {
  for (const char* part : {"Exact", "floorDiv", "floorMod", "ceilDiv", "ceilMod", "divideUnsigned", "remainderUnsigned"})
    if (m.name.find(part) != std::string::npos) return true;
  return false;
}

/// Instance methods of immutable JDK value classes whose result is a function of the receiver's
/// content and the (primitive) arguments: the characters and length of a String, the value of a
/// box. What they may throw besides NullPointerException goes to `thrown`.
bool immutableValueCall(const jvm::MemberRef& m, std::string& thrown) {
  if (m.owner == "java/lang/String") {
    if (m.name == "charAt" && m.descriptor == "(I)C") {
      thrown = "java/lang/StringIndexOutOfBoundsException";
      return true;
    }
    return (m.name == "length" && m.descriptor == "()I") || (m.name == "isEmpty" && m.descriptor == "()Z");
  }
  static const char* const boxes[][2] = {{"Integer", "intValue"},  {"Long", "longValue"},     {"Short", "shortValue"},
                                         {"Byte", "byteValue"},    {"Character", "charValue"}, {"Boolean", "booleanValue"},
                                         {"Float", "floatValue"},  {"Double", "doubleValue"}};
  for (const auto& [box, getter] : boxes)
    if (m.owner == std::string("java/lang/") + box && m.name == getter && m.descriptor.rfind("()", 0) == 0) return true;
  return false;
}

/// Methods of JDK classes that change or read their receiver alone, deterministically, given
/// primitive or String arguments (nothing they are given can run program code): what a loop
/// does to such a receiver is a function of its content and the arguments. The summary needs
/// the receiver to be exactly of the class (symexec: built by `new` in the run).
bool receiverOnlyLibraryCall(const jvm::MemberRef& m, std::string& thrown) {
  if (m.owner == "java/util/BitSet") {
    static const char* const ok[][2] = {{"set", "(I)V"},   {"set", "(II)V"},         {"set", "(IZ)V"}, {"clear", "(I)V"},
                                        {"get", "(I)Z"},   {"cardinality", "()I"},   {"length", "()I"},
                                        {"flip", "(I)V"},  {"nextSetBit", "(I)I"},   {"isEmpty", "()Z"}};
    for (const auto& [name, desc] : ok)
      if (m.name == name && m.descriptor == desc) {
        thrown = "java/lang/IndexOutOfBoundsException";
        return true;
      }
    return false;
  }
  if (m.owner == "java/lang/StringBuilder" || m.owner == "java/lang/StringBuffer") {
    // (final classes: a receiver of the type is exactly of the class)
    const std::string self = "L" + m.owner + ";";
    if (m.name == "append" && m.descriptor.size() == 3 + self.size() && m.descriptor[0] == '(' &&
        std::string("CIJZFD").find(m.descriptor[1]) != std::string::npos && m.descriptor.substr(3) == self)
      return true;  // (append of a primitive: its text, no exception)
    if (m.name == "append" && m.descriptor == "(Ljava/lang/String;)" + self) return true;
    static const char* const ok[][2] = {{"length", "()I"}, {"charAt", "(I)C"}, {"setCharAt", "(IC)V"}};
    for (const auto& [name, desc] : ok)
      if (m.name == name && m.descriptor == desc) {
        thrown = "java/lang/StringIndexOutOfBoundsException";
        return true;
      }
  }
  return false;
}

/// Methods of JDK types taking and returning primitives only, whose receiver may be of a class
/// that runs code of its own (a program CharSequence, a subclass of Random): on a string a
/// function of its characters, on a generator a function of its state, otherwise unknown code,
/// which the summary lets change its receiver and throw what it may
/// (LoopSummary::calls_on_receivers). What the JDK's own implementations throw goes to `thrown`.
bool receiverCodeCall(const jvm::MemberRef& m, std::string& thrown) {
  if (m.owner == "java/lang/CharSequence") {
    thrown = "java/lang/StringIndexOutOfBoundsException";
    return (m.name == "charAt" && m.descriptor == "(I)C") || (m.name == "length" && m.descriptor == "()I");
  }
  if (m.owner == "java/util/Random") {
    thrown = "java/lang/IllegalArgumentException";  // (nextInt(bound) for a bound <= 0)
    static const char* const ok[][2] = {{"nextInt", "(I)I"},     {"nextInt", "()I"},      {"nextLong", "()J"},
                                        {"nextDouble", "()D"},   {"nextFloat", "()F"},    {"nextBoolean", "()Z"},
                                        {"nextGaussian", "()D"}};
    for (const auto& [name, desc] : ok)
      if (m.name == name && m.descriptor == desc) return true;
  }
  return false;
}

/// A one-dimensional array of a primitive type: "[I", "[C", ...
bool primitiveArrayDescriptor(const std::string& d) {
  return d.size() == 2 && d[0] == '[' && std::string("ZBCSIJFD").find(d[1]) != std::string::npos;
}

struct Facts;
std::string checkCallee(const jvm::MemberRef& m, Facts& f);
std::string checkInstanceCallee(const jvm::MemberRef& m, bool special, Facts& f);
int explicitThrow(const detail::MethodFacts& F, int i, Facts& f, std::string& why,
                  const std::function<const std::vector<int>*(int)>& stackAt);

/// The helpers of a class that summarised loops may call, analysed once per method: static
/// ones, and instance ones called on an object a reference local of the loop holds.
struct Callees {
  std::map<std::string, std::string> why;  // "name:descriptor" -> "" (callable) or why not
  struct Effects {
    std::set<std::string> exceptions;
    bool stores = false, objects = false, receivers = false, other_iae = false;
  };
  std::map<std::string, Effects> effects;  // of the callable ones, their callees' included
  std::map<std::string, std::string> instance_why;  // instance methods, likewise
  struct InstanceEffects {
    std::set<std::string> exceptions;
    std::set<std::pair<std::string, std::string>> reads, writes;  // fields of the receiver (name, descriptor)
    bool helpers = false, other_iae = false;
    bool library = false, bitsets = false, objects = false;  // (on its receiver and parameters only)
  };
  std::map<std::string, InstanceEffects> instance_effects;
};

struct Facts {
  std::set<std::pair<int, char>> reads, writes;
  std::set<int> ref_reads;
  std::set<std::string> exceptions;
  std::string cls;                             // the method's class
  const std::set<std::string>* pure = nullptr;  // its methods the loop may call (name:descriptor)
  const std::function<bool(const jvm::MemberRef&)>* leaf = nullptr;  // other classes' arithmetic leaves
  bool array_stores = false;  // primitive array stores, field reads and immutable objects allowed
  bool stores = false;        // ... and seen
  bool objects = false;       // reads strings, boxes or reference arrays' elements
  bool helpers = false;       // calls static helpers of its class (checkCallee)
  bool library = false;       // calls receiverOnlyLibraryCall methods
  bool bitsets = false;       // ... of BitSet (a class with subclasses)
  bool receivers = false;     // calls receiverCodeCall methods (LoopSummary::calls_on_receivers)
  bool other_iae = false;     // may throw IllegalArgumentException other than Array.getLength's
  std::set<int> ref_writes;   // reference locals it writes (temporaries)
  std::set<std::tuple<int, std::string, std::string>> field_reads;
  std::set<std::tuple<int, std::string, std::string>> field_writes;
  const jvm::ClassFile* cf = nullptr;            // the method's class (for its static helpers)
  Callees* callees = nullptr;                    // its static helpers (with arrayStores)
  int call_depth = 0;
  /// Where the operand-stack words before the instruction being checked come from
  /// (stackOrigins: a reference local's slot or -1); null where not known (static helpers).
  const std::vector<int>* stack = nullptr;
  /// Analysing an instance method called on an object of the loop: it reads and writes fields
  /// of its receiver (local 0) only.
  bool instance_callee = false;
  /// Whether a call of an instance method of the class may run an override (a subclass's).
  const std::function<bool(const jvm::MemberRef&)>* overridable = nullptr;
  const std::function<bool(const jvm::MemberRef&)>* same = nullptr;  // is a program callee the same in both? (null: all are)
};

std::string sameInBoth(const jvm::MemberRef& m, const Facts& f) {  // "" when Facts::same allows m
  return !f.same || !*f.same || (*f.same)(m) ? "" : "calls " + m.owner + "." + m.name + " (differs between the versions)";
}

/// The reference local whose load pushed the operand-stack word `below` words under the top
/// (-1: another value, or the origins are not known).
int originOf(const Facts& f, int below) {
  if (!f.stack || below < 0 || f.stack->size() <= static_cast<std::size_t>(below)) return -1;
  return (*f.stack)[f.stack->size() - 1 - static_cast<std::size_t>(below)];
}

/// The exceptions an instruction of the loop may throw.
void mayThrow(Facts& f, std::initializer_list<const char*> exceptions) {
  for (const char* e : exceptions) f.exceptions.insert(e);
}

/// A load or store of a local variable.
std::string checkLocal(const Instruction& in, const LocalAccess& la, Facts& f) {
  if (in.op == Opcode::ret) return "subroutine return";
  if (la.type == 'A') {
    if (la.store) {
      // A temporary (only with arrayStores): what it holds is what the loop reaches anyway;
      // summarise() checks that it is dead at the header and after the loop.
      if (!f.array_stores) return "writes a reference local";
      f.ref_writes.insert(la.slot);
      return "";
    }
    f.ref_reads.insert(la.slot);
    return "";
  }
  if (la.load) f.reads.insert({la.slot, la.type});
  if (la.store) f.writes.insert({la.slot, la.type});
  return "";
}

/// An array access: primitive loads, primitive stores (with arrayStores) and `aaload`.
std::string checkArrayAccess(const Instruction& in, Facts& f) {
  if (in.op == Opcode::aaload) {
    // An element of a reference array: only tested for null or read through the immutable
    // value calls below (the loop writes no reference local, stores no reference), so what
    // the loop makes of it is a function of the array's content.
    if (!f.array_stores) return "instruction aaload";
    f.objects = true;
  } else if (in.op == Opcode::iastore || in.op == Opcode::lastore || in.op == Opcode::fastore ||
             in.op == Opcode::dastore || in.op == Opcode::bastore || in.op == Opcode::castore ||
             in.op == Opcode::sastore) {
    if (!f.array_stores) return std::string("stores into an array (") + std::string(jvm::mnemonic(in.op)) + ")";
    f.stores = true;
  }
  mayThrow(f, {"java/lang/ArrayIndexOutOfBoundsException", "java/lang/NullPointerException"});
  return "";
}

std::string callRejected(const Instruction& in) { return "calls " + in.member.owner + "." + in.member.name; }

int descriptorWords(const std::string& d) { return !d.empty() && (d[0] == 'J' || d[0] == 'D') ? 2 : 1; }

/// `getfield`/`putfield` (only with arrayStores): a primitive field of the object a reference
/// local holds (one the loop never writes), or a one-dimensional primitive array field read in
/// the loop itself. Its value at the header is an argument of the loop's functions, and a field
/// the loop writes becomes one of them where the loop ends. In an instance helper, fields of its
/// receiver only.
std::string checkField(const Instruction& in, Facts& f) {
  const bool put = in.op == Opcode::putfield;
  const std::string& d = in.member.descriptor;
  const std::string what = std::string(put ? "writes" : "reads") + " field " + in.member.name;
  if (!f.array_stores || !f.stack) return std::string("instruction ") + std::string(jvm::mnemonic(in.op));
  const bool arrayField = !put && !f.instance_callee && primitiveArrayDescriptor(d);
  const bool stringField = !put && d == "Ljava/lang/String;";  // (immutable: its identity is its content)
  if (!primitiveDescriptor(d) && !arrayField && !stringField) return what + " (a reference)";
  const int k = originOf(f, put ? descriptorWords(d) : 0);
  if (k < 0) return what + " (not of a local)";
  if (f.instance_callee && k != 0) return what + " (not of its receiver)";
  f.field_reads.insert({k, in.member.name, d});  // (written too: where the loop leaves before writing it)
  if (put) f.field_writes.insert({k, in.member.name, d});
  mayThrow(f, {"java/lang/NullPointerException"});
  return "";
}

/// `invokevirtual`/`invokespecial` of an instance method of the class, on the object a
/// reference local holds, with primitive arguments or references other locals hold (only with
/// arrayStores): one that runs the class's own code (no override of it in the path) and whose
/// every instruction is one a summarised loop may hold, reading and writing fields of its
/// receiver only (checkInstanceCallee). Its field accesses become the loop's on that local, its
/// builder calls the loop's on what it is given.
std::string checkInstanceCall(const Instruction& in, Facts& f) {
  const jvm::MemberRef& m = in.member;
  jvm::MethodDesc d;
  try {
    d = jvm::parseMethodDescriptor(m.descriptor);
  } catch (const std::invalid_argument&) {
    return callRejected(in);
  }
  // A reference argument must be what a local holds (a loop's local is among the objects the
  // summary reaches; a helper's, its receiver or a parameter it was given likewise).
  int below = 0;
  for (auto p = d.params.rbegin(); p != d.params.rend(); ++p) {
    if ((p->kind == 'L' || p->kind == '[') && originOf(f, below) < 0) return callRejected(in) + " (passes a reference not of a local)";
    below += p->kind == 'J' || p->kind == 'D' ? 2 : 1;
  }
  const int k = originOf(f, d.paramSlots());
  if (k < 0) return callRejected(in) + " (not on a local)";
  if (f.instance_callee && k != 0) return callRejected(in) + " (not on its receiver)";
  if (std::string no = sameInBoth(m, f); !no.empty()) return no;
  if (std::string why = checkInstanceCallee(m, in.op == Opcode::invokespecial, f); !why.empty())
    return callRejected(in) + " (" + why + ")";
  const Callees::InstanceEffects& e = f.callees->instance_effects.at(m.name + ":" + m.descriptor);
  f.exceptions.insert(e.exceptions.begin(), e.exceptions.end());
  mayThrow(f, {"java/lang/NullPointerException"});
  for (const auto& [name, desc] : e.reads) f.field_reads.insert({k, name, desc});
  for (const auto& [name, desc] : e.writes) f.field_writes.insert({k, name, desc});
  f.helpers = f.helpers || e.helpers;
  f.other_iae = f.other_iae || e.other_iae;
  f.library = f.library || e.library;
  f.bitsets = f.bitsets || e.bitsets;
  f.objects = f.objects || e.objects;
  return "";
}

/// `invokevirtual`: a JDK object's method that reads or changes its receiver alone, or an
/// immutable value's getter.
std::string checkInvokeVirtual(const Instruction& in, Facts& f) {
  std::string thrown;
  if (f.array_stores && f.stack && in.member.owner == f.cls) return checkInstanceCall(in, f);
  if (f.array_stores && receiverOnlyLibraryCall(in.member, thrown)) {
    // (in an instance helper, on its receiver or a parameter: what the loop's locals hold)
    if (f.instance_callee) {
      jvm::MethodDesc d;
      try {
        d = jvm::parseMethodDescriptor(in.member.descriptor);
      } catch (const std::invalid_argument&) {
        return callRejected(in);
      }
      if (originOf(f, d.paramSlots()) < 0) return callRejected(in) + " (not on a local)";
    }
    f.library = true;
    f.bitsets = f.bitsets || in.member.owner == "java/util/BitSet";
    f.objects = true;
    mayThrow(f, {"java/lang/NullPointerException"});
    if (!thrown.empty()) f.exceptions.insert(thrown);
    return "";
  }
  if (f.array_stores && receiverCodeCall(in.member, thrown)) {
    f.objects = f.receivers = f.other_iae = true;  // (other IAEs: Random.nextInt(bound))
    mayThrow(f, {"java/lang/NullPointerException", thrown.c_str(), kReceiverException});
    return "";
  }
  if (!f.array_stores || !immutableValueCall(in.member, thrown)) return callRejected(in);
  f.objects = true;
  mayThrow(f, {"java/lang/NullPointerException"});
  if (!thrown.empty()) f.exceptions.insert(thrown);
  return "";
}

/// `invokeinterface`: CharSequence.charAt/length on what a reference local holds — on a string
/// a function of its characters; on another implementation (a builder, a program class) unknown
/// code, which the summary lets change its receiver and throw what it may (calls_on_receivers).
std::string checkInvokeInterface(const Instruction& in, Facts& f) {
  std::string thrown;
  if (!f.array_stores || !receiverCodeCall(in.member, thrown)) return callRejected(in);
  f.objects = true;
  f.receivers = true;
  mayThrow(f, {"java/lang/NullPointerException", thrown.c_str(), kReceiverException});
  f.other_iae = true;
  return "";
}

/// `invokestatic`: a pure helper, `Array.getLength`, a static helper of the class
/// (checkCallee), an arithmetic leaf, or a pure JDK method of primitives.
std::string checkInvokeStatic(const Instruction& in, Facts& f) {
  const jvm::MemberRef& m = in.member;
  if (f.pure && m.owner == f.cls && f.pure->count(m.name + ":" + m.descriptor)) return "";
  if (f.array_stores && m.owner == "java/lang/reflect/Array" && m.name == "getLength" &&
      m.descriptor == "(Ljava/lang/Object;)I") {
    mayThrow(f, {"java/lang/IllegalArgumentException", "java/lang/NullPointerException"});
    return "";
  }
  if (f.array_stores && m.owner == f.cls) {
    if (std::string no = sameInBoth(m, f); !no.empty()) return no;
    if (std::string why = checkCallee(m, f); !why.empty()) return callRejected(in) + " (" + why + ")";
    f.helpers = true;
    return "";
  }
  if (f.leaf && *f.leaf && (*f.leaf)(m)) {
    if (std::string no = sameInBoth(m, f); !no.empty()) return no;
    mayThrow(f, {"java/lang/ArithmeticException"});
    return "";
  }
  if (!pureJdkCall(m)) return callRejected(in);
  if (mayThrowArithmetic(m)) mayThrow(f, {"java/lang/ArithmeticException"});
  if (m.name == "clamp") {  // (Math.clamp: min > max)
    mayThrow(f, {"java/lang/IllegalArgumentException"});
    f.other_iae = true;
  }
  return "";
}

/// Constants, stack operations, arithmetic, conversions, comparisons, numeric branches, switches.
bool plainInstruction(Opcode o) {
  using O = Opcode;
  const auto op = static_cast<int>(o);
  return (op >= static_cast<int>(O::nop) && op <= static_cast<int>(O::sipush) && o != O::aconst_null) ||
         (op >= static_cast<int>(O::pop) && op <= static_cast<int>(O::lookupswitch) && o != O::if_acmpeq &&
          o != O::if_acmpne && o != O::jsr && o != O::ret);
}

/// "" when instruction `in` may be in a summarised loop; `f` collects what it reads and throws.
std::string check(const Instruction& in, Facts& f) {
  using O = Opcode;
  if (LocalAccess la = detail::localAccess(in); la.slot >= 0) return checkLocal(in, la, f);
  switch (in.op) {
    case O::iaload: case O::laload: case O::faload: case O::daload: case O::baload: case O::caload:
    case O::saload: case O::iastore: case O::lastore: case O::fastore: case O::dastore: case O::bastore:
    case O::castore: case O::sastore: case O::aaload:
      return checkArrayAccess(in, f);
    case O::invokevirtual: return checkInvokeVirtual(in, f);
    case O::invokespecial:
      if (f.array_stores && f.stack && in.member.owner == f.cls && in.member.name != "<init>")
        return checkInstanceCall(in, f);
      return callRejected(in);
    case O::getfield: case O::putfield: return checkField(in, f);
    case O::areturn:  // (an instance helper's result: its receiver, say; nothing the loop can use)
      return f.instance_callee ? "" : "instruction areturn";
    case O::invokeinterface: return checkInvokeInterface(in, f);
    case O::invokestatic: return checkInvokeStatic(in, f);
    case O::arraylength: mayThrow(f, {"java/lang/NullPointerException"}); return "";
    case O::idiv: case O::irem: case O::ldiv: case O::lrem:
      mayThrow(f, {"java/lang/ArithmeticException"});
      return "";
    case O::ifnull: case O::ifnonnull: return "";
    case O::ldc: case O::ldc_w: case O::ldc2_w:
      switch (in.constant.kind) {
        case jvm::ConstValue::Kind::Int: case jvm::ConstValue::Kind::Long:
        case jvm::ConstValue::Kind::Float: case jvm::ConstValue::Kind::Double: return "";
        default: return "reference constant";
      }
    case O::ireturn: case O::lreturn: case O::freturn: case O::dreturn: case O::return_: return "";
    default: break;
  }
  if (plainInstruction(in.op)) return "";
  return std::string("instruction ") + std::string(jvm::mnemonic(in.op));
}

/// Every instruction of a helper's code checked into `inner` (its explicit throws as a whole):
/// "" when all may be in a summarised loop. With `origins` (an instance helper), the operand
/// stack's origins before each instruction, and unreachable code is skipped.
std::string checkHelper(const MethodFacts& F, Facts& inner, const std::map<int, std::vector<int>>* origins) {
  auto stackAt = [origins](int j) -> const std::vector<int>* {
    if (!origins) return nullptr;
    auto o = origins->find(j);
    return o == origins->end() ? nullptr : &o->second;
  };
  std::string why;
  for (int i = 0; i < F.size() && why.empty(); ++i) {
    inner.stack = stackAt(i);
    if (origins && !inner.stack) continue;  // (unreachable)
    if (!F.handler_succs[static_cast<std::size_t>(i)].empty()) {
      why = "an exception handler";
    } else if (F.at(i).op == Opcode::new_) {
      const int end = explicitThrow(F, i, inner, why, stackAt);
      if (end >= 0) i = end;
    } else {
      why = check(F.at(i), inner);
    }
  }
  return why;
}

/// A static helper of the method's class that a summarised loop may call (only with
/// arrayStores): every instruction of it (and of the helpers it calls, to a depth of 8) is one a
/// summarised loop may hold, so what it reads is what its arguments reach — the loop's locals,
/// arrays and immutable objects — and what it writes is the elements of those arrays (the
/// loop's stores). Its exceptions and effects become the loop's. "" when it may be called.
std::string checkCallee(const jvm::MemberRef& m, Facts& f) {
  if (!f.cf || !f.callees) return "not analysed";
  const std::string key = m.name + ":" + m.descriptor;
  if (auto it = f.callees->why.find(key); it != f.callees->why.end()) {
    if (!it->second.empty()) return it->second;
  } else {
    f.callees->why[key] = "recursive";  // (while it is being analysed)
    const jvm::Method* callee = f.cf->findMethod(m.name, m.descriptor);
    std::string why;
    Facts inner;
    if (!callee || !callee->isStatic() || !callee->code) {
      why = "no static code in the class";
    } else if (f.call_depth >= 8) {
      why = "calls nested too deep";
    } else {
      inner.cls = f.cls;
      inner.pure = f.pure;
      inner.leaf = f.leaf;
      inner.same = f.same;
      inner.array_stores = true;
      inner.cf = f.cf;
      inner.callees = f.callees;
      inner.call_depth = f.call_depth + 1;
      try {
        const MethodFacts F = detail::analyseMethod(*f.cf, *callee);
        why = checkHelper(F, inner, nullptr);
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    if (why.empty() && inner.library) why = "changes a JDK object";  // (its receiver is no local of the loop)
    // (CharSequence.charAt/length or Random.next* on what it is given: objects the loop
    // reaches, which the caller lets the calls change — calls_on_receivers)
    f.callees->why[key] = why;
    if (!why.empty()) return why;
    f.callees->effects[key] = {inner.exceptions, inner.stores, inner.objects, inner.receivers, inner.other_iae};
  }
  const Callees::Effects& e = f.callees->effects.at(key);
  f.exceptions.insert(e.exceptions.begin(), e.exceptions.end());
  f.stores = f.stores || e.stores;
  f.objects = f.objects || e.objects;
  f.receivers = f.receivers || e.receivers;
  f.other_iae = f.other_iae || e.other_iae;
  return "";
}

/// JDK exceptions a summarised loop or helper may construct and throw itself.
bool throwableJdkException(const std::string& cls) {
  // (not NullPointerException: the summaries take it for a null dereference, LoopSummary)
  for (const char* c : {"IllegalArgumentException", "IllegalStateException", "IndexOutOfBoundsException",
                        "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException", "ArithmeticException",
                        "UnsupportedOperationException", "NumberFormatException"})
    if (cls == std::string("java/lang/") + c) return true;
  return false;
}

/// Parameters of primitives and strings only (a message built from them runs no program code).
bool valueParams(const std::string& descriptor) {
  try {
    for (const jvm::TypeDesc& t : jvm::parseMethodDescriptor(descriptor).params)
      if ((t.kind == 'L' && t.text != "Ljava/lang/String;") || t.kind == '[') return false;
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

/// An instruction that builds an exception's message from primitives and strings: a string
/// constant, string concatenation (`invokedynamic makeConcatWithConstants`, or a StringBuilder
/// made here, appended to and turned into a string), `String.valueOf`, the exception's `new`
/// and constructor.
bool messageInstruction(const Instruction& in, const std::string& exception) {
  using O = Opcode;
  const jvm::MemberRef& m = in.member;
  switch (in.op) {
    case O::ldc: case O::ldc_w: return in.constant.kind == jvm::ConstValue::Kind::String;
    case O::invokedynamic: return m.name == "makeConcatWithConstants" && valueParams(m.descriptor);
    case O::new_: return in.type == "java/lang/StringBuilder" || in.type == exception;
    case O::invokespecial:
      return (m.owner == "java/lang/StringBuilder" || m.owner == exception) && m.name == "<init>" && valueParams(m.descriptor);
    case O::invokevirtual:
      return m.owner == "java/lang/StringBuilder" &&
             ((m.name == "append" && valueParams(m.descriptor)) || (m.name == "toString" && m.descriptor == "()Ljava/lang/String;"));
    case O::invokestatic: return m.owner == "java/lang/String" && m.name == "valueOf" && valueParams(m.descriptor);
    default: return false;
  }
}

/// The explicit throw of a JDK exception starting at instruction `i` (`new C`): a straight
/// line (no jump lands inside it, none leaves it) of message instructions and of what `check`
/// accepts, ending in `athrow`, as in `throw new IllegalArgumentException("Cannot interpret '"
/// + c + "'")`. Its exception becomes the loop's; its message is not kept, like those of the
/// other exceptions a summary throws (the product compares exceptions by class). Returns the
/// index of the `athrow`, or -1 (with `why`) when the code is not such a throw.
/// `stackAt(j)`: the operand-stack origins before instruction j (or null).
int explicitThrow(const MethodFacts& F, int i, Facts& f, std::string& why,
                  const std::function<const std::vector<int>*(int)>& stackAt) {
  const std::string exception = F.at(i).type;
  if (!f.array_stores || !throwableJdkException(exception)) {
    why = "instruction new";
    return -1;
  }
  for (int j = i; j < F.size(); ++j) {
    const Instruction& in = F.at(j);
    if (j > i)
      for (int k = 0; k < F.size(); ++k)
        if (k != j - 1) {
          const auto& succ = F.succs[static_cast<std::size_t>(k)];
          if (std::find(succ.begin(), succ.end(), j) != succ.end()) {
            why = "a jump lands inside the construction of an exception";
            return -1;
          }
        }
    if (in.op == Opcode::athrow) {
      f.exceptions.insert(exception);
      if (exception == "java/lang/IllegalArgumentException") f.other_iae = true;
      return j;
    }
    const auto& succ = F.succs[static_cast<std::size_t>(j)];
    if (succ.size() != 1 || succ[0] != j + 1) {
      why = "a branch inside the construction of an exception";
      return -1;
    }
    if (messageInstruction(in, exception)) continue;
    f.stack = stackAt(j);
    if (std::string w = check(in, f); !w.empty()) {
      why = w + " (building an exception)";
      return -1;
    }
  }
  why = "an exception built but not thrown";
  return -1;
}

/// An instance method of the class that a summarised loop may call on an object its reference
/// local holds (only with arrayStores): it runs the class's own code (private, final, of a
/// final class, called through invokespecial, or no override in the path), it never writes
/// local 0, and every instruction of it (and of the helpers it calls, to a depth of 8) is one a
/// summarised loop may hold, reading and writing primitive fields (and reading String fields)
/// of its receiver only, and calling builders' and bit sets' methods on its receiver or its
/// parameters only (what the caller's locals hold: checked at each call, checkInstanceCall).
/// Its effects are cached relative to the receiver. "" when it may be called.
std::string checkInstanceCallee(const jvm::MemberRef& m, bool special, Facts& f) {
  if (!f.cf || !f.callees) return "not analysed";
  const std::string key = m.name + ":" + m.descriptor;
  if (auto it = f.callees->instance_why.find(key); it != f.callees->instance_why.end()) return it->second;
  f.callees->instance_why[key] = "recursive";  // (while it is being analysed)
  const jvm::Method* callee = f.cf->findMethod(m.name, m.descriptor);
  std::string why;
  Facts inner;
  const bool fixed = callee && (special || (callee->access_flags & jvm::acc::Private) ||
                                (callee->access_flags & jvm::acc::Final) || (f.cf->access_flags & jvm::acc::Final));
  if (!callee || callee->isStatic() || !callee->code) {
    why = "no instance code in the class";
  } else if (!fixed && (!f.overridable || !*f.overridable || (*f.overridable)(m))) {
    why = "an override may run";
  } else if (f.call_depth >= 8) {
    why = "calls nested too deep";
  } else {
    inner.cls = f.cls;
    inner.pure = f.pure;
    inner.leaf = f.leaf;
    inner.same = f.same;
    inner.array_stores = true;
    inner.cf = f.cf;
    inner.callees = f.callees;
    inner.call_depth = f.call_depth + 1;
    inner.instance_callee = true;
    inner.overridable = f.overridable;
    try {
      const MethodFacts F = detail::analyseMethod(*f.cf, *callee);
      std::set<int> all, written;
      for (int i = 0; i < F.size(); ++i) {
        all.insert(i);
        if (const LocalAccess la = detail::localAccess(F.at(i)); la.slot >= 0 && la.store && la.type == 'A') written.insert(la.slot);
      }
      const auto origins = written.count(0) ? std::nullopt : detail::stackOrigins(F, 0, all, written);
      if (!F.depth_ok || !origins) why = "its operand stack is not known";
      else why = checkHelper(F, inner, &*origins);
    } catch (const std::exception& e) {
      why = e.what();
    }
    // (the builders it changes and the strings it reads are its receiver's, its parameters'
    // or its receiver's string fields: what the loop's locals hold, checked where it is called)
    if (why.empty() && (inner.receivers || inner.stores)) why = "reaches objects other than its receiver";
  }
  f.callees->instance_why[key] = why;
  if (!why.empty()) return why;
  Callees::InstanceEffects e;
  e.exceptions = inner.exceptions;
  for (const auto& [slot, name, desc] : inner.field_reads) e.reads.insert({name, desc});
  for (const auto& [slot, name, desc] : inner.field_writes) e.writes.insert({name, desc});
  e.helpers = inner.helpers;
  e.other_iae = inner.other_iae;
  e.library = inner.library;
  e.bitsets = inner.bitsets;
  e.objects = inner.objects;
  f.callees->instance_effects[key] = std::move(e);
  return "";
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

bool isGoto(Opcode op) { return op == Opcode::goto_ || op == Opcode::goto_w; }

/// The summary of one loop, or why it has none.
std::string summarise(const MethodFacts& F, int header, const std::vector<int>& body, Facts& facts, LoopSummary& out) {
  if (F.depth[static_cast<std::size_t>(header)] != 0) return "operand stack not empty at the header";
  std::set<int> in(body.begin(), body.end());
  in.insert(header);
  std::set<std::uint32_t> exits;
  // Where the operand-stack words come from (field accesses and instance calls need the
  // reference local that holds their object).
  std::set<int> writtenRefs;
  for (int i : in)
    if (const LocalAccess la = detail::localAccess(F.at(i)); la.slot >= 0 && la.store && la.type == 'A') writtenRefs.insert(la.slot);
  const auto origins = detail::stackOrigins(F, header, in, writtenRefs);
  auto stackAt = [&origins](int j) -> const std::vector<int>* {
    if (!origins) return nullptr;
    auto o = origins->find(j);
    return o == origins->end() ? nullptr : &o->second;
  };
  int thrownUpTo = -1;  // the instructions of an explicit throw, checked with its `new`
  for (int i : in) {
    if (i <= thrownUpTo) continue;
    const Instruction& insn = F.at(i);
    if (!F.handler_succs[static_cast<std::size_t>(i)].empty()) return "inside an exception handler's range";
    facts.stack = stackAt(i);
    if (insn.op == Opcode::new_) {
      std::string why;
      thrownUpTo = explicitThrow(F, i, facts, why, stackAt);
      if (thrownUpTo < 0) return why + " at pc " + std::to_string(insn.pc);
      for (int j = i; j <= thrownUpTo; ++j)
        if (!in.count(j)) return "an exception built outside the loop at pc " + std::to_string(insn.pc);
      continue;
    }
    if (std::string why = check(insn, facts); !why.empty()) return why + " at pc " + std::to_string(insn.pc);
    const char rk = returnKind(insn.op);
    if (rk != 'V' || insn.op == Opcode::return_) out.returns.emplace_back(insn.pc, rk);
    for (int t : F.succs[static_cast<std::size_t>(i)]) {
      if (in.count(t)) continue;
      // A goto outside the loop (javac's `break`) leads where the loop really leaves: one exit
      // with the loop's own condition's, not a second one (gotos change no state).
      for (int hops = 0; hops < 8 && t < F.size() && !in.count(t) && isGoto(F.at(t).op) &&
                         F.succs[static_cast<std::size_t>(t)].size() == 1;
           ++hops)
        t = F.succs[static_cast<std::size_t>(t)].front();
      if (in.count(t)) continue;
      if (t >= F.size() || F.depth[static_cast<std::size_t>(t)] != 0) return "leaves with values on the operand stack";
      exits.insert(F.at(t).pc);
    }
  }
  for (int slot : facts.ref_writes) {
    // A reference local the loop writes is a temporary of one iteration: not live at the header
    // (no iteration reads the previous one's) nor where the loop exits (the summary gives it no
    // value there). It is then no argument of the loop's functions.
    const std::string why = "writes reference local " + std::to_string(slot);
    if (F.live_in[static_cast<std::size_t>(header)].count(slot)) return why + " live at its header";
    for (std::uint32_t pc : exits) {
      const int t = F.indexAt(pc);
      if (t < 0 || t >= F.size() || F.live_in[static_cast<std::size_t>(t)].count(slot)) return why + " live after it";
    }
    facts.ref_reads.erase(slot);
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
  out.field_writes.assign(facts.field_writes.begin(), facts.field_writes.end());
  out.reads_objects = facts.objects;
  out.calls_helpers = facts.helpers;
  out.changes_library_objects = facts.library;
  out.calls_bitsets = facts.bitsets;
  out.calls_on_receivers = facts.receivers;
  out.iae_from_lengths_only = !facts.other_iae;
  return "";
}

}  // namespace

std::vector<LoopSummary> summarisableLoops(const jvm::ClassFile& cf, const jvm::Method& m,
                                           std::vector<std::string>* why, const std::set<std::string>* pureCalls,
                                           const std::function<bool(const jvm::MemberRef&)>& leafCall,
                                           bool arrayStores,
                                           const std::function<bool(const jvm::MemberRef&)>& overridable,
                                           const std::function<bool(const jvm::MemberRef&)>& sameCallee) {
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
  Callees callees;
  for (const auto& [header, body] : F.loops) {
    LoopSummary s;
    Facts facts;
    facts.cf = &cf;
    facts.callees = &callees;
    facts.cls = cf.name();
    facts.pure = pureCalls;
    facts.leaf = &leafCall;
    facts.array_stores = arrayStores;
    facts.overridable = &overridable;
    facts.same = &sameCallee;
    // (with arrayStores, the summaries of identical code: a break's tail is part of the loop)
    const std::vector<int> region = arrayStores ? detail::withBreakTails(F, header, body) : body;
    if (std::string no = summarise(F, header, region, facts, s); !no.empty()) {
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
