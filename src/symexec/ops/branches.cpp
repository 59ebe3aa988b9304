// Opcode family: three-way comparisons (lcmp, fcmpl/g, dcmpl/g), conditional jumps, goto,
// jsr/ret and switches. Conditional jumps and switch cases are the decisions that spend the
// depth budget inside loops and recursion (docs/depth-limit.md).
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;
using terms::Op;

namespace {

// A comparison result (lcmp/fcmpX/dcmpX) compared with zero becomes a direct comparison of the
// operands, with the NaN behaviour of the compare instruction.
Term conditionAgainstZero(terms::TermManager& tm, Opcode op, Term v) {
  const terms::Node& n = tm.node(v);
  if (n.op == Op::Cmp || n.op == Op::CmpL || n.op == Op::CmpG) {
    Term a = n.args[0], b = n.args[1];
    bool g = n.op == Op::CmpG;
    bool fl = n.op != Op::Cmp;
    switch (op) {
      case Opcode::ifeq: return tm.eq(a, b);
      case Opcode::ifne: return fl ? tm.lnot(tm.eq(a, b)) : tm.ne(a, b);
      case Opcode::iflt: return (fl && !g) ? tm.lnot(tm.ge(a, b)) : tm.lt(a, b);
      case Opcode::ifle: return (fl && !g) ? tm.lnot(tm.gt(a, b)) : tm.le(a, b);
      case Opcode::ifgt: return (fl && g) ? tm.lnot(tm.le(a, b)) : tm.gt(a, b);
      case Opcode::ifge: return (fl && g) ? tm.lnot(tm.lt(a, b)) : tm.ge(a, b);
      default: break;
    }
  }
  Term z = tm.intLit(0);
  switch (op) {
    case Opcode::ifeq: return tm.eq(v, z);
    case Opcode::ifne: return tm.ne(v, z);
    case Opcode::iflt: return tm.lt(v, z);
    case Opcode::ifle: return tm.le(v, z);
    case Opcode::ifgt: return tm.gt(v, z);
    default: return tm.ge(v, z);
  }
}

Term twoOperandCondition(terms::TermManager& tm, Opcode op, Term a, Term b) {
  switch (op) {
    case Opcode::if_icmpeq: case Opcode::if_acmpeq: return tm.eq(a, b);
    case Opcode::if_icmpne: case Opcode::if_acmpne: return tm.ne(a, b);
    case Opcode::if_icmplt: return tm.lt(a, b);
    case Opcode::if_icmpge: return tm.ge(a, b);
    case Opcode::if_icmpgt: return tm.gt(a, b);
    default: return tm.le(a, b);
  }
}

/// Reference equality (if_acmpeq/ne). Distinct objects are different, except where Java's
/// identity is not known to the engine: a result of an unmodelled call may be any object (an
/// uninterpreted condition), and boxes from valueOf share the cached instances (-128..127).
Term referenceEquality(Interpreter& I, State& s, Term a, Term b) {
  terms::TermManager& tm = I.tm();
  std::uint64_t ia = tm.node(a).bits, ib = tm.node(b).bits;
  if (ia == ib || ia == 0 || ib == 0) return tm.eq(a, b);
  const Object& oa = I.deref(s, a);
  const Object& ob = I.deref(s, b);
  if (oa.box_cache && ob.box_cache && oa.cls == ob.cls) {
    auto va = oa.fields.find("value"), vb = ob.fields.find("value");
    if (va != oa.fields.end() && vb != ob.fields.end()) {
      Term lo = tm.intLit(oa.cls == "java/lang/Character" ? 0 : -128);
      Term v = va->second;
      if (tm.sort(v) == Sort::Long) return tm.land(tm.eq(v, vb->second), tm.land(tm.le(tm.longLit(-128), v), tm.le(v, tm.longLit(127))));
      return tm.land(tm.eq(v, vb->second), tm.land(tm.le(lo, v), tm.le(v, tm.intLit(127))));
    }
  }
  if (oa.input >= 0 && ob.input >= 0) return tm.eq(a, b);  // the input heap chose their aliasing
  // Could `x` be the very object `y` is (Java's identity not known to the engine)?
  auto couldBe = [](const Object& x, const Object& y) {
    auto known = [](const Object& o) { return !o.opaque && !o.box_cache && !o.havocked; };
    if (!known(x)) {  // an unmodelled call's result (or a possibly cached box) may be any object it could reach
      return !known(y) || y.escaped || y.input >= 0 || y.preexisting ||
             (y.cls == "java/lang/String" && y.chars && y.input < 0);
    }
    // A caller may pass a literal string or an object made by a class initialiser.
    if (x.input >= 0) return y.preexisting || (y.cls == "java/lang/String" && y.chars && y.input < 0 && !y.opaque);
    return false;
  };
  if (couldBe(oa, ob) || couldBe(ob, oa)) {
    const Side side = s.frames.back().side;
    return tm.apply("same_object", terms::FunKind::Library, Sort::Bool,
                    {I.inputs().identity(s, ia, side), I.inputs().identity(s, ib, side)});
  }
  return tm.eq(a, b);
}

StepOutcome conditionalJump(Interpreter& I, State& s, const Instruction& in, Term cond) {
  auto taken = I.explorer().branch(s, cond, inCountedCode(s));
  if (!taken) return StepOutcome::Ended;
  if (*taken) return I.jumpTo(s, in.target);
  return next(s);
}

StepOutcome switchJump(Interpreter& I, State& s, const Instruction& in) {
  terms::TermManager& tm = I.tm();
  Term key = pop(s);
  bool isCounted = inCountedCode(s);
  for (const auto& [k, target] : in.sw.cases) {
    auto hit = I.explorer().branch(s, tm.eq(key, tm.intLit(k)), isCounted);
    if (!hit) return StepOutcome::Ended;
    if (*hit) return I.jumpTo(s, target);
  }
  return I.jumpTo(s, in.sw.default_target);
}

StepOutcome compare(terms::TermManager& tm, State& s, Term (terms::TermManager::*fn)(Term, Term)) {
  Term b = pop(s);
  Term a = pop(s);
  return pushNext(s, (tm.*fn)(a, b));
}

}  // namespace

StepOutcome branches(Interpreter& I, State& s, const Instruction& in) {
  terms::TermManager& tm = I.tm();
  switch (in.op) {
    case Opcode::lcmp: return compare(tm, s, &terms::TermManager::cmp);
    case Opcode::fcmpl: case Opcode::dcmpl: return compare(tm, s, &terms::TermManager::cmpl);
    case Opcode::fcmpg: case Opcode::dcmpg: return compare(tm, s, &terms::TermManager::cmpg);
    case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
      return conditionalJump(I, s, in, conditionAgainstZero(tm, in.op, pop(s)));
    case Opcode::if_icmpeq: case Opcode::if_icmpne: case Opcode::if_icmplt: case Opcode::if_icmpge:
    case Opcode::if_icmpgt: case Opcode::if_icmple: {
      Term b = pop(s);
      Term a = pop(s);
      return conditionalJump(I, s, in, twoOperandCondition(tm, in.op, a, b));
    }
    case Opcode::if_acmpeq: case Opcode::if_acmpne: {
      Term b = pop(s);
      Term a = pop(s);
      Term same = referenceEquality(I, s, a, b);
      return conditionalJump(I, s, in, in.op == Opcode::if_acmpeq ? same : tm.lnot(same));
    }
    case Opcode::ifnull: return conditionalJump(I, s, in, tm.eq(pop(s), tm.nullRef()));
    case Opcode::ifnonnull: return conditionalJump(I, s, in, tm.ne(pop(s), tm.nullRef()));
    case Opcode::goto_: case Opcode::goto_w: return I.jumpTo(s, in.target);
    case Opcode::jsr: case Opcode::jsr_w:
      push(s, tm.intLit(static_cast<std::int32_t>(in.pc + in.length)));
      return I.jumpTo(s, in.target);
    case Opcode::ret: {
      const Frame& f = s.frames.back();
      auto ra = tm.asInteger(f.locals.at(static_cast<std::size_t>(in.local)));
      if (!ra) throw ExecError("ret through a non-address local in " + f.m->key());
      return I.jumpTo(s, static_cast<std::int32_t>(*ra));
    }
    case Opcode::tableswitch: case Opcode::lookupswitch: return switchJump(I, s, in);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
