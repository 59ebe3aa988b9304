// Every method's PC + mnemonic sequence equals `javap -c -p`, parse-then-write is byte-identical,
// and a CFG can be built, for all fixture classes and all benchmark classes.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <regex>
#include <sstream>

#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/instruction.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

using Listing = std::vector<std::pair<std::uint32_t, std::string>>;  // (pc, mnemonic)

/// javap's listings, one vector of Code blocks per class file, for all files in one JVM start.
std::map<std::string, std::vector<Listing>> javapListings(const std::vector<std::string>& files) {
  std::map<std::string, std::vector<Listing>> out;
  if (files.empty()) return out;
  std::string cmd = shellQuote(PASDA_JAVAP) + " -c -p";
  for (const auto& f : files) cmd += " " + shellQuote(f);
  CommandResult r = runCommand(cmd + " 2>&1");
  EXPECT_EQ(r.status, 0) << r.output.substr(0, 2000);
  std::istringstream in(r.output);
  std::string line;
  std::size_t cls = 0;
  std::vector<Listing> blocks;
  bool inSwitch = false;
  static const std::regex insn(R"(^\s+(\d+): ([a-z_0-9]+)\b.*)");
  while (std::getline(in, line)) {
    if (line == "}") {  // end of one class
      if (cls < files.size()) out[files[cls]] = blocks;
      ++cls;
      blocks.clear();
      continue;
    }
    if (inSwitch) {
      if (line.find_first_not_of(' ') != std::string::npos && line.substr(line.find_first_not_of(' ')) == "}")
        inSwitch = false;
      continue;
    }
    if (line.find_first_not_of(' ') != std::string::npos && line.substr(line.find_first_not_of(' ')) == "Code:") {
      blocks.emplace_back();
      continue;
    }
    std::smatch m;
    if (!blocks.empty() && std::regex_match(line, m, insn)) {
      blocks.back().emplace_back(static_cast<std::uint32_t>(std::stoul(m[1])), m[2]);
      if (m[2] == "tableswitch" || m[2] == "lookupswitch") inSwitch = true;
    }
  }
  EXPECT_EQ(cls, files.size()) << "javap printed a different number of classes";
  return out;
}

void checkClasses(const std::vector<std::string>& files) {
  auto expected = javapListings(files);
  std::size_t methods = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    std::vector<std::uint8_t> bytes = readFile(f);
    ClassFile cf = parseClass(bytes, f);
    EXPECT_EQ(writeClass(cf), bytes) << "parse-then-write is not byte-identical";
    std::vector<Listing> ours;
    for (const Method& m : cf.methods) {
      if (!m.code) continue;
      Listing l;
      for (const Instruction& i : decode(cf, *m.code, f)) l.emplace_back(i.pc, javapMnemonic(i));
      ours.push_back(std::move(l));
      Cfg g = buildCfg(cf, *m.code, f);
      ASSERT_FALSE(g.blocks.empty());
      for (std::size_t i = 0; i < g.insns.size(); ++i) ASSERT_GE(g.block_of_insn[i], 0);
      ++methods;
    }
    auto it = expected.find(f);
    ASSERT_NE(it, expected.end());
    ASSERT_EQ(ours.size(), it->second.size()) << "number of methods with code";
    for (std::size_t k = 0; k < ours.size(); ++k) EXPECT_EQ(ours[k], it->second[k]) << "method #" << k;
  }
  EXPECT_GT(methods, 0u);
}

TEST(Javap, FixtureClassesMatchJavapAndRoundTrip) {
  auto files = classFilesUnder(fixtureDir());
  ASSERT_GE(files.size(), 8u) << "fixtures not compiled into " << fixtureDir();
  checkClasses(files);
}

TEST(Javap, FixturesUseEveryOpcodeJavacEmits) {
  std::set<std::string> seen;
  for (const std::string& f : classFilesUnder(fixtureDir())) {
    ClassFile cf = loadClassFile(f);
    for (const Method& m : cf.methods) {
      if (!m.code) continue;
      for (const Instruction& i : decode(cf, *m.code, f)) seen.insert(javapMnemonic(i));
    }
  }
  // Opcodes modern javac never emits (nop, swap, jsr/ret, goto_w/jsr_w need >32 KiB methods)
  // are covered by the hand-assembled decoder tests.
  std::set<std::string> notFromJavac = {"nop", "swap", "jsr", "ret", "goto_w", "jsr_w", "wide"};
  for (int b = 0; b < 0xca; ++b) {
    std::string name(mnemonic(static_cast<Opcode>(b)));
    if (notFromJavac.count(name)) continue;
    EXPECT_TRUE(seen.count(name)) << name << " not used by any fixture";
  }
  for (const char* w : {"iload_w", "lload_w", "fload_w", "dload_w", "aload_w", "istore_w", "iinc_w"})
    EXPECT_TRUE(seen.count(w)) << w;
}

TEST(Javap, BenchmarkClassesMatchJavapAndRoundTrip) {
  auto files = classFilesUnder(PASDA_BENCHMARK_CLASSES);
  if (files.empty()) GTEST_SKIP() << "benchmark classes absent at " << PASDA_BENCHMARK_CLASSES;
  EXPECT_GE(files.size(), 284u);
  checkClasses(files);
}

}  // namespace
}  // namespace pasda::jvm::test
