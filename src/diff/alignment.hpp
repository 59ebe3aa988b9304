// Internal to pasda_diff: statement units of each version, their alignment (weighted LCS over
// normalised units) and the renaming of local slots between the versions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "method_facts.hpp"

namespace pasda::diff::detail {

/// A maximal instruction run between two points where the operand stack is empty.
struct Unit {
  int first = 0, end = 0;  // instruction indices [first, end)
  std::string key;         // normalised text (slots and targets left out)
  bool reachable = true;
};

struct Alignment {
  PerVersion<std::vector<Unit>> units;
  std::vector<int> unit_match;             // old unit -> new unit, -1 if changed
  std::vector<int> insn_match;             // old insn -> new insn, -1 if changed
  std::map<int, int> slot_map, slot_inv;   // old slot <-> new slot (a bijection)
  std::vector<std::string> notes;
};

std::vector<Unit> splitUnits(const MethodFacts& f, const Normaliser& norm, Version version);

/// Align the two versions. Throws std::length_error if the methods are too large to align.
Alignment align(const MethodFacts& oldF, const MethodFacts& newF, const Normaliser& norm);

}  // namespace pasda::diff::detail
