// Exploration: the DFS work list, branching with incremental feasibility checks, the depth
// budget, the deadline, exceptions and partition emission.
#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "engine.hpp"

namespace pasda::symexec {

Sort sortOfDescriptor(char k) {
  switch (k) {
    case 'J': return Sort::Long;
    case 'F': return Sort::Float;
    case 'D': return Sort::Double;
    case 'L':
    case '[': return Sort::Ref;
    default: return Sort::Int;
  }
}

terms::Sort sortOf(const jvm::TypeDesc& t) { return sortOfDescriptor(t.kind); }

Side sideOf(const Frame& f) { return f.side; }

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

Executor::Executor(const Program& program, terms::TermManager& tm, solver::Solver& solver, ExecOptions options)
    : impl_(std::make_unique<Impl>(program, tm, solver, std::move(options))) {}

Executor::~Executor() = default;

ExecStats Executor::explore(const MethodInfo& entry, const std::vector<Term>& args,
                            const std::vector<Term>& assumptions, const PartitionSink& sink) {
  Impl& I = *impl_;
  I.sink = &sink;
  I.stats = ExecStats{};
  I.stop = false;
  I.work.clear();
  auto started = Clock::now();
  std::uint64_t checks0 = I.solver.checks();
  double secs0 = I.solver.checkSeconds();

  if (!entry.method || !entry.method->code) throw ExecError("method " + entry.key() + " has no code");
  State s;
  Frame f;
  f.m = &entry;
  f.side = entry.owner->side;
  f.locals.assign(std::max<std::size_t>(entry.max_locals, args.size() * 2 + 1), Term{});
  std::size_t slot = 0;
  for (Term a : args) {
    f.locals[slot] = a;
    slot += (I.tm.sort(a) == Sort::Long || I.tm.sort(a) == Sort::Double) ? 2 : 1;
  }
  s.frames.push_back(std::move(f));
  I.resolveRegions();
  I.input_vars.clear();
  for (Term a : args) I.tm.collectVars(a, I.input_vars);
  std::sort(I.input_vars.begin(), I.input_vars.end());
  I.input_vars.erase(std::unique(I.input_vars.begin(), I.input_vars.end()), I.input_vars.end());
  I.input_vars.erase(std::remove_if(I.input_vars.begin(), I.input_vars.end(),
                                    [&](Term v) { return I.tm.sort(v) == Sort::Ref; }),
                     I.input_vars.end());
  {
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
      if (I.tm.op(a) == terms::Op::Var && I.tm.sort(a) == Sort::Ref) {
        const std::string& name = I.tm.node(a).name;
        std::string cls = i < types.size() ? (types[i].kind == 'L' ? types[i].className() : types[i].text)
                                           : "java/lang/Object";
        int side = entry.owner->side == kProduct ? kOld : entry.owner->side;
        auto it = byName.find(name);
        if (it == byName.end()) {
          PendingInput pin;
          pin.name = name;
          pin.cls = I.originalName(cls);
          pin.non_null = name == "this";
          byName[name] = s.pending.size();
          s.pending.push_back(pin);
        } else if (entry.owner->side == kProduct) {
          side = kNew;
        }
        s.pending[byName[name]].slots.emplace_back(static_cast<int>(argSlot), side);
      }
      argSlot += (I.tm.sort(a) == Sort::Long || I.tm.sort(a) == Sort::Double) ? 2 : 1;
      ++i;
    }
    // Product runs start from the analysed classes' state after <clinit>, in both versions.
    if (entry.owner->side == kProduct)
      for (int side : {kNew, kOld})
        if (!I.opt.main_class[side].empty()) I.ensureInitialized(s, static_cast<Side>(side), I.opt.main_class[side]);
  }
  for (Term a : assumptions) {
    Term c = a;
    if (auto b = I.tm.asBool(c); b && *b) continue;
    s.pc.push_back(c);
  }

  // Watchdog: interrupt the solver when the deadline passes while a check is running.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog;
  if (I.opt.deadline != Clock::time_point::max()) {
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(mu);
      while (!done) {
        if (cv.wait_until(lock, I.opt.deadline) == std::cv_status::timeout && !done) {
          I.solver.interrupt();
          // keep interrupting until exploration notices the deadline
          cv.wait_for(lock, std::chrono::milliseconds(20));
        }
      }
    });
  }
  try {
    I.run(std::move(s));
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_all();
    if (watchdog.joinable()) watchdog.join();
    I.syncSolver({});
    throw;
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  if (watchdog.joinable()) watchdog.join();
  I.syncSolver({});
  I.stats.solver_checks = I.solver.checks() - checks0;
  I.stats.solver_seconds = I.solver.checkSeconds() - secs0;
  I.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return I.stats;
}

bool Executor::Impl::timeUp() {
  if (stop) return true;
  if ((opt.cancel && opt.cancel->load()) || Clock::now() >= opt.deadline) {
    stop = true;
    stats.timed_out = true;
  }
  return stop;
}

void Executor::Impl::run(State initial) {
  work.push_back(std::move(initial));
  while (!work.empty()) {
    if (timeUp()) return;
    State s = std::move(work.back());
    work.pop_back();
    for (;;) {
      if ((++stats.instructions & 255) == 0 && timeUp()) return;
      if (++s.steps > opt.max_steps_per_path) {
        cutPath(s, false, true);
        break;
      }
      StepResult r = step(s);
      s.replay.clear();
      s.replay_pos = 0;
      if (r == StepResult::Ended) break;
    }
  }
}

void Executor::Impl::syncSolver(const std::vector<Term>& pc) {
  std::size_t common = 0;
  while (common < asserted.size() && common < pc.size() && asserted[common] == pc[common]) ++common;
  if (asserted.size() > common) {
    solver.pop(static_cast<unsigned>(asserted.size() - common));
    asserted.resize(common);
  }
  for (std::size_t i = common; i < pc.size(); ++i) {
    solver.push();
    solver.add(pc[i]);
    asserted.push_back(pc[i]);
  }
}

solver::CheckResult Executor::Impl::checkWith(const std::vector<Term>& pc, Term extra) {
  syncSolver(pc);
  auto now = Clock::now();
  unsigned budget = opt.solver_timeout_ms;
  if (opt.deadline != Clock::time_point::max()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(opt.deadline - now).count();
    if (left <= 0) return {solver::Status::Unknown, "timeout", 0};
    if (budget == 0 || static_cast<unsigned long long>(left) < budget) budget = static_cast<unsigned>(left);
  }
  solver.setTimeoutMs(budget);
  if (extra) return solver.check({extra});
  return solver.check({});
}

bool Executor::Impl::counted(const State& s) const {
  const Frame& f = s.frames.back();
  return f.recursive || (f.ip >= 0 && static_cast<std::size_t>(f.ip) < f.m->in_loop.size() && f.m->in_loop[f.ip]);
}

std::optional<bool> Executor::Impl::branch(State& s, Term cond, bool isCounted) {
  if (auto b = tm.asBool(cond)) return *b;
  if (s.replay_pos < s.replay.size()) {  // a forked copy re-executing its instruction
    bool d = s.replay[s.replay_pos++] != 0;
    s.decisions.push_back(d);
    return d;
  }
  Term neg = tm.lnot(cond);
  // A model of the current path condition decides one direction without the solver.
  std::optional<bool> byModel = s.model ? evalUnder(cond, *s.model) : std::nullopt;
  solver::CheckResult rt, rf;
  std::shared_ptr<const Assignment> mt, mf;
  if (byModel && *byModel) {
    rt.status = solver::Status::Sat;
    mt = s.model;
  } else {
    rt = checkWith(s.pc, cond);
    if (timeUp()) return std::nullopt;
    if (rt.status == solver::Status::Sat) mt = currentModel();
  }
  if (byModel && !*byModel) {
    rf.status = solver::Status::Sat;
    mf = s.model;
  } else {
    rf = checkWith(s.pc, neg);
    if (timeUp()) return std::nullopt;
    if (rf.status == solver::Status::Sat) mf = currentModel();
  }
  bool canT = rt.status != solver::Status::Unsat;
  bool canF = rf.status != solver::Status::Unsat;
  if (canT && canF) {
    // A real decision. Inside a loop or a recursive call it spends the path's depth budget
    // (docs/depth-limit.md): the path is cut before taking decision limit+1.
    if (isCounted) {
      if (s.depth >= opt.depth_limit) {
        cutPath(s, true, false);
        return std::nullopt;
      }
      s.depth += 1;
    }
    ++stats.forks;
    // Like the reference, the state continues with the bytecode condition false first. The
    // true direction waits on the work list as a copy that re-executes the current
    // instruction (its popped operands restored) and replays the decisions taken so far.
    State other = s;
    Frame& of = other.frames.back();
    for (auto it = s.popped.rbegin(); it != s.popped.rend(); ++it) of.stack.push_back(*it);
    other.pc.push_back(cond);
    other.model = mt;
    other.replay = s.decisions;
    other.replay.push_back(1);
    other.replay_pos = 0;
    other.decisions.clear();
    other.popped.clear();
    work.push_back(std::move(other));
    s.pc.push_back(neg);
    s.model = mf;
    s.decisions.push_back(false);
    return false;
  }
  if (canT) {  // the negation is unsatisfiable: cond is implied
    if (mt) s.model = mt;
    s.decisions.push_back(true);
    return true;
  }
  if (canF) {
    if (mf) s.model = mf;
    s.decisions.push_back(false);
    return false;
  }
  return std::nullopt;  // the path itself is infeasible (should not happen)
}

std::shared_ptr<const Assignment> Executor::Impl::currentModel() {
  if (input_vars.empty()) return std::make_shared<Assignment>();
  solver::Model m;
  try {
    m = solver.model(input_vars);
  } catch (const std::exception&) {
    return nullptr;  // no model after all: decide later branches with the solver
  }
  auto a = std::make_shared<Assignment>();
  for (Term v : input_vars) {
    std::optional<Term> val = m.lookup(v);
    if (!val) return nullptr;
    a->emplace_back(v, *val);
  }
  return a;
}

std::optional<bool> Executor::Impl::evalUnder(Term root, const Assignment& a) {
  // Map every node to a literal of the scratch manager (Java semantics) bottom-up.
  std::unordered_map<std::uint32_t, Term> memo;
  for (const auto& [var, val] : a) memo[var.id] = scratch.lit(tm.sort(val), tm.node(val).bits);
  std::vector<std::pair<Term, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (memo.count(t.id)) continue;
    const terms::Node& n = tm.node(t);
    if (n.op == terms::Op::Lit) {
      memo[t.id] = scratch.lit(n.sort, n.bits);
      continue;
    }
    if (n.op == terms::Op::Var || (n.op == terms::Op::Apply && n.fun != terms::FunKind::Library)) return std::nullopt;
    if (!expanded) {
      stack.push_back({t, true});
      for (Term c : n.args)
        if (!memo.count(c.id)) stack.push_back({c, false});
      continue;
    }
    std::vector<Term> args;
    args.reserve(n.args.size());
    for (Term c : n.args) args.push_back(memo.at(c.id));
    Term r;
    try {
      r = scratch.make(n.op, n.sort, args, n.bits, n.name, n.fun);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (!scratch.isLit(r)) return std::nullopt;
    memo[t.id] = r;
  }
  return scratch.asBool(memo.at(root.id));
}

int Executor::Impl::choose(State& s, int n) {
  if (s.replay_pos < s.replay.size()) {
    int d = s.replay[s.replay_pos++];
    s.decisions.push_back(d);
    return d;
  }
  for (int alt = n - 1; alt >= 1; --alt) {
    ++stats.forks;
    State other = s;
    Frame& of = other.frames.back();
    for (auto it = s.popped.rbegin(); it != s.popped.rend(); ++it) of.stack.push_back(*it);
    other.replay = s.decisions;
    other.replay.push_back(alt);
    other.replay_pos = 0;
    other.decisions.clear();
    other.popped.clear();
    work.push_back(std::move(other));
  }
  s.decisions.push_back(0);
  return 0;
}

void Executor::Impl::endPath(State& s, RawPartition&& p) {
  p.pc = s.pc;
  p.heap = s.heap_facts;
  for (const InputObject& o : s.inputs)
    for (const auto& [name, v] : o.fields)
      if (tm.op(v) == terms::Op::Var) p.heap_vars.push_back(v);
  for (int i = 0; i < 3; ++i) p.lines[i] = s.lines[i];
  p.warnings = s.warnings;
  ++stats.partitions;
  syncSolver(s.pc);
  (*sink)(p, solver);
}

void Executor::Impl::cutPath(State& s, bool depth, bool steps) {
  RawPartition p;
  p.depth_limited = depth || steps;
  p.step_limited = steps;
  endPath(s, std::move(p));
}

void Executor::Impl::note(State& s, const std::string& w) {
  if (stats.warnings.insert(w).second) s.warnings.push_back(w);
}

Term Executor::Impl::allocate(State& s, Object obj) {
  s.heap.push_back(std::move(obj));
  return tm.lit(Sort::Ref, s.heap.size() - 1);
}

Object& Executor::Impl::deref(State& s, Term ref) {
  auto id = tm.node(ref).bits;
  if (tm.op(ref) != terms::Op::Lit || id == 0 || id >= s.heap.size()) throw ExecError("invalid reference");
  return s.heap[id];
}

StepResult Executor::Impl::throwNew(State& s, const std::string& cls) {
  Object o;
  o.cls = cls;
  return throwRef(s, allocate(s, std::move(o)));
}

StepResult Executor::Impl::throwRef(State& s, Term ref) {
  std::string cls = deref(s, ref).cls;
  while (!s.frames.empty()) {
    Frame& f = s.frames.back();
    std::uint32_t pc = f.m->insns[static_cast<std::size_t>(f.ip)].pc;
    const jvm::Code& code = *f.m->method->code;
    for (const jvm::ExceptionHandler& h : code.handlers) {
      if (pc < h.start_pc || pc >= h.end_pc) continue;
      if (h.catch_type != 0) {
        std::string catchCls = f.m->owner->cf.pool.className(h.catch_type);
        if (!program.isSubclass(f.side, cls, catchCls)) continue;
      }
      f.stack.clear();
      f.stack.push_back(ref);
      std::int32_t idx = f.m->index_of_pc.at(h.handler_pc);
      if (idx < 0) throw ExecError("exception handler at a non-instruction pc in " + f.m->key());
      f.ip = idx;
      return StepResult::Continue;
    }
    if (s.frames.size() == 1) {
      RawPartition p;
      p.entry.kind = ExecEffect::Kind::Throw;
      p.entry.exception = cls;
      endPath(s, std::move(p));
      return StepResult::Ended;
    }
    s.frames.pop_back();
  }
  return StepResult::Ended;
}

}  // namespace pasda::symexec
