// Finding and loading classes: .class files, class-path directories and .jar files (libzip).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

/// Read a whole file; throws LoadError.
std::vector<std::uint8_t> readFile(const std::string& path);
/// Parse a .class file from disk; throws LoadError / FormatError.
ClassFile loadClassFile(const std::string& path);

/// A class path: an ordered list of directories and jars. Lookup by internal name (a/b/C).
class ClassPath {
 public:
  ClassPath();
  ~ClassPath();
  ClassPath(ClassPath&&) noexcept;
  ClassPath& operator=(ClassPath&&) noexcept;
  /// Parse "dir1:dir2:x.jar" (':' separated); throws LoadError for a missing entry.
  static ClassPath parse(const std::string& spec);
  void addDirectory(const std::string& dir);
  void addJar(const std::string& jar);
  /// The class bytes, or nullopt if no entry has it. Throws LoadError on zip errors.
  std::optional<std::vector<std::uint8_t>> find(const std::string& internalName, std::string* where = nullptr) const;
  /// Parsed class (cached); nullopt if absent. Throws FormatError for a corrupt class.
  const ClassFile* load(const std::string& internalName) const;
  /// Every class the path holds (internal names, sorted).
  std::vector<std::string> list() const;
  const std::vector<std::string>& entries() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Internal name <-> dotted name.
std::string toInternalName(const std::string& dotted);
std::string toDottedName(const std::string& internal);
/// The class-path root implied by a .class file's location and its package: for
/// /x/y/demo/Foo.class with this_class demo/Foo, returns /x/y.
std::string impliedClassPathRoot(const std::string& classFilePath, const ClassFile& cf);

}  // namespace pasda::jvm
