// Report stage: the human-readable report (result line, partition table like the paper's
// Table 3, iterations summary, step times), at most 100 columns wide.
#include <iomanip>
#include <sstream>

#include "format.hpp"
#include "pasda/report/report.hpp"

namespace pasda::report {

using analysis::IterationResult;
using analysis::PartitionResult;
using analysis::RunResult;
using classify::verdictName;

namespace {

constexpr std::size_t kWidth = 100;
constexpr std::size_t kDetailIndent = 5;   // detail lines under a partition row
constexpr std::size_t kLabelWidth = 9;     // "witness  "

std::string firstLine(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl) + " ...";
}

/// "label    text", wrapped with a hanging indent under the text; multi-line text (stack
/// traces) keeps its line breaks.
void labeled(std::ostream& out, std::size_t indent, const std::string& label, const std::string& rawText) {
  // Keep terminal control characters out of the report: tabs become spaces, others '?'.
  std::string text = rawText;
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\t') c = ' ';
    else if ((u < 0x20 && c != '\n') || u == 0x7f) c = '?';
  }
  std::string head = std::string(indent, ' ') + label;
  if (head.size() < indent + kLabelWidth) head.resize(indent + kLabelWidth, ' ');
  else head += ' ';
  std::size_t start = 0;
  bool first = true;
  for (;;) {
    const std::size_t nl = text.find('\n', start);
    const std::string part = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    const auto lines = detail::wrap(part, head.size(), head.size(), kWidth);
    out << (first ? head : std::string(head.size(), ' ')) << lines[0] << '\n';
    for (std::size_t k = 1; k < lines.size(); ++k) out << lines[k] << '\n';
    first = false;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

std::string flags(bool timedOut, bool depthLimited, bool uif) {
  std::string f;
  auto add = [&](const char* s) {
    if (!f.empty()) f += ", ";
    f += s;
  };
  if (timedOut) add("timed out");
  if (depthLimited) add("depth limited");
  if (uif) add("over-approximated (UIF)");
  return f;
}

std::string optStatus(const std::optional<solver::Status>& s) {
  return s ? detail::statusText(*s) : "-";
}

void witnessLines(std::ostream& out, const PartitionResult& p) {
  if (p.witness.empty() && p.witness_call.empty()) return;
  std::string w;
  for (const auto& v : p.witness) {
    if (!w.empty()) w += ", ";
    w += v.name + " = " + v.literal;
    if (!v.exact.empty()) w += " (exact " + v.exact + ")";
  }
  if (!w.empty()) labeled(out, kDetailIndent, "witness", w);
  if (!p.witness_call.empty()) labeled(out, kDetailIndent, "call", p.witness_call);
  if (!p.differs.empty()) labeled(out, kDetailIndent, "differs", p.differs);
  for (std::size_t i = 0; i < p.causes.size(); ++i)
    labeled(out, kDetailIndent, "cause", (i ? "or " : "") + detail::causeText(p.causes[i]));
  if (p.causes.empty() && !p.cause_note.empty() && p.result == classify::Verdict::NEQ)
    labeled(out, kDetailIndent, "cause", "? (" + p.cause_note + ")");
}

void partitionRow(std::ostream& out, const PartitionResult& p, int verbosity) {
  const std::string linesOld = formatLines(p.lines_old), linesNew = formatLines(p.lines_new);
  const bool linesFit = linesOld.size() <= 16 && linesNew.size() <= 16;
  std::ostringstream row;
  row << std::left << std::setw(4) << p.index << ' ' << std::setw(14) << verdictName(p.result)
      << std::setw(17) << classify::reachabilityName(p.reachability) << std::setw(14)
      << verdictName(p.output_class);
  if (linesFit) row << std::setw(18) << linesOld << linesNew;
  else row << "(see below)";
  std::string r = row.str();
  while (!r.empty() && r.back() == ' ') r.pop_back();
  out << "  " << r << '\n';
  labeled(out, kDetailIndent, "pc", p.path_condition.empty() ? "true" : p.path_condition);
  if (!linesFit) {
    labeled(out, kDetailIndent, "lines old", linesOld);
    labeled(out, kDetailIndent, "lines new", linesNew);
  }
  labeled(out, kDetailIndent, "old", p.old_effect.text());
  labeled(out, kDetailIndent, "new", p.new_effect.text());
  witnessLines(out, p);
  if (verbosity >= 2) {
    std::string st = "pc " + std::string(detail::statusText(p.pc_status)) + ", neq " + optStatus(p.neq_status) +
                     ", eq " + optStatus(p.eq_status) + "; " + std::to_string(p.constraint_count) +
                     " constraints; closed at " + detail::seconds(p.time_s) + " s";
    const std::string f = flags(p.timed_out, p.depth_limited, false);
    if (!f.empty()) st += "; " + f;
    std::string uif;
    if (p.uif_pc) uif += " pc";
    if (p.uif_old) uif += " old";
    if (p.uif_new) uif += " new";
    if (!uif.empty()) st += "; UIF in" + uif;
    labeled(out, kDetailIndent, "queries", st);
    if (!p.reason_unknown.empty()) labeled(out, kDetailIndent, "unknown", p.reason_unknown);
    if (!p.neq_old.empty() || !p.neq_new.empty()) {
      labeled(out, kDetailIndent, "neq model", "old " + p.neq_old + ", new " + p.neq_new);
    }
    if (!p.decided_by.empty()) labeled(out, kDetailIndent, "decided", p.decided_by);
    for (const auto& rp : p.replays) {
      std::string t = rp.engine + ": old " + rp.old_out + ", new " + rp.new_out +
                      (rp.differs ? " (differ)" : " (same)");
      if (!rp.note.empty()) t += "; " + rp.note;
      labeled(out, kDetailIndent, "replay", t);
    }
  }
}

void partitionTable(std::ostream& out, const IterationResult& it, int verbosity) {
  out << "Partitions of iteration " << it.index << " (" << it.partitions.size() << "):\n";
  if (it.partitions.empty()) {
    out << "  (none recorded)\n";
    return;
  }
  std::ostringstream head;
  head << std::left << std::setw(4) << "#" << ' ' << std::setw(14) << "Class" << std::setw(17) << "Reachability"
       << std::setw(14) << "Output class" << std::setw(18) << "Lines old" << "Lines new";
  out << "  " << head.str() << '\n';
  for (const auto& p : it.partitions) partitionRow(out, p, verbosity);
}

std::string resultLine(const RunResult& run) {
  std::string line = std::string("Result: ") + verdictName(run.result);
  if (!run.settings.arith.empty()) line += " (arithmetic: " + run.settings.arith + ")";
  // The mechanism when it is not the solver's proof on the code as it is (nor the pre-check's).
  const bool decided = run.result == classify::Verdict::EQ || run.result == classify::Verdict::NEQ;
  if (decided && !run.decided_by.empty() && run.decided_by != "solver" && run.decided_by != "precheck" &&
      run.decided_by != "identical")
    line += " (decided by: " + run.decided_by + ")";
  if (!run.precheck.empty()) line += " (pre-check: " + firstLine(run.precheck) + ")";
  if (!run.errors.empty()) line += " (error: " + firstLine(run.errors) + ")";
  return line;
}

/// "40 (deepening: 3 rounds from 10)", "10 (deepening off)", "10 (deepening: not needed)".
std::string depthLine(const RunResult& run) {
  const auto& s = run.settings;
  std::string line = std::to_string(run.depth_limit_used);
  if (!s.deepen) return line + " (deepening off)";
  if (run.deepening_rounds <= 1 && run.deepening_note.empty()) return line + " (deepening: not needed)";
  line += " (deepening: " + std::to_string(run.deepening_rounds) +
          (run.deepening_rounds == 1 ? " round" : " rounds") + " from " + std::to_string(s.depth_limit) + ")";
  if (!run.deepening_note.empty()) line += "; " + run.deepening_note;
  return line;
}

}  // namespace

void printText(const RunResult& run, std::ostream& out, int verbosity) {
  out << resultLine(run) << '\n';
  if (verbosity <= 0) return;
  const auto& s = run.settings;
  const std::size_t ind = 2;
  std::string method = s.class_old == s.class_new ? s.class_old : s.class_old + " / " + s.class_new;
  if (!s.method.empty()) method += (method.empty() ? "" : ".") + s.method;
  labeled(out, ind, "method", method.empty() ? "-" : method);
  if (!s.old_path.empty() || !s.new_path.empty()) {
    labeled(out, ind, "old", s.old_path);
    labeled(out, ind, "new", s.new_path);
  }
  std::ostringstream set;
  set << "tool " << analysis::toolName(s.tool) << ", timeout " << (s.timeout_s > 0 ? detail::seconds(s.timeout_s) + " s" : "none")
      << ", depth limit " << s.depth_limit << ", arith " << s.arith << ", solver timeout "
      << s.solver_timeout_ms << " ms";
  if (s.heap_bound > 0) set << ", heap bound " << s.heap_bound;
  if (!s.benchmark.empty()) set << ", case " << s.benchmark;
  if (!s.expected.empty()) set << " (expected " << s.expected << ")";
  labeled(out, ind, "settings", set.str());
  std::string runLine = detail::seconds(run.runtime_s) + " s, " + std::to_string(run.iterations.size()) +
                        (run.iterations.size() == 1 ? " iteration" : " iterations");
  if (const auto* it = detail::reportedIteration(run)) runLine += ", reported iteration " + std::to_string(it->index);
  const std::string f = flags(run.timed_out, run.depth_limited, run.has_uif);
  if (!f.empty()) runLine += "; " + f;
  labeled(out, ind, "run", runLine);
  if (run.deepening_rounds > 0) labeled(out, ind, "depth limit", depthLine(run));
  if (!run.decided_by.empty()) labeled(out, ind, "decided by", run.decided_by);
  if (!run.induction_note.empty()) labeled(out, ind, "induction", run.induction_note);
  if (!run.precheck.empty()) labeled(out, ind, "pre-check", run.precheck);
  if (!run.errors.empty()) labeled(out, ind, "errors", run.errors);
  for (const auto& w : run.warnings) labeled(out, ind, "warning", w);

  if (verbosity >= 2) {
    for (const auto& it : run.iterations) {
      out << '\n';
      partitionTable(out, it, verbosity);
    }
  } else if (const auto* it = detail::reportedIteration(run)) {
    out << '\n';
    partitionTable(out, *it, verbosity);
  }

  if (!run.iterations.empty()) {
    out << "\nIterations:\n";
    for (const auto& it : run.iterations) {
      std::ostringstream prefix;
      prefix << std::left << std::setw(4) << it.index << ' ' << std::setw(14) << verdictName(it.result)
             << std::right << std::setw(4) << it.partitions.size() << " partitions " << std::setw(8)
             << detail::seconds(it.runtime_s) << " s  ";
      std::string tail = flags(it.timed_out, it.depth_limited, it.has_uif);
      if (!it.error.empty()) tail += (tail.empty() ? "" : "; ") + std::string("error: ") + firstLine(it.error);
      const std::string head = prefix.str();
      const auto ws = detail::wrap(tail, 2 + head.size(), 8, kWidth);
      std::string first = "  " + head + ws[0];
      while (!first.empty() && first.back() == ' ') first.pop_back();
      out << first << '\n';
      for (std::size_t k = 1; k < ws.size(); ++k) out << ws[k] << '\n';
      if (verbosity >= 2) {
        for (const auto& u : it.uifs) labeled(out, 8, "uif", u);
        if (!it.error.empty() && it.error.find('\n') != std::string::npos) labeled(out, 8, "error", it.error);
      }
    }
  }

  out << "\nTime per step:\n";
  int n = 1;
  for (const auto& [name, secs] : detail::stepList(run.steps)) {
    std::ostringstream line;
    line << "  " << n++ << ' ' << std::left << std::setw(26) << name << std::right << std::setw(9)
         << detail::seconds(secs) << " s\n";
    out << line.str();
  }
  std::ostringstream total;
  total << "    " << std::left << std::setw(26) << "total (run clock)" << std::right << std::setw(9)
        << detail::seconds(run.runtime_s) << " s\n";
  out << total.str();
}

void printTimePolicy(const analysis::TimePolicy& policy, std::ostream& out) {
  out << "\nTime policy (docs/architecture.md, \"Time policy\"):\n";
  std::size_t width = 0;
  for (const auto& e : policy.entries()) width = std::max(width, std::string(e.name).size());
  for (const auto& e : policy.entries()) {
    std::ostringstream value;
    value << e.value << " " << e.unit;
    out << "  " << std::left << std::setw(static_cast<int>(width)) << e.name << "  " << std::setw(18) << value.str()
        << "  " << e.reason << "\n";
  }
}

}  // namespace pasda::report
