// Internal to symexec: the instruction handlers, one per opcode family (one file each in
// this folder), and the operand-stack helpers they share. A handler executes one instruction
// of the top frame and returns its StepOutcome; see docs/interpreter.md for the contract.
#pragma once

#include "../interpreter.hpp"

namespace pasda::symexec::ops {

using jvm::Instruction;

// constants, loads and stores of locals, stack shuffles (stack.cpp)
StepOutcome stack(Interpreter& I, State& s, const Instruction& in);
// arithmetic, bit operations and conversions (arithmetic.cpp)
StepOutcome arithmetic(Interpreter& I, State& s, const Instruction& in);
// lcmp/fcmp/dcmp, conditional jumps, goto, jsr/ret, switches (branches.cpp)
StepOutcome branches(Interpreter& I, State& s, const Instruction& in);
// getstatic/putstatic/getfield/putfield (fields.cpp)
StepOutcome fields(Interpreter& I, State& s, const Instruction& in);
// array creation, loads, stores and length (arrays.cpp)
StepOutcome arrays(Interpreter& I, State& s, const Instruction& in);
// new, checkcast, instanceof (objects.cpp)
StepOutcome objects(Interpreter& I, State& s, const Instruction& in);
// invokevirtual/special/static/interface/dynamic (invoke.cpp)
StepOutcome invoke(Interpreter& I, State& s, const Instruction& in);
// athrow, monitorenter/monitorexit (exceptions.cpp)
StepOutcome exceptions(Interpreter& I, State& s, const Instruction& in);
// ireturn ... return (returns.cpp)
StepOutcome returns(Interpreter& I, State& s, const Instruction& in);

/// The error for an opcode the dispatcher sent to the wrong family (a bug in this engine).
inline ExecError misrouted(const State& s, const Instruction& in) {
  return ExecError("internal error: " + std::string(jvm::mnemonic(in.op)) + " dispatched to the wrong handler in " +
                   s.frames.back().m->key());
}

// --- operand stack of the top frame -----------------------------------------------------

inline void push(State& s, Term t) { s.frames.back().stack.push_back(t); }

/// Pop an operand; it is remembered so that a copy forked later in this instruction can
/// restore it (Explorer::branch).
inline Term pop(State& s) {
  Frame& f = s.frames.back();
  if (f.stack.empty()) throw ExecError("operand stack underflow in " + f.m->key());
  Term t = f.stack.back();
  f.stack.pop_back();
  s.popped.push_back(t);
  return t;
}

/// Advance to the next instruction.
inline StepOutcome next(State& s) {
  s.frames.back().ip += 1;
  return StepOutcome::Continue;
}

inline StepOutcome pushNext(State& s, Term t) {
  push(s, t);
  return next(s);
}

inline bool isCat2(terms::TermManager& tm, Term t) {
  Sort so = tm.sort(t);
  return so == Sort::Long || so == Sort::Double;
}


}  // namespace pasda::symexec::ops
