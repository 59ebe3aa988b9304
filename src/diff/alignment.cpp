#include "alignment.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace pasda::diff::detail {

std::vector<Unit> splitUnits(const MethodFacts& f, const Normaliser& norm, Version version) {
  std::vector<Unit> units;
  for (int i = 0; i < f.size(); ++i) {
    const int d = f.depth[static_cast<std::size_t>(i)];
    if (units.empty() || d <= 0) {
      Unit u;
      u.first = i;
      u.reachable = d == 0;
      units.push_back(u);
    }
    Unit& u = units.back();
    u.end = i + 1;
    u.key += norm.key(f.at(i), version);
    u.key += '|';
  }
  return units;
}

namespace {

// Local names of a unit's slot accesses (LocalVariableTable), to prefer alignments that keep names.
std::string unitNames(const MethodFacts& f, const Unit& u) {
  std::string s;
  for (int i = u.first; i < u.end; ++i) {
    LocalAccess a = localAccess(f.at(i));
    if (a.slot < 0) continue;
    const jvm::Instruction& insn = f.at(i);
    s += f.localName(a.slot, a.store ? insn.pc + insn.length : insn.pc);
    s += ',';
  }
  return s;
}

}  // namespace

Alignment align(const MethodFacts& oldF, const MethodFacts& newF, const Normaliser& norm) {
  Alignment al;
  al.units[Version::kOld] = splitUnits(oldF, norm, Version::kOld);
  al.units[Version::kNew] = splitUnits(newF, norm, Version::kNew);
  const auto& U = al.units[Version::kOld];
  const auto& V = al.units[Version::kNew];
  const std::size_t n = U.size(), m = V.size();
  if (n * m > 40'000'000) throw std::length_error("methods too large to align");

  // Weighted LCS: a matched unit scores 4, +1 if its locals also keep their source names (a
  // tie-breaker between equally long alignments).
  std::vector<std::string> namesU(n), namesV(m);
  for (std::size_t i = 0; i < n; ++i) namesU[i] = unitNames(oldF, U[i]);
  for (std::size_t j = 0; j < m; ++j) namesV[j] = unitNames(newF, V[j]);
  auto weight = [&](std::size_t i, std::size_t j) {
    if (!U[i].reachable || !V[j].reachable || U[i].key != V[j].key) return 0;
    return namesU[i] == namesV[j] ? 5 : 4;
  };
  std::vector<int> dp((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> int& { return dp[i * (m + 1) + j]; };
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      int best = std::max(at(i - 1, j), at(i, j - 1));
      int w = weight(i - 1, j - 1);
      if (w > 0) best = std::max(best, at(i - 1, j - 1) + w);
      at(i, j) = best;
    }
  }
  al.unit_match.assign(n, -1);
  for (std::size_t i = n, j = m; i > 0 && j > 0;) {
    int w = weight(i - 1, j - 1);
    if (w > 0 && at(i, j) == at(i - 1, j - 1) + w) {
      al.unit_match[i - 1] = static_cast<int>(j - 1);
      --i;
      --j;
    } else if (at(i - 1, j) >= at(i, j - 1)) {
      --i;
    } else {
      --j;
    }
  }

  // Slot renaming. Parameter slots (and the receiver's) are fixed: slot k holds the same input
  // in both versions, so `a + b` and `b + a` are changed code, not the same code with the
  // parameters swapped. Other slots: every matched pair of accesses votes for (old slot, new
  // slot); the pairs are taken by decreasing votes (ties: same slot number first) while they
  // keep a bijection.
  if (oldF.param_slots == newF.param_slots)
    for (int s = 0; s < oldF.param_slots; ++s) {
      al.slot_map[s] = s;
      al.slot_inv[s] = s;
    }
  std::map<std::pair<int, int>, int> votes;
  for (std::size_t i = 0; i < n; ++i) {
    if (al.unit_match[i] < 0) continue;
    const Unit& u = U[i];
    const Unit& v = V[static_cast<std::size_t>(al.unit_match[i])];
    for (int k = 0; k < u.end - u.first; ++k) {
      LocalAccess a = localAccess(oldF.at(u.first + k));
      LocalAccess b = localAccess(newF.at(v.first + k));
      if (a.slot >= 0 && b.slot >= 0) votes[{a.slot, b.slot}]++;
    }
  }
  std::vector<std::tuple<int, int, int, int>> order;  // (-votes, slot differs, old, new)
  for (const auto& [p, c] : votes) order.emplace_back(-c, p.first != p.second ? 1 : 0, p.first, p.second);
  std::sort(order.begin(), order.end());
  for (const auto& [negc, differs, a, b] : order) {
    if (al.slot_map.count(a) || al.slot_inv.count(b)) continue;
    al.slot_map[a] = b;
    al.slot_inv[b] = a;
  }
  // Units whose accesses do not follow the renaming are changed after all.
  for (std::size_t i = 0; i < n; ++i) {
    if (al.unit_match[i] < 0) continue;
    const Unit& u = U[i];
    const Unit& v = V[static_cast<std::size_t>(al.unit_match[i])];
    for (int k = 0; k < u.end - u.first; ++k) {
      LocalAccess a = localAccess(oldF.at(u.first + k));
      LocalAccess b = localAccess(newF.at(v.first + k));
      if (a.slot < 0) continue;
      auto it = al.slot_map.find(a.slot);
      if (it == al.slot_map.end() || it->second != b.slot) {
        al.notes.push_back(where(oldF, Version::kOld, u.first) +
                           ": same code but its locals do not correspond to the other version's");
        al.unit_match[i] = -1;
        break;
      }
    }
  }
  al.insn_match.assign(static_cast<std::size_t>(oldF.size()), -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (al.unit_match[i] < 0) continue;
    const Unit& u = U[i];
    const Unit& v = V[static_cast<std::size_t>(al.unit_match[i])];
    for (int k = 0; k < u.end - u.first; ++k) al.insn_match[static_cast<std::size_t>(u.first + k)] = v.first + k;
  }
  return al;
}

}  // namespace pasda::diff::detail
