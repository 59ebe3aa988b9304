// Internal to symexec: the interpreter runs one step of a path, dispatching each opcode to its
// family's handler (src/symexec/ops/), and offers the services handlers and library models
// share. docs/interpreter.md describes the structure and the step contract.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coupled_loops.hpp"
#include "input_heap.hpp"
#include "library.hpp"

namespace pasda::symexec {

class Interpreter {
 public:
  Interpreter(const Program& program, terms::TermManager& tm, const ExecOptions& opt, Explorer& explorer,
              InputHeap& inputs, const LibraryRegistry& library)
      : program_(program), tm_(tm), opt_(opt), explorer_(explorer), inputs_(inputs), library_(library),
        coupler_(program, tm, opt) {}

  /// Prepare an exploration (resolve the abstracted regions' methods).
  void prepare();
  /// The state before the first step: a frame for `entry` holding `args` (receiver first),
  /// reference variables among them pending as input-heap roots, the analysed classes
  /// initialised for product runs, `assumptions` as the initial path condition.
  State initialState(const MethodInfo& entry, const std::vector<Term>& args, const std::vector<Term>& assumptions);
  /// The state of Executor::exploreFrom: one frame of `m` at `pc` with `locals`, no caller.
  State stateAt(const MethodInfo& m, std::uint32_t pc, const std::vector<Term>& locals,
                const std::vector<Term>& assumptions);
  /// One step: a pending input materialisation, an abstracted region, or one instruction.
  StepOutcome step(State& s);
  /// What the coupled loops of this exploration proved (ExecStats::couplings).
  std::set<std::string> couplings() const { return coupler_.notes(); }

  // --- what handlers and models use ---------------------------------------------------
  terms::TermManager& tm() { return tm_; }
  const Program& program() const { return program_; }
  const ExecOptions& options() const { return opt_; }
  Explorer& explorer() { return explorer_; }
  InputHeap& inputs() { return inputs_; }
  const LibraryRegistry& library() const { return library_; }

  Term allocate(State& s, Object o) { return symexec::allocate(tm_, s, std::move(o)); }
  Object& deref(State& s, Term ref) { return symexec::deref(tm_, s, ref); }
  /// The Class object of `name` (internal name, array descriptor, or "prim:I" for int.class)
  /// on the side of the running frame: one object per class and side, as `ldc` interns it.
  Term classObject(State& s, const std::string& name);
  /// An element of an array of primitives past the bound (no elements held): a function of the
  /// array's identity term (the input it is, or the stores and calls that made it) and of the
  /// index, narrowed to the element type. The same array and index give the same value in both
  /// versions; library symbols (the store/load axioms are not given), so no NEQ rests on them
  /// without a replay.
  Term longArrayElement(State& s, Term ref, Term idx);
  /// A store into an array of primitives past the bound: its identity becomes the store
  /// applied to the old identity (index and narrowed value).
  void storeLongArrayElement(State& s, Term ref, Term idx, Term v);
  Term defaultValue(const jvm::TypeDesc& t);
  /// Raise an exception at the current instruction of the top frame and unwind to a handler
  /// (Threw) or out of the entry method (Ended: the path's partition ends with it).
  StepOutcome throwRef(State& s, Term ref);
  StepOutcome throwNew(State& s, const std::string& cls);
  /// NullPointerException branch for `ref`: passed when it is not null.
  Guard requireNonNull(State& s, Term ref);
  /// Continue at bytecode offset `pc` of the top frame.
  StepOutcome jumpTo(State& s, std::int32_t pc);
  /// Pop the top frame, giving `value` (if any) to the caller; past the entry, end the path.
  StepOutcome returnFrom(State& s, std::optional<Term> value);
  /// Run the static initialisation of `cls` (side `side`) if not done on this path. false: a
  /// <clinit> frame was pushed and the current instruction runs again after it returns.
  bool ensureInitialized(State& s, Side side, const std::string& cls) {
    return ensureInitialized(s, side, cls, static_cast<std::int32_t>(s.frames.size()) - 1);
  }
  /// The same, for an initialisation triggered by frame `trigger`.
  bool ensureInitialized(State& s, Side side, const std::string& cls, std::int32_t trigger);
  /// Field `name` of the non-null object `ref` (input objects are materialised on first read).
  /// nullopt: the path ended.
  std::optional<Term> readField(State& s, Term ref, const std::string& name, const std::string& desc);
  /// A reference loaded from a field or an element that an unmodelled call produced: whether it
  /// is null is decided now (a library-symbol branch), and an array gets its length and
  /// elements. Returns the reference (null or the object); the caller stores it back.
  /// nullopt: the path ended. Callers must have called Explorer::keepInstructionStart.
  std::optional<Term> settle(State& s, Term ref);
  /// Give an opaque array (from an unmodelled call) a length, explored like an input array's,
  /// and elements that are functions of its identity. false: the path ended (length bound).
  bool fillOpaqueArray(State& s, Term ref);

 private:
  /// Every opcode to its family's handler (an exhaustive switch).
  StepOutcome execute(State& s, const jvm::Instruction& in);
  bool enterRegion(State& s);  // true if an abstracted region started at the current pc
  /// A summarised loop's header: its outcome replaces the loop (nullopt: no summary here).
  std::optional<StepOutcome> enterLoopSummary(State& s);
  // Its steps (loop_summary.cpp): the summarisable loop whose header the top frame is at; whether
  // summarising it here is worth it; the functions' arguments and name signature (false: no
  // summary, `stop` holding what enterLoopSummary returns); the arrays it may have written.
  const LoopSummaryHook* loopSummaryAt(State& s);
  /// The arrays a summarised loop reaches: its reference locals' values, then its array fields'
  /// (nullopt: reading a field ended the path).
  std::optional<std::vector<Term>> reachedArrays(State& s, const LoopSummaryHook& hook);
  bool worthSummarising(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached);
  bool storesOnlyIntoReachedArrays(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached);
  bool libraryReceiversKnown(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached);
  bool callReceiversReached(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached);
  void havocCallReceivers(State& s, const std::vector<Term>& reached, const std::string& base,
                              const std::vector<Term>& args);
  bool elementsKnownByTheirArrays(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached);
  void havocLibraryObjects(State& s, const std::vector<Term>& reached, const std::string& base,
                           const std::vector<Term>& args);
  bool loopSummaryArguments(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached,
                            std::vector<Term>& args, std::string& sig, std::optional<StepOutcome>& stop);
  std::vector<std::string> possibleExceptions(State& s, const LoopSummaryHook& hook, std::string& sig);
  void writeSummarisedFields(State& s, const LoopSummaryHook& hook, const std::string& base,
                             const std::vector<Term>& args);
  void havocSummarisedArrays(State& s, const std::vector<Term>& reached, const std::string& base,
                             const std::vector<Term>& args);
  /// A coupled loop's header in the compared method (ExecOptions::coupled_loops): the old
  /// version's run of it is summarised, the new version's related to it (coupled_loops.cpp).
  std::optional<StepOutcome> enterCoupledLoop(State& s);
  std::optional<StepOutcome> coupleOld(State& s, const CoupledLoop& c);
  std::optional<StepOutcome> coupleNew(State& s, const CoupledLoop& c);
  /// Leave the summarised loop `h` by outcome `o`, its variables holding `exit` (slot ->
  /// value) in the top frame, a return giving `ret`.
  StepOutcome leaveLoop(State& s, const LoopSummaryHook& h, const LoopOutcome& o, const std::map<int, Term>& exit,
                        Term ret);
  /// The end of an Executor::exploreFrom path at a stop pc (nullopt: not at one).
  std::optional<StepOutcome> stopHere(State& s);
  void addPendingInputs(State& s, const MethodInfo& entry, const std::vector<Term>& args);

  const Program& program_;
  terms::TermManager& tm_;
  const ExecOptions& opt_;
  Explorer& explorer_;
  InputHeap& inputs_;
  const LibraryRegistry& library_;
  std::map<const MethodInfo*, std::map<std::uint32_t, const RegionHook*>> region_at_;
  std::map<const MethodInfo*, std::vector<LoopSummaryHook>> loops_;  // ExecOptions::loop_summaries, per method
  LoopCoupler coupler_;
};

}  // namespace pasda::symexec
