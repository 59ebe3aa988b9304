// Table-driven tests of the partition-level rules: Table 1 (reachability), Table 2 (output
// class) and the overall partition class (reference-behaviour §6.2).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "pasda/classify/classify.hpp"

namespace pasda::classify {
namespace {

constexpr Status SAT = Status::Sat;
constexpr Status UNSAT = Status::Unsat;
constexpr Status UNK = Status::Unknown;
constexpr std::optional<Status> NONE = std::nullopt;

struct ReachRow {
  bool uifPc;
  Status pc;
  Reachability expected;
};

TEST(Table1, EveryRow) {
  const ReachRow rows[] = {
      {false, SAT, Reachability::Reachable},      {false, UNSAT, Reachability::Unreachable},
      {false, UNK, Reachability::MaybeReachable}, {true, SAT, Reachability::MaybeReachable},
      {true, UNSAT, Reachability::Unreachable},   {true, UNK, Reachability::MaybeReachable},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(reachability(r.uifPc, r.pc), r.expected)
        << "uifPc=" << r.uifPc << " pc=" << static_cast<int>(r.pc);
  }
}

struct OutRow {
  bool uif;
  std::optional<Status> neq, eq;
  Verdict expected;
};

std::string describe(const OutRow& r) {
  auto s = [](std::optional<Status> x) {
    return x ? std::to_string(static_cast<int>(*x)) : std::string("none");
  };
  return "uif=" + std::to_string(r.uif) + " neq=" + s(r.neq) + " eq=" + s(r.eq);
}

TEST(Table2, EveryRowWithWildcardsExpanded) {
  const std::optional<Status> anyStatus[] = {SAT, UNSAT, UNK, NONE};
  std::vector<OutRow> rows;
  for (bool uif : {false, true}) {
    // Row 1: Neq UNSAT, Eq anything -> EQ.
    for (auto eq : anyStatus) rows.push_back({uif, UNSAT, eq, Verdict::EQ});
    // Rows 2-4: Neq UNKNOWN (and a missing Neq, treated alike).
    for (auto neq : {std::optional<Status>(UNK), NONE}) {
      rows.push_back({uif, neq, SAT, Verdict::MAYBE_EQ});
      rows.push_back({uif, neq, UNSAT, Verdict::NEQ});
      rows.push_back({uif, neq, UNK, Verdict::UNKNOWN});
      rows.push_back({uif, neq, NONE, Verdict::UNKNOWN});
    }
  }
  // Row 5: no uif, Neq SAT, Eq anything -> NEQ.
  for (auto eq : anyStatus) rows.push_back({false, SAT, eq, Verdict::NEQ});
  // Rows 6-8: uif, Neq SAT.
  rows.push_back({true, SAT, SAT, Verdict::MAYBE_NEQ});
  rows.push_back({true, SAT, UNSAT, Verdict::NEQ});
  rows.push_back({true, SAT, UNK, Verdict::MAYBE_NEQ});
  rows.push_back({true, SAT, NONE, Verdict::MAYBE_NEQ});
  ASSERT_EQ(rows.size(), 2u * (4 + 8) + 4 + 4);
  for (const auto& r : rows) {
    EXPECT_EQ(outputClass(r.uif, r.neq, r.eq), r.expected) << describe(r);
  }
}

struct PartRow {
  PartitionFacts facts;
  Verdict expected;
  const char* what;
};

PartitionFacts facts(Status pc, std::optional<Status> neq, std::optional<Status> eq, bool uifPc = false,
                     bool uifOut = false, bool depth = false, bool timeout = false) {
  PartitionFacts f;
  f.pc = pc;
  f.neq = neq;
  f.eq = eq;
  f.uif_pc = uifPc;
  f.uif_out = uifOut;
  f.depth_limited = depth;
  f.timed_out = timeout;
  return f;
}

TEST(PartitionVerdict, PriorityAndCombination) {
  const PartRow rows[] = {
      // 1. UNREACHABLE wins over everything.
      {facts(UNSAT, SAT, UNSAT), Verdict::UNREACHABLE, "unsat pc, NEQ outputs"},
      {facts(UNSAT, NONE, NONE, false, false, true, true), Verdict::UNREACHABLE, "unsat pc, cut by both"},
      {facts(UNSAT, UNSAT, SAT, true, true), Verdict::UNREACHABLE, "unsat pc with uif"},
      // 2. TIMEOUT over DEPTH_LIMITED.
      {facts(SAT, NONE, NONE, false, false, true, true), Verdict::TIMEOUT, "timed out and depth limited"},
      {facts(UNK, NONE, NONE, false, false, false, true), Verdict::TIMEOUT, "timed out, pc unknown"},
      // 3. DEPTH_LIMITED.
      {facts(SAT, NONE, NONE, false, false, true), Verdict::DEPTH_LIMITED, "depth limited"},
      {facts(UNK, SAT, UNSAT, false, false, true), Verdict::DEPTH_LIMITED, "depth limited beats outputs"},
      // 4. Combination: REACHABLE keeps the output class.
      {facts(SAT, UNSAT, NONE), Verdict::EQ, "reachable EQ"},
      {facts(SAT, SAT, UNSAT), Verdict::NEQ, "reachable NEQ"},
      {facts(SAT, UNK, SAT), Verdict::MAYBE_EQ, "reachable MAYBE_EQ"},
      {facts(SAT, SAT, SAT, false, true), Verdict::MAYBE_NEQ, "reachable MAYBE_NEQ (uif in output)"},
      {facts(SAT, UNK, UNK), Verdict::UNKNOWN, "reachable UNKNOWN"},
      // MAYBE_REACHABLE turns NEQ into MAYBE_NEQ, leaves the rest.
      {facts(UNK, SAT, UNSAT), Verdict::MAYBE_NEQ, "maybe reachable (pc unknown) NEQ"},
      {facts(SAT, SAT, NONE, true), Verdict::MAYBE_NEQ, "maybe reachable (uif in pc) NEQ"},
      {facts(SAT, UNK, UNSAT, true), Verdict::MAYBE_NEQ, "maybe reachable, Neq unknown / Eq unsat"},
      {facts(UNK, UNSAT, NONE), Verdict::EQ, "maybe reachable EQ stays EQ"},
      {facts(UNK, UNK, SAT), Verdict::MAYBE_EQ, "maybe reachable MAYBE_EQ"},
      {facts(UNK, UNK, UNK), Verdict::UNKNOWN, "maybe reachable UNKNOWN"},
      {facts(SAT, SAT, SAT, true), Verdict::MAYBE_NEQ, "uif in pc counts for outputs too"},
      // Cut partition with neither flag (out of memory in the reference) -> UNKNOWN.
      {facts(SAT, NONE, NONE), Verdict::UNKNOWN, "no output queries, no flags"},
  };
  for (const auto& r : rows) EXPECT_EQ(partitionVerdict(r.facts), r.expected) << r.what;
}

TEST(Names, RoundTripAndUnknownStrings) {
  for (Verdict v : {Verdict::EQ, Verdict::NEQ, Verdict::MAYBE_EQ, Verdict::MAYBE_NEQ, Verdict::UNKNOWN,
                    Verdict::DEPTH_LIMITED, Verdict::TIMEOUT, Verdict::UNREACHABLE, Verdict::ERROR}) {
    auto parsed = parseVerdict(verdictName(v));
    ASSERT_TRUE(parsed.has_value()) << verdictName(v);
    EXPECT_EQ(*parsed, v);
  }
  EXPECT_STREQ(verdictName(Verdict::MAYBE_NEQ), "MAYBE_NEQ");
  EXPECT_STREQ(verdictName(Verdict::DEPTH_LIMITED), "DEPTH_LIMITED");
  EXPECT_FALSE(parseVerdict("eq").has_value());
  EXPECT_FALSE(parseVerdict("").has_value());
  EXPECT_FALSE(parseVerdict("EQUIVALENT").has_value());
  EXPECT_STREQ(reachabilityName(Reachability::Reachable), "REACHABLE");
  EXPECT_STREQ(reachabilityName(Reachability::Unreachable), "UNREACHABLE");
  EXPECT_STREQ(reachabilityName(Reachability::MaybeReachable), "MAYBE_REACHABLE");
  for (Reachability r : {Reachability::Reachable, Reachability::Unreachable, Reachability::MaybeReachable}) {
    EXPECT_EQ(parseReachability(reachabilityName(r)), r);
  }
  EXPECT_FALSE(parseReachability("reachable").has_value());
}

}  // namespace
}  // namespace pasda::classify
