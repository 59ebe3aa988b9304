// Solver layer: constrained Horn clauses over one unknown relation, solved by Z3's Spacer engine
// (issue 13: coupling invariants that are inequalities and disjunctions). Callers see terms
// only; the invariant Spacer finds is read back as Bool terms over the relation's variables.
#pragma once

#include <string>
#include <vector>

#include "pasda/solver/status.hpp"
#include "pasda/terms/term.hpp"

namespace pasda::solver {

/// A system of Horn clauses over one unknown relation Inv(vars). Every variable of a clause other
/// than `vars` is universally quantified in that clause (an arbitrary value each time).
///   init                        -> Inv(vars)     for each init formula
///   Inv(vars) && step.guard     -> Inv(step.post) for each step (post: one term per var)
///   Inv(vars) && bad            -> false          for each bad formula
struct HornProblem {
  std::vector<terms::Term> vars;  // Var terms of sort Int, Long, Float or Double
  std::vector<terms::Term> init;
  struct Step {
    terms::Term guard;
    std::vector<terms::Term> post;
  };
  std::vector<Step> steps;
  std::vector<terms::Term> bad;
};

struct HornAnswer {
  /// Sat: an invariant was found (no bad formula is reachable); Unsat: a bad formula is
  /// reachable; Unknown: neither within the time (or the clauses are outside what Spacer solves).
  Status status = Status::Unknown;
  /// Sat: the invariant's top-level conjuncts that could be read back as terms over `vars`
  /// (a conjunct with a nonlinear or out-of-range part is left out: a weaker relation).
  std::vector<terms::Term> invariant;
  std::string reason;  // Unknown: why
  double seconds = 0;
};

/// Solve `p` with Spacer, in the calling thread's shared Z3 context, under `arith` (the math
/// model — unbounded integers and reals — suits Spacer best; its answer is then only a
/// candidate for the analysed arithmetic and must be checked there). `timeout_ms` bounds the time (0: none).
HornAnswer solveHorn(terms::TermManager& tm, const HornProblem& p, unsigned timeout_ms,
                     terms::Arith arith = terms::Arith::Math);

}  // namespace pasda::solver
