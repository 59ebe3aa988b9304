// Internal to pasda_diff: candidate regions over an alignment, their validity rules and their
// inputs/outputs.
#pragma once

#include <string>
#include <vector>

#include "alignment.hpp"
#include "helpers.hpp"
#include "pasda/diff/diff.hpp"

namespace pasda::diff::detail {

struct RegionContext {
  PerVersion<const MethodFacts*> f;
  const Alignment* al;
  HelperOracle* helpers;
};

/// Try old units [a, b) (consecutive and matched to consecutive new units) as a region.
/// On success fills `out` (id left 0) and returns ""; otherwise returns why not.
std::string tryRegion(const RegionContext& ctx, int a, int b, Region& out);

/// Maximal regions of the alignment, in old program order (ids 1..), with notes on rejected
/// candidates appended to `notes`.
std::vector<Region> findRegions(const RegionContext& ctx, std::vector<std::string>& notes);

}  // namespace pasda::diff::detail
