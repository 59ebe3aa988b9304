// Models of the reflection calls that array utilities make (java.lang.reflect.Array, the
// component type of an array class) and of the empty collections' factories, exactly as the
// JDK specifies them where the engine knows the objects involved; otherwise they decline and
// the unknown-call model answers (docs/interpreter.md, "Library models").
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

/// Array.getLength(Object): NullPointerException on null, the length of an array, and
/// IllegalArgumentException on an object the engine knows is not an array (one it created:
/// an input or an unmodelled call's result declared as Object could be an array at run time).
ModelResult arrayGetLength(ModelCall& c) {
  Term a = c.arg(0);
  if (c.isNull(a)) return c.throwNew("java/lang/NullPointerException");
  const Object& o = c.object(a);
  if (o.long_length) return ModelResult::value(o.long_length);
  if (o.is_array) return ModelResult::value(c.tm().intLit(static_cast<std::int32_t>(o.elems.size())));
  if (o.opaque || o.havocked || o.input >= 0) return ModelResult::declined();
  return c.throwNew("java/lang/IllegalArgumentException");
}

/// The descriptor of the class a Class object stands for ("I" for int.class, whose text is
/// "prim:I"; "Ljava/lang/String;"; "[I"), or "" when the engine does not know it.
std::string classDescriptor(ModelCall& c, Term cls) {
  if (c.isNull(cls)) return "";
  const Object& o = c.object(cls);
  if (o.cls != "java/lang/Class" || o.opaque || o.text.empty()) return "";
  if (o.text.rfind("prim:", 0) == 0) return o.text.substr(5);  // int.class and the like
  if (o.text[0] == '[') return o.text;
  return "L" + o.text + ";";
}

/// Array.newInstance(Class, int): a new array of that component type, like newarray: a literal
/// length up to the engine's per-array budget, a symbolic one past --max-array-length an array
/// of primitives without elements held (of references: the path is cut); void.class declined.
ModelResult arrayNewInstance(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  if (c.isNull(c.arg(0))) return c.throwNew("java/lang/NullPointerException");
  const std::string elem = classDescriptor(c, c.arg(0));
  if (elem.empty() || elem == "V") return ModelResult::declined();
  Term n = c.arg(1);
  auto negative = c.branch(tm.lt(n, tm.intLit(0)));
  if (!negative) return c.ended();
  if (*negative) return c.throwNew("java/lang/NegativeArraySizeException");
  std::int64_t len = -1;
  if (auto k = tm.asInteger(n)) {
    len = *k;
  } else {
    for (int k = 0; k <= c.maxArrayLength() && len < 0; ++k) {
      auto isK = c.branch(tm.eq(n, tm.intLit(k)));
      if (!isK) return c.ended();
      if (*isK) len = k;
    }
  }
  const bool primitive = elem[0] != 'L' && elem[0] != '[';
  if (len < 0 && primitive) {  // past the bound: no element held, as newarray does
    c.assume(tm.gt(n, tm.intLit(c.maxArrayLength())));
    return ModelResult::value(c.allocate(longArray(tm, elem, n)));
  }
  if (len < 0 || static_cast<std::size_t>(len) > c.maxArrayElements() ||
      !c.withinPathBudget(static_cast<std::size_t>(len)))
    return c.cut("array of length past --max-array-length made by java.lang.reflect.Array.newInstance");
  jvm::TypeDesc td;
  td.kind = elem[0];
  td.text = elem;
  return ModelResult::value(c.newArray(elem, std::vector<Term>(static_cast<std::size_t>(len), c.defaultValue(td))));
}

/// Class.getComponentType(): the element class of an array class, null for any other class.
ModelResult componentType(ModelCall& c) {
  const std::string d = classDescriptor(c, c.receiver());
  if (d.empty()) return ModelResult::declined();
  if (d[0] != '[') return ModelResult::value(c.tm().nullRef());
  const std::string e = d.substr(1);
  return ModelResult::value(c.classObject(e[0] == 'L' ? e.substr(1, e.size() - 2) : e[0] == '[' ? e : "prim:" + e));
}

ModelResult classIsArray(ModelCall& c) {
  const std::string d = classDescriptor(c, c.receiver());
  if (d.empty()) return ModelResult::declined();
  return ModelResult::value(c.tm().intLit(d[0] == '[' ? 1 : 0));
}

}  // namespace

void registerReflectionModels(LibraryRegistry& r) {
  r.add("java/lang/reflect/Array", "getLength", "(Ljava/lang/Object;)I", arrayGetLength);
  r.add("java/lang/reflect/Array", "newInstance", "(Ljava/lang/Class;I)Ljava/lang/Object;", arrayNewInstance);
  r.add("java/lang/Class", "getComponentType", "()Ljava/lang/Class;", componentType);
  r.add("java/lang/Class", "isArray", "()Z", classIsArray);
}

}  // namespace pasda::symexec::lib
