// The release-diff command of pasda-jvm (two jars or class-path directories, no --method),
// and --merge of shard outputs. Called from main after the shared options are validated.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"

namespace pasda::cli {

/// Adds the release-diff options (--jobs, --shard, --method-timeout, --report, --fail-on,
/// --merge) to the option list.
void addReleaseOptions(boost::program_options::options_description& options);

/// Whether this command line asks for a release diff or a merge.
bool wantsRelease(const boost::program_options::variables_map& vm, const std::vector<std::string>& inputs);

/// Runs the diff (or the merge); returns the exit status. Bad input throws analysis::InputError
/// (main prints it as one line and exits 2).
int runReleaseCommand(const boost::program_options::variables_map& vm, const analysis::Options& options,
                      const std::vector<std::string>& inputs, const std::string& version);

}  // namespace pasda::cli
