// pasda-jvm: the command line. Thin: parse options, call the analysis, print, store, exit.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/diff.hpp"
#include "pasda/witness/witness.hpp"
#include "pasda/jvm/dump.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/loader.hpp"
#include "pasda/report/report.hpp"
#include "pasda/store/store.hpp"
#include "release_cmd.hpp"

#ifndef PASDA_VERSION
#define PASDA_VERSION "0.0.0"
#endif

namespace po = boost::program_options;
using namespace pasda;

namespace {

constexpr const char* kUsage =
    "Usage: pasda-jvm [options] OLD NEW\n"
    "       pasda-jvm [options] OLD.jar NEW.jar          (or two class-path directories: a release diff)\n"
    "       pasda-jvm --merge SHARD.json... [--format json] [--report DIR] [--db FILE]\n"
    "       pasda-jvm --dump FILE.class [--format json]\n"
    "\n"
    "Decides whether a method behaves the same in two versions of a Java class, from the\n"
    "compiled bytecode: it symbolically executes a generated product program that calls both\n"
    "versions, partitions the inputs by path, and classifies each partition and the program\n"
    "as EQ, NEQ, MAYBE_EQ, MAYBE_NEQ, UNKNOWN, DEPTH_LIMITED, TIMEOUT or ERROR (PASDA).\n"
    "\n"
    "OLD and NEW are .class files, class-path directories or .jar files. Two jars or directories\n"
    "without --method diff the whole release (--class alone: every method of that class): every\n"
    "method is added, removed, identical (EQ without execution), affected or changed, and the\n"
    "affected and changed ones are analysed in parallel (docs/release-diff.md).\n"
    "\n"
    "Exit status: 0 EQ, 1 NEQ, 3 undecided (MAYBE_EQ, MAYBE_NEQ, UNKNOWN, DEPTH_LIMITED,\n"
    "TIMEOUT), 2 error or ERROR. A release diff: 1 if any method is NEQ, 0 if every compared\n"
    "method is EQ, 3 otherwise, 2 bad input (see --fail-on).\n";

int fail(const std::string& what) {
  std::cerr << "pasda-jvm: error: " << what << "\n";
  return 2;
}

int runDump(const std::string& file, const std::string& format) {
  jvm::ClassFile cf = jvm::loadClassFile(file);
  if (format == "json") jvm::dumpJson(cf, file, std::cout);
  else jvm::dumpText(cf, file, std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description general("Options");
  // clang-format off
  general.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("method", po::value<std::string>(), "method to compare: NAME or NAME:DESCRIPTOR (default: the one method "
                                         "both versions declare that the class does not call itself)")
    ("class", po::value<std::string>(), "class to analyse when OLD/NEW are directories or jars (dotted name)")
    ("classpath-old", po::value<std::string>()->default_value(""), "extra class path of the old version (':' separated)")
    ("classpath-new", po::value<std::string>()->default_value(""), "extra class path of the new version")
    ("mode", po::value<std::string>()->default_value("pasda"), "tool: pasda, prv, ardiff or dse")
    ("timeout", po::value<double>()->default_value(60), "wall-clock limit of the whole run, seconds")
    ("depth-limit", po::value<int>()->default_value(10), "branch decisions allowed per path inside loops and recursion")
    ("arith", po::value<std::string>()->default_value("math"), "arithmetic model: math (paper: unbounded ints, reals) "
                                                               "or java (bit-exact: 32/64-bit ints, IEEE floats)")
    ("solver-timeout", po::value<unsigned>()->default_value(0), "Z3 time limit of each classification query, ms "
                                                                "(0: built-in default, 1000)")
    ("feasibility-timeout", po::value<unsigned>()->default_value(0), "Z3 time limit of each branch feasibility "
                                                                     "check, ms (0: min(solver timeout, 250))")
    ("heap-bound", po::value<int>()->default_value(2), "symbolic objects per type")
    ("max-array-length", po::value<int>()->default_value(8), "symbolic array lengths are explored up to this")
    ("db", po::value<std::string>(), "append this run to a SQLite database (created when missing)")
    ("format", po::value<std::string>()->default_value("text"), "output: text or json")
    ("emit-product", po::value<std::string>(), "write the product class and the renamed versions to DIR "
                                               "(run with: java -cp DIR <product> ARGS...)")
    ("dump", po::value<std::string>(), "print the methods and instructions of a class file and exit")
    ("show-blocks", "print the unchanged regions the matcher finds (what UIFs would abstract) and exit")
    ("replay", po::value<std::string>()->default_value("auto"), "replay witnesses: auto (interpreter, and a real JVM "
                                                                "when java is available), jvm, interp or off")
    ("emit-tests", po::value<std::string>(), "write a JUnit 5 test per confirmed NEQ witness to DIR")
    ("benchmark", po::value<std::string>()->default_value(""), "case name recorded with the run (study harness)")
    ("expected", po::value<std::string>()->default_value(""), "expected result recorded with the run (EQ/NEQ)")
    ("quiet,q", "print only the result line")
    ("verbose,v", "print more detail (all iterations, warnings)");
  // clang-format on
  cli::addReleaseOptions(general);
  po::options_description hidden;
  hidden.add_options()("inputs", po::value<std::vector<std::string>>(), "OLD NEW");
  po::options_description all;
  all.add(general).add(hidden);
  po::positional_options_description pos;
  pos.add("inputs", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return fail(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << general;
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "pasda-jvm " << PASDA_VERSION << "\n";
    return 0;
  }
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json") return fail("--format: must be text or json, not '" + format + "'");

  try {
    if (vm.count("dump")) return runDump(vm["dump"].as<std::string>(), format);

    std::vector<std::string> inputs;
    if (vm.count("inputs")) inputs = vm["inputs"].as<std::vector<std::string>>();
    if (inputs.size() != 2 && !vm.count("merge"))
      return fail("expected two inputs, OLD and NEW (got " + std::to_string(inputs.size()) + "); see --help");

    analysis::Options o;
    o.mode = vm["mode"].as<std::string>();
    if (o.mode != "pasda" && o.mode != "prv" && o.mode != "ardiff" && o.mode != "dse")
      return fail("--mode: must be pasda, prv, ardiff or dse, not '" + o.mode + "'");
    o.timeout_s = vm["timeout"].as<double>();
    if (!(o.timeout_s > 0) || !std::isfinite(o.timeout_s) || o.timeout_s > 1e7)
      return fail("--timeout: must be a positive number of seconds");
    o.depth_limit = vm["depth-limit"].as<int>();
    if (o.depth_limit < 0 || o.depth_limit > 100000) return fail("--depth-limit: must be between 0 and 100000");
    std::string arith = vm["arith"].as<std::string>();
    if (arith == "math") o.arith = terms::Arith::Math;
    else if (arith == "java") o.arith = terms::Arith::Java;
    else return fail("--arith: must be math or java, not '" + arith + "'");
    o.solver_timeout_ms = vm["solver-timeout"].as<unsigned>();
    o.feasibility_timeout_ms = vm["feasibility-timeout"].as<unsigned>();
    o.heap_bound = vm["heap-bound"].as<int>();
    if (o.heap_bound < 0 || o.heap_bound > 64) return fail("--heap-bound: must be between 0 and 64");
    o.max_array_length = vm["max-array-length"].as<int>();
    if (o.max_array_length < 0 || o.max_array_length > 4096) return fail("--max-array-length: must be between 0 and 4096");
    if (vm.count("method")) o.method = vm["method"].as<std::string>();
    if (vm.count("class")) o.class_name = vm["class"].as<std::string>();
    o.classpath_old = vm["classpath-old"].as<std::string>();
    o.classpath_new = vm["classpath-new"].as<std::string>();
    o.benchmark = vm["benchmark"].as<std::string>();
    o.replay = vm["replay"].as<std::string>();
    if (o.replay != "auto" && o.replay != "jvm" && o.replay != "interp" && o.replay != "off")
      return fail("--replay: must be auto, jvm, interp or off, not '" + o.replay + "'");
    o.expected = vm["expected"].as<std::string>();
    int verbosity = vm.count("quiet") ? 0 : vm.count("verbose") ? 2 : 1;
    if (cli::wantsRelease(vm, inputs)) return cli::runReleaseCommand(vm, o, inputs, PASDA_VERSION);

    analysis::Version oldV = analysis::loadVersion(inputs[0], o.class_name, o.classpath_old);
    analysis::Version newV = analysis::loadVersion(inputs[1], o.class_name, o.classpath_new);

    if (vm.count("show-blocks")) {
      std::string method = analysis::selectMethod(oldV, newV, o.method);
      diff::MatchResult m = diff::match(oldV.cls, newV.cls, method);
      std::cout << "Unchanged regions of " << method << " (old " << oldV.path << ", new " << newV.path << ")\n";
      diff::printRegions(m, std::cout, verbosity > 1);
      return 0;
    }
    if (vm.count("emit-product")) {
      std::string method = analysis::selectMethod(oldV, newV, o.method);
      std::string dir = vm["emit-product"].as<std::string>();
      std::string product = analysis::emitProduct(oldV, newV, method, dir);
      if (verbosity > 0) std::cerr << "pasda-jvm: product class " << product << " written to " << dir << "\n";
    }

    bool abandoned = false;
    analysis::RunResult run = analysis::analyzeGuarded(oldV, newV, o, 0.7, abandoned);
    run.settings.version = PASDA_VERSION;

    if (vm.count("db")) {
      std::string db = vm["db"].as<std::string>();
      try {
        store::Store st(db);
        st.appendRun(run);
      } catch (const std::exception& e) {
        if (format == "json") report::printJson(run, std::cout);
        else report::printText(run, std::cout, verbosity);
        return fail(db + ": " + e.what());
      }
    }
    if (vm.count("emit-tests") && !abandoned) {
      std::string dir = vm["emit-tests"].as<std::string>();
      auto colon = run.settings.method.find(':');
      auto files = witness::emitJUnit(run, oldV.cls.name(), run.settings.method.substr(0, colon),
                                      run.settings.method.substr(colon + 1), dir);
      if (verbosity > 0)
        std::cerr << "pasda-jvm: " << files.size() << " JUnit test file(s) written to " << dir << "\n";
    }
    if (format == "json") report::printJson(run, std::cout);
    else report::printText(run, std::cout, verbosity);
    if (abandoned) {
      // A solver call is still running in another thread: end now, results are written.
      std::cout.flush();
      std::cerr.flush();
      std::_Exit(classify::exitCode(run.result));
    }
    return classify::exitCode(run.result);
  } catch (const analysis::InputError& e) {
    return fail(e.file() + ": " + e.reason());
  } catch (const jvm::FormatError& e) {
    return fail(e.file() + ": " + e.reason() + " (at byte " + std::to_string(e.offset()) + ")");
  } catch (const jvm::LoadError& e) {
    return fail(e.file() + ": " + e.reason());
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what());
  }
}
