// Method invocation: the product's comparison points, abstracted helpers, methods of the
// analysed classes (executed inline with a call stack) and library calls.
#include "engine.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec {

using jvm::Opcode;

StepResult Executor::Impl::invoke(State& s, const jvm::Instruction& in) {
  const jvm::MemberRef& r = in.member;
  const Side side = s.frames.back().side;
  jvm::MethodDesc md = jvm::parseMethodDescriptor(r.descriptor);
  const bool hasRecv = in.op != Opcode::invokestatic && in.op != Opcode::invokedynamic;

  // Static initialisation happens before the arguments are consumed (the instruction is
  // re-executed after <clinit> returns).
  if (in.op == Opcode::invokestatic && program.find(side, r.owner) && !ensureInitialized(s, side, r.owner))
    return StepResult::Continue;

  Frame& f = s.frames.back();
  std::vector<Term> args(md.params.size() + (hasRecv ? 1 : 0));
  for (std::size_t i = args.size(); i-- > 0;) {
    if (f.stack.empty()) throw ExecError("operand stack underflow at a call in " + f.m->key());
    args[i] = f.stack.back();
    f.stack.pop_back();
    s.popped.push_back(args[i]);
  }
  auto finish = [&](std::optional<Term> result) {
    Frame& fr = s.frames.back();
    if (result) fr.stack.push_back(*result);
    fr.ip += 1;
    return StepResult::Continue;
  };

  if (in.op == Opcode::invokedynamic) {
    // String concatenation and lambdas: an opaque object of the call site's return type.
    note(s, "invokedynamic " + r.name + r.descriptor + " yields an opaque value");
    return finish(md.ret.kind == 'V' ? std::nullopt : std::optional<Term>(opaqueCall(s, r, args)));
  }

  // The product class's comparison points end the partition.
  if (!opt.product_class.empty() && r.owner == opt.product_class && side == kProduct) {
    if (r.name == "sameErrors") {
      auto cls = [&](Term ref) { return tm.node(ref).bits == 0 ? std::string() : deref(s, ref).cls; };
      s.exc[kOld] = cls(args[0]);
      s.exc[kNew] = cls(args[1]);
      if (s.exc[kOld] == s.exc[kNew]) return finish(tm.intLit(1));
      RawPartition p;
      p.product_compare = true;
      p.error_mismatch = true;
      for (int v : {kOld, kNew}) {
        ExecEffect& e = v == kOld ? p.old_effect : p.new_effect;
        if (s.exc[v].empty()) {
          e.kind = ExecEffect::Kind::Return;
        } else {
          e.kind = ExecEffect::Kind::Throw;
          e.exception = s.exc[v];
        }
      }
      endPath(s, std::move(p));
      return StepResult::Ended;
    }
    if (r.name == "sameResults") {
      RawPartition p;
      p.product_compare = true;
      for (int v : {kOld, kNew}) {
        ExecEffect& e = v == kOld ? p.old_effect : p.new_effect;
        if (!s.exc[v].empty()) {
          e.kind = ExecEffect::Kind::Throw;
          e.exception = s.exc[v];
        } else if (args.empty()) {
          e.kind = ExecEffect::Kind::Void;
        } else {
          e.kind = ExecEffect::Kind::Return;
          e.value = args[v == kOld ? 0 : 1];
        }
      }
      // The final state: receivers and reference parameters (paired old/new in the run
      // frame), reference results, and the analysed classes' static fields.
      std::vector<std::pair<Term, Term>> roots;
      const Frame& pf = s.frames.front();
      std::size_t slot = 0;
      std::vector<Term> refs;
      for (const jvm::TypeDesc& t : pf.m->desc.params) {
        if (t.kind == 'L' || t.kind == '[') refs.push_back(pf.locals[slot]);
        slot += static_cast<std::size_t>(t.slots());
      }
      for (std::size_t i = 0; i + 1 < refs.size(); i += 2) roots.emplace_back(refs[i], refs[i + 1]);
      bool refResult = args.size() == 2 && tm.sort(args[0]) == Sort::Ref;
      if (refResult && s.exc[kOld].empty() && s.exc[kNew].empty()) {
        roots.emplace_back(args[0], args[1]);
        p.old_effect.value = Term{};
        p.new_effect.value = Term{};
      }
      if (!compareState(s, roots, p.old_effect.state, p.new_effect.state)) return StepResult::Ended;
      endPath(s, std::move(p));
      return StepResult::Ended;
    }
  }

  // Helpers identical in both versions may be abstracted into one shared function symbol.
  if (!opt.abstracted_methods.empty() &&
      opt.abstracted_methods.count(r.owner + "." + r.name + ":" + r.descriptor)) {
    std::vector<Term> fargs;
    for (Term a : args)
      if (tm.sort(a) != Sort::Ref) fargs.push_back(a);
    if (md.ret.kind == 'V') return finish(std::nullopt);
    return finish(tm.apply("helper_" + r.name, terms::FunKind::Helper, sortOf(md.ret), fargs));
  }

  if (hasRecv) {
    auto isNull = branch(s, tm.eq(args[0], tm.nullRef()), false);
    if (!isNull) return StepResult::Ended;
    if (*isNull) return throwNew(s, "java/lang/NullPointerException");
  }

  const MethodInfo* target = nullptr;
  if (in.op == Opcode::invokevirtual || in.op == Opcode::invokeinterface) {
    const Object& recv = deref(s, args[0]);
    if (!recv.is_array) target = program.resolveMethod(side, recv.cls, r.name, r.descriptor);
  } else {
    target = program.resolveMethod(side, r.owner, r.name, r.descriptor);
  }

  if (target && target->method->code) {
    if (s.frames.size() >= opt.max_call_depth) {  // recursion that takes no decisions (e.g. a cyclic heap)
      note(s, "call stack deeper than " + std::to_string(opt.max_call_depth) + " frames (path cut)");
      RawPartition p;
      p.depth_limited = true;
      p.call_depth_limited = true;
      endPath(s, std::move(p));
      return StepResult::Ended;
    }
    Frame nf;
    nf.m = target;
    nf.side = target->owner->side;
    for (const Frame& fr : s.frames) nf.recursive = nf.recursive || fr.m == target;
    nf.locals.assign(std::max<std::size_t>(target->max_locals, args.size() * 2), Term{});
    std::size_t slot = 0;
    for (Term a : args) {
      nf.locals[slot] = a;
      slot += (tm.sort(a) == Sort::Long || tm.sort(a) == Sort::Double) ? 2 : 1;
    }
    s.frames.push_back(std::move(nf));
    return StepResult::Continue;
  }

  std::optional<Term> result;
  if (!invokeLibrary(s, r, args, result)) {
    if (md.ret.kind != 'V') result = opaqueCall(s, r, args);
  }
  return finish(result);
}

}  // namespace pasda::symexec
