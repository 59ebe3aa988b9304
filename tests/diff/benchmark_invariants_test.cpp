// The matcher over every benchmark pair: never throws, and every region it reports keeps the
// invariants the abstraction relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "pasda/diff/diff.hpp"
#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

namespace fs = std::filesystem;
using pasda::PerVersion;
using pasda::Version;
using pasda::jvm::Opcode;

struct Case {
  std::string name, method, old_class, new_class;
};

std::vector<Case> readCases() {
  std::vector<Case> cases;
  std::ifstream in(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() < 6) continue;
    cases.push_back({cols[0], cols[2], cols[4], cols[5]});
  }
  return cases;
}

std::string classPath(const std::string& dotted) {
  std::string p = dotted;
  std::replace(p.begin(), p.end(), '.', '/');
  return std::string(PASDA_BENCHMARK_CLASSES) + "/" + p + ".class";
}

// Operand-stack depth (in values, not words) before each instruction, recomputed here by a
// deliberately simple rule: along straight-line code, a point where the stack is empty is
// where a statement ends; javac puts a local store, a pop, iinc, a branch, a call returning
// void or a return there. We check the weaker, independent fact that the instruction before a
// region start / exit ends a statement.
bool endsStatement(const pasda::jvm::Instruction& insn) {
  switch (insn.op) {
    case Opcode::istore: case Opcode::lstore: case Opcode::fstore: case Opcode::dstore: case Opcode::astore:
    case Opcode::istore_0: case Opcode::istore_1: case Opcode::istore_2: case Opcode::istore_3:
    case Opcode::lstore_0: case Opcode::lstore_1: case Opcode::lstore_2: case Opcode::lstore_3:
    case Opcode::fstore_0: case Opcode::fstore_1: case Opcode::fstore_2: case Opcode::fstore_3:
    case Opcode::dstore_0: case Opcode::dstore_1: case Opcode::dstore_2: case Opcode::dstore_3:
    case Opcode::astore_0: case Opcode::astore_1: case Opcode::astore_2: case Opcode::astore_3:
    case Opcode::pop: case Opcode::pop2: case Opcode::iinc: case Opcode::goto_: case Opcode::goto_w:
    case Opcode::putstatic: case Opcode::putfield: case Opcode::athrow:
    case Opcode::iastore: case Opcode::lastore: case Opcode::fastore: case Opcode::dastore:
    case Opcode::aastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
      return true;
    default:
      return insn.isConditional() || insn.isReturn() || insn.op == Opcode::tableswitch ||
             insn.op == Opcode::lookupswitch ||
             ((insn.op == Opcode::invokestatic || insn.op == Opcode::invokevirtual ||
               insn.op == Opcode::invokespecial || insn.op == Opcode::invokeinterface) &&
              insn.member.descriptor.size() >= 2 && insn.member.descriptor.substr(insn.member.descriptor.size() - 2) == ")V");
  }
}

void checkRegions(const Case& c, const PerVersion<pasda::jvm::ClassFile>& cls, const pasda::diff::MatchResult& m,
                  const std::string& method) {
  std::string mname = method.substr(0, method.find(':')), mdesc = method.substr(method.find(':') + 1);
  PerVersion<std::vector<pasda::jvm::Instruction>> insns;
  PerVersion<std::set<std::uint32_t>> pcs;
  for (Version v : pasda::kBothVersions) {
    const auto* meth = cls[v].findMethod(mname, mdesc);
    ASSERT_NE(meth, nullptr);
    insns[v] = pasda::jvm::decode(cls[v], *meth->code, c.name);
    for (const auto& i : insns[v]) pcs[v].insert(i.pc);
  }
  std::uint32_t prevEnd = 0;
  for (std::size_t k = 0; k < m.regions.size(); ++k) {
    const auto& r = m.regions[k];
    SCOPED_TRACE(c.name + " region " + std::to_string(r.id));
    EXPECT_EQ(r.id, static_cast<int>(k + 1));
    EXPECT_EQ(r.method, method);
    EXPECT_GE(r.start_pc[Version::kOld], prevEnd);  // ordered, not overlapping
    prevEnd = r.exit_pc[Version::kOld];
    EXPECT_FALSE(r.outputs.empty());
    for (Version v : pasda::kBothVersions) {
      EXPECT_TRUE(pcs[v].count(r.start_pc[v]));
      EXPECT_TRUE(pcs[v].count(r.exit_pc[v]));
      EXPECT_LT(r.start_pc[v], r.exit_pc[v]);
      EXPECT_FALSE(r.lines[v].empty());
      // The instruction before the region (if any) and its last instruction end statements.
      for (std::size_t i = 0; i < insns[v].size(); ++i) {
        const auto& in = insns[v][i];
        if (i + 1 < insns[v].size() && (insns[v][i + 1].pc == r.start_pc[v] || insns[v][i + 1].pc == r.exit_pc[v])) {
          EXPECT_TRUE(endsStatement(in)) << "pc " << in.pc << " " << pasda::jvm::mnemonic(in.op);
        }
        if (in.pc >= r.start_pc[v] && in.pc < r.exit_pc[v]) {
          EXPECT_FALSE(in.isReturn());
          EXPECT_NE(in.op, Opcode::athrow);
          EXPECT_NE(in.op, Opcode::putfield);
          EXPECT_NE(in.op, Opcode::putstatic);
          for (auto t : {in.target}) {
            if (t >= 0) {
              EXPECT_TRUE(static_cast<std::uint32_t>(t) >= r.start_pc[v] && static_cast<std::uint32_t>(t) <= r.exit_pc[v])
                  << "jump from " << in.pc << " to " << t;
            }
          }
        } else if (in.target >= 0) {
          auto t = static_cast<std::uint32_t>(in.target);
          EXPECT_FALSE(t > r.start_pc[v] && t < r.exit_pc[v]) << "jump into the region from " << in.pc;
        }
      }
    }
    for (const auto* vars : {&r.inputs, &r.outputs}) {
      for (const auto& var : *vars) {
        EXPECT_NE(std::string("IJFD").find(var.type), std::string::npos);
        for (Version v : pasda::kBothVersions) {
          EXPECT_GE(var.slot[v], 0);
          EXPECT_LT(var.slot[v], cls[v].findMethod(mname, mdesc)->code->max_locals);
        }
      }
    }
  }
}

TEST(MatcherBenchmark, EveryPairMatchesWithoutErrorsAndRegionsKeepTheInvariants) {
  if (!fs::exists(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv") || !fs::exists(PASDA_BENCHMARK_CLASSES))
    GTEST_SKIP() << "benchmark classes not available";
  auto cases = readCases();
  ASSERT_GE(cases.size(), 100u);
  int withRegions = 0, total = 0, loops = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const PerVersion<pasda::jvm::ClassFile> cls{{pasda::jvm::loadClassFile(classPath(c.old_class)),
                                                 pasda::jvm::loadClassFile(classPath(c.new_class))}};
    std::string method;
    for (const auto& mm : cls[Version::kOld].methods) {
      if (mm.name == c.method) method = mm.name + ":" + mm.descriptor;
    }
    ASSERT_FALSE(method.empty());
    pasda::diff::MatchResult m;
    ASSERT_NO_THROW(m = pasda::diff::match(cls[Version::kOld], cls[Version::kNew], method));
    std::ostringstream os;
    ASSERT_NO_THROW(pasda::diff::printRegions(m, os, true));
    checkRegions(c, cls, m, method);
    total += static_cast<int>(m.regions.size());
    withRegions += m.regions.empty() ? 0 : 1;
    for (const auto& r : m.regions) loops += r.whole_loop ? 1 : 0;
    // Every other method present in both versions (helpers, constructors) as the entry too.
    for (const auto& mm : cls[Version::kOld].methods) {
      const auto* other = cls[Version::kNew].findMethod(mm.name, mm.descriptor);
      if (mm.name == c.method || !mm.code || other == nullptr || !other->code) continue;
      std::string key = mm.name + ":" + mm.descriptor;
      SCOPED_TRACE(key);
      pasda::diff::MatchResult h;
      ASSERT_NO_THROW(h = pasda::diff::match(cls[Version::kOld], cls[Version::kNew], key));
      checkRegions(c, cls, h, key);
    }
  }
  // The benchmark's pairs are small edits of the same method: most have unchanged code.
  EXPECT_GT(withRegions, static_cast<int>(cases.size()) / 2);
  std::cout << "[ matcher ] " << cases.size() << " pairs, " << withRegions << " with regions, " << total
            << " regions, " << loops << " whole loops\n";
}

}  // namespace
