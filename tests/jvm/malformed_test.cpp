// A corpus of malformed class files, written by the tests themselves: every one must end in a
// FormatError (with file, offset, reason) and never in a crash or another exception.
#include <gtest/gtest.h>

#include <functional>

#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/instruction.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

std::vector<std::uint8_t> fixtureBytes(const std::string& name) { return readFile(fixtureClass(name)); }

/// Parse; on success also decode, build CFGs and write (what downstream code does).
/// Returns true if it parsed; FormatError is reported through `err`.
bool tryAll(const std::vector<std::uint8_t>& bytes, std::optional<FormatError>* err = nullptr) {
  try {
    ClassFile cf = parseClass(bytes, "mutant.class");
    for (const Method& m : cf.methods)
      if (m.code) (void)buildCfg(cf, *m.code, "mutant.class");
    (void)writeClass(cf);
    return true;
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), "mutant.class");
    EXPECT_FALSE(e.reason().empty());
    EXPECT_LE(e.offset(), bytes.size());
    if (err) err->emplace(e);
    return false;
  }
}

FormatError expectFormatError(const std::vector<std::uint8_t>& bytes) {
  std::optional<FormatError> err;
  EXPECT_FALSE(tryAll(bytes, &err)) << "malformed input was accepted";
  return err ? *err : FormatError("none", 0, "none");
}

/// Offsets of the constant-pool entries (index -> offset of the tag byte) of a valid class.
std::vector<std::size_t> poolOffsets(const std::vector<std::uint8_t>& b) {
  std::size_t count = (b[8] << 8) | b[9];
  std::vector<std::size_t> off(count, 0);
  std::size_t p = 10;
  for (std::size_t i = 1; i < count; ++i) {
    off[i] = p;
    std::uint8_t tag = b[p];
    switch (tag) {
      case 1: p += 3 + ((b[p + 1] << 8) | b[p + 2]); break;
      case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: p += 5; break;
      case 5: case 6: p += 9; ++i; break;
      case 7: case 8: case 16: case 19: case 20: p += 3; break;
      case 15: p += 4; break;
      default: ADD_FAILURE() << "unexpected tag";
    }
  }
  return off;
}

TEST(Malformed, TruncationAtEveryByte) {
  for (const char* name : {"Flow", "Objects", "Slots"}) {
    auto bytes = fixtureBytes(name);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      FormatError e = expectFormatError(cut);
      EXPECT_LE(e.offset(), n) << name << " cut at " << n;
    }
  }
}

TEST(Malformed, TrailingBytesAndWrongMagicAndVersion) {
  auto bytes = fixtureBytes("Flow");
  auto extra = bytes;
  extra.push_back(0);
  expectFormatError(extra);
  auto magic = bytes;
  magic[0] = 0xca;
  magic[3] = 0xbf;
  FormatError e = expectFormatError(magic);
  EXPECT_EQ(e.offset(), 0u);
  EXPECT_NE(e.reason().find("magic"), std::string::npos);
  for (std::uint16_t v : {44, 70, 0xffff}) {
    auto ver = bytes;
    ver[6] = static_cast<std::uint8_t>(v >> 8);
    ver[7] = static_cast<std::uint8_t>(v);
    EXPECT_EQ(expectFormatError(ver).offset(), 6u);
  }
  for (std::uint16_t v : {45, 69}) {  // the supported range's ends parse
    auto ver = bytes;
    ver[6] = 0;
    ver[7] = static_cast<std::uint8_t>(v);
    EXPECT_TRUE(tryAll(ver)) << v;
  }
}

TEST(Malformed, BadConstantPoolTags) {
  auto bytes = fixtureBytes("Objects");
  auto off = poolOffsets(bytes);
  for (std::size_t i = 1; i < off.size(); ++i) {
    if (off[i] == 0) continue;  // second slot of a Long/Double
    for (std::uint8_t tag : {0, 2, 13, 14, 21, 99, 255}) {
      auto m = bytes;
      m[off[i]] = tag;
      FormatError e = expectFormatError(m);
      EXPECT_LE(e.offset(), off[i]);
    }
  }
}

TEST(Malformed, BadConstantPoolIndices) {
  auto bytes = fixtureBytes("Objects");
  auto off = poolOffsets(bytes);
  std::size_t count = off.size();
  int mutated = 0;
  for (std::size_t i = 1; i < count; ++i) {
    if (off[i] == 0) continue;
    std::uint8_t tag = bytes[off[i]];
    if (tag == 1 || tag == 3 || tag == 4 || tag == 5 || tag == 6) continue;
    std::size_t ref = (tag == 15) ? off[i] + 2 : off[i] + 1;
    for (std::uint16_t bad : {std::uint16_t{0}, static_cast<std::uint16_t>(count), std::uint16_t{0xffff}}) {
      auto m = bytes;
      m[ref] = static_cast<std::uint8_t>(bad >> 8);
      m[ref + 1] = static_cast<std::uint8_t>(bad);
      if (tag == 17 || tag == 18) continue;  // the first operand is a bootstrap-table index
      EXPECT_EQ(expectFormatError(m).offset(), off[i]);
      ++mutated;
    }
  }
  EXPECT_GT(mutated, 50);
  // this_class pointing at a Utf8 entry.
  auto m = bytes;
  ClassFile cf = parseClass(bytes, "x");
  std::uint16_t utf8Index = 0;
  for (std::uint16_t k = 1; k < cf.pool.count(); ++k)
    if (cf.pool.entries[k].tag == CpTag::Utf8) utf8Index = k;
  // Locate this_class: it follows the pool and access_flags; compute from the last entry.
  std::size_t last = off.back();
  std::size_t lastLen = bytes[last] == 1 ? 3 + ((bytes[last + 1] << 8) | bytes[last + 2]) : 0;
  ASSERT_GT(lastLen, 0u);
  std::size_t thisAt = last + lastLen + 2;
  ASSERT_EQ(((bytes[thisAt] << 8) | bytes[thisAt + 1]), cf.this_class);
  m[thisAt] = static_cast<std::uint8_t>(utf8Index >> 8);
  m[thisAt + 1] = static_cast<std::uint8_t>(utf8Index);
  EXPECT_EQ(expectFormatError(m).offset(), thisAt);
}

TEST(Malformed, BadModifiedUtf8) {
  auto bytes = fixtureBytes("Flow");
  auto off = poolOffsets(bytes);
  int done = 0;
  for (std::size_t i = 1; i < off.size() && done < 20; ++i) {
    if (off[i] == 0 || bytes[off[i]] != 1) continue;
    std::size_t len = (bytes[off[i] + 1] << 8) | bytes[off[i] + 2];
    if (len < 3) continue;
    const std::vector<std::vector<std::uint8_t>> bads = {{0x00}, {0xff}, {0xf0}, {0x80}, {0xc3, 0x41}, {0xe2, 0x82, 0x41}};
    for (const auto& bad : bads) {
      auto m = bytes;
      std::size_t at = off[i] + 3 + len - bad.size();
      std::copy(bad.begin(), bad.end(), m.begin() + static_cast<std::ptrdiff_t>(at));
      FormatError e = expectFormatError(m);
      EXPECT_EQ(e.offset(), at);
      EXPECT_NE(e.reason().find("UTF-8"), std::string::npos);
    }
    ++done;
  }
  EXPECT_EQ(done, 20);
}

/// Apply `mutate` to the code array of every method of `name` that has one (bytes, file offset).
void forEachCode(const std::string& name,
                 const std::function<void(std::vector<std::uint8_t>&, const Code&, const ClassFile&)>& mutate) {
  auto bytes = fixtureBytes(name);
  ClassFile cf = parseClass(bytes, name);
  for (const Method& m : cf.methods) {
    if (!m.code) continue;
    auto copy = bytes;
    mutate(copy, *m.code, cf);
  }
}

TEST(Malformed, BadOpcodes) {
  int n = 0;
  forEachCode("Flow", [&](std::vector<std::uint8_t>& b, const Code& code, const ClassFile&) {
    for (int op : {0xca, 0xcb, 0xe0, 0xfe, 0xff}) {
      auto m = b;
      m[code.file_offset] = static_cast<std::uint8_t>(op);
      FormatError e = expectFormatError(m);
      EXPECT_EQ(e.offset(), code.file_offset);
      EXPECT_NE(e.reason().find("opcode"), std::string::npos);
      ++n;
    }
    // wide followed by an opcode that cannot be widened.
    auto m = b;
    m[code.file_offset] = 0xc4;
    if (code.bytes.size() > 1) {
      m[code.file_offset + 1] = 0x60;  // iadd
      expectFormatError(m);
    }
  });
  EXPECT_GT(n, 0);
}

TEST(Malformed, CodeLengthOutOfRange) {
  forEachCode("Flow", [&](std::vector<std::uint8_t>& b, const Code& code, const ClassFile&) {
    std::size_t at = code.file_offset - 4;
    for (std::uint32_t len : {0u, 65536u, 0xffffffffu, static_cast<std::uint32_t>(code.bytes.size() + 1)}) {
      auto m = b;
      m[at] = static_cast<std::uint8_t>(len >> 24);
      m[at + 1] = static_cast<std::uint8_t>(len >> 16);
      m[at + 2] = static_cast<std::uint8_t>(len >> 8);
      m[at + 3] = static_cast<std::uint8_t>(len);
      expectFormatError(m);
    }
  });
}

TEST(Malformed, BranchTargetsOutOfRangeOrMidInstruction) {
  int n = 0;
  forEachCode("Flow", [&](std::vector<std::uint8_t>& b, const Code& code, const ClassFile& cf) {
    for (const Instruction& i : decode(cf, code, "x")) {
      if (!i.isBranch() || i.op == Opcode::tableswitch || i.op == Opcode::lookupswitch) continue;
      for (std::int16_t off : {std::int16_t(-static_cast<std::int32_t>(i.pc) - 1),
                               static_cast<std::int16_t>(code.bytes.size() - i.pc), std::int16_t(1)}) {
        if (off == 1 && i.length == 1) continue;
        auto m = b;
        m[code.file_offset + i.pc + 1] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(off) >> 8);
        m[code.file_offset + i.pc + 2] = static_cast<std::uint8_t>(off);
        FormatError e = expectFormatError(m);
        EXPECT_EQ(e.offset(), code.file_offset + i.pc);
        ++n;
      }
    }
  });
  EXPECT_GT(n, 10);
}

TEST(Malformed, RandomMutationsNeverCrash) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int parsed = 0, rejected = 0;
  for (const char* name : {"Flow", "Objects", "Arith", "Objects$Circle"}) {
    auto bytes = fixtureBytes(name);
    for (int k = 0; k < 3000; ++k) {
      auto m = bytes;
      int edits = 1 + static_cast<int>(next() % 4);
      for (int e = 0; e < edits; ++e) {
        std::size_t at = next() % m.size();
        switch (next() % 3) {
          case 0: m[at] = static_cast<std::uint8_t>(next()); break;
          case 1: m[at] ^= static_cast<std::uint8_t>(1u << (next() % 8)); break;
          default: m[at] = (next() & 1) ? 0xff : 0x00; break;
        }
      }
      (tryAll(m) ? parsed : rejected)++;
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace pasda::jvm::test
