// The classes of an execution per side: decoding of methods (instructions, pc map, loops, lines),
// lookup with class-path loading, method resolution and subclass tests.
#include "pasda/symexec/program.hpp"

#include <set>
#include <unordered_map>

#include "pasda/jvm/errors.hpp"

namespace pasda::symexec {

namespace {

std::unique_ptr<MethodInfo> prepareMethod(const LoadedClass& owner, const jvm::Method& m) {
  auto info = std::make_unique<MethodInfo>();
  info->owner = &owner;
  info->method = &m;
  info->name = m.name;
  info->descriptor = m.descriptor;
  info->desc = jvm::parseMethodDescriptor(m.descriptor);
  info->is_static = m.isStatic();
  if (!m.code) return info;
  const jvm::Code& code = *m.code;
  info->max_locals = code.max_locals;
  jvm::Cfg cfg = jvm::buildCfg(owner.cf, code, owner.cf.source_file_path);
  info->insns = cfg.insns;
  info->index_of_pc.assign(code.bytes.size() + 1, -1);
  for (std::size_t i = 0; i < info->insns.size(); ++i) info->index_of_pc[info->insns[i].pc] = static_cast<std::int32_t>(i);
  info->line.resize(info->insns.size());
  for (std::size_t i = 0; i < info->insns.size(); ++i) info->line[i] = code.lineAt(info->insns[i].pc);
  // Natural loops: for each back edge (tail -> header), every block that reaches the tail
  // without passing the header belongs to the loop.
  std::vector<bool> blockInLoop(cfg.blocks.size(), false);
  for (auto [tail, header] : cfg.back_edges) {
    std::vector<std::uint32_t> work{tail};
    std::vector<bool> seen(cfg.blocks.size(), false);
    seen[header] = true;
    blockInLoop[header] = true;
    while (!work.empty()) {
      std::uint32_t b = work.back();
      work.pop_back();
      if (seen[b]) continue;
      seen[b] = true;
      blockInLoop[b] = true;
      for (std::uint32_t p : cfg.blocks[b].preds) {
        if (!seen[p]) work.push_back(p);
      }
    }
  }
  info->in_loop.assign(info->insns.size(), false);
  for (std::size_t i = 0; i < info->insns.size(); ++i) {
    std::int32_t b = cfg.block_of_insn[i];
    if (b >= 0) info->in_loop[i] = blockInLoop[static_cast<std::size_t>(b)];
  }
  return info;
}

std::unique_ptr<LoadedClass> prepareClass(Side side, jvm::ClassFile cf) {
  auto cls = std::make_unique<LoadedClass>();
  cls->cf = std::move(cf);
  cls->name = cls->cf.name();
  cls->side = side;
  cls->super_name = cls->cf.superName();
  for (const jvm::Method& m : cls->cf.methods) {
    cls->methods[m.name + m.descriptor] = prepareMethod(*cls, m);
  }
  return cls;
}

}  // namespace

std::string MethodInfo::key() const { return owner->name + "." + name + ":" + descriptor; }

const MethodInfo* LoadedClass::method(const std::string& n, const std::string& d) const {
  auto it = methods.find(n + d);
  return it == methods.end() ? nullptr : it->second.get();
}

const LoadedClass& Program::add(Side side, jvm::ClassFile cf) {
  auto cls = prepareClass(side, std::move(cf));
  const LoadedClass& ref = *cls;
  classes_[side][ref.name] = std::move(cls);
  return ref;
}

void Program::setClassPath(Side side, std::shared_ptr<jvm::ClassPath> cp) { paths_[side] = std::move(cp); }

const LoadedClass* Program::find(Side side, const std::string& name) const {
  if (auto it = classes_[side].find(name); it != classes_[side].end()) return it->second.get();
  // The product side sees the classes added to the version sides (the renamed versions).
  if (side == kProduct) {
    for (Side s : {kOld, kNew}) {
      if (auto it = classes_[s].find(name); it != classes_[s].end()) return it->second.get();
    }
  }
  if (auto it = loaded_[side].find(name); it != loaded_[side].end()) return it->second.get();
  if (missing_[side].count(name) || !paths_[side]) return nullptr;
  if (name.rfind("java/", 0) == 0 || name.rfind("javax/", 0) == 0 || name.rfind("jdk/", 0) == 0 ||
      name.rfind("sun/", 0) == 0) {
    missing_[side][name] = true;
    return nullptr;
  }
  auto bytes = paths_[side]->find(name);
  if (!bytes) {
    missing_[side][name] = true;
    return nullptr;
  }
  jvm::ClassFile cf = jvm::parseClass(*bytes, name + ".class");
  auto cls = prepareClass(side, std::move(cf));
  const LoadedClass* ptr = cls.get();
  loaded_[side][name] = std::move(cls);
  return ptr;
}

const MethodInfo* Program::resolveMethod(Side side, const std::string& cls, const std::string& name,
                                         const std::string& descriptor) const {
  std::string cur = cls;
  for (int guard = 0; guard < 64 && !cur.empty(); ++guard) {
    const LoadedClass* c = find(side, cur);
    if (!c) return nullptr;
    if (const MethodInfo* m = c->method(name, descriptor)) return m;
    cur = c->super_name;
  }
  return nullptr;
}

bool Program::isSubclass(Side side, const std::string& sub, const std::string& super) const {
  if (super == "java/lang/Object") return true;
  std::string cur = sub;
  for (int guard = 0; guard < 64 && !cur.empty(); ++guard) {
    if (cur == super) return true;
    if (const LoadedClass* c = find(side, cur)) {
      cur = c->super_name;
    } else {
      cur = librarySuperclass(cur);
    }
  }
  return false;
}

namespace {

/// Supertypes (superclass and interfaces) of a few library classes real code tests against.
const std::vector<std::string>* librarySupertypes(const std::string& cls) {
  static const std::unordered_map<std::string, std::vector<std::string>> table = {
      {"java/lang/String", {"java/lang/Object", "java/lang/CharSequence", "java/lang/Comparable", "java/io/Serializable"}},
      {"java/lang/Integer", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Long", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Short", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Byte", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Double", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Float", {"java/lang/Number", "java/lang/Comparable"}},
      {"java/lang/Character", {"java/lang/Object", "java/lang/Comparable", "java/io/Serializable"}},
      {"java/lang/Boolean", {"java/lang/Object", "java/lang/Comparable", "java/io/Serializable"}},
      {"java/lang/Number", {"java/lang/Object", "java/io/Serializable"}},
      {"java/lang/StringBuilder", {"java/lang/Object", "java/lang/CharSequence", "java/lang/Appendable"}},
      {"java/lang/Enum", {"java/lang/Object", "java/lang/Comparable", "java/io/Serializable"}},
      {"java/lang/Object", {}},
  };
  auto it = table.find(cls);
  return it == table.end() ? nullptr : &it->second;
}

bool isArrayType(const std::string& t) { return !t.empty() && t[0] == '['; }

}  // namespace

std::optional<bool> Program::assignable(Side side, const std::string& from, const std::string& to) const {
  if (from == to || to == "java/lang/Object") return true;
  if (isArrayType(from)) {
    if (!isArrayType(to)) return to == "java/lang/Cloneable" || to == "java/io/Serializable";
    std::string fe = from.substr(1), te = to.substr(1);
    if (fe[0] == 'L' && te[0] == 'L') return assignable(side, fe.substr(1, fe.size() - 2), te.substr(1, te.size() - 2));
    if (fe[0] == '[' && te[0] == 'L') {
      std::string t = te.substr(1, te.size() - 2);
      return t == "java/lang/Object" || t == "java/lang/Cloneable" || t == "java/io/Serializable";
    }
    if (fe[0] == '[' && te[0] == '[') return assignable(side, fe, te);
    return false;  // primitive element types: only the same type
  }
  if (isArrayType(to)) return false;
  std::vector<std::string> work{from};
  std::set<std::string> seen;
  bool unknown = false;
  while (!work.empty()) {
    std::string cur = work.back();
    work.pop_back();
    if (cur.empty() || !seen.insert(cur).second) continue;
    if (cur == to) return true;
    if (const LoadedClass* c = find(side, cur)) {
      work.push_back(c->super_name);
      for (std::uint16_t i : c->cf.interfaces) work.push_back(c->cf.pool.className(i));
    } else if (const auto* sup = librarySupertypes(cur)) {
      for (const std::string& t : *sup) work.push_back(t);
    } else if (std::string sup = librarySuperclass(cur); sup != "java/lang/Object" || cur == "java/lang/Throwable") {
      work.push_back(sup);
    } else {
      unknown = true;  // a library class whose supertypes the engine does not know
    }
  }
  if (unknown) return std::nullopt;
  return false;
}

std::string librarySuperclass(const std::string& n) {
  static const std::unordered_map<std::string, std::string> table = {
      {"java/lang/Throwable", "java/lang/Object"},
      {"java/lang/Exception", "java/lang/Throwable"},
      {"java/lang/Error", "java/lang/Throwable"},
      {"java/lang/RuntimeException", "java/lang/Exception"},
      {"java/lang/ArithmeticException", "java/lang/RuntimeException"},
      {"java/lang/NullPointerException", "java/lang/RuntimeException"},
      {"java/lang/IndexOutOfBoundsException", "java/lang/RuntimeException"},
      {"java/lang/ArrayIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"},
      {"java/lang/StringIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"},
      {"java/lang/NegativeArraySizeException", "java/lang/RuntimeException"},
      {"java/lang/ClassCastException", "java/lang/RuntimeException"},
      {"java/lang/ArrayStoreException", "java/lang/RuntimeException"},
      {"java/lang/IllegalArgumentException", "java/lang/RuntimeException"},
      {"java/lang/NumberFormatException", "java/lang/IllegalArgumentException"},
      {"java/lang/IllegalStateException", "java/lang/RuntimeException"},
      {"java/lang/UnsupportedOperationException", "java/lang/RuntimeException"},
      {"java/lang/StackOverflowError", "java/lang/VirtualMachineError"},
      {"java/lang/VirtualMachineError", "java/lang/Error"},
      {"java/lang/AssertionError", "java/lang/Error"},
      {"java/lang/LinkageError", "java/lang/Error"},
      {"java/lang/ExceptionInInitializerError", "java/lang/LinkageError"},
      {"java/lang/NoClassDefFoundError", "java/lang/LinkageError"},
      {"java/lang/Object", ""},
  };
  auto it = table.find(n);
  if (it != table.end()) return it->second;
  return n == "java/lang/Object" ? "" : "java/lang/Object";
}

}  // namespace pasda::symexec
