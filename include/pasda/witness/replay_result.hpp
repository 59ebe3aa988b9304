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
};

/// How Replay::old_out/new_out render an exception and the end of a void method.
inline std::string throwsText(const std::string& dottedClass) { return "throws " + dottedClass; }
inline const char* voidText() { return "void"; }

}  // namespace pasda::witness
