// Test helper: a database path in a fresh temporary directory, removed with its WAL files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace pasda::testing {

class TempDb {
 public:
  explicit TempDb(const std::string& name) {
    dir_ = std::filesystem::temp_directory_path() /
           ("pasda-store-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "results.db").string();
  }
  ~TempDb() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempDb(const TempDb&) = delete;
  TempDb& operator=(const TempDb&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace pasda::testing
