// match() and printRegions(): the public face of the unchanged-block matcher.
#include <algorithm>
#include <stdexcept>

#include "alignment.hpp"
#include "helpers.hpp"
#include "pasda/diff/diff.hpp"
#include "regions.hpp"

namespace pasda::diff {

using detail::MethodFacts;

namespace {

const jvm::Method& findOrThrow(const jvm::ClassFile& cls, const std::string& method, Version v) {
  auto colon = method.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("method must be given as name:descriptor, got '" + method + "'");
  const std::string which(versionName(v));
  const jvm::Method* m = cls.findMethod(method.substr(0, colon), method.substr(colon + 1));
  if (m == nullptr) throw std::invalid_argument("method " + method + " not found in the " + which + " version");
  if (!m->code) throw std::invalid_argument("method " + method + " has no code in the " + which + " version");
  return *m;
}

void collectHelpers(detail::HelperOracle& helpers, const std::string& method, MatchResult& r,
                    std::vector<std::string>& changed) {
  // Helpers reachable from the method in either version, old version's order first.
  for (const std::string& k : helpers.reachableHelpers(method)) {
    if (helpers.identical(k)) {
      r.identical_helpers.push_back(k);
      if (helpers.pure(k)) r.pure_helpers.push_back(k);
    } else {
      r.notes.push_back("helper " + k + " differs between the versions (or calls one that does)");
      changed.push_back(k);
    }
  }
}

/// The recursion rule's precondition (MatchResult::shares_recursion).
void shareRecursion(detail::HelperOracle& helpers, const std::string& method, MatchResult& r) {
  bool anyRecursive = false;
  std::string why;
  for (Version v : kBothVersions) {
    bool recursive = false;
    std::string blocker = helpers.recursionBlocker(method, v, &recursive);
    anyRecursive = anyRecursive || recursive;
    if (why.empty() && !blocker.empty()) why = std::string(versionName(v)) + " version: " + blocker;
  }
  if (!anyRecursive) return;
  r.shares_recursion = why.empty();
  r.recursion_note = why;
}

std::vector<Region> regionsOf(const PerVersion<MethodFacts>& facts, const detail::Normaliser& norm,
                              detail::HelperOracle& helpers, const std::string& method, std::vector<std::string>& notes) {
  if (!facts[Version::kOld].depth_ok || !facts[Version::kNew].depth_ok) {
    notes.push_back(method + ": operand-stack heights could not be computed (subroutines or inconsistent code): no regions");
    return {};
  }
  detail::Alignment al;
  try {
    al = detail::align(facts[Version::kOld], facts[Version::kNew], norm);
  } catch (const std::length_error& e) {
    notes.push_back(method + ": " + e.what() + ": no regions");
    return {};
  }
  notes.insert(notes.end(), al.notes.begin(), al.notes.end());
  detail::RegionContext ctx{{{&facts[Version::kOld], &facts[Version::kNew]}}, &al, &helpers};
  std::vector<Region> regions = detail::findRegions(ctx, notes);
  for (auto& reg : regions) reg.method = method;
  return regions;
}

}  // namespace

MatchResult match(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls, const std::string& method) {
  const jvm::Method& mo = findOrThrow(oldCls, method, Version::kOld);
  const jvm::Method& mn = findOrThrow(newCls, method, Version::kNew);
  detail::Normaliser norm(oldCls.name(), newCls.name());
  const PerVersion<MethodFacts> facts{{detail::analyseMethod(oldCls, mo), detail::analyseMethod(newCls, mn)}};
  detail::HelperOracle helpers(oldCls, newCls, norm);
  MatchResult r;
  std::vector<std::string> changed;
  collectHelpers(helpers, method, r, changed);
  r.regions = regionsOf(facts, norm, helpers, method, r.notes);
  shareRecursion(helpers, method, r);
  // Changed helpers (present in both versions, code differing) are compared the same way: their
  // unchanged regions are abstracted wherever the helper runs. Ids continue after the entry's.
  for (const std::string& k : changed) {
    auto colon = k.find(':');
    const jvm::Method* ho = oldCls.findMethod(k.substr(0, colon), k.substr(colon + 1));
    const jvm::Method* hn = newCls.findMethod(k.substr(0, colon), k.substr(colon + 1));
    if (!ho || !hn || !ho->code || !hn->code) continue;
    const PerVersion<MethodFacts> hf{{detail::analyseMethod(oldCls, *ho), detail::analyseMethod(newCls, *hn)}};
    for (Region& reg : regionsOf(hf, norm, helpers, k, r.notes)) {
      reg.id = static_cast<int>(r.regions.size()) + 1;
      r.regions.push_back(std::move(reg));
    }
  }
  return r;
}

namespace {

void printLines(const std::vector<int>& lines, std::ostream& out) {
  if (lines.empty()) {
    out << "?";
    return;
  }
  // Compress runs: 3-5,8
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (i > 0) out << ",";
    out << lines[i];
    if (j > i) out << "-" << lines[j];
    i = j + 1;
  }
}

void printVars(const char* label, const std::vector<RegionVar>& vars, std::ostream& out) {
  out << "    " << label << ":";
  if (vars.empty()) out << " (none)";
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const auto& v = vars[i];
    out << (i ? ", " : " ") << v.name << ":" << v.type << " (slot " << v.slot[Version::kOld];
    if (v.slot[Version::kNew] != v.slot[Version::kOld]) out << " -> " << v.slot[Version::kNew];
    out << ")";
  }
  out << "\n";
}

}  // namespace

bool worthAbstracting(const Region& r) {
  // A region without inputs computes constants (it reads no local, and its calls are pure):
  // its outputs fold to literals, and a UIF of nothing could only lose them.
  if (r.inputs.empty()) return false;
  return r.branches || r.whole_loop || r.loop_depth > 0 || r.nonlinear > 0;
}

void printRegions(const MatchResult& m, std::ostream& out, bool verbose) {
  if (m.regions.empty()) out << "no unchanged regions to abstract\n";
  for (const auto& r : m.regions) {
    out << "region " << r.id << " in " << r.method << "\n";
    for (Version v : kBothVersions) {
      out << "    " << versionName(v) << ": pc " << r.start_pc[v] << ".." << r.exit_pc[v] << " (exit " << r.exit_pc[v]
          << "), lines ";
      printLines(r.lines[v], out);
      out << "\n";
    }
    printVars("inputs", r.inputs, out);
    printVars("outputs", r.outputs, out);
    out << "    loop depth " << r.loop_depth << ", nonlinear " << r.nonlinear << (r.whole_loop ? ", whole loop" : "")
        << (r.branches ? ", branches" : "") << "\n";
    if (!worthAbstracting(r)) out << "    kept concrete: straight-line, linear, call-free code\n";
  }
  out << "identical helpers:";
  if (m.identical_helpers.empty()) out << " (none)";
  for (const auto& h : m.identical_helpers) {
    bool pure = std::find(m.pure_helpers.begin(), m.pure_helpers.end(), h) != m.pure_helpers.end();
    out << " " << h << (pure ? " [pure]" : "");
  }
  out << "\n";
  if (verbose && !m.notes.empty()) {
    out << "notes:\n";
    for (const auto& n : m.notes) out << "    " << n << "\n";
  }
}

}  // namespace pasda::diff
