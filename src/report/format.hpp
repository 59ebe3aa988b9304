// Report stage (private): small formatting helpers shared by the text and JSON reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pasda/analysis/result.hpp"

namespace pasda::report::detail {

const char* statusText(solver::Status s);  // "SAT", "UNSAT", "UNKNOWN"
const char* effectKindText(analysis::Effect::Kind k);  // "return", "throw", "void", "none"

/// Seconds with a precision that suits the magnitude ("0.012", "1.25", "310").
std::string seconds(double s);

/// Greedy word wrap of `text` to `width` columns: the first line starts after `firstIndent`
/// columns already used, continuation lines are indented by `indent` spaces. Breaks at spaces;
/// a word longer than a line is split.
std::vector<std::string> wrap(std::string_view text, std::size_t firstIndent, std::size_t indent,
                              std::size_t width);

/// The run's reported iteration, or nullptr when the run has none (or the index is stale).
const analysis::IterationResult* reportedIteration(const analysis::RunResult& run);

/// The step times of Table 10 as (step name, seconds), in step order.
std::vector<std::pair<const char*, double>> stepList(const analysis::StepTimes& s);

/// One minimal correction set in a line: "new line 42 (x * 5 → x * 10)", "new line 7 inserted
/// (if (x < 0) return 0;)", "old line 9 deleted (y++;)"; several lines joined by "; ".
std::string causeText(const analysis::Cause& c);

}  // namespace pasda::report::detail
