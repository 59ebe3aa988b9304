// Analysis stage: the study's tools, as modes of one engine (docs/refinement.md), named once.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pasda::analysis {

enum class Tool : std::uint8_t {
  Pasda,   // product-based, UIFs refined one per iteration, best-effort classes
  Prv,     // product-based, no abstraction, no best-effort classes (the baseline)
  Ardiff,  // summary-based, ARDiff's refinement
  Dse,     // summary-based, one iteration without abstraction
};

inline constexpr Tool kAllTools[] = {Tool::Pasda, Tool::Prv, Tool::Ardiff, Tool::Dse};

/// "pasda", "prv", "ardiff", "dse": the name on the command line, in reports and databases.
inline const char* toolName(Tool t) {
  switch (t) {
    case Tool::Pasda: return "pasda";
    case Tool::Prv: return "prv";
    case Tool::Ardiff: return "ardiff";
    case Tool::Dse: return "dse";
  }
  return "pasda";
}

inline std::optional<Tool> parseTool(std::string_view name) {
  for (Tool t : kAllTools)
    if (name == toolName(t)) return t;
  return std::nullopt;
}

/// ARDiff and DSE compare two symbolic summaries instead of running the product class.
inline bool summaryBased(Tool t) { return t == Tool::Ardiff || t == Tool::Dse; }

}  // namespace pasda::analysis
