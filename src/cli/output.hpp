// The command line's output side: one-line error messages, the standard streams (closed or
// failing), and checks of output directories before the analysis runs.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace pasda::cli {

/// `s` with every control character escaped (\n, \t, \r, \x1b, ...), so that a file name or
/// a library's message can never split an error line or drive the terminal.
std::string oneLine(std::string_view s);

/// Prints "pasda-jvm: error: <what>" (escaped to one line) on stderr; returns exit status 2.
int fail(const std::string& what);

/// A standard stream that was closed when the process started is reopened on /dev/null, so
/// that no file opened later (a class, the database) can take its descriptor and receive the
/// output. Returns false when stdout was closed (the result could not be printed).
bool protectStandardStreams();

/// Sends std::cout through a buffer that remembers why a write failed (call first thing).
void captureStdout();

/// Flushes stdout; returns `code`, or 2 after one error line when the output could not be
/// written (a full disk, /dev/full, a closed pipe without SIGPIPE).
int finishOutput(int code);

/// An output target that cannot be used: file and reason for the error line.
class TargetError : public std::runtime_error {
 public:
  TargetError(std::string file, std::string reason)
      : std::runtime_error(file + ": " + reason), file_(std::move(file)), reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, reason_;
};

/// Makes sure `dir` (the value of --`option`) is a directory this process can write in,
/// creating it when missing. Throws TargetError.
void prepareOutputDirectory(const std::string& option, const std::string& dir);

}  // namespace pasda::cli
