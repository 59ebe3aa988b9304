// Opcode family: returns. Values of byte/short/char/boolean methods are narrowed as the JVM
// does on return; Interpreter::returnFrom pops the frame (and ends the path past the entry).
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

StepOutcome returns(Interpreter& I, State& s, const Instruction& in) {
  switch (in.op) {
    case Opcode::ireturn: case Opcode::lreturn: case Opcode::freturn: case Opcode::dreturn: case Opcode::areturn: {
      Term v = pop(s);
      return I.returnFrom(s, narrowTo(I.tm(), s.frames.back().m->desc.ret.kind, v));
    }
    case Opcode::return_: return I.returnFrom(s, std::nullopt);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
