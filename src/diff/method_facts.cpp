#include "method_facts.hpp"

#include <algorithm>
#include <climits>
#include <deque>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff::detail {

using jvm::Instruction;
using jvm::Opcode;

namespace {

int typeWords(const std::string& desc) {
  if (desc.empty()) return 1;
  return (desc[0] == 'J' || desc[0] == 'D') ? 2 : (desc[0] == 'V' ? 0 : 1);
}

int op(const Instruction& i) { return static_cast<int>(i.op); }
bool in(const Instruction& i, Opcode lo, Opcode hi) { return op(i) >= static_cast<int>(lo) && op(i) <= static_cast<int>(hi); }

}  // namespace

int stackEffect(const Instruction& insn) {
  using O = Opcode;
  LocalAccess la = localAccess(insn);
  if (la.slot >= 0 && insn.op != O::iinc && insn.op != O::ret) {
    int words = (la.type == 'J' || la.type == 'D') ? 2 : 1;
    return la.load ? words : -words;
  }
  switch (insn.op) {
    case O::nop: case O::iinc: case O::goto_: case O::goto_w: case O::ret: case O::return_:
    case O::ineg: case O::lneg: case O::fneg: case O::dneg: case O::swap:
    case O::i2f: case O::l2d: case O::f2i: case O::d2l: case O::i2b: case O::i2c: case O::i2s:
    case O::newarray: case O::anewarray: case O::arraylength: case O::checkcast: case O::instanceof:
    case O::laload: case O::daload:
      return 0;
    case O::aconst_null: case O::iconst_m1: case O::iconst_0: case O::iconst_1: case O::iconst_2:
    case O::iconst_3: case O::iconst_4: case O::iconst_5: case O::fconst_0: case O::fconst_1:
    case O::fconst_2: case O::bipush: case O::sipush: case O::ldc: case O::ldc_w: case O::new_:
    case O::dup: case O::dup_x1: case O::dup_x2: case O::jsr: case O::jsr_w:
    case O::i2l: case O::i2d: case O::f2l: case O::f2d:
      return 1;
    case O::lconst_0: case O::lconst_1: case O::dconst_0: case O::dconst_1: case O::ldc2_w:
    case O::dup2: case O::dup2_x1: case O::dup2_x2:
      return 2;
    case O::iload: case O::fload: case O::aload: return 1;
    case O::lload: case O::dload: return 2;
    case O::istore: case O::fstore: case O::astore: return -1;
    case O::lstore: case O::dstore: return -2;
    case O::iaload: case O::faload: case O::aaload: case O::baload: case O::caload: case O::saload: return -1;
    case O::iastore: case O::fastore: case O::aastore: case O::bastore: case O::castore: case O::sastore: return -3;
    case O::lastore: case O::dastore: return -4;
    case O::pop: return -1;
    case O::pop2: return -2;
    case O::iadd: case O::isub: case O::imul: case O::idiv: case O::irem: case O::iand: case O::ior:
    case O::ixor: case O::ishl: case O::ishr: case O::iushr: case O::fadd: case O::fsub: case O::fmul:
    case O::fdiv: case O::frem: case O::lshl: case O::lshr: case O::lushr:
    case O::l2i: case O::l2f: case O::d2i: case O::d2f: case O::fcmpl: case O::fcmpg:
      return -1;
    case O::ladd: case O::lsub: case O::lmul: case O::ldiv: case O::lrem: case O::land: case O::lor:
    case O::lxor: case O::dadd: case O::dsub: case O::dmul: case O::ddiv: case O::drem:
      return -2;
    case O::lcmp: case O::dcmpl: case O::dcmpg: return -3;
    case O::ifeq: case O::ifne: case O::iflt: case O::ifge: case O::ifgt: case O::ifle:
    case O::ifnull: case O::ifnonnull: case O::tableswitch: case O::lookupswitch:
    case O::ireturn: case O::freturn: case O::areturn: case O::athrow:
    case O::monitorenter: case O::monitorexit:
      return -1;
    case O::if_icmpeq: case O::if_icmpne: case O::if_icmplt: case O::if_icmpge: case O::if_icmpgt:
    case O::if_icmple: case O::if_acmpeq: case O::if_acmpne: case O::lreturn: case O::dreturn:
      return -2;
    case O::getstatic: return typeWords(insn.member.descriptor);
    case O::putstatic: return -typeWords(insn.member.descriptor);
    case O::getfield: return typeWords(insn.member.descriptor) - 1;
    case O::putfield: return -typeWords(insn.member.descriptor) - 1;
    case O::invokevirtual: case O::invokespecial: case O::invokestatic: case O::invokeinterface:
    case O::invokedynamic: {
      jvm::MethodDesc d;
      try {
        d = jvm::parseMethodDescriptor(insn.member.descriptor);
      } catch (const std::invalid_argument&) {
        return INT_MIN;
      }
      int e = d.ret.slots() - d.paramSlots();
      if (insn.op != O::invokestatic && insn.op != O::invokedynamic) e -= 1;
      return e;
    }
    case O::multianewarray: return 1 - insn.imm;
    default: break;
  }
  return INT_MIN;
}

int stackPops(const Instruction& insn) {
  using O = Opcode;
  LocalAccess la = localAccess(insn);
  if (la.slot >= 0 && insn.op != O::ret) {
    if (insn.op == O::iinc || la.load) return 0;
    return (la.type == 'J' || la.type == 'D') ? 2 : 1;
  }
  switch (insn.op) {
    case O::iaload: case O::laload: case O::faload: case O::daload: case O::aaload: case O::baload:
    case O::caload: case O::saload:
      return 2;
    case O::iastore: case O::fastore: case O::aastore: case O::bastore: case O::castore: case O::sastore: return 3;
    case O::lastore: case O::dastore: return 4;
    case O::pop: return 1;
    case O::pop2: return 2;
    case O::dup: return 1;
    case O::dup_x1: case O::dup2: case O::swap: return 2;
    case O::dup_x2: case O::dup2_x1: return 3;
    case O::dup2_x2: return 4;
    case O::iadd: case O::isub: case O::imul: case O::idiv: case O::irem: case O::iand: case O::ior:
    case O::ixor: case O::ishl: case O::ishr: case O::iushr: case O::fadd: case O::fsub: case O::fmul:
    case O::fdiv: case O::frem: case O::fcmpl: case O::fcmpg: case O::if_icmpeq: case O::if_icmpne:
    case O::if_icmplt: case O::if_icmpge: case O::if_icmpgt: case O::if_icmple: case O::if_acmpeq:
    case O::if_acmpne: case O::l2i: case O::l2f: case O::l2d: case O::d2i: case O::d2l: case O::d2f:
    case O::lneg: case O::dneg: case O::lreturn: case O::dreturn:
      return 2;
    case O::lshl: case O::lshr: case O::lushr: return 3;
    case O::ladd: case O::lsub: case O::lmul: case O::ldiv: case O::lrem: case O::land: case O::lor:
    case O::lxor: case O::dadd: case O::dsub: case O::dmul: case O::ddiv: case O::drem: case O::lcmp:
    case O::dcmpl: case O::dcmpg:
      return 4;
    case O::ineg: case O::fneg: case O::i2l: case O::i2f: case O::i2d: case O::f2i: case O::f2l: case O::f2d:
    case O::i2b: case O::i2c: case O::i2s: case O::ifeq: case O::ifne: case O::iflt: case O::ifge:
    case O::ifgt: case O::ifle: case O::ifnull: case O::ifnonnull: case O::tableswitch: case O::lookupswitch:
    case O::ireturn: case O::freturn: case O::areturn: case O::athrow: case O::monitorenter:
    case O::monitorexit: case O::arraylength: case O::checkcast: case O::instanceof: case O::newarray:
    case O::anewarray: case O::getfield:
      return 1;
    case O::putfield: return 1 + typeWords(insn.member.descriptor);
    case O::putstatic: return typeWords(insn.member.descriptor);
    case O::multianewarray: return insn.imm;
    case O::invokevirtual: case O::invokespecial: case O::invokestatic: case O::invokeinterface:
    case O::invokedynamic: {
      jvm::MethodDesc d;
      try {
        d = jvm::parseMethodDescriptor(insn.member.descriptor);
      } catch (const std::invalid_argument&) {
        return INT_MIN;
      }
      return d.paramSlots() + ((insn.op != O::invokestatic && insn.op != O::invokedynamic) ? 1 : 0);
    }
    default: break;
  }
  const int e = stackEffect(insn);
  return e == INT_MIN ? INT_MIN : (e >= 0 ? 0 : INT_MIN);  // (pushes only: constants, loads, new, goto, return)
}

namespace {

/// One instruction's effect on the origins of the operand-stack words (see stackOrigins).
/// False when the stack's shape is not known.
bool transferOrigins(const Instruction& in, std::vector<int>& st, const std::set<int>& written) {
  using O = Opcode;
  const LocalAccess la = localAccess(in);
  if (la.slot >= 0 && la.load && !la.store && la.type == 'A') {
    st.push_back(written.count(la.slot) ? -1 : la.slot);
    return true;
  }
  // The dup/swap family rearranges words: [w0 .. wn-1] (top last) becomes `order` of them.
  auto rearrange = [&st](std::size_t n, std::initializer_list<int> order) {
    if (st.size() < n) return false;
    const std::vector<int> w(st.end() - static_cast<std::ptrdiff_t>(n), st.end());
    st.resize(st.size() - n);
    for (int k : order) st.push_back(w[static_cast<std::size_t>(k)]);
    return true;
  };
  switch (in.op) {
    case O::dup: return rearrange(1, {0, 0});
    case O::dup_x1: return rearrange(2, {1, 0, 1});
    case O::dup_x2: return rearrange(3, {2, 0, 1, 2});
    case O::dup2: return rearrange(2, {0, 1, 0, 1});
    case O::dup2_x1: return rearrange(3, {1, 2, 0, 1, 2});
    case O::dup2_x2: return rearrange(4, {2, 3, 0, 1, 2, 3});
    case O::swap: return rearrange(2, {1, 0});
    default: break;
  }
  const int pops = stackPops(in), effect = stackEffect(in);
  if (pops == INT_MIN || effect == INT_MIN || pops < 0 || st.size() < static_cast<std::size_t>(pops) || pops + effect < 0)
    return false;
  st.resize(st.size() - static_cast<std::size_t>(pops));
  st.insert(st.end(), static_cast<std::size_t>(pops + effect), -1);
  return true;
}

}  // namespace

std::vector<int> withBreakTails(const MethodFacts& F, int header, const std::vector<int>& body) {
  const auto n = static_cast<std::size_t>(F.size());
  std::vector<std::vector<int>> preds(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int t : F.succs[i])
      if (t >= 0 && static_cast<std::size_t>(t) < n) preds[static_cast<std::size_t>(t)].push_back(static_cast<int>(i));
    for (int t : F.handler_succs[i])
      if (t >= 0 && static_cast<std::size_t>(t) < n) preds[static_cast<std::size_t>(t)].push_back(static_cast<int>(i));
  }
  std::set<int> headers;
  for (const auto& [h, b] : F.loops) headers.insert(h);
  std::set<int> in(body.begin(), body.end());
  in.insert(header);
  auto exitTargets = [&] {
    std::set<int> t;
    for (int i : in)
      for (int s : F.succs[static_cast<std::size_t>(i)])
        if (!in.count(s)) t.insert(s);
    return t;
  };
  for (bool grown = true; grown;) {
    grown = false;
    const std::set<int> targets = exitTargets();
    if (targets.size() < 2) break;
    for (int t : targets) {
      if (t < 0 || static_cast<std::size_t>(t) >= n || headers.count(t)) continue;
      auto enteredFrom = [&](int u, const std::set<int>& tail) {
        for (int p : preds[static_cast<std::size_t>(u)])
          if (!in.count(p) && !tail.count(p)) return false;
        return true;
      };
      if (!enteredFrom(t, {})) continue;
      std::set<int> tail{t};
      bool ok = true;
      for (bool more = true; more && ok;) {  // grow by what only the loop and the tail enter
        more = false;
        for (int j : std::set<int>(tail))
          for (int u : F.succs[static_cast<std::size_t>(j)]) {
            if (in.count(u) || tail.count(u) || targets.count(u)) continue;
            if (u < 0 || static_cast<std::size_t>(u) >= n || !enteredFrom(u, tail)) continue;
            if (headers.count(u) || tail.size() >= 64) {
              ok = false;
              break;
            }
            tail.insert(u);
            more = true;
          }
      }
      // It must leave only to the loop's other exits (never back into the loop).
      for (int j : tail)
        for (int u : F.succs[static_cast<std::size_t>(j)])
          if (!tail.count(u) && (in.count(u) || !targets.count(u) || u == t)) ok = false;
      if (!ok) continue;
      in.insert(tail.begin(), tail.end());
      grown = true;
      break;
    }
  }
  in.erase(header);
  return {in.begin(), in.end()};
}

std::optional<std::map<int, std::vector<int>>> stackOrigins(const MethodFacts& F, int start, const std::set<int>& region,
                                                            const std::set<int>& written) {
  std::map<int, std::vector<int>> at;
  at[start] = {};
  std::vector<int> work{start};
  while (!work.empty()) {
    const int i = work.back();
    work.pop_back();
    std::vector<int> st = at[i];
    if (!transferOrigins(F.at(i), st, written)) return std::nullopt;
    for (int t : F.succs[static_cast<std::size_t>(i)]) {
      if (!region.count(t)) continue;
      auto [it, fresh] = at.try_emplace(t, st);
      if (fresh) {
        work.push_back(t);
        continue;
      }
      if (it->second.size() != st.size()) return std::nullopt;
      bool changed = false;
      for (std::size_t w = 0; w < st.size(); ++w)
        if (it->second[w] != st[w] && it->second[w] != -1) {
          it->second[w] = -1;
          changed = true;
        }
      if (changed) work.push_back(t);
    }
  }
  return at;
}

std::vector<std::uint32_t> branchTargets(const Instruction& insn) {
  std::vector<std::uint32_t> t;
  if (insn.op == Opcode::tableswitch || insn.op == Opcode::lookupswitch) {
    t.push_back(static_cast<std::uint32_t>(insn.sw.default_target));
    for (const auto& c : insn.sw.cases) t.push_back(static_cast<std::uint32_t>(c.second));
  } else if (insn.target >= 0) {
    t.push_back(static_cast<std::uint32_t>(insn.target));
  }
  return t;
}

LocalAccess localAccess(const Instruction& insn) {
  LocalAccess a;
  if (insn.local < 0) return a;
  a.slot = insn.local;
  using O = Opcode;
  if (insn.op == O::iinc) {
    a.load = a.store = true;
    a.type = 'I';
    return a;
  }
  if (insn.op == O::ret) {
    a.load = true;
    a.type = 'A';
    return a;
  }
  static const char kTypes[] = {'I', 'J', 'F', 'D', 'A'};
  if (in(insn, O::iload, O::aload)) {
    a.load = true;
    a.type = kTypes[op(insn) - static_cast<int>(O::iload)];
  } else if (in(insn, O::iload_0, O::aload_3)) {
    a.load = true;
    a.type = kTypes[(op(insn) - static_cast<int>(O::iload_0)) / 4];
  } else if (in(insn, O::istore, O::astore)) {
    a.store = true;
    a.type = kTypes[op(insn) - static_cast<int>(O::istore)];
  } else if (in(insn, O::istore_0, O::astore_3)) {
    a.store = true;
    a.type = kTypes[(op(insn) - static_cast<int>(O::istore_0)) / 4];
  }
  return a;
}

int MethodFacts::indexAt(std::uint32_t pc) const {
  if (!cfg.insns.empty()) {
    const auto& last = cfg.insns.back();
    if (pc == last.pc + last.length) return size();
  }
  return cfg.insnAt(pc);
}

std::string MethodFacts::localName(int slot, std::uint32_t pc) const {
  for (const auto& lv : method->code->local_variables) {
    if (lv.index == slot && pc >= lv.start_pc && pc <= static_cast<std::uint32_t>(lv.start_pc) + lv.length)
      return lv.name;
  }
  return "";
}

namespace {

void computeSuccessors(MethodFacts& f) {
  const int n = f.size();
  f.succs.assign(static_cast<std::size_t>(n), {});
  f.handler_succs.assign(static_cast<std::size_t>(n), {});
  for (int i = 0; i < n; ++i) {
    const Instruction& insn = f.at(i);
    auto& s = f.succs[static_cast<std::size_t>(i)];
    for (std::uint32_t t : branchTargets(insn)) {
      int j = f.cfg.insnAt(t);
      if (j >= 0 && std::find(s.begin(), s.end(), j) == s.end()) s.push_back(j);
    }
    bool falls = !(insn.isReturn() || insn.op == Opcode::athrow || insn.op == Opcode::goto_ ||
                   insn.op == Opcode::goto_w || insn.op == Opcode::ret || insn.op == Opcode::tableswitch ||
                   insn.op == Opcode::lookupswitch);
    if (falls && i + 1 < n && std::find(s.begin(), s.end(), i + 1) == s.end()) s.push_back(i + 1);
    for (const auto& h : f.method->code->handlers) {
      if (insn.pc >= h.start_pc && insn.pc < h.end_pc) {
        int j = f.cfg.insnAt(h.handler_pc);
        if (j >= 0) f.handler_succs[static_cast<std::size_t>(i)].push_back(j);
      }
    }
  }
}

void computeDepth(MethodFacts& f) {
  const int n = f.size();
  f.depth.assign(static_cast<std::size_t>(n), -1);
  if (n == 0) return;
  std::deque<int> work;
  auto set = [&](int j, int d) {
    int& cur = f.depth[static_cast<std::size_t>(j)];
    if (cur == -1) {
      cur = d;
      work.push_back(j);
    } else if (cur != d) {
      f.depth_ok = false;
    }
  };
  set(0, 0);
  while (!work.empty() && f.depth_ok) {
    int i = work.front();
    work.pop_front();
    const Instruction& insn = f.at(i);
    int e = stackEffect(insn);
    int after = f.depth[static_cast<std::size_t>(i)] + e;
    if (e == INT_MIN || after < 0 || insn.op == Opcode::jsr || insn.op == Opcode::jsr_w) {
      f.depth_ok = false;  // unknown or subroutine code: no regions in this method
      break;
    }
    for (int j : f.succs[static_cast<std::size_t>(i)]) set(j, after);
    for (int j : f.handler_succs[static_cast<std::size_t>(i)]) set(j, 1);
  }
}

void computeLiveness(MethodFacts& f) {
  const int n = f.size();
  f.live_in.assign(static_cast<std::size_t>(n), {});
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = n - 1; i >= 0; --i) {
      SlotSet out;
      for (int j : f.succs[static_cast<std::size_t>(i)]) {
        const auto& l = f.live_in[static_cast<std::size_t>(j)];
        out.insert(l.begin(), l.end());
      }
      for (int j : f.handler_succs[static_cast<std::size_t>(i)]) {
        const auto& l = f.live_in[static_cast<std::size_t>(j)];
        out.insert(l.begin(), l.end());
      }
      LocalAccess a = localAccess(f.at(i));
      SlotSet in = out;
      // in = (out - def) + use + handler live-ins (a handler may see the value before the store).
      if (a.store && !a.load) in.erase(a.slot);
      if (a.load) in.insert(a.slot);
      for (int j : f.handler_succs[static_cast<std::size_t>(i)]) {
        const auto& l = f.live_in[static_cast<std::size_t>(j)];
        in.insert(l.begin(), l.end());
      }
      if (in != f.live_in[static_cast<std::size_t>(i)]) {
        f.live_in[static_cast<std::size_t>(i)] = std::move(in);
        changed = true;
      }
    }
  }
}

void computeLoops(MethodFacts& f) {
  const int n = f.size();
  f.loop_depth.assign(static_cast<std::size_t>(n), 0);
  f.loop_control.assign(static_cast<std::size_t>(n), -1);
  // Natural loop of each back edge, by blocks; loops with the same header are merged.
  std::map<std::uint32_t, std::set<std::uint32_t>> loops;  // header block -> body blocks
  for (auto [from, to] : f.cfg.back_edges) {
    auto& body = loops[to];
    body.insert(to);
    std::vector<std::uint32_t> stack;
    if (body.insert(from).second) stack.push_back(from);
    while (!stack.empty()) {
      std::uint32_t b = stack.back();
      stack.pop_back();
      for (std::uint32_t p : f.cfg.blocks[b].preds) {
        if (body.insert(p).second) stack.push_back(p);
      }
    }
    const auto& fb = f.cfg.blocks[from];
    f.back_edges.emplace_back(static_cast<int>(fb.last), static_cast<int>(f.cfg.blocks[to].first));
  }
  for (const auto& [header, body] : loops) {
    int headerInsn = static_cast<int>(f.cfg.blocks[header].first);
    // The loop's control line: the header's line when the header tests the condition (for,
    // while), else the line of a conditional back edge (do-while).
    int headerLine = 0;
    if (f.at(static_cast<int>(f.cfg.blocks[header].last)).isConditional()) {
      headerLine = f.line[static_cast<std::size_t>(headerInsn)];
    } else {
      for (auto [from, to] : f.cfg.back_edges) {
        const auto& last = f.at(static_cast<int>(f.cfg.blocks[from].last));
        if (to == header && last.isConditional()) headerLine = f.line[f.cfg.blocks[from].last];
      }
    }
    auto& loop = f.loops.emplace_back(headerInsn, std::vector<int>{});
    for (std::uint32_t b : body) {
      for (std::uint32_t i = f.cfg.blocks[b].first; i <= f.cfg.blocks[b].last; ++i) {
        loop.second.push_back(static_cast<int>(i));
        f.loop_depth[i] += 1;
        // The loop's own control code (condition and update of a for header) shares the header's line.
        if (headerLine != 0 && f.line[i] == headerLine && f.loop_control[i] == -1) f.loop_control[i] = headerInsn;
      }
    }
  }
}

}  // namespace

std::string where(const MethodFacts& f, Version v, int i) {
  return std::string(versionName(v)) + " pc " + std::to_string(f.at(i).pc) + " (line " +
         std::to_string(f.line[static_cast<std::size_t>(i)]) + ")";
}

MethodFacts analyseMethod(const jvm::ClassFile& cls, const jvm::Method& m) {
  if (!m.code) throw std::invalid_argument("method " + m.name + m.descriptor + " has no code");
  MethodFacts f;
  f.cls = &cls;
  f.method = &m;
  f.key = m.name + ":" + m.descriptor;
  try {
    f.param_slots = jvm::parseMethodDescriptor(m.descriptor).paramSlots() + (m.isStatic() ? 0 : 1);
  } catch (const std::invalid_argument&) {
    f.param_slots = 0;
  }
  f.cfg = jvm::buildCfg(cls, *m.code, cls.source_file_path.empty() ? cls.name() : cls.source_file_path);
  const int n = f.size();
  f.line.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) f.line[static_cast<std::size_t>(i)] = m.code->lineAt(f.at(i).pc);
  computeSuccessors(f);
  computeDepth(f);
  computeLiveness(f);
  computeLoops(f);
  return f;
}

// ---------------------------------------------------------------------------------------------

std::string Normaliser::canon(const std::string& text, Version v) const {
  const std::string& name = names_[v];
  if (name.empty()) return text;
  if (text == name) return "<this>";
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    // Replace the class name where it is a whole internal name: as "L<name>;", "L<name>$",
    // or a whole owner/array element text "<name>$...".
    bool atStart = i == 0 || text[i - 1] == 'L' || text[i - 1] == '[';
    if (atStart && text.compare(i, name.size(), name) == 0) {
      std::size_t e = i + name.size();
      if (e == text.size() || text[e] == ';' || text[e] == '$') {
        out += "<this>";
        i = e;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::string Normaliser::key(const Instruction& insn, Version v) const {
  using O = Opcode;
  std::ostringstream k;
  LocalAccess a = localAccess(insn);
  switch (insn.op) {
    case O::iconst_m1: case O::iconst_0: case O::iconst_1: case O::iconst_2: case O::iconst_3:
    case O::iconst_4: case O::iconst_5:
      k << "const I " << (op(insn) - static_cast<int>(O::iconst_0));
      return k.str();
    case O::bipush: case O::sipush: k << "const I " << insn.imm; return k.str();
    case O::lconst_0: case O::lconst_1: k << "const J " << (op(insn) - static_cast<int>(O::lconst_0)); return k.str();
    case O::fconst_0: case O::fconst_1: case O::fconst_2: {
      float fv = static_cast<float>(op(insn) - static_cast<int>(O::fconst_0));
      k << "const F " << fv;
      return k.str();
    }
    case O::dconst_0: case O::dconst_1: k << "const D " << (op(insn) - static_cast<int>(O::dconst_0)); return k.str();
    case O::ldc: case O::ldc_w: case O::ldc2_w: {
      const auto& c = insn.constant;
      switch (c.kind) {
        case jvm::ConstValue::Kind::Int: k << "const I " << c.i; break;
        case jvm::ConstValue::Kind::Long: k << "const J " << c.i; break;
        case jvm::ConstValue::Kind::Float: {
          // Small integral floats print like fconst_n, others by their bits.
          if (c.d == 0.0 || c.d == 1.0 || c.d == 2.0) {
            if (!(c.d == 0.0 && (c.bits & 0x80000000u))) { k << "const F " << c.d; break; }
          }
          k << "const Fb " << c.bits;
          break;
        }
        case jvm::ConstValue::Kind::Double: {
          if ((c.d == 0.0 && !(c.bits >> 63)) || c.d == 1.0) { k << "const D " << c.d; break; }
          k << "const Db " << c.bits;
          break;
        }
        case jvm::ConstValue::Kind::String: k << "const S " << c.text.size() << ":" << c.text; break;
        case jvm::ConstValue::Kind::Class: k << "const C " << canon(c.text, v); break;
        default: k << "const K" << static_cast<int>(c.kind) << " " << canon(c.text, v); break;
      }
      return k.str();
    }
    default: break;
  }
  if (a.slot >= 0) {
    // Slot compared separately; iinc keeps its delta.
    if (insn.op == O::iinc) {
      k << "iinc " << insn.imm;
    } else {
      k << (a.load ? "load " : "store ") << a.type;
    }
    return k.str();
  }
  if (insn.op == O::goto_w) return "goto";
  if (insn.op == O::jsr_w) return "jsr";
  k << jvm::mnemonic(insn.op);
  if (!insn.member.name.empty() || !insn.member.owner.empty()) {
    k << " " << canon(insn.member.owner, v) << "." << insn.member.name << ":" << canon(insn.member.descriptor, v);
  }
  if (!insn.type.empty()) k << " " << canon(insn.type, v);
  if (insn.op == O::newarray || insn.op == O::multianewarray) k << " " << insn.imm;
  if (insn.op == O::tableswitch || insn.op == O::lookupswitch) {
    k << " [";
    for (const auto& c : insn.sw.cases) k << c.first << ",";
    k << "]";
  }
  return k.str();
}

}  // namespace pasda::diff::detail
