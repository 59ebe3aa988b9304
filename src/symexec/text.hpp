// Internal to symexec: the UTF-16 code units of a constant-pool (modified UTF-8) string.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pasda::symexec {

/// One to three bytes per unit; supplementary characters are two surrogate units of three bytes
/// each in modified UTF-8, so every unit decodes on its own.
inline std::vector<std::uint16_t> utf16Units(const std::string& mutf8) {
  std::vector<std::uint16_t> out;
  for (std::size_t i = 0; i < mutf8.size();) {
    auto b = static_cast<unsigned char>(mutf8[i]);
    auto at = [&](std::size_t k) { return k < mutf8.size() ? static_cast<unsigned char>(mutf8[k]) & 0x3Fu : 0u; };
    if (b < 0x80) {
      out.push_back(b);
      i += 1;
    } else if ((b & 0xE0) == 0xC0) {
      out.push_back(static_cast<std::uint16_t>((b & 0x1Fu) << 6 | at(i + 1)));
      i += 2;
    } else {
      out.push_back(static_cast<std::uint16_t>((b & 0x0Fu) << 12 | at(i + 1) << 6 | at(i + 2)));
      i += 3;
    }
  }
  return out;
}

}  // namespace pasda::symexec
