// The identical-closure oracle, what an instruction reaches: calls resolved as the JVM does
// (JVMS 5.4.3) and dispatched to every override in the path, bootstrap methods and method
// handles, fields and types, the JDK's call-backs into the path, and the whole-path index of
// declarations and subtypes these need (docs/release-diff.md, "The oracle").
#include <algorithm>

#include "closure_graph.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff {

// ----- whole-path index -----

void ClosureOracle::Impl::buildIndex() {
  if (indexed) return;
  indexed = true;
  for (Version v : kBothVersions) {
    std::vector<std::string> names;
    try {
      names = paths[v]->list();
    } catch (const jvm::LoadError& e) {
      index_error = "the class path cannot be listed: " + e.reason();
      return;
    }
    for (const std::string& name : names) {
      const std::string k = key(name, v);
      const ClassSide& s = side(v, k);
      if (!s.error.empty()) {
        index_error = "class " + name + " cannot be read: " + s.error;
        return;
      }
      if (!s.cf) continue;
      const jvm::ClassFile& cf = *s.cf;
      for (const jvm::Method& m : cf.methods)
        if (!m.isStatic() && m.name != "<init>" && m.name != "<clinit>")
          decls[v][m.name + ":" + key(m.descriptor, v)].push_back(k);
      if (!cf.superName().empty()) subs[v][key(cf.superName(), v)].push_back(k);
      for (const auto& i : interfacesOf(v, k)) subs[v][i].push_back(k);
      if (cf.access_flags & jvm::acc::Enum) enums[v].push_back(k);
      ClassFacts& f = facts[v][k];
      f.concrete = !(cf.access_flags & (jvm::acc::Abstract | jvm::acc::Interface));
      // The JDK supertypes reached through the path's ancestry, completed by the JDK tables.
      std::vector<std::string> work{k};
      std::set<std::string> seen;
      while (!work.empty()) {
        std::string c = work.back();
        work.pop_back();
        if (c.empty() || !seen.insert(c).second) continue;
        if (side(v, c).cf) {
          work.push_back(superOf(v, c));
          for (const auto& i : interfacesOf(v, c)) work.push_back(i);
          continue;
        }
        const std::string jdk = actual(c, v);
        f.jdk.insert(jdk);
        if (auto up = detail::jdkSupertypes(jdk)) f.jdk.insert(up->begin(), up->end());
        else if (jdk != "java/lang/Object") f.opaque = true;
      }
      // Which of its methods JDK code may call back (docs/release-diff.md, "Call-backs").
      std::set<std::string> allowed;
      bool known = true;
      for (const auto& t : f.jdk) {
        auto methods = detail::overridableJdkMethods(t);
        if (!methods) known = false;
        else allowed.insert(methods->begin(), methods->end());
      }
      const auto objectMethods = detail::overridableJdkMethods("java/lang/Object");
      allowed.insert(objectMethods->begin(), objectMethods->end());
      const bool serializable = f.jdk.count("java/io/Serializable") || !known;
      for (const jvm::Method& m : cf.methods) {
        if (m.isStatic() || m.name == "<init>" || m.name == "<clinit>") continue;
        const std::string md = m.name + ":" + m.descriptor;
        const bool hook = serializable && detail::serializationHook(md);
        const bool candidate = known ? allowed.count(md) > 0 : !(m.access_flags & jvm::acc::Private);
        if (hook || candidate) callbacks[v].push_back({k, m.name + ":" + key(m.descriptor, v)});
      }
    }
  }
}

bool ClosureOracle::Impl::mayBeSubtype(Version v, const std::string& cls, const std::string& jdkType) {
  if (jdkType == "java/lang/Object") return true;
  auto it = facts[v].find(cls);
  if (it == facts[v].end()) return true;
  return it->second.opaque || it->second.jdk.count(jdkType) > 0;
}

// What is known of the JDK implementation of name:desc that an object of path class `cls` runs
// when neither it nor its path ancestors declare the method: looked up on its first JDK
// superclass and that class's JDK supertypes.
std::optional<detail::KnownCallBacks> ClosureOracle::Impl::knownAbove(Version v, const std::string& cls,
                                                                      const std::string& name, const std::string& desc) {
  std::string c = cls;
  for (int guard = 0; guard < 256 && side(v, c).cf; ++guard) c = superOf(v, c);
  std::vector<std::string> lookIn{c.empty() ? std::string("java/lang/Object") : actual(c, v)};
  if (auto up = detail::jdkSupertypes(lookIn.front())) lookIn.insert(lookIn.end(), up->begin(), up->end());
  lookIn.push_back("java/lang/Object");
  for (const auto& t : lookIn)
    if (auto k = detail::knownCallBacks(t, name, actual(desc, v))) return k;
  return std::nullopt;
}

// What JDK code may call back when an object of the path that may be a `jdkType` runs the
// JDK's implementation of name:desc (it neither declares nor inherits the method from the path).
unsigned ClosureOracle::Impl::jdkCodeOnPathObject(Version v, const std::string& jdkType, const std::string& name,
                                                  const std::string& desc) {
  const std::string memo = jdkType + "|" + name + ":" + desc;
  auto it = jdk_on_this[v].find(memo);
  if (it != jdk_on_this[v].end()) return it->second;
  unsigned bits = 0;
  for (const auto& [cls, f] : facts[v]) {
    if (!f.concrete || !mayBeSubtype(v, cls, jdkType) || resolveMethod(v, cls, name, desc).exact) continue;
    auto known = knownAbove(v, cls, name, desc);
    bits |= known && known->covers_this ? known->bits : detail::kAny;
    if (bits & detail::kAny) break;
  }
  jdk_on_this[v].emplace(memo, bits);
  return bits;
}

// ----- what one instruction reaches -----

void ClosureOracle::Impl::typeEdge(int id, Version v, const std::string& type) {
  std::string c = key(classOfType(type), v);
  if (!c.empty() && inPath(v, c)) edge(id, node(NodeKind::Class, c));
}

bool ClosureOracle::Impl::nonInert(Version v, const std::string& type) {
  std::string c = classOfType(type);
  if (c.empty()) return false;  // primitive array
  return inPath(v, c) || !detail::inertJdkType(actual(c, v));
}

// What JDK code entered through a call of m (not resolved to code of the path) may call back.
unsigned ClosureOracle::Impl::externalCallBacks(Version v, const std::string& owner, const jvm::MemberRef& m,
                                                const std::string& desc, bool isStatic, bool pathReceiver) {
  const bool ctor = m.name == "<init>";
  // JDK code given nothing that can be or hold an object of the path calls nothing back,
  // whatever the tables say of the method's other forms (StringBuilder.append(I), a JDK
  // exception's constructor given a String): every parameter of a primitive or inert type, and
  // a receiver of an inert type (all final) or a JDK object being made here.
  if (isStatic || !nonInert(v, owner) || (ctor && !pathReceiver)) {
    bool inert = true;
    try {
      for (const jvm::TypeDesc& p : jvm::parseMethodDescriptor(desc).params)
        inert = inert && !((p.kind == 'L' || p.kind == '[') && nonInert(v, p.kind == 'L' ? p.className() : p.text));
    } catch (const std::invalid_argument&) {
      inert = false;
    }
    if (inert) return 0;
  }
  // The JDK class whose code runs: the owner, or the first JDK class above it in the path.
  std::string jdkClass = owner;
  for (int guard = 0; guard < 256 && side(v, jdkClass).cf; ++guard) jdkClass = superOf(v, jdkClass);
  std::vector<std::string> lookIn{actual(jdkClass, v)};
  if (auto up = detail::jdkSupertypes(lookIn.front())) lookIn.insert(lookIn.end(), up->begin(), up->end());
  lookIn.push_back("java/lang/Object");
  std::optional<detail::KnownCallBacks> known;
  for (const auto& t : lookIn)
    if (!known) known = detail::knownCallBacks(t, m.name, m.descriptor);
  unsigned bits = 0;
  if (known) {
    bits = known->bits;
  } else {
    bool refs = !isStatic && !ctor && nonInert(v, owner);
    try {
      for (const jvm::TypeDesc& p : jvm::parseMethodDescriptor(desc).params)
        refs = refs || ((p.kind == 'L' || p.kind == '[') && nonInert(v, p.kind == 'L' ? p.className() : p.text));
    } catch (const std::invalid_argument&) {
      refs = true;
    }
    if (refs) bits = detail::kAny;
  }
  if (isStatic || (known && known->covers_this)) return bits;
  // JDK code may run with an object of the path as `this` and call its overrides.
  if (inPath(v, owner)) return bits | detail::kAny;
  if (!pathReceiver) return bits;
  buildIndex();
  const std::string realOwner = actual(owner, v);
  if (ctor) {
    for (const auto& [cls, f] : facts[v])
      if (superOf(v, cls) == owner) return bits | detail::kAny;
    return bits;
  }
  return bits | jdkCodeOnPathObject(v, realOwner, m.name, desc);
}

void ClosureOracle::Impl::call(int id, Version v, const jvm::MemberRef& m, bool isVirtual, bool isStatic,
                              const CallSiteFacts* site) {
  const std::string owner = key(m.owner, v);
  const std::string desc = key(m.descriptor, v);
  if (owner.empty() || owner[0] == '[') return;  // array methods (clone) call nothing
  const std::int32_t receiver = site && !isStatic ? site->receiver : kAnyObject;
  // A lambda's own method: its class (the JDK's) declares it, and it runs the lambda's body,
  // which is followed where the lambda is made. Nothing else runs.
  if (receiver >= 0 && lambda_methods[static_cast<std::size_t>(receiver)] == m.name + ":" + desc) return;
  // Neither an override of the path nor JDK code with a path object as `this` can run when the
  // receiver is no object of the path (a lambda, an object the JDK made from this code's values).
  const bool pathReceiver = receiver == kAnyObject;
  const std::string context = site ? site->callee_context : "";
  const std::string realOwner = actual(owner, v);
  if (!inPath(v, owner) && detail::reflectiveCall(realOwner, m.name))
    return markBad(id, "it uses reflection (" + realOwner + "." + m.name + "): its targets are unknown");
  if (!inPath(v, owner) && detail::enumReflectiveCall(realOwner, m.name)) edge(id, node(NodeKind::EnumValues, ""));
  Resolution r = resolveMethod(v, owner, m.name, desc);
  for (const auto& t : r.targets) edge(id, node(NodeKind::Method, t, m.name, desc, context));
  bool dispatches = isVirtual && pathReceiver;
  if (r.exact) {
    const jvm::Method* decl = side(v, r.targets.front()).cf->findMethod(m.name, m.descriptor);
    if (decl && (decl->access_flags & jvm::acc::Private)) dispatches = false;
  }
  if (dispatches) {
    buildIndex();
    if (!index_error.empty()) return markBad(id, index_error);
    if (inPath(v, owner)) {
      for (const auto& s : subtypes(v, owner)) {
        Resolution rs = resolveMethod(v, s, m.name, desc);
        for (const auto& t : rs.targets) edge(id, node(NodeKind::Method, t, m.name, desc, context));
      }
    } else if (!jdk_clean && !detail::inertJdkType(realOwner)) {  // (a receiver of the JDK's)
      auto it = decls[v].find(m.name + ":" + desc);
      if (it != decls[v].end())
        for (const auto& c : it->second)
          if (mayBeSubtype(v, c, realOwner)) edge(id, node(NodeKind::Method, c, m.name, desc, context));
    }
  }
  if (!r.exact && !jdk_clean) callBacks(id, externalCallBacks(v, owner, m, desc, isStatic, pathReceiver));
}
void ClosureOracle::Impl::handleEdge(int id, Version v, const ConstValue& handle) {
  HandleRef h = parseHandle(handle.text);
  jvm::MemberRef m{h.owner, h.name, h.desc, false};
  if (startsWith(h.kind, "REF_get") || startsWith(h.kind, "REF_put")) {
    std::string o = key(h.owner, v);
    if (inPath(v, o)) edge(id, node(NodeKind::Field, o, h.name, key(h.desc, v)));
    return;
  }
  const bool isVirtual = h.kind == "REF_invokeVirtual" || h.kind == "REF_invokeInterface";
  call(id, v, m, isVirtual, h.kind == "REF_invokeStatic");
  if (h.kind == "REF_newInvokeSpecial") typeEdge(id, v, h.owner);
}

void ClosureOracle::Impl::bootstrapEdges(int id, Version v, const jvm::ClassFile& cf, std::uint16_t index,
                                         const std::string& desc) {
  detail::Bootstrap bs;
  try {
    bs = detail::bootstrapAt(cf, index);
  } catch (const std::exception& e) {
    return markBad(id, std::string("a bootstrap method cannot be read: ") + e.what());
  }
  {  // the bootstrap method itself: its own call-backs are judged below
    HandleRef b = parseHandle(bs.handle.text);
    std::string o = key(b.owner, v);
    if (inPath(v, o))
      for (const auto& t : resolveMethod(v, o, b.name, key(b.desc, v)).targets)
        edge(id, node(NodeKind::Method, t, b.name, key(b.desc, v)));
  }
  for (const ConstValue& a : bs.args) {
    if (a.kind == ConstValue::Kind::MethodHandle) handleEdge(id, v, a);
    else if (a.kind == ConstValue::Kind::Class) typeEdge(id, v, a.text);
    else if (a.kind == ConstValue::Kind::Dynamic) return markBad(id, "a bootstrap argument is a dynamic constant");
  }
  // A JDK bootstrap (string concatenation, ...) may call methods of the objects it is given;
  // a lambda factory only stores them (the lambda body is followed above).
  HandleRef h = parseHandle(bs.handle.text);
  if (inPath(v, key(h.owner, v)) || h.owner == "java/lang/invoke/LambdaMetafactory") return;
  bool refs = false;
  try {
    for (const jvm::TypeDesc& p : jvm::parseMethodDescriptor(desc).params)
      refs = refs || ((p.kind == 'L' || p.kind == '[') && nonInert(v, p.kind == 'L' ? p.className() : p.text));
  } catch (const std::invalid_argument&) {
    refs = true;
  }
  if (refs && !jdk_clean)
    callBacks(id, h.owner == "java/lang/invoke/StringConcatFactory" ? detail::kToString : detail::kAny);
}

void ClosureOracle::Impl::addInsnEdges(int id, Version v, const DecodedMethod& dm, const Instruction& insn,
                                      const CallSiteFacts* site) {
  switch (insn.op) {
    case Opcode::invokestatic: call(id, v, insn.member, false, true, site); break;
    case Opcode::invokespecial: call(id, v, insn.member, false, false, site); break;
    case Opcode::invokevirtual: case Opcode::invokeinterface: call(id, v, insn.member, true, false, site); break;
    case Opcode::invokedynamic:
      bootstrapEdges(id, v, *dm.cls, static_cast<std::uint16_t>(insn.imm), insn.member.descriptor);
      break;
    case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield: {
      std::string o = key(insn.member.owner, v);
      if (inPath(v, o)) edge(id, node(NodeKind::Field, o, insn.member.name, key(insn.member.descriptor, v)));
      break;
    }
    case Opcode::new_: case Opcode::anewarray: case Opcode::checkcast: case Opcode::instanceof:
    case Opcode::multianewarray:
      typeEdge(id, v, insn.type);
      break;
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
      if (insn.constant.kind == ConstValue::Kind::Class) typeEdge(id, v, insn.constant.text);
      else if (insn.constant.kind == ConstValue::Kind::MethodHandle) handleEdge(id, v, insn.constant);
      else if (insn.constant.kind == ConstValue::Kind::Dynamic)
        bootstrapEdges(id, v, *dm.cls, dm.cls->pool.at(insn.cp_index).ref1, "()V");
      break;
    default: break;
  }
}

}  // namespace pasda::diff
