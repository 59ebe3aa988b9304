// Choosing the abstraction to refine next (ARDiff's heuristics, docs/refinement.md).
#include <climits>

#include "iteration.hpp"

namespace pasda::analysis {

std::optional<AbstractionId> chooseRefinement(const Abstraction& abs, const diff::MatchResult& match,
                                              const UifUsage& usage) {
  std::vector<AbstractionId> active;
  for (int id : abs.regions) active.push_back(AbstractionId::ofRegion(id));
  for (const std::string& h : abs.helpers) active.push_back(AbstractionId::ofHelper(h));
  if (active.empty()) return std::nullopt;

  // H1: abstractions some values of which make the two summaries equivalent whatever the
  // rest (computed by the iteration with a quantified query, equivalenceEnablingAbstractions).
  // H2: abstractions whose applications occur a different number of times in the outputs of
  // the two versions. Candidates = H1 u H2.
  std::set<AbstractionId> candidates;
  for (const AbstractionId& k : active) {
    if (usage.h1.count(k)) candidates.insert(k);
    auto o = usage.in_old.find(k), n = usage.in_new.find(k);
    int co = o == usage.in_old.end() ? 0 : o->second, cn = n == usage.in_new.end() ? 0 : n->second;
    if (co != cn) candidates.insert(k);
  }
  // Fallback when H1 and H2 name nothing: the reference takes every abstraction of the
  // summaries; we first take those occurring in partitions that were not proved equivalent
  // (refining one that only occurs in proved partitions cannot change the verdict), then all.
  if (candidates.empty())
    for (const AbstractionId& k : active)
      if (usage.in_undecided.count(k)) candidates.insert(k);
  if (candidates.empty())
    for (const AbstractionId& k : active)
      if (usage.seen.count(k)) candidates.insert(k);
  if (candidates.empty()) candidates.insert(active.begin(), active.end());

  // H3: the simplest candidate first (loop nesting + nonlinear operations); helpers, whose
  // bodies the matcher does not score, come after regions; ties by program order.
  std::optional<AbstractionId> best;
  int bestScore = INT_MAX;
  for (const AbstractionId& k : active) {
    if (!candidates.count(k)) continue;
    int score = 1000;
    if (k.kind == AbstractionId::Kind::Region)
      for (const diff::Region& r : match.regions)
        if (r.id == k.region) score = r.loop_depth + r.nonlinear;
    if (score < bestScore) {
      bestScore = score;
      best = k;
    }
  }
  return best;
}

}  // namespace pasda::analysis
