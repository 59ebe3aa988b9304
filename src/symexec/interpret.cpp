// Instruction semantics: one step of the top frame of a state.
#include "engine.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec {

using jvm::Opcode;
using terms::Op;

namespace {

bool isCat2(terms::TermManager& tm, Term t) {
  Sort s = tm.sort(t);
  return s == Sort::Long || s == Sort::Double;
}

Term popv(Frame& f, State& s) {
  if (f.stack.empty()) throw ExecError("operand stack underflow in " + f.m->key());
  Term t = f.stack.back();
  f.stack.pop_back();
  s.popped.push_back(t);
  return t;
}

}  // namespace

Term Executor::Impl::defaultValue(const jvm::TypeDesc& t) {
  switch (t.kind) {
    case 'J': return tm.longLit(0);
    case 'F': return tm.floatLit(0.0f);
    case 'D': return tm.doubleLit(0.0);
    case 'L':
    case '[': return tm.nullRef();
    default: return tm.intLit(0);
  }
}

bool Executor::Impl::ensureInitialized(State& s, Side side, const std::string& cls) {
  const LoadedClass* c = program.find(side, cls);
  if (!c) return true;
  std::string key = std::to_string(c->side) + "#" + c->name;
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
        case jvm::CpTag::Integer: v = tm.intLit(static_cast<std::int32_t>(e.value)); break;
        case jvm::CpTag::Long: v = tm.longLit(static_cast<std::int64_t>(e.value)); break;
        case jvm::CpTag::Float: v = tm.lit(Sort::Float, e.value); break;
        case jvm::CpTag::Double: v = tm.lit(Sort::Double, e.value); break;
        default: break;
      }
    }
    s.statics[std::to_string(c->side) + "#" + c->name + "." + fld.name] = v;
  }
  bool pushed = false;
  if (!c->super_name.empty()) pushed = !ensureInitialized(s, c->side, c->super_name);
  if (const MethodInfo* clinit = c->method("<clinit>", "()V"); clinit && clinit->method->code) {
    Frame f;
    f.m = clinit;
    f.side = c->side;
    f.locals.assign(clinit->max_locals, Term{});
    // The caller's instruction is re-executed when <clinit> returns: the <clinit> frame is
    // pushed above it without advancing the caller.
    f.ip = -1;  // marker: advance to 0 before the first step
    s.frames.push_back(std::move(f));
    s.frames.back().ip = 0;
    pushed = true;
  }
  return !pushed;
}

StepResult Executor::Impl::returnFrom(State& s, std::optional<Term> value) {
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
    endPath(s, std::move(p));
    return StepResult::Ended;
  }
  Frame& caller = s.frames.back();
  if (done.m->name == "<clinit>") return StepResult::Continue;  // re-execute the caller's instruction
  if (value) caller.stack.push_back(*value);
  caller.ip += 1;
  return StepResult::Continue;
}

void Executor::Impl::resolveRegions() {
  region_at.clear();
  for (const RegionHook& r : opt.regions) {
    auto dot = r.method.rfind('.', r.method.find(':'));
    auto colon = r.method.find(':');
    if (dot == std::string::npos || colon == std::string::npos) throw ExecError("bad region method " + r.method);
    const MethodInfo* m = program.resolveMethod(r.side, r.method.substr(0, dot), r.method.substr(dot + 1, colon - dot - 1),
                                                r.method.substr(colon + 1));
    if (!m) throw ExecError("region in unknown method " + r.method);
    region_at[m][r.start_pc] = &r;
  }
}

bool Executor::Impl::enterRegion(State& s) {
  Frame& f = s.frames.back();
  auto mit = region_at.find(f.m);
  if (mit == region_at.end()) return false;
  auto rit = mit->second.find(f.m->insns[static_cast<std::size_t>(f.ip)].pc);
  if (rit == mit->second.end()) return false;
  const RegionHook& r = *rit->second;
  if (!f.stack.empty()) throw ExecError("abstracted region entered with a non-empty operand stack in " + f.m->key());
  std::vector<Term> args;
  for (auto [slot, type] : r.inputs) {
    if (static_cast<std::size_t>(slot) >= f.locals.size() || !f.locals[static_cast<std::size_t>(slot)]) {
      // A slot not assigned on this path (reused across scopes): its value cannot matter to
      // the region's result in Java, but is kept inexact rather than invented.
      args.push_back(tm.apply("undefined_local", terms::FunKind::Library, sortOfDescriptor(type), {}));
      continue;
    }
    args.push_back(f.locals[static_cast<std::size_t>(slot)]);
  }
  for (std::size_t i = 0; i < r.outputs.size(); ++i) {
    auto [slot, type] = r.outputs[i];
    Term v = tm.apply(r.fn + "_" + r.output_names[i], terms::FunKind::Uif, sortOfDescriptor(type), args);
    std::size_t need = static_cast<std::size_t>(slot) + ((type == 'J' || type == 'D') ? 2 : 1);
    if (f.locals.size() < need) f.locals.resize(need);
    f.locals[static_cast<std::size_t>(slot)] = v;
  }
  std::int32_t idx = r.exit_pc < f.m->index_of_pc.size() ? f.m->index_of_pc[r.exit_pc] : -1;
  if (idx < 0) throw ExecError("abstracted region exits to a non-instruction pc in " + f.m->key());
  f.ip = idx;
  return true;
}

StepResult Executor::Impl::step(State& s) {
  s.popped.clear();
  s.decisions.clear();
  if (!s.pending.empty() || !s.pending_lengths.empty()) return materializePending(s);
  if (!region_at.empty() && enterRegion(s)) return StepResult::Continue;
  Frame& f = s.frames.back();
  if (f.ip < 0 || static_cast<std::size_t>(f.ip) >= f.m->insns.size())
    throw ExecError("execution fell off the end of " + f.m->key());
  const jvm::Instruction& in = f.m->insns[static_cast<std::size_t>(f.ip)];
  if (int line = f.m->line[static_cast<std::size_t>(f.ip)]; line && (line != s.last_line || f.side != s.last_line_side)) {
    s.lines[f.side].insert(line);
    s.last_line = line;
    s.last_line_side = f.side;
  }
  auto next = [&] { f.ip += 1; return StepResult::Continue; };
  auto push = [&](Term t) { f.stack.push_back(t); };
  auto pop = [&]() { return popv(f, s); };
  auto jump = [&](std::int32_t target) {
    std::int32_t idx = (target >= 0 && static_cast<std::size_t>(target) < f.m->index_of_pc.size())
                           ? f.m->index_of_pc[static_cast<std::size_t>(target)] : -1;
    if (idx < 0) throw ExecError("branch to a non-instruction pc in " + f.m->key());
    f.ip = idx;
    return StepResult::Continue;
  };
  auto load = [&](int idx) {
    if (idx < 0 || static_cast<std::size_t>(idx) >= f.locals.size() || !f.locals[static_cast<std::size_t>(idx)])
      throw ExecError("read of an undefined local " + std::to_string(idx) + " in " + f.m->key());
    push(f.locals[static_cast<std::size_t>(idx)]);
    return next();
  };
  auto store = [&](int idx) {
    Term v = pop();
    std::size_t need = static_cast<std::size_t>(idx) + (isCat2(tm, v) ? 2 : 1);
    if (f.locals.size() < need) f.locals.resize(need);
    f.locals[static_cast<std::size_t>(idx)] = v;
    if (isCat2(tm, v)) f.locals[static_cast<std::size_t>(idx) + 1] = Term{};
    return next();
  };
  auto binary = [&](Term (terms::TermManager::*fn)(Term, Term)) {
    Term b = pop();
    Term a = pop();
    push((tm.*fn)(a, b));
    return next();
  };
  // Integer division/remainder: ArithmeticException when the divisor is zero.
  auto intDivRem = [&](bool isDiv) {
    Term b = pop();
    Term a = pop();
    Term zero = tm.sort(b) == Sort::Long ? tm.longLit(0) : tm.intLit(0);
    auto isZero = branch(s, tm.eq(b, zero), false);
    if (!isZero) return StepResult::Ended;
    if (*isZero) return throwNew(s, "java/lang/ArithmeticException");
    push(isDiv ? tm.div(a, b) : tm.rem(a, b));
    return next();
  };
  // Conditional jumps. A comparison result (lcmp/fcmpX/dcmpX) compared with zero becomes a
  // direct comparison of the operands, with the NaN behaviour of the compare instruction.
  auto condZero = [&](Opcode op, Term v) -> Term {
    const terms::Node& n = tm.node(v);
    if (n.op == Op::Cmp || n.op == Op::CmpL || n.op == Op::CmpG) {
      Term a = n.args[0], b = n.args[1];
      bool g = n.op == Op::CmpG;
      bool fl = n.op != Op::Cmp;
      switch (op) {
        case Opcode::ifeq: return tm.eq(a, b);
        case Opcode::ifne: return fl ? tm.lnot(tm.eq(a, b)) : tm.ne(a, b);
        case Opcode::iflt: return (fl && !g) ? tm.lnot(tm.ge(a, b)) : tm.lt(a, b);
        case Opcode::ifle: return (fl && !g) ? tm.lnot(tm.gt(a, b)) : tm.le(a, b);
        case Opcode::ifgt: return (fl && g) ? tm.lnot(tm.le(a, b)) : tm.gt(a, b);
        case Opcode::ifge: return (fl && g) ? tm.lnot(tm.lt(a, b)) : tm.ge(a, b);
        default: break;
      }
    }
    Term z = tm.intLit(0);
    switch (op) {
      case Opcode::ifeq: return tm.eq(v, z);
      case Opcode::ifne: return tm.ne(v, z);
      case Opcode::iflt: return tm.lt(v, z);
      case Opcode::ifle: return tm.le(v, z);
      case Opcode::ifgt: return tm.gt(v, z);
      default: return tm.ge(v, z);
    }
  };
  auto condJump = [&](Term cond) {
    bool isCounted = counted(s);
    auto taken = branch(s, cond, isCounted);
    if (!taken) return StepResult::Ended;
    Frame& fr = s.frames.back();
    if (*taken) {
      std::int32_t idx = fr.m->index_of_pc.at(static_cast<std::size_t>(in.target));
      if (idx < 0) throw ExecError("branch to a non-instruction pc in " + fr.m->key());
      fr.ip = idx;
    } else {
      fr.ip += 1;
    }
    return StepResult::Continue;
  };
  auto nullCheck = [&](Term ref) -> std::optional<bool> {  // true: ref is null
    return branch(s, tm.eq(ref, tm.nullRef()), false);
  };
  // Array access checks: null, then index bounds. Returns the object or nullptr if the step ended.
  auto arrayCheck = [&](Term ref, Term idx, StepResult& out) -> Object* {
    auto isNull = nullCheck(ref);
    if (!isNull) { out = StepResult::Ended; return nullptr; }
    if (*isNull) { out = throwNew(s, "java/lang/NullPointerException"); return nullptr; }
    std::size_t len = deref(s, ref).elems.size();
    Term outOfBounds = tm.lor(tm.lt(idx, tm.intLit(0)), tm.ge(idx, tm.intLit(static_cast<std::int32_t>(len))));
    auto oob = branch(s, outOfBounds, false);
    if (!oob) { out = StepResult::Ended; return nullptr; }
    if (*oob) { out = throwNew(s, "java/lang/ArrayIndexOutOfBoundsException"); return nullptr; }
    return &deref(s, ref);
  };
  auto arrayLoad = [&]() {
    Term idx = pop();
    Term ref = pop();
    StepResult r = StepResult::Continue;
    Object* arr = arrayCheck(ref, idx, r);
    if (!arr) return r;
    if (auto k = tm.asInteger(idx)) {
      s.frames.back().stack.push_back(arr->elems[static_cast<std::size_t>(*k)]);
    } else {
      Term v = arr->elems.back();
      for (std::size_t i = arr->elems.size() - 1; i-- > 0;)
        v = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), arr->elems[i], v);
      s.frames.back().stack.push_back(v);
    }
    s.frames.back().ip += 1;
    return StepResult::Continue;
  };
  auto arrayStore = [&]() {
    Term v = pop();
    Term idx = pop();
    Term ref = pop();
    StepResult r = StepResult::Continue;
    Object* arr = arrayCheck(ref, idx, r);
    if (!arr) return r;
    switch (arr->elem_kind) {
      case 'Z': v = tm.bitAnd(v, tm.intLit(1)); break;
      case 'B': v = tm.i2b(v); break;
      case 'C': v = tm.i2c(v); break;
      case 'S': v = tm.i2s(v); break;
      default: break;
    }
    if (auto k = tm.asInteger(idx)) {
      arr->elems[static_cast<std::size_t>(*k)] = v;
    } else {
      for (std::size_t i = 0; i < arr->elems.size(); ++i)
        arr->elems[i] = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), v, arr->elems[i]);
    }
    s.frames.back().ip += 1;
    return StepResult::Continue;
  };
  // Array allocation with a possibly symbolic length: negative -> exception; symbolic lengths
  // are explored value by value up to max_array_length, longer ones cut the path.
  StepResult thrown = StepResult::Continue;  // outcome of a NegativeArraySizeException
  auto newArray = [&](Term count, const std::string& desc) -> std::optional<std::size_t> {
    auto neg = branch(s, tm.lt(count, tm.intLit(0)), false);
    if (!neg) return std::nullopt;
    if (*neg) {
      thrown = throwNew(s, "java/lang/NegativeArraySizeException");
      return std::size_t{0xFFFFFFFF};
    }
    if (auto k = tm.asInteger(count)) return static_cast<std::size_t>(*k);
    for (int k = 0; k <= opt.max_array_length; ++k) {
      auto isK = branch(s, tm.eq(count, tm.intLit(k)), false);
      if (!isK) return std::nullopt;
      if (*isK) return static_cast<std::size_t>(k);
    }
    note(s, "array of symbolic length longer than " + std::to_string(opt.max_array_length) + " (" + desc + ") cut");
    cutPath(s, true, false);
    return std::nullopt;
  };
  auto makeArray = [&](std::size_t len, const std::string& elemDesc) {
    Object o;
    o.cls = "[" + elemDesc;
    o.is_array = true;
    o.elem_kind = elemDesc[0];
    o.elem_sort = sortOfDescriptor(elemDesc[0]);
    jvm::TypeDesc td;
    td.kind = elemDesc[0];
    td.text = elemDesc;
    o.elems.assign(len, defaultValue(td));
    return allocate(s, std::move(o));
  };

  switch (in.op) {
    case Opcode::nop: return next();
    case Opcode::aconst_null: push(tm.nullRef()); return next();
    case Opcode::iconst_m1: case Opcode::iconst_0: case Opcode::iconst_1: case Opcode::iconst_2:
    case Opcode::iconst_3: case Opcode::iconst_4: case Opcode::iconst_5:
      push(tm.intLit(static_cast<int>(in.op) - static_cast<int>(Opcode::iconst_0)));
      return next();
    case Opcode::lconst_0: case Opcode::lconst_1:
      push(tm.longLit(static_cast<int>(in.op) - static_cast<int>(Opcode::lconst_0)));
      return next();
    case Opcode::fconst_0: case Opcode::fconst_1: case Opcode::fconst_2:
      push(tm.floatLit(static_cast<float>(static_cast<int>(in.op) - static_cast<int>(Opcode::fconst_0))));
      return next();
    case Opcode::dconst_0: case Opcode::dconst_1:
      push(tm.doubleLit(static_cast<double>(static_cast<int>(in.op) - static_cast<int>(Opcode::dconst_0))));
      return next();
    case Opcode::bipush: case Opcode::sipush: push(tm.intLit(in.imm)); return next();
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w: {
      const jvm::ConstValue& c = in.constant;
      switch (c.kind) {
        case jvm::ConstValue::Kind::Int: push(tm.intLit(static_cast<std::int32_t>(c.i))); break;
        case jvm::ConstValue::Kind::Long: push(tm.longLit(c.i)); break;
        case jvm::ConstValue::Kind::Float: push(tm.lit(Sort::Float, c.bits & 0xFFFFFFFFu)); break;
        case jvm::ConstValue::Kind::Double: push(tm.lit(Sort::Double, c.bits)); break;
        case jvm::ConstValue::Kind::String: {
          Object o;
          o.cls = "java/lang/String";
          o.text = c.text;
          push(allocate(s, std::move(o)));
          break;
        }
        case jvm::ConstValue::Kind::Class: {
          Object o;
          o.cls = "java/lang/Class";
          o.text = c.text;
          push(allocate(s, std::move(o)));
          break;
        }
        default: throw ExecError("unsupported constant kind (MethodType/MethodHandle/Dynamic) in " + f.m->key());
      }
      return next();
    }
    case Opcode::iload: case Opcode::lload: case Opcode::fload: case Opcode::dload: case Opcode::aload:
    case Opcode::iload_0: case Opcode::iload_1: case Opcode::iload_2: case Opcode::iload_3:
    case Opcode::lload_0: case Opcode::lload_1: case Opcode::lload_2: case Opcode::lload_3:
    case Opcode::fload_0: case Opcode::fload_1: case Opcode::fload_2: case Opcode::fload_3:
    case Opcode::dload_0: case Opcode::dload_1: case Opcode::dload_2: case Opcode::dload_3:
    case Opcode::aload_0: case Opcode::aload_1: case Opcode::aload_2: case Opcode::aload_3:
      return load(in.local);
    case Opcode::istore: case Opcode::lstore: case Opcode::fstore: case Opcode::dstore: case Opcode::astore:
    case Opcode::istore_0: case Opcode::istore_1: case Opcode::istore_2: case Opcode::istore_3:
    case Opcode::lstore_0: case Opcode::lstore_1: case Opcode::lstore_2: case Opcode::lstore_3:
    case Opcode::fstore_0: case Opcode::fstore_1: case Opcode::fstore_2: case Opcode::fstore_3:
    case Opcode::dstore_0: case Opcode::dstore_1: case Opcode::dstore_2: case Opcode::dstore_3:
    case Opcode::astore_0: case Opcode::astore_1: case Opcode::astore_2: case Opcode::astore_3:
      return store(in.local);
    case Opcode::iaload: case Opcode::laload: case Opcode::faload: case Opcode::daload:
    case Opcode::aaload: case Opcode::baload: case Opcode::caload: case Opcode::saload:
      return arrayLoad();
    case Opcode::iastore: case Opcode::lastore: case Opcode::fastore: case Opcode::dastore:
    case Opcode::aastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
      return arrayStore();
    case Opcode::pop: pop(); return next();
    case Opcode::pop2: {
      Term a = pop();
      if (!isCat2(tm, a)) pop();
      return next();
    }
    case Opcode::dup: { Term a = pop(); push(a); push(a); return next(); }
    case Opcode::dup_x1: { Term a = pop(); Term b = pop(); push(a); push(b); push(a); return next(); }
    case Opcode::dup_x2: {
      Term a = pop();
      Term b = pop();
      if (isCat2(tm, b)) { push(a); push(b); push(a); return next(); }
      Term c = pop();
      push(a); push(c); push(b); push(a);
      return next();
    }
    case Opcode::dup2: {
      Term a = pop();
      if (isCat2(tm, a)) { push(a); push(a); return next(); }
      Term b = pop();
      push(b); push(a); push(b); push(a);
      return next();
    }
    case Opcode::dup2_x1: {
      Term a = pop();
      if (isCat2(tm, a)) { Term b = pop(); push(a); push(b); push(a); return next(); }
      Term b = pop();
      Term c = pop();
      push(b); push(a); push(c); push(b); push(a);
      return next();
    }
    case Opcode::dup2_x2: {
      Term a = pop();
      if (isCat2(tm, a)) {
        Term b = pop();
        if (isCat2(tm, b)) { push(a); push(b); push(a); return next(); }
        Term c = pop();
        push(a); push(c); push(b); push(a);
        return next();
      }
      Term b = pop();
      Term c = pop();
      if (isCat2(tm, c)) { push(b); push(a); push(c); push(b); push(a); return next(); }
      Term d = pop();
      push(b); push(a); push(d); push(c); push(b); push(a);
      return next();
    }
    case Opcode::swap: { Term a = pop(); Term b = pop(); push(a); push(b); return next(); }
    case Opcode::iadd: case Opcode::ladd: case Opcode::fadd: case Opcode::dadd: return binary(&terms::TermManager::add);
    case Opcode::isub: case Opcode::lsub: case Opcode::fsub: case Opcode::dsub: return binary(&terms::TermManager::sub);
    case Opcode::imul: case Opcode::lmul: case Opcode::fmul: case Opcode::dmul: return binary(&terms::TermManager::mul);
    case Opcode::idiv: case Opcode::ldiv: return intDivRem(true);
    case Opcode::irem: case Opcode::lrem: return intDivRem(false);
    case Opcode::fdiv: case Opcode::ddiv: return binary(&terms::TermManager::div);
    case Opcode::frem: case Opcode::drem: return binary(&terms::TermManager::rem);
    case Opcode::ineg: case Opcode::lneg: case Opcode::fneg: case Opcode::dneg: push(tm.neg(pop())); return next();
    case Opcode::ishl: case Opcode::lshl: return binary(&terms::TermManager::shl);
    case Opcode::ishr: case Opcode::lshr: return binary(&terms::TermManager::shr);
    case Opcode::iushr: case Opcode::lushr: return binary(&terms::TermManager::ushr);
    case Opcode::iand: case Opcode::land: return binary(&terms::TermManager::bitAnd);
    case Opcode::ior: case Opcode::lor: return binary(&terms::TermManager::bitOr);
    case Opcode::ixor: case Opcode::lxor: return binary(&terms::TermManager::bitXor);
    case Opcode::iinc: {
      std::size_t idx = static_cast<std::size_t>(in.local);
      if (idx >= f.locals.size() || !f.locals[idx]) throw ExecError("iinc of an undefined local in " + f.m->key());
      f.locals[idx] = tm.add(f.locals[idx], tm.intLit(in.imm));
      return next();
    }
    case Opcode::i2l: case Opcode::f2l: case Opcode::d2l: push(tm.convert(pop(), Sort::Long)); return next();
    case Opcode::i2f: case Opcode::l2f: case Opcode::d2f: push(tm.convert(pop(), Sort::Float)); return next();
    case Opcode::i2d: case Opcode::l2d: case Opcode::f2d: push(tm.convert(pop(), Sort::Double)); return next();
    case Opcode::l2i: case Opcode::f2i: case Opcode::d2i: push(tm.convert(pop(), Sort::Int)); return next();
    case Opcode::i2b: push(tm.i2b(pop())); return next();
    case Opcode::i2c: push(tm.i2c(pop())); return next();
    case Opcode::i2s: push(tm.i2s(pop())); return next();
    case Opcode::lcmp: return binary(&terms::TermManager::cmp);
    case Opcode::fcmpl: case Opcode::dcmpl: return binary(&terms::TermManager::cmpl);
    case Opcode::fcmpg: case Opcode::dcmpg: return binary(&terms::TermManager::cmpg);
    case Opcode::ifeq: case Opcode::ifne: case Opcode::iflt: case Opcode::ifge: case Opcode::ifgt: case Opcode::ifle:
      return condJump(condZero(in.op, pop()));
    case Opcode::if_icmpeq: case Opcode::if_icmpne: case Opcode::if_icmplt: case Opcode::if_icmpge:
    case Opcode::if_icmpgt: case Opcode::if_icmple: case Opcode::if_acmpeq: case Opcode::if_acmpne: {
      Term b = pop();
      Term a = pop();
      Term c;
      switch (in.op) {
        case Opcode::if_icmpeq: case Opcode::if_acmpeq: c = tm.eq(a, b); break;
        case Opcode::if_icmpne: case Opcode::if_acmpne: c = tm.ne(a, b); break;
        case Opcode::if_icmplt: c = tm.lt(a, b); break;
        case Opcode::if_icmpge: c = tm.ge(a, b); break;
        case Opcode::if_icmpgt: c = tm.gt(a, b); break;
        default: c = tm.le(a, b); break;
      }
      return condJump(c);
    }
    case Opcode::ifnull: return condJump(tm.eq(pop(), tm.nullRef()));
    case Opcode::ifnonnull: return condJump(tm.ne(pop(), tm.nullRef()));
    case Opcode::goto_: case Opcode::goto_w: return jump(in.target);
    case Opcode::jsr: case Opcode::jsr_w:
      push(tm.intLit(static_cast<std::int32_t>(in.pc + in.length)));
      return jump(in.target);
    case Opcode::ret: {
      auto ra = tm.asInteger(f.locals.at(static_cast<std::size_t>(in.local)));
      if (!ra) throw ExecError("ret through a non-address local in " + f.m->key());
      return jump(static_cast<std::int32_t>(*ra));
    }
    case Opcode::tableswitch: case Opcode::lookupswitch: {
      Term key = pop();
      bool isCounted = counted(s);
      for (const auto& [k, target] : in.sw.cases) {
        auto hit = branch(s, tm.eq(key, tm.intLit(k)), isCounted);
        if (!hit) return StepResult::Ended;
        if (*hit) return jump(target);
      }
      return jump(in.sw.default_target);
    }
    case Opcode::ireturn: case Opcode::lreturn: case Opcode::freturn: case Opcode::dreturn: case Opcode::areturn: {
      Term v = pop();
      // Values of byte/short/char/boolean methods are narrowed as the JVM does on return.
      switch (f.m->desc.ret.kind) {
        case 'Z': v = tm.bitAnd(v, tm.intLit(1)); break;
        case 'B': v = tm.i2b(v); break;
        case 'C': v = tm.i2c(v); break;
        case 'S': v = tm.i2s(v); break;
        default: break;
      }
      return returnFrom(s, v);
    }
    case Opcode::return_: return returnFrom(s, std::nullopt);
    case Opcode::getstatic: case Opcode::putstatic: {
      const jvm::MemberRef& r = in.member;
      const LoadedClass* c = program.find(f.side, r.owner);
      if (!c) {
        if (in.op == Opcode::putstatic) {
          pop();
          note(s, "write to library static field " + r.owner + "." + r.name + " ignored");
          return next();
        }
        jvm::TypeDesc td = jvm::parseFieldDescriptor(r.descriptor);
        if (td.kind == 'L' || td.kind == '[') {
          Object o;
          o.cls = td.kind == 'L' ? td.className() : td.text;
          push(allocate(s, std::move(o)));
        } else {
          note(s, "library static field " + r.owner + "." + r.name + " is an uninterpreted constant");
          push(tm.apply(r.owner + "." + r.name, terms::FunKind::Library, sortOf(td), {}));
        }
        return next();
      }
      if (!ensureInitialized(s, f.side, r.owner)) return StepResult::Continue;
      Frame& fr = s.frames.back();
      // Find the declaring class (the field may be inherited).
      std::string owner = c->name;
      Side side = c->side;
      for (const LoadedClass* k = c; k;) {
        bool has = false;
        for (const jvm::Field& fld : k->cf.fields) has = has || (fld.name == r.name && fld.isStatic());
        if (has) { owner = k->name; side = k->side; break; }
        k = k->super_name.empty() ? nullptr : program.find(k->side, k->super_name);
      }
      std::string key = std::to_string(side) + "#" + owner + "." + r.name;
      if (in.op == Opcode::getstatic) {
        auto it = s.statics.find(key);
        if (it == s.statics.end()) throw ExecError("unknown static field " + r.owner + "." + r.name);
        fr.stack.push_back(it->second);
      } else {
        s.statics[key] = popv(fr, s);
      }
      fr.ip += 1;
      return StepResult::Continue;
    }
    case Opcode::getfield: case Opcode::putfield: {
      Term v;
      if (in.op == Opcode::putfield) v = pop();
      Term ref = pop();
      auto isNull = nullCheck(ref);
      if (!isNull) return StepResult::Ended;
      if (*isNull) return throwNew(s, "java/lang/NullPointerException");
      Object& o = deref(s, ref);
      Frame& fr = s.frames.back();
      if (in.op == Opcode::putfield) {
        o.fields[in.member.name] = v;
      } else {
        auto it = o.fields.find(in.member.name);
        if (it != o.fields.end()) {
          fr.stack.push_back(it->second);
        } else if (o.lazy && o.input >= 0) {
          std::optional<Term> fieldValue = readInputField(s, o, in.member.name, in.member.descriptor);
          if (!fieldValue) return StepResult::Ended;
          deref(s, ref).fields[in.member.name] = *fieldValue;
          s.frames.back().stack.push_back(*fieldValue);
        } else {
          fr.stack.push_back(defaultValue(jvm::parseFieldDescriptor(in.member.descriptor)));
        }
      }
      fr.ip += 1;
      return StepResult::Continue;
    }
    case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
    case Opcode::invokeinterface: case Opcode::invokedynamic:
      return invoke(s, in);
    case Opcode::new_: {
      if (program.find(f.side, in.type) && !ensureInitialized(s, f.side, in.type)) return StepResult::Continue;
      Object o;
      o.cls = in.type;
      Term ref = allocate(s, std::move(o));
      s.frames.back().stack.push_back(ref);
      s.frames.back().ip += 1;
      return StepResult::Continue;
    }
    case Opcode::newarray: case Opcode::anewarray: {
      Term count = pop();
      static const char* kinds = "????ZCFDBSIJ";  // newarray atype 4..11
      std::string elem;
      if (in.op == Opcode::newarray) {
        if (in.imm < 4 || in.imm > 11) throw ExecError("bad newarray type");
        elem = std::string(1, kinds[in.imm]);
      } else {
        elem = in.type[0] == '[' ? in.type : "L" + in.type + ";";
      }
      auto len = newArray(count, elem);
      if (!len) return StepResult::Ended;
      if (*len == 0xFFFFFFFF) return thrown;  // threw
      Term ref = makeArray(*len, elem);
      s.frames.back().stack.push_back(ref);
      s.frames.back().ip += 1;
      return StepResult::Continue;
    }
    case Opcode::multianewarray: {
      int dims = in.imm;
      std::vector<Term> counts(static_cast<std::size_t>(dims));
      for (int i = dims - 1; i >= 0; --i) counts[static_cast<std::size_t>(i)] = pop();
      std::vector<std::size_t> lens;
      for (Term c : counts) {
        auto len = newArray(c, in.type);
        if (!len) return StepResult::Ended;
        if (*len == 0xFFFFFFFF) return thrown;
        lens.push_back(*len);
      }
      std::function<Term(std::size_t, const std::string&)> build = [&](std::size_t d, const std::string& desc) -> Term {
        std::string elem = desc.substr(1);
        Term arr = makeArray(lens[d], elem);
        if (d + 1 < lens.size()) {
          for (std::size_t i = 0; i < lens[d]; ++i) {
            Term sub = build(d + 1, elem);
            deref(s, arr).elems[i] = sub;
          }
        }
        return arr;
      };
      Term ref = build(0, in.type);
      s.frames.back().stack.push_back(ref);
      s.frames.back().ip += 1;
      return StepResult::Continue;
    }
    case Opcode::arraylength: {
      Term ref = pop();
      auto isNull = nullCheck(ref);
      if (!isNull) return StepResult::Ended;
      if (*isNull) return throwNew(s, "java/lang/NullPointerException");
      std::size_t n = deref(s, ref).elems.size();
      s.frames.back().stack.push_back(tm.intLit(static_cast<std::int32_t>(n)));
      s.frames.back().ip += 1;
      return StepResult::Continue;
    }
    case Opcode::athrow: {
      Term ref = pop();
      auto isNull = nullCheck(ref);
      if (!isNull) return StepResult::Ended;
      if (*isNull) return throwNew(s, "java/lang/NullPointerException");
      return throwRef(s, ref);
    }
    case Opcode::checkcast: case Opcode::instanceof: {
      Term ref = pop();
      bool ok = false;
      bool isNull = tm.asInteger(ref) ? false : false;
      isNull = tm.node(ref).bits == 0;
      if (!isNull) {
        const Object& o = deref(s, ref);
        if (in.type[0] == '[') ok = o.cls == in.type || in.type == "[Ljava/lang/Object;";
        else ok = !o.is_array ? program.isSubclass(f.side, o.cls, in.type) : in.type == "java/lang/Object";
      }
      Frame& fr = s.frames.back();
      if (in.op == Opcode::instanceof) {
        fr.stack.push_back(tm.intLit(!isNull && ok ? 1 : 0));
      } else {
        if (!isNull && !ok) return throwNew(s, "java/lang/ClassCastException");
        fr.stack.push_back(ref);
      }
      fr.ip += 1;
      return StepResult::Continue;
    }
    case Opcode::monitorenter: case Opcode::monitorexit: {
      Term ref = pop();
      auto isNull = nullCheck(ref);
      if (!isNull) return StepResult::Ended;
      if (*isNull) return throwNew(s, "java/lang/NullPointerException");
      s.frames.back().ip += 1;
      return StepResult::Continue;
    }
    default:
      throw ExecError(std::string("unsupported instruction ") + std::string(jvm::mnemonic(in.op)) + " in " + f.m->key());
  }
}

}  // namespace pasda::symexec
