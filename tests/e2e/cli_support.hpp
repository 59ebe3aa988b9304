// Helpers for the end-to-end tests of the pasda-jvm command line: run the built binary,
// capture stdout, stderr and the exit status; locate the compiled Java fixtures.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace e2e {

namespace fs = std::filesystem;

using pasda::testsupport::CliRun;
using pasda::testsupport::runCli;
using pasda::testsupport::runShell;
using pasda::testsupport::scratch;
using pasda::testsupport::slurp;
inline std::string quote(const std::string& s) { return pasda::testsupport::shellQuote(s); }

/// tests/fixtures/cli/<case>/<side>/... compiled: the class file of `cls` in package fixtures.cli.<case>.
inline std::string cliClass(const std::string& kase, const std::string& side, const std::string& cls) {
  return std::string(PASDA_FIXTURE_CLASSES) + "/cli/" + kase + "/" + side + "/fixtures/cli/" + kase + "/" + cls + ".class";
}
/// tests/fixtures/e2e/<case>/<side>/... compiled: package fixtures.<case>.
inline std::string e2eClass(const std::string& kase, const std::string& side, const std::string& cls) {
  return std::string(PASDA_FIXTURE_CLASSES) + "/e2e/" + kase + "/" + side + "/fixtures/" + kase + "/" + cls + ".class";
}

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace e2e
