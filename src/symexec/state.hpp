// Internal to symexec: the state of one path (call stack, heap, input heap, path condition,
// mid-instruction fork bookkeeping) and the typed outcome of one interpreter step.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
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
  /// A <clinit> frame: the index of the frame whose instruction triggered the initialisation.
  std::int32_t init_trigger = -1;
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
  /// A side-neutral term describing the object's current content for uninterpreted library
  /// calls (equal terms only for objects a library call cannot tell apart); empty: derived
  /// from the object (lib::identity).
  Term ident;
  bool dirty = false;     // written on this side (an input object's identity term no longer applies)
  bool havocked = false;  // an unmodelled call may have changed its fields: reads are unknown
  bool box_cache = false; // an Integer-like box from valueOf (may be the cached instance)
  bool maybe_null = false;  // an element or field produced by an unmodelled call: null is decided on first use
  Term havoc_base;          // havocked: unwritten fields are functions of this term
  bool preexisting = false; // created by a class initialiser: it exists before the analysed call
  /// A String, StringBuilder or StringBuffer whose characters are known: `elems` holds them
  /// (Int terms in 0..65535), one per UTF-16 unit (lib/strings.cpp).
  bool chars = false;
  bool escaped = false;  // passed to an unmodelled call: it may return this very object later
  /// A lambda or method reference made by invokedynamic: the references it captured. An
  /// unmodelled call it is passed to may run it, and so write what they reference. A
  /// values_only view (Arrays.asList, Collections.unmodifiableList, an iterator): what it is
  /// a view of, which a call writing the view writes too.
  std::vector<Term> captured;
  /// A lambda whose implementation is the same function in both versions (a shared lambda
  /// site): its functional method, "name(erased descriptor)". A call of it runs that shared
  /// code, so both versions share the call whatever other implementations the interface has.
  std::string lambda_sam;
  /// A lambda or method reference made by LambdaMetafactory whose implementation is a static
  /// method of the program ("owner.name:descriptor", named as the side that made it names it):
  /// its functional method ("name(erased descriptor)") and what the site captured, the first
  /// arguments of the implementation. A call of that method on it runs the implementation.
  std::string lambda_impl, lambda_call;
  std::vector<Term> lambda_args;
  /// A JDK object that holds nothing but values (null, strings, boxes, Class objects, arrays
  /// of primitives or of those, other such objects): made by a JDK container factory or an
  /// exact JDK collection's constructor from such values, or drawn from such an object, and
  /// since then given only such values (lib/unknown.cpp). JDK code handed it runs no program
  /// code, as long as what it is a view of (`captured`) still holds only values.
  bool values_only = false;
  /// A JDK object built here by `new` and its class's own constructor: its class is exactly
  /// `cls` (no subclass whose overrides could run program code).
  bool exact_library = false;
  /// An input array longer than --max-array-length: its length, an input variable above the
  /// bound; its elements are not held (`elems` is empty): reading or writing one cuts the path,
  /// and library models other than the length's see an unknown array (docs/heap.md).
  Term long_length;
};

/// An object of the input heap (reachable from the receiver or the parameters). Each side
/// has its own copy, materialised lazily and identically in both.
struct InputObject {
  std::string path;       // access path, e.g. "this", "node.next"
  std::string cls;        // original (not renamed) internal class name, or array descriptor
  bool is_array = false;
  std::map<std::string, Term> fields;  // materialised input values (refs as side-neutral input ids)
  std::map<std::string, int> ref_fields;  // field -> input object index, -1 for null
  std::map<std::string, std::string> descs;  // field -> its descriptor (for replay)
  PerSide<std::uint64_t> side_obj{};  // heap id of each side's copy
};

/// A reference argument of the entry still to be materialised (null / fresh / alias).
struct PendingInput {
  std::string name;
  std::string cls;       // original class or array descriptor
  bool non_null = false; // receivers
  std::vector<std::pair<int, Side>> slots;  // (frame slot, side) bound to this input
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
  /// Non-final static fields of the analysed classes whose entry value is an input not yet
  /// read on that side ("side#owner.name"); their values come from the statics input object.
  std::set<std::string> lazy_statics;
  int statics_input = -1;
  /// Program classes other than the analysed one whose non-final statics are inputs (after
  /// their <clinit>, on either side): what they hold at the end is compared too.
  std::set<std::string> input_static_classes;
  /// Static fields of program classes written outside class initialisation ("side#owner.name"):
  /// program code the engine cannot follow may read them, so a call shared between the
  /// versions is shared only when both wrote the same values (ModelCall::staticWrites).
  std::set<std::string> written_statics;
  std::map<std::string, std::uint64_t> interned;  // "side#text" -> the side's interned String (or Class) object  // index into inputs of the analysed classes' static-field holder
  /// What each side printed, per stream ("System.out", ...), when output is compared: one
  /// character term per UTF-16 unit, or an uninterpreted text marker where the text is not
  /// modelled (a double, an object's toString).
  PerSide<std::map<std::string, std::vector<Term>>> printed;
  /// The recursion rule (ExecOptions::shared_recursion): each side's recursive calls in order,
  /// with their arguments; the product's comparison requires the same calls in both.
  PerSide<std::vector<std::vector<Term>>> recursive_calls;
  /// How often each side called each clock or random-number method on the path (ModelCall::nextCallNumber).
  PerSide<std::map<std::string, int>> call_numbers;
  std::set<std::string> initialized;    // "side#owner"
  /// Classes ("side#owner") whose <clinit> threw: erroneous, their use throws (JVMS 5.5).
  std::set<std::string> init_failed;
  std::vector<Term> pc;
  PerSide<std::set<int>> lines;
  std::optional<Side> last_line_side;
  int last_line = -1;
  int depth = 0;  // counted decisions so far
  std::uint64_t steps = 0;
  PerSide<std::string> exc;  // exception classes seen by the product comparison (old, new)
  std::vector<std::string> warnings;
  // Forking in the middle of an instruction: values popped so far by the current instruction
  // (restored on the forked copy), the decisions it took so far, and decisions to replay when a
  // forked copy re-executes the instruction.
  std::vector<Term> popped;
  std::vector<int> decisions;
  std::vector<int> replay;  // consumed from the front
  std::size_t replay_pos = 0;
  /// Coupled loops (ExecOptions::coupled_loops): per pair, the old version's run of its loop on
  /// this path, for the new version's to be related to.
  struct CoupledRun {
    std::map<int, Term> entry, exit;  // loop variables (slot -> value) at the header and at the exit
    std::size_t outcome = 0;          // index of the old loop's outcome (CoupledOutcome order)
    Term ret;                         // the value a return inside the loop gave
  };
  std::map<int, CoupledRun> coupled;
  /// Executor::exploreFrom: the first instruction has run (a stop pc ends the path after it).
  bool started = false;
};

/// What one interpreter step did to its path. Only Ended stops the path; the run loop treats
/// Continue and Threw alike (Threw says that control moved to an exception handler).
enum class StepOutcome : std::uint8_t {
  Continue,  // the path goes on at the top frame's current instruction
  Threw,     // an exception was raised and a handler in some frame took it; the path goes on there
  Ended,     // the path is over: its partition was emitted (complete, cut, uncaught exception, infeasible)
};

/// The verdict of a check inside an instruction (null, bounds, divisor, array size):
/// nullopt = passed, the instruction goes on; otherwise the instruction is over with this outcome.
using Guard = std::optional<StepOutcome>;

/// A value computed inside an instruction, or the outcome that ended the instruction before
/// the value existed.
template <class T>
class Checked {
 public:
  Checked(T value) : value_(std::move(value)) {}                    // NOLINT: implicit by design
  Checked(StepOutcome stopped) : stopped_(stopped) {}                // NOLINT: implicit by design
  bool ok() const { return value_.has_value(); }
  const T& operator*() const { return *value_; }
  StepOutcome outcome() const { return stopped_; }

 private:
  std::optional<T> value_;
  StepOutcome stopped_ = StepOutcome::Continue;
};

Sort sortOfDescriptor(char kind);
/// The descriptor letter of the primitive type whose box class is `cls` ('I' for
/// java/lang/Integer, 'V' for java/lang/Void), or 0 for any other class.
char primitiveOfBoxClass(const std::string& cls);

/// An object of type `type` (internal class name or array descriptor) whose content and nullness
/// an unmodelled computation decides: opaque, null or not decided on first use (Interpreter::settle).
Object unknownObject(const std::string& type, Term ident);
/// A new array of primitives (`elemDesc` "I", "B", ...) of symbolic length `length` past
/// max_array_length: no element held (like a long input array); its identity is a function of
/// the length alone, so that both versions' arrays made alike are the same (all their elements
/// are zero until a store gives them a new identity).
Object longArray(terms::TermManager& tm, const std::string& elemDesc, Term length);
/// The element type of an array class: "[Ljava/lang/String;" -> "java/lang/String", "[[I" -> "[I".
std::string elementType(const std::string& arrayClass);
/// Strings and boxes: objects with no reference field whose content no call can change.
bool immutableValueClass(const std::string& cls);

/// Narrow an int to the width of a byte/char/short/boolean slot (array stores, returns).
inline Term narrowTo(terms::TermManager& tm, char kind, Term v) {
  switch (kind) {
    case 'Z': return tm.bitAnd(v, tm.intLit(1));
    case 'B': return tm.i2b(v);
    case 'C': return tm.i2c(v);
    case 'S': return tm.i2s(v);
    default: return v;
  }
}


/// Heap access of a path: allocate returns the new object's reference literal; deref throws
/// ExecError for null or a non-literal reference.
Term allocate(terms::TermManager& tm, State& s, Object obj);
Object& deref(terms::TermManager& tm, State& s, Term ref);

/// Is the top frame's current instruction inside a loop or a recursive call, where real
/// decisions spend the depth budget (docs/depth-limit.md)?
bool inCountedCode(const State& s);

}  // namespace pasda::symexec
