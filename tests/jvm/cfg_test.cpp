// CFGs: blocks, successors, dominators, loop headers and back edges on fixtures.
#include <gtest/gtest.h>

#include <algorithm>

#include "pasda/jvm/cfg.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

Cfg cfgOf(const ClassFile& cf, const std::string& name) {
  for (const Method& m : cf.methods)
    if (m.name == name && m.code) return buildCfg(cf, *m.code, cf.source_file_path);
  ADD_FAILURE() << "no method " << name;
  return {};
}

bool dominates(const Cfg& g, std::uint32_t a, std::uint32_t b) {
  for (;;) {
    if (a == b) return true;
    if (g.idom[b] == b) return false;
    b = g.idom[b];
  }
}

void checkInvariants(const Cfg& g) {
  ASSERT_FALSE(g.blocks.empty());
  EXPECT_EQ(g.blocks[0].start_pc, 0u);
  EXPECT_EQ(g.idom[0], 0u);
  for (const BasicBlock& b : g.blocks) {
    EXPECT_LE(b.first, b.last);
    EXPECT_EQ(g.insns[b.first].pc, b.start_pc);
    for (std::uint32_t i = b.first; i <= b.last; ++i) EXPECT_EQ(g.block_of_insn[i], static_cast<std::int32_t>(b.id));
    for (std::uint32_t i = b.first; i < b.last; ++i) EXPECT_FALSE(g.insns[i].endsBlock());
    for (std::uint32_t s : b.succs) {
      ASSERT_LT(s, g.blocks.size());
      EXPECT_NE(std::find(g.blocks[s].preds.begin(), g.blocks[s].preds.end(), b.id), g.blocks[s].preds.end());
    }
  }
  for (auto [from, to] : g.back_edges) {
    EXPECT_TRUE(g.blocks[to].loop_header);
    EXPECT_TRUE(dominates(g, to, from));
  }
}

TEST(Cfg, NestedLoopsHaveFourHeadersAndBackEdges) {
  ClassFile cf = loadClassFile(fixtureClass("Flow"));
  Cfg g = cfgOf(cf, "nested");
  checkInvariants(g);
  // for-i, for-j, while, do-while
  EXPECT_EQ(g.back_edges.size(), 4u);
  auto headers = std::count_if(g.blocks.begin(), g.blocks.end(), [](const BasicBlock& b) { return b.loop_header; });
  EXPECT_EQ(headers, 4);
  // The for-i header dominates every other header; headers are distinct blocks.
  std::vector<std::uint32_t> hs;
  for (auto [f, t] : g.back_edges) hs.push_back(t);
  std::sort(hs.begin(), hs.end());
  EXPECT_EQ(std::unique(hs.begin(), hs.end()), hs.end());
  for (std::uint32_t h : hs) EXPECT_TRUE(dominates(g, hs.front(), h));
  // A loop-free method has no back edges.
  Cfg t = cfgOf(cf, "table");
  checkInvariants(t);
  EXPECT_TRUE(t.back_edges.empty());
  // tableswitch block: 5 distinct successors (4 cases + default).
  EXPECT_EQ(t.blocks[0].succs.size(), 5u);
}

TEST(Cfg, ExceptionSuccessors) {
  ClassFile cf = loadClassFile(fixtureClass("Flow"));
  const Method* m = cf.findMethod("guarded", "([II)I");
  ASSERT_TRUE(m && m->code);
  Cfg g = buildCfg(cf, *m->code, "Flow");
  checkInvariants(g);
  int pcIaload = -1;
  for (const Instruction& i : g.insns)
    if (i.op == Opcode::iaload) pcIaload = static_cast<int>(i.pc);
  ASSERT_GE(pcIaload, 0);
  const BasicBlock& b = g.blocks[g.block_of_insn[g.insnAt(pcIaload)]];
  std::vector<std::uint32_t> expected;
  for (const ExceptionHandler& h : m->code->handlers)
    if (h.start_pc <= pcIaload && pcIaload < h.end_pc)
      expected.push_back(g.block_of_insn[g.insnAt(h.handler_pc)]);
  ASSERT_GE(expected.size(), 3u);  // two catch clauses (one multi-catch = 2 entries) + finally
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  auto got = b.exc_succs;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  for (std::uint32_t h : got) {
    EXPECT_EQ(g.blocks[h].start_pc, static_cast<std::uint32_t>(g.insns[g.blocks[h].first].pc));
    EXPECT_NE(std::find(g.blocks[h].preds.begin(), g.blocks[h].preds.end(), b.id), g.blocks[h].preds.end());
    EXPECT_NE(g.idom[h], h) << "handler block must be reachable";
  }
  EXPECT_EQ(g.insnAt(g.insns[1].pc), 1);
  EXPECT_EQ(g.insnAt(0xfffff), -1);
}

TEST(Cfg, EveryFixtureMethodSatisfiesInvariants) {
  for (const std::string& f : classFilesUnder(fixtureDir())) {
    ClassFile cf = loadClassFile(f);
    for (const Method& m : cf.methods) {
      if (m.code) checkInvariants(buildCfg(cf, *m.code, f));
    }
  }
}

}  // namespace
}  // namespace pasda::jvm::test
