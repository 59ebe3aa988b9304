// Bounded, type-checked opening and reading of input files: regular files only (a FIFO, a
// device or a directory is refused by name before anything is read, and never blocks), and
// never more bytes than a cap. Also the check of class-path names (no path traversal).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "read_file.hpp"

#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/loader.hpp"

namespace pasda::jvm {

namespace {

std::string errnoText(int e) {
  std::string s = std::strerror(e);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && !(s.size() > 1 && s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// Why a file of this type cannot be read as an input ("" for a regular file).
std::string typeProblem(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode)) return "is a named pipe (FIFO), not a regular file";
  if (S_ISCHR(mode)) return "is a character device, not a regular file";
  if (S_ISBLK(mode)) return "is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

std::string tooLarge(std::uint64_t size, std::uint64_t cap, const char* what) {
  return "is " + std::to_string(size) + " bytes, above the limit of " + std::to_string(cap) + " bytes for " + what;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

int detail::openRegularFile(const std::string& path, std::uint64_t maxBytes, const char* what) {
  // stat first, so that a device is never even opened (opening some has side effects).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    throw LoadError(path, e == ENOENT ? "no such file or directory" : "cannot open: " + errnoText(e));
  }
  if (std::string why = typeProblem(st.st_mode); !why.empty()) throw LoadError(path, why);
  // O_NONBLOCK: if the file was replaced by a FIFO since the stat, open must not wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) throw LoadError(path, "cannot open: " + errnoText(errno));
  if (::fstat(f.fd, &st) != 0) throw LoadError(path, "cannot open: " + errnoText(errno));
  if (std::string why = typeProblem(st.st_mode); !why.empty()) throw LoadError(path, why);
  if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
    throw LoadError(path, tooLarge(static_cast<std::uint64_t>(st.st_size), maxBytes, what));
  // Regular files ignore O_NONBLOCK for reads, but clear it so that libzip's stdio sees a plain fd.
  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  const int fd = f.fd;
  f.fd = -1;
  return fd;
}

std::vector<std::uint8_t> readFile(const std::string& path, std::uint64_t maxBytes) {
  Fd f{detail::openRegularFile(path, maxBytes, "a class file")};
  std::vector<std::uint8_t> data;
  std::uint8_t buf[65536];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw LoadError(path, "read error: " + errnoText(errno));
    }
    if (n == 0) break;
    // The file may grow while it is read: the cap holds for what is read, not for the stat.
    if (data.size() + static_cast<std::size_t>(n) > maxBytes)
      throw LoadError(path, "grew past the limit of " + std::to_string(maxBytes) + " bytes while being read");
    data.insert(data.end(), buf, buf + n);
  }
  return data;
}

std::string classPathNameProblem(std::string_view name) {
  if (name.empty()) return "the name is empty";
  if (name.find('\0') != std::string_view::npos) return "it contains a NUL character";
  if (name.find('\\') != std::string_view::npos) return "it contains a backslash";
  if (name.front() == '/') return "it is an absolute path";
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = name.find('/', start);
    const std::string_view seg = name.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (seg.empty()) return "it has an empty path segment";
    if (seg == "..") return "it has a '..' segment (a path outside the class path)";
    if (seg == ".") return "it has a '.' segment";
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return "";
}

}  // namespace pasda::jvm
