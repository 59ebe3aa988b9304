// Report stage: the text summary of a release diff (NEQ first, then undecided, then EQ), the
// signature-level changes and the timings (wall time, methods per class, median and 95th
// percentile per analysed method).
#include <map>

#include "format.hpp"
#include "pasda/report/release_report.hpp"

namespace pasda::report {

using release::Category;
using release::MethodEntry;
using release::ReleaseResult;

namespace {

std::string signature(const MethodEntry& m) { return m.cls + "." + m.name + m.descriptor; }

std::string oneLine(std::string s, std::size_t max = 160) {
  for (char& c : s)
    if (c == '\n' || c == '\t' || static_cast<unsigned char>(c) < 0x20) c = ' ';
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

void neqLines(const MethodEntry& m, std::ostream& out) {
  out << "  " << signature(m) << "  [" << release::categoryName(m.category) << "]\n";
  if (m.run && !m.run->precheck.empty()) {
    out << "      " << oneLine(m.run->precheck) << "\n";
    return;
  }
  const analysis::PartitionResult* p = firstNeq(m);
  if (!p) return;
  if (!p->witness_call.empty()) out << "      witness  " << oneLine(p->witness_call) << "\n";
  if (const std::vector<std::string> built = fieldBuiltObjects(p->witness_call); !built.empty()) {
    std::string names;
    for (const std::string& n : built) names += (names.empty() ? "" : ", ") + n;
    out << "      inputs   " << names << " built field by field, no constructor run: a state the fields allow;"
        << " check that the class can reach it\n";
  }
  if (!p->differs.empty()) out << "      differs  " << oneLine(p->differs) << "\n";
  else out << "      outputs  " << oneLine(p->old_effect.text(), 70) << "  vs  " << oneLine(p->new_effect.text(), 70) << "\n";
  std::string how = p->decided_by.empty() ? "solver" : p->decided_by;
  for (const auto& r : p->replays)
    if (r.differs) how += ", " + r.engine + " replay";
  out << "      proved   by " << how << "\n";
  for (const std::string& c : methodCauses(m)) out << "      cause    " << oneLine(c) << "\n";
}

void summaryLines(const ReleaseResult& r, std::ostream& out) {
  const release::Counts c = release::countOf(r);
  out << "Release diff: " << r.settings.old_path << " -> " << r.settings.new_path;
  if (!r.settings.class_filter.empty()) out << " (class " << r.settings.class_filter << ")";
  if (r.settings.shard_count > 1) out << " (shard " << r.settings.shard << "/" << r.settings.shard_count << ")";
  out << "\n";
  out << "Classes:  " << r.classes_old << " old, " << r.classes_new << " new, " << r.classes_common << " in both\n";
  out << "Methods:  " << r.methods.size() << " —";
  for (Category k : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    out << " " << release::categoryName(k) << " " << c.per_category[static_cast<int>(k)]
        << (k == Category::Changed ? "" : ",");
  out << "\n";
  out << "Verdicts: " << c.neq << " NEQ, " << c.undecided << " undecided, " << c.eq << " EQ ("
      << c.per_category[static_cast<int>(Category::Identical)] << " by identical code, " << c.eq_by_callees
      << " by equivalent callees, "
      << c.eq - std::min(c.eq, c.per_category[static_cast<int>(Category::Identical)] + c.eq_by_callees)
      << " by analysis)\n";
  for (const auto& w : r.warnings) out << "warning: " << oneLine(w, 200) << "\n";
}

void apiLines(const ReleaseResult& r, std::ostream& out, int verbosity) {
  std::size_t n = r.classes.size();
  for (const auto& m : r.methods) n += !m.api_changes.empty();
  if (n == 0) return;
  out << "\nSignature changes (" << n << "):\n";
  std::size_t shown = 0;
  const std::size_t limit = verbosity > 1 ? SIZE_MAX : 60;
  for (const auto& cc : r.classes) {
    if (shown++ >= limit) break;
    std::string all;
    for (const auto& a : cc.api_changes) all += (all.empty() ? "" : "; ") + a;
    out << "  class " << cc.cls << ": " << oneLine(all, 200) << "\n";
  }
  for (const auto& m : r.methods) {
    if (m.api_changes.empty() || (m.api_changes.size() == 1 && m.api_changes[0].find("with its class") != std::string::npos))
      continue;
    if (shown++ >= limit) break;
    std::string all;
    for (const auto& a : m.api_changes) all += (all.empty() ? "" : "; ") + a;
    out << "  " << signature(m) << ": " << oneLine(all, 200) << "\n";
  }
  if (shown > limit) out << "  ... (all of them with -v, in --format json and in --report)\n";
}

void timingLines(const ReleaseResult& r, std::ostream& out, int verbosity) {
  const ReleaseTimings t = releaseTimings(r);
  out << "\nTime:     " << detail::seconds(t.wall_s) << " s wall; inventory and identical-closure oracle "
      << detail::seconds(t.oracle_s) << " s; " << t.analysed << " analysed method(s): median "
      << detail::seconds(t.median_s) << " s, 95th percentile " << detail::seconds(t.p95_s) << " s, max "
      << detail::seconds(t.max_s) << " s\n";
  out << "Classes:  " << t.classes << " with methods in the diff; methods per class: median "
      << detail::seconds(t.methods_per_class_median) << ", 95th percentile " << detail::seconds(t.methods_per_class_p95)
      << ", max " << t.methods_per_class_max << "\n";
  struct Row {
    std::size_t methods = 0, analysed = 0, neq = 0, undecided = 0;
    double time = 0;
  };
  std::map<std::string, Row> rows;
  for (const auto& m : r.methods) {
    Row& row = rows[m.cls];
    ++row.methods;
    if (release::analysed(m.category)) ++row.analysed;
    if (m.verdict && *m.verdict == classify::Verdict::NEQ) ++row.neq;
    else if (m.verdict && *m.verdict != classify::Verdict::EQ) ++row.undecided;
    row.time += m.time_s;
  }
  out << "\nPer class" << (verbosity > 1 ? "" : " (classes with analysed methods; all with -v)")
      << ":  methods  analysed  NEQ  undecided  time\n";
  for (const auto& [cls, row] : rows) {
    if (verbosity <= 1 && row.analysed == 0) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %7zu  %8zu  %3zu  %9zu  %6s s  ", row.methods, row.analysed, row.neq,
                  row.undecided, detail::seconds(row.time).c_str());
    out << buf << cls << "\n";
  }
}

}  // namespace

void printReleaseText(const ReleaseResult& r, std::ostream& out, int verbosity) {
  const release::Counts c = release::countOf(r);
  out << "Result: " << classify::verdictName(release::overallVerdict(r));
  out << " (" << (r.settings.arith.empty() ? "" : "arithmetic: " + r.settings.arith + "; ") << c.neq << " NEQ, " << c.undecided << " undecided, " << c.eq << " EQ of " << r.methods.size()
      << " methods)\n";
  if (verbosity == 0) return;
  summaryLines(r, out);
  std::vector<const MethodEntry*> neq, undecided, eqAnalysed, identical, byCallees;
  for (const auto& m : r.methods) {
    if (!m.verdict) continue;
    if (*m.verdict == classify::Verdict::NEQ) neq.push_back(&m);
    else if (*m.verdict != classify::Verdict::EQ) undecided.push_back(&m);
    else if (m.category == Category::Identical) identical.push_back(&m);
    else if (m.by_callees) byCallees.push_back(&m);
    else eqAnalysed.push_back(&m);
  }
  if (!neq.empty()) {
    out << "\nNEQ (" << neq.size() << "):\n";
    for (const auto* m : neq) neqLines(*m, out);
  }
  if (!undecided.empty()) {
    out << "\nUndecided (" << undecided.size() << "):\n";
    for (const auto* m : undecided)
      out << "  " << signature(*m) << "  [" << release::categoryName(m->category) << "] "
          << classify::verdictName(*m->verdict) << ": " << oneLine(undecidedReason(*m)) << "\n";
  }
  if (!eqAnalysed.empty()) {
    out << "\nEQ by analysis (" << eqAnalysed.size() << "):\n";
    for (const auto* m : eqAnalysed) out << "  " << signature(*m) << "  [" << release::categoryName(m->category) << "]\n";
  }
  if (!byCallees.empty()) {
    out << "\nEQ by equivalent callees: " << byCallees.size() << (verbosity > 1 ? "\n" : " (listed with -v)\n");
    if (verbosity > 1)
      for (const auto* m : byCallees) out << "  " << signature(*m) << "  (" << oneLine(m->note, 300) << ")\n";
  }
  out << "\nEQ by identical code: " << identical.size() << (verbosity > 1 ? "\n" : " (listed with -v)\n");
  if (verbosity > 1)
    for (const auto* m : identical) out << "  " << signature(*m) << "\n";
  apiLines(r, out, verbosity);
  timingLines(r, out, verbosity);
}

}  // namespace pasda::report
