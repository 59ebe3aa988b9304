// The "identical closure" oracle: decides, from bytecode alone and without executing anything,
// whether a method of two versions of a class path behaves identically because its own
// normalised code and everything it can reach inside the analysed class path (callees by every
// possible dispatch target, lambda bodies, class initialisers, field resolutions, class headers)
// are identical. Conservative: what it cannot resolve makes the method "affected", never
// "identical". Depends on jvm-frontend only. See docs/release-diff.md, "The oracle".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pasda/jvm/loader.hpp"

namespace pasda::diff {

/// What the oracle says about one method.
enum class ClosureVerdict : std::uint8_t {
  Identical,  // same normalised code, and so is everything it can reach in the analysed class path
  Affected,   // same normalised code, but something it can reach differs or cannot be resolved
  Changed,    // its own code (or flags) differ between the versions
  Missing,    // the method is not declared in one of the versions (added or removed)
};
const char* closureVerdictName(ClosureVerdict v);  // "identical", "affected", "changed", "missing"

struct MethodClosure {
  ClosureVerdict verdict = ClosureVerdict::Missing;
  /// Affected: how a difference is reached, e.g. "calls a/B.f(I)I -> whose code differs";
  /// Changed/Missing: what differs. Empty for Identical.
  std::string reason;
};

struct ClosureOptions {
  /// Two class names (internal form) identified with each other, as the single-method CLI
  /// does when OLD and NEW name their class differently: old_name in the old version and
  /// new_name in the new one are the same class. Empty: classes are matched by name only.
  std::string old_name, new_name;
};

/// The oracle over two class paths: `oldPath` and `newPath` hold the analysed classes of each
/// version (a jar, a directory, or a class file's root); a class found in neither is
/// "external" (the JDK, libraries) and is assumed to be the same in both versions. Results
/// are memoised, so asking for every method of a release costs about one pass over its code.
/// Not thread-safe (one oracle per thread).
class ClosureOracle {
 public:
  ClosureOracle(const jvm::ClassPath& oldPath, const jvm::ClassPath& newPath, ClosureOptions options = {});
  ~ClosureOracle();
  ClosureOracle(const ClosureOracle&) = delete;
  ClosureOracle& operator=(const ClosureOracle&) = delete;

  /// The verdict for method `name`/`descriptor` declared by class `cls` (internal name; the
  /// old version's name when names are identified). Never throws for malformed code: an
  /// undecodable method is Changed (its code cannot be shown to be the same).
  MethodClosure method(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// The rule of equivalent callees (docs/release-diff.md): for an affected method, the methods
  /// whose own code differs that it can reach (first differences on each way, as
  /// "a/B.f(I)I"), when those are the only differences it reaches — no field, class, class
  /// initialiser, added or removed method or unresolvable call on the way — and no method on
  /// a way to them has an exception handler (a handler could see more of an exception than its
  /// class). Then the method behaves identically wherever each of them does. Empty otherwise
  /// (and for identical, changed and missing methods).
  std::vector<std::string> changedCallees(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// Only the first half of the verdict: same normalised code and flags (callees not followed).
  bool sameCode(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// Whether the method is the same function of its arguments alone in both versions: the
  /// same normalised code, no field access, no array store, no object creation other than
  /// arrays and JDK objects whose constructors are given values only, no
  /// invokedynamic, and calls only to static methods of the analysed class path with this
  /// property or to JDK value classes (String, the boxes, Character, Math) whose reference
  /// parameters are of those classes (so no call can dispatch back into program code).
  /// The interpreter shares a lambda whose body has it between the versions.
  bool pureIdentical(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// Whether the method is a static arithmetic leaf, the same in both versions: pureIdentical,
  /// static, of primitive parameters and result, and its code only moves, computes, compares
  /// and branches on primitives (no call, array, object or throw), so all it can throw is the
  /// ArithmeticException of an integer division. `NumberUtils.compare(short, short)` is one.
  /// A summarised loop may call it (diff::summarisableLoops).
  bool arithmeticLeaf(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// Whether a lambda or method reference whose implementation is cls.name:descriptor is the
  /// same function object in both versions: a pureIdentical method of the path, or a method
  /// of the JDK (the same code in both versions) that cannot call back into program code:
  /// every reference parameter of `descriptor` and of each of `types` (the instantiated
  /// method type, the call site's captured arguments) is of a JDK value class.
  /// `HashSet::new` and `Integer::parseInt` are; `String::valueOf(Object)` is not. So is a
  /// method of a final reflection class that only describes its receiver, given such objects
  /// (`Method::toString`, `Class::getName`), but not `Method::invoke`.
  bool sharedFunction(const std::string& cls, const std::string& name, const std::string& descriptor,
                      const std::vector<std::string>& types);

  /// Whether a call of owner.name:descriptor (as the code names it; `dispatches` for
  /// invokevirtual/invokeinterface) reaches the same code in both versions: its resolution, and
  /// for a dispatching call every override in the path, with everything they reach. An
  /// abstract method is the same declaration in both versions, but a call of it runs whatever
  /// implements it: this is the question for a call the engine cannot follow.
  bool callIdentical(const std::string& owner, const std::string& name, const std::string& descriptor,
                     bool dispatches);

  /// Whether a proper subtype of `cls` in the path, in either version, declares an instance
  /// method name:descriptor (an override that a call on an object declared `cls` may run).
  /// True also when the class index cannot be built (nothing can be ruled out).
  bool overridden(const std::string& cls, const std::string& name, const std::string& descriptor);

  /// Number of graph nodes (methods, fields, classes) examined so far: for statistics.
  std::size_t nodesExamined() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pasda::diff
