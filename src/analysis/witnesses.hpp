// Internal to analysis: the witness stage of one product iteration.
#pragma once

#include <utility>
#include <vector>

#include "iteration.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::analysis {

class WitnessStage {
 public:
  WitnessStage(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
               const symexec::MethodInputs& inputs, terms::TermManager& tm);
  /// Replay or search for one classified partition; may turn it into NEQ (decided_by set).
  void process(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<terms::Term>& model);
  /// Replay every witness of the iteration in one JVM process (replay auto/jvm).
  void replayAllInJvm(IterationResult& it);

 private:
  std::vector<witness::InputValue> valuesOf(const std::vector<terms::Term>& model) const;
  witness::SearchProblem problem(const symexec::RawPartition& raw, symexec::Clock::time_point deadline,
                                 const std::vector<terms::Term>& seed) const;

  const IterationEnv& env_;
  const symexec::MethodInputs& inputs_;
  terms::TermManager& tm_;
  witness::ReplayEnv renv_;
  bool enabled_ = true;
  double search_left_s_ = 0;
  std::vector<std::pair<int, std::vector<witness::InputValue>>> jvm_inputs_;
};

}  // namespace pasda::analysis
