// The closure oracle's code comparison: two versions of one method after normalisation, with
// invokedynamic and dynamic constants compared by their bootstrap methods (which the
// normalised instruction text alone does not show).
#include "closure_code.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff::detail {

using jvm::ConstValue;
using jvm::Instruction;
using jvm::Opcode;

int DecodedMethod::indexAt(std::uint32_t pc) const {
  auto it = std::lower_bound(insns.begin(), insns.end(), pc,
                             [](const Instruction& i, std::uint32_t p) { return i.pc < p; });
  if (it != insns.end() && it->pc == pc) return static_cast<int>(it - insns.begin());
  if (!insns.empty() && pc == insns.back().pc + insns.back().length) return static_cast<int>(insns.size());
  return -1;
}

DecodedMethod decodeMethod(const jvm::ClassFile& cf, const jvm::Method& m) {
  DecodedMethod d;
  d.cls = &cf;
  d.method = &m;
  d.insns = jvm::decode(cf, *m.code, cf.source_file_path);
  return d;
}

namespace {

bool pushesConstant(const Instruction& i) {
  switch (i.op) {
    case Opcode::aconst_null: case Opcode::iconst_m1: case Opcode::iconst_0: case Opcode::iconst_1:
    case Opcode::iconst_2: case Opcode::iconst_3: case Opcode::iconst_4: case Opcode::iconst_5:
    case Opcode::lconst_0: case Opcode::lconst_1: case Opcode::fconst_0: case Opcode::fconst_1:
    case Opcode::fconst_2: case Opcode::dconst_0: case Opcode::dconst_1: case Opcode::bipush: case Opcode::sipush:
      return true;
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
      return i.constant.kind == ConstValue::Kind::Int || i.constant.kind == ConstValue::Kind::Long ||
             i.constant.kind == ConstValue::Kind::Float || i.constant.kind == ConstValue::Kind::Double ||
             i.constant.kind == ConstValue::Kind::String;
    default:
      return false;
  }
}

bool declaresFieldNamed(const jvm::ClassFile& cf, const std::string& name) {
  for (const auto& f : cf.fields)
    if (f.name == name) return true;
  return false;
}

}  // namespace

void dropOneVersionConstantStores(DecodedMethod& m, const jvm::ClassFile& self, const jvm::ClassFile& other) {
  std::vector<Instruction> kept;
  kept.reserve(m.insns.size());
  for (std::size_t i = 0; i < m.insns.size(); ++i) {
    if (i + 1 < m.insns.size() && pushesConstant(m.insns[i])) {
      const Instruction& put = m.insns[i + 1];
      const jvm::Field* f = put.op == Opcode::putstatic && put.member.owner == self.name()
                                ? self.findField(put.member.name, put.member.descriptor)
                                : nullptr;
      if (f && (f->access_flags & jvm::acc::Static) && !declaresFieldNamed(other, put.member.name)) {
        ++i;  // the pair goes
        continue;
      }
    }
    kept.push_back(m.insns[i]);
  }
  m.insns = std::move(kept);
}

namespace {

std::uint16_t u2(const std::vector<std::uint8_t>& b, std::size_t& at) {
  if (at + 2 > b.size()) throw std::out_of_range("truncated BootstrapMethods attribute");
  std::uint16_t v = static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]);
  at += 2;
  return v;
}

std::string constantKey(const jvm::ClassFile& cf, const ConstValue& c, std::uint16_t cpIndex, const Normaliser& norm,
                        Version v, int depth) {
  switch (c.kind) {
    case ConstValue::Kind::Int: return "I " + std::to_string(c.i);
    case ConstValue::Kind::Long: return "J " + std::to_string(c.i);
    case ConstValue::Kind::Float: return "Fb " + std::to_string(c.bits);
    case ConstValue::Kind::Double: return "Db " + std::to_string(c.bits);
    case ConstValue::Kind::String: return "S " + std::to_string(c.text.size()) + ":" + c.text;
    case ConstValue::Kind::Class: return "C " + norm.canon(c.text, v);
    case ConstValue::Kind::MethodType: return "MT " + norm.canon(c.text, v);
    case ConstValue::Kind::MethodHandle: return "MH " + norm.canon(c.text, v);
    case ConstValue::Kind::Dynamic: {
      const jvm::CpEntry& e = cf.pool.at(cpIndex);
      auto [name, desc] = cf.pool.nameAndType(e.ref2);
      return "Dyn " + name + ":" + norm.canon(desc, v) + " " + bootstrapText(cf, e.ref1, norm, v, depth + 1);
    }
  }
  return "?";
}

}  // namespace

Bootstrap bootstrapAt(const jvm::ClassFile& cf, std::uint16_t index) {
  const jvm::Attribute* attr = jvm::findAttribute(cf.pool, cf.attributes, "BootstrapMethods");
  if (attr == nullptr) throw std::out_of_range("no BootstrapMethods attribute");
  const auto& b = attr->data;
  std::size_t at = 0;
  const std::uint16_t count = u2(b, at);
  if (index >= count) throw std::out_of_range("bootstrap method index out of range");
  for (std::uint16_t k = 0;; ++k) {
    const std::uint16_t handle = u2(b, at);
    const std::uint16_t nargs = u2(b, at);
    if (k < index) {
      at += 2u * nargs;
      continue;
    }
    Bootstrap bs;
    bs.handle = jvm::resolveConstant(cf.pool, handle);
    if (bs.handle.kind != ConstValue::Kind::MethodHandle) throw std::out_of_range("bootstrap method is not a handle");
    for (std::uint16_t a = 0; a < nargs; ++a) bs.args.push_back(jvm::resolveConstant(cf.pool, u2(b, at)));
    return bs;
  }
}

std::string bootstrapText(const jvm::ClassFile& cf, std::uint16_t index, const Normaliser& norm, Version v, int depth) {
  if (depth > 8) throw std::out_of_range("dynamic constants nested too deeply");
  const jvm::Attribute* attr = jvm::findAttribute(cf.pool, cf.attributes, "BootstrapMethods");
  if (attr == nullptr) throw std::out_of_range("no BootstrapMethods attribute");
  // Re-read the raw argument indices: a dynamic-constant argument needs its pool index.
  const auto& b = attr->data;
  std::size_t at = 0;
  const std::uint16_t count = u2(b, at);
  if (index >= count) throw std::out_of_range("bootstrap method index out of range");
  for (std::uint16_t k = 0; k < index; ++k) {
    u2(b, at);
    at += 2u * u2(b, at);
  }
  const std::uint16_t handle = u2(b, at);
  const std::uint16_t nargs = u2(b, at);
  std::string out = "bsm " + constantKey(cf, jvm::resolveConstant(cf.pool, handle), handle, norm, v, depth) + " [";
  for (std::uint16_t a = 0; a < nargs; ++a) {
    const std::uint16_t idx = u2(b, at);
    out += constantKey(cf, jvm::resolveConstant(cf.pool, idx), idx, norm, v, depth) + "; ";
  }
  return out + "]";
}

namespace {

// The canonical text of one instruction: the normaliser's, with bootstrap methods spelled out.
std::string insnKey(const DecodedMethod& m, const Instruction& insn, const Normaliser& norm, Version v) {
  if (insn.op == Opcode::invokedynamic)
    return norm.key(insn, v) + " " + bootstrapText(*m.cls, static_cast<std::uint16_t>(insn.imm), norm, v);
  if ((insn.op == Opcode::ldc || insn.op == Opcode::ldc_w || insn.op == Opcode::ldc2_w) &&
      (insn.constant.kind == ConstValue::Kind::Dynamic || insn.constant.kind == ConstValue::Kind::MethodHandle ||
       insn.constant.kind == ConstValue::Kind::MethodType))
    return "const " + constantKey(*m.cls, insn.constant, insn.cp_index, norm, v, 0);
  return norm.key(insn, v);
}

std::string at(const Instruction& i) { return " at pc " + std::to_string(i.pc); }

std::string compareHandlers(const DecodedMethod& a, const DecodedMethod& b, const Normaliser& norm) {
  const auto& ha = a.method->code->handlers;
  const auto& hb = b.method->code->handlers;
  if (ha.size() != hb.size()) return "different exception tables";
  for (std::size_t k = 0; k < ha.size(); ++k) {
    if (a.indexAt(ha[k].start_pc) != b.indexAt(hb[k].start_pc) || a.indexAt(ha[k].end_pc) != b.indexAt(hb[k].end_pc) ||
        a.indexAt(ha[k].handler_pc) != b.indexAt(hb[k].handler_pc))
      return "different exception handler ranges";
    std::string ca = ha[k].catch_type ? norm.canon(a.cls->pool.className(ha[k].catch_type), Version::kOld) : "";
    std::string cb = hb[k].catch_type ? norm.canon(b.cls->pool.className(hb[k].catch_type), Version::kNew) : "";
    if (ca != cb) return "different caught exception types";
  }
  return "";
}

}  // namespace

std::string codeDifference(const DecodedMethod& a, const DecodedMethod& b, const Normaliser& norm) {
  if (a.insns.size() != b.insns.size())
    return std::to_string(a.insns.size()) + " vs " + std::to_string(b.insns.size()) + " instructions";
  int fixed = 0;  // the receiver's and parameters' slots hold the same inputs in both versions
  try {
    fixed = jvm::parseMethodDescriptor(a.method->descriptor).paramSlots() + (a.method->isStatic() ? 0 : 1);
  } catch (const std::invalid_argument&) {
    return "malformed descriptor";
  }
  std::map<int, int> fwd, bwd;
  for (std::size_t i = 0; i < a.insns.size(); ++i) {
    const Instruction& x = a.insns[i];
    const Instruction& y = b.insns[i];
    std::string kx, ky;
    try {
      kx = insnKey(a, x, norm, Version::kOld);
      ky = insnKey(b, y, norm, Version::kNew);
    } catch (const std::exception& e) {
      return std::string("unreadable bootstrap method") + at(x) + ": " + e.what();
    }
    if (kx != ky) return "'" + kx + "' vs '" + ky + "'" + at(x);
    LocalAccess la = localAccess(x), lb = localAccess(y);
    if (la.slot >= 0) {
      if ((la.slot < fixed || lb.slot < fixed) && la.slot != lb.slot) return "different parameter slot" + at(x);
      auto f = fwd.emplace(la.slot, lb.slot).first;
      auto g = bwd.emplace(lb.slot, la.slot).first;
      if (f->second != lb.slot || g->second != la.slot) return "different local variable" + at(x);
    }
    auto ta = branchTargets(x), tb = branchTargets(y);
    if (ta.size() != tb.size()) return "different branch targets" + at(x);
    for (std::size_t k = 0; k < ta.size(); ++k)
      if (a.indexAt(ta[k]) != b.indexAt(tb[k])) return "different branch target" + at(x);
  }
  return compareHandlers(a, b, norm);
}

}  // namespace pasda::diff::detail
