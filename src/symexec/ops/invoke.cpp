// Opcode family: invocations. The product's comparison points (end the partition), abstracted
// helpers (shared function symbols), methods of the program (inline frames, virtual dispatch
// on the receiver's class), and library calls (LibraryRegistry models; invokedynamic too).
#include "ops.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

/// Pop `n` arguments of a call; returned in order (receiver first).
std::vector<Term> popArguments(State& s, std::size_t n) {
  std::vector<Term> args(n);
  for (std::size_t i = n; i-- > 0;) args[i] = pop(s);
  return args;
}

StepOutcome finish(State& s, std::optional<Term> result) {
  if (result) push(s, *result);
  return next(s);
}

/// Product.sameErrors(old, new): equal exception classes continue; different ones end the
/// partition with an error mismatch.
StepOutcome sameErrors(Interpreter& I, State& s, const std::vector<Term>& args) {
  auto cls = [&](Term ref) { return I.tm().node(ref).bits == 0 ? std::string() : I.deref(s, ref).cls; };
  s.exc[kOld] = cls(args[0]);
  s.exc[kNew] = cls(args[1]);
  if (s.exc[kOld] == s.exc[kNew]) return finish(s, I.tm().intLit(1));
  RawPartition p;
  p.product_compare = true;
  p.error_mismatch = true;
  for (Side v : {kOld, kNew}) {
    ExecEffect& e = v == kOld ? p.old_effect : p.new_effect;
    if (s.exc[v].empty()) {
      e.kind = ExecEffect::Kind::Return;
    } else {
      e.kind = ExecEffect::Kind::Throw;
      e.exception = s.exc[v];
    }
  }
  I.explorer().endPath(s, std::move(p));
  return StepOutcome::Ended;
}

/// Product.sameResults(old, new) (or sameResults() for void methods): the partition ends with
/// both versions' effects and final states.
StepOutcome sameResults(Interpreter& I, State& s, const std::vector<Term>& args) {
  terms::TermManager& tm = I.tm();
  RawPartition p;
  p.product_compare = true;
  for (Side v : {kOld, kNew}) {
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
  if (!I.inputs().compareState(s, roots, p.old_effect.state, p.new_effect.state)) return StepOutcome::Ended;
  // The recursion rule: every argument list one version's code called the method with, the
  // other's called it with too (then their trees of calls are the same, and both versions
  // terminate together; values are the shared function's). Order and repetition may differ.
  if (!s.recursive_calls[kOld].empty() || !s.recursive_calls[kNew].empty()) {
    auto sameArgs = [&](const std::vector<Term>& a, const std::vector<Term>& b) {
      Term t = tm.boolLit(a.size() == b.size());
      for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) t = tm.land(t, tm.same(a[i], b[i]));
      return t;
    };
    Term covered = tm.boolLit(true);
    for (Side v : {kOld, kNew})
      for (const std::vector<Term>& call : s.recursive_calls[v]) {
        Term some = tm.boolLit(false);
        for (const std::vector<Term>& other : s.recursive_calls[v == kOld ? kNew : kOld]) some = tm.lor(some, sameArgs(call, other));
        covered = tm.land(covered, some);
      }
    const std::string name = "recursive calls (the same arguments in both versions)";
    p.old_effect.state.emplace_back(name, covered);
    p.new_effect.state.emplace_back(name, tm.boolLit(true));
  }
  I.explorer().endPath(s, std::move(p));
  return StepOutcome::Ended;
}

/// A helper identical in both versions: one shared function symbol of its primitive arguments.
StepOutcome abstractedHelper(Interpreter& I, State& s, const std::string& symbol, const jvm::MethodDesc& md,
                             const std::vector<Term>& args) {
  std::vector<Term> fargs;
  for (Term a : args)
    if (I.tm().sort(a) != Sort::Ref) fargs.push_back(a);
  if (md.ret.kind == 'V') return finish(s, std::nullopt);
  return finish(s, I.tm().apply(symbol, terms::FunKind::Helper, sortOf(md.ret), fargs));
}

/// Push a frame for a method of the program (its code runs inline).
StepOutcome enterMethod(Interpreter& I, State& s, const MethodInfo& target, const std::vector<Term>& args) {
  const std::size_t maxDepth = I.options().max_call_depth;
  if (s.frames.size() >= maxDepth) {  // recursion that takes no decisions (e.g. a cyclic heap)
    I.explorer().note(s, "call stack deeper than " + std::to_string(maxDepth) + " frames (path cut)");
    I.explorer().cutPath(s, Explorer::Cut::CallDepth);
    return StepOutcome::Ended;
  }
  Frame nf;
  nf.m = &target;
  nf.side = target.owner->side;
  for (const Frame& fr : s.frames) nf.recursive = nf.recursive || fr.m == &target;
  nf.locals.assign(std::max<std::size_t>(target.max_locals, args.size() * 2), Term{});
  std::size_t slot = 0;
  for (Term a : args) {
    nf.locals[slot] = a;
    slot += isCat2(I.tm(), a) ? 2 : 1;
  }
  s.frames.push_back(std::move(nf));
  return StepOutcome::Continue;
}

/// A call of a lambda's functional method on a lambda whose implementation is a static method
/// of the program (Object::lambda_impl) in a class already initialised: that method, entered
/// with what the lambda captured, then the call's arguments. Null where the two methods' types
/// need an adaptation (a cast, boxing) not made here: such a call stays an unmodelled one.
const MethodInfo* lambdaBody(Interpreter& I, const State& s, Side side, const Object& recv, const jvm::MemberRef& r,
                             const jvm::MethodDesc& md) {
  if (recv.lambda_impl.empty() || recv.lambda_call != r.name + r.descriptor) return nullptr;
  const std::size_t colon = recv.lambda_impl.find(':'), dot = recv.lambda_impl.rfind('.', colon);
  if (colon == std::string::npos || dot == std::string::npos) return nullptr;
  const std::string owner = recv.lambda_impl.substr(0, dot);
  const MethodInfo* m = I.program().resolveMethod(side, owner, recv.lambda_impl.substr(dot + 1, colon - dot - 1),
                                                  recv.lambda_impl.substr(colon + 1));
  if (!m || !m->method->code || !m->method->isStatic() || m->owner->name != owner) return nullptr;
  const std::string cls = std::to_string(m->owner->side.index()) + "#" + owner;
  if (!s.initialized.count(cls) || s.init_failed.count(cls)) return nullptr;
  jvm::MethodDesc impl;
  try {
    impl = jvm::parseMethodDescriptor(m->descriptor);
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
  const std::size_t captured = recv.lambda_args.size();
  if (impl.params.size() != captured + md.params.size()) return nullptr;
  auto ref = [](const jvm::TypeDesc& t) { return t.kind == 'L' || t.kind == '['; };
  for (std::size_t k = 0; k < captured; ++k)
    if (ref(impl.params[k]) != (I.tm().sort(recv.lambda_args[k]) == terms::Sort::Ref)) return nullptr;
  for (std::size_t k = 0; k < md.params.size(); ++k) {
    const jvm::TypeDesc& want = impl.params[captured + k];
    const jvm::TypeDesc& given = md.params[k];
    if (ref(want) != ref(given)) return nullptr;
    if (ref(want) ? want.text != given.text && want.text != "Ljava/lang/Object;" : want.kind != given.kind) return nullptr;
  }
  // (a wider result is no adaptation: a reference returned as Object, say)
  if (ref(impl.ret) != ref(md.ret) || (!ref(md.ret) && impl.ret.kind != md.ret.kind)) return nullptr;
  return m;
}

/// A call into the library: the registry's model (the unknown-call model if none matches).
StepOutcome callLibrary(Interpreter& I, State& s, const Instruction& in, const jvm::MethodDesc& md,
                        const std::vector<Term>& args, bool hasReceiver, const std::string& dynamicClass) {
  const std::string& owner = in.op == Opcode::invokedynamic ? LibraryRegistry::kInvokeDynamic : in.member.owner;
  const Model& model = I.library().find(owner, in.member.name, in.member.descriptor, dynamicClass);
  ModelCall call(I, s, in.member, md, args, hasReceiver);
  call.setDispatches(in.op == Opcode::invokevirtual || in.op == Opcode::invokeinterface);
  // An array past the bound has no elements to give a model: only the unknown-call model (and
  // Array's getLength, get and set, which know such arrays) answers a call given one.
  const bool longArray = std::any_of(args.begin(), args.end(), [&](Term a) {
    return I.tm().sort(a) == terms::Sort::Ref && I.tm().node(a).bits != 0 && I.deref(s, a).long_length;
  });
  const bool knowsLongArrays = owner == "java/lang/reflect/Array" &&
                               (in.member.name == "getLength" || in.member.name == "get" || in.member.name == "set");
  ModelResult r = longArray && !knowsLongArrays ? ModelResult::declined() : model(call);
  if (r.kind() == ModelResult::Kind::Declined) r = I.library().fallback()(call);
  switch (r.kind()) {
    case ModelResult::Kind::Value: return finish(s, r.result());
    case ModelResult::Kind::Stopped: return r.outcome();
    case ModelResult::Kind::Void:
    case ModelResult::Kind::Declined: break;  // (the fallback never declines)
  }
  return finish(s, std::nullopt);
}

}  // namespace

StepOutcome invoke(Interpreter& I, State& s, const Instruction& in) {
  const jvm::MemberRef& r = in.member;
  const Side side = s.frames.back().side;
  const ExecOptions& opt = I.options();
  jvm::MethodDesc md = jvm::parseMethodDescriptor(r.descriptor);
  const bool hasRecv = in.op != Opcode::invokestatic && in.op != Opcode::invokedynamic;
  // Models and the product's comparison may have effects between their decisions.
  I.explorer().keepInstructionStart(s);

  // Static initialisation happens before the arguments are consumed (the instruction is
  // re-executed after <clinit> returns).
  if (in.op == Opcode::invokestatic && I.program().find(side, r.owner) && !I.ensureInitialized(s, side, r.owner))
    return StepOutcome::Continue;
  std::vector<Term> args = popArguments(s, md.params.size() + (hasRecv ? 1 : 0));
  if (in.op == Opcode::invokedynamic) return callLibrary(I, s, in, md, args, false, "");

  if (!opt.product_class.empty() && r.owner == opt.product_class && side == kProduct) {
    if (r.name == "sameErrors") return sameErrors(I, s, args);
    if (r.name == "sameResults") return sameResults(I, s, args);
  }
  if (!opt.abstracted_methods.empty()) {
    auto helper = opt.abstracted_methods.find(r.owner + "." + r.name + ":" + r.descriptor);
    if (helper != opt.abstracted_methods.end()) return abstractedHelper(I, s, helper->second, md, args);
  }
  if (!opt.shared_recursion.empty() && !side.isProduct()) {
    auto rec = opt.shared_recursion.find(r.owner + "." + r.name + ":" + r.descriptor);
    if (rec != opt.shared_recursion.end()) {
      s.recursive_calls[side].push_back(args);
      return abstractedHelper(I, s, rec->second, md, args);
    }
  }
  if (hasRecv) {
    if (Guard g = I.requireNonNull(s, args[0])) return *g;
  }

  const MethodInfo* target = nullptr;
  std::string dynamicClass;
  if (in.op == Opcode::invokevirtual || in.op == Opcode::invokeinterface) {
    const Object& recv = I.deref(s, args[0]);
    if (const MethodInfo* body = lambdaBody(I, s, side, recv, r, md)) {  // (a lambda's own code runs)
      std::vector<Term> inner = recv.lambda_args;
      inner.insert(inner.end(), args.begin() + 1, args.end());
      return enterMethod(I, s, *body, inner);
    }
    dynamicClass = recv.cls;
    if (!recv.is_array) target = I.program().resolveMethod(side, recv.cls, r.name, r.descriptor);
  } else {
    target = I.program().resolveMethod(side, r.owner, r.name, r.descriptor);
  }
  if (target && s.init_failed.count(std::to_string(target->owner->side.index()) + "#" + target->owner->name))
    // A class whose initialiser threw: the first use (the product's call of a version) sees
    // ExceptionInInitializerError, later ones NoClassDefFoundError.
    return I.throwNew(s, side == kProduct ? "java/lang/ExceptionInInitializerError" : "java/lang/NoClassDefFoundError");
  if (target && target->method->code && (in.op == Opcode::invokevirtual || in.op == Opcode::invokeinterface) &&
      opt.overridden && !side.isProduct()) {
    // An input object (or one an unmodelled call made) is of its declared class or of any
    // subclass: where a subclass of the path overrides the method, the path forks on whether
    // the object is exactly of the class (its code runs) or not (the call is one the engine
    // cannot follow: the versions share it only when every override is the same code).
    // Not the product's calls of the analysed method: what is analysed is that method's code,
    // on a receiver of its class or of any subclass (an override is another method, analysed
    // on its own), as the JVM replay runs it on an object of the class itself.
    const Object& recv = I.deref(s, args[0]);
    const bool finalMethod = (target->method->access_flags & (jvm::acc::Final | jvm::acc::Private)) != 0;
    if ((recv.input >= 0 || recv.opaque) && !finalMethod && opt.overridden(side, recv.cls, r.name, r.descriptor)) {
      Term cond = I.tm().apply("exact:" + I.inputs().originalName(recv.cls), terms::FunKind::Library,
                               terms::Sort::Bool, {I.inputs().identity(s, I.tm().node(args[0]).bits, side)});
      auto exact = I.explorer().branch(s, cond, false);
      if (!exact) return StepOutcome::Ended;
      if (!*exact) return callLibrary(I, s, in, md, args, hasRecv, "");
    }
  }
  if (target && target->method->code) return enterMethod(I, s, *target, args);
  return callLibrary(I, s, in, md, args, hasRecv, dynamicClass);
}

}  // namespace pasda::symexec::ops
