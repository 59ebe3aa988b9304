// Typed errors of the frontend: every malformed or missing input ends in one of these.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace pasda::jvm {

/// Malformed class file (or jar entry): carries the file, the byte offset and the reason.
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, std::size_t offset, std::string reason);
  const std::string& file() const { return file_; }
  std::size_t offset() const { return offset_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::size_t offset_;
  std::string reason_;
};

/// A file, directory, jar or class that cannot be found or opened (I/O and zip errors).
class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, std::string reason);
  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::string reason_;
};

}  // namespace pasda::jvm
