// Internal to analysis: the prepared product and the iteration runners of the four tools.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "pasda/analysis/analysis.hpp"
#include "pasda/product/product.hpp"
#include "pasda/symexec/executor.hpp"

namespace pasda::analysis {

/// The two versions renamed for loading side by side, and the generated product.
struct Prepared {
  std::string name, descriptor;     // the compared method
  jvm::ClassFile old_cls, new_cls;  // renamed copies
  std::string old_name, new_name, product_name;
  product::ProductClasses product;
  std::shared_ptr<jvm::ClassPath> old_classpath, new_classpath;
};

Prepared prepare(const Version& oldV, const Version& newV, const std::string& method);

struct IterationEnv {
  const Options* options = nullptr;
  Prepared prepared;
  symexec::Clock::time_point deadline;
  symexec::Clock::time_point run_start;
};

/// What an iteration abstracts.
struct Abstraction {
  std::set<std::string> helpers;  // owner.name:descriptor of helpers replaced by shared functions
};

/// Run the iterations of the selected tool, appending to run.iterations and run.steps.
void runTool(IterationEnv& env, RunResult& run);

/// One iteration of a partition-based tool (product program).
IterationResult runProductIteration(IterationEnv& env, const Abstraction& abs, int index, StepTimes& steps);

}  // namespace pasda::analysis
