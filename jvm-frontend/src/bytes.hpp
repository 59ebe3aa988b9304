// Internal: bounds-checked big-endian reading and writing of class-file bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pasda/jvm/errors.hpp"

namespace pasda::jvm::detail {

/// Reads u1/u2/u4 from a byte range; every read is bounds-checked and failures throw
/// FormatError naming the file and the absolute offset (base + position).
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, const std::string& file, std::size_t base = 0)
      : data_(data), size_(size), file_(file), base_(base) {}

  std::size_t pos() const { return pos_; }
  std::size_t offset() const { return base_ + pos_; }  // absolute offset in the file
  std::size_t remaining() const { return size_ - pos_; }
  bool atEnd() const { return pos_ == size_; }

  [[noreturn]] void fail(const std::string& reason) const { throw FormatError(file_, offset(), reason); }
  [[noreturn]] void failAt(std::size_t absOffset, const std::string& reason) const {
    throw FormatError(file_, absOffset, reason);
  }
  void need(std::size_t n, const char* what) const {
    if (n > size_ - pos_) fail(std::string("truncated ") + what);
  }
  std::uint8_t u1(const char* what) {
    need(1, what);
    return data_[pos_++];
  }
  std::uint16_t u2(const char* what) {
    need(2, what);
    std::uint16_t v = static_cast<std::uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  std::uint32_t u4(const char* what) {
    need(4, what);
    std::uint32_t v = (std::uint32_t{data_[pos_]} << 24) | (std::uint32_t{data_[pos_ + 1]} << 16) |
                      (std::uint32_t{data_[pos_ + 2]} << 8) | std::uint32_t{data_[pos_ + 3]};
    pos_ += 4;
    return v;
  }
  const std::uint8_t* bytes(std::size_t n, const char* what) {
    need(n, what);
    const std::uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  const std::string& file() const { return file_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  const std::string& file_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

inline void putU1(std::vector<std::uint8_t>& out, std::uint32_t v) { out.push_back(static_cast<std::uint8_t>(v)); }
inline void putU2(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}
inline void putU4(std::vector<std::uint8_t>& out, std::uint32_t v) {
  putU2(out, v >> 16);
  putU2(out, v & 0xffff);
}
inline void patchU4(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  out[at] = static_cast<std::uint8_t>(v >> 24);
  out[at + 1] = static_cast<std::uint8_t>(v >> 16);
  out[at + 2] = static_cast<std::uint8_t>(v >> 8);
  out[at + 3] = static_cast<std::uint8_t>(v);
}

/// Returns the index of the first byte that breaks modified UTF-8 (JVMS 4.4.7), or -1 if valid.
std::ptrdiff_t invalidModifiedUtf8(const std::uint8_t* p, std::size_t n);

}  // namespace pasda::jvm::detail
