// Finding and loading classes: .class files, class-path directories and .jar files (libzip).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pasda/jvm/classfile.hpp"

namespace pasda::jvm {

/// Largest class file read (from disk or a jar): real class files are at most a few MB.
inline constexpr std::uint64_t kMaxClassFileBytes = std::uint64_t{64} << 20;
/// Largest jar opened (libzip keeps its whole central directory in memory).
inline constexpr std::uint64_t kMaxJarBytes = std::uint64_t{1} << 30;

/// Most files ClassPath::list() visits in one directory tree.
inline constexpr std::size_t kMaxListedFiles = 200000;

/// Read a whole regular file of at most `maxBytes` bytes; a FIFO, device, socket or directory
/// is refused before anything is read (never blocks). Throws LoadError naming the reason.
std::vector<std::uint8_t> readFile(const std::string& path, std::uint64_t maxBytes = kMaxClassFileBytes);
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
  /// Every class the path holds (internal names, sorted). Throws LoadError for a jar entry
  /// whose name is not a class-path name and for a directory tree of more than
  /// kMaxListedFiles files.
  std::vector<std::string> list() const;
  const std::vector<std::string>& entries() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Why `name` (an internal class name a/b/C, or a jar entry name without ".class") is not a
/// name inside a class path: empty, NUL, backslash, absolute, an empty, "." or ".." segment.
/// "" when it is fine. Such names are never looked up (no path outside a class-path root).
std::string classPathNameProblem(std::string_view name);

/// Internal name <-> dotted name.
std::string toInternalName(const std::string& dotted);
std::string toDottedName(const std::string& internal);
/// The class-path root implied by a .class file's location and its package: for
/// /x/y/demo/Foo.class with this_class demo/Foo, returns /x/y.
std::string impliedClassPathRoot(const std::string& classFilePath, const ClassFile& cf);

}  // namespace pasda::jvm
