// Internal to analysis: the prepared product and the iteration runners of the four tools.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "abstraction.hpp"
#include "pasda/core/version.hpp"
#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/diff.hpp"
#include "pasda/product/product.hpp"
#include "pasda/symexec/executor.hpp"

namespace pasda::analysis {

/// The two versions renamed for loading side by side, and the generated product.
struct Prepared {
  std::string name, descriptor;     // the compared method
  jvm::ClassFile old_cls, new_cls;  // renamed copies
  std::string old_name, new_name, product_name;
  std::string orig_old_name, orig_new_name;
  std::string run_descriptor, old_descriptor, new_descriptor;  // product run; method in each renamed version
  bool is_static = true, is_constructor = false;
  product::ProductClasses product;
  std::shared_ptr<jvm::ClassPath> old_classpath, new_classpath;
  jvm::ClassFile orig_old, orig_new;  // as given (for the matcher)
};

Prepared prepare(const Version& oldV, const Version& newV, const std::string& method);
/// Write the product, its exception class and the renamed versions under `dir`; returns the product's dotted name.
std::string writePrepared(const Prepared& p, const std::string& dir);

struct IterationEnv {
  const Options* options = nullptr;
  Prepared prepared;
  symexec::Clock::time_point deadline;
  symexec::Clock::time_point run_start;
  RunMonitor* monitor = nullptr;
  /// The explorations' warnings (unmodelled calls, paths cut and why), collected for the run.
  std::set<std::string> warnings;
  pasda::PerVersion<std::string> source_file;  // each version's source file when found next to its classes, else ""
};

/// What an iteration abstracts: unchanged regions (by id) and identical helpers.
struct Abstraction {
  std::set<int> regions;          // ids of diff::Region
  std::set<std::string> helpers;  // "name:descriptor" of helpers of the analysed class
  bool empty() const { return regions.empty() && helpers.empty(); }
};

/// How often each abstraction occurs in the outputs of an iteration's partitions (for H2)
/// and whether it occurs in an undecided or non-equivalent partition.
struct UifUsage {
  std::map<AbstractionId, int> in_old, in_new;  // abstraction -> distinct applications
  std::set<AbstractionId> in_undecided;         // those in partitions that are not EQ/UNREACHABLE
  std::set<AbstractionId> h1;                   // H1 candidates (equivalenceEnablingAbstractions)
  std::set<AbstractionId> seen;
};

/// Distinct applications of each abstraction of `index` in the term `root`, added to `counts`.
void countAbstractions(const terms::TermManager& tm, const AbstractionIndex& index, terms::Term root,
                       std::map<AbstractionId, int>& counts);

/// Time limits of the H1 queries of one iteration: each query, and all of them (a fifth of the
/// run's time left, at most 3 s).
unsigned h1QueryMs(const Options& o);
symexec::Clock::time_point h1Deadline(const IterationEnv& env);

/// ARDiff's H1 (reference §11.6), done with a real quantified query: every application of an
/// abstraction or library function in the two summaries becomes a fresh constant, and an
/// abstraction K (one of `index`'s) is
/// a candidate when `forall (inputs, other constants) . summaryOld <=> summaryNew` is
/// satisfiable with K's constants free, i.e. some values of K's applications make the versions
/// equivalent whatever the rest is. Queries are bounded by `per_query_ms` each and stop at
/// `deadline`; an undecided query does not make a candidate.
std::set<AbstractionId> equivalenceEnablingAbstractions(terms::TermManager& tm, solver::Solver& solver,
                                                        const AbstractionIndex& index,
                                                        terms::Term summaryOld, terms::Term summaryNew,
                                                      unsigned per_query_ms, symexec::Clock::time_point deadline);

/// Run the iterations of the selected tool, appending to run.iterations and run.steps.
void runTool(IterationEnv& env, RunResult& run);

/// The run's class, reported iteration and flags from its iterations (docs/classification.md).
void classifyRun(RunResult& run);
/// The reported iteration (classify::reportedIteration) and the run's result, depth-limited
/// and UIF flags from it; false when the run has no iteration.
bool applyReportedIteration(RunResult& run);

/// runTool and classifyRun, then, with Options::deepen, deeper rounds while the result rests on
/// paths cut by the depth limit and time remains (deepen.cpp, docs/depth-limit.md).
void runRounds(IterationEnv& env, RunResult& run);

/// What one iteration does besides exploring the code as it is.
struct IterationPlan {
  int index = 1;
  const diff::MatchResult* match = nullptr;  // the unchanged regions `abs` names (null: none)
  Abstraction abs;                           // what is abstracted
  UifUsage* usage = nullptr;                 // where the abstractions occur, for the refinement (null: not counted)
  /// Induction (issue 13): loops of the two versions related by coupling invariants. Such an
  /// iteration is a proof attempt only: no witness replay, search or explanation.
  std::vector<symexec::CoupledLoop> coupled;
  /// The recursion rule (issue 13): the compared method's recursive calls, in both versions,
  /// are one shared function of their arguments. Also a proof attempt only.
  bool shared_recursion = false;
};

/// The steps of one iteration, which runIteration takes in order: every tool's iteration is
/// one of these kinds (the product program's or the two summaries').
class IterationKind {
 public:
  virtual ~IterationKind() = default;
  /// Terms, solver, program and exploration options; what is abstracted goes into it.uifs
  /// (the initialization step).
  virtual void setUp(IterationResult& it) = 0;
  /// Explore and classify, adding the time of each step to `steps`.
  virtual void explore(IterationResult& it, StepTimes& steps) = 0;
  /// The iteration's class (also after an error in the steps before).
  virtual void finish(IterationResult& it) = 0;
};

/// The skeleton every iteration follows: set up, tell the monitor, explore, finish; the time
/// of each step counted, an exception of any step recorded as the iteration's error.
IterationResult runIteration(IterationEnv& env, IterationKind& kind, int index, StepTimes& steps);

/// One iteration of a partition-based tool (product program).
IterationResult runProductIteration(IterationEnv& env, const IterationPlan& plan, StepTimes& steps);

/// One iteration of a summary-based tool (ARDiff, DSE): each version on its own, one query.
IterationResult runSummaryIteration(IterationEnv& env, const IterationPlan& plan, StepTimes& steps);

/// What decided the run's EQ or NEQ result (RunResult::decided_by).
std::string decidingMechanism(const RunResult& run, const Options& o);

/// Induction (issue 13, docs/depth-limit.md "Coupled loops"): the outermost loops of the
/// compared method that may be coupled, in pairs (empty: none, or not as many in both versions).
/// `why`, if given, says why there are none (empty when the method has no loop).
/// Loops inside the regions `abs` abstracts are left out; calls of its helpers are allowed in them.
std::vector<symexec::CoupledLoop> couplableLoops(const Prepared& p, const diff::MatchResult* match,
                                                 const Abstraction& abs, std::string* why = nullptr);
/// Before the tool's iterations: try to prove the run EQ with its loops coupled, within a share
/// of the time. true: proved (the run holds that iteration); false: the tool runs as usual.
/// Add every step's time of `from` to `to`.
void addSteps(StepTimes& to, const StepTimes& from);
bool proveByInduction(IterationEnv& env, RunResult& run);
/// The recursion rule (RVT, issue 13): when the compared method is recursive and only computes
/// a value from primitive arguments in both versions, its recursive calls in both become one
/// shared function; if the versions are then EQ on every partition, they are partially
/// equivalent (by induction over the depth of recursion). True when proved (run holds the
/// proof); false leaves the run to the other mechanisms, with a note on the attempt.
bool proveByRecursion(IterationEnv& env, RunResult& run);

/// ARDiff's refinement (H1-H3 as documented in docs/refinement.md): the abstraction to make
/// concrete next, or nullopt when nothing is left.
std::optional<AbstractionId> chooseRefinement(const Abstraction& abs, const diff::MatchResult& match, const UifUsage& usage);

// Shared by both iteration kinds.
/// `d` (a descriptor) with class `from` renamed `to`: the analysed class's own descriptors as
/// the product's renamed copy of it declares them ("(C)La/B;" -> "(C)La/B$V1;").
std::string renameDescriptor(std::string d, const std::string& from, const std::string& to);
/// "name:descriptor" with the descriptor renamed likewise.
std::string renameMember(const std::string& member, const std::string& from, const std::string& to);
/// A witness as a call users paste: "method(a, b)" (`args` already written as Java).
std::string javaCall(const std::string& method, const std::vector<std::string>& args);
/// The same with the witness values' literals.
std::string javaCall(const std::string& method, const std::vector<WitnessValue>& args);
/// The exploration options both iteration kinds share: depth limit, the exploration's deadline
/// (the run's less the time policy's margins; `jvmMargin`: also the JVM replay's), the
/// feasibility query's limit under solver timeout `solverTimeoutMs`, the array-length bound.
symexec::ExecOptions baseExecOptions(const IterationEnv& env, unsigned solverTimeoutMs, bool jvmMargin);
void loadProgram(const IterationEnv& env, symexec::Program& program);
void setHeapOptions(const IterationEnv& env, symexec::ExecOptions& eo);
/// Hooks for the abstractions of `abs` in `eo` (function symbols from `index`), described in it.uifs.
void applyAbstraction(const IterationEnv& env, const diff::MatchResult* match, const Abstraction& abs,
                      AbstractionIndex& index, symexec::ExecOptions& eo, IterationResult& it);
/// Count distinct applications of abstraction symbols in `t` per abstraction key.
void countAbstractions(const terms::TermManager& tm, terms::Term t, std::map<std::string, int>& counts);

}  // namespace pasda::analysis
