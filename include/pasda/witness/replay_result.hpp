// Witness stage: the record of one concrete re-execution of a witness, and the words it uses
// for effects. A plain value, so that the run's results (analysis/result.hpp) can hold it
// without the witness stage knowing the analysis that drives it.
#pragma once

#include <string>

namespace pasda::witness {

/// Concrete re-execution of a witness on both versions (issue 8).
struct Replay {
  std::string engine;    // "interp" or "jvm"
  std::string old_out;   // rendered outputs
  std::string new_out;
  bool differs = false;
  std::string note;
  /// False when the JVM gave inputs of abstract types stand-ins (a real object of a JDK class or
  /// a proxy, not the model's): a difference on them is real, equal outputs contradict nothing.
  /// The replay ran to outputs of both versions that repeat themselves (a JVM replay's
  /// judgement stands on them; `differs` may then come from the results or the state).
  bool judged = false;
  bool exact_inputs = true;
  std::string stand_ins;  // the abstract types stood in for, space-separated (dotted names)
};

/// The note that says which inputs a JVM replay stood in for ("" when none).
inline std::string standInNote(const Replay& r) {
  if (r.stand_ins.empty()) return "";
  return "inputs of abstract types stood in for (" + r.stand_ins +
         ": \"\", an empty JDK collection or a proxy answering defaults)";
}

/// How Replay::old_out/new_out render an exception and the end of a void method.
inline std::string throwsText(const std::string& dottedClass) { return "throws " + dottedClass; }
inline const char* voidText() { return "void"; }

}  // namespace pasda::witness
