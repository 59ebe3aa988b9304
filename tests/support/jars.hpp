// Shared by the loader and command-line tests: writing jars with libzip, including entries of
// any size streamed without holding them in memory (zip bombs).
#pragma once

#include <gtest/gtest.h>
#include <zip.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace pasda::testsupport {

/// A jar at `path` with the given entries (name, bytes), stored deflated.
inline void writeJar(const std::string& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr) << "zip_open " << path << ": " << err;
  for (const auto& [name, data] : entries) {
    // The archive copies the bytes at zip_close, so they must live until then: `entries` does.
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    ASSERT_NE(src, nullptr);
    ASSERT_GE(zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8), 0) << name;
  }
  ASSERT_EQ(zip_close(z), 0) << zip_strerror(z);
}

namespace detail {

struct Zeros {
  std::uint64_t size = 0, pos = 0;
};

inline zip_int64_t zerosSource(void* ud, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  auto* z = static_cast<Zeros*>(ud);
  switch (cmd) {
    case ZIP_SOURCE_OPEN: z->pos = 0; return 0;
    case ZIP_SOURCE_READ: {
      const std::uint64_t n = std::min<std::uint64_t>(len, z->size - z->pos);
      std::memset(data, 0, n);
      z->pos += n;
      return static_cast<zip_int64_t>(n);
    }
    case ZIP_SOURCE_CLOSE: return 0;
    case ZIP_SOURCE_STAT: {
      auto* st = static_cast<zip_stat_t*>(data);
      zip_stat_init(st);
      st->size = z->size;
      st->valid |= ZIP_STAT_SIZE;
      return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR: {
      auto* e = static_cast<int*>(data);
      e[0] = e[1] = 0;
      return 2 * sizeof(int);
    }
    case ZIP_SOURCE_FREE: delete z; return 0;
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                                            ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    default: return -1;
  }
}

}  // namespace detail

/// A zip bomb: one entry `name` of `size` zero bytes, deflated (about 1000:1).
inline void writeZerosJar(const std::string& path, const std::string& name, std::uint64_t size) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr) << "zip_open " << path << ": " << err;
  zip_source_t* src = zip_source_function(z, detail::zerosSource, new detail::Zeros{size, 0});
  ASSERT_NE(src, nullptr);
  const zip_int64_t idx = zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE);
  ASSERT_GE(idx, 0);
  ASSERT_EQ(zip_set_file_compression(z, static_cast<zip_uint64_t>(idx), ZIP_CM_DEFLATE, 1), 0);
  ASSERT_EQ(zip_close(z), 0) << zip_strerror(z);
}

}  // namespace pasda::testsupport
