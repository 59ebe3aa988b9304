// Internal: opening an input file safely (regular files only, never blocking, size-capped).
#pragma once

#include <cstdint>
#include <string>

namespace pasda::jvm::detail {

/// Opens `path` for reading after checking that it is a regular file of at most `maxBytes`
/// bytes (`what` names the kind of file in the error). Returns the file descriptor (the
/// caller closes it). Throws LoadError naming the file and the reason.
int openRegularFile(const std::string& path, std::uint64_t maxBytes, const char* what);

}  // namespace pasda::jvm::detail
