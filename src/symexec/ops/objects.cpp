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

/// checkcast and instanceof: null passes checkcast and is no instance of anything. Where the
/// answer depends on what the engine does not know (an object from an unmodelled call, a
/// library class's supertypes), it is an uninterpreted condition, and an object found to be
/// an instance takes the tested type.
StepOutcome typeTest(Interpreter& I, State& s, const Instruction& in) {
  I.explorer().keepInstructionStart(s);
  Term ref = pop(s);
  const bool isNull = I.tm().node(ref).bits == 0;
  bool ok = false;
  if (!isNull) {
    const Object& o = I.deref(s, ref);
    std::optional<bool> known = I.program().assignable(s.frames.back().side, o.cls, in.type);
    // An object from an unmodelled call, or an input (a parameter, a field of one, a static
    // input), is of its declared class or of any subclass: "not an instance" is not known.
    // (Input arrays keep their declared type.)
    if ((o.opaque || (o.input >= 0 && !o.is_array)) && known && !*known) known.reset();
    if (known) {
      ok = *known;
    } else {
      // (the analysed class has one name in both versions: an input is an instance of it in
      // the old version exactly when it is in the new one)
      Term cond = I.tm().apply("instanceof:" + I.inputs().originalName(in.type), terms::FunKind::Library, Sort::Bool,
                               {I.inputs().identity(s, I.tm().node(ref).bits, s.frames.back().side)});
      auto is = I.explorer().branch(s, cond, false);
      if (!is) return StepOutcome::Ended;
      ok = *is;
      if (ok && !I.deref(s, ref).is_array && in.type[0] != '[') {
        Object& obj = I.deref(s, ref);
        if (I.program().find(s.frames.back().side, in.type) || !I.program().find(s.frames.back().side, obj.cls))
          obj.cls = in.type;  // refined (a library object's class never becomes less precise)
      }
    }
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
