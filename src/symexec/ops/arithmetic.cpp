// Opcode family: arithmetic, bit operations, iinc and conversions. The term layer carries the
// arithmetic model's semantics (docs/arithmetic-models.md); the interpreter adds the one
// check Java makes: integer division and remainder by zero throw ArithmeticException.
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

using BinaryFn = Term (terms::TermManager::*)(Term, Term);

StepOutcome binary(terms::TermManager& tm, State& s, BinaryFn fn) {
  Term b = pop(s);
  Term a = pop(s);
  return pushNext(s, (tm.*fn)(a, b));
}

StepOutcome unary(State& s, Term v) { return pushNext(s, v); }

// Integer division/remainder: ArithmeticException when the divisor is zero.
StepOutcome intDivRem(Interpreter& I, State& s, bool isDiv) {
  terms::TermManager& tm = I.tm();
  Term b = pop(s);
  Term a = pop(s);
  Term zero = tm.sort(b) == Sort::Long ? tm.longLit(0) : tm.intLit(0);
  auto isZero = I.explorer().branch(s, tm.eq(b, zero), false);
  if (!isZero) return StepOutcome::Ended;
  if (*isZero) return I.throwNew(s, "java/lang/ArithmeticException");
  return pushNext(s, isDiv ? tm.div(a, b) : tm.rem(a, b));
}

StepOutcome iinc(terms::TermManager& tm, State& s, const Instruction& in) {
  Frame& f = s.frames.back();
  std::size_t idx = static_cast<std::size_t>(in.local);
  if (idx >= f.locals.size() || !f.locals[idx]) throw ExecError("iinc of an undefined local in " + f.m->key());
  f.locals[idx] = tm.add(f.locals[idx], tm.intLit(in.imm));
  return next(s);
}

}  // namespace

StepOutcome arithmetic(Interpreter& I, State& s, const Instruction& in) {
  terms::TermManager& tm = I.tm();
  using TM = terms::TermManager;
  switch (in.op) {
    case Opcode::iadd: case Opcode::ladd: case Opcode::fadd: case Opcode::dadd: return binary(tm, s, &TM::add);
    case Opcode::isub: case Opcode::lsub: case Opcode::fsub: case Opcode::dsub: return binary(tm, s, &TM::sub);
    case Opcode::imul: case Opcode::lmul: case Opcode::fmul: case Opcode::dmul: return binary(tm, s, &TM::mul);
    case Opcode::idiv: case Opcode::ldiv: return intDivRem(I, s, true);
    case Opcode::irem: case Opcode::lrem: return intDivRem(I, s, false);
    case Opcode::fdiv: case Opcode::ddiv: return binary(tm, s, &TM::div);
    case Opcode::frem: case Opcode::drem: return binary(tm, s, &TM::rem);
    case Opcode::ineg: case Opcode::lneg: case Opcode::fneg: case Opcode::dneg: return unary(s, tm.neg(pop(s)));
    case Opcode::ishl: case Opcode::lshl: return binary(tm, s, &TM::shl);
    case Opcode::ishr: case Opcode::lshr: return binary(tm, s, &TM::shr);
    case Opcode::iushr: case Opcode::lushr: return binary(tm, s, &TM::ushr);
    case Opcode::iand: case Opcode::land: return binary(tm, s, &TM::bitAnd);
    case Opcode::ior: case Opcode::lor: return binary(tm, s, &TM::bitOr);
    case Opcode::ixor: case Opcode::lxor: return binary(tm, s, &TM::bitXor);
    case Opcode::iinc: return iinc(tm, s, in);
    case Opcode::i2l: case Opcode::f2l: case Opcode::d2l: return unary(s, tm.convert(pop(s), Sort::Long));
    case Opcode::i2f: case Opcode::l2f: case Opcode::d2f: return unary(s, tm.convert(pop(s), Sort::Float));
    case Opcode::i2d: case Opcode::l2d: case Opcode::f2d: return unary(s, tm.convert(pop(s), Sort::Double));
    case Opcode::l2i: case Opcode::f2i: case Opcode::d2i: return unary(s, tm.convert(pop(s), Sort::Int));
    case Opcode::i2b: return unary(s, tm.i2b(pop(s)));
    case Opcode::i2c: return unary(s, tm.i2c(pop(s)));
    case Opcode::i2s: return unary(s, tm.i2s(pop(s)));
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
