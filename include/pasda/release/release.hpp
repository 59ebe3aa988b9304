// Release stage: the whole-release semantic diff. Matches the classes and methods of two
// versions (jars or class-path directories), sorts every method into added / removed /
// identical / affected / changed with the identical-closure oracle, lists the signature-level
// changes, and analyses the affected and changed methods in parallel worker processes, each
// under its own time limit. See docs/release-diff.md.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"
#include "pasda/analysis/release_result.hpp"

namespace pasda::release {

struct ReleaseOptions {
  std::string old_path, new_path;  // jars or class-path directories
  std::string class_filter;        // dotted or internal name: only this class ("" = all)
  analysis::Options analysis;      // per-method settings (mode, arith, depth, replay, ...)
  double method_timeout_s = 10;    // per analysed method
  double timeout_s = 0;            // the whole diff (0 = no limit)
  int jobs = 1;                    // worker processes
  int shard = 1, shard_count = 1;  // run only part K of N (deterministic)
  double grace_s = 0.7;            // after a method's deadline before its run is taken as it is
  std::string version;             // pasda-jvm version, recorded
  bool identical_shortcut = true;  // identical methods are EQ without analysis (off: analysed too)
};

/// Progress of a running diff, reported by the coordinator between events.
struct Progress {
  std::size_t done = 0, total = 0;  // analysed methods
  std::size_t neq = 0;
  double elapsed_s = 0;
};

/// Called with every finished method (in completion order) and periodically with progress.
struct Observer {
  std::function<void(const MethodEntry&)> method_done;
  std::function<void(const Progress&)> progress;
  /// Called once after the inventory, before any analysis starts.
  std::function<void(const ReleaseResult&)> started;
};

/// Run the diff. Throws analysis::InputError for bad input (one line for the user): a path
/// that is neither a jar nor a directory, a jar that is not a zip, a directory without
/// classes, two versions without a class in common, an unknown --class. A method whose
/// analysis crashes or hangs is reported (ERROR / TIMEOUT with a note); it never stops the diff.
ReleaseResult runRelease(const ReleaseOptions& options, const Observer& observer = {});

/// Whether a path is something a release diff takes (a directory or a .jar).
bool isReleaseInput(const std::string& path);

/// Combine the JSON outputs of the shards of one diff (`pasda-jvm --format json --shard K/N`)
/// into one result, as if the diff had run unsharded. Throws analysis::InputError when a file
/// cannot be read, is not a release diff's JSON, or belongs to another diff.
ReleaseResult mergeShards(const std::vector<std::string>& jsonFiles);

}  // namespace pasda::release
