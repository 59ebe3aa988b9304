// Report stage: a release diff for people (text summary, a self-contained HTML page, Markdown
// for pull-request comments) and for programs (JSON, readable back for merging shards).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "pasda/analysis/release_result.hpp"
#include "pasda/report/json.hpp"

namespace pasda::report {

/// Figures of a diff's run time.
struct ReleaseTimings {
  double wall_s = 0, oracle_s = 0;
  std::size_t analysed = 0;                       // methods with a run
  double median_s = 0, p95_s = 0, max_s = 0;      // per analysed method
  std::size_t classes = 0;                        // classes with methods in the diff
  double methods_per_class_median = 0, methods_per_class_p95 = 0;
  std::size_t methods_per_class_max = 0;
};
ReleaseTimings releaseTimings(const release::ReleaseResult& r);

/// One JSON object: kind ("release-diff"), result, exit_code, settings, counts, classes_*,
/// methods_total, started_at, runtime_s, oracle_s, timings, warnings, classes (signature-level
/// changes of classes) and methods (one object per method: class, method, descriptor,
/// category, result, decided_by, reason, api_changes, note, time_s, witness_call, differs,
/// witness_built_by_fields (fieldBuiltObjects of the witness call),
/// run — the single-method run object of printJson without its top-level "partitions" (a copy
/// of the reported iteration's), or null).
Json releaseToJson(const release::ReleaseResult& r);
/// The inverse of releaseToJson. Throws JsonError.
release::ReleaseResult releaseFromJson(const Json& j);
void printReleaseJson(const release::ReleaseResult& r, std::ostream& out);

/// The text summary: result line; counts per category and verdict; NEQ methods first (witness
/// call and what differs), then undecided ones (with the reason), then EQ by analysis;
/// signature-level changes; timings. verbosity 0 (-q): the result line only; 2 (-v): also the
/// identical methods and every class.
void printReleaseText(const release::ReleaseResult& r, std::ostream& out, int verbosity);

/// Markdown for a pull-request comment (bounded in length).
std::string releaseMarkdown(const release::ReleaseResult& r);

/// A self-contained HTML page (no external resources): summary, a sortable table of every
/// method with its category and result, and per-method details (path conditions, witnesses,
/// the lines each NEQ partition covers in each version, signature changes).
std::string releaseHtml(const release::ReleaseResult& r);

/// Write `dir`/index.html and `dir`/summary.md (creating `dir`). Returns the paths written;
/// throws std::runtime_error when a file cannot be written.
std::vector<std::string> writeReleaseReport(const release::ReleaseResult& r, const std::string& dir);

/// The first NEQ partition of a method's run (reported iteration), or nullptr.
const analysis::PartitionResult* firstNeq(const release::MethodEntry& m);

/// The causes of every NEQ partition of a method's run (reported iteration), one text per
/// distinct minimal correction set ("new line 42 (x * 5 → x * 10)"), in partition order.
std::vector<std::string> methodCauses(const release::MethodEntry& m);

/// The objects of a witness call that the replay builds field by field, without running a
/// constructor ("StopWatch{runningState = null}" in "StopWatch{runningState = null}.getTime()"):
/// their class names, in order, once each. Such a witness shows a state the fields allow; whether
/// the class's own methods can reach it is for the maintainer to judge.
std::vector<std::string> fieldBuiltObjects(const std::string& witnessCall);

/// Why an analysed method is undecided, in a few words ("TIMEOUT: ...", "2 MAYBE_NEQ partitions").
std::string undecidedReason(const release::MethodEntry& m);

}  // namespace pasda::report
