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
#include "pasda/witness/witness.hpp"

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
  };
  /// What the classifier saved (issue 17's mechanisms).
  struct Counters {
    int identical = 0;        // partitions EQ because both outputs are the same term
    int budget_limited = 0;   // queries run with the fallback limit after the budget was used
    double hard_spent_s = 0;  // seconds of queries that ended Unknown at their limit
    int math_confirmed = 0;   // Neq-queries Sat through math first (SolverOptions::math_first)
  };
  PartitionClassifier(terms::TermManager& tm, const symexec::MethodInputs& inputs, std::string methodName,
                      Limits limits);

  /// Classify a path; the solver holds its path condition. `sameOut` receives the "outputs
  /// equal" formula of a compared path (for refinement summaries).
  PartitionResult classify(const symexec::RawPartition& p, solver::Solver& s, int index, double clock_s,
                           terms::Term* sameOut = nullptr);
  /// Input values of the last witness (aligned with the inputs; empty Term if unknown).
  const std::vector<terms::Term>& lastModel() const { return last_model_; }
  /// The reference inputs of the last witness as a replay builds them (aligned with the
  /// inputs; primitives and shapes a replay cannot build are not buildable()).
  const std::vector<witness::InputValue>& lastReferenceInputs() const { return last_refs_; }
  /// The receiver and static fields of the last witness as a replay builds them.
  const witness::CallContext& lastContext() const { return last_context_; }
  /// Whether the analysed method is an instance method (witnesses get a receiver), and the
  /// analysed class's internal name (how witnesses name it).
  void setOwner(bool instance, std::string cls) {
    instance_ = instance;
    class_ = std::move(cls);
  }
  const Counters& counters() const { return counters_; }

 private:
  solver::Status ask(solver::Solver& s, std::vector<terms::Term> assumptions, std::string& reason);
  /// The partition's rendered path condition, effects, lines (no query).
  PartitionResult describe(const symexec::RawPartition& p, int index, double clock_s) const;
  /// A path that reached the comparison: the Neq, Eq and PC queries. true: decided without a
  /// reachability query (identical outputs), `r` is final.
  bool compareOutputs(const symexec::RawPartition& p, solver::Solver& s, PartitionResult& r,
                      classify::PartitionFacts& facts, std::string& reason, terms::Term* sameOut);
  /// What differs under the Neq model: the result and each compared piece of state.
  void nameDifference(solver::Solver& s, const symexec::RawPartition& p, PartitionResult& r, terms::Term v1,
                      terms::Term v2);
  bool overApprox(terms::Term t) const;
  void witness(solver::Solver& s, PartitionResult& r, const symexec::RawPartition& p);
  std::string evalText(solver::Solver& s, terms::Term t);

  terms::TermManager& tm_;
  const symexec::MethodInputs& inputs_;
  std::string method_;
  Limits limits_;
  std::vector<terms::Term> last_model_;
  std::vector<witness::InputValue> last_refs_;
  witness::CallContext last_context_;
  bool instance_ = false;
  std::string class_;
  Counters counters_;
  bool last_math_first_ = false;  // the last check's Sat came from math first
};

/// The classifier's limits for a run with options `o` (the hard-query budget under Java).
PartitionClassifier::Limits classifierLimits(const Options& o, unsigned queryMs, symexec::Clock::time_point deadline);

}  // namespace pasda::analysis
