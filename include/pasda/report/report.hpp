// Report stage: renders a RunResult for people (text) and for programs (JSON).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "pasda/analysis/result.hpp"
#include "pasda/analysis/time_policy.hpp"

namespace pasda::report {

/// Human-readable report, at most 100 columns wide except for unbreakable tokens:
///   verbosity 0 (-q): only the result line ("Result: NEQ", with the pre-check reason or the
///                     first line of the error in parentheses when there is one);
///   verbosity 1:      result line, run facts, warnings and errors, the partition table of the
///                     reported iteration (paper Table 3: path condition, covered lines, outputs,
///                     reachability, output class, overall class, witness), the iterations
///                     summary and the time of each step;
///   verbosity 2 (-v): additionally the solver statuses, unknown reasons, outputs in the Neq
///                     model, replays, the UIFs of each iteration and the partitions of every
///                     iteration.
void printText(const analysis::RunResult& run, std::ostream& out, int verbosity);
/// The run's time policy, one line per share or cap with its reason (`-v`).
void printTimePolicy(const analysis::TimePolicy& policy, std::ostream& out);

/// One JSON object (UTF-8, newline-terminated) with the keys result, exit_code, precheck,
/// errors, warnings, timed_out, depth_limited, has_uif, runtime_s, started_at, settings,
/// reported_iteration (the reported iteration's 1-based index, null without iterations),
/// partitions (of the reported iteration), iterations (all, each with its partitions) and
/// steps (seconds per step of the paper's Table 10). Partitions carry result, path_condition,
/// witness (object name -> Java literal), witness_values, witness_call, reachability,
/// output_class, lines_old, lines_new, output_old, output_new, effect_old, effect_new,
/// pc_status, neq_status, eq_status ("SAT"/"UNSAT"/"UNKNOWN" or null), and the flags.
void printJson(const analysis::RunResult& run, std::ostream& out);

/// `s` as a quoted JSON string: quotes, backslashes and control characters escaped, invalid
/// UTF-8 bytes replaced by U+FFFD.
std::string jsonString(std::string_view s);

/// Sorted line numbers in compact form: {3, 4, 5, 9} -> "3-5, 9"; empty -> "-".
std::string formatLines(const std::vector<int>& lines);

}  // namespace pasda::report
