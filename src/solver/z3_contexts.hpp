// The Z3 contexts the solvers share (docs/architecture.md, "Solver contexts"): one per thread
// and kind, pooled when their solvers are gone, tainted by a check that overran its limit.
#pragma once

#include <z3++.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pasda::solver::detail {

// Creating a Z3 context is expensive on this kind of machine: its constructor fills two hash
// tables of 8 MB each, and first-touching that fresh memory costs 40-60 ms per context in this
// virtual machine (docs/architecture.md, "Solver contexts") — most of a short run, which makes
// a dozen solvers (classification and branch feasibility per iteration, one per proof attempt,
// and under Java arithmetic a math-first side for each). So the solvers that one thread
// creates share one context (the solver kind `Main`, and the math-first sides their own), and
// a context whose solvers are all gone goes back to a pool for the next thread or run.
//
// Sharing is safe because a thread uses its solvers one at a time: a check runs on the
// solver's worker thread while its caller waits. The one exception is a check that ignores
// its limit: the solver running it retires with its worker still inside Z3, and the context
// is *tainted* — every other solver on it retires too at its next call (the renewing wrapper
// moves it to a fresh context), leaks its Z3 objects instead of freeing them, and the context
// is never reused.
struct SharedContext {
  z3::context ctx;
  std::atomic<bool> tainted{false};
};

class ContextPool {
 public:
  enum Kind { Main = 0, MathFirst = 1 };

  /// The calling thread's current context of `kind` (a pooled or new one when it has none
  /// or it is tainted).
  std::shared_ptr<SharedContext> acquire(Kind kind);
  std::uint64_t created() const { return created_; }

  static ContextPool& instance();

 private:
  void release(SharedContext* c);
  static constexpr std::size_t kKeep = 4;
  std::atomic<std::uint64_t> created_{0};
  std::mutex mu_;
  std::vector<std::unique_ptr<SharedContext>> free_;
  std::map<std::pair<std::thread::id, int>, std::weak_ptr<SharedContext>> current_;
};

/// Runs `op`, one push, pop or assertion. An interrupt meant for a check that has already
/// returned leaves the context's cancel flag set until the next check starts (its own solver's
/// or, in a shared context, a neighbour's), and Z3 then refuses a push ("push canceled"): a
/// trivial check clears the flag and `op` runs again (measured: the flag survives until a check).
template <class Op>
void uncancelled(z3::context& ctx, Op&& op) {
  for (int attempt = 0;; ++attempt) {
    try {
      op();
      return;
    } catch (const z3::exception& e) {
      if (attempt >= 3 || std::string(e.msg()).find("cancel") == std::string::npos) throw;
      try {
        z3::solver scratch(ctx, z3::solver::simple());
        (void)scratch.check();
      } catch (const z3::exception&) {
      }
    }
  }
}

/// Whether `goal` is pure nonlinear integer/real arithmetic: no quantifier, no function symbol
/// with arguments, only Bool, Int and Real terms (what qfnra-nlsat can decide).
bool pureArithmetic(const z3::expr_vector& goal);

}  // namespace pasda::solver::detail
