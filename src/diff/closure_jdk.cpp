// The closure oracle's knowledge of the JDK, as tables (docs/release-diff.md lists the rules).
// Each table only narrows a conservative default: a JDK method or type missing here may call
// back any overridable method of the analysed classes, and may be a supertype of anything.
#include "closure_jdk.hpp"

#include <map>
#include <set>

namespace pasda::diff::detail {

namespace {

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
bool endsWith(const std::string& s, const std::string& q) {
  return s.size() >= q.size() && s.compare(s.size() - q.size(), q.size(), q) == 0;
}

// (bits, covers_this): covers_this entries were written with an analysed subclass as `this`
// in mind (e.g. Object.toString calls this.hashCode()).
const std::map<std::string, KnownCallBacks> kKnown = {
    {"java/lang/Object.<init>", {0, true}},
    {"java/lang/Object.getClass", {0, true}},
    {"java/lang/Object.equals", {0, true}},
    {"java/lang/Object.hashCode", {0, true}},
    {"java/lang/Object.clone", {0, true}},
    {"java/lang/Object.toString", {kHashCode, true}},
    {"java/lang/Enum.<init>", {0, true}},
    {"java/lang/Enum.name", {0, true}},
    {"java/lang/Enum.ordinal", {0, true}},
    {"java/lang/Enum.toString", {0, true}},
    {"java/lang/Enum.equals", {0, true}},
    {"java/lang/Enum.hashCode", {0, true}},
    {"java/lang/Enum.compareTo", {0, true}},
    {"java/lang/Enum.getDeclaringClass", {0, true}},
    {"java/lang/Enum.valueOf", {0, true}},  // values() is followed by the enum rule
    {"java/lang/Number.<init>", {0, true}},
    {"java/lang/Throwable.<init>", {kToString, true}},  // Throwable(Throwable) calls cause.toString()
    {"java/lang/Throwable.getMessage", {0, true}},
    {"java/lang/Throwable.getCause", {0, true}},
    {"java/lang/Throwable.initCause", {kToString, true}},
    {"java/lang/Throwable.addSuppressed", {0, true}},
    {"java/lang/Throwable.getSuppressed", {0, true}},
    {"java/lang/Throwable.getStackTrace", {0, true}},
    {"java/lang/Throwable.setStackTrace", {0, true}},
    {"java/lang/Throwable.fillInStackTrace", {0, true}},
    {"java/lang/String.valueOf", {kToString, false}},
    {"java/lang/String.equals", {0, false}},
    {"java/lang/String.format", {kToString | kHashCode | kFormattable, false}},
    {"java/util/Formatter.format", {kToString | kHashCode | kFormattable, false}},
    {"java/util/regex/Pattern.matcher", {kCharSequence, false}},
    {"java/util/regex/Pattern.matches", {kCharSequence, false}},
    {"java/util/regex/Matcher.matches", {kCharSequence, false}},
    {"java/util/regex/Matcher.find", {kCharSequence, false}},
    {"java/util/regex/Matcher.lookingAt", {kCharSequence, false}},
    {"java/util/regex/Matcher.group", {kCharSequence, false}},
    {"java/util/regex/Matcher.start", {0, false}},
    {"java/util/regex/Matcher.end", {0, false}},
    {"java/util/regex/Matcher.groupCount", {0, false}},
    {"java/util/concurrent/TimeUnit.*", {0, false}},
    {"java/lang/reflect/Type.*", {0, false}},
    {"java/lang/reflect/ParameterizedType.*", {0, false}},
    {"java/lang/reflect/GenericArrayType.*", {0, false}},
    {"java/lang/reflect/WildcardType.*", {0, false}},
    {"java/lang/reflect/TypeVariable.*", {0, false}},
    {"java/lang/StringBuilder.append", {kToString | kCharSequence, false}},
    {"java/lang/StringBuilder.insert", {kToString | kCharSequence, false}},
    {"java/lang/StringBuffer.append", {kToString | kCharSequence, false}},
    {"java/lang/StringBuffer.insert", {kToString | kCharSequence, false}},
    {"java/lang/CharSequence.length", {0, false}},
    {"java/lang/CharSequence.charAt", {0, false}},
    {"java/lang/CharSequence.toString", {0, false}},
    {"java/lang/CharSequence.subSequence", {0, false}},
    {"java/lang/Comparable.compareTo", {0, false}},  // the JDK's own Comparables compare values
    {"java/lang/Class.isInstance", {0, false}},
    {"java/lang/Class.cast", {0, false}},
    {"java/lang/System.arraycopy", {0, false}},
    {"java/lang/System.identityHashCode", {0, false}},
    {"java/io/PrintStream.print", {kToString, false}},
    {"java/io/PrintStream.println", {kToString, false}},
    {"java/util/Objects.equals", {kEquals, false}},
    {"java/util/Objects.deepEquals", {kEquals, false}},
    {"java/util/Objects.hashCode", {kHashCode, false}},
    {"java/util/Objects.hash", {kHashCode, false}},
    {"java/util/Objects.toString", {kToString, false}},
    {"java/util/Objects.isNull", {0, false}},
    {"java/util/Objects.nonNull", {0, false}},
    {"java/util/Objects.requireNonNull", {0, false}},
    {"java/util/Objects.requireNonNullElse", {0, false}},
    {"java/util/Arrays.toString", {kToString, false}},
    {"java/util/Arrays.deepToString", {kToString, false}},
    {"java/util/Arrays.equals", {kEquals, false}},
    {"java/util/Arrays.deepEquals", {kEquals, false}},
    {"java/util/Arrays.hashCode", {kHashCode, false}},
    {"java/util/Arrays.deepHashCode", {kHashCode, false}},
    {"java/util/Arrays.fill", {0, false}},
    {"java/util/Arrays.copyOf", {0, false}},
    {"java/util/Arrays.copyOfRange", {0, false}},
    {"java/util/Arrays.asList", {0, false}},
    {"java/util/List.size", {0, false}},
    {"java/util/List.isEmpty", {0, false}},
    {"java/util/List.get", {0, false}},
    {"java/util/List.add:(Ljava/lang/Object;)Z", {0, false}},
    {"java/util/List.toArray", {0, false}},
    {"java/util/List.contains", {kEquals, false}},
    {"java/util/List.indexOf", {kEquals, false}},
    {"java/util/Collection.size", {0, false}},
    {"java/util/Collection.isEmpty", {0, false}},
    {"java/util/Collection.toArray", {0, false}},
    {"java/util/ArrayList.<init>:()V", {0, false}},
    {"java/util/ArrayList.<init>:(I)V", {0, false}},
    {"java/util/ArrayList.add:(Ljava/lang/Object;)Z", {0, false}},
    {"java/util/ArrayList.size", {0, false}},
    {"java/util/ArrayList.get", {0, false}},
    {"java/util/ArrayList.isEmpty", {0, false}},
    {"java/util/ArrayList.toArray", {0, false}},
    {"java/util/HashMap.<init>:()V", {0, false}},
    {"java/util/HashMap.<init>:(I)V", {0, false}},
    {"java/util/HashSet.<init>:()V", {0, false}},
    {"java/util/HashSet.<init>:(I)V", {0, false}},
    {"java/util/Map$Entry.getKey", {0, false}},
    {"java/util/Map$Entry.getValue", {0, false}},
    {"java/text/ParsePosition.<init>", {0, false}},
    {"java/text/ParsePosition.getIndex", {0, false}},
    {"java/text/ParsePosition.setIndex", {0, false}},
    {"java/text/ParsePosition.getErrorIndex", {0, false}},
    {"java/text/ParsePosition.setErrorIndex", {0, false}},
    {"java/util/BitSet.<init>", {0, false}},
    {"java/util/BitSet.set", {0, false}},
    {"java/util/BitSet.get", {0, false}},
    {"java/util/BitSet.clear", {0, false}},
    {"java/util/Random.<init>", {0, false}},
    {"java/util/Random.nextInt", {0, false}},
    {"java/util/Random.nextLong", {0, false}},
    {"java/util/Random.nextDouble", {0, false}},
    {"java/util/Random.nextBoolean", {0, false}},
    {"java/util/Date.<init>:()V", {0, false}},
    {"java/util/Date.<init>:(J)V", {0, false}},
    {"java/util/Date.getTime", {0, false}},
    {"java/util/concurrent/atomic/AtomicReference.<init>", {0, false}},
    {"java/util/concurrent/atomic/AtomicReference.get", {0, false}},
    {"java/util/concurrent/atomic/AtomicReference.set", {0, false}},
    {"java/util/concurrent/atomic/AtomicReference.compareAndSet", {0, false}},
    {"java/util/concurrent/TimeUnit.ordinal", {0, false}},
    {"java/nio/charset/Charset.name", {0, false}},
    {"java/lang/reflect/Array.getLength", {0, false}},
    {"java/lang/reflect/Array.newInstance", {0, false}},
};

// The full JDK ancestry (java/lang/Object left out) of the JDK types analysed classes often
// extend or implement.
const std::map<std::string, std::vector<std::string>> kSupertypes = {
    {"java/lang/Throwable", {"java/io/Serializable"}},
    {"java/lang/Exception", {"java/lang/Throwable", "java/io/Serializable"}},
    {"java/lang/RuntimeException", {"java/lang/Exception", "java/lang/Throwable", "java/io/Serializable"}},
    {"java/lang/Error", {"java/lang/Throwable", "java/io/Serializable"}},
    {"java/lang/Enum", {"java/lang/Comparable", "java/io/Serializable", "java/lang/constant/Constable"}},
    {"java/lang/Number", {"java/io/Serializable"}},
    {"java/lang/Record", {}},
    {"java/lang/Thread", {"java/lang/Runnable"}},
    {"java/io/Closeable", {"java/lang/AutoCloseable"}},
    {"java/io/Writer", {"java/lang/Appendable", "java/io/Closeable", "java/io/Flushable", "java/lang/AutoCloseable"}},
    {"java/io/Reader", {"java/lang/Readable", "java/io/Closeable", "java/lang/AutoCloseable"}},
    {"java/io/InputStream", {"java/io/Closeable", "java/lang/AutoCloseable"}},
    {"java/io/OutputStream", {"java/io/Closeable", "java/io/Flushable", "java/lang/AutoCloseable"}},
    {"java/io/ObjectInputStream",
     {"java/io/InputStream", "java/io/ObjectInput", "java/io/DataInput", "java/io/ObjectStreamConstants",
      "java/io/Closeable", "java/lang/AutoCloseable"}},
    {"java/util/ListIterator", {"java/util/Iterator"}},
    {"java/util/Collection", {"java/lang/Iterable"}},
    {"java/util/List", {"java/util/Collection", "java/lang/Iterable"}},
    {"java/util/Set", {"java/util/Collection", "java/lang/Iterable"}},
    {"java/util/AbstractCollection", {"java/util/Collection", "java/lang/Iterable"}},
    {"java/util/AbstractList", {"java/util/AbstractCollection", "java/util/List", "java/util/Collection", "java/lang/Iterable"}},
    {"java/util/AbstractSet", {"java/util/AbstractCollection", "java/util/Set", "java/util/Collection", "java/lang/Iterable"}},
    {"java/util/AbstractMap", {"java/util/Map"}},
    {"java/util/TimeZone", {"java/io/Serializable", "java/lang/Cloneable"}},
    {"java/util/StringTokenizer", {"java/util/Enumeration"}},
    {"java/util/Spliterators$AbstractSpliterator", {"java/util/Spliterator"}},
    {"java/util/concurrent/locks/ReentrantLock", {"java/util/concurrent/locks/Lock", "java/io/Serializable"}},
    {"java/util/concurrent/locks/StampedLock", {"java/io/Serializable"}},
    {"java/text/Format", {"java/io/Serializable", "java/lang/Cloneable"}},
    {"java/text/MessageFormat", {"java/text/Format", "java/io/Serializable", "java/lang/Cloneable"}},
    {"java/lang/reflect/ParameterizedType", {"java/lang/reflect/Type"}},
    {"java/lang/reflect/WildcardType", {"java/lang/reflect/Type"}},
    {"java/lang/reflect/GenericArrayType", {"java/lang/reflect/Type"}},
    {"java/lang/reflect/TypeVariable", {"java/lang/reflect/Type"}},
};

// JDK interfaces without JDK superinterfaces.
const std::set<std::string> kRootInterfaces = {
    "java/lang/Comparable", "java/lang/Cloneable", "java/io/Serializable", "java/lang/Runnable",
    "java/lang/Iterable", "java/lang/Appendable", "java/lang/CharSequence", "java/lang/AutoCloseable",
    "java/lang/Readable", "java/io/Flushable", "java/util/Iterator", "java/util/Map", "java/util/Map$Entry",
    "java/util/Comparator", "java/util/Enumeration", "java/util/Spliterator", "java/util/RandomAccess",
    "java/util/concurrent/Callable", "java/util/concurrent/Future", "java/util/concurrent/ThreadFactory",
    "java/util/concurrent/Executor", "java/util/concurrent/locks/Lock", "java/util/concurrent/locks/ReadWriteLock",
    "java/util/stream/Collector", "java/lang/reflect/Type", "java/lang/reflect/InvocationHandler",
    "java/lang/annotation/Annotation", "java/util/Formattable"};

const std::map<std::string, std::vector<std::string>> kOverridable = {
    {"java/lang/Object",
     {"equals:(Ljava/lang/Object;)Z", "hashCode:()I", "toString:()Ljava/lang/String;", "clone:()Ljava/lang/Object;",
      "finalize:()V"}},
    {"java/lang/Enum", {"toString:()Ljava/lang/String;"}},
    {"java/lang/Cloneable", {}},
    {"java/io/Serializable", {}},
    {"java/lang/constant/Constable", {}},
    {"java/lang/Comparable", {"compareTo:(Ljava/lang/Object;)I"}},
    {"java/lang/Runnable", {"run:()V"}},
    {"java/lang/Number",
     {"intValue:()I", "longValue:()J", "floatValue:()F", "doubleValue:()D", "byteValue:()B", "shortValue:()S"}},
};

}  // namespace

const std::vector<unsigned>& callBackBits() {
  static const std::vector<unsigned> bits = {kToString, kEquals, kHashCode, kCompareTo, kCharSequence, kFormattable, kAny};
  return bits;
}

const char* callBackName(unsigned bit) {
  switch (bit) {
    case kToString: return "toString";
    case kEquals: return "equals";
    case kHashCode: return "hashCode";
    case kCompareTo: return "compareTo";
    case kCharSequence: return "CharSequence";
    case kFormattable: return "formatTo";
    default: return "any";
  }
}

const std::vector<std::string>& callBackMethods(unsigned bit) {
  static const std::map<unsigned, std::vector<std::string>> methods = {
      {kToString, {"toString:()Ljava/lang/String;"}},
      {kEquals, {"equals:(Ljava/lang/Object;)Z"}},
      {kHashCode, {"hashCode:()I"}},
      {kCompareTo, {"compareTo:(Ljava/lang/Object;)I"}},
      {kCharSequence,
       {"length:()I", "charAt:(I)C", "subSequence:(II)Ljava/lang/CharSequence;", "toString:()Ljava/lang/String;",
        "isEmpty:()Z", "chars:()Ljava/util/stream/IntStream;", "codePoints:()Ljava/util/stream/IntStream;"}},
      {kFormattable, {"formatTo:(Ljava/util/Formatter;III)V"}},
  };
  static const std::vector<std::string> none;
  auto it = methods.find(bit);
  return it == methods.end() ? none : it->second;
}

std::optional<KnownCallBacks> knownCallBacks(const std::string& owner, const std::string& name, const std::string& desc) {
  auto it = kKnown.find(owner + "." + name + ":" + desc);
  if (it == kKnown.end()) it = kKnown.find(owner + "." + name);
  if (it == kKnown.end()) it = kKnown.find(owner + ".*");
  if (it != kKnown.end()) return it->second;
  // Constructors of the JDK's own exceptions only store a message and a cause (Throwable's).
  auto slash = owner.rfind('/');
  const std::string simple = owner.substr(slash == std::string::npos ? 0 : slash + 1);
  const bool jdkPackage = startsWith(owner, "java/lang/") || startsWith(owner, "java/util/") ||
                          startsWith(owner, "java/io/");
  if (jdkPackage && name == "<init>" && simple.find('$') == std::string::npos &&
      (endsWith(simple, "Exception") || endsWith(simple, "Error")))
    return KnownCallBacks{kToString, true};
  return std::nullopt;
}

bool inertJdkType(const std::string& n) {
  static const std::set<std::string> inert = {
      "java/lang/String", "java/lang/Integer", "java/lang/Long", "java/lang/Short", "java/lang/Byte",
      "java/lang/Character", "java/lang/Boolean", "java/lang/Float", "java/lang/Double", "java/lang/StringBuilder",
      "java/lang/StringBuffer", "java/lang/Void", "java/lang/Class", "java/lang/Math", "java/lang/StrictMath",
      "java/lang/System", "java/util/Locale", "java/lang/reflect/Field", "java/lang/reflect/Method",
      "java/lang/reflect/Constructor", "java/lang/reflect/Parameter", "java/lang/reflect/Modifier"};
  // (the reflective calls among their methods are caught before this is asked)
  return inert.count(n) > 0;
}

bool reflectiveCall(const std::string& owner, const std::string& name) {
  static const std::set<std::string> fieldAccess = {
      "get", "getBoolean", "getByte", "getChar", "getShort", "getInt", "getLong", "getFloat", "getDouble",
      "set", "setBoolean", "setByte", "setChar", "setShort", "setInt", "setLong", "setFloat", "setDouble"};
  if (owner == "java/lang/reflect/Method") return name == "invoke";
  if (owner == "java/lang/reflect/Constructor") return name == "newInstance";
  if (owner == "java/lang/reflect/Field") return fieldAccess.count(name) > 0;
  if (owner == "java/lang/reflect/Proxy") return name == "newProxyInstance";
  if (owner == "java/lang/Class") return name == "forName" || name == "newInstance";
  if (owner == "java/lang/ClassLoader") return name == "loadClass" || name == "findClass";
  if (owner == "java/lang/invoke/MethodHandle") return startsWith(name, "invoke");
  if (owner == "java/lang/invoke/MethodHandles$Lookup") return startsWith(name, "find") || startsWith(name, "unreflect");
  return startsWith(owner, "java/util/ServiceLoader") || startsWith(owner, "java/beans/") ||
         owner == "sun/misc/Unsafe" || startsWith(owner, "jdk/internal/");
}

bool enumReflectiveCall(const std::string& owner, const std::string& name) {
  return (owner == "java/lang/Enum" && name == "valueOf") || owner == "java/util/EnumSet" ||
         (owner == "java/util/EnumMap" && name == "<init>") ||
         (owner == "java/lang/Class" && name == "getEnumConstants");
}

std::optional<std::vector<std::string>> jdkSupertypes(const std::string& name) {
  auto it = kSupertypes.find(name);
  if (it != kSupertypes.end()) return it->second;
  if (kRootInterfaces.count(name) || startsWith(name, "java/util/function/")) return std::vector<std::string>{};
  // The JDK's exceptions and errors: a superset of their possible ancestry is sound here.
  if ((startsWith(name, "java/")) && (endsWith(name, "Exception") || endsWith(name, "Error")))
    return std::vector<std::string>{"java/lang/Throwable", "java/lang/Exception", "java/lang/RuntimeException",
                                    "java/lang/Error", "java/io/Serializable"};
  return std::nullopt;
}

std::optional<std::vector<std::string>> overridableJdkMethods(const std::string& type) {
  auto it = kOverridable.find(type);
  if (it == kOverridable.end()) return std::nullopt;
  return it->second;
}

bool serializationHook(const std::string& md) {
  static const std::set<std::string> hooks = {
      "writeObject:(Ljava/io/ObjectOutputStream;)V", "readObject:(Ljava/io/ObjectInputStream;)V",
      "readObjectNoData:()V", "writeReplace:()Ljava/lang/Object;", "readResolve:()Ljava/lang/Object;"};
  return hooks.count(md) > 0;
}

}  // namespace pasda::diff::detail
