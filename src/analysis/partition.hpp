// Internal to analysis: classification of finished paths.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"
#include "pasda/analysis/result.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/symexec/executor.hpp"

namespace pasda::analysis {

/// A pasteable Java literal for a model value of a parameter of type `type`.
std::string javaLiteral(terms::TermManager& tm, const jvm::TypeDesc& type, terms::Term value);

class PartitionClassifier {
 public:
  struct Limits {
    unsigned solver_timeout_ms = 1000;
    symexec::Clock::time_point deadline = symexec::Clock::time_point::max();
    /// Budget of hard queries (issue 17): once the queries that ended Unknown at their limit
    /// have used this many seconds of the iteration, every later query is limited to
    /// hard_fallback_ms, so that a few hard floating-point queries cannot eat a run whose other
    /// partitions are easy. 0: no budget.
    double hard_budget_s = 0;
    unsigned hard_fallback_ms = 100;
    /// Outputs that are the same term (after normalisation; the DAG is hash-consed) are equal
    /// without a query. Under Java the reachability query of such a partition is skipped too
    /// (its path was explored, so it is feasible or undecided).
    bool skip_pc_of_identical = false;
    /// Math first (issue 17, Java runs): before the Java Neq-query, the same query over
    /// unbounded integers and reals (math_query_ms); a model is pinned as the inputs of the
    /// Java Neq-query, which then only has to evaluate. Sat there is a Java difference on this
    /// path; anything else falls back to the full Java query. A math Unsat proves nothing.
    bool math_first = false;
    unsigned math_query_ms = 100;
  };
  /// What the classifier saved (issue 17's mechanisms).
  struct Counters {
    int identical = 0;        // partitions EQ because both outputs are the same term
    int budget_limited = 0;   // queries run with the fallback limit after the budget was used
    double hard_spent_s = 0;  // seconds of queries that ended Unknown at their limit
    int math_candidates = 0;  // math first: models of the math Neq-query
    int math_confirmed = 0;   // ... that the pinned Java Neq-query confirmed (NEQ without a full query)
  };
  PartitionClassifier(terms::TermManager& tm, const symexec::MethodInputs& inputs, std::string methodName,
                      Limits limits);

  /// Classify a path; the solver holds its path condition. `sameOut` receives the "outputs
  /// equal" formula of a compared path (for refinement summaries).
  PartitionResult classify(const symexec::RawPartition& p, solver::Solver& s, int index, double clock_s,
                           terms::Term* sameOut = nullptr);
  /// Input values of the last witness (aligned with the inputs; empty Term if unknown).
  const std::vector<terms::Term>& lastModel() const { return last_model_; }
  const Counters& counters() const { return counters_; }

 private:
  solver::Status ask(solver::Solver& s, std::vector<terms::Term> assumptions, std::string& reason);
  bool overApprox(terms::Term t) const;
  void witness(solver::Solver& s, PartitionResult& r, const symexec::RawPartition& p);
  std::string evalText(solver::Solver& s, terms::Term t);
  /// Math first: input literals on which the outputs differ over the reals, or nothing.
  std::optional<std::vector<terms::Term>> mathCandidate(const symexec::RawPartition& p, terms::Term differ);

  terms::TermManager& tm_;
  const symexec::MethodInputs& inputs_;
  std::string method_;
  Limits limits_;
  std::vector<terms::Term> last_model_;
  Counters counters_;
  std::unique_ptr<solver::Solver> math_;  // math first: the run's terms under Arith::Math
};

/// The classifier's limits for a run with options `o` (the hard-query budget under Java).
PartitionClassifier::Limits classifierLimits(const Options& o, unsigned queryMs, symexec::Clock::time_point deadline);

}  // namespace pasda::analysis
