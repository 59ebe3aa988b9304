// The command line's options: declaration (for --help), parsing and validation. Numbers are
// read as text and checked here, so that "-5" cannot wrap around and every limit is named.
#include "options.hpp"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "pasda/jvm/loader.hpp"
#include "release_cmd.hpp"

namespace pasda::cli {

namespace po = boost::program_options;

namespace {

/// A whole number of seconds as the option's default text ("60").
std::string wholeSeconds(double s) { return std::to_string(static_cast<long long>(s)); }

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
    "TIMEOUT), 2 error or ERROR (one line on stderr: pasda-jvm: error: FILE: reason). A release\n"
    "diff: 1 if any method is NEQ, 0 if every compared method is EQ, 3 otherwise, 2 bad input\n"
    "(see --fail-on).\n"
    "\n"
    "Verdicts are under Java's own arithmetic by default (--arith java: int overflow, IEEE\n"
    "rounding, NaN); --arith math is the PASDA paper's model (unbounded integers, reals), under\n"
    "which EQ can hide an overflow or a rounding difference. The result line names the model.\n";

po::options_description describeOptions() {
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
    ("timeout", po::value<std::string>()->default_value(wholeSeconds(analysis::kDefaultTimeoutS)), "wall-clock limit of the whole run, seconds "
                                                                "(more than 0, at most 1000000)")
    ("depth-limit", po::value<std::string>()->default_value("10"), "branch decisions allowed per path inside loops "
                                                                    "and recursion (0 to 100000); with --deepen on "
                                                                    "the first round's")
    ("deepen", po::value<std::string>()->default_value("on"), "on: while paths cut by the depth limit leave the "
                                                              "result undecided and time remains, explore again with "
                                                              "twice the limit (10, 20, 40, ...); off: one round at "
                                                              "--depth-limit (the paper's replication; a release diff's default)")
    ("induction", po::value<std::string>()->default_value("on"), "on: before PASDA's iterations, try to prove the "
                                                                 "method equivalent with the loops of the two "
                                                                 "versions coupled by an inductive invariant (any "
                                                                 "trip count), or a recursive method with its "
                                                                 "recursive calls shared by both versions (RVT's "
                                                                 "rule); off: the paper's iterations only")
    ("deep-search", po::value<std::string>()->default_value("on"), "on: a partition cut by the depth limit is searched "
                                                                   "for a difference by running the concrete product "
                                                                   "past the limit on sampled inputs (a tenth of the "
                                                                   "run); off: it stays DEPTH_LIMITED")
    ("split-time", po::value<std::string>()->default_value("on"), "on: when unchanged code includes a whole loop, "
                                                                  "PASDA's first (unabstracted) iteration gets half "
                                                                  "the time, the abstracted ones the rest; off: the "
                                                                  "first may take it all (the paper's)")
    ("loop-summaries", po::value<std::string>()->default_value("on"), "on: a loop of code identical in both versions "
                                                                      "(identical closure) whose reads are locals, "
                                                                      "arrays, primitive fields, strings, boxes and "
                                                                      "CharSequences is replaced by functions shared "
                                                                      "by the versions, not unrolled; off: every loop "
                                                                      "is explored")
    ("arith", po::value<std::string>()->default_value("java"), "arithmetic model of the verdict: java (bit-exact: "
                                                               "32/64-bit ints, IEEE floats; the default) or math "
                                                               "(the paper's: unbounded ints, reals)")
    ("math-first", po::value<std::string>()->default_value("yes"), "--arith java: look for models over unbounded ints "
                                                                    "and reals first and confirm them under Java (yes "
                                                                    "or no)")
    ("stop-at-neq", po::value<std::string>()->default_value("yes"), "--arith java: end the exploration at the first "
                                                                     "NEQ partition, which decides (yes or no: every "
                                                                     "partition)")
    ("settle", po::value<std::string>()->default_value("auto"), "once a partition rules EQ out (NEQ, MAYBE_NEQ, "
                                                                 "MAYBE_EQ, UNKNOWN; DEPTH_LIMITED without --deepen), "
                                                                 "explore at most this many seconds more for a NEQ, "
                                                                 "then stop: SECONDS, off (explore to the limit) or "
                                                                 "auto (off for one method, 1 in a release diff)")
    ("settle-partitions", po::value<std::string>()->default_value("12"), "with --settle: also end the exploration "
                                                                          "this many partitions after the one that "
                                                                          "ruled EQ out, if sooner (0: seconds only)")
    ("solver-timeout", po::value<std::string>()->default_value("0"), "Z3 time limit of each classification query, ms "
                                                                      "(0: built-in default, 1000; at most 86400000)")
    ("feasibility-timeout", po::value<std::string>()->default_value("0"), "Z3 time limit of each branch feasibility "
                                                                           "check, ms (0: min(solver timeout, 250); "
                                                                           "at most 86400000)")
    ("heap-bound", po::value<std::string>()->default_value("2"), "input objects per type reached through fields and elements, beyond the parameters (0 to 64)")
    ("max-array-length", po::value<std::string>()->default_value("8"), "symbolic array lengths are explored up to "
                                                                        "this (0 to 4096)")
    ("static-inputs", po::value<std::string>()->default_value("on"), "on: non-final static fields of the program's "
                                                                      "classes hold arbitrary entry values (equal in both "
                                                                      "versions; private ones no code writes keep their "
                                                                      "<clinit> value); off: their values after <clinit>")
    ("compare-output", po::value<std::string>()->default_value("on"), "on: what the versions print (System.out/err) "
                                                                       "is compared like their results; off: ignored")
    ("shortcut", po::value<std::string>()->default_value("on"), "on: a method whose code and reachable callees "
                                                                 "are identical in both versions is EQ without "
                                                                 "analysis (decided by identical code), and in a "
                                                                 "release diff so is one whose own code is identical "
                                                                 "and whose changed callees are all EQ (decided by "
                                                                 "equivalent callees); off: analyse them")
    ("db", po::value<std::string>(), "append this run to a SQLite database (created when missing; checked before "
                                     "the analysis)")
    ("format", po::value<std::string>()->default_value("text"), "output: text or json")
    ("emit-product", po::value<std::string>(), "write the product class and the renamed versions to DIR "
                                               "(run with: java -cp DIR <product> ARGS...)")
    ("dump", po::value<std::string>(), "print the methods and instructions of a class file and exit")
    ("init-db", "with --db FILE and no inputs: create FILE with this pasda-jvm's results schema (or check "
                "that it has it) and exit; the study harness creates its databases this way")
    ("show-blocks", "print the unchanged regions the matcher finds (what UIFs would abstract) and exit")
    ("replay", po::value<std::string>()->default_value("auto"), "replay witnesses: auto (interpreter, and a real JVM "
                                                                "when java is available), jvm, interp or off")
    ("explain", po::value<std::string>()->default_value("on"), "explain every NEQ partition by the changed lines "
                                                              "that make the difference: on or off")
    ("emit-tests", po::value<std::string>(), "write a JUnit 5 test per confirmed NEQ witness to DIR")
    ("benchmark", po::value<std::string>()->default_value(""), "case name recorded with the run (study harness)")
    ("expected", po::value<std::string>()->default_value(""), "expected result recorded with the run: EQ or NEQ")
    ("quiet,q", "print only the result line")
    ("verbose,v", "print more detail (all iterations, warnings)");
  // clang-format on
  addReleaseOptions(general);
  return general;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// A whole number in [lo, hi]: only an optional sign and digits (no "1e3", "0x10" or " 5").
long long wholeNumber(const std::string& option, const std::string& text, long long lo, long long hi,
                      const std::string& unit = "") {
  const std::string suffix = unit.empty() ? "" : " " + unit;
  const std::string ofUnit = unit.empty() ? "" : " of " + unit;
  std::size_t i = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
  bool digits = i < text.size();
  for (std::size_t j = i; j < text.size(); ++j) digits = digits && text[j] >= '0' && text[j] <= '9';
  if (!digits) throw UsageError("--" + option + ": " + quoted(text) + " is not a whole number" + ofUnit);
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  const bool negative = text[0] == '-';
  if ((errno == ERANGE && !negative) || v > hi)
    throw UsageError("--" + option + ": must be at most " + std::to_string(hi) + suffix + ", not " + text);
  if ((errno == ERANGE && negative) || v < lo)
    throw UsageError("--" + option + ": must be at least " + std::to_string(lo) + suffix + ", not " + text);
  return v;
}

// A query time limit: 0 (the default) or a positive number of milliseconds, read as a signed
// number so that "-5" is refused instead of wrapping around to 4294967291.
unsigned milliseconds(const std::string& option, const std::string& text) {
  return static_cast<unsigned>(wholeNumber(option, text, 0, kMaxQueryTimeoutMs, "ms"));
}

double seconds(const std::string& option, const std::string& text, double max) {
  char* end = nullptr;
  errno = 0;
  const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || std::isnan(v) || std::isspace(static_cast<unsigned char>(text[0])))
    throw UsageError("--" + option + ": " + quoted(text) + " is not a number of seconds");
  if (!(v > 0)) throw UsageError("--" + option + ": must be positive, not " + text);
  if (v > max || std::isinf(v)) {
    std::ostringstream m;
    m << "--" << option << ": must be at most " << static_cast<long long>(max) << " seconds, not " << text;
    throw UsageError(m.str());
  }
  return v;
}

std::string oneOf(const std::string& option, const std::string& value, const std::vector<std::string>& allowed) {
  for (const std::string& a : allowed)
    if (value == a) return value;
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
  throw UsageError("--" + option + ": must be " + list + ", not " + quoted(value));
}

std::optional<std::string> optional(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<std::string>();
}

void readAnalysisOptions(const po::variables_map& vm, analysis::Options& o) {
  auto text = [&](const char* name) { return vm[name].as<std::string>(); };
  o.mode = *analysis::parseTool(oneOf("mode", text("mode"), {"pasda", "prv", "ardiff", "dse"}));
  o.timeout_s = seconds("timeout", text("timeout"), kMaxTimeoutS);
  o.depth_limit = static_cast<int>(wholeNumber("depth-limit", text("depth-limit"), 0, kMaxDepthLimit));
  o.deepen = oneOf("deepen", text("deepen"), {"on", "off"}) == "on";
  o.loop_summaries = oneOf("loop-summaries", text("loop-summaries"), {"on", "off"}) == "on";
  o.induction = oneOf("induction", text("induction"), {"on", "off"}) == "on";
  o.split_time = oneOf("split-time", text("split-time"), {"on", "off"}) == "on";
  o.deep_search = oneOf("deep-search", text("deep-search"), {"on", "off"}) == "on";
  o.arith = oneOf("arith", text("arith"), {"math", "java"}) == "java" ? terms::Arith::Java : terms::Arith::Math;
  o.math_first = oneOf("math-first", text("math-first"), {"yes", "no"}) == "yes";
  o.neq_stops_exploration = oneOf("stop-at-neq", text("stop-at-neq"), {"yes", "no"}) == "yes";
  if (const std::string settle = text("settle"); settle != "auto" && settle != "off") {
    char* end = nullptr;
    const double v = std::strtod(settle.c_str(), &end);
    if (settle.empty() || end != settle.c_str() + settle.size() || !(v > 0) || std::isspace(static_cast<unsigned char>(settle[0])))
      throw UsageError("--settle: must be a positive number of seconds, off or auto, not " + quoted(settle));
    o.settle_s = seconds("settle", settle, kMaxTimeoutS);
  }
  o.settle_partitions = static_cast<int>(wholeNumber("settle-partitions", text("settle-partitions"), 0, 1000000));
  o.solver_timeout_ms = milliseconds("solver-timeout", text("solver-timeout"));
  o.feasibility_timeout_ms = milliseconds("feasibility-timeout", text("feasibility-timeout"));
  o.heap_bound = static_cast<int>(wholeNumber("heap-bound", text("heap-bound"), 0, kMaxHeapBound));
  o.max_array_length = static_cast<int>(wholeNumber("max-array-length", text("max-array-length"), 0, kMaxArrayLength));
  o.replay = oneOf("replay", text("replay"), {"auto", "jvm", "interp", "off"});
  o.static_inputs = oneOf("static-inputs", text("static-inputs"), {"on", "off"}) == "on";
  o.compare_output = oneOf("compare-output", text("compare-output"), {"on", "off"}) == "on";
  o.identical_shortcut = oneOf("shortcut", text("shortcut"), {"on", "off"}) == "on";
  o.expected = text("expected");
  if (!o.expected.empty()) oneOf("expected", o.expected, {"EQ", "NEQ"});
  o.benchmark = text("benchmark");
  o.explain = oneOf("explain", text("explain"), {"on", "off"}) == "on";
  if (auto m = optional(vm, "method")) o.method = *m;  // "" = choose as without --method
  if (auto c = optional(vm, "class")) {
    std::string why = jvm::classPathNameProblem(*c);  // as given ("../x"), then as a dotted name ("a..b")
    if (why.empty()) why = jvm::classPathNameProblem(jvm::toInternalName(*c));
    if (!why.empty())
      throw UsageError("--class: " + quoted(*c) + " is not a class name: " + why);
    o.class_name = *c;
  }
  o.classpath_old = text("classpath-old");
  o.classpath_new = text("classpath-new");
}

void checkDirectoryOption(const char* option, const std::optional<std::string>& dir) {
  if (dir && dir->empty()) throw UsageError(std::string("--") + option + ": the directory name is empty");
}

}  // namespace

CliOptions parseOptions(int argc, char** argv) {
  po::options_description general = describeOptions();
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
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  CliOptions c;
  std::ostringstream help;
  help << kUsage << "\n" << general;
  c.help_text = help.str();
  c.help = vm.count("help") > 0;
  c.version = vm.count("version") > 0;
  if (c.help || c.version) return c;

  c.format = oneOf("format", vm["format"].as<std::string>(), {"text", "json"});
  c.verbosity = vm.count("quiet") ? 0 : vm.count("verbose") ? 2 : 1;
  readAnalysisOptions(vm, c.analysis);
  c.db = optional(vm, "db");
  if (c.db && c.db->empty()) throw UsageError("--db: the file name is empty");
  c.emit_tests = optional(vm, "emit-tests");
  c.emit_product = optional(vm, "emit-product");
  checkDirectoryOption("emit-tests", c.emit_tests);
  checkDirectoryOption("emit-product", c.emit_product);
  c.show_blocks = vm.count("show-blocks") > 0;
  if (vm.count("inputs")) c.inputs = vm["inputs"].as<std::vector<std::string>>();
  if (auto d = optional(vm, "dump")) {
    if (d->empty()) throw UsageError("--dump: the file name is empty");
    if (!c.inputs.empty()) throw UsageError("--dump takes one class file and no OLD NEW inputs (see --help)");
    c.dump = *d;
    return c;
  }
  if (vm.count("init-db")) {
    if (!c.db) throw UsageError("--init-db needs --db FILE (see --help)");
    if (!c.inputs.empty()) throw UsageError("--init-db takes no OLD NEW inputs (see --help)");
    c.init_db = true;
    return c;
  }
  c.vm = vm;
  if (c.inputs.size() != 2 && !vm.count("merge"))
    throw UsageError("expected two inputs, OLD and NEW (got " + std::to_string(c.inputs.size()) + "); see --help");
  return c;
}

}  // namespace pasda::cli
