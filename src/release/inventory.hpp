// Internal to the release stage: opening the two versions, matching their classes and
// methods, the categories from the identical-closure oracle, and the signature-level changes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pasda/jvm/loader.hpp"
#include "pasda/analysis/release_result.hpp"

namespace pasda::release::detail {

/// One version: its analysed classes (from the jar or directory) and the class path the
/// analysis loads classes from (the same, plus the --classpath entries of that version).
struct Side {
  std::string path;
  std::string extra_classpath;
  std::shared_ptr<jvm::ClassPath> classes;  // the jar or directory alone
  std::shared_ptr<jvm::ClassPath> full;     // classes, then the extra class path
  std::vector<std::string> names;           // internal names of its classes, sorted
};

/// Open a version (a .jar or a directory). Throws analysis::InputError: missing, not a jar
/// or a directory, not a zip, no class files.
Side openSide(const std::string& path, const std::string& extraClasspath);

/// The entries of the diff (all of them, before sharding), sorted; with the classes' and
/// methods' signature-level changes. `classFilter` ("" = all) keeps one class. Throws
/// analysis::InputError when the versions share no class or the filtered class is in neither.
ReleaseResult inventory(const Side& oldSide, const Side& newSide, const std::string& classFilter);

/// The bytecode size of a method in the old version (for ordering the work), 0 if unknown.
std::size_t codeSize(const Side& side, const MethodEntry& m);

}  // namespace pasda::release::detail
