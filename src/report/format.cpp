// Report stage: shared formatting helpers.
#include "format.hpp"

#include <cmath>
#include <cstdio>

#include "pasda/report/report.hpp"

namespace pasda::report {

std::string formatLines(const std::vector<int>& lines) {
  if (lines.empty()) return "-";
  std::string out;
  std::size_t i = 0;
  while (i < lines.size()) {
    std::size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(lines[i]);
    if (j > i) out += "-" + std::to_string(lines[j]);
    i = j + 1;
  }
  return out;
}

namespace detail {

const char* statusText(solver::Status s) {
  switch (s) {
    case solver::Status::Sat: return "SAT";
    case solver::Status::Unsat: return "UNSAT";
    case solver::Status::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

const char* effectKindText(analysis::Effect::Kind k) {
  switch (k) {
    case analysis::Effect::Kind::Return: return "return";
    case analysis::Effect::Kind::Throw: return "throw";
    case analysis::Effect::Kind::Void: return "void";
    case analysis::Effect::Kind::None: return "none";
  }
  return "none";
}

std::string causeText(const analysis::Cause& c) {
  std::string out;
  for (const analysis::CauseLine& l : c.lines) {
    if (!out.empty()) out += "; ";
    out += l.side + " line " + std::to_string(l.line);
    if (l.kind == "changed") out += " (" + l.old_code + " \u2192 " + l.new_code + ")";
    else out += " " + l.kind + " (" + (l.side == "old" ? l.old_code : l.new_code) + ")";
  }
  return out;
}

std::string seconds(double s) {
  if (!std::isfinite(s)) return "?";
  char buf[32];
  const double a = std::fabs(s);
  std::snprintf(buf, sizeof buf, a >= 1000 ? "%.0f" : a >= 1 ? "%.2f" : "%.3f", s);
  return buf;
}

std::vector<std::string> wrap(std::string_view text, std::size_t firstIndent, std::size_t indent,
                              std::size_t width) {
  std::vector<std::string> lines;
  std::string cur;
  auto cap = [&] {
    const std::size_t used = lines.empty() ? firstIndent : indent;
    return width > used + 1 ? width - used : std::size_t{1};
  };
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size()) break;
    std::size_t j = text.find(' ', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view word = text.substr(i, j - i);
    i = j;
    if (cur.empty() ? word.size() <= cap() : cur.size() + 1 + word.size() <= cap()) {
      if (!cur.empty()) cur += ' ';
      cur += word;
      continue;
    }
    if (!cur.empty()) {
      lines.push_back(cur);
      cur.clear();
    }
    while (word.size() > cap()) {  // a token longer than a whole line
      const std::size_t n = cap();
      lines.emplace_back(word.substr(0, n));
      word.remove_prefix(n);
    }
    cur = std::string(word);
  }
  if (!cur.empty() || lines.empty()) lines.push_back(cur);
  for (std::size_t k = 1; k < lines.size(); ++k) lines[k] = std::string(indent, ' ') + lines[k];
  return lines;
}

const analysis::IterationResult* reportedIteration(const analysis::RunResult& run) {
  if (run.reported_iteration < run.iterations.size()) return &run.iterations[run.reported_iteration];
  return nullptr;
}

std::vector<std::pair<const char*, double>> stepList(const analysis::StepTimes& s) {
  return {{"initialization", s.initialization},
          {"instrumentation", s.instrumentation},
          {"symbolic-execution", s.symbolic_execution},
          {"partition-classification", s.partition_classification},
          {"program-classification", s.program_classification},
          {"refinement", s.refinement},
          {"finalization", s.finalization}};
}

}  // namespace detail
}  // namespace pasda::report
