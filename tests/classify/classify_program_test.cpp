// Program-level rules: iteration class (§8 with §9.4's TIMEOUT rule), reported iteration
// (§9.1), summary-based verdicts (§12.2), PRV's missing best-effort classes, exit codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pasda/classify/classify.hpp"

namespace pasda::classify {
namespace {

using V = Verdict;

struct IterRow {
  std::vector<V> partitions;
  bool error, timedOut;
  V expected;
  const char* rule;
};

TEST(IterationVerdict, EveryRuleInOrder) {
  const IterRow rows[] = {
      // Rule 1: error flag or ERROR partition.
      {{V::EQ, V::EQ}, true, false, V::ERROR, "1 error flag beats EQ"},
      {{V::NEQ}, true, false, V::ERROR, "1 error flag beats NEQ"},
      {{}, true, true, V::ERROR, "1 error flag beats timeout"},
      {{V::EQ, V::ERROR, V::NEQ}, false, false, V::ERROR, "1 ERROR partition"},
      // Rule 2: any NEQ.
      {{V::EQ, V::NEQ, V::UNKNOWN}, false, false, V::NEQ, "2 NEQ among others"},
      {{V::MAYBE_NEQ, V::NEQ}, false, true, V::NEQ, "2 NEQ even when timed out"},
      {{V::NEQ, V::DEPTH_LIMITED, V::TIMEOUT}, false, false, V::NEQ, "2 NEQ beats cut partitions"},
      // Rule 3: EQ proof.
      {{V::EQ}, false, false, V::EQ, "3 single EQ"},
      {{V::EQ, V::UNREACHABLE, V::EQ}, false, false, V::EQ, "3 EQ and UNREACHABLE"},
      // Rule 3 fails on timeout -> rule 5: a timed-out iteration is never EQ.
      {{V::EQ, V::EQ}, false, true, V::MAYBE_EQ, "3/5 timed out all-EQ is MAYBE_EQ"},
      // Rule 4.
      {{V::EQ, V::MAYBE_NEQ, V::MAYBE_EQ}, false, false, V::MAYBE_NEQ, "4 MAYBE_NEQ"},
      {{V::MAYBE_NEQ, V::UNKNOWN}, false, false, V::MAYBE_NEQ, "4 MAYBE_NEQ beats UNKNOWN"},
      // Rule 5: MAYBE_EQ, or EQ mixed with undecided partitions (quirk).
      {{V::MAYBE_EQ, V::EQ}, false, false, V::MAYBE_EQ, "5 MAYBE_EQ"},
      {{V::EQ, V::UNKNOWN}, false, false, V::MAYBE_EQ, "5 EQ+UNKNOWN is MAYBE_EQ"},
      {{V::EQ, V::DEPTH_LIMITED}, false, false, V::MAYBE_EQ, "5 EQ+DEPTH_LIMITED is MAYBE_EQ"},
      {{V::EQ, V::TIMEOUT}, false, false, V::MAYBE_EQ, "5 EQ+TIMEOUT is MAYBE_EQ"},
      {{V::MAYBE_EQ, V::UNKNOWN, V::DEPTH_LIMITED}, false, false, V::MAYBE_EQ, "5 MAYBE_EQ beats UNKNOWN"},
      // Rule 6: zero partitions (not timed out) or any UNKNOWN.
      {{}, false, false, V::UNKNOWN, "6 zero partitions, not timed out"},
      {{V::UNKNOWN, V::DEPTH_LIMITED, V::TIMEOUT}, false, false, V::UNKNOWN, "6 UNKNOWN beats cut"},
      {{V::UNKNOWN}, false, true, V::UNKNOWN, "6 UNKNOWN, timed out"},
      // §9.4 applied directly: deadline before any partition -> TIMEOUT.
      {{}, false, true, V::TIMEOUT, "9.4 zero partitions, timed out"},
      // Rule 7.
      {{V::DEPTH_LIMITED, V::UNREACHABLE}, false, false, V::DEPTH_LIMITED, "7 DEPTH_LIMITED"},
      {{V::DEPTH_LIMITED, V::TIMEOUT}, false, true, V::DEPTH_LIMITED, "7 beats TIMEOUT"},
      // Rule 8.
      {{V::TIMEOUT}, false, false, V::TIMEOUT, "8 TIMEOUT partition"},
      {{V::UNREACHABLE}, false, true, V::TIMEOUT, "8 timed-out flag with only UNREACHABLE"},
      // Rule 9: only UNREACHABLE.
      {{V::UNREACHABLE}, false, false, V::ERROR, "9 one UNREACHABLE"},
      {{V::UNREACHABLE, V::UNREACHABLE}, false, false, V::ERROR, "9 only UNREACHABLE"},
  };
  for (const auto& r : rows) {
    IterationFacts f;
    f.partitions = r.partitions;
    f.error = r.error;
    f.timed_out = r.timedOut;
    EXPECT_EQ(iterationVerdict(f), r.expected) << r.rule << " -> got " << verdictName(iterationVerdict(f));
  }
}

struct ReportRow {
  std::vector<IterationOutcome> its;
  std::size_t expected;
  const char* what;
};

TEST(ReportedIteration, Section91) {
  const ReportRow rows[] = {
      {{{V::MAYBE_EQ, false}}, 0, "single iteration"},
      {{{V::TIMEOUT, true}}, 0, "single iteration, timed out"},
      {{{V::MAYBE_EQ, false}, {V::MAYBE_NEQ, false}}, 1, "last not timed out"},
      {{{V::MAYBE_EQ, false}, {V::UNKNOWN, false}, {V::EQ, false}}, 2, "last not timed out (3)"},
      {{{V::MAYBE_EQ, false}, {V::EQ, true}}, 1, "timed out but EQ"},
      {{{V::MAYBE_EQ, false}, {V::NEQ, true}}, 1, "timed out but NEQ"},
      {{{V::MAYBE_EQ, false}, {V::ERROR, true}}, 1, "timed out but ERROR"},
      {{{V::MAYBE_EQ, false}, {V::MAYBE_EQ, true}}, 0, "timed out MAYBE_EQ falls back"},
      {{{V::MAYBE_EQ, false}, {V::MAYBE_NEQ, true}}, 0, "timed out MAYBE_NEQ falls back"},
      {{{V::MAYBE_EQ, false}, {V::UNKNOWN, true}}, 0, "timed out UNKNOWN falls back"},
      {{{V::MAYBE_EQ, false}, {V::DEPTH_LIMITED, true}}, 0, "timed out DEPTH_LIMITED falls back"},
      {{{V::MAYBE_EQ, false}, {V::TIMEOUT, true}}, 0, "timed out TIMEOUT falls back"},
      {{{V::MAYBE_EQ, false}, {V::MAYBE_NEQ, false}, {V::TIMEOUT, true}}, 1, "falls back to n-1 only"},
  };
  for (const auto& r : rows) EXPECT_EQ(reportedIteration(r.its), r.expected) << r.what;
  EXPECT_EQ(reportedIteration({}), 0u);
}

TEST(WithoutBestEffort, OnlyMaybeClassesChange) {
  EXPECT_EQ(withoutBestEffort(V::MAYBE_EQ), V::UNKNOWN);
  EXPECT_EQ(withoutBestEffort(V::MAYBE_NEQ), V::UNKNOWN);
  for (V v : {V::EQ, V::NEQ, V::UNKNOWN, V::DEPTH_LIMITED, V::TIMEOUT, V::UNREACHABLE, V::ERROR}) {
    EXPECT_EQ(withoutBestEffort(v), v) << verdictName(v);
  }
}

struct SummaryRow {
  SummaryFacts f;
  V expected;
  const char* what;
};

SummaryFacts sf(bool empty, std::optional<Status> neq, std::optional<Status> eq, bool uif, bool depth) {
  SummaryFacts f;
  f.summaries_empty = empty;
  f.neq = neq;
  f.eq = eq;
  f.uif = uif;
  f.depth_limited = depth;
  return f;
}

TEST(SummaryVerdict, Section122) {
  const auto SAT = Status::Sat, UNSAT = Status::Unsat, UNK = Status::Unknown;
  const SummaryRow rows[] = {
      {sf(true, std::nullopt, std::nullopt, false, false), V::EQ, "both summaries empty"},
      {sf(true, std::nullopt, std::nullopt, true, true), V::MAYBE_EQ, "both empty, depth limited"},
      {sf(false, UNSAT, std::nullopt, false, false), V::EQ, "Neq unsat"},
      {sf(false, UNSAT, std::nullopt, true, false), V::EQ, "Neq unsat with uif"},
      {sf(false, UNSAT, std::nullopt, false, true), V::MAYBE_EQ, "Neq unsat, depth limited"},
      {sf(false, SAT, std::nullopt, false, false), V::NEQ, "Neq sat, no uif"},
      {sf(false, SAT, std::nullopt, false, true), V::NEQ, "Neq sat, no uif, depth limited"},
      {sf(false, SAT, UNSAT, true, false), V::NEQ, "Neq sat, uif, Eq unsat"},
      {sf(false, SAT, SAT, true, false), V::MAYBE_NEQ, "Neq sat, uif, Eq sat"},
      {sf(false, SAT, UNK, true, false), V::MAYBE_NEQ, "Neq sat, uif, Eq unknown"},
      {sf(false, SAT, std::nullopt, true, false), V::MAYBE_NEQ, "Neq sat, uif, Eq not asked"},
      {sf(false, UNK, std::nullopt, false, false), V::UNKNOWN, "Neq unknown"},
      {sf(false, std::nullopt, std::nullopt, true, false), V::UNKNOWN, "Neq missing (z3 error)"},
  };
  for (const auto& r : rows) EXPECT_EQ(summaryVerdict(r.f), r.expected) << r.what;
}

TEST(ExitCode, PerVerdict) {
  EXPECT_EQ(exitCode(V::EQ), 0);
  EXPECT_EQ(exitCode(V::NEQ), 1);
  EXPECT_EQ(exitCode(V::ERROR), 2);
  for (V v : {V::MAYBE_EQ, V::MAYBE_NEQ, V::UNKNOWN, V::DEPTH_LIMITED, V::TIMEOUT, V::UNREACHABLE}) {
    EXPECT_EQ(exitCode(v), 3) << verdictName(v);
  }
}

}  // namespace
}  // namespace pasda::classify
