// Shared helpers of the jvm-frontend tests.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/loader.hpp"

namespace pasda::jvm::test {

namespace fs = std::filesystem;

inline std::string fixtureDir() { return std::string(PASDA_FIXTURE_CLASSES) + "/jvm"; }
inline std::string fixtureClass(const std::string& name) { return fixtureDir() + "/" + name + ".class"; }

/// Every .class file under `root`, sorted (empty if the directory is absent).
inline std::vector<std::string> classFilesUnder(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".class") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

struct CommandResult {
  int status = -1;
  std::string output;  // stdout (stderr too if the command redirects it)
};

inline CommandResult runCommand(const std::string& cmd) {
  CommandResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

/// A fresh temporary directory, removed when the object dies.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = fs::temp_directory_path() / ("pasda-jvm-test-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }
  std::string file(const std::string& rel) const { return (path_ / rel).string(); }

 private:
  fs::path path_;
};

inline void writeBytes(const std::string& path, const std::vector<std::uint8_t>& data) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

}  // namespace pasda::jvm::test
