// ClosureOracle::pureIdentical: is a method (a lambda body, typically) the same function of its
// arguments alone in both versions? Then the interpreter can share the lambda between them
// (an unmodelled library call given it computes the same in both). Conservative: anything
// that may read or write state, create objects or dispatch into program code says no.
#include <set>

#include "closure_code.hpp"
#include "closure_graph.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff {

namespace {

using jvm::Opcode;

/// JDK classes that are final value classes: their methods cannot call back into program code
/// when every reference they are given is of one of these classes.
bool valueClass(const std::string& cls) {
  static const std::set<std::string> kValue = {
      "java/lang/String", "java/lang/Integer", "java/lang/Long",    "java/lang/Short",
      "java/lang/Byte",   "java/lang/Character", "java/lang/Boolean", "java/lang/Double",
      "java/lang/Float",  "java/lang/Math",     "java/lang/StrictMath"};
  return kValue.count(cls) > 0;
}

/// Methods of final JDK reflection classes that only describe their receiver (its name, type,
/// modifiers, printed form): given one of those objects they run no program code, so a method
/// reference to one (`Method::toString` in `Comparator.comparing`) is the same function in both
/// versions. (Not `invoke`, `newInstance`, `get`, `cast`, `forName`: they run program code.)
bool describingReflectionMethod(const std::string& cls, const std::string& name) {
  static const std::set<std::string> kClasses = {"java/lang/reflect/Method", "java/lang/reflect/Field",
                                                 "java/lang/reflect/Constructor", "java/lang/Class"};
  static const std::set<std::string> kNames = {
      "toString",      "toGenericString", "getName",         "getSimpleName",     "getTypeName",
      "getModifiers",  "getDeclaringClass", "getReturnType", "getParameterTypes", "getParameterCount",
      "getType",       "isVarArgs",       "isSynthetic",     "isBridge",          "isArray",
      "isPrimitive",   "isInterface",     "isEnum",          "getComponentType",  "hashCode"};
  return kClasses.count(cls) > 0 && kNames.count(name) > 0;
}

bool valueDescriptor(const std::string& descriptor) {
  jvm::MethodDesc md = jvm::parseMethodDescriptor(descriptor);
  auto ok = [](const jvm::TypeDesc& t) { return t.kind != '[' && (t.kind != 'L' || valueClass(t.className())); };
  for (const jvm::TypeDesc& t : md.params)
    if (!ok(t)) return false;
  return ok(md.ret) || md.ret.kind == 'V';
}

bool stateless(Opcode op) {
  switch (op) {
    case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield:
    case Opcode::iastore: case Opcode::lastore: case Opcode::fastore: case Opcode::dastore:
    case Opcode::aastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
    case Opcode::new_: case Opcode::invokedynamic: case Opcode::monitorenter: case Opcode::monitorexit:
    case Opcode::jsr: case Opcode::jsr_w: case Opcode::ret:
      return false;
    default:
      return true;
  }
}

/// An invokedynamic of StringConcatFactory whose arguments are all primitives or value classes
/// (no toString of a program object).
bool concatOfValues(const jvm::ClassFile& cf, const jvm::Instruction& in) {
  detail::Bootstrap b = detail::bootstrapAt(cf, static_cast<std::uint16_t>(in.imm));
  return b.handle.text.find("java/lang/invoke/StringConcatFactory") != std::string::npos &&
         valueDescriptor(in.member.descriptor);
}

}  // namespace

bool ClosureOracle::pureIdentical(const std::string& cls, const std::string& name, const std::string& descriptor) {
  Impl& I = *impl_;
  const std::string k = I.key(cls, Version::kOld);
  const int id = I.node(NodeKind::Method, k, name, I.key(descriptor, Version::kOld));
  if (auto it = I.pure.find(id); it != I.pure.end()) return it->second;
  if (!I.inPath(Version::kOld, k) && !I.inPath(Version::kNew, k))  // the JDK's own code, the same in both versions
    return I.pure[id] = valueClass(cls) && name != "<init>" && valueDescriptor(descriptor);
  I.pure[id] = false;  // (a method reached again while it is checked: recursion is not taken as pure)
  bool ok = sameCode(cls, name, descriptor);
  const Impl::ClassSide& side = I.side(Version::kOld, k);
  const jvm::Method* m = ok && side.cf ? side.cf->findMethod(name, descriptor) : nullptr;
  ok = m && m->code && !(m->access_flags & (jvm::acc::Synchronized | jvm::acc::Native));
  try {
    if (ok) {
      detail::DecodedMethod d = detail::decodeMethod(*side.cf, *m);
      for (const jvm::Instruction& in : d.insns) {
        if (in.op == Opcode::invokedynamic)  // string concatenation of values only
          ok = concatOfValues(*side.cf, in);
        else if (in.op == Opcode::new_) {  // a fresh object of a JDK class (its constructor is checked below)
          const std::string ownerKey = I.key(in.type, Version::kOld);
          ok = !I.inPath(Version::kOld, ownerKey) && !I.inPath(Version::kNew, ownerKey);
        } else if (!stateless(in.op)) ok = false;
        else if (in.op == Opcode::invokestatic || in.op == Opcode::invokevirtual ||
                 in.op == Opcode::invokespecial || in.op == Opcode::invokeinterface) {
          const std::string& owner = in.member.owner;
          const std::string ownerKey = I.key(owner, Version::kOld);
          if (I.inPath(Version::kOld, ownerKey) || I.inPath(Version::kNew, ownerKey))
            ok = in.op == Opcode::invokestatic && pureIdentical(owner, in.member.name, in.member.descriptor);
          else if (in.op == Opcode::invokespecial && in.member.name == "<init>")
            ok = valueDescriptor(in.member.descriptor);  // a JDK constructor given values only
          else
            ok = valueClass(owner) && in.op != Opcode::invokeinterface && valueDescriptor(in.member.descriptor);
        }
        if (!ok) break;
      }
    }
  } catch (const std::exception&) {
    ok = false;  // undecodable code is never taken for a pure function
  }
  I.pure[id] = ok;
  return ok;
}

bool ClosureOracle::arithmeticLeaf(const std::string& cls, const std::string& name, const std::string& descriptor) {
  Impl& I = *impl_;
  const std::string k = I.key(cls, Version::kOld);
  if (!I.inPath(Version::kOld, k) && !I.inPath(Version::kNew, k)) return false;
  for (char c : descriptor)
    if (c == 'L' || c == '[') return false;
  if (!pureIdentical(cls, name, descriptor)) return false;
  const Impl::ClassSide& side = I.side(Version::kOld, k);
  const jvm::Method* m = side.cf ? side.cf->findMethod(name, descriptor) : nullptr;
  if (!m || !m->code || !m->isStatic()) return false;
  try {
    detail::DecodedMethod d = detail::decodeMethod(*side.cf, *m);
    auto in_range = [](Opcode op, Opcode lo, Opcode hi) {
      return static_cast<int>(op) >= static_cast<int>(lo) && static_cast<int>(op) <= static_cast<int>(hi);
    };
    for (const jvm::Instruction& in : d.insns) {
      using O = Opcode;
      // primitive constants, loads and stores of primitive locals, stack moves, arithmetic,
      // conversions, comparisons, branches, switches, primitive returns; nothing else
      const bool refLocal = in_range(in.op, O::aload_0, O::aload_3) || in_range(in.op, O::astore_0, O::astore_3) ||
                            in.op == O::aload || in.op == O::astore;
      const bool ok =
          !refLocal &&
          (in_range(in.op, O::iconst_m1, O::sipush) || in_range(in.op, O::iload, O::dload_3) ||
           in_range(in.op, O::istore, O::dstore_3) || in_range(in.op, O::pop, O::lcmp) ||
           in_range(in.op, O::fcmpl, O::if_icmple) || in.op == O::goto_ || in.op == O::goto_w ||
           in.op == O::tableswitch || in.op == O::lookupswitch || in_range(in.op, O::ireturn, O::dreturn) ||
           in.op == O::nop ||
           ((in.op == O::ldc || in.op == O::ldc_w || in.op == O::ldc2_w) &&
            (in.constant.kind == jvm::ConstValue::Kind::Int || in.constant.kind == jvm::ConstValue::Kind::Long ||
             in.constant.kind == jvm::ConstValue::Kind::Float || in.constant.kind == jvm::ConstValue::Kind::Double)));
      if (!ok) return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

bool ClosureOracle::sharedFunction(const std::string& cls, const std::string& name, const std::string& descriptor,
                                   const std::vector<std::string>& types) {
  Impl& I = *impl_;
  const std::string k = I.key(cls, Version::kOld);
  // Program code: the same pure function in both versions, or any code whose closure is
  // identical (whatever it reads when it runs later — fields of what it captured, static
  // fields — the interpreter's calls of it see: a call of program code it cannot follow is
  // shared only on equal arguments and equal static writes).
  if (I.inPath(Version::kOld, k) || I.inPath(Version::kNew, k))
    return pureIdentical(cls, name, descriptor) || method(cls, name, descriptor).verdict == ClosureVerdict::Identical;
  // (a describing method's receiver, its own class, is given too: the instantiated type's
  // first parameter)
  const bool describing = describingReflectionMethod(cls, name);
  auto paramsOfValues = [&](const std::string& d) {
    jvm::MethodDesc md = jvm::parseMethodDescriptor(d);  // (throws on a malformed one: not shared)
    for (const jvm::TypeDesc& t : md.params)
      if (t.kind == '[' || (t.kind == 'L' && !valueClass(t.className()) && !(describing && t.className() == cls)))
        return false;
    return true;
  };
  if (!paramsOfValues(descriptor)) return false;
  for (const std::string& t : types)
    if (t.empty() || !paramsOfValues(t)) return false;
  return true;
}

}  // namespace pasda::diff
