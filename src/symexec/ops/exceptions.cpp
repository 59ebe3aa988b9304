// Opcode family: athrow (null throws NullPointerException; unwinding is
// Interpreter::throwRef) and monitors (no threads: only the null check remains).
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

StepOutcome exceptions(Interpreter& I, State& s, const Instruction& in) {
  switch (in.op) {
    case Opcode::athrow: {
      I.explorer().keepInstructionStart(s);  // unwinding may decide whether a handler takes it
      Term ref = pop(s);
      if (Guard g = I.requireNonNull(s, ref)) return *g;
      return I.throwRef(s, ref);
    }
    case Opcode::monitorenter: case Opcode::monitorexit: {
      Term ref = pop(s);
      if (Guard g = I.requireNonNull(s, ref)) return *g;
      return next(s);
    }
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
