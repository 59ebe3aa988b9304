// pasda-jvm: the command line. Thin: parse options (options.cpp), check the output targets,
// call the analysis, print, store, exit; every error is one line (output.cpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "options.hpp"
#include "output.hpp"
#include "release_cmd.hpp"
#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/diff.hpp"
#include "pasda/jvm/dump.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/loader.hpp"
#include "pasda/report/junit.hpp"
#include "pasda/report/report.hpp"
#include "pasda/store/store.hpp"
#include "pasda/witness/witness.hpp"

#ifndef PASDA_VERSION
#define PASDA_VERSION "0.0.0"
#endif

using namespace pasda;
using cli::fail;

namespace {

using Clock = std::chrono::steady_clock;

/// How long storing a finished run may still wait for a locked database after --timeout has
/// passed (docs/cli.md): the run is then printed and reported as not stored.
constexpr double kStoreGraceS = 2.0;

Clock::time_point after(Clock::time_point t, double seconds) {
  return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

int runDump(const std::string& file, const std::string& format) {
  jvm::ClassFile cf = jvm::loadClassFile(file);
  if (format == "json") jvm::dumpJson(cf, file, std::cout);
  else jvm::dumpText(cf, file, std::cout);
  return cli::finishOutput(0);
}

int runShowBlocks(const cli::CliOptions& c, const analysis::Version& oldV, const analysis::Version& newV) {
  std::string method = analysis::selectMethod(oldV, newV, c.analysis.method);
  diff::MatchResult m = diff::match(oldV.cls, newV.cls, method);
  std::cout << "Unchanged regions of " << method << " (old " << oldV.path << ", new " << newV.path << ")\n";
  diff::printRegions(m, std::cout, c.verbosity > 1);
  return cli::finishOutput(0);
}

void printRun(const analysis::RunResult& run, const cli::CliOptions& c) {
  if (c.format == "json") report::printJson(run, std::cout);
  else report::printText(run, std::cout, c.verbosity);
  if (c.format == "text" && c.verbosity > 1) report::printTimePolicy(c.analysis.time, std::cout);
}

// Writes the JUnit tests of a finished run; "" or the error line's text.
std::string emitTests(const cli::CliOptions& c, const analysis::RunResult& run, const analysis::Version& oldV) {
  const std::string& dir = *c.emit_tests;
  try {
    auto colon = run.settings.method.find(':');
    auto files = report::emitJUnit(run, oldV.cls.name(), run.settings.method.substr(0, colon),
                                    run.settings.method.substr(colon + 1), dir);
    if (c.verbosity > 0)
      std::cerr << "pasda-jvm: " << files.size() << " JUnit test file(s) written to " << cli::oneLine(dir) << "\n";
    return "";
  } catch (const std::exception& e) {
    return dir + ": cannot write the JUnit tests: " + e.what();
  }
}

// The comparison: inputs loaded, output targets checked, analysis, results stored and printed.
// Everything before the analysis counts against --timeout, and so does waiting for a locked
// database afterwards (up to kStoreGraceS past the deadline).
int runComparison(const cli::CliOptions& c, Clock::time_point start) {
  if (cli::wantsRelease(c.vm, c.inputs))
    return cli::finishOutput(cli::runReleaseCommand(c.vm, c.analysis, c.inputs, PASDA_VERSION));
  analysis::Options o = c.analysis;
  const auto deadline = after(start, o.timeout_s);
  analysis::Version oldV = analysis::loadVersion(c.inputs[0], o.class_name, o.classpath_old);
  analysis::Version newV = analysis::loadVersion(c.inputs[1], o.class_name, o.classpath_new);
  if (c.show_blocks) return runShowBlocks(c, oldV, newV);

  // Every output target is checked before the analysis, so that its result is never lost.
  if (c.emit_tests) cli::prepareOutputDirectory("emit-tests", *c.emit_tests);
  if (c.emit_product) cli::prepareOutputDirectory("emit-product", *c.emit_product);
  std::optional<store::Store> db;
  if (c.db) {
    store::StoreOptions so;
    so.deadline = deadline;
    db.emplace(*c.db, so);
  }
  if (c.emit_product) {
    std::string method = analysis::selectMethod(oldV, newV, o.method);
    std::string product = analysis::emitProduct(oldV, newV, method, *c.emit_product);
    if (c.verbosity > 0)
      std::cerr << "pasda-jvm: product class " << product << " written to " << cli::oneLine(*c.emit_product) << "\n";
  }

  const double given = o.timeout_s;
  o.timeout_s = std::max(1e-3, std::chrono::duration<double>(deadline - Clock::now()).count());
  bool abandoned = false;
  analysis::RunResult run = analysis::analyzeGuarded(oldV, newV, o, o.time.abandon_grace_s, abandoned);
  run.settings.timeout_s = given;  // recorded as given (the harness matches runs by it)
  run.settings.version = PASDA_VERSION;

  std::string error;
  if (db) {
    db->setDeadline(after(std::max(deadline, Clock::now()), kStoreGraceS));
    try {
      db->appendRun(run);
    } catch (const store::StoreError& e) {
      error = e.path() + ": the run was not stored: " + e.reason();
    }
  }
  if (c.emit_tests && !abandoned && error.empty()) error = emitTests(c, run, oldV);
  printRun(run, c);
  int code = classify::exitCode(run.result);
  if (error.empty()) {
    code = cli::finishOutput(code);
  } else {
    std::cout.flush();
    code = fail(error);
  }
  if (abandoned) {
    // A solver call is still running in another thread: end now, results are written.
    std::cerr.flush();
    std::_Exit(code);
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  const auto start = Clock::now();
  const bool stdoutOpen = cli::protectStandardStreams();
  cli::captureStdout();
  cli::CliOptions c;
  try {
    c = cli::parseOptions(argc, argv);
  } catch (const cli::UsageError& e) {
    return fail(e.what());
  }
  if (!stdoutOpen) return fail("standard output is closed: the result could not be printed");
  if (c.help) {
    std::cout << c.help_text;
    return cli::finishOutput(0);
  }
  if (c.version) {
    std::cout << "pasda-jvm " << PASDA_VERSION << "\n";
    return cli::finishOutput(0);
  }
  try {
    if (!c.dump.empty()) return runDump(c.dump, c.format);
    if (c.init_db) {
      store::Store created(*c.db);  // creates or checks the schema; StoreError below otherwise
      return cli::finishOutput(0);
    }
    return runComparison(c, start);
  } catch (const analysis::InputError& e) {
    return fail(e.file() + ": " + e.reason());
  } catch (const jvm::FormatError& e) {
    return fail(e.file() + ": " + e.reason() + " (at byte " + std::to_string(e.offset()) + ")");
  } catch (const jvm::LoadError& e) {
    return fail(e.file() + ": " + e.reason());
  } catch (const store::StoreError& e) {
    return fail(e.path() + ": " + e.reason());
  } catch (const cli::TargetError& e) {
    return fail(e.file() + ": " + e.reason());
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what());
  }
}
