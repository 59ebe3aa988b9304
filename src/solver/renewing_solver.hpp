// A solver that survives a check Z3 would not stop (docs/architecture.md, "The life of a run").
#pragma once

#include <functional>
#include <memory>

#include "pasda/solver/solver.hpp"

namespace pasda::solver {

/// Wraps the solvers `make` creates. A check that ignores its limit retires the solver running
/// it (its thread is still inside Z3); the wrapper then leaves that solver alive and unowned,
/// so nothing ever waits for Z3, and continues on a fresh one with the same assertion stack
/// (kept as terms, level by level) and time limit: one runaway query costs that query only.
/// After kMaxRenewals renewals it stays retired, so that a problem that keeps defeating Z3's
/// limits does not keep adding busy threads.
std::unique_ptr<Solver> makeRenewingSolver(std::function<std::unique_ptr<Solver>()> make);

inline constexpr int kMaxRenewals = 2;

}  // namespace pasda::solver
