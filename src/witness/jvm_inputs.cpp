// The inputs of a JVM replay as generated code: constants, strings, arrays, and objects of
// the declared classes built without a constructor (Unsafe.allocateInstance; JDK classes by their
// public no-argument constructor when they have one) whose fields the witness names are set by reflection; the analysed class's static fields likewise.
#include <algorithm>
#include <stdexcept>

#include "driver.hpp"
#include "pasda/product/assembler.hpp"
#include "pasda/symexec/program.hpp"

namespace pasda::witness::detail {

using jvm::Opcode;

namespace {

constexpr const char* kAlloc = "pasdaAlloc";
constexpr const char* kAllocDesc = "(Ljava/lang/Class;)Ljava/lang/Object;";
constexpr const char* kField = "pasdaField";
constexpr const char* kFieldDesc = "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/reflect/Field;";

void ldcClass(product::Assembler& a, jvm::ConstantPool& pool, const std::string& internal) {
  a.op(Opcode::ldc_w);
  a.u2(pool.addClass(internal));
}

/// The setter of java.lang.reflect.Field for a field of descriptor `desc`, and its descriptor.
std::pair<std::string, std::string> setter(const std::string& desc) {
  switch (desc.empty() ? 'L' : desc[0]) {
    case 'Z': return {"setBoolean", "(Ljava/lang/Object;Z)V"};
    case 'B': return {"setByte", "(Ljava/lang/Object;B)V"};
    case 'C': return {"setChar", "(Ljava/lang/Object;C)V"};
    case 'S': return {"setShort", "(Ljava/lang/Object;S)V"};
    case 'I': return {"setInt", "(Ljava/lang/Object;I)V"};
    case 'J': return {"setLong", "(Ljava/lang/Object;J)V"};
    case 'F': return {"setFloat", "(Ljava/lang/Object;F)V"};
    case 'D': return {"setDouble", "(Ljava/lang/Object;D)V"};
    default: return {"set", "(Ljava/lang/Object;Ljava/lang/Object;)V"};
  }
}

/// The boxes, built by their (deprecated, still present) constructors: a fresh object, as an
/// input object is.
const char* boxedPrimitive(const std::string& cls) {
  static const std::pair<const char*, const char*> boxes[] = {
      {"java/lang/Integer", "I"}, {"java/lang/Long", "J"},   {"java/lang/Short", "S"},  {"java/lang/Byte", "B"},
      {"java/lang/Character", "C"}, {"java/lang/Boolean", "Z"}, {"java/lang/Float", "F"}, {"java/lang/Double", "D"}};
  for (const auto& [c, k] : boxes)
    if (cls == c) return k;
  return nullptr;
}

/// The value of one field, or of the statics holder's field, on the stack.
void pushFieldValue(product::Assembler& a, jvm::ConstantPool& pool, const std::string& desc, const InputValue& v,
                    const DriverNames& names) {
  const jvm::TypeDesc t = jvm::parseFieldDescriptor(names.map(desc));
  if (t.kind == 'L' || t.kind == '[') return pushInput(a, pool, t, v, names);
  pushConstant(a, pool, t, v.bits);
}

/// Stack: Field, (receiver or null) -> sets the field to its witness value.
void setField(product::Assembler& a, jvm::ConstantPool& pool, const std::string& desc, const InputValue& v,
              const DriverNames& names) {
  pushFieldValue(a, pool, desc, v, names);
  const auto [name, sig] = setter(desc);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", name, sig);
}

void pushObject(product::Assembler& a, jvm::ConstantPool& pool, const InputValue& v, const DriverNames& names) {
  const std::string cls = names.map(v.cls);
  if (const char* prim = boxedPrimitive(cls)) {
    InputValue value;
    for (std::size_t i = 0; i < v.field_names.size(); ++i)
      if (v.field_names[i] == "value") value = v.field_values[i];
    a.newObject(cls);
    a.op(Opcode::dup);
    pushConstant(a, pool, jvm::parseFieldDescriptor(prim), value.bits);
    a.invoke(Opcode::invokespecial, cls, "<init>", std::string("(") + prim + ")V");
    return;
  }
  // An enum's value is one of its constants, the one named by replayJvm from the model's ordinal
  // (nameEnumConstants): Enum.valueOf in each version. No name: the witness cannot be built.
  for (std::size_t i = 0; i < v.field_names.size(); ++i)
    if (v.field_names[i] == kEnumConstant) {
      InputValue name = v.field_values[i];
      if (name.ref != InputValue::Ref::String) {  // no constant has this name: valueOf throws
        name.ref = InputValue::Ref::String;
        name.elems = {'?'};
      }
      ldcClass(a, pool, cls);
      pushInput(a, pool, jvm::parseFieldDescriptor("Ljava/lang/String;"), name, names);
      a.invoke(Opcode::invokestatic, "java/lang/Enum", "valueOf", "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;");
      a.op(Opcode::checkcast);
      a.u2(pool.addClass(cls));
      return;
    }
  ldcClass(a, pool, cls);
  a.invoke(Opcode::invokestatic, names.driver, kAlloc, kAllocDesc);
  a.op(Opcode::checkcast);
  a.u2(pool.addClass(cls));
  // A field the class does not declare is left out: a witness's object holds the fields either
  // version reads (a field renamed between them is one version's only).
  for (std::size_t i = 0; i < v.field_names.size(); ++i) {
    const int set = a.newLabel(), next = a.newLabel();
    a.op(Opcode::dup);  // obj obj
    ldcClass(a, pool, cls);
    a.ldcString(v.field_names[i]);
    a.invoke(Opcode::invokestatic, names.driver, kField, kFieldDesc);  // obj obj field
    a.op(Opcode::dup);
    a.jump(Opcode::ifnonnull, set);
    a.op(Opcode::pop);
    a.op(Opcode::pop);
    a.jump(Opcode::goto_, next);
    a.bind(set);
    a.op(Opcode::swap);  // obj field obj
    setField(a, pool, v.field_descs[i], v.field_values[i], names);
    a.bind(next);
  }
}

}  // namespace

void typeOp(product::Assembler& a, jvm::ConstantPool& pool, jvm::Opcode o, const std::string& cls) {
  a.op(o);
  a.u2(pool.addClass(cls));
}

std::string DriverNames::map(const std::string& text) const {
  if (called.empty()) return text;
  std::string out = text;
  for (std::size_t at = out.find("<main>"); at != std::string::npos; at = out.find("<main>", at + called.size()))
    out.replace(at, 6, called);
  return out;
}

void pushInt(product::Assembler& a, jvm::ConstantPool& pool, std::int32_t v) {
  if (v >= -32768 && v <= 32767) {
    a.iconst(v);
  } else {
    a.op(Opcode::ldc_w);
    a.u2(pool.addInteger(v));
  }
}

void pushConstant(product::Assembler& a, jvm::ConstantPool& pool, const jvm::TypeDesc& t, std::uint64_t bits) {
  switch (t.kind) {
    case 'J':
      a.op(Opcode::ldc2_w);
      a.u2(pool.addLong(static_cast<std::int64_t>(bits)));
      break;
    case 'D':
      a.op(Opcode::ldc2_w);
      a.u2(pool.addLong(static_cast<std::int64_t>(bits)));
      a.invoke(Opcode::invokestatic, "java/lang/Double", "longBitsToDouble", "(J)D");
      break;
    case 'F':
      a.op(Opcode::ldc_w);
      a.u2(pool.addInteger(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))));
      a.invoke(Opcode::invokestatic, "java/lang/Float", "intBitsToFloat", "(I)F");
      break;
    case 'L': case '[': a.op(Opcode::aconst_null); break;
    default: {
      auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
      if (t.kind == 'Z') v = bits ? 1 : 0;
      pushInt(a, pool, v);
    }
  }
}

void pushArray(product::Assembler& a, jvm::ConstantPool& pool, const std::string& elemDesc,
               const std::vector<std::uint64_t>& elems) {
  const jvm::TypeDesc et = jvm::parseFieldDescriptor(elemDesc);
  pushInt(a, pool, static_cast<std::int32_t>(elems.size()));
  if (et.kind == 'L' || et.kind == '[') {
    a.op(Opcode::anewarray);
    a.u2(pool.addClass(et.kind == 'L' ? et.className() : et.text));
    return;  // elements stay null
  }
  struct Kind { char k; std::uint8_t atype; Opcode store; };
  static const Kind kinds[] = {{'Z', 4, Opcode::bastore}, {'C', 5, Opcode::castore}, {'F', 6, Opcode::fastore},
                               {'D', 7, Opcode::dastore}, {'B', 8, Opcode::bastore}, {'S', 9, Opcode::sastore},
                               {'I', 10, Opcode::iastore}, {'J', 11, Opcode::lastore}};
  const Kind* k = nullptr;
  for (const Kind& c : kinds)
    if (c.k == et.kind) k = &c;
  if (!k) throw std::invalid_argument("no array of " + elemDesc);
  a.op(Opcode::newarray);
  a.u1(k->atype);
  for (std::size_t i = 0; i < elems.size(); ++i) {
    a.op(Opcode::dup);
    pushInt(a, pool, static_cast<std::int32_t>(i));
    pushConstant(a, pool, et, elems[i]);
    a.op(k->store);
  }
}

void pushInput(product::Assembler& a, jvm::ConstantPool& pool, const jvm::TypeDesc& t, const InputValue& v,
               const DriverNames& names) {
  if (v.sort != terms::Sort::Ref) return pushConstant(a, pool, t, v.bits);
  switch (v.ref) {
    case InputValue::Ref::String:
      a.newObject("java/lang/String");
      a.op(Opcode::dup);
      pushArray(a, pool, "C", v.elems);
      a.invoke(Opcode::invokespecial, "java/lang/String", "<init>", "([C)V");
      return;
    case InputValue::Ref::Array: pushArray(a, pool, names.map(v.elem), v.elems); return;
    case InputValue::Ref::Object: pushObject(a, pool, v, names); return;
    default: a.op(Opcode::aconst_null); return;
  }
}

std::vector<std::string> staticsClassesOf(const InputValue& statics) {
  std::vector<std::string> out;
  if (statics.ref != InputValue::Ref::Object) return out;
  for (const std::string& name : statics.field_names)
    if (const std::size_t dot = name.rfind('.'); dot != std::string::npos) {
      std::string cls = name.substr(0, dot);
      if (std::find(out.begin(), out.end(), cls) == out.end()) out.push_back(cls);
    }
  return out;
}

void setStatics(product::Assembler& a, jvm::ConstantPool& pool, const InputValue& statics, const DriverNames& names) {
  if (statics.ref != InputValue::Ref::Object) return;
  for (std::size_t i = 0; i < statics.field_names.size(); ++i) {
    const int set = a.newLabel(), next = a.newLabel();
    // Another program class's static is named "owner.field" (owner: its internal name).
    const std::string& name = statics.field_names[i];
    const std::size_t dot = name.rfind('.');
    ldcClass(a, pool, dot == std::string::npos ? names.called : name.substr(0, dot));
    a.ldcString(dot == std::string::npos ? name : name.substr(dot + 1));
    a.invoke(Opcode::invokestatic, names.driver, kField, kFieldDesc);  // field
    a.op(Opcode::dup);
    a.jump(Opcode::ifnonnull, set);
    a.op(Opcode::pop);  // (a static field of the other version only)
    a.jump(Opcode::goto_, next);
    a.bind(set);
    a.op(Opcode::aconst_null);  // field null
    setField(a, pool, statics.field_descs[i], statics.field_values[i], names);
    a.bind(next);
  }
}

void addBuildHelpers(jvm::ClassFile& cf, const std::string& driver) {
  {  // static Object pasdaAlloc(Class c): an instance of c, no constructor run -- but for a JDK
     // class its public no-argument constructor when it has one: a JDK object whose invariants
     // no constructor set up (a Random without its seed, a list without its storage) throws
     // where no caller's object would, in both versions, a "difference" no real input can show.
    product::Assembler a(cf.pool);
    const int unsafe = a.newLabel(), notEnum = a.newLabel();
    // (an enum object is one of its constants, never a new instance: no witness to build)
    ldcClass(a, cf.pool, "java/lang/Enum");
    a.load('L', 0);
    a.invoke(Opcode::invokevirtual, "java/lang/Class", "isAssignableFrom", "(Ljava/lang/Class;)Z");
    a.jump(Opcode::ifeq, notEnum);
    a.newObject("java/lang/IllegalArgumentException");
    a.op(Opcode::dup);
    a.invoke(Opcode::invokespecial, "java/lang/IllegalArgumentException", "<init>", "()V");
    a.op(Opcode::athrow);
    a.bind(notEnum);
    {  // an interface or an abstract class: a stand-in (jvm_standins.cpp)
      const int concrete = a.newLabel();
      a.load('L', 0);
      a.invoke(Opcode::invokevirtual, "java/lang/Class", "getModifiers", "()I");
      pushInt(a, cf.pool, jvm::acc::Abstract | jvm::acc::Interface);
      a.op(Opcode::iand);
      a.jump(Opcode::ifeq, concrete);
      a.load('L', 0);
      emitStandInCall(a, driver);
      a.op(Opcode::areturn);
      a.bind(concrete);
    }
    a.load('L', 0);
    a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
    a.ldcString("java.");
    a.invoke(Opcode::invokevirtual, "java/lang/String", "startsWith", "(Ljava/lang/String;)Z");
    a.jump(Opcode::ifeq, unsafe);
    const std::uint16_t start = a.here();
    a.load('L', 0);
    a.iconst(0);
    a.op(Opcode::anewarray);
    a.u2(cf.pool.addClass("java/lang/Class"));
    a.invoke(Opcode::invokevirtual, "java/lang/Class", "getConstructor", "([Ljava/lang/Class;)Ljava/lang/reflect/Constructor;");
    a.iconst(0);
    a.op(Opcode::anewarray);
    a.u2(cf.pool.addClass("java/lang/Object"));
    a.invoke(Opcode::invokevirtual, "java/lang/reflect/Constructor", "newInstance", "([Ljava/lang/Object;)Ljava/lang/Object;");
    const std::uint16_t end = a.here();
    a.op(Opcode::areturn);
    const std::uint16_t handler = a.here();
    a.op(Opcode::pop);
    a.bind(unsafe);
    a.ldcString("sun.misc.Unsafe");
    a.invoke(Opcode::invokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;)Ljava/lang/Class;");
    a.ldcString("theUnsafe");
    a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredField", "(Ljava/lang/String;)Ljava/lang/reflect/Field;");
    a.store('L', 1);
    a.load('L', 1);
    a.iconst(1);
    a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "setAccessible", "(Z)V");
    a.load('L', 1);
    a.op(Opcode::aconst_null);
    a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
    a.op(Opcode::checkcast);
    a.u2(cf.pool.addClass("sun/misc/Unsafe"));
    a.load('L', 0);
    a.invoke(Opcode::invokevirtual, "sun/misc/Unsafe", "allocateInstance", kAllocDesc);
    a.op(Opcode::areturn);
    std::vector<jvm::ExceptionHandler> hs{{start, end, handler, cf.pool.addClass("java/lang/Throwable")}};
    cf.methods.push_back(
        product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kAlloc, kAllocDesc, a.finish(), 3, 2, std::move(hs)));
  }
  // static Field pasdaField(Class c, String n): the field n declared by c or a superclass,
  // made accessible; null when none declares it
  product::Assembler a(cf.pool);
  const int loop = a.newLabel();
  a.bind(loop);
  const std::uint16_t start = a.here();
  a.load('L', 0);
  a.load('L', 1);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredField", "(Ljava/lang/String;)Ljava/lang/reflect/Field;");
  a.store('L', 2);
  const std::uint16_t end = a.here();
  a.load('L', 2);
  a.iconst(1);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "setAccessible", "(Z)V");
  a.load('L', 2);
  a.op(Opcode::areturn);
  const std::uint16_t handler = a.here();
  a.op(Opcode::pop);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getSuperclass", "()Ljava/lang/Class;");
  a.store('L', 0);
  a.load('L', 0);
  a.jump(Opcode::ifnonnull, loop);
  a.op(Opcode::aconst_null);
  a.op(Opcode::areturn);
  std::vector<jvm::ExceptionHandler> hs{{start, end, handler, cf.pool.addClass("java/lang/NoSuchFieldException")}};
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kField, kFieldDesc, a.finish(), 2, 3,
                                           std::move(hs)));
}

/// Names the enum constants of a witness: an object with the model's "$ordinal" gets the name of
/// the constant of that ordinal in the old version's enum class (else the new one's), so that
/// both versions are given the constant of that name, the same input whatever the order of their
/// constants. None (a class not loaded, an ordinal out of range): the object cannot be built.
void nameEnumConstants(InputValue& v, const symexec::Program* program) {
  for (InputValue& f : v.field_values) nameEnumConstants(f, program);
  if (v.ref != InputValue::Ref::Object) return;
  for (std::size_t i = 0; i < v.field_names.size(); ++i) {
    if (v.field_names[i] != "$ordinal") continue;
    const auto ordinal = static_cast<std::int32_t>(static_cast<std::uint32_t>(v.field_values[i].bits));
    InputValue name;
    name.sort = terms::Sort::Ref;
    for (symexec::Side side : {symexec::kOld, symexec::kNew}) {
      const symexec::LoadedClass* c = program ? program->find(side, v.cls) : nullptr;
      if (!c || !name.elems.empty()) continue;
      std::int32_t k = 0;
      for (const jvm::Field& f : c->cf.fields) {
        if (!f.isStatic() || !(f.access_flags & jvm::acc::Enum)) continue;
        if (k++ != ordinal) continue;
        name.ref = InputValue::Ref::String;
        for (unsigned char ch : f.name) name.elems.push_back(ch);  // (constants are ASCII identifiers here)
        break;
      }
    }
    v.field_names.push_back(detail::kEnumConstant);
    v.field_descs.push_back("Ljava/lang/String;");
    v.field_values.push_back(name);
    return;
  }
}

}  // namespace pasda::witness::detail
