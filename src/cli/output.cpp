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
#include <streambuf>

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

namespace {

// std::cout's buffer: writes to descriptor 1 and keeps the errno of the first failed write,
// so that the error line can say why (with stdio's buffer the errno is gone by the end).
class StdoutBuffer : public std::streambuf {
 public:
  StdoutBuffer() { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buf_, buf_ + sizeof buf_);
    while (n > 0) {
      const ssize_t w = ::write(1, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (!error_) error_ = errno ? errno : EIO;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return error_ == 0;
  }

  char buf_[1 << 16];
  int error_ = 0;
};

// Never destroyed: the runtime flushes std::cout after static destructors have run.
StdoutBuffer* const stdoutBuffer = new StdoutBuffer;

}  // namespace

void captureStdout() { std::cout.rdbuf(stdoutBuffer); }

int finishOutput(int code) {
  std::cout.flush();
  if (std::cout && stdoutBuffer->error() == 0) return code;
  const int e = stdoutBuffer->error();
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
