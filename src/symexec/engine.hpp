// Internal to symexec: the execution state and the engine shared by executor.cpp,
// interpret.cpp and library.cpp.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pasda/symexec/executor.hpp"

namespace pasda::symexec {

using terms::Sort;
using terms::Term;

struct Frame {
  const MethodInfo* m = nullptr;
  std::int32_t ip = 0;  // instruction index
  std::vector<Term> locals;
  std::vector<Term> stack;
  Side side = kProduct;
  bool recursive = false;  // the same method is active below this frame
};

struct Object {
  std::string cls;  // internal class name, or an array descriptor ("[I", "[Ljava/lang/String;")
  bool is_array = false;
  Sort elem_sort = Sort::Int;
  char elem_kind = 'I';  // descriptor letter of the element ('Z','B','C','S','I','J','F','D','L','[')
  std::vector<Term> elems;
  std::map<std::string, Term> fields;  // instance fields by name
  std::string text;  // String constants
  int input = -1;    // index into State::inputs when this object is (a side's view of) an input object
  bool lazy = false; // fields and elements not yet read come from the input heap
  bool opaque = false;  // produced by a library call the engine does not model
};

/// An object of the input heap (reachable from the receiver or the parameters). Each side
/// has its own copy, materialised lazily and identically in both.
struct InputObject {
  std::string path;       // access path, e.g. "this", "node.next"
  std::string cls;        // original (not renamed) internal class name, or array descriptor
  bool is_array = false;
  std::map<std::string, Term> fields;  // materialised input values (refs as side-neutral input ids)
  std::map<std::string, int> ref_fields;  // field -> input object index, -1 for null
  std::uint64_t side_obj[3] = {0, 0, 0};  // heap id of each side's copy
};

/// A reference argument of the entry still to be materialised (null / fresh / alias).
struct PendingInput {
  std::string name;
  std::string cls;       // original class or array descriptor
  bool non_null = false; // receivers
  std::vector<std::pair<int, int>> slots;  // (frame slot, side) bound to this input
};

/// Values of the input variables that satisfy a state's path condition (from a solver
/// model): branch conditions true under it need no solver call.
using Assignment = std::vector<std::pair<Term, Term>>;  // (var, literal)

struct State {
  std::vector<Frame> frames;
  std::vector<InputObject> inputs;
  std::vector<PendingInput> pending;
  std::vector<int> pending_lengths;  // fresh input arrays whose length is still to be chosen
  std::vector<std::string> heap_facts;  // shape decisions, e.g. "node.next == null"
  std::vector<std::string> root_names;  // names of the materialised reference inputs, in order
  std::shared_ptr<const Assignment> model;
  std::vector<Object> heap{1};  // id 0 is null
  std::map<std::string, Term> statics;  // "side#owner.name"
  std::set<std::string> initialized;    // "side#owner"
  std::vector<Term> pc;
  std::set<int> lines[3];
  int last_line_side = -1, last_line = -1;
  int depth = 0;  // counted decisions so far
  std::uint64_t steps = 0;
  std::string exc[3];  // exception classes seen by the product comparison (old, new)
  std::vector<std::string> warnings;
  // Forking in the middle of an instruction: values popped so far by the current instruction
  // (restored on the forked copy), the decisions it took so far, and decisions to replay when a
  // forked copy re-executes the instruction.
  std::vector<Term> popped;
  std::vector<int> decisions;
  std::vector<int> replay;  // consumed from the front
  std::size_t replay_pos = 0;
};

enum class StepResult { Continue, Ended };

struct Executor::Impl {
  const Program& program;
  terms::TermManager& tm;
  solver::Solver& solver;
  ExecOptions opt;
  const PartitionSink* sink = nullptr;
  std::vector<State> work;        // pending states (DFS)
  std::vector<Term> asserted;     // one conjunct per solver push level
  std::vector<Term> input_vars;   // variables of the entry's arguments (for models)
  std::map<const MethodInfo*, std::map<std::uint32_t, const RegionHook*>> region_at;
  terms::TermManager scratch{terms::Arith::Java};  // concrete evaluation of conditions under models
  ExecStats stats;
  bool stop = false;

  Impl(const Program& p, terms::TermManager& t, solver::Solver& s, ExecOptions o)
      : program(p), tm(t), solver(s), opt(std::move(o)) {}

  // executor.cpp
  void run(State initial);
  void syncSolver(const std::vector<Term>& pc);
  solver::CheckResult checkWith(const std::vector<Term>& pc, Term extra);
  bool timeUp();
  /// Value of a Bool term under an assignment (nullopt if it does not fold to a literal).
  std::optional<bool> evalUnder(Term t, const Assignment& a);
  std::shared_ptr<const Assignment> currentModel();
  /// Decide a branch on a Bool term. Returns the direction this state takes; other feasible
  /// directions are queued. nullopt: the path ended (cut by the depth limit, or infeasible).
  std::optional<bool> branch(State& s, Term cond, bool counted);
  /// A structural choice among n alternatives (heap shapes): this state takes 0, copies
  /// re-executing the current step take the others.
  int choose(State& s, int n);
  void endPath(State& s, RawPartition&& p);
  void cutPath(State& s, bool depth, bool steps);
  /// Throw `ref` at the current instruction of the top frame; unwinds frames.
  StepResult throwRef(State& s, Term ref);
  StepResult throwNew(State& s, const std::string& cls);
  Term allocate(State& s, Object obj);
  Object& deref(State& s, Term ref);
  bool counted(const State& s) const;
  void note(State& s, const std::string& warning);

  // heap.cpp: the input heap
  StepResult materializePending(State& s);
  /// Value of field `name` (descriptor `desc`) of a lazy input object, materialised on first read.
  /// nullopt: the path ended (cut by the heap bound).
  std::optional<Term> readInputField(State& s, Object& o, const std::string& name, const std::string& desc);
  int newInput(State& s, const std::string& path, const std::string& cls);
  /// Target of an input reference: input index, -1 for null, -2 if the path was cut.
  int chooseTarget(State& s, const std::string& path, const std::string& cls, bool nonNull, std::string& fact);
  std::string originalName(const std::string& cls) const;
  /// The final state of both versions, aligned by access path, for the product comparison.
  /// false: the path ended (materialising an untouched input field was cut by the heap bound).
  bool compareState(State& s, const std::vector<std::pair<Term, Term>>& roots,
                    std::vector<std::pair<std::string, Term>>& oldState,
                    std::vector<std::pair<std::string, Term>>& newState);

  // interpret.cpp
  StepResult step(State& s);
  void resolveRegions();
  bool enterRegion(State& s);  // true if an abstracted region started at the current pc
  StepResult invoke(State& s, const jvm::Instruction& in);
  StepResult returnFrom(State& s, std::optional<Term> value);
  bool ensureInitialized(State& s, Side side, const std::string& cls);  // false: a <clinit> frame was pushed
  Term defaultValue(const jvm::TypeDesc& t);

  // library.cpp: models of library methods. Returns false if the call is not a library call
  // this engine models specially (the caller then makes it a function application).
  bool invokeLibrary(State& s, const jvm::MemberRef& ref, const std::vector<Term>& args,
                     std::optional<Term>& result);
  Term opaqueCall(State& s, const jvm::MemberRef& ref, const std::vector<Term>& args);
};

Sort sortOfDescriptor(char kind);
Side sideOf(const Frame& f);

}  // namespace pasda::symexec
