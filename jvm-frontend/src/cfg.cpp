// Control-flow graphs: basic blocks, normal/exception successors, dominators, natural loops.
#include "pasda/jvm/cfg.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace pasda::jvm {

std::int32_t Cfg::insnAt(std::uint32_t pc) const {
  auto it = std::lower_bound(insns.begin(), insns.end(), pc, [](const Instruction& i, std::uint32_t p) { return i.pc < p; });
  if (it == insns.end() || it->pc != pc) return -1;
  return static_cast<std::int32_t>(it - insns.begin());
}

namespace {

void addUnique(std::vector<std::uint32_t>& v, std::uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

/// Immediate dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").
/// Unreachable blocks get themselves as immediate dominator.
std::vector<std::uint32_t> dominators(const Cfg& g, std::vector<bool>& reachable) {
  std::size_t n = g.blocks.size();
  std::vector<std::uint32_t> order;  // postorder
  std::vector<int> po(n, -1);
  reachable.assign(n, false);
  // Iterative DFS over normal and exception successors.
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  reachable[0] = true;
  auto succAt = [&](std::uint32_t b, std::size_t k) -> std::int64_t {
    const BasicBlock& bb = g.blocks[b];
    if (k < bb.succs.size()) return bb.succs[k];
    k -= bb.succs.size();
    if (k < bb.exc_succs.size()) return bb.exc_succs[k];
    return -1;
  };
  while (!stack.empty()) {
    auto& [b, k] = stack.back();
    std::int64_t s = succAt(b, k++);
    if (s < 0) {
      po[b] = static_cast<int>(order.size());
      order.push_back(b);
      stack.pop_back();
    } else if (!reachable[static_cast<std::size_t>(s)]) {
      reachable[static_cast<std::size_t>(s)] = true;
      stack.emplace_back(static_cast<std::uint32_t>(s), 0);
    }
  }
  const std::uint32_t undef = UINT32_MAX;
  std::vector<std::uint32_t> idom(n, undef);
  idom[0] = 0;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (po[a] < po[b]) a = idom[a];
      while (po[b] < po[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      std::uint32_t b = *it;
      if (b == 0) continue;
      std::uint32_t nd = undef;
      for (std::uint32_t p : g.blocks[b].preds) {
        if (!reachable[p] || idom[p] == undef) continue;
        nd = nd == undef ? p : intersect(p, nd);
      }
      if (nd != undef && idom[b] != nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  for (std::size_t b = 0; b < n; ++b)
    if (idom[b] == undef) idom[b] = static_cast<std::uint32_t>(b);
  return idom;
}

}  // namespace

Cfg buildCfg(const ClassFile& cf, const Code& code, const std::string& file) {
  Cfg g;
  g.insns = decode(cf, code, file);
  const std::size_t n = g.insns.size();
  const std::uint32_t codeLen = static_cast<std::uint32_t>(code.bytes.size());
  std::set<std::uint32_t> leaders{0};
  for (std::size_t i = 0; i < n; ++i) {
    const Instruction& in = g.insns[i];
    if (in.op == Opcode::tableswitch || in.op == Opcode::lookupswitch) {
      leaders.insert(static_cast<std::uint32_t>(in.sw.default_target));
      for (const auto& c : in.sw.cases) leaders.insert(static_cast<std::uint32_t>(c.second));
    } else if (in.isBranch()) {
      leaders.insert(static_cast<std::uint32_t>(in.target));
    }
    if (in.endsBlock() && in.pc + in.length < codeLen) leaders.insert(in.pc + in.length);
  }
  for (const ExceptionHandler& h : code.handlers) {
    leaders.insert(h.handler_pc);
    leaders.insert(h.start_pc);
    if (h.end_pc < codeLen) leaders.insert(h.end_pc);
  }
  g.block_of_insn.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const Instruction& in = g.insns[i];
    if (leaders.count(in.pc) || g.blocks.empty()) {
      BasicBlock b;
      b.id = static_cast<std::uint32_t>(g.blocks.size());
      b.first = static_cast<std::uint32_t>(i);
      b.start_pc = in.pc;
      g.blocks.push_back(b);
    }
    BasicBlock& b = g.blocks.back();
    b.last = static_cast<std::uint32_t>(i);
    b.end_pc = in.pc + in.length;
    g.block_of_insn[i] = static_cast<std::int32_t>(b.id);
  }
  auto blockAt = [&](std::int64_t pc) { return static_cast<std::uint32_t>(g.block_of_insn[static_cast<std::size_t>(g.insnAt(static_cast<std::uint32_t>(pc)))]); };
  for (BasicBlock& b : g.blocks) {
    const Instruction& last = g.insns[b.last];
    if (last.op == Opcode::tableswitch || last.op == Opcode::lookupswitch) {
      for (const auto& c : last.sw.cases) addUnique(b.succs, blockAt(c.second));
      addUnique(b.succs, blockAt(last.sw.default_target));
    } else if (last.isBranch()) {
      addUnique(b.succs, blockAt(last.target));
      bool falls = last.isConditional() || last.op == Opcode::jsr || last.op == Opcode::jsr_w;
      if (falls && b.end_pc < codeLen) addUnique(b.succs, blockAt(b.end_pc));
    } else if (!last.endsBlock() && b.end_pc < codeLen) {
      addUnique(b.succs, blockAt(b.end_pc));
    }
    for (const ExceptionHandler& h : code.handlers)
      if (b.start_pc < h.end_pc && h.start_pc < b.end_pc) addUnique(b.exc_succs, blockAt(h.handler_pc));
  }
  for (const BasicBlock& b : g.blocks) {
    for (std::uint32_t s : b.succs) addUnique(g.blocks[s].preds, b.id);
    for (std::uint32_t s : b.exc_succs) addUnique(g.blocks[s].preds, b.id);
  }
  std::vector<bool> reachable;
  g.idom = dominators(g, reachable);
  auto dominates = [&](std::uint32_t a, std::uint32_t b) {
    if (!reachable[a] || !reachable[b]) return false;
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = g.idom[b];
    }
  };
  for (BasicBlock& b : g.blocks) {
    std::vector<std::uint32_t> all = b.succs;
    all.insert(all.end(), b.exc_succs.begin(), b.exc_succs.end());
    for (std::uint32_t s : all) {
      if (dominates(s, b.id)) {
        if (std::find(g.back_edges.begin(), g.back_edges.end(), std::make_pair(b.id, s)) == g.back_edges.end())
          g.back_edges.emplace_back(b.id, s);
        g.blocks[s].loop_header = true;
      }
    }
  }
  std::sort(g.back_edges.begin(), g.back_edges.end());
  return g;
}

}  // namespace pasda::jvm
