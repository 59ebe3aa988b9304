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
  if (auto known = tm.asInteger(n)) {
    len = *known;
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

/// The box class of a primitive descriptor letter ("java/lang/Integer" for 'I').
std::string boxClassOf(char prim) {
  switch (prim) {
    case 'I': return "java/lang/Integer";
    case 'J': return "java/lang/Long";
    case 'S': return "java/lang/Short";
    case 'B': return "java/lang/Byte";
    case 'C': return "java/lang/Character";
    case 'Z': return "java/lang/Boolean";
    case 'D': return "java/lang/Double";
    case 'F': return "java/lang/Float";
    default: return "";
  }
}

/// The widenings Array.set applies to a boxed value stored into an array of primitives
/// (JLS 5.1.2 between integral types; to float and double the engine declines).
bool widensTo(char from, char to) {
  if (from == to) return true;
  switch (to) {
    case 'S': return from == 'B';
    case 'I': return from == 'B' || from == 'S' || from == 'C';
    case 'J': return from == 'B' || from == 'S' || from == 'C' || from == 'I';
    default: return false;
  }
}

/// An array the models can read and write element by element: a non-null, non-opaque array
/// (one of primitives past the bound through Interpreter::longArrayElement and its store).
bool heldArray(ModelCall& c, Term a) {
  if (c.isNull(a)) return false;
  const Object& o = c.object(a);
  return o.is_array && !o.opaque && (!o.long_length || o.elem_sort != Sort::Ref);
}

Term lengthOf(ModelCall& c, const Object& o) {
  return o.long_length ? o.long_length : c.tm().intLit(static_cast<std::int32_t>(o.elems.size()));
}

/// ArrayIndexOutOfBoundsException unless 0 <= idx < length. nullopt: go on.
std::optional<ModelResult> checkIndex(ModelCall& c, Term idx, Term length) {
  terms::TermManager& tm = c.tm();
  auto out = c.branch(tm.lor(tm.lt(idx, tm.intLit(0)), tm.ge(idx, length)));
  if (!out) return c.ended();
  if (*out) return c.throwNew("java/lang/ArrayIndexOutOfBoundsException");
  return std::nullopt;
}

/// A symbolic in-bounds index made concrete, value by value (elements of references are
/// objects: a store or load picks one). -1: the path ended.
std::int64_t concreteIndex(ModelCall& c, Term idx, std::size_t length) {
  terms::TermManager& tm = c.tm();
  if (auto known = tm.asInteger(idx)) return *known;
  for (std::size_t k = 0; k + 1 < length; ++k) {
    auto isK = c.branch(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(k))));
    if (!isK) return -1;
    if (*isK) return static_cast<std::int64_t>(k);
  }
  return static_cast<std::int64_t>(length) - 1;
}

/// Array.set(Object, int, Object), as the JVM does it: NullPointerException on a null array;
/// into an array of primitives, IllegalArgumentException on a null value, then the index
/// check, then the value unboxed and widened (IllegalArgumentException when it cannot be);
/// into an array of references, the index check, then IllegalArgumentException unless the
/// value is null or an instance of the element type. The engine declines what it cannot
/// decide (an object of unknown class, a widening to float or double).
ModelResult arraySet(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term a = c.arg(0), idx = c.arg(1), v = c.arg(2);
  if (c.isNull(a)) return c.throwNew("java/lang/NullPointerException");
  if (!heldArray(c, a)) return ModelResult::declined();
  const Object& arr = c.object(a);
  const std::size_t length = arr.elems.size();
  const Term len = lengthOf(c, arr);
  if (arr.elem_sort != Sort::Ref) {
    const char kind = arr.elem_kind;
    if (c.isNull(v)) return c.throwNew("java/lang/IllegalArgumentException");
    const Object& box = c.object(v);
    const char held = box.opaque ? 0 : primitiveOfBoxClass(box.cls);
    if (!held || held == 'V') return ModelResult::declined();  // (an object of unknown class, or not a box)
    if (!widensTo(held, kind)) {
      // Java widens any number but double to double, and integral values to float: the
      // engine does not make those conversions here. Anything else is a type mismatch.
      const bool widensToFloat = (kind == 'D' && held != 'Z') || (kind == 'F' && held != 'Z' && held != 'D');
      if (widensToFloat) return ModelResult::declined();
      if (auto stop = checkIndex(c, idx, len)) return *stop;
      return c.throwNew("java/lang/IllegalArgumentException");
    }
    std::optional<Term> value = c.field(v, "value", std::string(1, held));
    if (!value) return c.ended();
    if (auto stop = checkIndex(c, idx, len)) return *stop;
    Term w = kind == 'J' && held != 'J' ? tm.convert(*value, Sort::Long) : *value;
    if (c.object(a).long_length) {
      c.storeLongArrayElement(a, idx, w);
      return ModelResult::none();
    }
    Object& target = c.object(a);
    target.dirty = true;
    target.ident = Term{};
    for (std::size_t i = 0; i < length; ++i)
      target.elems[i] = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), w, target.elems[i]);
    return ModelResult::none();
  }
  if (!c.isNull(v)) {
    const std::string elem = elementType(arr.cls);
    std::optional<bool> fits = c.assignable(c.object(v).cls, elem);
    if (!fits || !*fits) return ModelResult::declined();
  }
  if (auto stop = checkIndex(c, idx, len)) return *stop;
  const std::int64_t k = concreteIndex(c, idx, length);
  if (k < 0 || static_cast<std::size_t>(k) >= length) return c.ended();  // contradicts the check passed
  Object& target = c.object(a);
  target.dirty = true;
  target.ident = Term{};
  target.elems[static_cast<std::size_t>(k)] = v;
  return ModelResult::none();
}

/// Array.get(Object, int): the element, a primitive one in a new box (the JVM boxes it anew,
/// not through valueOf's cache).
ModelResult arrayGet(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term a = c.arg(0), idx = c.arg(1);
  if (c.isNull(a)) return c.throwNew("java/lang/NullPointerException");
  if (!heldArray(c, a)) return ModelResult::declined();
  const Object& arr = c.object(a);
  const std::size_t length = arr.elems.size();
  const Term len = lengthOf(c, arr);
  if (arr.elem_sort == Sort::Ref) {
    if (auto stop = checkIndex(c, idx, len)) return *stop;
    const std::int64_t k = concreteIndex(c, idx, length);
    if (k < 0 || static_cast<std::size_t>(k) >= length) return c.ended();  // contradicts the check passed
    const auto at = static_cast<std::size_t>(k);
    Term e = c.object(a).elems[at];
    if (!c.isNull(e) && c.object(e).maybe_null) {  // (as aaload: its nullness decided now)
      std::optional<Term> settled = c.settle(e);
      if (!settled) return c.ended();
      c.object(a).elems[at] = *settled;
      e = *settled;
    }
    return ModelResult::value(e);
  }
  const char kind = arr.elem_kind;
  if (auto stop = checkIndex(c, idx, len)) return *stop;
  Term v;
  if (c.object(a).long_length) {
    v = c.longArrayElement(a, idx);
  } else {
    const std::vector<Term>& elems = c.object(a).elems;
    // An empty array passed its index check only on a path the solver left undecided, which
    // contradicts itself: it ends.
    if (elems.empty()) return c.ended();
    v = elems.back();
    for (std::size_t i = elems.size() - 1; i-- > 0;)
      v = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), elems[i], v);
  }
  Object box;
  box.cls = boxClassOf(kind);
  box.fields["value"] = v;
  return ModelResult::value(c.allocate(std::move(box)));
}

}  // namespace

void registerReflectionModels(LibraryRegistry& r) {
  r.add("java/lang/reflect/Array", "getLength", "(Ljava/lang/Object;)I", arrayGetLength);
  r.add("java/lang/reflect/Array", "newInstance", "(Ljava/lang/Class;I)Ljava/lang/Object;", arrayNewInstance);
  r.add("java/lang/reflect/Array", "set", "(Ljava/lang/Object;ILjava/lang/Object;)V", arraySet);
  r.add("java/lang/reflect/Array", "get", "(Ljava/lang/Object;I)Ljava/lang/Object;", arrayGet);
  r.add("java/lang/Class", "getComponentType", "()Ljava/lang/Class;", componentType);
  r.add("java/lang/Class", "isArray", "()Z", classIsArray);
}

}  // namespace pasda::symexec::lib
