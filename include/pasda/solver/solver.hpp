// Solver layer: decides satisfiability of Bool terms. The interface knows nothing of Z3;
// the Z3 backend (src/solver/z3_solver.cpp) is the only place that includes z3++.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pasda/solver/status.hpp"
#include "pasda/terms/term.hpp"

namespace pasda::solver {

/// Misuse of the solver (model() without a preceding Sat check, pop() below level 0, ...).
class SolverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};


struct CheckResult {
  Status status = Status::Unknown;
  std::string reason;   // reason for Unknown ("timeout", "interrupted", "incomplete (theory arithmetic)", ...)
  double seconds = 0;   // wall time of the check
  /// Sat through math first (SolverOptions::math_first): the model is the math model's
  /// candidate, confirmed by the Java query with every input pinned to it.
  bool math_first = false;
};

/// One variable's value in a model.
struct ModelValue {
  terms::Term var;    // the Var term
  terms::Term value;  // a literal of the variable's sort (nearest double for reals that are not doubles)
  std::string exact;  // the solver's exact text when it is not a Java literal (e.g. "1/3"), else empty
};

struct Model {
  std::vector<ModelValue> values;  // sorted by variable name
  std::optional<terms::Term> lookup(terms::Term var) const;
};

struct SolverOptions {
  unsigned timeout_ms = 1000;  // per check; 0 = none
  unsigned random_seed = 0;
  /// Under Arith::Math, constrain Int/Long variables to their Java ranges, so that every
  /// witness is a valid Java input. On by default.
  bool bound_integer_inputs = true;
  /// Under Arith::Java, encode float/double % with non-literal operands exactly (through
  /// Z3's fp.rem). Off by default: Z3 4.8.12 bit-blasts fp.rem on Float64 into a circuit that
  /// took > 60 s and 1.7 GB and ignores timeouts and interrupts while being built. When off,
  /// the general case is an uninterpreted function (special cases stay exact); see
  /// docs/arithmetic-models.md.
  bool exact_fp_remainder = false;
  /// Translate the terms under this model instead of their TermManager's (issue 17: a Java
  /// run's terms checked over unbounded integers and reals, "math first", to find candidate
  /// inputs quickly). Such a solver's answers are about the other model: a Sat model is only a
  /// candidate to replay concretely under Java, an Unsat proves nothing about Java.
  std::optional<terms::Arith> model_override;
  /// Under Arith::Java, queries with floating point first ask the same query over unbounded
  /// integers and reals (math_first_ms); a model's inputs, rounded to the nearest double, are
  /// pinned in the Java query, which then mostly folds constants instead of bit-blasting. A Sat
  /// answer there is a genuine Java model; anything else falls back to the full Java query.
  /// A math Unsat is never used (issue 17, docs/arithmetic-models.md).
  bool math_first = false;
  /// Math model: a query the SMT core leaves undecided that is pure nonlinear arithmetic is
  /// given to Z3's nlsat procedure for at most this long (0: never).
  unsigned nonlinear_ms = 500;
  /// A check still inside Z3 this long after its limit is abandoned and the solver renewed
  /// (Z3 normally overshoots by < 50 ms; tests lower it to provoke a renewal).
  unsigned retire_grace_ms = 300;
  unsigned math_first_ms = 50;
  unsigned math_first_pinned_ms = 250;
};

/// An incremental solver bound to one TermManager. Not thread-safe, except interrupt().
class Solver {
 public:
  virtual ~Solver() = default;
  virtual void push() = 0;
  virtual void pop(unsigned levels = 1) = 0;
  virtual unsigned levels() const = 0;
  virtual void add(terms::Term boolTerm) = 0;
  /// Check the asserted formulas together with `assumptions` (Bool terms, not asserted).
  virtual CheckResult check(const std::vector<terms::Term>& assumptions = {}) = 0;
  /// Satisfiability of the asserted formulas together with `forall universal . body`: the
  /// variables in `universal` (Var terms) are bound by the quantifier; every other variable of
  /// `body` stays free (existential). Used by ARDiff's H1 refinement heuristic. Solvers without
  /// quantifier support answer Unknown.
  virtual CheckResult checkForall(terms::Term body, const std::vector<terms::Term>& universal) {
    (void)body;
    (void)universal;
    CheckResult r;
    r.reason = "quantifiers not supported";
    return r;
  }
  /// After a Sat check: the values of `vars` (model completion: unconstrained vars get a value).
  virtual Model model(const std::vector<terms::Term>& vars) = 0;
  /// After a Sat check: the value of an arbitrary term in the model, as a literal if possible,
  /// with the solver's exact text in `exact` when it is not representable as a Java literal.
  virtual std::optional<terms::Term> eval(terms::Term t, std::string* exact = nullptr) = 0;
  virtual void setTimeoutMs(unsigned ms) = 0;
  /// Thread-safe: make the check in flight (if any) return Unknown("interrupted") promptly.
  virtual void interrupt() = 0;
  /// The solver gave up for good: checks that ignored their limits were abandoned more often
  /// than it renews itself (the Z3 backend takes a fresh context with the same assertions
  /// twice), and every later check answers Unknown at once. An exploration stops there rather
  /// than fork on every branch.
  virtual bool retired() const { return false; }
  /// Statistics for reports.
  virtual std::uint64_t checks() const = 0;
  virtual double checkSeconds() const = 0;
};

/// The Z3 backend. The solvers one thread creates share one long-lived Z3 context (and their
/// math-first sides another); a context whose solvers are gone is pooled for the next ones. A
/// check that overruns its limit retires every solver of its context, which the returned
/// wrapper renews on a fresh context with the same assertions (docs/architecture.md,
/// "Solver contexts").
std::unique_ptr<Solver> makeZ3Solver(terms::TermManager& tm, const SolverOptions& options);

/// How many Z3 contexts this process has created so far (for tests and benchmarks).
std::uint64_t z3ContextsCreated();

}  // namespace pasda::solver

namespace pasda::solver {
/// A solver that answers Unknown to everything (for concrete runs, where every branch folds).
std::unique_ptr<Solver> makeNullSolver();
}  // namespace pasda::solver
