// Opcode family: static fields (per side in the path state, after class initialisation;
// library statics are opaque) and instance fields (input objects' fields materialised on
// first read).
#include "ops.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

/// A static field of a class the program does not have (System.out, Integer.MAX_VALUE...).
StepOutcome libraryStatic(Interpreter& I, State& s, const Instruction& in) {
  const jvm::MemberRef& r = in.member;
  if (in.op == Opcode::putstatic) {
    pop(s);
    I.explorer().note(s, "write to library static field " + r.owner + "." + r.name + " ignored");
    return next(s);
  }
  jvm::TypeDesc td = jvm::parseFieldDescriptor(r.descriptor);
  // int.class and the like: the box classes' TYPE fields hold the primitive Class objects.
  if (r.name == "TYPE" && r.descriptor == "Ljava/lang/Class;")
    if (char prim = primitiveOfBoxClass(r.owner)) return pushNext(s, I.classObject(s, std::string("prim:") + prim));
  if (td.kind == 'L' || td.kind == '[') {
    // An object of the library (System.out, ...): the same field is the same object content.
    Object o;
    o.cls = td.kind == 'L' ? td.className() : td.text;
    o.is_array = td.kind == '[';
    o.opaque = true;
    o.ident = I.tm().apply("static:" + r.owner + "." + r.name, terms::FunKind::Library, Sort::Int, {});
    return pushNext(s, I.allocate(s, std::move(o)));
  }
  I.explorer().note(s, "library static field " + r.owner + "." + r.name + " is an uninterpreted constant");
  return pushNext(s, I.tm().apply(r.owner + "." + r.name, terms::FunKind::Library, sortOf(td), {}));
}

/// The key of a static field in State::statics: "side#declaring class.name" (the field may
/// be inherited from a superclass).
std::string staticKey(const Program& program, const LoadedClass* c, const std::string& name) {
  std::string owner = c->name;
  Side side = c->side;
  for (const LoadedClass* k = c; k;) {
    bool has = false;
    for (const jvm::Field& fld : k->cf.fields) has = has || (fld.name == name && fld.isStatic());
    if (has) {
      owner = k->name;
      side = k->side;
      break;
    }
    k = k->super_name.empty() ? nullptr : program.find(k->side, k->super_name);
  }
  return std::to_string(side.index()) + "#" + owner + "." + name;
}

StepOutcome staticField(Interpreter& I, State& s, const Instruction& in) {
  const jvm::MemberRef& r = in.member;
  const Side side = s.frames.back().side;
  const LoadedClass* c = I.program().find(side, r.owner);
  if (!c) return libraryStatic(I, s, in);
  if (!I.ensureInitialized(s, side, r.owner)) return StepOutcome::Continue;
  std::string key = staticKey(I.program(), c, r.name);
  if (in.op == Opcode::getstatic) {
    auto it = s.statics.find(key);
    if (it != s.statics.end()) return pushNext(s, it->second);
    if (!s.lazy_statics.count(key)) throw ExecError("unknown static field " + r.owner + "." + r.name);
    // A non-final static of a program class: its entry value is an input (docs/heap.md).
    std::optional<Term> v = I.inputs().readStatic(s, side, key, r.descriptor);
    if (!v) return StepOutcome::Ended;
    return pushNext(s, *v);
  }
  s.lazy_statics.erase(key);
  s.statics[key] = pop(s);
  bool inInit = false;
  for (const Frame& f : s.frames) inInit = inInit || f.init_trigger >= 0;
  if (!inInit) s.written_statics.insert(key);
  return next(s);
}

StepOutcome instanceField(Interpreter& I, State& s, const Instruction& in) {
  // (a field produced by an unmodelled call decides its nullness after the null check; the
  // copies that decision forks re-execute the instruction from here)
  if (in.op == Opcode::getfield) I.explorer().keepInstructionStart(s);
  Term v;
  if (in.op == Opcode::putfield) v = pop(s);
  Term ref = pop(s);
  if (Guard g = I.requireNonNull(s, ref)) return *g;
  if (in.op == Opcode::putfield) {
    Object& o = I.deref(s, ref);
    o.fields[in.member.name] = v;
    o.dirty = true;
    o.ident = Term{};
    return next(s);
  }
  std::optional<Term> value = I.readField(s, ref, in.member.name, in.member.descriptor);
  if (!value) return StepOutcome::Ended;
  return pushNext(s, *value);
}

}  // namespace

StepOutcome fields(Interpreter& I, State& s, const Instruction& in) {
  switch (in.op) {
    case Opcode::getstatic: case Opcode::putstatic: return staticField(I, s, in);
    case Opcode::getfield: case Opcode::putfield: return instanceField(I, s, in);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
