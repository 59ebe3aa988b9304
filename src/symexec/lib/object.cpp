// Models of java.lang.Object's methods and of the constructors of library classes.
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

/// getClass: a Class object naming the receiver's dynamic class.
ModelResult getClass(ModelCall& c) {
  const Object& o = c.object(c.receiver());
  if (o.opaque && !o.is_array) return ModelResult::declined();  // (its class may be a subclass)
  return ModelResult::value(c.classObject(o.cls));
}

/// A constructor of a library class: the new object's content is a function of the constructor
/// and its arguments (its identity for unmodelled calls); a program class's call of its library
/// superclass's constructor (Object, Exception, ...) has no effect the engine tracks.
ModelResult libraryInit(ModelCall& c) {
  Object& o = c.object(c.receiver());
  if (c.isProgramClass(o.cls)) return ModelResult::none();
  std::vector<Term> args;
  for (std::size_t i = 1; i < c.args().size(); ++i) args.push_back(c.identity(c.arg(i)));
  appendSources(c, args);  // (a generator without a seed, a Date of now: each one new)
  Term ident = c.tm().apply("new:" + c.owner() + c.descriptor(), terms::FunKind::Library, Sort::Int, args);
  Object& built = c.object(c.receiver());
  built.ident = ident;
  // (the class's own constructor on an object of no program class: `new` made it of exactly that class)
  built.exact_library = built.cls == c.owner() && built.input < 0 && !built.opaque;
  return ModelResult::none();
}

bool isEnum(ModelCall& c, Term ref) {
  const Object& o = c.object(ref);
  std::optional<bool> e = c.assignable(o.cls, "java/lang/Enum");
  return !o.opaque && c.isProgramClass(o.cls) && e && *e;
}

/// Enum.<init>(name, ordinal): the two fields Enum's methods read.
ModelResult enumInit(ModelCall& c) {
  if (!isEnum(c, c.receiver())) return libraryInit(c);
  c.setField(c.receiver(), "$name", c.arg(1));
  c.setField(c.receiver(), "$ordinal", c.arg(2));
  return ModelResult::none();
}

ModelResult enumField(ModelCall& c, const char* field, const char* desc) {
  if (!isEnum(c, c.receiver())) return ModelResult::declined();
  std::optional<Term> v = c.field(c.receiver(), field, desc);
  if (!v) return c.ended();
  return ModelResult::value(*v);
}

ModelResult enumCompareTo(ModelCall& c) {
  if (!isEnum(c, c.receiver())) return ModelResult::declined();
  if (c.isNull(c.arg(1))) return c.throwNew("java/lang/NullPointerException");
  if (!isEnum(c, c.arg(1)) || c.object(c.arg(1)).cls != c.object(c.receiver()).cls) return ModelResult::declined();
  std::optional<Term> a = c.field(c.receiver(), "$ordinal", "I");
  if (!a) return c.ended();
  std::optional<Term> b = c.field(c.arg(1), "$ordinal", "I");
  if (!b) return c.ended();
  return ModelResult::value(c.tm().sub(*a, *b));
}

/// Objects.requireNonNull(x[, message]): x, or NullPointerException.
ModelResult requireNonNull(ModelCall& c) {
  if (c.desc().params.size() > 1 && c.desc().params[1].kind != 'L') return ModelResult::declined();
  if (c.desc().params.size() > 1 && c.desc().params[1].className() != "java/lang/String") return ModelResult::declined();
  if (c.isNull(c.arg(0))) return c.throwNew("java/lang/NullPointerException");
  return ModelResult::value(c.arg(0));
}

/// Objects.equals(a, b): true for the same object or two nulls, false when only a is null,
/// otherwise a.equals(b) — answered here when a is a String or a box (final JDK classes, whose
/// equals the registry models); an object whose equals may be program code declines.
ModelResult objectsEquals(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term a = c.arg(0), b = c.arg(1);
  if (tm.node(a).bits == tm.node(b).bits) return ModelResult::value(tm.intLit(1));  // (both null too)
  if (c.isNull(a)) return ModelResult::value(tm.intLit(0));
  const Object& o = c.object(a);
  if (o.opaque || (o.cls != "java/lang/String" && !primitiveOfBoxClass(o.cls))) return ModelResult::declined();
  return c.delegate(jvm::MemberRef{o.cls, "equals", "(Ljava/lang/Object;)Z", false}, {a, b}, true);
}

}  // namespace

void registerObjectModels(LibraryRegistry& r) {
  r.addOverloads("java/lang/Object", "getClass", getClass);
  // System.identityHashCode(null) is 0 (its specification); any other object's is the run's own
  // value, the unknown-call model's (never shared between the versions).
  r.add("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I", [](ModelCall& c) {
    return c.isNull(c.arg(0)) ? ModelResult::value(c.tm().intLit(0)) : ModelResult::declined();
  });
  r.addOverloads(LibraryRegistry::kAnyOwner, "<init>", libraryInit);
}

void registerEnumModels(LibraryRegistry& r) {
  const char* any = LibraryRegistry::kAnyOwner;
  r.add("java/lang/Enum", "<init>", "(Ljava/lang/String;I)V", enumInit);
  r.add(any, "ordinal", "()I", [](ModelCall& c) { return enumField(c, "$ordinal", "I"); });
  r.add(any, "name", "()Ljava/lang/String;", [](ModelCall& c) { return enumField(c, "$name", "Ljava/lang/String;"); });
  r.add(any, "toString", "()Ljava/lang/String;", [](ModelCall& c) {
    return enumField(c, "$name", "Ljava/lang/String;");  // (an override in the program runs as program code)
  });
  r.add(any, "compareTo", "(Ljava/lang/Enum;)I", enumCompareTo);
  r.add(any, "equals", "(Ljava/lang/Object;)Z", [](ModelCall& c) {
    if (!isEnum(c, c.receiver())) return ModelResult::declined();  // Enum.equals is final: identity
    bool same = !c.isNull(c.arg(1)) && c.tm().node(c.arg(1)).bits == c.tm().node(c.receiver()).bits;
    return ModelResult::value(c.tm().intLit(same ? 1 : 0));
  });
  const std::string objects = "java/util/Objects";
  r.addOverloads(objects, "requireNonNull", requireNonNull);
  r.add(objects, "equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z", objectsEquals);
  r.add(objects, "isNull", "(Ljava/lang/Object;)Z",
        [](ModelCall& c) { return ModelResult::value(c.tm().intLit(c.isNull(c.arg(0)) ? 1 : 0)); });
  r.add(objects, "nonNull", "(Ljava/lang/Object;)Z",
        [](ModelCall& c) { return ModelResult::value(c.tm().intLit(c.isNull(c.arg(0)) ? 0 : 1)); });
}

}  // namespace pasda::symexec::lib
