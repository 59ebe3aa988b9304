// The time policy's fields as a table, for `pasda-jvm -v`.
#include "pasda/analysis/time_policy.hpp"

namespace pasda::analysis {

std::vector<TimePolicy::Entry> TimePolicy::entries() const {
  return {
      {"explore_margin_share", explore_margin_share, "of timeout", "the exploration ends this early: classifying and writing the last results"},
      {"explore_margin_cap_s", explore_margin_cap_s, "s", "at most this"},
      {"jvm_margin_share", jvm_margin_share, "of timeout", "also kept, under Java arithmetic with a JVM replay, for the JVM"},
      {"jvm_margin_cap_s", jvm_margin_cap_s, "s", "at most this"},
      {"feasibility_cap_ms", static_cast<double>(feasibility_cap_ms), "ms", "one branch-feasibility query; undecided keeps both directions"},
      {"first_iteration_share", first_iteration_share, "of time left", "PASDA's unabstracted first iteration when later ones abstract code (--split-time)"},
      {"induction_share", induction_share, "of time left", "the induction attempt (coupled loops) before PASDA's iterations (--induction)"},
      {"deep_search_share", deep_search_share, "of timeout", "concrete searches of partitions cut by the depth limit"},
      {"deep_search_cap_s", deep_search_cap_s, "s", "at most this in all"},
      {"deep_search_partition_cap_s", deep_search_partition_cap_s, "s", "one such partition"},
      {"h1_query_cap_ms", static_cast<double>(h1_query_cap_ms), "ms", "one H1 quantified query"},
      {"h1_share", h1_share, "of time left", "all H1 queries of an iteration"},
      {"h1_cap_s", h1_cap_s, "s", "at most this"},
      {"h1_unbounded_s", h1_unbounded_s, "s", "H1 without a timeout"},
      {"summary_query_share", summary_query_share, "of timeout", "ARDiff/DSE's query over both summaries"},
      {"interp_replay_share", interp_replay_share, "of time left", "one interpreter replay of a witness"},
      {"interp_replay_min_s", interp_replay_min_s, "s", "at least this"},
      {"interp_replay_cap_s", interp_replay_cap_s, "s", "at most this"},
      {"search_cap_s", search_cap_s, "s", "all witness searches of a run (search_share of the timeout)"},
      {"search_partition_share", search_partition_share, "of time left", "one partition's witness search"},
      {"search_partition_min_s", search_partition_min_s, "s", "at least this"},
      {"search_partition_cap_s", search_partition_cap_s, "s", "at most this"},
      {"search_reserve_s", search_reserve_s, "s", "never taken by a search: the rest of the run"},
      {"search_min_s", search_min_s, "s", "below this no search starts"},
      {"confirm_s", confirm_s, "s", "confirming a found input on the concrete path"},
      {"jvm_reserve_s", jvm_reserve_s, "s", "left by the JVM replay for writing the results"},
      {"jvm_min_s", jvm_min_s, "s", "below this no JVM is started"},
      {"explain_cap_s", explain_cap_s, "s", "all explanations of an iteration (explain_share of the time left)"},
      {"explain_partition_cap_s", explain_partition_cap_s, "s", "one NEQ partition's explanation"},
      {"explain_unbounded_s", explain_unbounded_s, "s", "the time left assumed without a timeout"},
      {"explain_min_s", explain_min_s, "s", "below this no explanation starts"},
      {"wrapup_share", wrapup_share, "of timeout", "kept after the last deepening round"},
      {"wrapup_cap_s", wrapup_cap_s, "s", "at most this"},
      {"min_round_s", min_round_s, "s", "a deeper round needs at least this"},
      {"abandon_grace_s", abandon_grace_s, "s", "after the timeout, before the CLI reports from a snapshot"},
  };
}

}  // namespace pasda::analysis
