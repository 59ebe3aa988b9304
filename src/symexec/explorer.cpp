// The explorer: DFS work list, branching with incremental feasibility checks, the depth
// budget, the deadline (with a watchdog that interrupts a running solver call) and partition
// emission.
#include "explorer.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace pasda::symexec {

/// Interrupts the solver when the deadline passes while a check is running, and keeps
/// interrupting until the exploration stops it.
class Explorer::Watchdog {
 public:
  Watchdog(solver::Solver& solver, Clock::time_point deadline) {
    thread_ = std::thread([this, &solver, deadline] {
      std::unique_lock<std::mutex> lock(mu_);
      while (!done_) {
        if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && !done_) {
          solver.interrupt();
          cv_.wait_for(lock, std::chrono::milliseconds(20));
        }
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

Explorer::Explorer(terms::TermManager& tm, solver::Solver& solver, const ExecOptions& opt)
    : tm_(tm), solver_(solver), opt_(opt) {}

Explorer::~Explorer() = default;

void Explorer::startWatchdog() {
  if (opt_.deadline != Clock::time_point::max()) watchdog_ = std::make_unique<Watchdog>(solver_, opt_.deadline);
}

void Explorer::stopWatchdog() { watchdog_.reset(); }

void Explorer::begin(const PartitionSink& sink, std::vector<Term> inputVars) {
  sink_ = &sink;
  stats_ = ExecStats{};
  stop_ = false;
  work_.clear();
  input_vars_ = std::move(inputVars);
}

bool Explorer::timeUp() {
  if (stop_) return true;
  // A retired solver answers Unknown to everything from now on: the exploration ends as if
  // the deadline had passed (the run's next iteration gets a solver of its own).
  const Clock::time_point now = Clock::now();
  const std::int64_t stopAt = opt_.stop_at ? opt_.stop_at->load() : 0;
  if ((opt_.cancel && opt_.cancel->load()) || now >= opt_.deadline || solver_.retired() ||
      (stopAt != 0 && now.time_since_epoch().count() >= stopAt)) {
    stop_ = true;
    stats_.timed_out = true;
  }
  return stop_;
}

void Explorer::syncSolver(const std::vector<Term>& pc) {
  std::size_t common = 0;
  while (common < asserted_.size() && common < pc.size() && asserted_[common] == pc[common]) ++common;
  if (asserted_.size() > common) {
    solver_.pop(static_cast<unsigned>(asserted_.size() - common));
    asserted_.resize(common);
  }
  for (std::size_t i = common; i < pc.size(); ++i) {
    solver_.push();
    solver_.add(pc[i]);
    asserted_.push_back(pc[i]);
  }
}

solver::CheckResult Explorer::checkWith(const std::vector<Term>& pc, Term extra) {
  syncSolver(pc);
  const auto now = Clock::now();
  // The solver's limit ends at the deadline, and at a settled exploration's end
  // (ExecOptions::stop_at), whichever comes first.
  Clock::time_point end = opt_.deadline;
  if (const std::int64_t stopAt = opt_.stop_at ? opt_.stop_at->load() : 0; stopAt != 0)
    end = std::min(end, Clock::time_point(Clock::duration(stopAt)));
  unsigned budget = opt_.solver_timeout_ms;
  if (end != Clock::time_point::max()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count();
    if (left <= 0) return {solver::Status::Unknown, "timeout", 0};
    if (budget == 0 || static_cast<unsigned long long>(left) < budget) budget = static_cast<unsigned>(left);
  }
  solver_.setTimeoutMs(budget);
  if (extra) return solver_.check({extra});
  return solver_.check({});
}

State& Explorer::queueReplay(State& s, int decision) {
  ++stats_.forks;
  const State* base = first_fork_ ? &work_[*first_fork_] : replay_start_ ? &*replay_start_ : nullptr;
  State other = base ? *base : s;
  if (!base) {
    Frame& of = other.frames.back();
    for (auto it = s.popped.rbegin(); it != s.popped.rend(); ++it) of.stack.push_back(*it);
  } else {
    // What the decisions so far produced is the current state's (the re-execution replays
    // the decisions without adding their conditions again).
    other.pc = s.pc;
    other.model = s.model;
    other.depth = s.depth;
    other.warnings = s.warnings;
  }
  other.replay = s.decisions;
  other.replay.push_back(decision);
  other.replay_pos = 0;
  other.decisions.clear();
  other.popped.clear();
  work_.push_back(std::move(other));
  if (!first_fork_) first_fork_ = work_.size() - 1;
  return work_.back();
}

std::optional<bool> Explorer::branch(State& s, Term cond, bool isCounted) {
  if (auto b = tm_.asBool(cond)) return *b;
  if (s.replay_pos < s.replay.size()) {  // a forked copy re-executing its instruction
    bool d = s.replay[s.replay_pos++] != 0;
    s.decisions.push_back(d);
    return d;
  }
  Term neg = tm_.lnot(cond);
  if (opt_.single_path) {  // (the concrete mode: a decision means the run is not concrete)
    stats_.forked = true;
    cutPath(s, Cut::Depth);
    return std::nullopt;
  }
  if (opt_.assume_feasible) {
    if (isCounted) {
      if (s.depth >= opt_.depth_limit) {
        cutPath(s, Cut::Decisions);
        return std::nullopt;
      }
      s.depth += 1;
    }
    State& other = queueReplay(s, 1);
    other.pc.push_back(cond);
    other.model = nullptr;
    s.pc.push_back(neg);
    s.model = nullptr;
    s.decisions.push_back(false);
    return false;
  }
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
      if (s.depth >= opt_.depth_limit) {
        cutPath(s, Cut::Decisions);
        return std::nullopt;
      }
      s.depth += 1;
    }
    // Like the reference, the state continues with the bytecode condition false first. The
    // true direction waits on the work list as a copy that re-executes the current
    // instruction (its popped operands restored) and replays the decisions taken so far.
    State& other = queueReplay(s, 1);
    other.pc.push_back(cond);
    other.model = mt;
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

bool Explorer::assume(State& s, Term cond) {
  if (auto b = tm_.asBool(cond)) return *b;
  solver::CheckResult r = checkWith(s.pc, cond);
  if (r.status == solver::Status::Unsat || timeUp()) return false;
  s.pc.push_back(cond);
  s.model = r.status == solver::Status::Sat ? currentModel() : nullptr;
  return true;
}

std::vector<bool> Explorer::implied(State& s, const std::vector<Term>& candidates) {
  std::vector<bool> keep(candidates.size(), true);
  // When the solver cannot tell (floating point, nonlinear), the candidates that hold
  // syntactically (equal terms at both entries, equal literals) are still implied.
  std::vector<bool> none(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (std::optional<bool> b = tm_.asBool(candidates[i]); b && *b) none[i] = true;
  // A model of the path falsifies many candidates without a query.
  for (std::size_t i = 0; i < candidates.size() && s.model; ++i)
    if (std::optional<bool> v = evalUnder(candidates[i], *s.model); v && !*v) keep[i] = false;
  for (std::size_t round = 0; round <= candidates.size(); ++round) {
    Term all = tm_.boolLit(true);
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (keep[i]) all = tm_.land(all, candidates[i]);
    if (auto b = tm_.asBool(all); b && *b) return keep;
    solver::CheckResult r = checkWith(s.pc, tm_.lnot(all));
    if (r.status == solver::Status::Unsat) return keep;
    if (r.status != solver::Status::Sat || timeUp()) return none;
    bool dropped = false;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!keep[i]) continue;
      std::optional<Term> v = solver_.eval(candidates[i]);
      std::optional<bool> holds = v ? tm_.asBool(*v) : std::nullopt;
      if (!holds || !*holds) {
        keep[i] = false;
        dropped = true;
      }
    }
    if (!dropped) return none;  // the model falsifies the conjunction but no conjunct: give up
  }
  return none;
}

std::shared_ptr<const Assignment> Explorer::currentModel() {
  if (input_vars_.empty()) return std::make_shared<Assignment>();
  solver::Model m;
  try {
    m = solver_.model(input_vars_);
  } catch (const std::exception&) {
    return nullptr;  // no model after all: decide later branches with the solver
  }
  auto a = std::make_shared<Assignment>();
  for (Term v : input_vars_) {
    std::optional<Term> val = m.lookup(v);
    if (!val) return nullptr;
    a->emplace_back(v, *val);
  }
  return a;
}

std::optional<bool> Explorer::evalUnder(Term root, const Assignment& a) {
  // Map every node to a literal of the scratch manager (Java semantics) bottom-up.
  std::unordered_map<std::uint32_t, Term> memo;
  for (const auto& [var, val] : a) memo[var.id] = scratch_.lit(tm_.sort(val), tm_.node(val).bits);
  std::vector<std::pair<Term, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (memo.count(t.id)) continue;
    const terms::Node& n = tm_.node(t);
    if (n.op == terms::Op::Lit) {
      memo[t.id] = scratch_.lit(n.sort, n.bits);
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
      r = scratch_.make(n.op, n.sort, args, n.bits, n.name, n.fun);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (!scratch_.isLit(r)) return std::nullopt;
    memo[t.id] = r;
  }
  return scratch_.asBool(memo.at(root.id));
}

int Explorer::choose(State& s, int n) {
  if (s.replay_pos < s.replay.size()) {
    int d = s.replay[s.replay_pos++];
    s.decisions.push_back(d);
    return d;
  }
  if (opt_.single_path && n > 1) stats_.forked = true;  // (the run is not concrete: no alternative is queued)
  for (int alt = n - 1; alt >= 1 && !opt_.single_path; --alt) queueReplay(s, alt);
  s.decisions.push_back(0);
  return 0;
}

void Explorer::endPath(State& s, RawPartition&& p) {
  p.pc = s.pc;
  p.heap = s.heap_facts;
  for (const InputObject& o : s.inputs)
    for (const auto& [name, v] : o.fields)
      if (tm_.op(v) == terms::Op::Var) p.heap_vars.push_back(v);
  for (const InputObject& o : s.inputs) p.input_shapes.push_back(shapeOf(s, o));
  p.lines = s.lines;
  p.warnings = s.warnings;
  ++stats_.partitions;
  syncSolver(s.pc);
  (*sink_)(p, solver_);
}

InputShape Explorer::shapeOf(const State& s, const InputObject& o) const {
  InputShape sh;
  sh.path = o.path;
  sh.cls = o.cls;
  sh.is_array = o.is_array;
  auto len = o.fields.count("length") ? tm_.asInteger(o.fields.at("length")) : std::nullopt;
  const bool sequence = o.is_array || o.cls == "java/lang/String";
  if (!sequence) {  // an object: the fields read, by descriptor
    for (const auto& [name, v] : o.fields) {
      auto d = o.descs.find(name);
      if (d == o.descs.end()) sh.other_state = true;
      else sh.fields.push_back({name, d->second, v, false, ""});
    }
    for (const auto& [name, target] : o.ref_fields) {
      auto d = o.descs.find(name);
      if (d == o.descs.end()) sh.other_state = true;
      else sh.fields.push_back({name, d->second, Term{}, true,
                                target < 0 ? std::string() : s.inputs[static_cast<std::size_t>(target)].path});
    }
    return sh;
  }
  sh.other_state = !o.ref_fields.empty();
  if (len) sh.length = *len;
  if (!len && o.is_array && o.fields.count("length")) sh.length_term = o.fields.at("length");
  if (!len && !o.is_array && o.fields.count("length")) sh.other_state = true;  // a string past the bound: no witness
  for (std::int64_t i = 0; len && i < *len; ++i) {
    auto e = o.fields.find("[" + std::to_string(i) + "]");
    if (e == o.fields.end()) {
      sh.other_state = true;
      break;
    }
    sh.elements.push_back(e->second);
  }
  const std::size_t own = sh.elements.size() + (sh.length || sh.length_term ? 1 : 0);
  if (o.fields.size() > own) sh.other_state = true;
  return sh;
}

void Explorer::cutPath(State& s, Cut why) {
  RawPartition p;
  p.depth_limited = true;
  p.step_limited = why == Cut::Steps;
  p.call_depth_limited = why == Cut::CallDepth;
  p.decision_limited = why == Cut::Decisions;
  endPath(s, std::move(p));
}

void Explorer::note(State& s, const std::string& w) {
  if (stats_.warnings.insert(w).second) s.warnings.push_back(w);
}

}  // namespace pasda::symexec
