// Internal to symexec: models of JDK methods in a registry keyed by owner class, name and
// descriptor, and the narrow context (ModelCall) a model runs with. docs/interpreter.md
// describes the contract and how to add a model.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pasda/jvm/descriptor.hpp"
#include "state.hpp"

namespace pasda::symexec {

class Interpreter;

/// What a model did. Values and void continue at the next instruction; a stopped result
/// carries the outcome of an exception the model threw or of the path's end; a declined call
/// goes to the registry's fallback (the unknown-call model).
class ModelResult {
 public:
  enum class Kind : std::uint8_t { Value, Void, Stopped, Declined };
  static ModelResult value(Term v) { return ModelResult(Kind::Value, v, StepOutcome::Continue); }
  static ModelResult none() { return ModelResult(Kind::Void, Term{}, StepOutcome::Continue); }
  static ModelResult declined() { return ModelResult(Kind::Declined, Term{}, StepOutcome::Continue); }
  /// Built by ModelCall (throwNew, ended, cut): the instruction is over with `o`.
  static ModelResult stopped(StepOutcome o) { return ModelResult(Kind::Stopped, Term{}, o); }

  Kind kind() const { return kind_; }
  Term result() const { return value_; }
  StepOutcome outcome() const { return outcome_; }

 private:
  ModelResult(Kind k, Term v, StepOutcome o) : kind_(k), value_(v), outcome_(o) {}
  Kind kind_;
  Term value_;
  StepOutcome outcome_;
};

/// The narrow view a model gets of one library call: its arguments, the term manager, the
/// heap of the path, forking, exceptions, warnings. Models must be deterministic functions of
/// the state at the call and of the decisions returned by branch/choose: a path that forks
/// inside a model re-executes the whole call instruction on the forked copy, replaying the
/// decisions taken so far (docs/interpreter.md, "Forks inside an instruction").
class ModelCall {
 public:
  ModelCall(Interpreter& host, State& s, const jvm::MemberRef& ref, const jvm::MethodDesc& desc,
            const std::vector<Term>& args, bool hasReceiver)
      : host_(host), s_(s), ref_(ref), desc_(desc), args_(args), has_receiver_(hasReceiver) {}

  // --- the call --------------------------------------------------------------------------
  const std::string& owner() const { return ref_.owner; }  // as named by the call ("" for invokedynamic)
  const std::string& name() const { return ref_.name; }
  const std::string& descriptor() const { return ref_.descriptor; }
  const jvm::MethodDesc& desc() const { return desc_; }
  const jvm::MemberRef& member() const { return ref_; }
  /// Arguments in order, the receiver first for instance methods.
  const std::vector<Term>& args() const { return args_; }
  Term arg(std::size_t i) const { return args_.at(i); }
  bool hasReceiver() const { return has_receiver_; }
  /// Does the call dispatch on its receiver (invokevirtual/invokeinterface)? Not an
  /// invokespecial (`super.m()`, a constructor, a private method) nor a static call.
  bool dispatches() const { return has_receiver_ && dispatches_; }
  void setDispatches(bool d) { dispatches_ = d; }
  Term receiver() const { return args_.at(0); }  // only if hasReceiver(); never null (checked before)
  /// The side (old/new/product) of the code that makes the call.
  Side side() const;
  /// The side whose code the call runs: side(), except for the product's calls of the analysed
  /// classes (`V1.m(...)` is old code, `V2.m(...)` new code, though the product makes both).
  Side codeSide() const;
  /// 1 for the first call of `call` by this call's side on the path, 2 for the second, ...
  int nextCallNumber(const std::string& call);
  /// The static fields of program classes that codeSide() wrote outside class initialisation,
  /// with their values, as one side-neutral term (none written: no term). A call into program
  /// code shared between the versions takes it as an argument, since that code may read them.
  std::optional<Term> staticWrites();

  // --- terms -----------------------------------------------------------------------------
  terms::TermManager& tm();
  bool javaArith();  // Arith::Java: bit-exact; otherwise the math model (docs/arithmetic-models.md)
  Term defaultValue(const jvm::TypeDesc& t);  // 0, 0L, 0.0f, 0.0, false or null

  // --- heap ------------------------------------------------------------------------------
  Term allocate(Object o);
  Object& object(Term ref);  // the object `ref` (a non-null reference literal) points to
  bool isNull(Term ref) const;
  /// The Class object of class `name` (internal name or array descriptor) on the calling side:
  /// the same object as an `ldc` of that class gives (Class objects are unique).
  Term classObject(const std::string& name);
  /// An element of an array of primitives past the bound, and a store into one
  /// (Interpreter::longArrayElement, storeLongArrayElement).
  Term longArrayElement(Term ref, Term idx);
  void storeLongArrayElement(Term ref, Term idx, Term v);
  /// A new array of `elemDesc` elements ("I", "Ljava/lang/String;", ...) holding `elems`.
  Term newArray(const std::string& elemDesc, std::vector<Term> elems);
  /// Field `name` (descriptor `desc`) of a non-null object, materialising input fields on first
  /// read like getfield does. nullopt: the path ended (its input heap went past the bound).
  std::optional<Term> field(Term ref, const std::string& name, const std::string& desc);
  void setField(Term ref, const std::string& name, Term v);
  /// A reference whose nullness is still open (an element or field from an unmodelled call or
  /// an input array) decided now, as aaload does (Interpreter::settle). nullopt: ended.
  std::optional<Term> settle(Term ref);
  /// A side-neutral term for a value: primitives as they are, references by the content a
  /// library call can observe (InputHeap::identity).
  Term identity(Term value);
  /// Is `cls` a class of the analysed program (not of the library)?
  bool isProgramClass(const std::string& cls) const;
  /// For an invokedynamic call site: the bootstrap method and its static arguments as text
  /// ("owner.name", then each argument, separated by NUL bytes), "" if they cannot be read.
  std::string bootstrapKey() const;
  /// A LambdaMetafactory call site's implementation method handle (REF kind digit, owner, name,
  /// descriptor, "owner.name(descriptor)") and instantiated method type ("T:(...)..."); nullopt
  /// for another call site or one that cannot be read.
  struct LambdaSite {
    char kind = 0;
    std::string owner, name, descriptor, handle, instantiated;
  };
  std::optional<LambdaSite> lambdaSite() const;
  /// Is the call's result thrown away at once (the next instruction is `pop`)? Then nothing
  /// can depend on whether it is null.
  bool resultDiscarded() const;
  /// For a LambdaMetafactory call site whose implementation method is the same function of its
  /// arguments in both versions (ExecOptions::shared_lambda): a side-neutral name of the site
  /// (the analysed class's renamed name replaced by "<analysed>"); "" otherwise.
  std::string sharedLambdaSite() const;
  /// For a call of program code (the call's owner is a program class) answered by no model:
  /// the side-neutral name under which both versions share its result (the analysed class's
  /// renamed name replaced by "<analysed>"), or "" when the versions' code behind it may differ
  /// (ExecOptions::shared_call) and each version's call is its own.
  std::string sharedProgramCall() const;
  /// ExecOptions::shared_call for another call than this one (false without an oracle).
  bool sharedCallOf(const std::string& owner, const std::string& name, const std::string& descriptor,
                    bool dispatches) const;
  /// Append text printed on `stream` by the calling side (console output compared as behaviour).
  void print(const std::string& stream, const std::vector<Term>& text);
  bool compareOutput() const;
  /// Give an opaque array a length and elements (Interpreter::fillOpaqueArray). false: ended.
  bool fillOpaqueArray(Term ref);
  /// The characters of a non-null String or builder: 1 and `out` filled when known (an input
  /// string's are materialised now), 0 when unknown (an unmodelled call's result), -1 when the
  /// path ended (an input string longer than the bound).
  int stringChars(Term ref, std::vector<Term>& out);
  int maxArrayLength() const;
  /// The engine's budget of elements for one array (--max-array-elements).
  std::size_t maxArrayElements() const;
  /// Whether `more` new elements keep the path's heap within --max-path-elements.
  bool withinPathBudget(std::size_t more) const;
  /// Adds a fact the path already implies, for the solver (e.g. a length past the bound after
  /// every length up to it was ruled out).
  void assume(Term fact);
  /// Program::assignable on the calling side.
  std::optional<bool> assignable(const std::string& from, const std::string& to) const;

  // --- control ---------------------------------------------------------------------------
  /// The registry's model of another library call made by this one (Objects.equals calling
  /// equals on a String): its result, or declined when no model but the fallback answers.
  ModelResult delegate(const jvm::MemberRef& ref, const std::vector<Term>& args, bool hasReceiver);
  /// Fork on a Bool term (a check, not counted against the depth budget). Returns the
  /// direction this path takes; nullopt: the path ended, return ended().
  std::optional<bool> branch(Term cond);
  /// Fork on a Bool term that a loop around the call can make again on every iteration with a
  /// fresh outcome (the nullness of an unmodelled call's result): counted against the depth
  /// budget when the call is in counted code (docs/depth-limit.md), so that such a loop ends.
  std::optional<bool> loopBranch(Term cond);
  /// A choice among n structural alternatives: this path takes 0, copies take the others.
  int choose(int n);
  /// Throw a new exception of class `cls` (internal name) at the call.
  ModelResult throwNew(const std::string& cls);
  /// The result after branch returned nullopt (or a field read ended the path).
  ModelResult ended() const { return ModelResult::stopped(StepOutcome::Ended); }
  /// Cut the path like the depth limit does, with a warning saying why.
  ModelResult cut(const std::string& reason);
  /// A warning recorded once per run and in the path's partition.
  void warn(const std::string& message);

 private:
  Interpreter& host_;
  State& s_;
  const jvm::MemberRef& ref_;
  const jvm::MethodDesc& desc_;
  const std::vector<Term>& args_;
  bool dispatches_ = true;
  bool has_receiver_;
};

using Model = std::function<ModelResult(ModelCall&)>;

/// The table of models. Lookup order for a call naming class O, method n, descriptor d, whose
/// receiver's dynamic class is D (invokevirtual/invokeinterface only):
///   1. D's entries for n: (D, n, d), then (D, n, any descriptor); for an array class also the
///      entries of the pseudo class kAnyArray;
///   2. O's entries likewise, then O's class-wide entry (every method of O);
///   3. entries for any owner: (*, n, d), then (*, n, any descriptor);
///   4. the fallback (the unknown-call model).
/// Class-wide entries match the named class only, never a dynamic class: a catch-all for a
/// stream's methods must not answer Object.hashCode on that stream.
class LibraryRegistry {
 public:
  static constexpr const char* kAnyOwner = "*";
  static constexpr const char* kAnyArray = "[";                    // every array class
  static constexpr const char* kInvokeDynamic = "<invokedynamic>"; // owner of invokedynamic call sites

  /// One method: owner, name and descriptor exactly.
  void add(const std::string& owner, const std::string& name, const std::string& descriptor, Model m);
  /// Every overload of a name (any descriptor) not registered exactly.
  void addOverloads(const std::string& owner, const std::string& name, Model m);
  /// Every method of a class not registered otherwise (calls naming this class only).
  void addClass(const std::string& owner, Model m);
  void setFallback(Model m) { fallback_ = std::move(m); }

  /// The model for a call (the fallback if nothing else matches). `dynamicClass` is the
  /// receiver's class for invokevirtual/invokeinterface, "" otherwise.
  const Model& find(const std::string& owner, const std::string& name, const std::string& descriptor,
                    const std::string& dynamicClass) const;
  const Model& fallback() const { return fallback_; }
  std::size_t size() const;  // registered entries, fallback excluded

 private:
  struct Methods {
    std::unordered_map<std::string, Model> by_descriptor;
    std::optional<Model> any_descriptor;
  };
  struct ClassModels {
    std::unordered_map<std::string, Methods> by_name;
    std::optional<Model> any_method;
  };
  const Model* method(const std::string& owner, const std::string& name, const std::string& descriptor) const;
  std::unordered_map<std::string, ClassModels> classes_;
  Model fallback_;
};

/// The registry with every model of src/symexec/lib/, built once (thread-safe) on first use.
const LibraryRegistry& jdkModels();

}  // namespace pasda::symexec
