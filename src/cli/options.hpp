// The command line's options: parsed and fully validated (ranges, enumerations) before
// anything runs, so that an absurd option is one error line and nothing else.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"

namespace pasda::cli {

/// A bad command line: what() is the whole message (printed after "pasda-jvm: error: ").
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Limits of the numeric options (docs/cli.md).
inline constexpr double kMaxTimeoutS = 1e6;
inline constexpr long long kMaxQueryTimeoutMs = 86'400'000;  // one day
inline constexpr long long kMaxDepthLimit = 100'000;
inline constexpr long long kMaxHeapBound = 64;
inline constexpr long long kMaxArrayLength = 4096;

struct CliOptions {
  bool help = false;
  bool version = false;
  std::string help_text;  // usage and every option, for --help
  std::string dump;       // --dump FILE
  bool init_db = false;   // --init-db (with --db FILE)
  bool show_blocks = false;
  std::vector<std::string> inputs;  // OLD NEW
  std::string format = "text";
  std::optional<std::string> db, emit_tests, emit_product;
  int verbosity = 1;  // 0 -q, 1 normal, 2 -v
  analysis::Options analysis;
  /// The parsed command line, for the release-diff command's own options (release_cmd.cpp).
  boost::program_options::variables_map vm;
};

/// Parses and validates argv; throws UsageError naming the option and the rule it breaks.
CliOptions parseOptions(int argc, char** argv);

}  // namespace pasda::cli
