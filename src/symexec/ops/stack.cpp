// Opcode family: constants (xconst, bipush/sipush, ldc), loads and stores of locals, and the
// operand-stack shuffles (pop, dup*, swap) with the JVM's category-2 rules for long/double.
#include "ops.hpp"
#include "../text.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

StepOutcome constant(Interpreter& I, State& s, const Instruction& in) {
  terms::TermManager& tm = I.tm();
  const jvm::ConstValue& c = in.constant;
  switch (c.kind) {
    case jvm::ConstValue::Kind::Int: return pushNext(s, tm.intLit(static_cast<std::int32_t>(c.i)));
    case jvm::ConstValue::Kind::Long: return pushNext(s, tm.longLit(c.i));
    case jvm::ConstValue::Kind::Float: return pushNext(s, tm.lit(Sort::Float, c.bits & 0xFFFFFFFFu));
    case jvm::ConstValue::Kind::Double: return pushNext(s, tm.lit(Sort::Double, c.bits));
    case jvm::ConstValue::Kind::Class: return pushNext(s, I.classObject(s, c.text));  // (unique per class and side)
    case jvm::ConstValue::Kind::String: {
      // String literals are interned: the same text is the same object on a side, as `==`
      // sees it in Java.
      const std::string key = std::to_string(s.frames.back().side.index()) + "#S" + c.text;
      if (auto it = s.interned.find(key); it != s.interned.end()) return pushNext(s, tm.lit(Sort::Ref, it->second));
      Object o;
      o.cls = "java/lang/String";
      o.text = c.text;
      o.chars = true;
      o.elem_kind = 'C';
      for (std::uint16_t unit : utf16Units(c.text)) o.elems.push_back(tm.intLit(unit));
      Term ref = I.allocate(s, std::move(o));
      s.interned[key] = tm.node(ref).bits;
      return pushNext(s, ref);
    }
    default:
      throw ExecError("unsupported constant kind (MethodType/MethodHandle/Dynamic) in " + s.frames.back().m->key());
  }
}

StepOutcome load(State& s, int idx) {
  Frame& f = s.frames.back();
  if (idx < 0 || static_cast<std::size_t>(idx) >= f.locals.size() || !f.locals[static_cast<std::size_t>(idx)])
    throw ExecError("read of an undefined local " + std::to_string(idx) + " in " + f.m->key());
  return pushNext(s, f.locals[static_cast<std::size_t>(idx)]);
}

StepOutcome store(terms::TermManager& tm, State& s, int idx) {
  Term v = pop(s);
  Frame& f = s.frames.back();
  std::size_t need = static_cast<std::size_t>(idx) + (isCat2(tm, v) ? 2 : 1);
  if (f.locals.size() < need) f.locals.resize(need);
  f.locals[static_cast<std::size_t>(idx)] = v;
  if (isCat2(tm, v)) f.locals[static_cast<std::size_t>(idx) + 1] = Term{};
  return next(s);
}

/// dup_x2, dup2, dup2_x1, dup2_x2: which values move depends on their categories.
StepOutcome dupWide(terms::TermManager& tm, State& s, Opcode op) {
  auto put = [&](std::initializer_list<Term> ts) {
    for (Term t : ts) push(s, t);
    return next(s);
  };
  Term a = pop(s);
  switch (op) {
    case Opcode::dup_x2: {
      Term b = pop(s);
      if (isCat2(tm, b)) return put({a, b, a});
      Term c = pop(s);
      return put({a, c, b, a});
    }
    case Opcode::dup2: {
      if (isCat2(tm, a)) return put({a, a});
      Term b = pop(s);
      return put({b, a, b, a});
    }
    case Opcode::dup2_x1: {
      if (isCat2(tm, a)) {
        Term b = pop(s);
        return put({a, b, a});
      }
      Term b = pop(s);
      Term c = pop(s);
      return put({b, a, c, b, a});
    }
    default: {  // dup2_x2
      if (isCat2(tm, a)) {
        Term b = pop(s);
        if (isCat2(tm, b)) return put({a, b, a});
        Term c = pop(s);
        return put({a, c, b, a});
      }
      Term b = pop(s);
      Term c = pop(s);
      if (isCat2(tm, c)) return put({b, a, c, b, a});
      Term d = pop(s);
      return put({b, a, d, c, b, a});
    }
  }
}

}  // namespace

StepOutcome stack(Interpreter& I, State& s, const Instruction& in) {
  terms::TermManager& tm = I.tm();
  const int op = static_cast<int>(in.op);
  switch (in.op) {
    case Opcode::nop: return next(s);
    case Opcode::aconst_null: return pushNext(s, tm.nullRef());
    case Opcode::iconst_m1: case Opcode::iconst_0: case Opcode::iconst_1: case Opcode::iconst_2:
    case Opcode::iconst_3: case Opcode::iconst_4: case Opcode::iconst_5:
      return pushNext(s, tm.intLit(op - static_cast<int>(Opcode::iconst_0)));
    case Opcode::lconst_0: case Opcode::lconst_1:
      return pushNext(s, tm.longLit(op - static_cast<int>(Opcode::lconst_0)));
    case Opcode::fconst_0: case Opcode::fconst_1: case Opcode::fconst_2:
      return pushNext(s, tm.floatLit(static_cast<float>(op - static_cast<int>(Opcode::fconst_0))));
    case Opcode::dconst_0: case Opcode::dconst_1:
      return pushNext(s, tm.doubleLit(static_cast<double>(op - static_cast<int>(Opcode::dconst_0))));
    case Opcode::bipush: case Opcode::sipush: return pushNext(s, tm.intLit(in.imm));
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w: return constant(I, s, in);
    case Opcode::iload: case Opcode::lload: case Opcode::fload: case Opcode::dload: case Opcode::aload:
    case Opcode::iload_0: case Opcode::iload_1: case Opcode::iload_2: case Opcode::iload_3:
    case Opcode::lload_0: case Opcode::lload_1: case Opcode::lload_2: case Opcode::lload_3:
    case Opcode::fload_0: case Opcode::fload_1: case Opcode::fload_2: case Opcode::fload_3:
    case Opcode::dload_0: case Opcode::dload_1: case Opcode::dload_2: case Opcode::dload_3:
    case Opcode::aload_0: case Opcode::aload_1: case Opcode::aload_2: case Opcode::aload_3:
      return load(s, in.local);
    case Opcode::pop: pop(s); return next(s);
    case Opcode::pop2: {
      Term a = pop(s);
      if (!isCat2(tm, a)) pop(s);
      return next(s);
    }
    case Opcode::dup: {
      Term a = pop(s);
      push(s, a);
      return pushNext(s, a);
    }
    case Opcode::dup_x1: {
      Term a = pop(s);
      Term b = pop(s);
      push(s, a);
      push(s, b);
      return pushNext(s, a);
    }
    case Opcode::dup_x2: case Opcode::dup2: case Opcode::dup2_x1: case Opcode::dup2_x2:
      return dupWide(tm, s, in.op);
    case Opcode::swap: {
      Term a = pop(s);
      Term b = pop(s);
      push(s, a);
      return pushNext(s, b);
    }
    case Opcode::istore: case Opcode::lstore: case Opcode::fstore: case Opcode::dstore: case Opcode::astore:
    case Opcode::istore_0: case Opcode::istore_1: case Opcode::istore_2: case Opcode::istore_3:
    case Opcode::lstore_0: case Opcode::lstore_1: case Opcode::lstore_2: case Opcode::lstore_3:
    case Opcode::fstore_0: case Opcode::fstore_1: case Opcode::fstore_2: case Opcode::fstore_3:
    case Opcode::dstore_0: case Opcode::dstore_1: case Opcode::dstore_2: case Opcode::dstore_3:
    case Opcode::astore_0: case Opcode::astore_1: case Opcode::astore_2: case Opcode::astore_3:
      return store(tm, s, in.local);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
