// The concrete mode: one run on literal inputs, an Executor with a solver that answers nothing.
#include "pasda/symexec/concrete.hpp"

#include <algorithm>

namespace pasda::symexec {

ConcreteRun runConcrete(const Program& program, terms::TermManager& tm, const MethodInfo& entry,
                        const std::vector<terms::Term>& args, ExecOptions options) {
  ConcreteRun out;
  std::unique_ptr<solver::Solver> none = solver::makeNullSolver();
  options.depth_limit = 1 << 30;  // a concrete path takes no decisions
  options.max_call_depth = std::max<std::size_t>(options.max_call_depth, 3000);
  options.max_array_elements = std::max<std::size_t>(options.max_array_elements, 1 << 24);
  options.max_path_elements = std::max<std::size_t>(options.max_path_elements, 1 << 25);
  options.single_path = true;
  Executor ex(program, tm, *none, options);
  int paths = 0;
  ExecStats stats = ex.explore(entry, args, {}, [&](const RawPartition& p, solver::Solver&) {
    if (++paths == 1) out.partition = p;
  });
  if (stats.forked) {
    out.error = "the execution depends on values that are not concrete (a branch on them)";
  } else if (stats.timed_out) {
    out.error = "deadline reached";
  } else if (paths != 1) {
    out.error = "the execution depends on values that are not concrete (" + std::to_string(paths) + " paths)";
  } else if (out.partition.depth_limited) {
    out.error = out.partition.step_limited         ? "instruction budget exhausted"
                : out.partition.call_depth_limited ? "call-depth budget exhausted"
                                                   : "cut";
  } else {
    out.completed = true;
  }
  return out;
}

}  // namespace pasda::symexec
