// The interpreter's concrete mode: one execution with literal inputs. With a TermManager
// under Arith::Java every operation folds with Java's exact semantics, so the result is the
// value (or exception) a JVM would produce; library functions without an exact model
// (Math.sin, ...) are computed with the C library (within Java's 1-ulp allowance).
#pragma once

#include <string>
#include <vector>

#include "pasda/symexec/executor.hpp"

namespace pasda::symexec {

struct ConcreteRun {
  bool completed = false;   // exactly one path ran to its end
  RawPartition partition;   // its effects (entry effect, or old/new effects for a product run)
  std::string error;        // why not completed (deadline, step budget, a value that stayed symbolic)
};

/// Run `entry` once on literal `args` (receiver first for instance methods). For a product
/// run set options.product_class. Throws ExecError for unsupported code.
ConcreteRun runConcrete(const Program& program, terms::TermManager& tm, const MethodInfo& entry,
                        const std::vector<terms::Term>& args, ExecOptions options);

}  // namespace pasda::symexec
