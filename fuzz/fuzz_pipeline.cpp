// libFuzzer target for the whole pipeline: a mutated class file is parsed, matched against
// itself and against a one-byte-mutated copy (src/diff), and the pair is compared by a short
// symbolic run (200 ms deadline, depth limit 2, no replay or witness search). Bad input may
// only end in the typed errors of the CLI's contract (FormatError, LoadError, InputError,
// std::invalid_argument from the matcher for a method one version lacks); a crash, a sanitizer
// report, any other exception or a run far past its deadline is a finding.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/diff.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using namespace pasda;

constexpr double kDeadlineS = 0.2;
// The deadline is checked between steps, and a solver call ends at its own limit; under the
// sanitizers a step is several times slower. Beyond this, the deadline was not honoured.
constexpr double kOverrunS = 10.0;

std::uint32_t mix(const std::uint8_t* data, std::size_t size) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  return h;
}

analysis::Version version(const std::string& path, jvm::ClassFile cf) {
  analysis::Version v;
  v.path = path;
  v.cls = std::move(cf);
  v.classpath = std::make_shared<jvm::ClassPath>();  // nothing else to load: calls stay unresolved
  return v;
}

void compare(const analysis::Version& a, const analysis::Version& b, const std::string& method) {
  try {
    (void)diff::match(a.cls, b.cls, method);
  } catch (const std::invalid_argument&) {  // documented: the method is missing in one version
  }
  analysis::Options o;
  o.mode = pasda::analysis::Tool::Pasda;
  o.timeout_s = kDeadlineS;
  o.depth_limit = 2;
  o.solver_timeout_ms = 50;
  o.feasibility_timeout_ms = 20;
  o.heap_bound = 1;
  o.max_array_length = 2;
  o.method = method;
  o.replay = "off";
  o.search_share = 0;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    analysis::RunResult r = analysis::analyze(a, b, o);
    (void)r;
  } catch (const analysis::InputError&) {  // bad input, reported by the CLI as one error line
  }
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (took > kDeadlineS + kOverrunS) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > jvm::kMaxClassFileBytes) return 0;
  std::vector<std::uint8_t> bytes(data, data + size);
  jvm::ClassFile cf;
  try {
    cf = jvm::parseClass(bytes, "fuzz.class");
  } catch (const jvm::FormatError&) {
    return 0;
  }
  // One method per input (chosen by the input's hash) keeps an execution near the deadline.
  std::vector<std::string> methods;
  for (const jvm::Method& m : cf.methods)
    if (m.code && m.name != "<clinit>") methods.push_back(m.name + ":" + m.descriptor);
  if (methods.empty()) return 0;
  const std::uint32_t h = mix(data, size);
  const std::string method = methods[h % methods.size()];

  // The second version: the input with one byte changed, when that still parses.
  std::vector<std::uint8_t> mutated = bytes;
  mutated[(h >> 8) % size] ^= static_cast<std::uint8_t>(1u << ((h >> 4) % 8));
  std::optional<jvm::ClassFile> other;
  try {
    other = jvm::parseClass(mutated, "fuzz-mutated.class");
  } catch (const jvm::FormatError&) {
  }
  try {
    const analysis::Version a = version("fuzz.class", cf);
    compare(a, version("fuzz-copy.class", cf), method);
    if (other) compare(a, version("fuzz-mutated.class", *other), method);
  } catch (const jvm::FormatError&) {
  } catch (const jvm::LoadError&) {
  }
  return 0;
}
