// Internal to pasda_diff: per-method facts the matcher needs (decoded code, CFG, operand-stack
// depth, liveness of locals, instruction successors) and the normalisation of instructions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pasda/core/version.hpp"
#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::diff::detail {

/// A set of local-variable slots.
using SlotSet = std::set<int>;

struct MethodFacts {
  const jvm::ClassFile* cls = nullptr;
  const jvm::Method* method = nullptr;
  std::string key;                        // "name:descriptor"
  int param_slots = 0;                    // slots of the receiver (if any) and the parameters
  jvm::Cfg cfg;                           // cfg.insns are the decoded instructions
  std::vector<int> depth;                 // operand-stack words before each insn; -1 = unreachable
  bool depth_ok = true;                   // false if the stack heights are inconsistent
  std::vector<std::vector<int>> succs;    // normal successors per insn (insn indices)
  std::vector<std::vector<int>> handler_succs;  // handler insns of the handlers covering each insn
  std::vector<SlotSet> live_in;           // locals live before each insn
  std::vector<int> line;                  // source line per insn (0 if unknown)
  std::vector<int> loop_depth;            // number of natural loops containing each insn
  std::vector<int> loop_control;          // insn -> header insn of the loop whose control it is, or -1
  std::vector<std::pair<int, int>> back_edges;  // (branch insn, header insn)
  std::vector<std::pair<int, std::vector<int>>> loops;  // natural loops: header insn, body insns

  int size() const { return static_cast<int>(cfg.insns.size()); }
  const jvm::Instruction& at(int i) const { return cfg.insns[static_cast<std::size_t>(i)]; }
  /// Instruction index at pc, or size() for the end of the code, or -1.
  int indexAt(std::uint32_t pc) const;
  /// LocalVariableTable name of `slot` at `pc` (or the next instruction's pc for stores), "" if none.
  std::string localName(int slot, std::uint32_t pc) const;
};

/// Build the facts of `m` in `cls`. Throws jvm::FormatError on undecodable code and
/// std::invalid_argument for a method without code.
MethodFacts analyseMethod(const jvm::ClassFile& cls, const jvm::Method& m);

/// "<version> pc P (line L)": instruction `i` of version v's facts `f`, for the matcher's notes.
std::string where(const MethodFacts& f, Version v, int i);

/// Operand-stack effect in words of `insn` (pops+pushes), or nullopt-like INT32_MIN if unknown.
int stackEffect(const jvm::Instruction& insn);

/// Operand-stack words `insn` pops (its pushes are pops + stackEffect), or INT_MIN if unknown.
/// The dup/swap family's rearrangements are not described by counts: see the callers.
int stackPops(const jvm::Instruction& insn);

/// Where each operand-stack word comes from before every instruction of `region` reached from
/// `start` (where the stack is empty) along normal edges: the reference local whose load pushed
/// it, for a local never written in the region (`written`), or -1 for any other value. nullopt
/// when the stack's shape is not known or paths disagree on its height.
std::optional<std::map<int, std::vector<int>>> stackOrigins(const MethodFacts& F, int start, const std::set<int>& region,
                                                            const std::set<int>& written);

/// The natural loop `body` of `header` grown by its break tails: code outside the loop that only
/// the loop enters (every predecessor in the loop or the tail) and that leaves only to another of
/// the loop's exits — `found = x; break;` — so that the loop and its tails leave at fewer
/// places. A tail holding another loop's header, or bigger than 64 instructions, stays out; a
/// loop with one exit is returned as it is (its code after the loop is no tail).
std::vector<int> withBreakTails(const MethodFacts& F, int header, const std::vector<int>& body);

/// Normalises instructions of two versions: constants and member references resolved, the
/// two class names identified, local slots and branch targets left out (compared separately).
class Normaliser {
 public:
  Normaliser(std::string oldName, std::string newName) : names_{{std::move(oldName), std::move(newName)}} {}
  /// Canonical text of the instruction of version v, without slot or target.
  std::string key(const jvm::Instruction& insn, Version v) const;
  /// The class name of version v replaced by a placeholder in an internal name or descriptor.
  std::string canon(const std::string& text, Version v) const;
  const std::string& name(Version v) const { return names_[v]; }

 private:
  PerVersion<std::string> names_;
};

/// Local slot accessed by `insn`, or -1. `type` receives I/J/F/D/A; `isStore` if it writes
/// (iinc reads and writes: isStore and isLoad both true).
struct LocalAccess {
  int slot = -1;
  char type = 'I';
  bool load = false, store = false;
};
LocalAccess localAccess(const jvm::Instruction& insn);

/// Branch targets of an instruction (pcs): if*/goto/jsr target, switch default and cases.
std::vector<std::uint32_t> branchTargets(const jvm::Instruction& insn);

}  // namespace pasda::diff::detail
