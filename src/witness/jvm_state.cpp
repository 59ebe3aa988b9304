// The state a JVM replay compares besides results: after each call the driver prints what its
// reference inputs (the receiver, arrays and objects given as arguments) hold, and the two
// versions' printouts are compared field by field on the fields both versions declare.
#include <map>
#include <sstream>

#include "driver.hpp"
#include "pasda/product/assembler.hpp"

namespace pasda::witness::detail {

using jvm::Opcode;

namespace {

constexpr const char* kState = "pasdaState";
constexpr const char* kValue = "pasdaValue";
constexpr const char* kToText = "(Ljava/lang/Object;)Ljava/lang/String;";
constexpr const char* kSeparator = " | ";
constexpr const char* kUnknown = "?";

/// A string's UTF-16 units ("[97, 59]"): no separator of the state's format can appear in it.
void unitsOfString(product::Assembler& a) {
  a.invoke(Opcode::invokevirtual, "java/lang/String", "chars", "()Ljava/util/stream/IntStream;");
  a.invoke(Opcode::invokeinterface, "java/util/stream/IntStream", "toArray", "()[I");
  a.invoke(Opcode::invokestatic, "java/util/Arrays", "toString", "([I)Ljava/lang/String;");
}

/// static String pasdaValue(Object v): "null"; a string's or char array's units; a box's value
/// (a Character's code); a primitive array's elements; "obj" for any other object (objects
/// inside objects are not compared).
jvm::Method valueMethod(jvm::ClassFile& cf) {
  product::Assembler a(cf.pool);
  auto test = [&](const std::string& cls, int next) {
    a.load('L', 0);
    typeOp(a, cf.pool, Opcode::instanceof, cls);
    a.jump(Opcode::ifeq, next);
  };
  const int notNull = a.newLabel();
  a.load('L', 0);
  a.jump(Opcode::ifnonnull, notNull);
  a.ldcString("null");
  a.ret('L');
  a.bind(notNull);
  int next = a.newLabel();
  test("java/lang/String", next);
  a.load('L', 0);
  typeOp(a, cf.pool, Opcode::checkcast, "java/lang/String");
  unitsOfString(a);
  a.ret('L');
  a.bind(next);
  next = a.newLabel();
  test("[C", next);
  a.newObject("java/lang/String");
  a.op(Opcode::dup);
  a.load('L', 0);
  typeOp(a, cf.pool, Opcode::checkcast, "[C");
  a.invoke(Opcode::invokespecial, "java/lang/String", "<init>", "([C)V");
  unitsOfString(a);
  a.ret('L');
  a.bind(next);
  next = a.newLabel();
  test("java/lang/Character", next);
  a.load('L', 0);
  typeOp(a, cf.pool, Opcode::checkcast, "java/lang/Character");
  a.invoke(Opcode::invokevirtual, "java/lang/Character", "charValue", "()C");
  a.invoke(Opcode::invokestatic, "java/lang/String", "valueOf", "(I)Ljava/lang/String;");
  a.ret('L');
  a.bind(next);
  for (const char* box : {"Integer", "Long", "Short", "Byte", "Boolean", "Float", "Double"}) {
    next = a.newLabel();
    test(std::string("java/lang/") + box, next);
    a.load('L', 0);
    a.invoke(Opcode::invokestatic, "java/lang/String", "valueOf", kToText);
    a.ret('L');
    a.bind(next);
  }
  const int other = a.newLabel();
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "isArray", "()Z");
  a.jump(Opcode::ifeq, other);
  a.load('L', 0);
  typeOp(a, cf.pool, Opcode::instanceof, "[Ljava/lang/Object;");  // any array of references
  a.jump(Opcode::ifne, other);
  // a primitive array: Arrays.deepToString(new Object[] {v})
  a.iconst(1);
  typeOp(a, cf.pool, Opcode::anewarray, "java/lang/Object");
  a.op(Opcode::dup);
  a.iconst(0);
  a.load('L', 0);
  a.op(Opcode::aastore);
  a.invoke(Opcode::invokestatic, "java/util/Arrays", "deepToString", "([Ljava/lang/Object;)Ljava/lang/String;");
  a.ret('L');
  a.bind(other);
  a.ldcString("obj");
  a.ret('L');
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kValue, kToText, a.finish(), 6, 1, {});
}

/// static String pasdaState(Object o): a value as pasdaValue renders it, or for an object of a
/// class outside the JDK "name=value;" for each instance field it and its superclasses below
/// the JDK declare (a field that cannot be read is left out).
jvm::Method stateMethod(jvm::ClassFile& cf, const std::string& driver) {
  product::Assembler a(cf.pool);
  // locals: 0 o, 1 StringBuilder, 2 class, 3 its fields, 4 index, 5 field, 6 its value's text
  const int fields = a.newLabel(), classes = a.newLabel(), loop = a.newLabel(), nextClass = a.newLabel(),
            nextField = a.newLabel(), end = a.newLabel();
  a.load('L', 0);
  a.invoke(Opcode::invokestatic, driver, kValue, kToText);
  a.op(Opcode::dup);
  a.ldcString("obj");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "equals", "(Ljava/lang/Object;)Z");
  a.jump(Opcode::ifne, fields);
  a.ret('L');
  a.bind(fields);
  a.op(Opcode::pop);
  a.newObject("java/lang/StringBuilder");
  a.op(Opcode::dup);
  a.invoke(Opcode::invokespecial, "java/lang/StringBuilder", "<init>", "()V");
  a.store('L', 1);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.store('L', 2);
  a.bind(classes);
  a.load('L', 2);
  a.jump(Opcode::ifnull, end);
  a.load('L', 2);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.ldcString("java.");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "startsWith", "(Ljava/lang/String;)Z");
  a.jump(Opcode::ifne, end);
  a.load('L', 2);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredFields", "()[Ljava/lang/reflect/Field;");
  a.store('L', 3);
  a.iconst(0);
  a.store('I', 4);
  a.bind(loop);
  a.load('I', 4);
  a.load('L', 3);
  a.op(Opcode::arraylength);
  a.jump(Opcode::if_icmpge, nextClass);
  a.load('L', 3);
  a.load('I', 4);
  a.op(Opcode::aaload);
  a.store('L', 5);
  a.load('L', 5);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "getModifiers", "()I");
  a.iconst(8);  // ACC_STATIC
  a.op(Opcode::iand);
  a.jump(Opcode::ifne, nextField);
  const std::uint16_t start = a.here();
  a.load('L', 5);
  a.iconst(1);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "setAccessible", "(Z)V");
  a.load('L', 5);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
  a.invoke(Opcode::invokestatic, driver, kValue, kToText);
  a.store('L', 6);
  const std::uint16_t stop = a.here();
  a.load('L', 1);
  a.load('L', 5);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "getName", "()Ljava/lang/String;");
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
  a.ldcString("=");
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
  a.load('L', 6);
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
  a.ldcString(";");
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
  a.op(Opcode::pop);
  a.bind(nextField);
  a.op(Opcode::iinc);
  a.u1(4);
  a.u1(1);
  a.jump(Opcode::goto_, loop);
  const std::uint16_t handler = a.here();  // the field cannot be read: left out
  a.op(Opcode::pop);
  a.jump(Opcode::goto_, nextField);
  a.bind(nextClass);
  a.load('L', 2);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getSuperclass", "()Ljava/lang/Class;");
  a.store('L', 2);
  a.jump(Opcode::goto_, classes);
  a.bind(end);
  a.load('L', 1);
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "toString", "()Ljava/lang/String;");
  a.ret('L');
  const std::uint16_t whole = a.here();  // the fields cannot be listed (a class missing): unknown
  a.op(Opcode::pop);
  a.ldcString(kUnknown);
  a.ret('L');
  std::vector<jvm::ExceptionHandler> hs{{start, stop, handler, cf.pool.addClass("java/lang/Throwable")},
                                        {0, whole, whole, cf.pool.addClass("java/lang/Throwable")}};
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kState, kToText, a.finish(), 4, 7, std::move(hs));
}

/// "name=value;" entries of one object's state; a name declared twice (a field hidden by a
/// subclass's) is kept apart by its occurrence.
std::map<std::string, std::string> fieldsOf(const std::string& state) {
  std::map<std::string, std::string> out;
  std::map<std::string, int> seen;
  std::size_t at = 0;
  while (at < state.size()) {
    const std::size_t semi = state.find(';', at);
    const std::string entry = state.substr(at, semi == std::string::npos ? std::string::npos : semi - at);
    at = semi == std::string::npos ? state.size() : semi + 1;
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (int n = seen[name]++; n > 0) name += "#" + std::to_string(n);
    out[name] = entry.substr(eq + 1);
  }
  return out;
}

std::vector<std::string> partsOf(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t sep = line.find(kSeparator, at);
    out.push_back(line.substr(at, sep == std::string::npos ? std::string::npos : sep - at));
    if (sep == std::string::npos) return out;
    at = sep + std::string(kSeparator).size();
  }
}

}  // namespace

void addStateHelpers(jvm::ClassFile& cf, const std::string& driver) {
  cf.methods.push_back(valueMethod(cf));
  cf.methods.push_back(stateMethod(cf, driver));
}

void printState(product::Assembler& a, const std::string& driver, const std::string& prefix,
                const std::vector<int>& slots) {
  if (slots.empty()) return;
  a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.ldcString(prefix + " state ");
  a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
  for (std::size_t i = 0; i < slots.size(); ++i) {
    a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    if (i > 0) {
      a.op(Opcode::dup);
      a.ldcString(kSeparator);
      a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
    }
    a.load('L', slots[i]);
    a.invoke(Opcode::invokestatic, driver, kState, kToText);
    a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
  }
  a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", "()V");
}

std::string stateDifference(const std::string& oldState, const std::string& newState,
                            const std::vector<std::string>& names) {
  const std::vector<std::string> o = partsOf(oldState), n = partsOf(newState);
  if (o.size() != n.size()) return "";  // (not the same inputs: nothing to compare)
  for (std::size_t i = 0; i < o.size(); ++i) {
    const std::string who = i < names.size() ? names[i] : "input " + std::to_string(i);
    if (o[i] == kUnknown || n[i] == kUnknown) continue;
    const bool objects = o[i].find('=') != std::string::npos || n[i].find('=') != std::string::npos;
    if (!objects) {
      if (o[i] != n[i]) return who + ": " + o[i] + " vs " + n[i];
      continue;
    }
    const auto of = fieldsOf(o[i]), nf = fieldsOf(n[i]);
    for (const auto& [field, value] : of) {
      auto it = nf.find(field);  // a field of one version only is not compared
      if (it != nf.end() && it->second != value) return who + "." + field + ": " + value + " vs " + it->second;
    }
  }
  return "";
}

}  // namespace pasda::witness::detail
