// Internal to analysis: the witness stage of one product iteration.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "iteration.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::analysis {

/// The value a replay builds for the reference parameter `name` of path `p`: null, a string or
/// an array whose elements `valueOf` gives (the solver's model; 0 where it has none). None (not
/// buildable) when the path gave it a shape a replay cannot build: an object of another class,
/// fields read, or an alias of another input. A parameter the path never touched is null.
witness::InputValue referenceInput(const symexec::RawPartition& p, const std::string& name,
                                   const std::function<std::uint64_t(terms::Term)>& valueOf);

/// Is `cls` a JDK class whose instances the JVM makes and relies on (reflection, method
/// handles, references, Class, modules, the JDK's internals)? A replay never builds one field by
/// field: such an input is not buildable.
bool vmInternalClass(const std::string& cls);

/// The value a replay builds for an input of shape `shape` on path `p` (strings, arrays,
/// objects with the fields the path read; not buildable where the shape cannot be built).
witness::InputValue shapeValue(const symexec::RawPartition& p, const symexec::InputShape& shape,
                               const std::function<std::uint64_t(terms::Term)>& valueOf);

/// The receiver (for an instance method: "this" with the fields the path read) and the
/// analysed class's static fields the path read, as a replay builds them.
witness::CallContext callContext(const symexec::RawPartition& p, bool instance,
                                 const std::function<std::uint64_t(terms::Term)>& valueOf);

/// Does the partition's path or an output read a value of the run — the clock or an identity
/// hash (symexec's "clock#" and "run#" symbols)? Two JVM runs that differ there show the run, not the
/// versions: such a difference never makes the partition NEQ.
bool partitionReadsTheRun(const terms::TermManager& tm, const symexec::RawPartition& raw);

class WitnessStage {
 public:
  WitnessStage(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
               const symexec::MethodInputs& inputs, terms::TermManager& tm);
  /// Replay or search for one classified partition; may turn it into NEQ (decided_by set).
  /// `refs`: the reference inputs of the witness (referenceInput), aligned with the inputs.
  /// `context`: its receiver and static fields (callContext).
  void process(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<terms::Term>& model,
               const std::vector<witness::InputValue>& refs = {}, const witness::CallContext& context = {});
  /// Replay every witness of the iteration in one JVM process (replay auto/jvm).
  void replayAllInJvm(IterationResult& it);
  /// For partitions whose terms contain abstractions (MAYBE_REACHABLE paths, UIF outputs): the
  /// iteration's exploration options (abstractions are dropped here) and the product's run
  /// arguments, to confirm a replayed difference on the concrete path without abstraction.
  /// The witness inputs of partition `index` as literals (the found ones when a search decided
  /// it), empty if it has none.
  std::vector<terms::Term> witnessTerms(int index) const;
  void enableConcreteSearch(const symexec::ExecOptions& eo, const std::vector<terms::Term>& run_args);

 private:
  /// Sample inputs and replay the product concretely; a difference (confirmed in the math
  /// model on the unabstracted path at high precision) proves NEQ. Returns the witness or nothing.
  /// `ascending`: inputs of growing magnitude first (searches past the depth limit).
  std::optional<std::vector<witness::InputValue>> searchByReplay(const std::vector<terms::Term>& model,
                                                                 symexec::Clock::time_point deadline,
                                                                 analysis::Replay& rep, bool ascending = false);
  /// A partition cut by the depth limit: inputs sampled around its model are run through the
  /// concrete product, which no depth limit cuts; a confirmed difference makes it NEQ.
  /// A witness the interpreter cannot replay (objects, statics, heap effects): queued for the JVM.
  void queueForJvmOnly(const PartitionResult& r, const std::vector<terms::Term>& model,
                       const std::vector<witness::InputValue>& refs, const witness::CallContext& context, bool effects);
  /// A difference a search found: the partition becomes NEQ with that witness.
  void recordFound(PartitionResult& r, Replay rep, const std::vector<witness::InputValue>& found);
  void searchBeyondTheLimit(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<terms::Term>& model);
  /// The unabstracted product path of `vals` confirms a difference at high precision.
  bool confirmOnConcretePath(const std::vector<witness::InputValue>& vals, symexec::Clock::time_point deadline);

  /// The distinct calls among jvm_inputs_ (witness::callKey), and which one each entry is.
  struct JvmCalls {
    std::vector<std::vector<witness::InputValue>> inputs;
    std::vector<witness::CallContext> contexts;
    std::vector<std::size_t> call_of;  // per jvm_inputs_ entry: its index in inputs
  };
  JvmCalls distinctJvmCalls() const;
  /// Runs `calls` in a JVM over the classes written to `dir` (the versions' class paths when
  /// they have them); nullopt when no JVM could run them.
  std::optional<std::vector<Replay>> runJvmCalls(const std::string& dir, const JvmCalls& calls);
  /// What a JVM replay of partition `p`'s witness says about it: NEQ when two judged runs differ
  /// under Java's semantics, MAYBE_NEQ when a solver NEQ runs to equal outputs; the replay joins
  /// the partition's evidence with its notes.
  void judgeJvmReplay(PartitionResult& p, Replay rep) const;

  void addJvmInputs(int index, std::vector<witness::InputValue> args, const witness::CallContext& context = {});
  void warmUpJvm();
  std::vector<witness::InputValue> valuesOf(const std::vector<terms::Term>& model) const;
  witness::SearchProblem problem(const symexec::RawPartition& raw, symexec::Clock::time_point deadline,
                                 const std::vector<terms::Term>& seed) const;

  const IterationEnv& env_;
  const symexec::MethodInputs& inputs_;
  terms::TermManager& tm_;
  witness::ReplayEnv renv_;
  bool enabled_ = true;
  bool has_references_ = false;  // an input is a reference: witnesses are replayed in the JVM only
  double search_left_s_ = 0;
  double deep_search_left_s_ = 0;  // searches past the depth limit (TimePolicy::deep_search_share)
  /// Inputs to replay in the JVM: (partition index, arguments); contexts_ aligned with it.
  std::vector<std::pair<int, std::vector<witness::InputValue>>> jvm_inputs_;
  std::vector<witness::CallContext> contexts_;
  bool instance_ = false;  // an instance method: witnesses need a receiver (JVM replay only)
  std::set<int> results_only_;  // partitions with heap effects: the JVM replay compares their results only
  /// Partitions whose path or outputs read the clock or an identity hash (a function of the
  /// run): two JVM runs that differ there show the run, not the versions.
  std::set<int> run_dependent_;
  const symexec::Program* program_ = nullptr;
  const symexec::MethodInfo* run_ = nullptr;
  std::optional<symexec::ExecOptions> concrete_eo_;
  std::vector<terms::Term> run_args_;
  std::uint64_t samples_ = 0;
  /// The run's own JVM, started when the first witness is queued for it (when the options
  /// bring no session, e.g. a release worker's): it boots while the exploration and the
  /// explanations go on, and replayAllInJvm finds it ready.
  std::unique_ptr<witness::JvmSession> own_jvm_;
};

}  // namespace pasda::analysis
