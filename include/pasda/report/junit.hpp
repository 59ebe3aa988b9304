// Report stage: JUnit 5 regression tests for the confirmed NEQ witnesses of a finished run.
#pragma once

#include <string>
#include <vector>

#include "pasda/analysis/result.hpp"

namespace pasda::report {

/// Write one JUnit 5 test per confirmed NEQ witness of `run` into `dir`: it calls the method
/// with the witness inputs and asserts the old version's result (passes on the old class,
/// fails on the new one). Returns the files written; throws std::runtime_error when a file
/// or directory cannot be written. With `numberIfExists`, a test class whose file exists
/// already (an overload of the same method) gets a numbered name instead of replacing it.
std::vector<std::string> emitJUnit(const analysis::RunResult& run, const std::string& className,
                                   const std::string& method, const std::string& descriptor, const std::string& dir,
                                   bool numberIfExists = false);

}  // namespace pasda::report
