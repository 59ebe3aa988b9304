#include "helpers.hpp"

#include "closure_code.hpp"

#include <algorithm>
#include <set>

#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::diff::detail {

using jvm::Instruction;
using jvm::Opcode;

namespace {

bool primitiveOnly(const std::string& descriptor) {
  return descriptor.find('L') == std::string::npos && descriptor.find('[') == std::string::npos;
}

// java.lang.Math / StrictMath methods that can throw or have effects.
const std::set<std::string> kImpureMath = {
    "random",         "addExact",  "subtractExact", "multiplyExact", "incrementExact", "decrementExact",
    "negateExact",    "toIntExact", "floorDiv",     "floorMod",      "ceilDiv",        "ceilMod",
    "divideExact",    "absExact",  "floorDivExact", "ceilDivExact",  "clamp"};

bool nonZeroConstant(const Instruction* prev, bool wantLong) {
  if (prev == nullptr) return false;
  using O = Opcode;
  if (!wantLong) {
    switch (prev->op) {
      case O::iconst_m1: case O::iconst_1: case O::iconst_2: case O::iconst_3: case O::iconst_4:
      case O::iconst_5: return true;
      case O::bipush: case O::sipush: return prev->imm != 0;
      case O::ldc: case O::ldc_w: return prev->constant.kind == jvm::ConstValue::Kind::Int && prev->constant.i != 0;
      default: return false;
    }
  }
  if (prev->op == O::lconst_1) return true;
  return prev->op == O::ldc2_w && prev->constant.kind == jvm::ConstValue::Kind::Long && prev->constant.i != 0;
}

}  // namespace

HelperOracle::HelperOracle(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls, const Normaliser& norm)
    : cls_{{&oldCls, &newCls}}, norm_(norm) {
  const bool oldHas = oldCls.findMethod("<clinit>", "()V") != nullptr;
  const bool newHas = newCls.findMethod("<clinit>", "()V") != nullptr;
  clinit_same_ = (!oldHas && !newHas) || (oldHas && newHas && identical("<clinit>:()V"));
}

const MethodFacts* HelperOracle::facts(Version v, const std::string& key) {
  auto it = facts_[v].find(key);
  if (it != facts_[v].end()) return &it->second;
  auto colon = key.find(':');
  if (colon == std::string::npos) return nullptr;
  const jvm::Method* m = cls_[v]->findMethod(key.substr(0, colon), key.substr(colon + 1));
  if (m == nullptr || !m->code) return nullptr;
  try {
    auto res = facts_[v].emplace(key, analyseMethod(*cls_[v], *m));
    return &res.first->second;
  } catch (const jvm::FormatError&) {
    return nullptr;
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

bool HelperOracle::isHelper(const std::string& key) const {
  auto colon = key.find(':');
  if (colon == std::string::npos) return false;
  for (Version v : kBothVersions) {
    const jvm::Method* m = cls_[v]->findMethod(key.substr(0, colon), key.substr(colon + 1));
    if (m == nullptr || !m->code) return false;
  }
  return true;
}

// The normalised text of invokedynamic and of dynamic constants leaves out their bootstrap
// method and its arguments (a string-concatenation recipe, a lambda's target): compare those.
bool HelperOracle::sameBootstrap(const MethodFacts& a, const Instruction& x, const MethodFacts& b,
                                 const Instruction& y) const {
  const bool dynamic = x.op == Opcode::invokedynamic || x.constant.kind == jvm::ConstValue::Kind::Dynamic ||
                       y.constant.kind == jvm::ConstValue::Kind::Dynamic;
  if (!dynamic) return true;
  try {
    auto index = [](const MethodFacts& f, const Instruction& i) {
      return i.op == Opcode::invokedynamic ? static_cast<std::uint16_t>(i.imm) : f.cls->pool.at(i.cp_index).ref1;
    };
    return bootstrapText(*a.cls, index(a, x), norm_, Version::kOld) ==
           bootstrapText(*b.cls, index(b, y), norm_, Version::kNew);
  } catch (const std::exception&) {
    return false;
  }
}

bool HelperOracle::sameCode(const std::string& key) {
  const MethodFacts* a = facts(Version::kOld, key);
  const MethodFacts* b = facts(Version::kNew, key);
  if (a == nullptr || b == nullptr) return false;
  if (a->method->isStatic() != b->method->isStatic() || a->size() != b->size()) return false;
  if (a->method->code->handlers.size() != b->method->code->handlers.size()) return false;
  int fixed = 0;  // parameter slots are fixed by the (identical) descriptor
  try {
    fixed = jvm::parseMethodDescriptor(a->method->descriptor).paramSlots() + (a->method->isStatic() ? 0 : 1);
  } catch (const std::invalid_argument&) {
    return false;
  }
  std::map<int, int> fwd, bwd;
  for (int i = 0; i < a->size(); ++i) {
    const Instruction& x = a->at(i);
    const Instruction& y = b->at(i);
    if (norm_.key(x, Version::kOld) != norm_.key(y, Version::kNew)) return false;
    if (!sameBootstrap(*a, x, *b, y)) return false;
    LocalAccess la = localAccess(x), lb = localAccess(y);
    if (la.slot >= 0) {
      if ((la.slot < fixed || lb.slot < fixed) && la.slot != lb.slot) return false;
      auto f = fwd.emplace(la.slot, lb.slot).first;
      auto g = bwd.emplace(lb.slot, la.slot).first;
      if (f->second != lb.slot || g->second != la.slot) return false;
    }
    auto ta = branchTargets(x), tb = branchTargets(y);
    if (ta.size() != tb.size()) return false;
    for (std::size_t k = 0; k < ta.size(); ++k) {
      if (a->indexAt(ta[k]) != b->indexAt(tb[k])) return false;
    }
  }
  const auto& ha = a->method->code->handlers;
  const auto& hb = b->method->code->handlers;
  for (std::size_t k = 0; k < ha.size(); ++k) {
    if (a->indexAt(ha[k].start_pc) != b->indexAt(hb[k].start_pc) || a->indexAt(ha[k].end_pc) != b->indexAt(hb[k].end_pc) ||
        a->indexAt(ha[k].handler_pc) != b->indexAt(hb[k].handler_pc))
      return false;
    std::string ca = ha[k].catch_type ? norm_.canon(a->cls->pool.className(ha[k].catch_type), Version::kOld) : "";
    std::string cb = hb[k].catch_type ? norm_.canon(b->cls->pool.className(hb[k].catch_type), Version::kNew) : "";
    if (ca != cb) return false;
  }
  return true;
}

std::vector<std::string> HelperOracle::callees(const std::string& key, Version v) {
  std::vector<std::string> out;
  const MethodFacts* a = facts(v, key);
  if (a == nullptr) return out;
  for (const auto& insn : a->cfg.insns) {
    if (insn.op != Opcode::invokestatic && insn.op != Opcode::invokespecial && insn.op != Opcode::invokevirtual &&
        insn.op != Opcode::invokeinterface)
      continue;
    if (insn.member.owner != norm_.name(v)) continue;
    std::string k = memberKey(insn.member);
    if (cls_[v]->findMethod(insn.member.name, insn.member.descriptor) == nullptr) continue;  // inherited
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  }
  return out;
}

bool HelperOracle::identical(const std::string& key) {
  auto it = identical_.find(key);
  if (it != identical_.end()) return it->second != 2;  // in progress: assume yes (recursion)
  identical_[key] = 0;
  bool ok = isHelper(key) && sameCode(key);
  if (ok) {
    for (const auto& c : callees(key)) {
      if (!identical(c)) {
        ok = false;
        break;
      }
    }
  }
  identical_[key] = ok ? 1 : 2;
  return ok;
}

std::vector<std::string> HelperOracle::reachableHelpers(const std::string& method) {
  std::vector<std::string> out, todo = callees(method, Version::kOld), seen;
  for (auto& c : callees(method, Version::kNew)) todo.push_back(c);
  while (!todo.empty()) {
    std::string k = todo.front();
    todo.erase(todo.begin());
    if (k == method || std::find(seen.begin(), seen.end(), k) != seen.end()) continue;
    seen.push_back(k);
    if (!isHelper(k)) continue;
    out.push_back(k);
    for (Version v : kBothVersions)
      for (auto& c : callees(k, v)) todo.push_back(c);
  }
  return out;
}

bool HelperOracle::pure(const std::string& key) {
  auto it = pure_.find(key);
  if (it != pure_.end()) return it->second != 2;
  pure_[key] = 0;
  bool ok = identical(key);
  const MethodFacts* a = ok ? facts(Version::kOld, key) : nullptr;
  ok = ok && a != nullptr && a->method->isStatic() && primitiveOnly(a->method->descriptor) &&
       a->method->code->handlers.empty();
  if (ok) {
    for (int i = 0; i < a->size() && ok; ++i) {
      const Instruction& insn = a->at(i);
      if (insn.isReturn()) {
        ok = insn.op != Opcode::areturn;
        continue;
      }
      ok = forbidden(insn, i > 0 ? &a->at(i - 1) : nullptr).empty();
    }
  }
  pure_[key] = ok ? 1 : 2;
  return ok;
}

std::string HelperOracle::recursionBlocker(const std::string& key, Version v, bool* recursive) {
  *recursive = false;
  const MethodFacts* a = facts(v, key);
  if (a == nullptr) return "no code";
  const std::string own = norm_.name(v);
  auto selfCall = [&](const jvm::Instruction& insn) {
    return (insn.op == Opcode::invokestatic || insn.op == Opcode::invokevirtual || insn.op == Opcode::invokespecial) &&
           insn.member.owner == own && memberKey(insn.member) == key;
  };
  for (int i = 0; i < a->size(); ++i) *recursive = *recursive || selfCall(a->at(i));
  if (!a->method->isStatic()) return "not static";
  if (!primitiveOnly(a->method->descriptor)) return "parameters or result not all primitive";
  if (a->method->descriptor.back() == 'V') return "no result";
  if (!a->method->code->handlers.empty()) return "exception handlers";
  for (int i = 0; i < a->size(); ++i) {
    jvm::Instruction insn = a->at(i);
    if (insn.isReturn()) {
      if (insn.op == Opcode::areturn) return "reference result";
      continue;
    }
    if (selfCall(insn)) continue;
    // forbidden() reads the old version's code: the new version's own members under the old name.
    if (v == Version::kNew && insn.member.owner == own) insn.member.owner = norm_.name(Version::kOld);
    std::string why = forbidden(insn, i > 0 ? &a->at(i - 1) : nullptr);
    if (!why.empty()) return why;
  }
  return "";
}

bool HelperOracle::constantField(const jvm::MemberRef& f) const {
  if (f.owner != norm_.name(Version::kOld) || !clinit_same_) return false;
  if (f.descriptor.size() != 1 || std::string("IJFDZBCS").find(f.descriptor[0]) == std::string::npos) return false;
  for (Version v : kBothVersions) {
    const jvm::Field* fld = cls_[v]->findField(f.name, f.descriptor);
    if (fld == nullptr || !(fld->access_flags & jvm::acc::Static) || !(fld->access_flags & jvm::acc::Final)) return false;
  }
  return true;
}

std::string HelperOracle::forbidden(const Instruction& insn, const Instruction* prev) {
  using O = Opcode;
  LocalAccess la = localAccess(insn);
  if (la.slot >= 0) {
    if (insn.op == O::ret) return "subroutine return";
    if (la.type == 'A') return "reference local";
    return "";
  }
  switch (insn.op) {
    case O::aconst_null: return "reference constant";
    case O::ldc: case O::ldc_w: case O::ldc2_w:
      switch (insn.constant.kind) {
        case jvm::ConstValue::Kind::Int: case jvm::ConstValue::Kind::Long:
        case jvm::ConstValue::Kind::Float: case jvm::ConstValue::Kind::Double: return "";
        default: return "reference constant";
      }
    case O::idiv: case O::irem:
      return nonZeroConstant(prev, false) ? "" : "integer division by a non-constant (may throw)";
    case O::ldiv: case O::lrem:
      return nonZeroConstant(prev, true) ? "" : "integer division by a non-constant (may throw)";
    case O::iaload: case O::laload: case O::faload: case O::daload: case O::aaload: case O::baload:
    case O::caload: case O::saload: case O::arraylength:
      return "array access (may throw)";
    case O::iastore: case O::lastore: case O::fastore: case O::dastore: case O::aastore: case O::bastore:
    case O::castore: case O::sastore:
      return "array store";
    case O::if_acmpeq: case O::if_acmpne: case O::ifnull: case O::ifnonnull: return "reference comparison";
    case O::jsr: case O::jsr_w: return "subroutine";
    case O::ireturn: case O::lreturn: case O::freturn: case O::dreturn: case O::areturn: case O::return_:
      return "return";
    case O::athrow: return "throw";
    case O::putstatic: case O::putfield: return "field write " + insn.member.name;
    case O::getfield: return "field read " + insn.member.name + " (may throw)";
    case O::getstatic:
      return constantField(insn.member) ? "" : "read of static field " + insn.member.name + " that may change";
    case O::invokestatic: {
      const auto& m = insn.member;
      if ((m.owner == "java/lang/Math" || m.owner == "java/lang/StrictMath") && primitiveOnly(m.descriptor) &&
          kImpureMath.count(m.name) == 0)
        return "";
      if (m.owner == norm_.name(Version::kOld) && pure(memberKey(m))) return "";
      return "call of " + m.owner + "." + m.name + " (effects or not identical)";
    }
    case O::invokevirtual: case O::invokespecial: case O::invokeinterface: case O::invokedynamic:
      return "call of " + insn.member.owner + "." + insn.member.name;
    case O::new_: case O::newarray: case O::anewarray: case O::multianewarray: return "allocation";
    case O::checkcast: case O::instanceof: return "reference operation";
    case O::monitorenter: case O::monitorexit: return "monitor";
    case O::wide: return "wide";
    default: return "";
  }
}

}  // namespace pasda::diff::detail
