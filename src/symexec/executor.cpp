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
  State s = I.interpreter.initialState(entry, args, assumptions);
  I.explorer.run(std::move(s), [&](State& st) { return I.interpreter.step(st); });
  ExecStats stats = I.explorer.stats();
  stats.solver_checks = I.solver.checks() - checks0;
  stats.solver_seconds = I.solver.checkSeconds() - secs0;
  stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  stats.couplings = I.interpreter.couplings();
  return stats;
}

ExecStats Executor::exploreFrom(const MethodInfo& m, std::uint32_t pc, const std::vector<Term>& locals,
                                const std::vector<Term>& assumptions, const PartitionSink& sink) {
  Impl& I = *impl_;
  auto started = Clock::now();
  std::uint64_t checks0 = I.solver.checks();
  double secs0 = I.solver.checkSeconds();
  if (!m.method || !m.method->code) throw ExecError("method " + m.key() + " has no code");
  I.interpreter.prepare();
  std::vector<Term> vars;
  for (Term a : locals)
    if (a) I.tm.collectVars(a, vars);
  std::sort(vars.begin(), vars.end());
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  vars.erase(std::remove_if(vars.begin(), vars.end(), [&](Term v) { return I.tm.sort(v) == Sort::Ref; }), vars.end());
  I.explorer.begin(sink, std::move(vars));
  State s = I.interpreter.stateAt(m, pc, locals, assumptions);
  I.explorer.run(std::move(s), [&](State& st) { return I.interpreter.step(st); });
  ExecStats stats = I.explorer.stats();
  stats.solver_checks = I.solver.checks() - checks0;
  stats.solver_seconds = I.solver.checkSeconds() - secs0;
  stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return stats;
}

}  // namespace pasda::symexec
