// ClosureOracle::Impl::flowFacts: can JDK code entered from a method hold an object of the
// analysed path, and what may the object each call is made on be? The oracle's call-back edges
// assume any JDK call given a reference of a
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
//
// Beside the mark, each value has a kind: it may be an object of a path class, it is none (an
// unmarked value, null), or it is a lambda made here or given by the caller (the method's
// calling context), known by its own method. A call on a value that is no path object
// dispatches to no override of the path (docs/release-diff.md, "What a call is made on").
#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "closure_code.hpp"
#include "closure_graph.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff {

namespace {

using jvm::Opcode;

using detail::kAnyObject;
using detail::kNoObject;
using detail::kNotPathObject;

/// One word of a local or of the operand stack: whether it may be or hold a path object
/// (`marked`), and what the object it may be is (`kind`: kAnyObject, kNotPathObject, kNoObject
/// for a primitive or null, or the id of a lambda's own method, name:descriptor).
struct Word {
  bool marked = false;
  std::int32_t kind = kNoObject;
  bool operator==(const Word&) const = default;
};

/// Either of two words (the join at a branch target).
Word either(const Word& a, const Word& b) {
  Word w{a.marked || b.marked, a.kind};
  if (a.kind == b.kind || b.kind == kNoObject) return w;
  if (a.kind == kNoObject) w.kind = b.kind;
  else if (a.kind == kAnyObject || b.kind == kAnyObject) w.kind = kAnyObject;
  else w.kind = kNotPathObject;  // two lambdas, or a lambda and a JDK object: none of the path's
  return w;
}

/// A reference that is marked (may be the path's) or not: of any class, or of none of the path's.
Word reference(bool marked) { return {marked, marked ? kAnyObject : kNotPathObject}; }

struct FlowState {
  std::vector<Word> locals;
  std::vector<Word> stack;  // one entry per word: long and double take two
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

/// What the pass asks of the oracle, in version v's own names.
struct FlowQueries {
  std::function<bool(const std::string&)> marked_type;  // a type (descriptor or name) that may hold path objects
  std::function<bool(const std::string&)> path_class;   // a class of the path
  std::function<bool(const jvm::MemberRef&)> path_code;  // a call that resolves to the path's code
  std::function<std::int32_t(const std::string&)> lambda_id;  // the id of a lambda's method, "name:desc"
  std::map<std::size_t, std::int32_t> lambda_params;         // parameters known to be lambdas (by index)
};

/// The value-flow pass over one method (see the top of the file): run() is false when the pass
/// cannot follow the code; clean() tells whether a marked value may reach JDK code, and
/// stateAt(i) what is known before instruction i.
class FlowPass {
 public:
  FlowPass(const DecodedMethod& dm, const FlowQueries& q)
      : dm_(dm), code_(*dm.method->code), q_(q), in_(dm.insns.size()), queued_(dm.insns.size(), false) {}

  bool run() {
    if (!entry(in_[0])) return ok_ = false;
    work_.push_back(0);
    queued_[0] = true;
    while (ok_ && !work_.empty()) {
      const std::size_t i = work_.front();
      work_.pop_front();
      queued_[i] = false;
      if (!step(i)) return ok_ = false;
    }
    return ok_;
  }
  bool clean() const { return ok_ && clean_; }
  const FlowState& stateAt(std::size_t i) const { return in_[i]; }

 private:
  /// The state at the first instruction: the receiver and the parameters of marked types.
  bool entry(FlowState& s) {
    jvm::MethodDesc md;
    try {
      md = jvm::parseMethodDescriptor(dm_.method->descriptor);
    } catch (const std::invalid_argument&) {
      return false;
    }
    s.locals.assign(code_.max_locals, Word{});
    std::size_t slot = 0;
    if (!dm_.method->isStatic()) {
      if (slot >= s.locals.size()) return false;
      s.locals[slot++] = reference(true);  // the receiver: a path object
    }
    for (std::size_t k = 0; k < md.params.size(); ++k) {
      const jvm::TypeDesc& p = md.params[k];
      if (slot + static_cast<std::size_t>(width(p)) > s.locals.size()) return false;
      if (p.kind == 'L' || p.kind == '[') s.locals[slot] = reference(markedDesc(p));
      auto lambda = q_.lambda_params.find(k);  // (a lambda the caller made: it may still hold path objects)
      if (lambda != q_.lambda_params.end()) s.locals[slot].kind = lambda->second;
      slot += static_cast<std::size_t>(width(p));
    }
    s.seen = true;
    return true;
  }

  bool markedDesc(const jvm::TypeDesc& t) const {
    if (t.kind != 'L' && t.kind != '[') return false;
    return q_.marked_type(t.kind == 'L' ? t.className() : t.text);
  }

  // ----- the worklist -----

  void join(std::size_t to, const FlowState& s) {
    FlowState& t = in_[to];
    if (!t.seen) {
      t = s;
      t.seen = true;
    } else {
      if (t.stack.size() != s.stack.size() || t.locals.size() != s.locals.size()) {
        ok_ = false;
        return;
      }
      bool changed = false;
      for (auto [from, into] : {std::pair{&s.locals, &t.locals}, std::pair{&s.stack, &t.stack}})
        for (std::size_t i = 0; i < from->size(); ++i) {
          const Word w = either((*into)[i], (*from)[i]);
          if (w != (*into)[i]) (*into)[i] = w, changed = true;
        }
      if (!changed) return;
    }
    if (!queued_[to]) {
      queued_[to] = true;
      work_.push_back(to);
    }
  }
  std::size_t at(std::int64_t pc) {
    const int i = dm_.indexAt(static_cast<std::uint32_t>(pc));
    if (i < 0 || static_cast<std::size_t>(i) >= dm_.insns.size()) {
      ok_ = false;
      return 0;
    }
    return static_cast<std::size_t>(i);
  }
  /// Handlers covering `insn` see its locals (before and after it) and the exception.
  void toHandlers(const Instruction& insn, const FlowState& before, const FlowState& after) {
    for (const auto& h : code_.handlers)
      if (insn.pc >= h.start_pc && insn.pc < h.end_pc)
        for (const FlowState* from : {&before, &after}) {
          FlowState e;
          e.locals = from->locals;
          e.stack = {reference(true)};  // the exception may be the path's
          e.seen = true;
          join(at(h.handler_pc), e);
        }
  }

  // ----- the operand stack and the locals -----

  /// Pops `words` words; true when any of them was marked.
  bool pop(FlowState& s, std::size_t words) {
    if (s.stack.size() < words) {
      ok_ = false;
      return false;
    }
    bool any = false;
    for (std::size_t k = 0; k < words; ++k) {
      any = any || s.stack.back().marked;
      s.stack.pop_back();
    }
    return any;
  }
  static void push(FlowState& s, std::size_t words, Word w) {
    for (std::size_t k = 0; k < words; ++k) s.stack.push_back(w);
  }
  /// A primitive (one or two words), or a reference that may be the path's when `marked`.
  static void push(FlowState& s, std::size_t words, bool marked) {
    push(s, words, words == 1 ? reference(marked) : Word{});
  }
  /// A marked value reaches JDK code: the method is not clean (the pass goes on for stateAt).
  void reachesJdk() { clean_ = false; }
  bool localInRange(const FlowState& s, int index, std::size_t words) {
    if (index < 0 || static_cast<std::size_t>(index) + words > s.locals.size()) ok_ = false;
    return ok_;
  }

  // ----- one instruction -----

  bool step(std::size_t i) {
    const Instruction& insn = dm_.insns[i];
    FlowState s = in_[i];
    const FlowState before = s;
    bool fallsThrough = true;
    if (!transfer(insn, s, fallsThrough) || !ok_) return false;
    toHandlers(insn, before, s);
    if (fallsThrough) {
      if (i + 1 >= dm_.insns.size()) return false;  // falls off the end of the code
      join(i + 1, s);
    }
    return ok_;
  }

  /// The effect of `insn` on `s`; false when the pass fails.
  bool transfer(const Instruction& insn, FlowState& s, bool& fallsThrough) {
    const LocalAccess la = localAccess(insn);  // the loads and stores, _n forms included
    if (la.slot >= 0 && insn.op != Opcode::iinc && insn.op != Opcode::ret) return localOp(la, s);
    switch (insn.op) {
      case Opcode::nop: case Opcode::iinc: case Opcode::checkcast:  // (checkcast: the same value)
        return true;
      case Opcode::aconst_null: push(s, 1, Word{}); return true;
      case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
        if (insn.constant.kind == ConstValue::Kind::Dynamic) return false;
        push(s, insn.op == Opcode::ldc2_w ? 2 : 1, false);  // numbers, strings, classes, method types and handles
        return true;
      case Opcode::iaload: case Opcode::faload: case Opcode::baload: case Opcode::caload: case Opcode::saload:
      case Opcode::laload: case Opcode::daload: case Opcode::aaload:
      case Opcode::iastore: case Opcode::fastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
      case Opcode::lastore: case Opcode::dastore: case Opcode::aastore:
        return arrayOp(insn.op, s);
      case Opcode::pop: case Opcode::pop2: case Opcode::dup: case Opcode::dup_x1: case Opcode::dup_x2:
      case Opcode::dup2: case Opcode::dup2_x1: case Opcode::dup2_x2: case Opcode::swap:
        return stackOp(insn.op, s);
      case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
      case Opcode::ifnull: case Opcode::ifnonnull: case Opcode::if_icmpeq: case Opcode::if_icmpne:
      case Opcode::if_icmplt: case Opcode::if_icmpge: case Opcode::if_icmpgt: case Opcode::if_icmple:
      case Opcode::if_acmpeq: case Opcode::if_acmpne: case Opcode::goto_: case Opcode::goto_w:
      case Opcode::tableswitch: case Opcode::lookupswitch: case Opcode::ireturn: case Opcode::freturn:
      case Opcode::areturn: case Opcode::lreturn: case Opcode::dreturn: case Opcode::return_: case Opcode::athrow:
        return controlOp(insn, s, fallsThrough);
      case Opcode::getstatic: case Opcode::getfield: case Opcode::putstatic: case Opcode::putfield:
        return fieldOp(insn, s);
      case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
      case Opcode::invokeinterface:
        return invoke(insn, s);
      case Opcode::invokedynamic: return invokeDynamic(insn, s);
      case Opcode::new_:
        push(s, 1, q_.marked_type(insn.type) && q_.path_class(insn.type));
        return true;
      case Opcode::newarray: case Opcode::anewarray:  // a new array holds zeros or nulls
      case Opcode::arraylength: case Opcode::instanceof:
        pop(s, 1);
        push(s, 1, false);
        return true;
      case Opcode::multianewarray:
        pop(s, static_cast<std::size_t>(insn.imm));
        push(s, 1, false);
        return true;
      case Opcode::monitorenter: case Opcode::monitorexit: pop(s, 1); return true;
      default: return primitiveOp(insn, s);
    }
  }

  bool localOp(const LocalAccess& la, FlowState& s) {
    const std::size_t w = (la.type == 'J' || la.type == 'D') ? 2 : 1;
    if (la.load) {
      if (!localInRange(s, la.slot, w)) return false;
      push(s, w, la.type == 'A' ? s.locals[static_cast<std::size_t>(la.slot)] : Word{});
      return true;
    }
    const Word top = s.stack.empty() ? Word{} : s.stack.back();
    pop(s, w);
    if (!localInRange(s, la.slot, w)) return false;
    for (std::size_t k = 0; k < w; ++k) s.locals[static_cast<std::size_t>(la.slot) + k] = la.type == 'A' ? top : Word{};
    return true;
  }

  bool arrayOp(Opcode op, FlowState& s) {
    switch (op) {
      case Opcode::laload: case Opcode::daload: pop(s, 2); push(s, 2, false); return true;
      case Opcode::aaload: {
        pop(s, 1);                  // the index
        const bool m = pop(s, 1);   // the array: its elements are as marked as it is
        push(s, 1, m);
        return true;
      }
      case Opcode::lastore: case Opcode::dastore: pop(s, 4); return true;
      case Opcode::iastore: case Opcode::fastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
        pop(s, 3);
        return true;
      case Opcode::aastore: {
        const bool value = pop(s, 1);
        pop(s, 1);
        const bool array = pop(s, 1);
        if (value && !array) reachesJdk();  // a path object in an array that may reach the JDK unmarked
        return true;
      }
      default:  // the loads of one word
        pop(s, 2);
        push(s, 1, false);
        return true;
    }
  }

  /// pop, dup and swap in all their forms, word by word (JVMS 6.5).
  static bool stackOp(Opcode op, FlowState& s) {
    std::vector<Word>& st = s.stack;
    // (words taken from the top, and where the copy goes: below `under` words)
    std::size_t copy = 0, under = 0;
    switch (op) {
      case Opcode::pop: case Opcode::pop2: {
        const std::size_t n = op == Opcode::pop ? 1 : 2;
        if (st.size() < n) return false;
        st.resize(st.size() - n);
        return true;
      }
      case Opcode::swap:
        if (st.size() < 2) return false;
        {
          const Word top = st[st.size() - 1];
          st[st.size() - 1] = st[st.size() - 2];
          st[st.size() - 2] = top;
        }
        return true;
      case Opcode::dup: copy = 1, under = 1; break;
      case Opcode::dup_x1: copy = 1, under = 2; break;
      case Opcode::dup_x2: copy = 1, under = 3; break;
      case Opcode::dup2: copy = 2, under = 2; break;
      case Opcode::dup2_x1: copy = 2, under = 3; break;
      case Opcode::dup2_x2: copy = 2, under = 4; break;
      default: return false;
    }
    if (st.size() < under) return false;
    const std::vector<Word> top(st.end() - static_cast<std::ptrdiff_t>(copy), st.end());
    st.insert(st.end() - static_cast<std::ptrdiff_t>(under), top.begin(), top.end());
    return true;
  }

  bool controlOp(const Instruction& insn, FlowState& s, bool& fallsThrough) {
    switch (insn.op) {
      case Opcode::goto_: case Opcode::goto_w:
        join(at(insn.target), s);
        fallsThrough = false;
        return true;
      case Opcode::tableswitch: case Opcode::lookupswitch:
        pop(s, 1);
        join(at(insn.sw.default_target), s);
        for (const auto& [k, target] : insn.sw.cases) join(at(target), s);
        fallsThrough = false;
        return true;
      case Opcode::ireturn: case Opcode::freturn: case Opcode::areturn: case Opcode::lreturn: case Opcode::dreturn:
      case Opcode::return_: case Opcode::athrow:
        fallsThrough = false;
        return true;
      case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
      case Opcode::ifnull: case Opcode::ifnonnull:
        pop(s, 1);
        join(at(insn.target), s);
        return true;
      default:  // the two-operand comparisons
        pop(s, 2);
        join(at(insn.target), s);
        return true;
    }
  }

  bool fieldOp(const Instruction& insn, FlowState& s) {
    jvm::TypeDesc t;
    try {
      t = jvm::parseFieldDescriptor(insn.member.descriptor);
    } catch (const std::invalid_argument&) {
      return false;
    }
    const auto w = static_cast<std::size_t>(width(t));
    if (insn.op == Opcode::getstatic || insn.op == Opcode::getfield) {
      if (insn.op == Opcode::getfield) pop(s, 1);
      push(s, w, markedDesc(t));
      return true;
    }
    const bool value = pop(s, w);
    if (insn.op == Opcode::putfield) pop(s, 1);
    // (a field of the path is marked whenever read; a JDK object's public field is not)
    if (value && !q_.path_class(insn.member.owner)) reachesJdk();
    return true;
  }

  /// Pops the arguments of a call of descriptor `desc` into `md`; `marked` when any was.
  bool popArguments(FlowState& s, const std::string& desc, jvm::MethodDesc& md, bool& marked) {
    try {
      md = jvm::parseMethodDescriptor(desc);
    } catch (const std::invalid_argument&) {
      return false;
    }
    marked = false;
    for (auto p = md.params.rbegin(); p != md.params.rend(); ++p)
      marked = pop(s, static_cast<std::size_t>(width(*p))) || marked;
    return ok_;
  }

  bool invoke(const Instruction& insn, FlowState& s) {
    jvm::MethodDesc cd;
    bool args = false;
    if (!popArguments(s, insn.member.descriptor, cd, args)) return false;
    const bool isStatic = insn.op == Opcode::invokestatic;
    const bool receiver = isStatic ? false : pop(s, 1);
    const std::string& owner = insn.member.owner;
    const bool path = q_.path_code(insn.member);
    // Object's constructor (every constructor's super()) keeps and calls nothing.
    const bool objectInit = owner == "java/lang/Object" && insn.member.name == "<init>";
    if (!path && !objectInit && (args || receiver)) reachesJdk();  // JDK code given a path object
    bool result = markedDesc(cd.ret);
    if (result && !path) {
      // JDK code on values of this method's own making: its answer holds what they hold
      // (nothing of the path) when it reads no shared state.
      if (isStatic) result = !factoryOfItsArguments(owner, insn.member.name);
      else if (insn.member.name != "<init>") result = !containerOwner(owner);
    }
    push(s, static_cast<std::size_t>(width(cd.ret)), result);
    return true;
  }

  bool invokeDynamic(const Instruction& insn, FlowState& s) {
    jvm::MethodDesc cd;
    bool args = false;
    if (!popArguments(s, insn.member.descriptor, cd, args)) return false;
    detail::Bootstrap bs;
    try {
      bs = detail::bootstrapAt(*dm_.cls, static_cast<std::uint16_t>(insn.imm));
    } catch (const std::exception&) {
      return false;
    }
    const std::string& factory = bs.handle.text;
    bool result = true;
    std::int32_t kind = kAnyObject;
    if (factory.find("java/lang/invoke/StringConcatFactory") != std::string::npos) {
      if (args) reachesJdk();  // toString of a path object
      result = false;          // a String
      kind = kNotPathObject;
    } else if (factory.find("java/lang/invoke/LambdaMetafactory") != std::string::npos) {
      // A lambda whose code is the JDK's (a method reference such as HashSet::new) over
      // unmarked captures is unmarked; one whose code is the path's may make path objects.
      result = args;
      bool implemented = false;
      for (const ConstValue& a : bs.args)
        if (a.kind == ConstValue::Kind::MethodHandle) {
          const HandleRef h = parseHandle(a.text);
          if (h.owner.empty() || q_.path_class(h.owner)) result = true;
          implemented = true;
        }
      if (!implemented) result = true;
      // The object is the JDK's own (a hidden class), whose method of the lambda runs the body.
      if (!bs.args.empty() && bs.args[0].kind == ConstValue::Kind::MethodType)
        kind = q_.lambda_id(insn.member.name + ":" + bs.args[0].text);
      else
        kind = kNotPathObject;
    } else if (args) {
      reachesJdk();  // another JDK bootstrap given what may be a path object
    }
    push(s, static_cast<std::size_t>(width(cd.ret)), Word{result, width(cd.ret) == 1 ? kind : kNoObject});
    return true;
  }

  /// Constants, arithmetic, comparisons and conversions: words in, words out, never a reference.
  bool primitiveOp(const Instruction& insn, FlowState& s) {
    const int effect = stackEffect(insn);
    if (effect == INT32_MIN) return false;
    const int o = static_cast<int>(insn.op);
    if (o >= static_cast<int>(Opcode::iconst_m1) && o <= static_cast<int>(Opcode::sipush)) {
      push(s, static_cast<std::size_t>(effect), false);
      return true;
    }
    const std::size_t pops = operandWords(insn.op);
    const long pushes = static_cast<long>(pops) + effect;
    if (pops == 0 || pushes < 0) return false;  // jsr, ret, wide and anything not understood
    pop(s, pops);
    push(s, static_cast<std::size_t>(pushes), false);
    return true;
  }

  /// The words an operator, comparison or conversion takes from the stack (0: not one).
  static std::size_t operandWords(Opcode op) {
    switch (op) {
      case Opcode::iadd: case Opcode::isub: case Opcode::imul: case Opcode::idiv: case Opcode::irem:
      case Opcode::ishl: case Opcode::ishr: case Opcode::iushr: case Opcode::iand: case Opcode::ior:
      case Opcode::ixor: case Opcode::fadd: case Opcode::fsub: case Opcode::fmul: case Opcode::fdiv:
      case Opcode::frem: case Opcode::fcmpl: case Opcode::fcmpg: case Opcode::lneg: case Opcode::dneg:
      case Opcode::l2i: case Opcode::l2f: case Opcode::l2d: case Opcode::d2i: case Opcode::d2l: case Opcode::d2f:
        return 2;
      case Opcode::ladd: case Opcode::lsub: case Opcode::lmul: case Opcode::ldiv: case Opcode::lrem:
      case Opcode::land: case Opcode::lor: case Opcode::lxor: case Opcode::dadd: case Opcode::dsub:
      case Opcode::dmul: case Opcode::ddiv: case Opcode::drem: case Opcode::lcmp: case Opcode::dcmpl:
      case Opcode::dcmpg:
        return 4;
      case Opcode::lshl: case Opcode::lshr: case Opcode::lushr: return 3;
      case Opcode::ineg: case Opcode::fneg: case Opcode::i2l: case Opcode::i2f: case Opcode::i2d:
      case Opcode::f2i: case Opcode::f2l: case Opcode::f2d: case Opcode::i2b: case Opcode::i2c: case Opcode::i2s:
        return 1;
      default: return 0;
    }
  }

  const DecodedMethod& dm_;
  const jvm::Code& code_;
  const FlowQueries& q_;
  std::vector<FlowState> in_;
  std::deque<std::size_t> work_;
  std::vector<bool> queued_;
  bool ok_ = true;
  bool clean_ = true;
};

}  // namespace

detail::FlowFacts ClosureOracle::Impl::flowFacts(Version v, const DecodedMethod& dm, const std::string& context) {
  detail::FlowFacts out;
  if (!dm.method || !dm.method->code || dm.insns.empty()) return out;
  FlowQueries q;
  q.marked_type = [&](const std::string& descOrName) {
    if (descOrName.empty()) return true;
    if (descOrName[0] != 'L' && descOrName[0] != '[' && descOrName.size() == 1) return false;  // primitive
    return nonInert(v, key(descOrName, v));
  };
  q.path_class = [&](const std::string& name) {
    const std::string k = key(name, v);
    return !k.empty() && k[0] != '[' && inPath(v, k);
  };
  q.path_code = [&](const jvm::MemberRef& m) {
    const std::string owner = key(m.owner, v);
    return !owner.empty() && owner[0] != '[' && inPath(v, owner) &&
           resolveMethod(v, owner, m.name, key(m.descriptor, v)).exact;
  };
  q.lambda_id = [&](const std::string& method) { return lambdaId(key(method, v)); };
  // The context "k=id;...": parameter k is a lambda whose own method is lambda_methods[id].
  for (std::size_t p = 0; p < context.size();) {
    const std::size_t eq = context.find('=', p), end = context.find(';', p);
    if (eq == std::string::npos || end == std::string::npos || eq > end) break;
    q.lambda_params[std::stoul(context.substr(p, eq - p))] = std::stoi(context.substr(eq + 1, end - eq - 1));
    p = end + 1;
  }
  FlowPass pass(dm, q);
  if (!pass.run()) return out;
  out.clean = pass.clean();
  out.sites.resize(dm.insns.size());
  for (std::size_t i = 0; i < dm.insns.size(); ++i) {
    const Instruction& insn = dm.insns[i];
    const bool isStatic = insn.op == Opcode::invokestatic;
    if (!isStatic && insn.op != Opcode::invokevirtual && insn.op != Opcode::invokespecial &&
        insn.op != Opcode::invokeinterface)
      continue;
    const FlowState& st = pass.stateAt(i);
    jvm::MethodDesc md;
    try {
      md = jvm::parseMethodDescriptor(insn.member.descriptor);
    } catch (const std::invalid_argument&) {
      continue;
    }
    std::size_t words = 0;
    for (const jvm::TypeDesc& p : md.params) words += static_cast<std::size_t>(width(p));
    if (!st.seen || st.stack.size() < words + (isStatic ? 0 : 1)) continue;  // (not reached: nothing known)
    std::size_t at = st.stack.size() - words;
    if (!isStatic) out.sites[i].receiver = st.stack[at - 1].kind;
    for (std::size_t k = 0; k < md.params.size(); at += static_cast<std::size_t>(width(md.params[k])), ++k)
      if (st.stack[at].kind >= 0)
        out.sites[i].callee_context += std::to_string(k) + "=" + std::to_string(st.stack[at].kind) + ";";
  }
  return out;
}

}  // namespace pasda::diff
