// The interpreter's step: pending input materialisation, abstracted regions, line coverage and
// the dispatch of each opcode to its family's handler (src/symexec/ops/); and the services the
// handlers share: exceptions and unwinding, returns, class initialisation, field reads.
#include "interpreter.hpp"

#include "ops/ops.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec {

using jvm::Opcode;

State Interpreter::initialState(const MethodInfo& entry, const std::vector<Term>& args,
                                   const std::vector<Term>& assumptions) {
  State s;
  Frame f;
  f.m = &entry;
  f.side = entry.owner->side;
  f.locals.assign(std::max<std::size_t>(entry.max_locals, args.size() * 2 + 1), Term{});
  std::size_t slot = 0;
  for (Term a : args) {
    f.locals[slot] = a;
    slot += (tm_.sort(a) == Sort::Long || tm_.sort(a) == Sort::Double) ? 2 : 1;
  }
  s.frames.push_back(std::move(f));
  addPendingInputs(s, entry, args);
  // Product runs start from the analysed classes' state after <clinit>, in both versions.
  if (entry.owner->side == kProduct)
    for (Side side : {kNew, kOld})
      if (!opt_.main_class[side].empty()) ensureInitialized(s, side, opt_.main_class[side], 0);
  for (Term a : assumptions) {
    if (auto b = tm_.asBool(a); b && *b) continue;
    s.pc.push_back(a);
  }
  return s;
}

State Interpreter::stateAt(const MethodInfo& m, std::uint32_t pc, const std::vector<Term>& locals,
                           const std::vector<Term>& assumptions) {
  State s;
  Frame f;
  f.m = &m;
  f.side = m.owner->side;
  f.ip = pc < m.index_of_pc.size() ? m.index_of_pc[pc] : -1;
  if (f.ip < 0) throw ExecError("no instruction at pc " + std::to_string(pc) + " in " + m.key());
  f.locals.assign(std::max<std::size_t>(m.max_locals, locals.size()), Term{});
  std::copy(locals.begin(), locals.end(), f.locals.begin());
  s.frames.push_back(std::move(f));
  for (Term a : assumptions) {
    if (auto b = tm_.asBool(a); b && *b) continue;
    s.pc.push_back(a);
  }
  return s;
}

std::optional<StepOutcome> Interpreter::stopHere(State& s) {
  if (!s.started || s.frames.size() != 1) return std::nullopt;
  const Frame& f = s.frames.back();
  const std::uint32_t pc = f.m->insns[static_cast<std::size_t>(f.ip)].pc;
  if (std::find(opt_.stop_at_pcs.begin(), opt_.stop_at_pcs.end(), pc) == opt_.stop_at_pcs.end()) return std::nullopt;
  RawPartition p;
  p.stopped_at = pc;
  p.stopped_locals = f.locals;
  explorer_.endPath(s, std::move(p));
  return StepOutcome::Ended;
}

void Interpreter::addPendingInputs(State& s, const MethodInfo& entry, const std::vector<Term>& args) {
  // Reference arguments given as variables are inputs of the heap, materialised before the
  // first instruction. The same variable twice (product runs) is one input seen by two sides.
  std::vector<jvm::TypeDesc> types;
  if (!entry.is_static && entry.name != "<init>") {
    jvm::TypeDesc self;
    self.kind = 'L';
    self.text = "L" + entry.owner->name + ";";
    types.push_back(self);
  }
  for (const auto& t : entry.desc.params) types.push_back(t);
  std::size_t argSlot = 0, i = 0;
  std::map<std::string, std::size_t> byName;
  for (Term a : args) {
    if (tm_.op(a) == terms::Op::Var && tm_.sort(a) == Sort::Ref) {
      const std::string& name = tm_.node(a).name;
      std::string cls = i < types.size() ? (types[i].kind == 'L' ? types[i].className() : types[i].text)
                                         : "java/lang/Object";
      Side side = entry.owner->side == kProduct ? kOld : entry.owner->side;
      auto it = byName.find(name);
      if (it == byName.end()) {
        PendingInput pin;
        pin.name = name;
        pin.cls = inputs_.originalName(cls);
        pin.non_null = name == "this";
        byName[name] = s.pending.size();
        s.pending.push_back(pin);
      } else if (entry.owner->side == kProduct) {
        side = kNew;
      }
      s.pending[byName[name]].slots.emplace_back(static_cast<int>(argSlot), side);
    }
    argSlot += (tm_.sort(a) == Sort::Long || tm_.sort(a) == Sort::Double) ? 2 : 1;
    ++i;
  }
}

StepOutcome Interpreter::step(State& s) {
  s.popped.clear();
  s.decisions.clear();
  if (!s.pending.empty() || !s.pending_lengths.empty()) return inputs_.materializePending(s);
  if (!region_at_.empty() && enterRegion(s)) return StepOutcome::Continue;
  if (!opt_.stop_at_pcs.empty())
    if (std::optional<StepOutcome> o = stopHere(s)) return *o;
  if (!opt_.coupled_loops.empty() && s.frames.size() == 2 && s.frames.back().side != kProduct)
    if (std::optional<StepOutcome> o = enterCoupledLoop(s)) return *o;
  if (opt_.loop_summaries && s.frames.back().side != kProduct)
    if (std::optional<StepOutcome> o = enterLoopSummary(s)) return *o;
  Frame& f = s.frames.back();
  if (f.ip < 0 || static_cast<std::size_t>(f.ip) >= f.m->insns.size())
    throw ExecError("execution fell off the end of " + f.m->key());
  const jvm::Instruction& in = f.m->insns[static_cast<std::size_t>(f.ip)];
  if (int line = f.m->line[static_cast<std::size_t>(f.ip)]; line && (line != s.last_line || f.side != s.last_line_side)) {
    s.lines[f.side].insert(line);
    s.last_line = line;
    s.last_line_side = f.side;
  }
  if (opt_.before_step && f.side != kProduct) opt_.before_step({f.side, f.m, &in, &f.stack, &f.locals, s.steps});
  const StepOutcome r = execute(s, in);
  s.started = true;
  return r;
}

// The compiler checks that every opcode is dispatched: a new Opcode value without a case
// here is a compile error, not a run-time "unsupported instruction".
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
StepOutcome Interpreter::execute(State& s, const jvm::Instruction& in) {
  // (A long function without logic: one case label per opcode.)
  switch (in.op) {
    case Opcode::nop: case Opcode::aconst_null: case Opcode::iconst_m1: case Opcode::iconst_0:
    case Opcode::iconst_1: case Opcode::iconst_2: case Opcode::iconst_3: case Opcode::iconst_4:
    case Opcode::iconst_5: case Opcode::lconst_0: case Opcode::lconst_1: case Opcode::fconst_0:
    case Opcode::fconst_1: case Opcode::fconst_2: case Opcode::dconst_0: case Opcode::dconst_1:
    case Opcode::bipush: case Opcode::sipush: case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
    case Opcode::iload: case Opcode::lload: case Opcode::fload: case Opcode::dload: case Opcode::aload:
    case Opcode::iload_0: case Opcode::iload_1: case Opcode::iload_2: case Opcode::iload_3:
    case Opcode::lload_0: case Opcode::lload_1: case Opcode::lload_2: case Opcode::lload_3:
    case Opcode::fload_0: case Opcode::fload_1: case Opcode::fload_2: case Opcode::fload_3:
    case Opcode::dload_0: case Opcode::dload_1: case Opcode::dload_2: case Opcode::dload_3:
    case Opcode::aload_0: case Opcode::aload_1: case Opcode::aload_2: case Opcode::aload_3:
    case Opcode::istore: case Opcode::lstore: case Opcode::fstore: case Opcode::dstore: case Opcode::astore:
    case Opcode::istore_0: case Opcode::istore_1: case Opcode::istore_2: case Opcode::istore_3:
    case Opcode::lstore_0: case Opcode::lstore_1: case Opcode::lstore_2: case Opcode::lstore_3:
    case Opcode::fstore_0: case Opcode::fstore_1: case Opcode::fstore_2: case Opcode::fstore_3:
    case Opcode::dstore_0: case Opcode::dstore_1: case Opcode::dstore_2: case Opcode::dstore_3:
    case Opcode::astore_0: case Opcode::astore_1: case Opcode::astore_2: case Opcode::astore_3:
    case Opcode::pop: case Opcode::pop2: case Opcode::dup: case Opcode::dup_x1: case Opcode::dup_x2:
    case Opcode::dup2: case Opcode::dup2_x1: case Opcode::dup2_x2: case Opcode::swap:
      return ops::stack(*this, s, in);
    case Opcode::iadd: case Opcode::ladd: case Opcode::fadd: case Opcode::dadd:
    case Opcode::isub: case Opcode::lsub: case Opcode::fsub: case Opcode::dsub:
    case Opcode::imul: case Opcode::lmul: case Opcode::fmul: case Opcode::dmul:
    case Opcode::idiv: case Opcode::ldiv: case Opcode::fdiv: case Opcode::ddiv:
    case Opcode::irem: case Opcode::lrem: case Opcode::frem: case Opcode::drem:
    case Opcode::ineg: case Opcode::lneg: case Opcode::fneg: case Opcode::dneg:
    case Opcode::ishl: case Opcode::lshl: case Opcode::ishr: case Opcode::lshr: case Opcode::iushr: case Opcode::lushr:
    case Opcode::iand: case Opcode::land: case Opcode::ior: case Opcode::lor: case Opcode::ixor: case Opcode::lxor:
    case Opcode::iinc:
    case Opcode::i2l: case Opcode::i2f: case Opcode::i2d: case Opcode::l2i: case Opcode::l2f: case Opcode::l2d:
    case Opcode::f2i: case Opcode::f2l: case Opcode::f2d: case Opcode::d2i: case Opcode::d2l: case Opcode::d2f:
    case Opcode::i2b: case Opcode::i2c: case Opcode::i2s:
      return ops::arithmetic(*this, s, in);
    case Opcode::lcmp: case Opcode::fcmpl: case Opcode::fcmpg: case Opcode::dcmpl: case Opcode::dcmpg:
    case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
    case Opcode::if_icmpeq: case Opcode::if_icmpne: case Opcode::if_icmplt: case Opcode::if_icmpge:
    case Opcode::if_icmpgt: case Opcode::if_icmple: case Opcode::if_acmpeq: case Opcode::if_acmpne:
    case Opcode::ifnull: case Opcode::ifnonnull:
    case Opcode::goto_: case Opcode::goto_w: case Opcode::jsr: case Opcode::jsr_w: case Opcode::ret:
    case Opcode::tableswitch: case Opcode::lookupswitch:
      return ops::branches(*this, s, in);
    case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield:
      return ops::fields(*this, s, in);
    case Opcode::iaload: case Opcode::laload: case Opcode::faload: case Opcode::daload:
    case Opcode::aaload: case Opcode::baload: case Opcode::caload: case Opcode::saload:
    case Opcode::iastore: case Opcode::lastore: case Opcode::fastore: case Opcode::dastore:
    case Opcode::aastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
    case Opcode::newarray: case Opcode::anewarray: case Opcode::multianewarray: case Opcode::arraylength:
      return ops::arrays(*this, s, in);
    case Opcode::new_: case Opcode::checkcast: case Opcode::instanceof:
      return ops::objects(*this, s, in);
    case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
    case Opcode::invokeinterface: case Opcode::invokedynamic:
      return ops::invoke(*this, s, in);
    case Opcode::athrow: case Opcode::monitorenter: case Opcode::monitorexit:
      return ops::exceptions(*this, s, in);
    case Opcode::ireturn: case Opcode::lreturn: case Opcode::freturn: case Opcode::dreturn:
    case Opcode::areturn: case Opcode::return_:
      return ops::returns(*this, s, in);
    case Opcode::wide:  // the decoder folds the prefix into the instruction it modifies
      break;
  }
  throw ExecError(std::string("unsupported instruction ") + std::string(jvm::mnemonic(in.op)) + " in " +
                  s.frames.back().m->key());
}
#pragma GCC diagnostic pop

void Interpreter::prepare() {
  region_at_.clear();
  for (const RegionHook& r : opt_.regions) {
    auto dot = r.method.rfind('.', r.method.find(':'));
    auto colon = r.method.find(':');
    if (dot == std::string::npos || colon == std::string::npos) throw ExecError("bad region method " + r.method);
    const MethodInfo* m = program_.resolveMethod(r.side, r.method.substr(0, dot),
                                                 r.method.substr(dot + 1, colon - dot - 1), r.method.substr(colon + 1));
    if (!m) throw ExecError("region in unknown method " + r.method);
    region_at_[m][r.start_pc] = &r;
  }
}

bool Interpreter::enterRegion(State& s) {
  Frame& f = s.frames.back();
  auto mit = region_at_.find(f.m);
  if (mit == region_at_.end()) return false;
  auto rit = mit->second.find(f.m->insns[static_cast<std::size_t>(f.ip)].pc);
  if (rit == mit->second.end()) return false;
  const RegionHook& r = *rit->second;
  if (!f.stack.empty()) throw ExecError("abstracted region entered with a non-empty operand stack in " + f.m->key());
  std::vector<Term> args;
  for (auto [slot, type] : r.inputs) {
    if (static_cast<std::size_t>(slot) >= f.locals.size() || !f.locals[static_cast<std::size_t>(slot)]) {
      // A slot not assigned on this path (reused across scopes): its value cannot matter to
      // the region's result in Java, but is kept inexact rather than invented.
      args.push_back(tm_.apply("undefined_local", terms::FunKind::Library, sortOfDescriptor(type), {}));
      continue;
    }
    args.push_back(f.locals[static_cast<std::size_t>(slot)]);
  }
  for (std::size_t i = 0; i < r.outputs.size(); ++i) {
    auto [slot, type] = r.outputs[i];
    Term v = tm_.apply(r.output_fns[i], terms::FunKind::Uif, sortOfDescriptor(type), args);
    std::size_t need = static_cast<std::size_t>(slot) + ((type == 'J' || type == 'D') ? 2 : 1);
    if (f.locals.size() < need) f.locals.resize(need);
    f.locals[static_cast<std::size_t>(slot)] = v;
  }
  std::int32_t idx = r.exit_pc < f.m->index_of_pc.size() ? f.m->index_of_pc[r.exit_pc] : -1;
  if (idx < 0) throw ExecError("abstracted region exits to a non-instruction pc in " + f.m->key());
  f.ip = idx;
  return true;
}

Term Interpreter::classObject(State& s, const std::string& name) {
  const std::string key = std::to_string(s.frames.back().side.index()) + "#C" + name;  // (ldc, getClass, TYPE)
  if (auto it = s.interned.find(key); it != s.interned.end()) return tm_.lit(Sort::Ref, it->second);
  Object o;
  o.cls = "java/lang/Class";
  o.text = name;
  Term ref = allocate(s, std::move(o));
  s.interned[key] = tm_.node(ref).bits;
  return ref;
}

Term Interpreter::longArrayElement(State& s, Term ref, Term idx) {
  const Object& a = deref(s, ref);
  const char kind = a.elem_kind;
  const Sort sort = a.elem_sort;
  Term id = inputs().identityOf(s, ref, s.frames.back().side);
  return narrowTo(tm_, kind, tm_.apply(std::string("elem:") + kind, terms::FunKind::Library, sort, {id, idx}));
}

void Interpreter::storeLongArrayElement(State& s, Term ref, Term idx, Term v) {
  const char kind = deref(s, ref).elem_kind;
  Term id = inputs().identityOf(s, ref, s.frames.back().side);
  Term stored = tm_.apply(std::string("store:") + kind, terms::FunKind::Library, Sort::Int, {id, idx, narrowTo(tm_, kind, v)});
  Object& arr = deref(s, ref);
  arr.dirty = true;
  arr.ident = stored;
}

Term Interpreter::defaultValue(const jvm::TypeDesc& t) {
  switch (t.kind) {
    case 'J': return tm_.longLit(0);
    case 'F': return tm_.floatLit(0.0f);
    case 'D': return tm_.doubleLit(0.0);
    case 'L':
    case '[': return tm_.nullRef();
    default: return tm_.intLit(0);
  }
}

StepOutcome Interpreter::throwNew(State& s, const std::string& cls) {
  Object o;
  o.cls = cls;
  return throwRef(s, allocate(s, std::move(o)));
}

StepOutcome Interpreter::throwRef(State& s, Term ref) {
  std::string cls = deref(s, ref).cls;
  // The frames are searched for a handler without popping any: deciding whether a handler
  // takes the exception of an unmodelled call forks, and the copy re-executes the throwing
  // instruction, so it must see the frames as they were. Frames go once the handler is known.
  for (std::size_t k = s.frames.size(); k-- > 0;) {
    Frame& f = s.frames[k];
    std::uint32_t pc = f.m->insns[static_cast<std::size_t>(f.ip)].pc;
    const jvm::Code& code = *f.m->method->code;
    for (const jvm::ExceptionHandler& h : code.handlers) {
      if (pc < h.start_pc || pc >= h.end_pc) continue;
      if (h.catch_type != 0) {
        std::string catchCls = f.m->owner->cf.pool.className(h.catch_type);
        if (cls.rfind("<exception of ", 0) == 0) {
          // An exception of an unmodelled call: whether this handler takes it is unknown.
          if (catchCls != "java/lang/Throwable") {
            Term cond = tm_.apply("exception_is:" + catchCls, terms::FunKind::Library, Sort::Bool,
                                  {tm_.apply(cls, terms::FunKind::Library, Sort::Int, {})});
            auto taken = explorer_.branch(s, cond, false);
            if (!taken) return StepOutcome::Ended;
            if (!*taken) continue;
          }
        } else if (!program_.isSubclass(f.side, cls, catchCls)) {
          continue;
        }
      }
      s.frames.resize(k + 1);
      Frame& handler = s.frames.back();
      handler.stack.clear();
      handler.stack.push_back(ref);
      std::int32_t idx = handler.m->index_of_pc.at(h.handler_pc);
      if (idx < 0) throw ExecError("exception handler at a non-instruction pc in " + handler.m->key());
      handler.ip = idx;
      return StepOutcome::Threw;
    }
    if (f.init_trigger >= 0 && f.side != kProduct) {
      // An exception escaping a class initialiser leaves the class erroneous (JVMS 5.5): the
      // instruction that triggered the initialisation throws ExceptionInInitializerError. The
      // product initialises the versions before its run: there the version's call throws it
      // (Executor's invoke). Initialisations pending above the trigger (the other version's,
      // a superclass's) still run first.
      const std::int32_t trigger = f.init_trigger;
      s.init_failed.insert(std::to_string(f.side.index()) + "#" + f.m->owner->name);
      s.frames.resize(k);
      const bool atTrigger = static_cast<std::int32_t>(s.frames.size()) - 1 == trigger;
      if (!atTrigger || s.frames.back().side == kProduct) return StepOutcome::Continue;
      return throwNew(s, "java/lang/ExceptionInInitializerError");
    }
    if (k == 0) {
      s.frames.resize(1);
      RawPartition p;
      p.entry.kind = ExecEffect::Kind::Throw;
      p.entry.exception = cls;
      explorer_.endPath(s, std::move(p));
      return StepOutcome::Ended;
    }
  }
  return StepOutcome::Ended;
}

Guard Interpreter::requireNonNull(State& s, Term ref) {
  auto isNull = explorer_.branch(s, tm_.eq(ref, tm_.nullRef()), false);
  if (!isNull) return StepOutcome::Ended;
  if (*isNull) return throwNew(s, "java/lang/NullPointerException");
  return std::nullopt;
}

StepOutcome Interpreter::jumpTo(State& s, std::int32_t target) {
  Frame& f = s.frames.back();
  std::int32_t idx = (target >= 0 && static_cast<std::size_t>(target) < f.m->index_of_pc.size())
                         ? f.m->index_of_pc[static_cast<std::size_t>(target)]
                         : -1;
  if (idx < 0) throw ExecError("branch to a non-instruction pc in " + f.m->key());
  f.ip = idx;
  return StepOutcome::Continue;
}

StepOutcome Interpreter::returnFrom(State& s, std::optional<Term> value) {
  Frame done = std::move(s.frames.back());
  s.frames.pop_back();
  if (s.frames.empty()) {
    RawPartition p;
    if (value) {
      p.entry.kind = ExecEffect::Kind::Return;
      p.entry.value = *value;
    } else {
      p.entry.kind = ExecEffect::Kind::Void;
    }
    s.frames.push_back(std::move(done));  // keep the frame for endPath bookkeeping
    explorer_.endPath(s, std::move(p));
    return StepOutcome::Ended;
  }
  Frame& caller = s.frames.back();
  if (done.m->name == "<clinit>") {
    // The program classes' non-final statics are inputs from here on (static_inputs).
    inputs_.makeStaticInputs(s, done.side, *done.m->owner);
    return StepOutcome::Continue;  // re-execute the caller's instruction
  }
  if (value) caller.stack.push_back(*value);
  caller.ip += 1;
  return StepOutcome::Continue;
}

bool Interpreter::ensureInitialized(State& s, Side side, const std::string& cls, std::int32_t trigger) {
  const LoadedClass* c = program_.find(side, cls);
  if (!c) return true;
  std::string key = std::to_string(c->side.index()) + "#" + c->name;
  if (s.initialized.count(key)) return true;
  s.initialized.insert(key);
  // Static fields start with their ConstantValue or the default value.
  for (const jvm::Field& fld : c->cf.fields) {
    if (!fld.isStatic()) continue;
    Term v = defaultValue(jvm::parseFieldDescriptor(fld.descriptor));
    for (const jvm::Attribute& a : fld.attributes) {
      if (c->cf.pool.utf8(a.name_index) != "ConstantValue" || a.data.size() != 2) continue;
      std::uint16_t idx = static_cast<std::uint16_t>(a.data[0] << 8 | a.data[1]);
      const jvm::CpEntry& e = c->cf.pool.at(idx);
      switch (e.tag) {
        case jvm::CpTag::Integer: v = tm_.intLit(static_cast<std::int32_t>(e.value)); break;
        case jvm::CpTag::Long: v = tm_.longLit(static_cast<std::int64_t>(e.value)); break;
        case jvm::CpTag::Float: v = tm_.lit(Sort::Float, e.value); break;
        case jvm::CpTag::Double: v = tm_.lit(Sort::Double, e.value); break;
        default: break;
      }
    }
    s.statics[std::to_string(c->side.index()) + "#" + c->name + "." + fld.name] = v;
  }
  bool pushed = false;
  if (const MethodInfo* clinit = c->method("<clinit>", "()V"); clinit && clinit->method->code) {
    // The caller's instruction is re-executed when <clinit> returns: the <clinit> frame is
    // pushed above it without advancing the caller.
    Frame f;
    f.m = clinit;
    f.side = c->side;
    f.locals.assign(clinit->max_locals, Term{});
    f.ip = 0;
    f.init_trigger = trigger;
    s.frames.push_back(std::move(f));
    pushed = true;
  } else {
    inputs_.makeStaticInputs(s, c->side, *c);  // (after <clinit> otherwise: returnFrom)
  }
  // The superclass first (JVMS 5.5): its <clinit> frame goes above this class's, so it runs
  // before it.
  if (!c->super_name.empty() && !ensureInitialized(s, c->side, c->super_name, trigger)) pushed = true;
  return !pushed;
}

std::optional<Term> Interpreter::readField(State& s, Term ref, const std::string& name, const std::string& desc) {
  Object& o = deref(s, ref);
  if (auto it = o.fields.find(name); it != o.fields.end()) {
    if (tm_.sort(it->second) != Sort::Ref || tm_.node(it->second).bits == 0 || !deref(s, it->second).maybe_null)
      return it->second;
    std::optional<Term> v = settle(s, it->second);
    if (v) deref(s, ref).fields[name] = *v;
    return v;
  }
  if (o.havocked || o.opaque) {
    // Written by an unmodelled call (or a library object's field): an unknown function of it.
    jvm::TypeDesc td = jvm::parseFieldDescriptor(desc);
    Term base = o.havoc_base ? o.havoc_base : inputs_.identity(s, tm_.node(ref).bits, s.frames.back().side);
    if (td.kind != 'L' && td.kind != '[') {
      Term v = tm_.apply("field:" + name, terms::FunKind::Library, sortOfDescriptor(td.kind), {base});
      deref(s, ref).fields[name] = v;
      return v;
    }
    Term fr = allocate(s, unknownObject(td.kind == 'L' ? td.className() : td.text,
                                        tm_.apply("field:" + name, terms::FunKind::Library, Sort::Int, {base})));
    std::optional<Term> v = settle(s, fr);
    if (v) deref(s, ref).fields[name] = *v;
    return v;
  }
  if (!o.lazy || o.input < 0) return defaultValue(jvm::parseFieldDescriptor(desc));
  std::optional<Term> v = inputs_.readField(s, o, name, desc);
  if (!v) return std::nullopt;
  deref(s, ref).fields[name] = *v;  // (again: materialising may have grown the heap)
  return v;
}

std::optional<Term> Interpreter::settle(State& s, Term ref) {
  if (tm_.node(ref).bits == 0) return ref;
  Object& o = deref(s, ref);
  if (!o.maybe_null) return ref;
  Term ident = o.ident;
  auto isNull = explorer_.branch(s, tm_.apply("isnull", terms::FunKind::Library, Sort::Bool, {ident}), false);
  if (!isNull) return std::nullopt;
  if (*isNull) return tm_.nullRef();
  Object& obj = deref(s, ref);
  obj.maybe_null = false;
  if (obj.is_array && !fillOpaqueArray(s, ref)) return std::nullopt;
  return ref;
}

bool Interpreter::fillOpaqueArray(State& s, Term ref) {
  // Its length is a function of its identity, so that the same call's array has the same
  // length in both versions: decided value by value up to the bound; beyond it, the length
  // is that term (above the bound) and no element is held, like a long input array.
  const int bound = opt_.max_array_length;
  const Term ident = deref(s, ref).ident;
  const Term lengthTerm = tm_.apply("length", terms::FunKind::Library, Sort::Int, {ident});
  int len = -1;
  for (int k = 0; k <= bound && len < 0; ++k) {
    auto isK = explorer_.branch(s, tm_.eq(lengthTerm, tm_.intLit(k)), false);
    if (!isK) return false;
    if (*isK) len = k;
  }
  if (len < 0) {
    s.pc.push_back(tm_.gt(lengthTerm, tm_.intLit(bound)));  // (not negative: an array's length)
    Object& arr = deref(s, ref);
    arr.opaque = false;
    arr.elem_kind = arr.cls.size() > 1 ? arr.cls[1] : 'I';
    arr.elem_sort = sortOfDescriptor(arr.elem_kind);
    arr.long_length = lengthTerm;
    explorer_.note(s, "arrays produced by unmodelled calls longer than " + std::to_string(bound) +
                          " have a symbolic length and no elements held");
    return true;
  }
  Object& arr = deref(s, ref);
  arr.opaque = false;
  arr.elem_kind = arr.cls.size() > 1 ? arr.cls[1] : 'I';
  arr.elem_sort = sortOfDescriptor(arr.elem_kind);
  const std::string elemType = elementType(arr.cls);
  const Sort es = arr.elem_sort;
  std::vector<Term> elems;
  for (int k = 0; k < len; ++k) {
    Term e = tm_.apply("elem" + std::to_string(k), terms::FunKind::Library, es == Sort::Ref ? Sort::Int : es, {ident});
    if (es != Sort::Ref) {
      elems.push_back(e);
      continue;
    }
    elems.push_back(allocate(s, unknownObject(elemType, e)));
  }
  deref(s, ref).elems = std::move(elems);
  return true;
}

}  // namespace pasda::symexec
