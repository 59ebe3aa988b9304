// Solver stage: the answer of one query, on its own so that the classification rules (which
// only read answers) do not depend on the solver's interface.
#pragma once

#include <cstdint>

namespace pasda::solver {

enum class Status : std::int8_t { Unsat = -1, Unknown = 0, Sat = 1 };  // values as in the reference schema

/// "SAT", "UNSAT", "UNKNOWN".
inline const char* statusName(Status s) {
  switch (s) {
    case Status::Sat: return "SAT";
    case Status::Unsat: return "UNSAT";
    case Status::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

}  // namespace pasda::solver
