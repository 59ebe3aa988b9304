// Per-method control-flow graphs over decoded instructions.
#pragma once

#include <cstdint>
#include <vector>

#include "pasda/jvm/instruction.hpp"

namespace pasda::jvm {

struct BasicBlock {
  std::uint32_t id = 0;
  std::uint32_t first = 0, last = 0;  // instruction indices (inclusive) into Cfg::insns
  std::uint32_t start_pc = 0, end_pc = 0;  // end_pc = pc after the last instruction
  std::vector<std::uint32_t> succs;          // normal successors (block ids)
  std::vector<std::uint32_t> exc_succs;      // exception-handler successors (block ids)
  std::vector<std::uint32_t> preds;          // normal and exceptional predecessors
  bool loop_header = false;
};

struct Cfg {
  std::vector<Instruction> insns;
  std::vector<BasicBlock> blocks;  // block 0 is the entry; ordered by start pc
  std::vector<std::pair<std::uint32_t, std::uint32_t>> back_edges;  // (from block, to header)
  std::vector<std::int32_t> block_of_insn;  // instruction index -> block id
  std::vector<std::uint32_t> idom;          // immediate dominator per block (entry: itself)
  std::int32_t insnAt(std::uint32_t pc) const;  // instruction index at pc, -1 if none
};

/// Build the CFG of a method's code. Back edges are edges to a dominator (natural loops).
Cfg buildCfg(const ClassFile& cf, const Code& code, const std::string& file);

}  // namespace pasda::jvm
