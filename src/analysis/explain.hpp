// Internal to analysis: the explanation of NEQ partitions (issue 14) — a minimal correction
// set over the changed code, found by re-running the product on the witness with the changed
// lines' values relaxed (docs/explain.md).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "iteration.hpp"

namespace pasda::analysis {

class Explainer {
 public:
  /// `eo` and `run_args`: the iteration's exploration (its abstractions are dropped here).
  Explainer(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
            const symexec::MethodInputs& inputs, terms::TermManager& tm, const symexec::ExecOptions& eo,
            std::vector<terms::Term> run_args);
  /// Fill r.causes (or r.cause_note) of a NEQ partition whose witness is `model` (the input
  /// values, aligned with the inputs) and `statics` (the entry values of the static fields the
  /// path read: variable, literal). Never changes the verdict.
  void explain(PartitionResult& r, const std::vector<terms::Term>& model,
               const std::vector<std::pair<terms::Term, terms::Term>>& statics = {});

 private:
  struct Group {
    diff::ChangedLine line;
    terms::Term indicator;  // b_g: the group's values are free
  };
  void plan();
  void relax(const symexec::StepView& v);
  /// The relaxed product on the witness's literal arguments: OR over its compared paths of
  /// (pc && outputs equal).
  std::optional<terms::Term> relaxedRun(const std::vector<terms::Term>& args, const std::vector<terms::Term>& assumptions,
                                        symexec::Clock::time_point deadline, std::string& note);
  /// Do the outputs become equal when exactly the groups of `set` are relaxed?
  solver::Status corrects(terms::Term f, const std::vector<std::size_t>& set, symexec::Clock::time_point deadline);
  /// Is `q` true under values for its variables read off its equalities (checked by folding)?
  bool guessedModel(terms::Term q);
  static constexpr int kMaxChecks = 64;  // candidate sets per partition
  static constexpr int kMaxPaths = 64;   // paths of a relaxed run
  /// Up to three minimal sets of group indices, smallest first.
  std::vector<std::vector<std::size_t>> minimalSets(terms::Term f, symexec::Clock::time_point deadline,
                                                    std::string& note);
  Cause causeOf(const std::vector<std::size_t>& set);
  std::string sourceText(pasda::Version side, const std::vector<int>& lines);

  const IterationEnv& env_;
  const symexec::Program& program_;
  const symexec::MethodInfo& run_;
  const symexec::MethodInputs& inputs_;
  terms::TermManager& tm_;
  symexec::ExecOptions eo_;
  std::vector<terms::Term> run_args_;
  solver::Solver& solver();
  std::unique_ptr<solver::Solver> solver_;  // relaxed runs and candidate checks, reused
  std::unique_ptr<solver::Solver> none_;    // relaxed runs under Java arithmetic
  double budget_s_ = -1, spent_s_ = 0;   // the iteration's explanation budget and its use
  bool planned_ = false;
  std::string plan_note_;
  std::vector<Group> groups_;
  /// side -> "name:descriptor" (as loaded, renamed) -> pc -> group index
  symexec::PerSide<std::map<std::string, std::map<std::uint32_t, std::size_t>>> at_;
  pasda::PerVersion<bool> source_loaded_;
  pasda::PerVersion<std::vector<std::string>> source_lines_;  // source file lines per version, loaded once
};

/// The "outputs equal" formula of a compared path (shared with the partition classifier).
terms::Term outputsEqual(terms::TermManager& tm, const symexec::RawPartition& p);

}  // namespace pasda::analysis
