// Witnesses beyond the solver: concrete replay of witness inputs on both versions (the
// interpreter's concrete mode, and a real JVM), a search for inputs that make the outputs
// differ where the solver cannot decide (JUnit tests of confirmed NEQs: report/junit.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pasda/jvm/descriptor.hpp"
#include "pasda/symexec/executor.hpp"
#include "pasda/terms/term.hpp"
#include "pasda/witness/replay_result.hpp"

namespace pasda::witness {

/// One concrete input value: raw payload bits of a literal of `sort` (as terms::Node::bits);
/// for a reference input (sort Ref), what a replay builds: null, a string, an array, or an
/// object of a class with the fields the path read set (a tree: no input is reached twice).
struct InputValue {
  terms::Sort sort = terms::Sort::Int;
  std::uint64_t bits = 0;
  /// Reference inputs only. None: a shape replay cannot build (an alias of another input, an
  /// array too long to spell out); such a witness is not replayed.
  enum class Ref : std::uint8_t { None, Null, String, Array, Object } ref = Ref::None;
  std::string elem;                  // arrays: the element descriptor ("I", "Ljava/lang/String;")
  std::vector<std::uint64_t> elems;  // String: UTF-16 units; arrays: element bits (references: null)
  /// Objects: the internal class name ("<main>" stands for the analysed class, which each
  /// version calls by its own name), and the fields to set (name, descriptor, value); the
  /// other fields keep their default values. A statics holder (the analysed class's non-final
  /// static fields a path read) has the class name "<statics>".
  std::string cls;
  std::vector<std::string> field_names, field_descs;
  std::vector<InputValue> field_values;
  bool buildable() const { return sort != terms::Sort::Ref || ref != Ref::None; }
};

/// Everything one replayed call needs besides its arguments: the receiver of an instance
/// method (an object; Ref::None for a static method or one not built), and the analysed
/// class's static fields to set before the call (a "<statics>" object, or none).
struct CallContext {
  InputValue receiver;
  InputValue statics;
};

class JvmSession;

/// What a replay needs: the loaded product program of the run.
struct ReplayEnv {
  const symexec::Program* program = nullptr;
  const symexec::MethodInfo* product_run = nullptr;  // the product's run method
  std::string product_class;                         // internal name
  /// The analysed class's renamed names in the old and new version: the replay identifies
  /// them when it compares the versions' objects (ExecOptions::main_class). Empty: the two
  /// renamed classes count as different classes, so any object of them would differ.
  symexec::PerSide<std::string> main_class;
  std::vector<jvm::TypeDesc> input_types;
  terms::Arith arith = terms::Arith::Math;           // the run's model ("different" depends on it)
  // Added (witness stage): limits of one replay.
  double interp_timeout_s = 5;   // wall clock of one interpreter replay
  double jvm_timeout_s = 30;     // wall clock of the whole JVM process (all witnesses)
  std::string java;              // java launcher ("" = $JAVA_HOME/bin/java, else `java` on PATH)
  /// A JVM kept running across runs (release diffs: one per worker); null = start one JVM per
  /// replayJvm call.
  JvmSession* session = nullptr;
  /// The versions' class paths (jars, directories). When both are given, each version runs in
  /// a JVM of its own over its class path, and replayJvm's class names are the versions'
  /// original names: callees in other classes of a release run as that release has them.
  /// Otherwise both renamed copies run in one JVM over the replay directory alone. One class
  /// path for both (the versions are classes of different names in one package, as the
  /// benchmark's oldV and newV): one JVM over it (replaysInOneJvm).
  std::vector<std::string> old_classpath, new_classpath;
  /// The analysed class's names in the versions' own class files when the JVM replay calls
  /// renamed copies (descriptors that name the class are rewritten per version); "" = none.
  std::string old_original, new_original;
  /// Call the method through reflection (Method.setAccessible + invoke): a private method of
  /// versions run over their class paths, which the driver's code cannot call directly.
  bool reflective = false;
};

/// A JVM started once and reused for many replays: a small generated server class reads one
/// request per line (the class path's entries and the driver class, separated by tabs), runs
/// the driver's main in a fresh class loader over those entries (so every replay sees freshly
/// initialised classes, and each version its own class path) and answers with a terminator
/// line. A JVM that dies or overruns a request's time limit is killed and started again on
/// the next request. Not thread-safe: one session per thread (or process).
class JvmSession {
 public:
  explicit JvmSession(std::string java = "");
  ~JvmSession();  // ends the JVM and removes its files
  JvmSession(const JvmSession&) = delete;
  JvmSession& operator=(const JvmSession&) = delete;

  /// Runs `driverClass`'s main from `classDir`. `output` receives what it printed. False when
  /// no JVM can be started (no java, ...); `timedOut` when the limit was hit.
  bool run(const std::string& classDir, const std::string& driverClass, double timeoutS, std::string& output,
           bool& timedOut);
  /// The same over a class path of several entries (directories or jars). False also when an
  /// entry cannot travel in a request (a tab or a line break in its name).
  bool run(const std::vector<std::string>& classPath, const std::string& driverClass, double timeoutS,
           std::string& output, bool& timedOut);
  /// Starts the JVM now, without waiting for it, so that it boots while the caller goes on
  /// working; the first run() then finds it ready. False when no JVM can be started.
  bool warmUp();
  int starts() const;    // JVMs started so far (1 unless one died or hung)
  int requests() const;  // drivers run so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Replay `inputs` in the interpreter's concrete mode (Java semantics) on the product: the
/// outputs of both versions and whether they differ under Java's equality (Double.equals).
Replay replayInterp(const ReplayEnv& env, const std::vector<InputValue>& inputs);

/// The search problem for one undecided partition, over the run's TermManager.
struct SearchProblem {
  terms::TermManager* tm = nullptr;
  std::vector<terms::Term> pc;            // path-condition conjuncts
  terms::Term out_old, out_new;           // outputs (absent when a version threw)
  std::vector<terms::Term> inputs;        // input variables
  std::vector<jvm::TypeDesc> input_types;
  std::vector<std::optional<terms::Term>> seed;  // a solver model, if any (literals)
  terms::Arith arith = terms::Arith::Math;
  std::chrono::steady_clock::time_point deadline;
  // Added (witness stage): when both outputs are absent (both versions threw), whether the
  // exception types differ; with false such a partition has no witness to find.
  bool exceptions_differ = false;
};

/// Search for inputs satisfying the path condition on which the outputs differ, evaluating
/// everything concretely (transcendental functions included). In the math model a difference
/// counts only if it persists at much higher precision and exceeds the documented tolerance.
std::optional<std::vector<InputValue>> search(const SearchProblem& p);

/// Outcome of checking a witness against the math model (ints unbounded, doubles reals).
enum class MathCheck { Confirmed, Refuted, Unknown };

/// Evaluate the path condition and both outputs of `p` at `inputs` at high precision
/// (cpp_bin_float_100, with a running bound on the rounding error of every real value):
/// Confirmed when the path condition holds with no comparison inside its error bound and the
/// outputs differ by more than twice their error bounds and the relative tolerance of
/// docs/witnesses.md (1e-30); Refuted when the path condition is false or the outputs are
/// exactly equal; Unknown otherwise (UIFs, values outside the reals, too-close comparisons).
/// In the math model a replayed difference proves NEQ only when this says Confirmed.
MathCheck confirmMath(const SearchProblem& p, const std::vector<InputValue>& inputs, std::string* note = nullptr);

/// A pasteable Java literal of an input value of `type` ("-2.5", "Double.NaN", "(byte) -3", "7L",
/// "\"a\\u0000b\"", "new int[] {1, 2}", "null").
/// Objects read `Box{count = 3, items = new int[] {1}}` (not Java); `mainClass` names the
/// analysed class where an input's class is "<main>".
std::string javaLiteral(const jvm::TypeDesc& type, const InputValue& v, const std::string& mainClass = "");

/// A text that two calls share exactly when they have the same arguments and context (every
/// field of every InputValue spelled out): the JVM replay runs each distinct call once.
std::string callKey(const std::vector<InputValue>& args, const CallContext& context);

/// Replay many witnesses of one run in ONE real JVM process, through the classes that
/// analysis::emitProduct writes to `classDir`. Returns one Replay per input vector (engine
/// "jvm"), or nullopt if no `java` is available.
std::optional<std::vector<Replay>> replayJvm(const std::string& classDir, const ReplayEnv& env,
                                                        const std::string& oldClass, const std::string& newClass,
                                                        const std::string& method, const std::string& descriptor,
                                                        const std::vector<std::vector<InputValue>>& inputs);
/// The same for an instance method (or one whose witnesses set static fields): `contexts[w]`
/// is what witness `w`'s calls need besides their arguments. Each version's call gets its own
/// receiver, built without a constructor (Unsafe.allocateInstance) with the witness's fields
/// set by reflection; a witness whose inputs cannot be built in the JVM is not judged.
std::optional<std::vector<Replay>> replayJvm(const std::string& classDir, const ReplayEnv& env,
                                                        const std::string& oldClass, const std::string& newClass,
                                                        const std::string& method, const std::string& descriptor,
                                                        const std::vector<std::vector<InputValue>>& inputs,
                                                        const std::vector<CallContext>& contexts, bool instance);

/// Whether replayJvm runs both versions in one JVM (the renamed copies, or one class path for
/// both with the two classes in one package) rather than one JVM per version.
bool replaysInOneJvm(const ReplayEnv& env, const std::string& oldClass, const std::string& newClass);

}  // namespace pasda::witness
