// changedLines(): the code of each version the unit alignment leaves unmatched, grouped by
// source line and by gap (issue 14: the candidates of a difference's explanation).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "alignment.hpp"
#include "helpers.hpp"
#include "pasda/diff/diff.hpp"

namespace pasda::diff {

using detail::MethodFacts;

namespace {

const jvm::Method* methodOf(const jvm::ClassFile& cls, const std::string& key) {
  auto colon = key.find(':');
  if (colon == std::string::npos) return nullptr;
  const jvm::Method* m = cls.findMethod(key.substr(0, colon), key.substr(colon + 1));
  return m && m->code ? m : nullptr;
}

std::string render(const MethodFacts& f, const std::vector<int>& insns) {
  std::string out;
  for (int i : insns) {
    const jvm::Instruction& in = f.at(i);
    if (!out.empty()) out += "; ";
    out += jvm::javapMnemonic(in);
    std::string ops = in.operandText();
    if (!ops.empty()) out += " " + ops;
  }
  return out;
}

/// The unaligned reachable instructions of one gap, per version, and the aligned new-version
/// instructions right before and after it (-1: none).
struct Gap {
  PerVersion<std::vector<int>> insns;
  int new_before = -1, new_after = -1;
};

std::vector<Gap> gapsOf(const detail::Alignment& al) {
  std::vector<Gap> gaps(1);
  std::size_t j = 0;  // next new unit
  const auto& oldUnits = al.units[Version::kOld];
  const auto& newUnits = al.units[Version::kNew];
  auto addUnit = [&](Version v, const detail::Unit& u) {
    if (!u.reachable) return;
    for (int i = u.first; i < u.end; ++i) gaps.back().insns[v].push_back(i);
  };
  for (std::size_t i = 0; i < oldUnits.size(); ++i) {
    int m = al.unit_match[i];
    if (m < 0) {
      addUnit(Version::kOld, oldUnits[i]);
      continue;
    }
    for (; j < static_cast<std::size_t>(m); ++j) addUnit(Version::kNew, newUnits[j]);
    j = static_cast<std::size_t>(m) + 1;
    const detail::Unit& matched = newUnits[static_cast<std::size_t>(m)];
    gaps.back().new_after = matched.first;
    gaps.emplace_back();
    gaps.back().new_before = matched.end - 1;
  }
  for (; j < newUnits.size(); ++j) addUnit(Version::kNew, newUnits[j]);
  gaps.erase(std::remove_if(gaps.begin(), gaps.end(),
                            [](const Gap& g) {
                              return g.insns[Version::kOld].empty() && g.insns[Version::kNew].empty();
                            }),
             gaps.end());
  return gaps;
}

void linesOfMethod(const PerVersion<MethodFacts>& f, const detail::Normaliser& norm, const std::string& method,
                   std::vector<ChangedLine>& out) {
  if (!f[Version::kOld].depth_ok || !f[Version::kNew].depth_ok) return;
  detail::Alignment al;
  try {
    al = detail::align(f[Version::kOld], f[Version::kNew], norm);
  } catch (const std::length_error&) {
    return;
  }
  for (const Gap& g : gapsOf(al)) {
    const bool both = !g.insns[Version::kOld].empty() && !g.insns[Version::kNew].empty();
    const Version side = g.insns[Version::kNew].empty() ? Version::kOld : Version::kNew;
    std::map<int, std::vector<int>> byLine;  // line -> insns, in line order
    std::vector<int> order;
    for (int i : g.insns[side]) {
      int line = f[side].line[static_cast<std::size_t>(i)];
      if (!byLine.count(line)) order.push_back(line);
      byLine[line].push_back(i);
    }
    std::vector<int> other;
    if (both)
      for (int i : g.insns[Version::kOld]) {
        int line = f[Version::kOld].line[static_cast<std::size_t>(i)];
        if (std::find(other.begin(), other.end(), line) == other.end()) other.push_back(line);
      }
    for (int line : order) {
      ChangedLine c;
      c.kind = both                    ? ChangedLine::Kind::Changed
               : side == Version::kNew ? ChangedLine::Kind::Inserted
                                       : ChangedLine::Kind::Deleted;
      c.method = method;
      c.side = side;
      c.line = line;
      for (int i : byLine[line]) c.pcs.push_back(f[side].at(i).pc);
      c.code = render(f[side], byLine[line]);
      if (both) {
        c.other_lines = other;
        c.other_code = render(f[Version::kOld], g.insns[Version::kOld]);
      }
      if (side == Version::kOld)
        for (int n : {g.new_before, g.new_after})
          if (n >= 0) c.near_lines.push_back(f[Version::kNew].line[static_cast<std::size_t>(n)]);
      out.push_back(std::move(c));
    }
  }
}

/// The entry method and the helpers reachable from it whose code differs between the versions.
std::vector<std::string> changedMethods(detail::HelperOracle& helpers, const std::string& method) {
  std::vector<std::string> out{method};
  for (const std::string& k : helpers.reachableHelpers(method))
    if (!helpers.identical(k)) out.push_back(k);
  return out;
}

}  // namespace

std::vector<ChangedLine> changedLines(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls,
                                      const std::string& method) {
  if (!methodOf(oldCls, method) || !methodOf(newCls, method))
    throw std::invalid_argument("method " + method + " missing or without code in one version");
  detail::Normaliser norm(oldCls.name(), newCls.name());
  detail::HelperOracle helpers(oldCls, newCls, norm);
  std::vector<ChangedLine> out;
  for (const std::string& k : changedMethods(helpers, method)) {
    const jvm::Method* mo = methodOf(oldCls, k);
    const jvm::Method* mn = methodOf(newCls, k);
    if (!mo || !mn) continue;
    const PerVersion<MethodFacts> f{{detail::analyseMethod(oldCls, *mo), detail::analyseMethod(newCls, *mn)}};
    linesOfMethod(f, norm, k, out);
  }
  return out;
}

}  // namespace pasda::diff
