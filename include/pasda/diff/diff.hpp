// The unchanged-block matcher: compares two versions of a method (and the helpers it calls)
// at bytecode level and reports the single-entry, single-exit regions that are identical in
// both, with their inputs and outputs, so that they can be abstracted by shared
// uninterpreted functions. Knows nothing of Z3 or terms.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "pasda/core/version.hpp"

#include "pasda/jvm/classfile.hpp"

namespace pasda::diff {

/// A local variable that flows into or out of a region, with its slot in each version.
struct RegionVar {
  std::string name;  // source name when the LocalVariableTable has one (old version's), else "v<slot>"
  char type = 'I';   // descriptor letter: I (also Z,B,C,S), J, F, D (regions never carry references)
  PerVersion<int> slot{{-1, -1}};  // its slot in each version
};

/// A region of identical code: execution enters at start_pc and always leaves to exit_pc
/// (the single exit), with an empty operand stack at both points, and its only effects are
/// definitions of local variables (no calls with effects, field or array writes, throws,
/// returns, or jumps leaving it other than to exit_pc).
struct Region {
  int id = 0;                        // k of UIF_k; numbered 1.. in program order of the old version
  std::string method;                // "name:descriptor" of the method holding it (entry method or a helper)
  PerVersion<std::uint32_t> start_pc;  // per version
  PerVersion<std::uint32_t> exit_pc;
  PerVersion<std::vector<int>> lines;  // source lines covered, per version
  std::vector<RegionVar> inputs;     // read before written inside, in a canonical order shared by both versions
  std::vector<RegionVar> outputs;    // written inside and live at exit_pc (in either version)
  bool whole_loop = false;           // contains a complete loop
  int loop_depth = 0;                // max loop nesting inside the region (H3)
  int nonlinear = 0;                 // multiplications, divisions, remainders and calls inside (H3)
  bool branches = false;             // contains a conditional branch or a switch
};

/// Whether abstracting `r` can pay off: it forks paths (a branch or loop), calls a method, or
/// computes something nonlinear. Straight-line, linear, call-free code costs symbolic execution
/// one term per output and Z3 decides linear arithmetic, so replacing it by a UIF could only
/// lose precision (a UIF of constants is an arbitrary value); such regions stay concrete, and so
/// do regions without inputs, whose outputs are constants.
bool worthAbstracting(const Region& r);

struct MatchResult {
  std::vector<Region> regions;
  /// Helpers (name:descriptor) called from the method whose normalised bytecode, and that of
  /// everything they call, is identical in both versions.
  std::vector<std::string> identical_helpers;
  /// The identical helpers that only compute a value from their (primitive) arguments: no
  /// field/array writes, no calls other than to java/lang/Math, StrictMath or other pure
  /// helpers, no instruction that can throw. Regions may call these (and only these) helpers.
  std::vector<std::string> pure_helpers;
  std::vector<std::string> notes;    // why candidate regions were rejected, for --show-blocks -v
  /// The recursion rule (issue 13, RVT): the method calls itself in at least one version, and
  /// in both it only computes a value from its primitive arguments (static, no effects, no
  /// instruction that can throw; calls only itself, java/lang/Math and pure helpers). Its
  /// recursive calls may then be replaced, in both versions, by one shared function.
  bool shares_recursion = false;
  /// Why the rule does not apply ("" when it does or when the method is not recursive).
  std::string recursion_note;
};

/// Match the method `method` ("name:descriptor") of the two versions. The class names of the
/// two versions are identified with each other. Throws std::invalid_argument if the method
/// is missing in either version.
MatchResult match(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls, const std::string& method);

/// Code of one source line that one version has and the matcher could not align with the
/// other version (issue 14: the candidates of a difference's explanation). Lines are grouped
/// per gap of the unit alignment: the changed units between two aligned ones.
struct ChangedLine {
  enum class Kind : std::uint8_t { Changed, Inserted, Deleted };
  Kind kind = Kind::Changed;
  std::string method;  // "name:descriptor" of the method holding it (entry method or a changed helper)
  Version side = Version::kNew;  // the version where the code is
  int line = 0;        // source line in that version (0 if the class has no line numbers)
  std::vector<std::uint32_t> pcs;  // the line's unaligned instructions in that version
  std::string code;                // bytecode rendering of those instructions
  std::vector<int> other_lines;    // Changed: lines of the other version's code in the same gap
  std::string other_code;          // Changed: bytecode rendering of the other version's code in the gap
  std::vector<int> near_lines;     // Deleted: new-version lines of the aligned code right before and after it
};

/// The changed lines of `method` and of the changed helpers it reaches, in program order of
/// each version: new-version lines of a gap that both versions have code in (Changed) or only
/// the new version has (Inserted), old-version lines of a gap only the old version has code
/// in (Deleted). Empty when the methods cannot be aligned. Throws like match().
std::vector<ChangedLine> changedLines(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls,
                                      const std::string& method);

/// Human-readable listing for `pasda-jvm --show-blocks`.
void printRegions(const MatchResult& m, std::ostream& out, bool verbose);

}  // namespace pasda::diff
