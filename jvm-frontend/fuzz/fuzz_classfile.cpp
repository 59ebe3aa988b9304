// libFuzzer target: parse, decode, build CFGs, dump and re-write whatever parses.
// Only FormatError may escape the parser; anything else (crash, sanitizer report, other
// exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/dump.hpp"
#include "pasda/jvm/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  try {
    pasda::jvm::ClassFile cf = pasda::jvm::parseClass(bytes, "fuzz.class");
    for (const pasda::jvm::Method& m : cf.methods)
      if (m.code) (void)pasda::jvm::buildCfg(cf, *m.code, "fuzz.class");
    std::ostringstream sink;
    pasda::jvm::dumpText(cf, "fuzz.class", sink);
    pasda::jvm::dumpJson(cf, "fuzz.class", sink);
    std::vector<std::uint8_t> out = pasda::jvm::writeClass(cf);
    if (out != bytes) __builtin_trap();  // parse-then-write must be byte-identical
  } catch (const pasda::jvm::FormatError&) {
  }
  return 0;
}
