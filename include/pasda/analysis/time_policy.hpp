// Analysis stage: how a run divides its time. Every share and cap that decides what a run can
// finish before its timeout is a named field here, with its reason; `pasda-jvm -v` prints them
// (entries()) and docs/architecture.md ("Time policy") explains them.
#pragma once

#include <chrono>
#include <vector>

namespace pasda::analysis {

struct TimePolicy {
  // Exploration. It stops before the run's deadline so that the wrap-up still fits.
  double explore_margin_share = 0.05;  // of the timeout, kept for classifying the last partition and writing results
  double explore_margin_cap_s = 0.5;
  double jvm_margin_share = 0.10;      // Java arithmetic with a JVM replay: kept for the JVM's start and the replays
  double jvm_margin_cap_s = 1.0;
  unsigned feasibility_cap_ms = 250;   // one branch-feasibility query (an undecided one keeps both directions)

  // PASDA's first iteration (no abstraction) when later ones have unchanged code to abstract
  // (Options::split_time): it may use this share of the time left, the abstracted iterations
  // the rest (an unrolled loop otherwise eats the whole run before its abstraction is tried).
  double first_iteration_share = 0.5;

  // Induction (Options::induction): the attempt before the iterations may use this share of
  // the time left; the iterations get the rest.
  double induction_share = 0.5;

  // ARDiff's H1 (quantified queries) after an undecided iteration with abstractions.
  unsigned h1_query_cap_ms = 500;  // one query (or the solver timeout when smaller)
  double h1_share = 0.2;           // of the time left, for all queries of one iteration
  double h1_cap_s = 3;
  double h1_unbounded_s = 5;       // without a timeout

  // Summary-based tools: the one Neq/Eq query over both summaries.
  double summary_query_share = 1.0 / 3.0;  // of the timeout (at least the solver timeout)

  // Witnesses: replay and search.
  double interp_replay_share = 0.25;  // one interpreter replay, of the time left
  double interp_replay_min_s = 0.01;
  double interp_replay_cap_s = 5;
  double search_cap_s = 10;              // all searches of a run (Options::search_share of the timeout)
  double search_partition_share = 0.125; // one partition's search, of the time left
  double search_partition_min_s = 0.2;
  double search_partition_cap_s = 1;
  double search_reserve_s = 0.3;         // never searched away: the rest of the run
  double search_min_s = 0.05;            // below this, no search starts
  double confirm_s = 1;                  // confirming a candidate on the concrete path
  double deep_search_share = 0.1;        // searches of partitions the depth limit cut, of the timeout
  double deep_search_cap_s = 3;          // at most this in all
  double deep_search_partition_cap_s = 1;    // one such partition
  double jvm_reserve_s = 0.3;            // the JVM replay leaves this for writing the results
  double jvm_min_s = 0.2;                // below this, no JVM is started

  // Explanations of NEQ partitions (Options::explain_share of the time left at the first one).
  double explain_cap_s = 5;            // all explanations of an iteration
  double explain_partition_cap_s = 1;  // one partition
  double explain_unbounded_s = 25;     // the time "left" without a timeout
  double explain_min_s = 0.005;

  // Iterative deepening.
  double wrapup_share = 0.05;  // of the timeout, kept after the last round
  double wrapup_cap_s = 0.5;
  double min_round_s = 0.05;   // a deeper round needs at least this

  // The CLI's report from a progress snapshot when a solver call ignores its interrupt.
  double abandon_grace_s = 0.7;

  struct Entry {
    const char* name;
    double value;
    const char* unit;
    const char* reason;
  };
  /// Every field with its value, unit and reason, in the order above.
  std::vector<Entry> entries() const;
};

/// A policy value in seconds as a duration of the engine's clock.
inline std::chrono::steady_clock::duration secondsOf(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

}  // namespace pasda::analysis
