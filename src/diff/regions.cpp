#include "regions.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace pasda::diff::detail {

using jvm::Instruction;
using jvm::Opcode;

namespace {

struct Span {
  int s = 0, e = 0;  // insn indices [s, e); e is the exit
  bool contains(int i) const { return i >= s && i < e; }
};

// Control-flow shape of a span in one version: single entry, exception handlers, exit.
std::string checkShape(const MethodFacts& f, Span sp) {
  if (sp.e >= f.size()) return "reaches the end of the code";
  if (f.depth[static_cast<std::size_t>(sp.s)] != 0 || f.depth[static_cast<std::size_t>(sp.e)] != 0)
    return "operand stack not empty at entry or exit";
  for (int i = 0; i < f.size(); ++i) {
    if (sp.contains(i)) continue;
    for (int t : f.succs[static_cast<std::size_t>(i)]) {
      if (t > sp.s && t < sp.e) return "jump into the middle from pc " + std::to_string(f.at(i).pc);
    }
  }
  for (const auto& h : f.method->code->handlers) {
    int hs = f.indexAt(h.start_pc), he = f.indexAt(h.end_pc), hp = f.indexAt(h.handler_pc);
    if (hp >= sp.s && hp < sp.e) return "holds an exception handler";
    bool overlaps = hs < sp.e && he > sp.s;
    bool covers = hs <= sp.s && he >= sp.e;
    if (overlaps && !covers) return "exception handler covers part of it";
  }
  for (int i = sp.s; i < sp.e; ++i) {
    int hdr = f.loop_control[static_cast<std::size_t>(i)];
    if (hdr >= 0 && !sp.contains(hdr)) return "part of a loop's control (condition or update)";
  }
  return "";
}

}  // namespace

/// Only local definitions, and jumps that stay inside or go to the exit, to corresponding places
/// in both versions. "" when the region passes.
std::string checkEffectsAndJumps(const RegionContext& ctx, const Span& o, const Span& n) {
  const MethodFacts& F0 = *ctx.f[Version::kOld];
  const MethodFacts& F1 = *ctx.f[Version::kNew];
  auto mapInsn = [&](int i) { return ctx.al->insn_match[static_cast<std::size_t>(i)]; };
  for (int i = o.s; i < o.e; ++i) {
    std::string why = ctx.helpers->forbidden(F0.at(i), i > o.s ? &F0.at(i - 1) : nullptr);
    if (!why.empty()) return why + " at " + where(F0, Version::kOld, i);
  }
  for (int i = o.s; i < o.e; ++i) {
    auto to = branchTargets(F0.at(i));
    auto tn = branchTargets(F1.at(mapInsn(i)));
    for (std::size_t k = 0; k < to.size() && k < tn.size(); ++k) {
      int ti = F0.indexAt(to[k]), tj = F1.indexAt(tn[k]);
      if (ti == o.e) {
        if (tj != n.e) return "jumps to the exit in one version only at " + where(F0, Version::kOld, i);
      } else if (o.contains(ti)) {
        if (mapInsn(ti) != tj) return "jump targets differ at " + where(F0, Version::kOld, i);
      } else {
        return "jump leaves the region at " + where(F0, Version::kOld, i);
      }
    }
  }
  return "";
}

/// Data flow inside the region (old version; the new one is the same code under the renaming):
/// the locals surely defined before each instruction (nullopt: unreached) and at the exit.
std::vector<std::optional<SlotSet>> definedLocals(const MethodFacts& F0, const Span& o, std::optional<SlotSet>& defExit) {
  std::vector<std::optional<SlotSet>> defIn(static_cast<std::size_t>(o.e - o.s));
  defIn[0] = SlotSet{};
  auto meet = [](std::optional<SlotSet>& into, const SlotSet& s) {
    if (!into) {
      into = s;
      return true;
    }
    SlotSet r;
    std::set_intersection(into->begin(), into->end(), s.begin(), s.end(), std::inserter(r, r.begin()));
    if (r == *into) return false;
    into = std::move(r);
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = o.s; i < o.e; ++i) {
      const auto& in = defIn[static_cast<std::size_t>(i - o.s)];
      if (!in) continue;
      SlotSet after = *in;
      LocalAccess acc = localAccess(F0.at(i));
      if (acc.store) after.insert(acc.slot);
      for (int t : F0.succs[static_cast<std::size_t>(i)]) {
        if (t == o.e) {
          changed |= meet(defExit, after);
        } else if (o.contains(t) && t != o.s) {
          changed |= meet(defIn[static_cast<std::size_t>(t - o.s)], after);
        }
      }
    }
  }
  return defIn;
}

/// Loops (whole loops, nesting depth), branches and nonlinear operations of the region (old).
void measureShape(const MethodFacts& F0, const Span& o, Region& out) {
  std::vector<int> nest(static_cast<std::size_t>(o.e - o.s), 0);
  for (const auto& [header, body] : F0.loops) {
    if (!o.contains(header)) continue;
    out.whole_loop = true;
    for (int i : body) {
      if (o.contains(i)) nest[static_cast<std::size_t>(i - o.s)]++;
    }
  }
  for (int d : nest) out.loop_depth = std::max(out.loop_depth, d);
  using O = Opcode;
  for (int i = o.s; i < o.e; ++i) {
    switch (F0.at(i).op) {
      case O::tableswitch: case O::lookupswitch:
        out.branches = true;
        break;
      case O::imul: case O::lmul: case O::fmul: case O::dmul: case O::idiv: case O::ldiv: case O::fdiv:
      case O::ddiv: case O::irem: case O::lrem: case O::frem: case O::drem: case O::invokestatic:
        out.nonlinear++;
        break;
      default:
        if (F0.at(i).isConditional()) out.branches = true;
        break;
    }
  }
}

std::string tryRegion(const RegionContext& ctx, int a, int b, Region& out) {
  const MethodFacts& F0 = *ctx.f[Version::kOld];
  const MethodFacts& F1 = *ctx.f[Version::kNew];
  const Alignment& al = *ctx.al;
  const auto& U = al.units[Version::kOld];
  const auto& V = al.units[Version::kNew];
  const int ma = al.unit_match[static_cast<std::size_t>(a)];
  const Span o{U[static_cast<std::size_t>(a)].first, U[static_cast<std::size_t>(b - 1)].end};
  const Span n{V[static_cast<std::size_t>(ma)].first, V[static_cast<std::size_t>(ma + b - a - 1)].end};
  const PerVersion<Span> spans{{o, n}};

  if (std::string why = checkEffectsAndJumps(ctx, o, n); !why.empty()) return why;
  for (Version v : kBothVersions) {
    std::string why = checkShape(*ctx.f[v], spans[v]);
    if (!why.empty()) return why + " (" + std::string(versionName(v)) + ")";
  }

  std::optional<SlotSet> defExit;
  std::vector<std::optional<SlotSet>> defIn = definedLocals(F0, o, defExit);
  std::map<int, char> types;
  std::set<int> uses, writes;
  std::map<int, std::uint32_t> firstStore;
  for (int i = o.s; i < o.e; ++i) {
    const auto& in = defIn[static_cast<std::size_t>(i - o.s)];
    LocalAccess acc = localAccess(F0.at(i));
    if (acc.slot < 0 || !in) continue;
    auto [it, fresh] = types.emplace(acc.slot, acc.type);
    if (!fresh && it->second != acc.type) return "local " + std::to_string(acc.slot) + " used with two types";
    if (acc.load && !in->count(acc.slot)) uses.insert(acc.slot);
    if (acc.store) {
      writes.insert(acc.slot);
      firstStore.emplace(acc.slot, F0.at(i).pc + F0.at(i).length);
    }
  }
  if (!defExit) return "the exit is never reached";
  SlotSet live = F0.live_in[static_cast<std::size_t>(o.e)];
  for (int s : F1.live_in[static_cast<std::size_t>(n.e)]) {
    auto it = al.slot_inv.find(s);
    if (it != al.slot_inv.end()) live.insert(it->second);
  }
  std::set<int> outs, ins = uses;
  for (int w : writes) {
    if (!live.count(w)) continue;
    outs.insert(w);
    if (!defExit->count(w)) ins.insert(w);  // not written on every path: its old value flows through
  }
  if (outs.empty()) return "defines nothing that is used afterwards";
  auto makeVar = [&](int slot, bool output) {
    RegionVar rv;
    rv.type = types.count(slot) ? types[slot] : 'I';
    rv.slot[Version::kOld] = slot;
    rv.slot[Version::kNew] = al.slot_map.count(slot) ? al.slot_map.at(slot) : -1;
    std::uint32_t pc = output && firstStore.count(slot) ? firstStore[slot] : F0.at(o.s).pc;
    rv.name = F0.localName(slot, pc);
    if (rv.name.empty()) rv.name = "v" + std::to_string(slot);
    return rv;
  };
  out = Region{};
  for (int s : ins) {
    RegionVar rv = makeVar(s, false);
    if (rv.type == 'A' || rv.slot[Version::kNew] < 0) return "input " + rv.name + " is a reference or has no counterpart";
    out.inputs.push_back(rv);
  }
  for (int s : outs) {
    RegionVar rv = makeVar(s, true);
    if (rv.type == 'A' || rv.slot[Version::kNew] < 0) return "output " + rv.name + " is a reference or has no counterpart";
    out.outputs.push_back(rv);
  }

  out.method = F0.key;
  for (Version v : kBothVersions) {
    const MethodFacts& f = *ctx.f[v];
    out.start_pc[v] = f.at(spans[v].s).pc;
    out.exit_pc[v] = f.at(spans[v].e).pc;
    std::set<int> lines;
    for (int i = spans[v].s; i < spans[v].e; ++i) {
      if (f.line[static_cast<std::size_t>(i)] > 0) lines.insert(f.line[static_cast<std::size_t>(i)]);
    }
    out.lines[v].assign(lines.begin(), lines.end());
  }
  measureShape(F0, o, out);
  return "";
}

std::vector<Region> findRegions(const RegionContext& ctx, std::vector<std::string>& notes) {
  std::vector<Region> regions;
  const Alignment& al = *ctx.al;
  const int n = static_cast<int>(al.units[Version::kOld].size());
  int a = 0;
  while (a < n) {
    if (al.unit_match[static_cast<std::size_t>(a)] < 0) {
      ++a;
      continue;
    }
    int runEnd = a + 1;  // consecutive matched units in both versions
    while (runEnd < n && al.unit_match[static_cast<std::size_t>(runEnd)] >= 0 &&
           al.unit_match[static_cast<std::size_t>(runEnd)] == al.unit_match[static_cast<std::size_t>(runEnd - 1)] + 1)
      ++runEnd;
    while (a < runEnd) {
      Region r;
      int found = -1;
      std::string firstWhy;
      for (int b = runEnd; b > a; --b) {
        std::string why = tryRegion(ctx, a, b, r);
        if (why.empty()) {
          found = b;
          break;
        }
        if (b == a + 1) firstWhy = why;
      }
      if (found < 0) {
        const MethodFacts& f = *ctx.f[Version::kOld];
        const Unit& u = al.units[Version::kOld][static_cast<std::size_t>(a)];
        const Instruction& last = f.at(u.end - 1);
        // Returns and plain jumps are never regions; no need to explain them.
        if (!last.isReturn() && last.op != Opcode::goto_ && last.op != Opcode::goto_w)
          notes.push_back(where(f, Version::kOld, u.first) + ": not abstracted: " + firstWhy);
        ++a;
        continue;
      }
      regions.push_back(std::move(r));
      a = found;
    }
  }
  std::sort(regions.begin(), regions.end(), [](const Region& x, const Region& y) {
    return x.start_pc[Version::kOld] < y.start_pc[Version::kOld];
  });
  for (std::size_t i = 0; i < regions.size(); ++i) regions[i].id = static_cast<int>(i + 1);
  return regions;
}

}  // namespace pasda::diff::detail
