// The public face of the symbolic interpreter: Executor wires the explorer (paths, solver,
// deadline), the input heap, the library models and the interpreter together, and builds the
// initial state of an exploration; plus the helpers that make a method's symbolic inputs.
#include <algorithm>

#include "interpreter.hpp"

namespace pasda::symexec {

terms::Sort sortOf(const jvm::TypeDesc& t) { return sortOfDescriptor(t.kind); }

std::vector<Term> productArguments(const MethodInfo& m, const MethodInputs& in, terms::TermManager& tm) {
  std::vector<Term> args;
  if (!m.is_static && m.name != "<init>") {
    Term self = tm.var("this", Sort::Ref);
    args.push_back(self);
    args.push_back(self);
  }
  for (Term t : in.terms) {
    args.push_back(t);
    if (tm.sort(t) == Sort::Ref) args.push_back(t);
  }
  return args;
}

MethodInputs makeInputs(const MethodInfo& m, terms::TermManager& tm) {
  MethodInputs in;
  int slot = m.is_static ? 0 : 1;
  std::size_t i = 0;
  for (const jvm::TypeDesc& t : m.desc.params) {
    std::string name;
    if (m.method && m.method->code) {
      for (const jvm::LocalVariable& lv : m.method->code->local_variables) {
        if (lv.index == slot && lv.start_pc == 0) name = lv.name;
      }
    }
    if (name.empty()) name = "p" + std::to_string(i);
    Sort s = sortOf(t);
    Term v = tm.var(name, s);
    in.names.push_back(name);
    in.types.push_back(t);
    in.terms.push_back(v);
    auto range = [&](std::int32_t lo, std::int32_t hi) {
      in.constraints.push_back(tm.ge(v, tm.intLit(lo)));
      in.constraints.push_back(tm.le(v, tm.intLit(hi)));
    };
    switch (t.kind) {
      case 'Z': range(0, 1); break;
      case 'B': range(-128, 127); break;
      case 'S': range(-32768, 32767); break;
      case 'C': range(0, 65535); break;
      default: break;
    }
    slot += t.slots();
    ++i;
  }
  return in;
}

/// The pieces of one Executor; each gets only the others it needs.
struct Executor::Impl {
  const Program& program;
  terms::TermManager& tm;
  solver::Solver& solver;
  ExecOptions opt;
  Explorer explorer;
  InputHeap inputs;
  Interpreter interpreter;

  Impl(const Program& p, terms::TermManager& t, solver::Solver& s, ExecOptions o)
      : program(p),
        tm(t),
        solver(s),
        opt(std::move(o)),
        explorer(tm, solver, opt),
        inputs(tm, program, opt, explorer),
        interpreter(program, tm, opt, explorer, inputs, jdkModels()) {}

  State initialState(const MethodInfo& entry, const std::vector<Term>& args, const std::vector<Term>& assumptions);
  void addPendingInputs(State& s, const MethodInfo& entry, const std::vector<Term>& args);
};

Executor::Executor(const Program& program, terms::TermManager& tm, solver::Solver& solver, ExecOptions options)
    : impl_(std::make_unique<Impl>(program, tm, solver, std::move(options))) {}

Executor::~Executor() = default;

ExecStats Executor::explore(const MethodInfo& entry, const std::vector<Term>& args,
                            const std::vector<Term>& assumptions, const PartitionSink& sink) {
  Impl& I = *impl_;
  auto started = Clock::now();
  std::uint64_t checks0 = I.solver.checks();
  double secs0 = I.solver.checkSeconds();
  if (!entry.method || !entry.method->code) throw ExecError("method " + entry.key() + " has no code");
  I.interpreter.prepare();
  // The variables a solver model must assign: the primitive variables of the arguments.
  std::vector<Term> vars;
  for (Term a : args) I.tm.collectVars(a, vars);
  std::sort(vars.begin(), vars.end());
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  vars.erase(std::remove_if(vars.begin(), vars.end(), [&](Term v) { return I.tm.sort(v) == Sort::Ref; }), vars.end());
  I.explorer.begin(sink, std::move(vars));
  State s = I.initialState(entry, args, assumptions);
  I.explorer.run(std::move(s), [&](State& st) { return I.interpreter.step(st); });
  ExecStats stats = I.explorer.stats();
  stats.solver_checks = I.solver.checks() - checks0;
  stats.solver_seconds = I.solver.checkSeconds() - secs0;
  stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return stats;
}

State Executor::Impl::initialState(const MethodInfo& entry, const std::vector<Term>& args,
                                   const std::vector<Term>& assumptions) {
  State s;
  Frame f;
  f.m = &entry;
  f.side = entry.owner->side;
  f.locals.assign(std::max<std::size_t>(entry.max_locals, args.size() * 2 + 1), Term{});
  std::size_t slot = 0;
  for (Term a : args) {
    f.locals[slot] = a;
    slot += (tm.sort(a) == Sort::Long || tm.sort(a) == Sort::Double) ? 2 : 1;
  }
  s.frames.push_back(std::move(f));
  addPendingInputs(s, entry, args);
  // Product runs start from the analysed classes' state after <clinit>, in both versions.
  if (entry.owner->side == kProduct)
    for (int side : {kNew, kOld})
      if (!opt.main_class[side].empty()) interpreter.ensureInitialized(s, static_cast<Side>(side), opt.main_class[side]);
  for (Term a : assumptions) {
    if (auto b = tm.asBool(a); b && *b) continue;
    s.pc.push_back(a);
  }
  return s;
}

void Executor::Impl::addPendingInputs(State& s, const MethodInfo& entry, const std::vector<Term>& args) {
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
    if (tm.op(a) == terms::Op::Var && tm.sort(a) == Sort::Ref) {
      const std::string& name = tm.node(a).name;
      std::string cls = i < types.size() ? (types[i].kind == 'L' ? types[i].className() : types[i].text)
                                         : "java/lang/Object";
      int side = entry.owner->side == kProduct ? kOld : entry.owner->side;
      auto it = byName.find(name);
      if (it == byName.end()) {
        PendingInput pin;
        pin.name = name;
        pin.cls = inputs.originalName(cls);
        pin.non_null = name == "this";
        byName[name] = s.pending.size();
        s.pending.push_back(pin);
      } else if (entry.owner->side == kProduct) {
        side = kNew;
      }
      s.pending[byName[name]].slots.emplace_back(static_cast<int>(argSlot), side);
    }
    argSlot += (tm.sort(a) == Sort::Long || tm.sort(a) == Sort::Double) ? 2 : 1;
    ++i;
  }
}

}  // namespace pasda::symexec
