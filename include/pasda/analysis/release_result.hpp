// The result of a whole-release semantic diff, as plain values: what the release stage
// produces, the report stage prints (text, JSON, HTML, Markdown) and the store writes. Here,
// below all three (like result.hpp, a run's values), because the release stage depends on
// report (its JSON carries runs between worker processes) and so report and store cannot
// include a header of the release stage. The release stage's names for the types are the
// aliases at the end (release::ReleaseResult, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pasda/analysis/result.hpp"

namespace pasda::analysis {

/// What a method is in the diff (docs/release-diff.md, "Categories").
enum class Category : std::uint8_t {
  Added,      // declared in the new version only
  Removed,    // declared in the old version only
  Identical,  // same normalised code, and so is everything it can reach (EQ without execution)
  Affected,   // same normalised code, but a reachable callee, field or class initialiser differs
  Changed,    // its own code or modifiers differ
};

inline const char* categoryName(Category c) {
  switch (c) {
    case Category::Added: return "added";
    case Category::Removed: return "removed";
    case Category::Identical: return "identical";
    case Category::Affected: return "affected";
    case Category::Changed: return "changed";
  }
  return "?";
}

inline std::optional<Category> parseCategory(const std::string& s) {
  for (Category c : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    if (s == categoryName(c)) return c;
  return std::nullopt;
}

/// Affected and changed methods are analysed; the others are decided without execution.
inline bool analysed(Category c) { return c == Category::Affected || c == Category::Changed; }

/// One method of the diff.
struct MethodEntry {
  std::string cls;         // dotted class name
  std::string name;        // method name
  std::string descriptor;  // JVM descriptor
  Category category = Category::Identical;
  std::string reason;      // why affected or changed (the oracle's words)
  std::vector<std::string> api_changes;  // signature-level changes of this method
  /// The analysis of an affected or changed method, when it ran (absent for the others, and
  /// for analysed methods that were not started or whose worker was lost: see `note`).
  std::optional<analysis::RunResult> run;
  /// Identical: EQ; analysed: the run's result, or TIMEOUT/ERROR when the run is missing;
  /// added/removed: absent (nothing to compare).
  std::optional<classify::Verdict> verdict;
  std::string note;  // what happened when there is no run, e.g. "worker crashed (signal 11)"
  /// Affected: the changed methods it reaches ("a.B.f(I)I" keys, sorted), when they are the
  /// only differences it reaches and no code on the way catches an exception (the oracle's
  /// ClosureOracle::changedCallees); empty otherwise.
  std::vector<std::string> changed_callees;
  /// EQ by the rule of equivalent callees: every one of `changed_callees` is EQ, so the method
  /// was not analysed (docs/release-diff.md, "Equivalent callees").
  bool by_callees = false;
  double time_s = 0;  // analysis wall time (0 when not analysed)

  std::string key() const { return cls + "." + name + descriptor; }
};

/// A class added, removed or whose signature-level facts changed.
struct ClassChange {
  std::string cls;  // dotted
  std::string status;  // "added", "removed", "changed"
  std::vector<std::string> api_changes;
};

struct ReleaseSettings {
  std::string old_path, new_path;
  std::string class_filter;  // --class, or "" for the whole release
  Tool tool = Tool::Pasda;
  std::string arith = "math";
  int depth_limit = 10;
  double method_timeout_s = 10;
  double timeout_s = 0;  // overall limit, 0 = none
  int jobs = 1;
  int shard = 1, shard_count = 1;  // K/N
  std::string fingerprint;  // identical for every shard of one diff (inputs and settings)
  std::string version;
};

struct ReleaseResult {
  ReleaseSettings settings;
  std::vector<ClassChange> classes;   // sorted by name (this shard's part)
  std::vector<MethodEntry> methods;   // sorted by class, name, descriptor (this shard's part)
  std::size_t classes_old = 0, classes_new = 0, classes_common = 0;
  std::size_t methods_total = 0;      // in the whole diff, before sharding
  std::string started_at;             // ISO 8601 UTC
  double runtime_s = 0;               // wall time of the whole diff
  double oracle_s = 0;                // of the inventory and the identical-closure oracle
  std::vector<std::string> warnings;
};

/// Counts of one diff.
struct Counts {
  std::size_t per_category[5] = {0, 0, 0, 0, 0};  // indexed by Category
  std::size_t neq = 0, eq = 0, undecided = 0;     // among analysed and identical methods
  std::size_t analysed = 0, not_run = 0;          // analysed methods; those without a run (nor the rule's EQ)
  std::size_t eq_by_callees = 0;                  // affected methods EQ by the rule of equivalent callees
};

inline Counts countOf(const ReleaseResult& r) {
  Counts c;
  for (const MethodEntry& m : r.methods) {
    ++c.per_category[static_cast<int>(m.category)];
    if (analysed(m.category)) {
      ++c.analysed;
      if (!m.run && !m.by_callees) ++c.not_run;
      if (m.by_callees) ++c.eq_by_callees;
    }
    if (!m.verdict) continue;
    if (*m.verdict == classify::Verdict::NEQ) ++c.neq;
    else if (*m.verdict == classify::Verdict::EQ) ++c.eq;
    else ++c.undecided;
  }
  return c;
}

/// The verdict of the whole diff: NEQ if any method is NEQ, EQ if every compared method is EQ,
/// UNKNOWN otherwise (methods only added or removed are not compared).
inline classify::Verdict overallVerdict(const ReleaseResult& r) {
  Counts c = countOf(r);
  if (c.neq) return classify::Verdict::NEQ;
  if (c.undecided) return classify::Verdict::UNKNOWN;
  return classify::Verdict::EQ;
}

/// Exit status of a release diff: 1 any NEQ, 0 every compared method EQ, 3 otherwise. With
/// failOn "neq": 1 any NEQ, else 0; with "undecided": 1 any NEQ or undecided, else 0.
inline int releaseExitCode(const ReleaseResult& r, const std::string& failOn = "") {
  Counts c = countOf(r);
  if (failOn == "neq") return c.neq ? 1 : 0;
  if (failOn == "undecided") return (c.neq || c.undecided) ? 1 : 0;
  return c.neq ? 1 : c.undecided ? 3 : 0;
}

}  // namespace pasda::analysis

namespace pasda::release {
using analysis::analysed;
using analysis::Category;
using analysis::categoryName;
using analysis::ClassChange;
using analysis::Counts;
using analysis::countOf;
using analysis::MethodEntry;
using analysis::overallVerdict;
using analysis::parseCategory;
using analysis::ReleaseResult;
using analysis::ReleaseSettings;
using analysis::releaseExitCode;
}  // namespace pasda::release
