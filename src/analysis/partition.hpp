// Internal to analysis: classification of finished paths.
#pragma once

#include <string>
#include <vector>

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
  };
  PartitionClassifier(terms::TermManager& tm, const symexec::MethodInputs& inputs, std::string methodName,
                      Limits limits);

  /// Classify a path; the solver holds its path condition. `sameOut` receives the "outputs
  /// equal" formula of a compared path (for refinement summaries).
  PartitionResult classify(const symexec::RawPartition& p, solver::Solver& s, int index, double clock_s,
                           terms::Term* sameOut = nullptr);
  /// Input values of the last witness (aligned with the inputs; empty Term if unknown).
  const std::vector<terms::Term>& lastModel() const { return last_model_; }

 private:
  solver::Status ask(solver::Solver& s, std::vector<terms::Term> assumptions, std::string& reason);
  bool overApprox(terms::Term t) const;
  void witness(solver::Solver& s, PartitionResult& r, const symexec::RawPartition& p);
  std::string evalText(solver::Solver& s, terms::Term t);

  terms::TermManager& tm_;
  const symexec::MethodInputs& inputs_;
  std::string method_;
  Limits limits_;
  std::vector<terms::Term> last_model_;
};

}  // namespace pasda::analysis
