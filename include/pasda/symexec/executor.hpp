// The symbolic JVM interpreter: depth-first exploration of a method's paths with
// incremental feasibility checks, a per-path depth budget and a hard deadline. Each finished
// path is handed to a consumer as a partition while the solver still holds its path
// condition, so the consumer can ask further queries cheaply.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "pasda/solver/solver.hpp"
#include "pasda/symexec/program.hpp"
#include "pasda/terms/term.hpp"

namespace pasda::symexec {

using Clock = std::chrono::steady_clock;

/// An abstracted region: when execution of `method` (owner.name:descriptor, in the given
/// side) reaches start_pc, every output local gets `output_fns[i](inputs...)`, a function
/// symbol of kind Uif shared by both versions, and execution continues at exit_pc.
struct RegionHook {
  Side side = kOld;
  std::string method;  // "owner.name:descriptor" with the (renamed) owner class
  std::uint32_t start_pc = 0, exit_pc = 0;
  std::vector<std::pair<int, char>> inputs;   // (slot, descriptor letter)
  std::vector<std::pair<int, char>> outputs;
  std::vector<std::string> output_fns;        // the function symbol of each output, aligned with outputs
};

/// A loop replaced by shared uninterpreted functions (issue 13, RVT's rule for identical code):
/// reached at its header, the rest of its run is a function of the locals it reads and of the
/// contents of the arrays its reference locals hold (their side-neutral identities). One
/// function gives the outcome (which exit, return or exception), one per written local its
/// value at the exit, one per return instruction the value returned; the names are shared by
/// both versions, so equal states give equal outcomes. Only loops of code identical in both
/// versions whose effect these functions describe completely (src/diff/loops.cpp).
struct LoopSummaryHook {
  std::uint32_t header_pc = 0;
  std::string fn;                                   // shared name, e.g. "loop:a/B.f(I)I#3"
  std::vector<std::pair<int, char>> reads;          // primitive local slots (I, J, F, D)
  std::vector<int> ref_reads;                       // reference local slots
  std::vector<std::pair<int, char>> writes;         // primitive locals written in the loop
  std::vector<std::uint32_t> exits;                 // pcs after the loop
  std::vector<std::pair<std::uint32_t, char>> returns;  // return instructions inside (pc, kind)
  std::vector<std::string> exceptions;              // what it may throw (internal names)
  bool stores_arrays = false;  // it may store into the primitive arrays its reference locals hold
  // (ref slot, field, descriptor): primitive fields, and fields holding one-dimensional primitive arrays
  std::vector<std::tuple<int, std::string, std::string>> field_reads;
  // (ref slot, field, descriptor): primitive fields it writes (each a function of the arguments where it ends)
  std::vector<std::tuple<int, std::string, std::string>> field_writes;
  bool reads_objects = false;  // it reads strings, boxes or reference arrays' elements (diff::LoopSummary)
  bool calls_helpers = false;  // it calls static helpers of its class (diff::LoopSummary)
  bool changes_library_objects = false;  // it calls BitSet/StringBuilder/StringBuffer methods on its locals (diff::LoopSummary)
  bool calls_bitsets = false;            // ... BitSet's among them (diff::LoopSummary)
  bool calls_on_receivers = false;  // it calls CharSequence.charAt/length or Random.next* on its locals (diff::LoopSummary)
  bool iae_from_lengths_only = true;  // its IllegalArgumentException comes from Array.getLength only (diff::LoopSummary)
  bool own_code_only = false;  // the method's own code is identical in both versions, not its whole closure
};

/// A loop of the old version and a loop of the new one of the compared method that may run in
/// lock step (issue 13, docs/depth-limit.md "Coupled loops"). In the exploration, each version's
/// run of its loop is replaced by functions of what it reads (its own, not shared), and when the
/// new version reaches its loop, a coupling invariant over both loops' variables — equalities,
/// constant offsets and constants that hold at the two entries on the path — is checked to be
/// inductive over one iteration of both bodies (a Houdini fixpoint, ExecOptions::proof_solver);
/// the part of it that holds at the exits then relates the two loops' results. A path where no
/// invariant is found is cut (as by the depth limit): such a run proves nothing.
struct CoupledLoop {
  int pair = 0;                      // the pair's number (function names, reports)
  PerVersion<std::string> method;    // "owner.name:descriptor" of the compared method (renamed owner)
  PerVersion<LoopSummaryHook> loop;  // header, locals read and written, exits, returns, exceptions
};

/// The top frame of a version just before one of its instructions executes (see
/// ExecOptions::before_step).
struct StepView {
  Side side = kOld;
  const MethodInfo* method = nullptr;
  const jvm::Instruction* insn = nullptr;
  std::vector<terms::Term>* stack = nullptr;   // operand stack, top last (one entry per value)
  std::vector<terms::Term>* locals = nullptr;  // local slots
  std::uint64_t step = 0;                      // instructions so far on the path
};

struct ExecOptions {
  int depth_limit = 10;                  // counted branch decisions per path (docs/depth-limit.md)
  Clock::time_point deadline = Clock::time_point::max();
  unsigned solver_timeout_ms = 1000;     // per feasibility query (capped by the deadline)
  int max_array_length = 8;              // symbolic array lengths are explored up to this bound
  std::uint64_t max_steps_per_path = 2'000'000;  // instruction budget of one path (then cut)
  std::size_t max_call_depth = 400;               // frames; deeper recursion without decisions is cut
  /// The product class whose sameErrors/sameResults calls end a partition ("" = none: a path
  /// ends when the entry method returns or throws).
  std::string product_class;
  /// Invocations of these methods (owner.name:descriptor) become applications of the mapped
  /// function symbol, of kind Helper, instead of being executed (identical helpers).
  std::map<std::string, std::string> abstracted_methods;
  /// The recursion rule (issue 13): calls of these methods (owner.name:descriptor) made by the
  /// old or new version's code — not the product's calls of the versions — become applications
  /// of the mapped function symbol, shared by the two versions' recursive methods. A proof
  /// attempt only: see docs/depth-limit.md, "Recursion".
  std::map<std::string, std::string> shared_recursion;
  /// Regions replaced by function symbols (see RegionHook).
  std::vector<RegionHook> regions;
  const std::atomic<bool>* cancel = nullptr;  // optional external cancel flag
  /// Optional: the exploration ends (as cut by its deadline) once Clock::now() passes this
  /// time, in Clock ticks since its epoch; 0 = not set. The sink may set it while the
  /// exploration runs (the settle rule, src/analysis/product_iteration.cpp).
  const std::atomic<std::int64_t>* stop_at = nullptr;
  /// Called before every instruction of the old and new versions (never the product's) with
  /// the top frame, which it may change: the explanation of a difference (issue 14,
  /// src/analysis/explain.cpp) relaxes the operands of changed code there. A forked copy runs
  /// an instruction again, so the hook must be idempotent on what it already changed.
  std::function<void(const StepView&)> before_step;
  /// Input heap: objects per class reachable from the receiver and reference parameters are
  /// materialised lazily (null / fresh / alias) up to this many per class; paths that need
  /// more are cut like depth-limited ones.
  int heap_bound = 2;
  /// The analysed class of each side (renamed); they correspond to each other, their static
  /// fields are compared, and their <clinit> runs before the product's run.
  PerSide<std::string> main_class;
  /// Non-final static fields of the analysed classes that both versions declare hold arbitrary
  /// (shared) values at entry, not only what <clinit> put there (docs/heap.md).
  bool static_inputs = true;
  /// What the versions print to System.out/System.err is compared like their results.
  bool compare_output = true;
  /// Is the method owner.name:descriptor (as the side's code names it: the analysed class by
  /// its renamed name) the same function of its arguments in both versions? A lambda whose
  /// body is one is shared between the versions; others are each version's own code. Empty:
  /// no lambda is shared. `types` lists the other descriptors of the site: the instantiated
  /// method type and the call site's own (what the lambda captures).
  std::function<bool(Side side, const std::string& owner, const std::string& name, const std::string& descriptor,
                     const std::vector<std::string>& types)>
      shared_lambda;
  /// Does a call of program code that the engine cannot follow (an abstract method on an
  /// input receiver, ...) reach the same code in both versions, every override included
  /// (diff::ClosureOracle::callIdentical)? Then its result is one function shared by the
  /// versions; otherwise each version's call is its own. Empty: never shared.
  std::function<bool(Side side, const std::string& owner, const std::string& name, const std::string& descriptor,
                     bool dispatches)>
      shared_call;
  /// May a subclass in the analysed path override owner.name:descriptor (as the side names
  /// it)? Then a call on an input object declared `owner` may run the override, not the code
  /// the engine resolves: the path forks on whether the object is exactly of that class.
  /// Empty: no override is known (two lone class files: no other class).
  std::function<bool(Side side, const std::string& owner, const std::string& name, const std::string& descriptor)>
      overridden;
  /// Elements of one array / of all arrays on a path held as terms; larger allocations cut the
  /// path (a state is copied at every fork). The concrete mode raises both (one path, no forks).
  /// The summarised loops of a method of the old or new version (empty: none), asked once per
  /// method the exploration enters. Null: no loop is summarised.
  std::function<std::vector<LoopSummaryHook>(Side side, const MethodInfo& m)> loop_summaries;
  std::size_t max_array_elements = 1 << 16;
  std::size_t max_path_elements = 1 << 20;
  /// Loops of the two versions to couple (see CoupledLoop); they need `proof_solver`, a solver
  /// of the same term manager other than the exploration's, for the inductiveness queries.
  std::vector<CoupledLoop> coupled_loops;
  solver::Solver* proof_solver = nullptr;
  /// Executor::exploreFrom: a path of the entry frame ends when it reaches one of these pcs
  /// after its first instruction (RawPartition::stopped_at).
  std::vector<std::uint32_t> stop_at_pcs;
  /// Take both directions of every branch the constants do not decide, without a feasibility
  /// query (paths may be infeasible: for explorations whose paths a later query filters, such
  /// as a loop body's from a symbolic header state).
  bool assume_feasible = false;
  /// One path only (the concrete mode): a branch that the constants do not decide ends the
  /// exploration there (ExecStats::forked), instead of queueing both directions. A concrete
  /// run through an unmodelled call in a loop (`while (g.getParent() != null)`) would
  /// otherwise follow one direction of the call's unknown result until its deadline.
  bool single_path = false;
};

/// What one version (or the entry method) did on a path.
struct ExecEffect {
  enum class Kind : std::uint8_t { None, Return, Void, Throw };
  Kind kind = Kind::None;
  terms::Term value;      // Return
  std::string exception;  // Throw: internal class name
  /// Final state observed besides the return value: (path such as "this.count", value).
  std::vector<std::pair<std::string, terms::Term>> state;
};

/// The access path of field `field` of the input at `path` of class `cls`: "path.field", but a
/// static of another class than the analysed one, a field "org/x/Registry.count" of the
/// statics holder (class "<statics>"), by its class's dotted name ("org.x.Registry.count").
std::string inputFieldPath(const std::string& path, const std::string& cls, const std::string& field);

/// A reference input of a path as the path materialised it (for concrete replay): an object
/// or array reachable from the parameters, with what the path fixed of it.
struct InputShape {
  std::string path;        // access path, e.g. "s", "this", "node.next"
  std::string cls;         // internal class name, or the array descriptor ("[I")
  bool is_array = false;
  std::optional<std::int64_t> length;  // arrays and strings whose length the path fixed
  std::vector<terms::Term> elements;   // their elements (input variables, or null for references)
  /// An array past --max-array-length: its length variable (no element was read: any will do).
  terms::Term length_term;
  bool other_state = false;  // the path read state of it that `fields` does not describe (not replayable)
  /// Objects: the fields the path read, with their entry values. A reference field names the
  /// input it holds by that input's access path ("" for null).
  struct Field {
    std::string name, desc;
    terms::Term value;   // primitive fields
    bool reference = false;
    std::string target;  // reference fields: the path of the input object, "" for null
  };
  std::vector<Field> fields;
};

struct RawPartition {
  std::vector<terms::Term> pc;  // path-condition conjuncts, in order
  ExecEffect entry;             // effect of the entry method (plain runs)
  ExecEffect old_effect, new_effect;  // product runs: effects at the comparison
  bool product_compare = false;       // ended at the product's comparison
  bool error_mismatch = false;        // the two versions threw different exception types
  bool depth_limited = false;
  bool timed_out = false;
  bool step_limited = false;          // the instruction budget of the path ran out
  bool call_depth_limited = false;    // the call stack outgrew max_call_depth
  bool decision_limited = false;      // the depth limit's budget of decisions ran out (a larger one may complete it)
  PerSide<std::set<int>> lines;            // covered source lines per side
  std::vector<std::string> warnings;
  std::vector<std::string> heap;      // input heap shape of the path, e.g. "node.next == null"
  std::vector<terms::Term> heap_vars; // variables of input fields read on the path
  std::vector<InputShape> input_shapes;  // the reference inputs materialised on the path
  /// Executor::exploreFrom: the stop pc (ExecOptions::stop_at_pcs) the path reached, with the
  /// entry frame's locals there.
  std::optional<std::uint32_t> stopped_at;
  std::vector<terms::Term> stopped_locals;
};

struct ExecStats {
  std::uint64_t instructions = 0;
  std::uint64_t forks = 0;
  std::uint64_t partitions = 0;
  std::uint64_t solver_checks = 0;
  double solver_seconds = 0;
  double seconds = 0;
  bool timed_out = false;
  bool forked = false;  // ExecOptions::single_path: a branch needed a decision
  std::set<std::string> warnings;  // e.g. "library call java/lang/Foo.bar(I)I abstracted"
  /// Coupled loops (ExecOptions::coupled_loops): one line per proved invariant, e.g.
  /// "loop pair 1 (old pc 9, new pc 11): c(new) == c(old) + 1, i(new) == i(old)", and the
  /// reasons of failed proofs.
  std::set<std::string> couplings;
};

/// Called for every finished path. The solver's assertions equal the partition's pc.
using PartitionSink = std::function<void(const RawPartition&, solver::Solver&)>;

class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Executor {
 public:
  Executor(const Program& program, terms::TermManager& tm, solver::Solver& solver, ExecOptions options);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  /// Explore `entry` with the given argument terms (receiver first for instance methods) and
  /// initial path-condition conjuncts (e.g. input ranges). Throws ExecError for unsupported
  /// code; returns normally on deadline (stats.timed_out).
  ExecStats explore(const MethodInfo& entry, const std::vector<terms::Term>& args,
                    const std::vector<terms::Term>& assumptions, const PartitionSink& sink);
  /// Explore `m` from the instruction at `pc` with `locals` (slot -> value; null for a slot
  /// without one) and no caller: a path ends where it returns or throws out of `m`, or reaches
  /// one of ExecOptions::stop_at_pcs after its first instruction (RawPartition::stopped_at). No
  /// class is initialised and no input heap is built: for code that reads only its locals (one
  /// iteration of a loop body, issue 13).
  ExecStats exploreFrom(const MethodInfo& m, std::uint32_t pc, const std::vector<terms::Term>& locals,
                        const std::vector<terms::Term>& assumptions, const PartitionSink& sink);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Symbolic input variables for a method's parameters, named from its LocalVariableTable
/// (fallback p0, p1, ...), with the range constraints of byte/short/char/boolean.
struct MethodInputs {
  std::vector<std::string> names;
  std::vector<jvm::TypeDesc> types;
  std::vector<terms::Term> terms;
  std::vector<terms::Term> constraints;
};
MethodInputs makeInputs(const MethodInfo& m, terms::TermManager& tm);
/// Arguments of the product's run method for the inputs of `m` (one version's method):
/// receivers twice (old, new) for instance methods, primitives once, references twice.
std::vector<terms::Term> productArguments(const MethodInfo& m, const MethodInputs& in, terms::TermManager& tm);
terms::Sort sortOf(const jvm::TypeDesc& t);

}  // namespace pasda::symexec
