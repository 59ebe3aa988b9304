// ClosureOracle::Impl::jdkSeesNoPathObject: can JDK code entered from a method hold an object
// of the analysed path? The oracle's call-back edges assume any JDK call given a reference of a
// non-inert type may call back any overridable method of the path (docs/release-diff.md,
// "Call-backs from the JDK"). A value-flow pass over the method's bytecode bounds that: when no
// value that may be a path object ever reaches JDK code from this method, JDK code entered here
// holds none of the path's objects, calls none of their methods back and dispatches to none of
// their overrides.
//
// A value is "marked" (may be a path object, or hold one) when it comes from a parameter or the
// receiver, a field, a call of path code, a caught exception, a lambda whose code is the path's,
// or JDK code that may answer with objects it did not get from this method (static state,
// reflection, threads). It is unmarked when it is a primitive, a constant, an object of an inert
// JDK type (String, boxes, Class, ...), a JDK object this method creates, or what a JDK
// collection or factory built from unmarked values answers. The method passes when no marked
// value is ever the receiver or an argument of JDK code, or stored into an unmarked array
// (which might then carry it into the JDK under another name). Anything the pass does not
// understand (jsr/ret, a stack it cannot follow) fails it: the edges stay as they were.
#include <algorithm>
#include <deque>
#include <set>

#include "closure_code.hpp"
#include "closure_graph.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff {

namespace {

using jvm::Opcode;

struct FlowState {
  std::vector<bool> locals;
  std::vector<bool> stack;  // one entry per word: long and double take two
  bool seen = false;
};

int width(const jvm::TypeDesc& t) { return t.kind == 'V' ? 0 : (t.kind == 'J' || t.kind == 'D') ? 2 : 1; }

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

/// JDK static methods that answer only with what their arguments hold (or a new object built
/// from them), and read no static state that could hold the path's objects.
bool factoryOfItsArguments(const std::string& owner, const std::string& name) {
  if (owner == "java/util/Arrays") return name == "asList" || name == "copyOf" || name == "copyOfRange";
  if (owner == "java/util/List" || owner == "java/util/Set" || owner == "java/util/Map")
    return name == "of" || name == "copyOf" || name == "entry" || name == "ofEntries";
  if (owner == "java/util/Collections")
    return startsWith(name, "unmodifiable") || startsWith(name, "synchronized") || startsWith(name, "singleton") ||
           startsWith(name, "empty");
  if (owner == "java/util/Objects") return name == "requireNonNull" || name == "requireNonNullElse";
  return false;
}

/// JDK classes whose instance methods, on a receiver of this method's own making, answer only
/// with what was put in it: java.util's collections, maps, iterators and the like (not its
/// classes that reach shared state: time zones, locales, services, resources, threads), and
/// Object's, Iterable's and the string builders' own methods.
bool containerOwner(const std::string& owner) {
  static const std::set<std::string> kContainers = {
      "java/lang/Object", "java/lang/Iterable", "java/lang/CharSequence", "java/lang/StringBuilder",
      "java/lang/StringBuffer", "java/util/Collection", "java/util/List", "java/util/ArrayList",
      "java/util/LinkedList", "java/util/Vector", "java/util/Stack", "java/util/AbstractList",
      "java/util/AbstractCollection", "java/util/Set", "java/util/HashSet", "java/util/LinkedHashSet",
      "java/util/TreeSet", "java/util/SortedSet", "java/util/NavigableSet", "java/util/AbstractSet",
      "java/util/Map", "java/util/HashMap", "java/util/LinkedHashMap", "java/util/TreeMap", "java/util/SortedMap",
      "java/util/NavigableMap", "java/util/AbstractMap", "java/util/Hashtable", "java/util/IdentityHashMap",
      "java/util/WeakHashMap", "java/util/Map$Entry", "java/util/Iterator", "java/util/ListIterator",
      "java/util/Enumeration", "java/util/Queue", "java/util/Deque", "java/util/ArrayDeque",
      "java/util/Optional", "java/util/StringJoiner", "java/util/BitSet"};
  return kContainers.count(owner) > 0;
}

}  // namespace

bool ClosureOracle::Impl::jdkSeesNoPathObject(Version v, const DecodedMethod& dm) {
  if (!dm.method || !dm.method->code || dm.insns.empty()) return false;
  const jvm::Code& code = *dm.method->code;
  jvm::MethodDesc md;
  try {
    md = jvm::parseMethodDescriptor(dm.method->descriptor);
  } catch (const std::invalid_argument&) {
    return false;
  }
  // A type whose values may be path objects (or JDK objects holding them).
  auto markedType = [&](const std::string& descOrName) {
    if (descOrName.empty()) return true;
    if (descOrName[0] != 'L' && descOrName[0] != '[' && descOrName.size() == 1) return false;  // primitive
    return nonInert(v, key(descOrName, v));
  };
  auto markedTypeDesc = [&](const jvm::TypeDesc& t) {
    if (t.kind != 'L' && t.kind != '[') return false;
    return markedType(t.kind == 'L' ? t.className() : t.text);
  };

  FlowState entry;
  entry.locals.assign(code.max_locals, false);
  std::size_t slot = 0;
  if (!dm.method->isStatic()) {
    if (slot >= entry.locals.size()) return false;
    entry.locals[slot++] = true;  // the receiver: a path object
  }
  for (const jvm::TypeDesc& p : md.params) {
    if (slot + static_cast<std::size_t>(width(p)) > entry.locals.size()) return false;
    entry.locals[slot] = markedTypeDesc(p);
    slot += static_cast<std::size_t>(width(p));
  }
  entry.seen = true;

  const std::size_t n = dm.insns.size();
  std::vector<FlowState> in(n);
  in[0] = entry;
  std::deque<std::size_t> work{0};
  std::vector<bool> queued(n, false);
  queued[0] = true;
  bool ok = true;

  auto join = [&](std::size_t to, const FlowState& s) {
    FlowState& t = in[to];
    if (!t.seen) {
      t = s;
      t.seen = true;
    } else {
      if (t.stack.size() != s.stack.size() || t.locals.size() != s.locals.size()) {
        ok = false;
        return;
      }
      bool changed = false;
      for (std::size_t i = 0; i < s.locals.size(); ++i)
        if (s.locals[i] && !t.locals[i]) t.locals[i] = changed = true;
      for (std::size_t i = 0; i < s.stack.size(); ++i)
        if (s.stack[i] && !t.stack[i]) t.stack[i] = changed = true;
      if (!changed) return;
    }
    if (!queued[to]) {
      queued[to] = true;
      work.push_back(to);
    }
  };
  auto at = [&](std::int64_t pc) -> std::size_t {
    const int i = dm.indexAt(static_cast<std::uint32_t>(pc));
    if (i < 0 || static_cast<std::size_t>(i) >= n) {
      ok = false;
      return 0;
    }
    return static_cast<std::size_t>(i);
  };

  while (ok && !work.empty()) {
    const std::size_t i = work.front();
    work.pop_front();
    queued[i] = false;
    const Instruction& insn = dm.insns[i];
    FlowState s = in[i];
    std::vector<bool>& st = s.stack;
    auto pop = [&](std::size_t words) {
      bool any = false;
      if (st.size() < words) {
        ok = false;
        return false;
      }
      for (std::size_t k = 0; k < words; ++k) {
        any = any || st.back();
        st.pop_back();
      }
      return any;
    };
    auto push = [&](std::size_t words, bool marked) {
      for (std::size_t k = 0; k < words; ++k) st.push_back(marked);
    };
    auto local = [&](int index, std::size_t words) -> bool {
      if (index < 0 || static_cast<std::size_t>(index) + words > s.locals.size()) {
        ok = false;
        return false;
      }
      return s.locals[static_cast<std::size_t>(index)];
    };
    // Handlers covering this instruction see its locals (before and after it) and the exception.
    auto toHandlers = [&](const FlowState& before, const FlowState& after) {
      for (const auto& h : code.handlers)
        if (insn.pc >= h.start_pc && insn.pc < h.end_pc) {
          for (const FlowState* from : {&before, &after}) {
            FlowState e;
            e.locals = from->locals;
            e.stack = {true};  // the exception may be the path's
            e.seen = true;
            join(at(h.handler_pc), e);
          }
        }
    };
    const FlowState before = s;
    bool fallsThrough = true;
    const Opcode op = insn.op;
    const int o = static_cast<int>(op);
    const LocalAccess la = localAccess(insn);  // the loads and stores, _n forms included
    if (la.slot >= 0 && op != Opcode::iinc && op != Opcode::ret) {
      const std::size_t w = (la.type == 'J' || la.type == 'D') ? 2 : 1;
      if (la.load) {
        const bool m = local(la.slot, w);
        push(w, la.type == 'A' && m);
      } else {
        const bool m = pop(w);
        local(la.slot, w);
        if (ok)
          for (std::size_t k = 0; k < w; ++k) s.locals[static_cast<std::size_t>(la.slot) + k] = la.type == 'A' && m;
      }
      if (!ok) return false;
      toHandlers(before, s);
      if (i + 1 >= n) return false;
      join(i + 1, s);
      continue;
    }
    switch (op) {
      case Opcode::nop: break;
      case Opcode::aconst_null: push(1, false); break;
      case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
        if (insn.constant.kind == ConstValue::Kind::Dynamic) return false;
        push(op == Opcode::ldc2_w ? 2 : 1, false);  // numbers, strings, classes, method types and handles
        break;
      case Opcode::iaload: case Opcode::faload: case Opcode::baload: case Opcode::caload: case Opcode::saload:
        pop(2);
        push(1, false);
        break;
      case Opcode::laload: case Opcode::daload: pop(2); push(2, false); break;
      case Opcode::aaload: {
        pop(1);                    // the index
        const bool m = pop(1);     // the array: its elements are as marked as it is
        push(1, m);
        break;
      }
      case Opcode::iastore: case Opcode::fastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
        pop(3);
        break;
      case Opcode::lastore: case Opcode::dastore: pop(4); break;
      case Opcode::aastore: {
        const bool value = pop(1);
        pop(1);
        const bool array = pop(1);
        if (value && !array) return false;  // a path object in an array that may reach the JDK unmarked
        break;
      }
      case Opcode::pop: pop(1); break;
      case Opcode::pop2: pop(2); break;
      case Opcode::dup:
        if (st.empty()) return false;
        st.push_back(st.back());
        break;
      case Opcode::dup_x1: {
        if (st.size() < 2) return false;
        const bool a = st[st.size() - 1];
        st.insert(st.end() - 2, a);
        break;
      }
      case Opcode::dup_x2: {
        if (st.size() < 3) return false;
        const bool a = st[st.size() - 1];
        st.insert(st.end() - 3, a);
        break;
      }
      case Opcode::dup2: {
        if (st.size() < 2) return false;
        const bool a = st[st.size() - 2], b = st[st.size() - 1];
        st.push_back(a);
        st.push_back(b);
        break;
      }
      case Opcode::dup2_x1: {
        if (st.size() < 3) return false;
        const bool a = st[st.size() - 2], b = st[st.size() - 1];
        st.insert(st.end() - 3, {a, b});
        break;
      }
      case Opcode::dup2_x2: {
        if (st.size() < 4) return false;
        const bool a = st[st.size() - 2], b = st[st.size() - 1];
        st.insert(st.end() - 4, {a, b});
        break;
      }
      case Opcode::swap:
        if (st.size() < 2) return false;
        {
          const bool top = st[st.size() - 1];
          st[st.size() - 1] = st[st.size() - 2];
          st[st.size() - 2] = top;
        }
        break;
      case Opcode::iinc: break;
      case Opcode::lcmp: case Opcode::dcmpl: case Opcode::dcmpg: pop(4); push(1, false); break;
      case Opcode::fcmpl: case Opcode::fcmpg: pop(2); push(1, false); break;
      case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
      case Opcode::ifnull: case Opcode::ifnonnull:
        pop(1);
        join(at(insn.target), s);
        break;
      case Opcode::if_icmpeq: case Opcode::if_icmpne: case Opcode::if_icmplt: case Opcode::if_icmpge:
      case Opcode::if_icmpgt: case Opcode::if_icmple: case Opcode::if_acmpeq: case Opcode::if_acmpne:
        pop(2);
        join(at(insn.target), s);
        break;
      case Opcode::goto_: case Opcode::goto_w:
        join(at(insn.target), s);
        fallsThrough = false;
        break;
      case Opcode::tableswitch: case Opcode::lookupswitch:
        pop(1);
        join(at(insn.sw.default_target), s);
        for (const auto& [k, target] : insn.sw.cases) join(at(target), s);
        fallsThrough = false;
        break;
      case Opcode::ireturn: case Opcode::freturn: case Opcode::areturn: case Opcode::lreturn: case Opcode::dreturn:
      case Opcode::return_: case Opcode::athrow:
        fallsThrough = false;
        break;
      case Opcode::getstatic: case Opcode::getfield: {
        if (op == Opcode::getfield) pop(1);
        jvm::TypeDesc t;
        try {
          t = jvm::parseFieldDescriptor(insn.member.descriptor);
        } catch (const std::invalid_argument&) {
          return false;
        }
        push(static_cast<std::size_t>(width(t)), markedTypeDesc(t));
        break;
      }
      case Opcode::putstatic: case Opcode::putfield: {
        jvm::TypeDesc t;
        try {
          t = jvm::parseFieldDescriptor(insn.member.descriptor);
        } catch (const std::invalid_argument&) {
          return false;
        }
        const bool value = pop(static_cast<std::size_t>(width(t)));
        if (op == Opcode::putfield) pop(1);
        // (a field of the path is marked whenever read; a JDK object's public field is not)
        if (value && !inPath(v, key(insn.member.owner, v))) return false;
        break;
      }
      case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
      case Opcode::invokeinterface: {
        jvm::MethodDesc cd;
        try {
          cd = jvm::parseMethodDescriptor(insn.member.descriptor);
        } catch (const std::invalid_argument&) {
          return false;
        }
        bool args = false;
        for (auto p = cd.params.rbegin(); p != cd.params.rend(); ++p)
          args = pop(static_cast<std::size_t>(width(*p))) || args;
        const bool isStatic = op == Opcode::invokestatic;
        const bool receiver = isStatic ? false : pop(1);
        const std::string owner = key(insn.member.owner, v);
        const bool path = !owner.empty() && owner[0] != '[' && inPath(v, owner) &&
                          resolveMethod(v, owner, insn.member.name, key(insn.member.descriptor, v)).exact;
        // Object's constructor (every constructor's super()) keeps and calls nothing.
        const bool objectInit = owner == "java/lang/Object" && insn.member.name == "<init>";
        if (!path && !objectInit && (args || receiver)) return false;  // JDK code given a path object
        bool result = markedTypeDesc(cd.ret);
        if (result && !path) {
          // JDK code on values of this method's own making: its answer holds what they hold
          // (nothing of the path) when it reads no shared state.
          const bool ctor = insn.member.name == "<init>";
          if (isStatic) result = !factoryOfItsArguments(owner, insn.member.name);
          else if (!ctor) result = !containerOwner(owner);
        }
        if (!ok) break;
        push(static_cast<std::size_t>(width(cd.ret)), result);
        break;
      }
      case Opcode::invokedynamic: {
        jvm::MethodDesc cd;
        try {
          cd = jvm::parseMethodDescriptor(insn.member.descriptor);
        } catch (const std::invalid_argument&) {
          return false;
        }
        bool args = false;
        for (auto p = cd.params.rbegin(); p != cd.params.rend(); ++p)
          args = pop(static_cast<std::size_t>(width(*p))) || args;
        detail::Bootstrap bs;
        try {
          bs = detail::bootstrapAt(*dm.cls, static_cast<std::uint16_t>(insn.imm));
        } catch (const std::exception&) {
          return false;
        }
        const std::string& factory = bs.handle.text;
        bool result = true;
        if (factory.find("java/lang/invoke/StringConcatFactory") != std::string::npos) {
          if (args) return false;  // toString of a path object
          result = false;          // a String
        } else if (factory.find("java/lang/invoke/LambdaMetafactory") != std::string::npos) {
          // A lambda whose code is the JDK's (a method reference such as HashSet::new) over
          // unmarked captures is unmarked; one whose code is the path's may make path objects.
          result = args;
          bool implemented = false;
          for (const ConstValue& a : bs.args)
            if (a.kind == ConstValue::Kind::MethodHandle) {
              const HandleRef h = parseHandle(a.text);
              const std::string k = key(h.owner, v);
              if (k.empty() || inPath(v, k)) result = true;
              implemented = true;
            }
          if (!implemented) result = true;
        } else {
          if (args) return false;  // another JDK bootstrap given what may be a path object
          result = true;
        }
        if (!ok) break;
        push(static_cast<std::size_t>(width(cd.ret)), result);
        break;
      }
      case Opcode::new_:
        push(1, markedType(insn.type) && inPath(v, key(insn.type, v)));
        break;
      case Opcode::newarray: pop(1); push(1, false); break;
      case Opcode::anewarray: pop(1); push(1, false); break;  // a new array holds nulls
      case Opcode::multianewarray:
        pop(static_cast<std::size_t>(insn.imm));
        push(1, false);
        break;
      case Opcode::arraylength: pop(1); push(1, false); break;
      case Opcode::checkcast: break;  // the same value
      case Opcode::instanceof: pop(1); push(1, false); break;
      case Opcode::monitorenter: case Opcode::monitorexit: pop(1); break;
      default: {
        // the primitive arithmetic, conversions: words in, words out, never a reference
        const int effect = stackEffect(insn);
        if (effect == INT32_MIN) return false;
        if (o >= static_cast<int>(Opcode::iconst_m1) && o <= static_cast<int>(Opcode::sipush)) {
          push(static_cast<std::size_t>(effect), false);
          break;
        }
        // binary and unary operators, conversions: what they pop, from the operand widths
        std::size_t pops = 0;
        switch (op) {
          case Opcode::iadd: case Opcode::isub: case Opcode::imul: case Opcode::idiv: case Opcode::irem:
          case Opcode::ishl: case Opcode::ishr: case Opcode::iushr: case Opcode::iand: case Opcode::ior:
          case Opcode::ixor: case Opcode::fadd: case Opcode::fsub: case Opcode::fmul: case Opcode::fdiv:
          case Opcode::frem:
            pops = 2;
            break;
          case Opcode::ladd: case Opcode::lsub: case Opcode::lmul: case Opcode::ldiv: case Opcode::lrem:
          case Opcode::land: case Opcode::lor: case Opcode::lxor: case Opcode::dadd: case Opcode::dsub:
          case Opcode::dmul: case Opcode::ddiv: case Opcode::drem:
            pops = 4;
            break;
          case Opcode::lshl: case Opcode::lshr: case Opcode::lushr: pops = 3; break;
          case Opcode::ineg: case Opcode::fneg: case Opcode::i2l: case Opcode::i2f: case Opcode::i2d:
          case Opcode::f2i: case Opcode::f2l: case Opcode::f2d: case Opcode::i2b: case Opcode::i2c: case Opcode::i2s:
            pops = 1;
            break;
          case Opcode::lneg: case Opcode::dneg: case Opcode::l2i: case Opcode::l2f: case Opcode::l2d:
          case Opcode::d2i: case Opcode::d2l: case Opcode::d2f:
            pops = 2;
            break;
          default: return false;  // jsr, ret, wide and anything not understood
        }
        const long pushes = static_cast<long>(pops) + effect;
        if (pushes < 0) return false;
        pop(pops);
        push(static_cast<std::size_t>(pushes), false);
        break;
      }
    }
    if (!ok) return false;
    toHandlers(before, s);
    if (fallsThrough) {
      if (i + 1 >= n) return false;  // falls off the end of the code
      join(i + 1, s);
    }
  }
  return ok;
}

}  // namespace pasda::diff
