// Calls the engine does not model (the registry's fallback) and invokedynamic call sites,
// treated soundly (docs/interpreter.md, "Unmodelled calls"):
//  * the result is an uninterpreted function of every argument, the receiver included, each
//    reference argument by its identity term (InputHeap::identity), so the same call on equal
//    arguments gives the same value in both versions and unchanged code still proves EQ;
//  * the call may throw (an exception of the call's own pseudo class) and a reference result
//    may be null, unless the method is known to be total / never to return null;
//  * a call that may write (a mutable receiver, an array or object argument) changes what it
//    can reach: library objects get a new identity, arrays new elements, program objects become
//    havocked (their fields are read as unknowns);
// all of it with library (inexact) symbols, so no verdict rests on them without a replay.
#include <algorithm>
#include <functional>
#include <set>

#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

using terms::FunKind;

std::string dotted(std::string s) {
  for (char& ch : s)
    if (ch == '/') ch = '.';
  return s;
}

/// The name of an unmodelled call's function: owner.name, with the parameter descriptor when
/// the arguments' sorts alone do not tell the overloads apart (references, char, short, byte,
/// boolean all share a sort with another type): `valueOf(I)` and `valueOf(C)`, `m(Object)` and
/// `m(String)` are different functions and must never be one symbol.
std::string callName(const std::string& owner, const std::string& name, const std::string& descriptor) {
  std::string call = dotted(owner + "." + name);
  const std::size_t close = descriptor.find(')');
  if (close == std::string::npos) return call;
  const std::string params = descriptor.substr(0, close + 1);
  if (params.find_first_of("L[CSBZ") != std::string::npos) call += params;
  return call;
}

/// Classes whose instances a library call cannot change.
bool immutableClass(const std::string& cls) {
  static const std::set<std::string> kImmutable = {
      "java/lang/String",    "java/lang/Integer",   "java/lang/Long",       "java/lang/Short",
      "java/lang/Byte",      "java/lang/Character", "java/lang/Boolean",    "java/lang/Double",
      "java/lang/Float",     "java/lang/Class",     "java/math/BigInteger", "java/math/BigDecimal",
      "java/util/UUID",      "java/util/Locale",    "java/lang/Enum",       "java/util/regex/Pattern",
      "java/nio/charset/Charset", "java/time/Duration", "java/time/Instant"};
  return kImmutable.count(cls) > 0;
}

/// Owners all of whose methods are total functions of their arguments (no exception beyond the
/// null checks the interpreter makes, no effect) and never return null, on non-null arguments.
bool totalOwner(const std::string& owner, const std::string& name) {
  // Character's code-point methods throw on invalid code points or indices, getName may return
  // null, and toString(int) throws on an invalid code point: those are not total.
  static const std::set<std::string> kCharacterPartial = {"toChars",           "codePointAt", "codePointBefore",
                                                          "codePointCount",    "offsetByCodePoints",
                                                          "getName",           "codePointOf", "toString"};
  return (owner == "java/lang/Character" && kCharacterPartial.count(name) == 0) || owner == "java/lang/Boolean";
}

/// Methods known not to throw on a non-null receiver and non-null arguments, and (for reference
/// results) never to return null.
bool totalMethod(const std::string& owner, const std::string& name) {
  static const std::set<std::string> kTotal = {
      "java/lang/Object.hashCode",       "java/lang/Object.equals",        "java/lang/Object.toString",
      "java/lang/String.length",         "java/lang/String.isEmpty",       "java/lang/String.equals",
      "java/lang/String.hashCode",       "java/lang/String.toString",      "java/lang/String.valueOf",
      "java/lang/String.equalsIgnoreCase", "java/lang/String.trim",        "java/lang/String.strip",
      "java/lang/String.toUpperCase",    "java/lang/String.toLowerCase",   "java/lang/String.isBlank",
      "java/lang/String.contains",       "java/lang/String.startsWith",    "java/lang/String.endsWith",
      "java/lang/String.indexOf",        "java/lang/String.lastIndexOf",   "java/lang/String.concat",
      "java/lang/String.compareTo",      "java/lang/String.toCharArray",   "java/lang/String.intern",
      "java/lang/CharSequence.length",   "java/lang/CharSequence.toString",
      "java/lang/Integer.valueOf",       "java/lang/Integer.intValue",     "java/lang/Integer.toString",
      "java/lang/Integer.hashCode",      "java/lang/Integer.equals",       "java/lang/Integer.longValue",
      "java/lang/Integer.bitCount",      "java/lang/Integer.reverse",      "java/lang/Integer.highestOneBit",
      "java/lang/Integer.lowestOneBit",  "java/lang/Integer.numberOfLeadingZeros",
      "java/lang/Integer.numberOfTrailingZeros", "java/lang/Integer.signum", "java/lang/Integer.toBinaryString",
      "java/lang/Integer.toHexString",   "java/lang/Integer.toOctalString", "java/lang/Integer.doubleValue",
      "java/lang/Long.valueOf",          "java/lang/Long.longValue",       "java/lang/Long.toString",
      "java/lang/Long.hashCode",         "java/lang/Long.equals",          "java/lang/Long.intValue",
      "java/lang/Long.bitCount",         "java/lang/Double.valueOf",       "java/lang/Double.doubleValue",
      "java/lang/Double.toString",       "java/lang/Double.hashCode",      "java/lang/Double.isInfinite",
      "java/lang/Float.valueOf",         "java/lang/Float.floatValue",     "java/lang/Float.isNaN",
      "java/lang/Short.valueOf",         "java/lang/Byte.valueOf",         "java/lang/Short.shortValue",
      "java/lang/Byte.byteValue",        "java/lang/StringBuilder.toString", "java/lang/StringBuilder.length",
      "java/lang/StringBuilder.append",  "java/lang/StringBuffer.toString", "java/lang/StringBuffer.append",
      "java/util/Objects.equals",        "java/util/Objects.hashCode",     "java/util/Objects.isNull",
      "java/util/Objects.nonNull",       "java/util/Objects.hash",         "java/lang/System.identityHashCode",
      "java/util/Collections.emptySet",  "java/util/Collections.emptyList", "java/util/Collections.emptyMap",
      "java/util/Collections.emptySortedSet", "java/util/Collections.emptySortedMap",
      "java/util/Collections.emptyNavigableSet", "java/util/Collections.emptyNavigableMap",
      "java/util/Collections.emptyIterator", "java/util/Collections.emptyListIterator",
      // Static or final-class methods whose Javadoc promises a non-null result and no
      // exception beyond the null checks (their receivers cannot be program objects): these
      // appear in class initialisers, where every partial call multiplies the paths by three.
      "java/lang/System.lineSeparator",  "java/lang/Class.desiredAssertionStatus", "java/lang/Class.getName",
      "java/lang/Class.getSimpleName",   "java/lang/Class.isArray",        "java/lang/Class.isPrimitive",
      "java/lang/Class.isInterface",     "java/lang/Class.isEnum",         "java/lang/Class.isAnnotation",
      "java/lang/Class.getModifiers",    "java/lang/Class.isInstance",     "java/lang/Class.isAssignableFrom",
      "java/lang/Thread.currentThread",  "java/lang/ThreadLocal.withInitial",
      "java/util/Collections.synchronizedSet", "java/util/Collections.synchronizedMap",
      "java/util/Collections.synchronizedList", "java/util/Collections.synchronizedCollection",
      "java/util/Collections.unmodifiableList", "java/util/Collections.unmodifiableSet",
      "java/util/Collections.unmodifiableMap", "java/util/Collections.unmodifiableCollection",
      "java/util/Collections.unmodifiableSortedSet", "java/util/Collections.unmodifiableSortedMap",
      "java/util/Collections.singletonList", "java/util/Collections.singleton", "java/util/Collections.singletonMap",
      "java/util/Arrays.asList",         "java/util/stream/Stream.of",     "java/util/stream/Stream.empty",
      "java/util/Locale.getDefault",     "java/util/Locale.getAvailableLocales",
      "java/util/Comparator.reverseOrder", "java/util/Comparator.naturalOrder", "java/util/function/Function.identity",
      "java/util/Optional.empty",        "java/util/Optional.of",          "java/util/Optional.isPresent",
      "java/util/Optional.isEmpty",      "java/lang/Integer.compare",      "java/lang/Integer.compareUnsigned",
      "java/lang/Integer.sum",           "java/lang/Integer.max",          "java/lang/Integer.min",
      "java/lang/Integer.toUnsignedLong", "java/lang/Integer.rotateLeft",  "java/lang/Integer.rotateRight",
      "java/lang/Long.compare",          "java/lang/Long.compareUnsigned", "java/lang/Long.signum",
      "java/lang/Long.numberOfLeadingZeros", "java/lang/Long.numberOfTrailingZeros", "java/lang/Long.max",
      "java/lang/Long.min",              "java/lang/Long.sum",             "java/lang/Double.compare",
      "java/lang/Double.isNaN",          "java/lang/Double.isFinite",      "java/lang/Double.doubleToLongBits",
      "java/lang/Double.doubleToRawLongBits", "java/lang/Double.longBitsToDouble", "java/lang/Float.compare",
      "java/lang/Float.isInfinite",      "java/lang/Float.floatToIntBits", "java/lang/Float.intBitsToFloat",
  };
  return totalOwner(owner, name) || kTotal.count(owner + "." + name) > 0;
}

/// JDK classes whose instances hold only what they are given and whose methods below call, of
/// program code, at most the hashCode/equals of their arguments: on an object known to be of
/// exactly that class (made by `new` on the path, so no subclass overrides them) and given only
/// values of final JDK value classes, these never throw; `nonNull` ones never return null.
bool exactCollection(const std::string& cls) {
  static const std::set<std::string> kExact = {"java/util/HashMap", "java/util/LinkedHashMap",
                                               "java/util/IdentityHashMap", "java/util/HashSet",
                                               "java/util/LinkedHashSet", "java/util/ArrayList"};
  return kExact.count(cls) > 0;
}

bool exactNoThrow(const std::string& name, bool& nonNull) {
  static const std::set<std::string> kNoThrow = {"put",         "get",     "containsKey", "containsValue", "size",
                                                 "isEmpty",     "remove",  "putIfAbsent", "getOrDefault",  "clear",
                                                 "add",         "contains", "indexOf",    "lastIndexOf"};
  static const std::set<std::string> kNonNull = {"keySet", "values", "entrySet", "iterator"};
  nonNull = kNonNull.count(name) > 0;
  return nonNull || kNoThrow.count(name) > 0;
}

bool finalValueClass(const std::string& cls) {
  static const std::set<std::string> kFinal = {
      "java/lang/String", "java/lang/Integer", "java/lang/Long",    "java/lang/Short", "java/lang/Byte",
      "java/lang/Character", "java/lang/Boolean", "java/lang/Double", "java/lang/Float", "java/lang/Class"};
  return kFinal.count(cls) > 0;
}

/// A call of exactCollection's methods on an exact receiver with value arguments: 0 (not such
/// a call), 1 (never throws), 2 (never throws, never returns null).
int exactTotal(ModelCall& c) {
  if (!c.hasReceiver()) return 0;
  const Object& r = c.object(c.receiver());
  if (r.opaque || r.input >= 0 || r.is_array || !exactCollection(r.cls)) return 0;
  bool nonNull = false;
  if (!exactNoThrow(c.name(), nonNull)) return 0;
  // (remove(int)/add(int, E) of a list throw on a bad index: only the one-argument forms)
  if ((c.name() == "remove" || c.name() == "add") && c.args().size() != 2) return 0;
  for (std::size_t i = 1; i < c.args().size(); ++i) {
    Term a = c.args()[i];
    if (c.tm().sort(a) != Sort::Ref) {
      if (c.name() == "remove" || c.name() == "add") return 0;  // an index, not an element
      continue;
    }
    if (c.isNull(a)) return 0;
    if (!finalValueClass(c.object(a).cls)) return 0;
  }
  return nonNull ? 2 : 1;
}

/// Methods that may throw but never return null (documented so; static methods or methods of
/// final JDK classes, so no program override answers them).
bool neverNull(const std::string& owner, const std::string& name) {
  static const std::set<std::string> kNonNull = {
      "java/util/regex/Pattern.compile",    "java/util/regex/Pattern.matcher",  "java/util/regex/Pattern.quote",
      "java/lang/String.format",            "java/lang/String.split",           "java/lang/String.getBytes",
      "java/lang/String.join",              "java/lang/String.repeat",          "java/lang/String.substring",
      "java/lang/String.replace",           "java/lang/String.replaceAll",      "java/lang/String.chars",
      "java/lang/Class.forName",            "java/lang/Class.getDeclaredField", "java/lang/Class.getField",
      "java/lang/Class.getDeclaredMethod",  "java/lang/Class.getMethod",        "java/lang/Class.getConstructor",
      "java/lang/Class.getDeclaredConstructor", "java/lang/Class.getDeclaredFields", "java/lang/Class.getFields",
      "java/lang/Class.getDeclaredMethods", "java/lang/Class.getMethods",       "java/lang/Class.getInterfaces",
      "java/lang/Class.getDeclaredConstructors", "java/lang/Class.getConstructors",
      "java/util/Locale.forLanguageTag",    "java/lang/Integer.toString",       "java/lang/Long.toString",
  };
  return kNonNull.count(owner + "." + name) > 0;
}

/// Where an unmodelled call's result comes from besides its arguments (and the receiver's
/// state, which a call that may write renews: a Random's next value is a function of the state
/// the previous call left).
enum class Source {
  Arguments,  // only its arguments
  PerObject,  // the run's identity hash of an object: the same object, the same value; never shared
  Clock,      // the clock: each call a new value; the versions' k-th readings shared
  Random,     // a new random seed or draw: each call a new value; the versions' k-th ones shared
};

Source sourceOf(const std::string& owner, const std::string& name, const std::string& descriptor) {
  if ((owner == "java/lang/System" && name == "identityHashCode") || (owner == "java/lang/Object" && name == "hashCode"))
    return Source::PerObject;
  if ((owner == "java/lang/System" && (name == "nanoTime" || name == "currentTimeMillis")) ||
      (owner.rfind("java/time/", 0) == 0 && name == "now") || (owner == "java/util/Date" && name == "<init>" && descriptor == "()V") ||
      (owner == "java/util/Calendar" && name == "getInstance"))
    return Source::Clock;
  // Generators built without a seed, and draws from a generator the call does not name.
  const bool generator = owner == "java/util/Random" || owner == "java/security/SecureRandom" || owner == "java/util/SplittableRandom";
  if ((generator && name == "<init>" && descriptor == "()V") ||
      ((owner == "java/lang/Math" || owner == "java/lang/StrictMath") && name == "random") ||
      (owner == "java/util/UUID" && name == "randomUUID") ||
      (owner == "java/util/concurrent/ThreadLocalRandom" && name == "current"))
    return Source::Random;
  return Source::Arguments;
}

/// The arguments of the call as side-neutral terms (receiver first), and what else its result
/// depends on (appendSources).
std::vector<Term> identities(ModelCall& c) {
  std::vector<Term> out;
  for (Term a : c.args()) out.push_back(c.identity(a));
  appendSources(c, out);
  return out;
}

/// JDK methods that never run program code, whatever they are given: reflective array access
/// and copies check types and unbox JDK boxes only (no equals, hashCode or toString).
bool neverCallsBack(const std::string& owner, const std::string& name) {
  if (owner == "java/lang/reflect/Array") return true;
  if (owner == "java/lang/System") return name == "arraycopy" || name == "identityHashCode";
  if (owner == "java/util/Arrays") return name == "copyOf" || name == "copyOfRange" || name == "fill";
  // The wrappers' and the small collections' factories keep what they are given without calling
  // it (only a null check and `instanceof RandomAccess`): Collections.unmodifiableList(list)
  // given a list of program objects runs no program code until the wrapper itself is used.
  if (owner == "java/util/Collections")
    for (const char* prefix : {"unmodifiable", "synchronized", "empty", "singleton"})
      if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

/// Can JDK code given these arguments call back into program code (a toString, equals,
/// hashCode, compareTo, an interface method of the program)? Not when every reference is
/// null, a string, a box, a Class, a builder of characters, or an array of primitives or of
/// those: such objects hold no program object and run no program code.
bool mayCallBack(ModelCall& c) {
  if (neverCallsBack(c.owner(), c.name())) return false;
  static const std::set<std::string> kInertArrays = {
      "[Ljava/lang/String;", "[Ljava/lang/Integer;", "[Ljava/lang/Long;",  "[Ljava/lang/Character;",
      "[Ljava/lang/Class;",  "[Ljava/lang/Boolean;", "[Ljava/lang/Short;", "[Ljava/lang/Byte;",
      "[Ljava/lang/Double;", "[Ljava/lang/Float;"};
  auto inert = [](const std::string& cls) {
    return finalValueClass(cls) || cls == "java/lang/StringBuilder" || cls == "java/lang/StringBuffer" ||
           kInertArrays.count(cls) > 0;
  };
  // An array of references this run made and still knows element by element (not an input,
  // not touched by an unmodelled call) holds exactly its elements: inert when they all are
  // (String.format's `new Object[] {Long.valueOf(v)}`).
  std::function<bool(Term, int)> inertRef = [&](Term a, int depth) {
    if (c.isNull(a)) return true;
    const Object& o = c.object(a);
    if (o.is_array && o.cls.size() == 2) return true;  // an array of a primitive type
    // A lambda of a shared site runs the same pure code in both versions, on values of JDK
    // value classes only (sharedLambdaSite): what the call may run through it is no program code.
    if (!o.lambda_sam.empty()) return true;
    if (inert(o.cls)) return true;
    if (o.values_only) {  // inert while what it is a view of is (an aastore into asList's array)
      const std::vector<Term> viewed = o.captured;  // (c.object may move the heap)
      if (depth >= 8) return false;
      for (Term k : viewed)
        if (!inertRef(k, depth + 1)) return false;
      return true;
    }
    if (!o.is_array || o.elem_sort != Sort::Ref || o.input >= 0 || o.lazy || o.opaque || o.havocked ||
        o.long_length || depth >= 3)
      return false;
    const std::vector<Term> elems = o.elems;  // (c.object may move the heap)
    for (Term e : elems)
      if (c.tm().sort(e) != Sort::Ref || !inertRef(e, depth + 1)) return false;
    return true;
  };
  for (Term a : c.args())
    if (c.tm().sort(a) == Sort::Ref && !inertRef(a, 0)) return true;
  return false;
}

bool anyNullReference(ModelCall& c) {
  for (Term a : c.args())
    if (c.tm().sort(a) == Sort::Ref && c.isNull(a)) return true;
  return false;
}

/// What an unmodelled call may write: library objects get a new identity (a function of the
/// call and of every argument before it), arrays of primitives new elements, program objects
/// and arrays of references are havocked (their fields and elements read as unknowns).
void havocArguments(ModelCall& c, const std::string& call, const std::vector<Term>& before, Term fresh,
                    bool callsBack) {
  terms::TermManager& tm = c.tm();
  // The arguments, then what the lambdas among them captured (the call may run them); not a
  // constructor's fresh receiver, which the call builds (unknownCall).
  std::vector<Term> reached;
  for (Term a : c.args())
    if (a != fresh) reached.push_back(a);
  for (std::size_t i = 0; i < reached.size(); ++i) {
    Term a = reached[i];
    if (tm.sort(a) != Sort::Ref || c.isNull(a)) continue;
    for (Term k : c.object(a).captured)
      if (std::find(reached.begin(), reached.end(), k) == reached.end()) reached.push_back(k);
  }
  for (std::size_t i = 0; i < reached.size(); ++i) {
    Term a = reached[i];
    if (tm.sort(a) != Sort::Ref || c.isNull(a)) continue;
    Object& o = c.object(a);
    if (!o.is_array && immutableClass(o.cls)) continue;
    // (a call that may run program code may have stored a program object in it)
    if (callsBack) o.values_only = false;
    const std::string tag = call + "#" + std::to_string(i);
    const Term after = tm.apply("after:" + tag, FunKind::Library, Sort::Int, before);
    o.dirty = true;
    if (!o.is_array) {
      o.ident = after;
      if (o.chars) {  // a builder: its characters are no longer known
        o.chars = false;
        o.elems.clear();
      }
      if (c.isProgramClass(o.cls)) {
        // Its fields are now unknown functions of this call (read on demand).
        o.havocked = true;
        o.havoc_base = after;
        o.fields.clear();
      }
      continue;
    }
    if (o.long_length) {  // no elements held: the array as a whole is a function of the call
      o.ident = after;
      continue;
    }
    o.ident = Term{};  // an array's identity follows its elements
    if (o.elem_sort != Sort::Ref) {
      for (std::size_t k = 0; k < o.elems.size(); ++k)
        o.elems[k] = tm.apply("after:" + tag + "[" + std::to_string(k) + "]", FunKind::Library, o.elem_sort, before);
      continue;
    }
    const std::string elemType = elementType(o.cls);
    const std::size_t n = o.elems.size();
    for (std::size_t k = 0; k < n; ++k) {
      Term ref = c.allocate(unknownObject(
          elemType, tm.apply("after:" + tag + "[" + std::to_string(k) + "]", FunKind::Library, Sort::Int, before)));
      c.object(a).elems[k] = ref;  // (allocation may have moved the array)
    }
  }
}

bool mayWrite(ModelCall& c) {
  for (Term a : c.args()) {
    if (c.tm().sort(a) != Sort::Ref || c.isNull(a)) continue;
    const Object& o = c.object(a);
    if (o.is_array || !immutableClass(o.cls)) return true;
  }
  return false;
}

/// An array returned by an unmodelled call: a length chosen like an input array's (longer ones
/// cut the path) and elements that are functions of the call; reference elements may be null.
ModelResult opaqueArray(ModelCall& c, Object o) {
  o.elem_kind = o.cls.size() > 1 ? o.cls[1] : 'I';
  o.elem_sort = sortOfDescriptor(o.elem_kind);
  Term arr = c.allocate(std::move(o));
  if (!c.fillOpaqueArray(arr)) return c.ended();
  return ModelResult::value(arr);
}

/// JDK factories whose result holds exactly what they are given (a copy, or a view of the
/// arguments, which are then what the result captures) and is of a JDK class.
bool valuesFactory(const std::string& owner, const std::string& name) {
  if (owner == "java/util/Arrays") return name == "asList";
  if (owner == "java/util/Collections")
    return name.rfind("unmodifiable", 0) == 0 || name.rfind("synchronized", 0) == 0 ||
           name.rfind("singleton", 0) == 0 || name.rfind("empty", 0) == 0 || name == "nCopies";
  if (owner == "java/util/List" || owner == "java/util/Set" || owner == "java/util/Map")
    return name == "of" || name == "copyOf" || name == "entry" || name == "ofEntries";
  return false;
}

/// For a LambdaMetafactory call site: the functional method the lambda implements,
/// "name(erased descriptor)" (the site's name and its first static argument); "" if unreadable.
std::string functionalMethod(ModelCall& c) {
  const std::string key = c.bootstrapKey();
  const std::size_t first = key.find('\0');
  if (first == std::string::npos) return "";
  const std::size_t end = key.find('\0', first + 1);
  const std::string type = key.substr(first + 1, end == std::string::npos ? std::string::npos : end - first - 1);
  if (type.rfind("T:", 0) != 0) return "";
  return c.name() + type.substr(2);
}

/// For a LambdaMetafactory call site whose implementation is a static method: records it on
/// the lambda `o` with what the site captured (Object::lambda_impl; ops/invoke.cpp runs it).
void recordImplementation(ModelCall& c, Object& o) {
  const std::optional<ModelCall::LambdaSite> l = c.lambdaSite();
  if (!l || l->kind != '6') return;  // (REF_invokeStatic only)
  o.lambda_impl = l->owner + "." + l->name + ":" + l->descriptor;
  o.lambda_call = functionalMethod(c);
  o.lambda_args = c.args();
}

/// Is the call the functional method of a lambda made at a shared site (Object::lambda_sam)?
/// It runs the lambda's code, the same in both versions, on what the lambda captured and the
/// call's arguments: its result is shared, whatever other implementations the interface has.
bool callsSharedLambda(ModelCall& c) {
  if (!c.hasReceiver() || !c.dispatches()) return false;
  const Object& r = c.object(c.receiver());
  return !r.lambda_sam.empty() && r.lambda_sam == c.name() + c.descriptor();
}

/// The constructor of a JDK object just made by `new` (`new String(buf, 0, n)`): the object
/// holds nothing yet, so it is not an argument; once built, it is a function of the
/// constructor's arguments alone, the same in both versions on equal arguments. That
/// receiver, or no term.
Term freshReceiver(ModelCall& c, const std::string& site) {
  if (!site.empty() || c.name() != "<init>" || !c.hasReceiver() || c.isProgramClass(c.owner())) return Term{};
  const Object& r = c.object(c.receiver());
  if (!r.is_array && r.input < 0 && !r.opaque && !r.havocked && !r.escaped && !r.dirty && !r.chars &&
      r.fields.empty() && !c.isProgramClass(r.cls))
    return c.receiver();
  return Term{};
}

/// The object an unmodelled call returns (not null): opaque, known by the call's term. A
/// lambda keeps what it captured (and its implementation); `valuesReceiver`: drawn from a
/// container of values; `noCallBack`: the call runs no program code.
ModelResult resultObject(ModelCall& c, const std::string& call, const std::vector<Term>& args, const std::string& site,
                         bool metafactory, bool valuesReceiver, bool noCallBack) {
  terms::TermManager& tm = c.tm();
  const jvm::TypeDesc& ret = c.desc().ret;
  Object o;
  o.cls = ret.kind == 'L' ? ret.className() : ret.text;
  o.is_array = ret.kind == '[';
  o.opaque = true;
  o.ident = tm.apply(call, FunKind::Library, Sort::Int, args);
  if (c.owner().empty())  // a lambda (or any call site): what it captured stays reachable
    for (Term a : c.args())
      if (tm.sort(a) == Sort::Ref && !c.isNull(a)) o.captured.push_back(a);
  if (metafactory && site.rfind("lambda:", 0) == 0) o.lambda_sam = functionalMethod(c);
  if (metafactory) recordImplementation(c, o);
  if (noCallBack && !o.is_array && (valuesFactory(c.owner(), c.name()) || valuesReceiver)) {
    // A container of the values it was given, or something drawn from a container of values
    // (an element, an iterator, a view): values only, while what it views is. (Not an array:
    // the program may store anything in it.)
    o.values_only = true;
    for (Term a : c.args())
      if (tm.sort(a) == Sort::Ref && !c.isNull(a)) o.captured.push_back(a);
  }
  if (o.is_array) return opaqueArray(c, std::move(o));
  return ModelResult::value(c.allocate(std::move(o)));
}

}  // namespace

ModelResult unknownCall(ModelCall& c, const std::string& display, const std::string& site, bool metafactory) {
  terms::TermManager& tm = c.tm();
  const jvm::TypeDesc& ret = c.desc().ret;
  std::string call = site.empty() ? callName(c.owner(), c.name(), c.descriptor()) : site;
  std::vector<Term> args = identities(c);
  const Term fresh = freshReceiver(c, site);
  if (fresh) args.erase(args.begin());
  // JDK code given values only (mayCallBack) runs no program code: what it builds of them or
  // draws from them holds values only (Object::values_only).
  const bool jdk = site.empty() && !c.owner().empty() && !c.isProgramClass(c.owner());
  const bool callsBack = !jdk || mayCallBack(c);
  bool valuesReceiver = false;
  if (jdk && c.hasReceiver() && !c.isNull(c.receiver())) valuesReceiver = c.object(c.receiver()).values_only;
  if (site.empty() && !c.owner().empty() && callsBack) {
    // Program code the engine cannot follow (an abstract method on an input receiver), or JDK
    // code that may call back into program code through the objects it is given (the
    // toString() of String.valueOf(o)): the versions share its result only when every
    // implementation it may run is the same code in both.
    std::string shared = callsSharedLambda(c) ? call : c.sharedProgramCall();
    if (shared.empty()) {
      args.push_back(tm.apply("site#" + std::to_string(c.codeSide().index()), FunKind::Library, Sort::Int, {}));
    } else {
      call = shared;
      // (that code may read the static fields the versions wrote: shared only on equal ones)
      if (std::optional<Term> statics = c.staticWrites()) args.push_back(*statics);
    }
  }
  // String concatenation calls String.valueOf on each argument: the toString() of a program
  // object is shared only when every toString() it may run is the same code in both versions.
  const bool concatCallsBack = site.rfind("concat", 0) == 0 && mayCallBack(c) &&
                               !c.sharedCallOf("java/lang/String", "valueOf", "(Ljava/lang/Object;)Ljava/lang/String;", false);
  if (site.rfind("concat", 0) == 0 && !concatCallsBack && mayCallBack(c))
    if (std::optional<Term> statics = c.staticWrites()) args.push_back(*statics);  // (a toString may read them)
  if (concatCallsBack ||
      (c.owner().empty() && site.rfind("concat", 0) != 0 && site.rfind("lambda:", 0) != 0))
    // A call site other than string concatenation (a lambda, a record's methods): its
    // behaviour is code of the version that made it, so it is never shared between them.
    args.push_back(tm.apply("site#" + std::to_string(c.side().index()), FunKind::Library, Sort::Int, {}));
  // (LambdaMetafactory links once and returns a new function object: it never throws nor returns null)
  const int exact = site.empty() ? exactTotal(c) : 0;
  const bool total = metafactory || exact == 2 ||
                     ((site.rfind("concat", 0) == 0 || totalMethod(c.owner(), c.name())) && !anyNullReference(c));
  c.warn("library call " + display + " is not modelled: an uninterpreted function of its arguments");
  if (!total && exact == 0) {
    // The call may throw: an exception of the call's own pseudo class (docs/interpreter.md).
    auto threw = c.branch(tm.apply("throws:" + call, FunKind::Library, Sort::Bool, args));
    if (!threw) return c.ended();
    if (*threw) return c.throwNew("<exception of " + call + ">");
  }
  for (Term a : c.args())
    if (tm.sort(a) == Sort::Ref && !c.isNull(a) && a != fresh) c.object(a).escaped = true;
  // (LambdaMetafactory only captures its arguments: it runs nothing that could write them)
  if (!metafactory && mayWrite(c)) havocArguments(c, call, args, fresh, callsBack);
  if (fresh) {
    Object& built = c.object(fresh);
    built.opaque = true;
    built.exact_library = built.cls == c.owner();
    built.values_only = !callsBack && built.exact_library && exactCollection(built.cls);  // (a copy of its arguments)
    built.ident = tm.apply("new:" + call, FunKind::Library, Sort::Int, args);
  }
  if (ret.kind == 'V') return ModelResult::none();
  if (ret.kind != 'L' && ret.kind != '[')
    return ModelResult::value(tm.apply(call, FunKind::Library, sortOf(ret), args));
  if (!total && !neverNull(c.owner(), c.name()) && !c.resultDiscarded()) {
    // (counted in a loop: `while (g.getParent() != null) g = g.getParent();` forks here on
    // every iteration, and its own test of the result is no fork any more)
    auto isNull = c.loopBranch(tm.apply("isnull:" + call, FunKind::Library, Sort::Bool, args));
    if (!isNull) return c.ended();
    if (*isNull) return ModelResult::value(tm.nullRef());
  }
  return resultObject(c, call, args, site, metafactory, valuesReceiver, !callsBack);
}

ModelResult invokeDynamicCall(ModelCall& c) {
  // String concatenation is a deterministic function of its recipe and arguments, and so is a
  // lambda whose body is the same function in both versions (ExecOptions::shared_lambda); any
  // other call site is the version's own code (see unknownCall).
  std::string key = c.bootstrapKey();
  bool concat = key.find("java/lang/invoke/StringConcatFactory.") != std::string::npos;
  std::string shared = concat ? "" : c.sharedLambdaSite();
  std::string site = concat ? "concat:" + key.substr(key.find('\0') == std::string::npos ? 0 : key.find('\0') + 1)
                     : !shared.empty() ? shared
                                       : "invokedynamic:" + c.name();
  for (char& ch : site)
    if (ch == '\0') ch = '|';
  const bool metafactory = key.rfind("H6:java/lang/invoke/LambdaMetafactory.", 0) == 0;
  return unknownCall(c, "invokedynamic " + c.name() + c.descriptor(), site, metafactory);
}

void registerUnknownCallModels(LibraryRegistry& r) {
  r.setFallback([](ModelCall& c) { return unknownCall(c, c.owner() + "." + c.name() + c.descriptor(), ""); });
  r.addClass(LibraryRegistry::kInvokeDynamic, invokeDynamicCall);
}

void appendSources(ModelCall& c, std::vector<Term>& args) {
  const Source source = sourceOf(c.owner(), c.name(), c.descriptor());
  if (source == Source::PerObject)
    args.push_back(c.tm().apply("run#" + std::to_string(c.side().index()), FunKind::Library, Sort::Int, {}));
  if (source == Source::Clock)  // (the mark tells the witness stage that a JVM run cannot repeat it)
    args.push_back(c.tm().apply("clock#", FunKind::Library, Sort::Int, {}));
  if (source == Source::Clock || source == Source::Random)
    args.push_back(c.tm().intLit(c.nextCallNumber(c.owner() + "." + c.name() + c.descriptor())));
}

}  // namespace pasda::symexec::lib
