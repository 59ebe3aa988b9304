// Report stage: a release diff as Markdown for a pull-request comment: the verdict, counts,
// every NEQ with its witness, the undecided methods and the signature changes, cut to stay
// under the comment size limits of the usual forges (about 60 000 characters).
#include <sstream>

#include "format.hpp"
#include "pasda/report/release_report.hpp"

namespace pasda::report {

using release::Category;
using release::MethodEntry;
using release::ReleaseResult;

namespace {

constexpr std::size_t kBudget = 60000;

// Markdown table cells: no pipes or line breaks; code spans without backticks inside.
std::string cell(std::string s, std::size_t max = 200) {
  for (char& c : s) {
    if (c == '|') c = '/';
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == '`') c = '\'';
  }
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

std::string code(const std::string& s, std::size_t max = 200) { return "`" + cell(s, max) + "`"; }

std::string causesCell(const MethodEntry& m) {
  std::string out;
  for (const std::string& c : methodCauses(m)) out += (out.empty() ? "" : "; or ") + c;
  return out;
}

}  // namespace

std::string releaseMarkdown(const ReleaseResult& r) {
  const release::Counts c = release::countOf(r);
  const ReleaseTimings t = releaseTimings(r);
  std::ostringstream md;
  const char* verdict = classify::verdictName(release::overallVerdict(r));
  md << "### pasda-jvm release diff: **" << verdict << "**\n\n";
  md << code(r.settings.old_path) << " → " << code(r.settings.new_path);
  if (r.settings.shard_count > 1) md << " (shard " << r.settings.shard << "/" << r.settings.shard_count << ")";
  md << "\n\n| methods | added | removed | identical | affected | changed | NEQ | undecided | EQ |\n"
     << "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n| " << r.methods.size();
  for (Category k : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    md << " | " << c.per_category[static_cast<int>(k)];
  md << " | " << c.neq << " | " << c.undecided << " | " << c.eq << " |\n\n";
  std::string out = md.str();
  auto add = [&](const std::string& s) {
    if (out.size() + s.size() > kBudget) return false;
    out += s;
    return true;
  };
  std::size_t skipped = 0;
  if (c.neq) {
    add("#### Behaviour changes (NEQ)\n\n| method | category | witness | what differs | cause |\n|---|---|---|---|---|\n");
    for (const MethodEntry& m : r.methods) {
      if (!m.verdict || *m.verdict != classify::Verdict::NEQ) continue;
      const analysis::PartitionResult* p = firstNeq(m);
      std::string what = m.run && !m.run->precheck.empty() ? m.run->precheck
                         : p && !p->differs.empty()       ? p->differs
                         : p ? p->old_effect.text() + " vs " + p->new_effect.text() : "";
      if (!add("| " + code(m.cls + "." + m.name + m.descriptor) + " | " + release::categoryName(m.category) + " | " +
               (p && !p->witness_call.empty() ? code(p->witness_call) : std::string("")) + " | " + cell(what) + " | " +
               cell(causesCell(m)) + " |\n"))
        ++skipped;
    }
    add("\n");
  }
  if (c.undecided) {
    add("<details><summary>Undecided (" + std::to_string(c.undecided) + ")</summary>\n\n| method | result | reason |\n|---|---|---|\n");
    for (const MethodEntry& m : r.methods) {
      if (!m.verdict || *m.verdict == classify::Verdict::NEQ || *m.verdict == classify::Verdict::EQ) continue;
      if (!add("| " + code(m.cls + "." + m.name + m.descriptor) + " | " + classify::verdictName(*m.verdict) + " | " +
               cell(undecidedReason(m)) + " |\n"))
        ++skipped;
    }
    add("\n</details>\n\n");
  }
  std::size_t api = r.classes.size();
  for (const MethodEntry& m : r.methods) api += !m.api_changes.empty();
  if (api) {
    add("<details><summary>Signature changes (" + std::to_string(api) + ")</summary>\n\n");
    for (const auto& cc : r.classes) {
      std::string all;
      for (const auto& a : cc.api_changes) all += (all.empty() ? "" : "; ") + a;
      if (!add("- class " + code(cc.cls) + ": " + cell(all) + "\n")) ++skipped;
    }
    for (const MethodEntry& m : r.methods) {
      if (m.api_changes.empty()) continue;
      std::string all;
      for (const auto& a : m.api_changes) all += (all.empty() ? "" : "; ") + a;
      if (!add("- " + code(m.cls + "." + m.name + m.descriptor) + ": " + cell(all) + "\n")) ++skipped;
    }
    add("\n</details>\n\n");
  }
  std::string tail = "<sub>" + std::to_string(t.analysed) + " methods analysed in " + detail::seconds(t.wall_s) +
                     " s (median " + detail::seconds(t.median_s) + " s, 95th percentile " + detail::seconds(t.p95_s) +
                     " s per method)";
  if (skipped) tail += "; " + std::to_string(skipped) + " rows left out for length: see the HTML report";
  return out + tail + ".</sub>\n";
}

}  // namespace pasda::report
