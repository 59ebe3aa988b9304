// The Z3 backend of the Solver interface: one long-lived context and one incremental solver
// per object, a translation cache that survives across checks, range axioms for integer
// inputs under Math that survive pop(), per-check timeouts and a cross-thread interrupt.
#include <algorithm>
#include <chrono>
#include <sstream>
#include <iostream>
#include <cstdlib>
#include <condition_variable>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <memory>
#include <unordered_map>
#include <functional>
#include <mutex>
#include <thread>

#include "pasda/solver/solver.hpp"
#include "renewing_solver.hpp"
#include "z3_contexts.hpp"
#include "z3_translate.hpp"

namespace pasda::solver {

std::optional<terms::Term> Model::lookup(terms::Term var) const {
  for (const auto& v : values)
    if (v.var == var && v.value) return v.value;
  return std::nullopt;
}

namespace {

using terms::Sort;
using terms::Term;
using Clock = std::chrono::steady_clock;

struct Axiom {
  z3::expr e;
  unsigned level;
  bool asserted;
};

/// Everything a Z3Solver holds of its context, in one allocation: freed with the solver, or
/// leaked when the context is tainted (freeing would race with the runaway check).
struct Z3Objects {
  Z3Objects(z3::context& ctx, terms::TermManager& tm, const SolverOptions& opt)
      : solver(ctx, z3::solver::simple()),
        fpSolver(z3::tactic(ctx, "qffpbv").mk_solver()),
        tr(ctx, tm, opt.model_override.value_or(tm.arith()), opt.bound_integer_inputs, opt.exact_fp_remainder) {}
  z3::solver solver;
  z3::solver fpSolver;
  std::optional<z3::solver> nlSolver;
  detail::Translator tr;
  std::vector<Axiom> axioms;
  std::optional<z3::model> model;
};

class Z3Solver final : public Solver {
 public:
  Z3Solver(terms::TermManager& tm, const SolverOptions& opt)
      : tm_(tm),
        opt_(opt),
        shared_(detail::ContextPool::instance().acquire(detail::ContextPool::Main)),
        ctx_(shared_->ctx),
        z_(new Z3Objects(ctx_, tm, opt)),
        solver_(z_->solver),
        fpSolver_(z_->fpSolver),
        nlSolver_(z_->nlSolver),
        tr_(z_->tr),
        axioms_(z_->axioms),
        model_(z_->model),
        math_(opt.math_first && java() ? new MathSide(tm) : nullptr) {
    mathOn_ = math_ != nullptr;
    z3::params p(ctx_);
    p.set("random_seed", opt.random_seed);
    solver_.set(p);
    fpSolver_.set(p);
    fpLevels_.push_back(false);
    applyTimeout();
  }

  void push() override {
    if (dead()) {
      ++level_;
      return;
    }
    flushAxioms();
    detail::uncancelled(ctx_, [&] { solver_.push(); });
    if (java()) detail::uncancelled(ctx_, [&] { fpSolver_.push(); });
    if (mathLive()) detail::uncancelled(math_->ctx, [&] { math_->solver.push(); });
    termLevels_.emplace_back();
    fpLevels_.push_back(fpLevels_.back());
    ++level_;
  }

  void pop(unsigned n) override {
    if (n > level_) throw SolverError("pop(" + std::to_string(n) + ") below level 0");
    if (n == 0) return;
    if (dead()) {
      level_ -= n;
      return;
    }
    detail::uncancelled(ctx_, [&] { solver_.pop(n); });
    if (java()) detail::uncancelled(ctx_, [&] { fpSolver_.pop(n); });
    if (mathLive()) detail::uncancelled(math_->ctx, [&] { math_->solver.pop(n); });
    termLevels_.resize(termLevels_.size() - n);
    fpLevels_.resize(fpLevels_.size() - n);
    level_ -= n;
    // Range axioms asserted inside the popped scopes are gone: assert them again later.
    for (auto& ax : axioms_)
      if (ax.asserted && ax.level > level_) ax.asserted = false;
    model_.reset();
    folded_.reset();
  }

  unsigned levels() const override { return level_; }

  void add(Term t) override {
    requireBool(t);
    if (dead()) return;
    z3::expr e = translate(t);
    flushAxioms();
    // A floating-point assertion never goes to the incremental kernel: every later check of
    // this scope uses the tactic solver (fpLevels_), and the kernel would internalize (bit-blast)
    // it on the next push, ignoring every time limit (issue 17: tsafe/conflict hung there).
    if (!(java() && tr_.hasFloating(t))) detail::uncancelled(ctx_, [&] { solver_.add(e); });
    if (java()) {
      detail::uncancelled(ctx_, [&] { fpSolver_.add(e); });
      if (tr_.hasFloating(t)) fpLevels_.back() = true;
    }
    if (mathLive()) mathAdd(t);
    termLevels_.back().push_back(t);
    model_.reset();
    folded_.reset();
  }

  CheckResult check(const std::vector<Term>& assumptions) override {
    if (dead()) return retiredResult();
    model_.reset();
    folded_.reset();
    std::vector<z3::expr> assume;
    bool useFp = java() && fpLevels_.back();
    try {
      for (Term a : assumptions) {
        requireBool(a);
        assume.push_back(translate(a));
        useFp = useFp || tr_.hasFloating(a);
      }
      flushAxioms();
    } catch (const z3::exception& e) {
      throw SolverError(std::string("Z3 rejected a term: ") + e.msg());
    }
    if (useFp && mathLive() && !poisoned_) {
      std::vector<z3::expr> pins;
      std::unordered_map<Term, Term, terms::TermHash> values;
      if (mathCandidate(assumptions, pins, values)) {
        // First by folding: the inputs substituted, every operation (library functions
        // included) folds with Java's semantics. All true: a Java model, no bit-blasting.
        Term all = tm_.boolLit(true);
        for (const auto& level : termLevels_)
          for (Term t : level) all = tm_.land(all, t);
        for (Term a : assumptions) all = tm_.land(all, a);
        std::optional<bool> folded;
        try {
          folded = tm_.asBool(tm_.substitute(all, values));
        } catch (const std::exception&) {
        }
        if (folded && *folded) {
          z3::model m(ctx_);
          for (auto& pin : pins) {
            z3::func_decl d = pin.arg(0).decl();
            z3::expr v = pin.arg(1);
            m.add_const_interp(d, v);
          }
          model_.emplace(m);
          folded_ = values;
          ++mathHits_;
          CheckResult r;
          r.status = Status::Sat;
          r.math_first = true;
          ++checks_;
          return r;
        }
        if (folded && !*folded) pins.clear();  // the candidate is not a Java model: full query
      }
      if (!pins.empty()) {
        std::vector<z3::expr> pinned = assume;
        pinned.insert(pinned.end(), pins.begin(), pins.end());
        const unsigned keep = opt_.timeout_ms;
        opt_.timeout_ms = keep == 0 ? opt_.math_first_pinned_ms : std::min(keep, opt_.math_first_pinned_ms);
        applyTimeout();
        CheckResult r = checkExprs(pinned, true);
        opt_.timeout_ms = keep;
        applyTimeout();
        // An interrupt (the caller's deadline) ends the check here: the full query would
        // otherwise run its whole limit after the interrupt was used up by the pinned one.
        if (r.status == Status::Sat || poisoned_ || r.reason == "interrupted") {
          r.math_first = r.status == Status::Sat;
          if (r.math_first) ++mathHits_;
          return r;
        }
        model_.reset();
        folded_.reset();
      }
    }
    return checkExprs(assume, useFp);
  }

  /// Math first: the asserted formulas and `assumptions` over unbounded integers and reals; on
  /// Sat, `pins` receives `handle == value` for every input variable of the Java translation.
  bool mathCandidate(const std::vector<Term>& assumptions, std::vector<z3::expr>& pins,
                     std::unordered_map<Term, Term, terms::TermHash>& values) {
    try {
      std::vector<z3::expr> assume;
      for (Term a : assumptions) assume.push_back(mathTranslate(a));
      MathSide& ms = *math_;
      ms.solver.set("timeout", opt_.math_first_ms);
      ms.solver.push();
      for (auto& e : assume) ms.solver.add(e);
      // Z3 can ignore the limit on nonlinear real problems, so the check runs on a thread of
      // its own in its own context; one that overruns is abandoned (the context leaked, math
      // first off for this solver) and the Java query goes on without it.
      auto box = std::make_shared<MathBox>();
      std::thread worker([&ms, box] {
        z3::check_result r = z3::unknown;
        try {
          r = ms.solver.check();
        } catch (const z3::exception&) {
        }
        std::lock_guard<std::mutex> l(box->mu);
        box->result = r;
        box->done = true;
        box->cv.notify_all();
      });
      {
        std::unique_lock<std::mutex> l(box->mu);
        box->cv.wait_for(l, std::chrono::milliseconds(opt_.math_first_ms + 100), [&] { return box->done; });
        if (!box->done) {
          l.unlock();
          worker.detach();
          ms.ctx.interrupt();
          ms.shared->tainted = true;
          (void)math_.release();  // intentionally leaked: the detached check still uses it
          mathOn_ = false;
          return false;
        }
      }
      worker.join();
      z3::check_result r = box->result;
      if (r != z3::sat) {
        ms.solver.pop(1);
        return false;
      }
      z3::model m = ms.solver.get_model();
      ms.solver.pop(1);
      for (Term v : tr_.variables()) {
        Sort s = tm_.sort(v);
        if (s != Sort::Int && s != Sort::Long && s != Sort::Float && s != Sort::Double && s != Sort::Bool) continue;
        z3::expr val = m.eval(ms.tr.valueHandle(v), true);
        std::string ignored;
        std::optional<Term> lit = toLiteralIn(val, s, ignored, false);
        if (!lit) continue;  // e.g. an integer beyond int64: that input stays free
        z3::expr handle = tr_.valueHandle(v);
        values.emplace(v, *lit);
        const std::uint64_t bits = tm_.node(*lit).bits;
        if (s == Sort::Bool) pins.push_back(handle == ctx_.bool_val(bits != 0));
        else {
          unsigned w = (s == Sort::Int || s == Sort::Float) ? 32 : 64;
          pins.push_back(handle == ctx_.bv_val(static_cast<std::uint64_t>(w == 32 ? (bits & 0xffffffffULL) : bits), w));
        }
      }
      return !pins.empty();
    } catch (const z3::exception&) {
      mathOn_ = false;  // a term the math translation cannot take: no math first for this solver
      return false;
    } catch (const std::exception&) {
      mathOn_ = false;
      return false;
    }
  }

  z3::expr mathTranslate(Term t) {
    z3::expr e = math_->tr(t);
    for (auto& ax : math_->tr.takeNewAxioms()) math_->solver.add(ax);  // ranges of integer inputs (they hold for every input)
    return e;
  }

  void mathAdd(Term t) {
    try {
      math_->solver.add(mathTranslate(t));
    } catch (const std::exception&) {
      mathOn_ = false;
    }
  }

  CheckResult checkForall(Term body, const std::vector<Term>& universal) override {
    if (dead()) return retiredResult();
    model_.reset();
    folded_.reset();
    requireBool(body);
    std::vector<z3::expr> assume;
    try {
      z3::expr b = translate(body);
      z3::expr_vector bound(ctx_);
      for (Term v : universal) {
        if (tm_.op(v) != terms::Op::Var) throw SolverError("checkForall: not a variable: " + tm_.toString(v));
        bound.push_back(tr_.valueHandle(v));
      }
      assume.push_back(bound.empty() ? b : z3::forall(bound, b));
      flushAxioms();
    } catch (const z3::exception& e) {
      throw SolverError(std::string("Z3 rejected a term: ") + e.msg());
    }
    // Quantified formulas go to the general solver, never to the floating-point tactic.
    return checkExprs(assume, false);
  }

  CheckResult retiredResult() const {
    CheckResult res;
    res.reason = "timeout (Z3 did not stop; solver retired)";
    return res;
  }

  /// A check, retried a few times when it was cancelled by a stale interrupt: an interrupt
  /// meant for the previous check can land just after it returned and cancel this one (Z3 keeps
  /// the flag for a moment). Only a check that nobody interrupted and that was cancelled well
  /// before its limit is retried (a real timeout uses the limit up).
  z3::check_result checkRetryingStaleInterrupts(z3::solver& solver, std::string& error) {
    auto firstStart = Clock::now();
    z3::check_result r = guardedCheck(solver, error);
    double firstMs = std::chrono::duration<double, std::milli>(Clock::now() - firstStart).count();
    for (int retry = 0; retry < 4 && r == z3::unknown && !poisoned_ && error.empty() && timeoutMs_ &&
                        firstMs < 0.5 * timeoutMs_;
         ++retry) {
      bool stale;
      {
        std::lock_guard<std::mutex> lock(mu_);
        stale = !interruptedDuring_ && !pendingInterrupt_;
      }
      std::string why = solver.reason_unknown();
      if (!stale || (why.find("cancel") == std::string::npos && why.find("interrupt") == std::string::npos)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2 << retry));
      r = guardedCheck(solver, error);
      firstMs = std::chrono::duration<double, std::milli>(Clock::now() - firstStart).count();
    }
    return r;
  }

  CheckResult checkExprs(const std::vector<z3::expr>& assume, bool useFp) {
    CheckResult res;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (pendingInterrupt_) {  // an interrupt with no check in flight applies to this check
        pendingInterrupt_ = false;
        res.reason = "interrupted";
        return res;
      }
      running_ = true;
      interruptedDuring_ = false;
    }
    auto start = Clock::now();
    z3::check_result r = z3::unknown;
    std::string error;
    bool pushed = false;
    // Floating-point queries (Java model) go to a tactic-based solver: the incremental SMT
    // kernel bit-blasts Float64 operations in a way that ignores timeouts (measured: 5.7 s for
    // a 200 ms limit), while the qffpbv tactic stops on time (docs/solver.md).
    useFp = useFp && java();
    z3::solver& solver = useFp ? fpSolver_ : solver_;
    try {
      // Assumptions are asserted in a temporary scope (Z3's assumption literals must be atoms).
      if (!assume.empty()) {
        solver.push();
        pushed = true;
        for (auto& e : assume) solver.add(e);
      }
      r = checkRetryingStaleInterrupts(solver, error);
      if (r == z3::sat) model_.emplace(solver.get_model());
      if (r == z3::unknown && !useFp) r = tryNonlinear(solver, error);
      folded_.reset();
    } catch (const z3::exception& e) {
      error = e.msg();
    }
    std::string reason;
    if (poisoned_) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        running_ = false;
      }
      cv_.notify_all();
      res.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      ++checks_;
      seconds_ += res.seconds;
      res.reason = "timeout (Z3 did not stop; solver retired)";
      return res;
    }
    if (r == z3::unknown && error.empty()) {
      try {
        reason = solver.reason_unknown();
      } catch (const z3::exception&) {
        reason = "unknown";
      }
    }
    if (pushed) solver.pop(1);
    bool interrupted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      running_ = false;
      interrupted = interruptedDuring_;
      interruptedDuring_ = false;
    }
    cv_.notify_all();
    res.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    ++checks_;
    seconds_ += res.seconds;
    // Diagnostics: PASDA_TRACE_SOLVER=MS prints every check slower than MS milliseconds (its
    // answer, time and assertions, in SMT-LIB) to standard error.
    static const char* const trace = std::getenv("PASDA_TRACE_SOLVER");
    if (trace && res.seconds * 1000.0 >= std::atof(trace)) {
      std::ostringstream q;
      for (const z3::expr& e : assume) q << e << "\n";
      std::cerr << "[solver] " << (r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown") << " "
                << res.seconds * 1000.0 << " ms" << (useFp ? " (fp)" : "") << "\n" << q.str().substr(0, 4000) << "\n";
    }
    if (r == z3::sat) {
      res.status = Status::Sat;
    } else if (r == z3::unsat) {
      res.status = Status::Unsat;
    } else {
      res.status = Status::Unknown;
      // In incremental mode Z3 may report a timeout as "(incomplete ...)": judge by the clock.
      if (interrupted) res.reason = "interrupted";
      else if (timeoutMs_ && res.seconds * 1000.0 >= 0.95 * timeoutMs_) res.reason = "timeout";
      else if (!error.empty()) res.reason = "error: " + error;
      else res.reason = reason.empty() ? "unknown" : reason;
    }
    return res;
  }

  Model model(const std::vector<Term>& vars) override {
    if (!model_) throw SolverError("model() needs a preceding Sat check");
    Model m;
    if (dead()) {  // the context is another check's now: every value stays unknown
      for (Term v : vars) m.values.push_back(ModelValue{v, {}, {}});
      return m;
    }
    for (Term v : vars) {
      if (tm_.op(v) != terms::Op::Var) throw SolverError("model(): not a variable: " + tm_.toString(v));
      ModelValue mv;
      mv.var = v;
      Sort s = tm_.sort(v);
      z3::expr handle = tr_.valueHandle(v);
      z3::expr val = model_->eval(handle, true);
      if (java() && terms::isFloating(s)) {
        std::uint64_t bits = 0;
        if (val.is_numeral_u64(bits)) mv.value = tm_.lit(s, bits);
        else mv.exact = val.to_string();
      } else if (auto lit = toLiteral(val, s, &mv.exact)) {
        mv.value = *lit;
      }
      m.values.push_back(std::move(mv));
    }
    std::stable_sort(m.values.begin(), m.values.end(), [&](const ModelValue& a, const ModelValue& b) {
      return tm_.node(a.var).name < tm_.node(b.var).name;
    });
    return m;
  }

  std::optional<Term> eval(Term t, std::string* exact) override {
    if (!model_) throw SolverError("eval() needs a preceding Sat check");
    if (folded_) {
      // A model found by folding: evaluate by folding too (library functions have no Z3 meaning).
      Term v = tm_.substitute(t, *folded_);
      if (tm_.op(v) == terms::Op::Lit) {
        if (exact) exact->clear();
        return v;
      }
    }
    if (dead()) return std::nullopt;  // the context is another check's now
    z3::expr val = model_->eval(translate(t), true);
    std::string text;
    auto lit = toLiteral(val, tm_.sort(t), &text);
    if (exact) *exact = text;
    return lit;
  }

  void setTimeoutMs(unsigned ms) override {
    opt_.timeout_ms = ms;
    applyTimeout();
  }

  void interrupt() override {
    std::unique_lock<std::mutex> lock(mu_);
    if (!running_) {
      pendingInterrupt_ = true;  // sticky: the next check returns Unknown("interrupted")
      return;
    }
    interruptedDuring_ = true;
    // Z3 drops an interrupt that arrives before the check has really started, so repeat it
    // until the check returns (bounded; the per-check timeout stays the backstop).
    auto deadline = Clock::now() + std::chrono::seconds(2);
    while (running_ && Clock::now() < deadline) {
      // Only while Z3 is inside check(): an interrupt that lands after it returned would
      // cancel the next check.
      if (inZ3_) ctx_.interrupt();
      cv_.wait_for(lock, std::chrono::milliseconds(5));
    }
  }

  std::uint64_t checks() const override { return checks_; }
  double checkSeconds() const override { return seconds_; }

  bool retired() const override { return poisoned_ || shared_->tainted; }

  ~Z3Solver() override {
    if (worker_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(wmu_);
        stopWorker_ = true;
      }
      wcv_.notify_all();
      worker_.join();  // a retired solver waits here for Z3 to come back before freeing it
    }
    if (shared_->tainted) (void)z_.release();  // another solver's runaway check may be inside
    if (math_ && math_->shared->tainted) (void)math_.release();
  }

 private:
  /// True once this solver must not touch its context again: it retired, or another solver
  /// sharing the context did (its check may still be running inside Z3).
  bool dead() {
    if (!poisoned_ && shared_->tainted) poisoned_ = true;
    return poisoned_;
  }

  /// Math first is on and its context usable (a math-first side sharing it may have overrun).
  bool mathLive() {
    if (mathOn_ && math_ && math_->shared->tainted) {
      (void)math_.release();  // never touched again, not even to free it
      mathOn_ = false;
    }
    return mathOn_;
  }

  /// Math model, a query the SMT core left undecided: when it is pure nonlinear real and
  /// integer arithmetic (no function symbol: transcendental functions and abstractions have no
  /// decision procedure there), Z3's nlsat procedure gets it once more within a budget
  /// (SolverOptions::nonlinear_ms). A model it finds is the query's model.
  z3::check_result tryNonlinear(z3::solver& solver, std::string& error) {
    if (java() || opt_.nonlinear_ms == 0 || poisoned_ || !error.empty()) return z3::unknown;
    // Only for checks with a budget of their own at least this large (classification
    // queries): a branch-feasibility check left undecided just keeps both directions, and
    // nlsat is the tactic that most often overruns its limit.
    if (timeoutMs_ != 0 && timeoutMs_ < opt_.nonlinear_ms) return z3::unknown;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (interruptedDuring_ || pendingInterrupt_) return z3::unknown;
    }
    z3::expr_vector goal = solver.assertions();
    if (!detail::pureArithmetic(goal)) return z3::unknown;
    if (!nlSolver_) nlSolver_.emplace(z3::tactic(ctx_, "qfnra-nlsat").mk_solver());
    z3::solver& nl = *nlSolver_;
    nl.reset();
    const unsigned budget = timeoutMs_ ? std::min(timeoutMs_, opt_.nonlinear_ms) : opt_.nonlinear_ms;
    nl.set("timeout", budget);
    for (unsigned i = 0; i < goal.size(); ++i) nl.add(goal[i]);
    const unsigned keep = timeoutMs_;
    timeoutMs_ = budget;  // (the guard's limit for this check)
    z3::check_result r = guardedCheck(nl, error);
    timeoutMs_ = keep;
    if (r == z3::sat) model_.emplace(nl.get_model());
    if (!error.empty()) {
      error.clear();  // the tactic refused the goal: the first answer stands
      return z3::unknown;
    }
    ++nonlinearDecided_;
    return r;
  }

  /// No application of a function symbol other than arithmetic, comparisons and connectives.

  // Z3 occasionally ignores both its timeout and interrupts (large floating-point or
  // nonlinear problems). Checks therefore run on a worker thread; if one has not returned
  // 300 ms after its time limit, the caller gets Unknown and the solver is retired: every
  // later check answers Unknown at once, so the caller's deadline holds.
  z3::check_result guardedCheck(z3::solver& solver, std::string& error) {
    if (timeoutMs_ == 0) {
      {
        std::lock_guard<std::mutex> l(mu_);
        inZ3_ = true;
      }
      z3::check_result r = solver.check();
      std::lock_guard<std::mutex> l(mu_);
      inZ3_ = false;
      return r;
    }
    if (!worker_.joinable()) {
      worker_ = std::thread([this] {
        std::unique_lock<std::mutex> lock(wmu_);
        for (;;) {
          wcv_.wait(lock, [this] { return stopWorker_ || task_ != nullptr; });
          if (task_) {
            auto task = std::move(task_);
            task_ = nullptr;
            lock.unlock();
            task();
            lock.lock();
            taskDone_ = true;
            wcv_.notify_all();
            continue;
          }
          if (stopWorker_) return;
        }
      });
    }
    // The task owns its result box, so a retired check that returns late writes to live memory.
    auto box = std::make_shared<std::pair<z3::check_result, std::string>>(z3::unknown, std::string());
    std::unique_lock<std::mutex> lock(wmu_);
    taskDone_ = false;
    task_ = [this, &solver, box] {
      {
        std::lock_guard<std::mutex> l(mu_);
        inZ3_ = true;
      }
      try {
        box->first = solver.check();
      } catch (const z3::exception& e) {
        box->second = e.msg();
      }
      {
        std::lock_guard<std::mutex> l(mu_);
        inZ3_ = false;
      }
    };
    wcv_.notify_all();
    auto limit = std::chrono::milliseconds(static_cast<long long>(timeoutMs_) + opt_.retire_grace_ms);
    if (!wcv_.wait_for(lock, limit, [this] { return taskDone_; })) {
      poisoned_ = true;  // the worker still runs the check
      shared_->tainted = true;
      return z3::unknown;
    }
    error = box->second;
    return box->first;
  }

  bool inZ3_ = false;  // guarded by mu_: a check is inside Z3 right now
  std::thread worker_;
  std::mutex wmu_;
  std::condition_variable wcv_;
  std::function<void()> task_;
  bool taskDone_ = false, stopWorker_ = false;
  bool poisoned_ = false;

  void requireBool(Term t) {
    if (tm_.sort(t) != Sort::Bool) throw SolverError("not a boolean term: " + tm_.toString(t));
  }

  z3::expr translate(Term t) {
    z3::expr e = tr_(t);
    for (auto& ax : tr_.takeNewAxioms()) axioms_.push_back(Axiom{ax, 0, false});
    return e;
  }

  bool java() const { return tr_.arith() == terms::Arith::Java; }

  void flushAxioms() {
    for (auto& ax : axioms_) {
      if (ax.asserted) continue;
      detail::uncancelled(ctx_, [&] { solver_.add(ax.e); });
      if (java()) detail::uncancelled(ctx_, [&] { fpSolver_.add(ax.e); });
      ax.asserted = true;
      ax.level = level_;
    }
  }

  void applyTimeout() {
    timeoutMs_ = opt_.timeout_ms;
    solver_.set("timeout", timeoutMs_ == 0 ? 4294967295u : timeoutMs_);
    fpSolver_.set("timeout", timeoutMs_ == 0 ? 4294967295u : timeoutMs_);
  }

  std::optional<Term> toLiteral(const z3::expr& val, Sort s, std::string* exact) {
    std::string dummy;
    std::string& text = exact ? *exact : dummy;
    return toLiteralIn(val, s, text, this->java());
  }

  std::optional<Term> toLiteralIn(const z3::expr& val, Sort s, std::string& text, bool java) {
    if (s != Sort::Ref) return detail::literalOfValue(tm_, val, s, text, java);
    text.clear();
    z3::expr isNull = model_->eval(val == tr_(tm_.nullRef()), true);
    if (isNull.is_true()) return tm_.nullRef();
    std::string key = val.to_string();
    auto it = refIds_.find(key);
    if (it == refIds_.end()) it = refIds_.emplace(key, refIds_.size() + 1).first;
    return tm_.lit(Sort::Ref, it->second);
  }

  terms::TermManager& tm_;
  SolverOptions opt_;
  std::shared_ptr<detail::SharedContext> shared_;
  z3::context& ctx_;
  std::unique_ptr<Z3Objects> z_;
  z3::solver& solver_;    // incremental SMT kernel: Math model, and Java queries without floats
  z3::solver& fpSolver_;  // qffpbv tactic solver: Java queries with floating point
  std::optional<z3::solver>& nlSolver_;  // qfnra-nlsat tactic solver: undecided nonlinear math queries
  detail::Translator& tr_;
  std::vector<Axiom>& axioms_;
  std::optional<z3::model>& model_;
  std::uint64_t nonlinearDecided_ = 0;
  // Math first: the same assertions over unbounded integers and reals, in a context of the
  // math-first kind (shared like the main one).
  struct MathSide {
    explicit MathSide(terms::TermManager& tm)
        : shared(detail::ContextPool::instance().acquire(detail::ContextPool::MathFirst)),
          ctx(shared->ctx),
          solver(ctx, z3::solver::simple()),
          tr(ctx, tm, terms::Arith::Math, true, false) {}
    std::shared_ptr<detail::SharedContext> shared;  // an overrun check leaks the whole MathSide, this with it
    z3::context& ctx;
    z3::solver solver;
    detail::Translator tr;
  };
  struct MathBox {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    z3::check_result result = z3::unknown;
  };
  std::unique_ptr<MathSide> math_;
  bool mathOn_ = false;
  std::uint64_t mathHits_ = 0;
  std::vector<bool> fpLevels_;  // per scope: a floating-point assertion is on the stack
  std::optional<std::unordered_map<Term, Term, terms::TermHash>> folded_;  // model_ came from folding
  std::vector<std::vector<Term>> termLevels_{std::vector<Term>{}};          // asserted terms per scope
  std::map<std::string, std::uint64_t> refIds_;
  unsigned level_ = 0;
  unsigned timeoutMs_ = 0;
  std::uint64_t checks_ = 0;
  double seconds_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  bool running_ = false;
  bool pendingInterrupt_ = false;
  bool interruptedDuring_ = false;
};

}  // namespace

std::uint64_t z3ContextsCreated() { return detail::ContextPool::instance().created(); }

std::unique_ptr<Solver> makeZ3Solver(terms::TermManager& tm, const SolverOptions& options) {
  return makeRenewingSolver([&tm, options] { return std::make_unique<Z3Solver>(tm, options); });
}

}  // namespace pasda::solver
