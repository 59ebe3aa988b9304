// The command line's output side: one-line error messages, the standard streams, and checks
// of output directories before the analysis runs (docs/cli.md, "Errors").
#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace pasda::cli {

namespace fs = std::filesystem;

std::string oneLine(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xf];
        } else {
          out += ch;
        }
    }
  }
  return out;
}

int fail(const std::string& what) {
  std::cerr << "pasda-jvm: error: " << oneLine(what) << "\n";
  std::cerr.flush();
  return 2;
}

bool protectStandardStreams() {
  bool stdoutOpen = true;
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 1) stdoutOpen = false;
    // The lowest free descriptor is `fd` itself, since the lower ones are open by now.
    const int got = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
  return stdoutOpen;
}

int finishOutput(int code) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  const int e = errno;
  return fail(std::string("cannot write the result to standard output") + (e ? ": " + std::string(std::strerror(e)) : ""));
}

void prepareOutputDirectory(const std::string& option, const std::string& dir) {
  const std::string why = "(--" + option + " needs a directory it can write in)";
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw TargetError(dir, "is not a directory " + why);
  } else {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw TargetError(dir, "cannot create the directory: " + ec.message() + " " + why);
  }
  // access() says yes to root everywhere; creating a file is the real test (a read-only mount).
  std::string probe = (fs::path(dir) / ".pasda-write-check-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) throw TargetError(dir, "cannot write in the directory: " + std::string(std::strerror(errno)) + " " + why);
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace pasda::cli
