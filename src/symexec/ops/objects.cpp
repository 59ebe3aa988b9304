// Opcode family: object creation (new, after the class's static initialisation) and type
// tests (checkcast, instanceof) on the dynamic class of heap objects.
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

StepOutcome newObject(Interpreter& I, State& s, const Instruction& in) {
  const Side side = s.frames.back().side;
  if (I.program().find(side, in.type) && !I.ensureInitialized(s, side, in.type)) return StepOutcome::Continue;
  Object o;
  o.cls = in.type;
  return pushNext(s, I.allocate(s, std::move(o)));
}

/// checkcast and instanceof: null passes checkcast and is no instance of anything.
StepOutcome typeTest(Interpreter& I, State& s, const Instruction& in) {
  Term ref = pop(s);
  const bool isNull = I.tm().node(ref).bits == 0;
  bool ok = false;
  if (!isNull) {
    const Object& o = I.deref(s, ref);
    if (in.type[0] == '[') ok = o.cls == in.type || in.type == "[Ljava/lang/Object;";
    else ok = !o.is_array ? I.program().isSubclass(s.frames.back().side, o.cls, in.type) : in.type == "java/lang/Object";
  }
  if (in.op == Opcode::instanceof) return pushNext(s, I.tm().intLit(!isNull && ok ? 1 : 0));
  if (!isNull && !ok) return I.throwNew(s, "java/lang/ClassCastException");
  return pushNext(s, ref);
}

}  // namespace

StepOutcome objects(Interpreter& I, State& s, const Instruction& in) {
  switch (in.op) {
    case Opcode::new_: return newObject(I, s, in);
    case Opcode::checkcast: case Opcode::instanceof: return typeTest(I, s, in);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
