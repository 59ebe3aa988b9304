#include "pasda/jvm/errors.hpp"

#include <utility>

namespace pasda::jvm {

FormatError::FormatError(std::string file, std::size_t offset, std::string reason)
    : std::runtime_error(file + ": offset " + std::to_string(offset) + ": " + reason),
      file_(std::move(file)),
      offset_(offset),
      reason_(std::move(reason)) {}

LoadError::LoadError(std::string file, std::string reason)
    : std::runtime_error(file + ": " + reason), file_(std::move(file)), reason_(std::move(reason)) {}

}  // namespace pasda::jvm
