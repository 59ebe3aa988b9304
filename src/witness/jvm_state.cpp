// The state a JVM replay compares besides results: after each call the driver prints what its
// reference inputs (the receiver, arrays and objects given as arguments), an object result and
// the analysed class's non-final static fields hold, objects inside objects included (to a
// bound), and the two versions' printouts are compared as graphs, up to isomorphism, on the
// fields both versions declare.
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
constexpr const char* kStatics = "pasdaStatics";
constexpr const char* kBeforeAfter = " ~ ";
constexpr const char* kStaticsDesc = "(Ljava/lang/Class;)Ljava/lang/String;";

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

/// Appends the char `c` to the StringBuilder on the stack (which stays).
void appendChar(product::Assembler& a, char c) {
  a.iconst(static_cast<int>(c));
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(C)Ljava/lang/StringBuilder;");
}
void appendText(product::Assembler& a) {
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
}

/// Jumps to `opaque` when the class name in local `slot` is the JDK's (whose fields the state
/// does not read: modules close them, and they are the same code in both versions).
void jumpIfJdkName(product::Assembler& a, int slot, int opaque) {
  for (const char* prefix : {"java.", "javax.", "jdk.", "sun.", "com.sun."}) {
    a.load('L', slot);
    a.ldcString(prefix);
    a.invoke(Opcode::invokevirtual, "java/lang/String", "startsWith", "(Ljava/lang/String;)Z");
    a.jump(Opcode::ifne, opaque);
  }
}

constexpr const char* kDeep = "pasdaDeep";
constexpr const char* kDeepDesc = "(Ljava/lang/Object;Ljava/util/IdentityHashMap;I)Ljava/lang/String;";
constexpr int kDepth = 4;         // levels of objects below an input
constexpr int kMaxObjects = 256;  // objects rendered per input
constexpr int kMaxElements = 64;  // elements of a reference array or list

/// new StringBuilder(text), on the stack.
void newBuilder(product::Assembler& a, const std::string& text) {
  a.newObject("java/lang/StringBuilder");
  a.op(Opcode::dup);
  a.ldcString(text);
  a.invoke(Opcode::invokespecial, "java/lang/StringBuilder", "<init>", "(Ljava/lang/String;)V");
}

/// return builder.toString() (the builder on the stack).
void returnText(product::Assembler& a) {
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "toString", "()Ljava/lang/String;");
  a.ret('L');
}

/// The head of `for (index = 0; index < array.length; index++)` over the array in local
/// `array`: jumps to `done` when the index reaches its length. Returns the label that
/// endArrayLoop goes back to.
int beginArrayLoop(product::Assembler& a, int array, int index, int done) {
  const int loop = a.newLabel();
  a.iconst(0);
  a.store('I', index);
  a.bind(loop);
  a.load('I', index);
  a.load('L', array);
  a.op(Opcode::arraylength);
  a.jump(Opcode::if_icmpge, done);
  return loop;
}

/// The end of that loop: index++ and back to its head.
void endArrayLoop(product::Assembler& a, int index, int loop) {
  a.op(Opcode::iinc);
  a.u1(static_cast<std::uint8_t>(index));
  a.u1(1);
  a.jump(Opcode::goto_, loop);
}

/// One loop over an array of reflected fields, appending "name=value;" for each field that
/// passes its filter (the value as pasdaDeep renders it; a field that cannot be read is left
/// out). Shared by the instance fields of pasdaDeep and the static fields of pasdaStatics.
struct FieldLoop {
  int fields = -1, index = -1, field = -1, text = -1, builder = -1, seen = -1;  // locals
  int object = -1;  // the object whose fields are read; -1: static fields (Field.get(null))
  int depth = -1;   // the local holding the depth, rendered at depth - 1; -1: at kDepth - 1
  int mask = 0;     // a field is rendered when (modifiers & mask) == keep ...
  int keep = 0;
  bool skip_synthetic = false;  // ... and, if set, Field.isSynthetic() is false
};

/// Emits the loop of `l`; jumps to `done` after the last field. Returns the handler of the
/// field reads, for the method's exception table.
jvm::ExceptionHandler emitFieldLoop(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver,
                                    const FieldLoop& l, int done) {
  const int next = a.newLabel();
  const int loop = beginArrayLoop(a, l.fields, l.index, done);
  a.load('L', l.fields);
  a.load('I', l.index);
  a.op(Opcode::aaload);
  a.store('L', l.field);
  a.load('L', l.field);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "getModifiers", "()I");
  a.iconst(l.mask);
  a.op(Opcode::iand);
  if (l.keep == 0) {
    a.jump(Opcode::ifne, next);
  } else {
    a.iconst(l.keep);
    a.jump(Opcode::if_icmpne, next);
  }
  if (l.skip_synthetic) {
    a.load('L', l.field);
    a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "isSynthetic", "()Z");
    a.jump(Opcode::ifne, next);
  }
  const std::uint16_t start = a.here();
  a.load('L', l.field);
  a.iconst(1);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "setAccessible", "(Z)V");
  a.load('L', l.field);
  if (l.object >= 0) a.load('L', l.object);
  else a.op(Opcode::aconst_null);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
  a.load('L', l.seen);
  if (l.depth >= 0) {
    a.load('I', l.depth);
    a.iconst(1);
    a.op(Opcode::isub);
  } else {
    a.iconst(kDepth - 1);
  }
  a.invoke(Opcode::invokestatic, driver, kDeep, kDeepDesc);
  a.store('L', l.text);
  const std::uint16_t stop = a.here();
  a.load('L', l.builder);
  a.load('L', l.field);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Field", "getName", "()Ljava/lang/String;");
  appendText(a);
  appendChar(a, '=');
  a.load('L', l.text);
  appendText(a);
  appendChar(a, ';');
  a.op(Opcode::pop);
  a.bind(next);
  endArrayLoop(a, l.index, loop);
  const std::uint16_t handler = a.here();  // the field cannot be read: left out
  a.op(Opcode::pop);
  a.jump(Opcode::goto_, next);
  return {start, stop, handler, pool.addClass("java/lang/Throwable")};
}

// pasdaDeep's locals: 0 v, 1 seen, 2 depth, 3 text, 4 id, 5 builder, 6 class, 7 fields,
// 8 index, 9 field, 10 elements.
constexpr int kDeepLocals = 11;

/// pasdaDeep, step 1: what pasdaValue renders (null, strings, boxes, primitive arrays), an
/// enum constant by name, and "obj" past the depth are returned at once; jumps to `deep`
/// for the objects it renders, to `opaque` ("obj") for the others.
void emitDeepLeaves(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, int deep,
                    int opaque) {
  const int object = a.newLabel(), notEnum = a.newLabel(), rendered = a.newLabel();
  a.load('L', 0);
  a.invoke(Opcode::invokestatic, driver, kValue, kToText);
  a.op(Opcode::dup);
  a.store('L', 3);
  a.ldcString("obj");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "equals", "(Ljava/lang/Object;)Z");
  a.jump(Opcode::ifne, object);
  a.load('L', 3);
  a.ret('L');
  a.bind(object);
  a.load('L', 0);
  typeOp(a, pool, Opcode::instanceof, "java/lang/Enum");
  a.jump(Opcode::ifeq, notEnum);
  newBuilder(a, "enum ");
  a.load('L', 0);
  typeOp(a, pool, Opcode::checkcast, "java/lang/Enum");
  a.invoke(Opcode::invokevirtual, "java/lang/Enum", "name", "()Ljava/lang/String;");
  appendText(a);
  returnText(a);
  a.bind(notEnum);
  a.load('I', 2);
  a.jump(Opcode::ifle, opaque);
  // reference arrays and lists are rendered; other JDK objects and lambdas' classes (synthetic,
  // their fields what they captured, which each compiler arranges its own way) are not
  a.load('L', 0);
  typeOp(a, pool, Opcode::instanceof, "[Ljava/lang/Object;");
  a.jump(Opcode::ifne, rendered);
  a.load('L', 0);
  typeOp(a, pool, Opcode::instanceof, "java/util/List");
  a.jump(Opcode::ifne, rendered);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.store('L', 3);
  jumpIfJdkName(a, 3, opaque);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "isSynthetic", "()Z");
  a.jump(Opcode::ifne, opaque);
  a.load('L', 3);
  a.ldcString("$$Lambda");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "contains", "(Ljava/lang/CharSequence;)Z");
  a.jump(Opcode::ifne, opaque);
  a.bind(rendered);
  a.jump(Opcode::goto_, deep);
}

/// pasdaDeep, step 2: an object met before returns "#k"; a new one (while fewer than
/// kMaxObjects are numbered) gets the next number and a builder holding "#k" in local 5.
void emitDeepNumbering(product::Assembler& a, int opaque) {
  const int fresh = a.newLabel();
  a.load('L', 1);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/util/IdentityHashMap", "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
  a.op(Opcode::dup);
  a.jump(Opcode::ifnull, fresh);
  a.store('L', 4);
  newBuilder(a, "#");
  a.load('L', 4);
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/Object;)Ljava/lang/StringBuilder;");
  returnText(a);
  a.bind(fresh);
  a.op(Opcode::pop);
  a.load('L', 1);
  a.invoke(Opcode::invokevirtual, "java/util/IdentityHashMap", "size", "()I");
  a.iconst(kMaxObjects);
  a.jump(Opcode::if_icmpge, opaque);
  a.load('L', 1);
  a.invoke(Opcode::invokevirtual, "java/util/IdentityHashMap", "size", "()I");
  a.invoke(Opcode::invokestatic, "java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;");
  a.store('L', 4);
  a.load('L', 1);
  a.load('L', 0);
  a.load('L', 4);
  a.invoke(Opcode::invokevirtual, "java/util/IdentityHashMap", "put",
           "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
  a.op(Opcode::pop);
  newBuilder(a, "#");
  a.load('L', 4);
  a.invoke(Opcode::invokevirtual, "java/lang/StringBuilder", "append", "(Ljava/lang/Object;)Ljava/lang/StringBuilder;");
  a.store('L', 5);
}

/// pasdaDeep, step 3a: a reference array or a list, "<e0;e1;...>" (up to kMaxElements, else
/// "obj"); jumps to `notSequence` for any other object.
void emitDeepElements(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, int notSequence,
                      int opaque) {
  const int notArray = a.newLabel(), elements = a.newLabel(), end = a.newLabel();
  a.load('L', 0);
  typeOp(a, pool, Opcode::instanceof, "[Ljava/lang/Object;");
  a.jump(Opcode::ifeq, notArray);
  a.load('L', 0);
  typeOp(a, pool, Opcode::checkcast, "[Ljava/lang/Object;");
  a.store('L', 10);
  a.jump(Opcode::goto_, elements);
  a.bind(notArray);
  a.load('L', 0);
  typeOp(a, pool, Opcode::instanceof, "java/util/List");
  a.jump(Opcode::ifeq, notSequence);
  a.load('L', 0);
  typeOp(a, pool, Opcode::checkcast, "java/util/List");
  a.invoke(Opcode::invokeinterface, "java/util/List", "toArray", "()[Ljava/lang/Object;");
  a.store('L', 10);
  a.bind(elements);
  a.load('L', 10);
  a.op(Opcode::arraylength);
  a.iconst(kMaxElements);
  a.jump(Opcode::if_icmpgt, opaque);
  a.load('L', 5);
  appendChar(a, '<');
  a.op(Opcode::pop);
  const int loop = beginArrayLoop(a, 10, 8, end);
  a.load('L', 5);
  a.load('L', 10);
  a.load('I', 8);
  a.op(Opcode::aaload);
  a.load('L', 1);
  a.load('I', 2);
  a.iconst(1);
  a.op(Opcode::isub);
  a.invoke(Opcode::invokestatic, driver, kDeep, kDeepDesc);
  appendText(a);
  appendChar(a, ';');
  a.op(Opcode::pop);
  endArrayLoop(a, 8, loop);
  a.bind(end);
  a.load('L', 5);
  appendChar(a, '>');
  returnText(a);
}

/// pasdaDeep, step 3b: an object, "{name=value;...}" over its instance fields (statics and
/// synthetic fields aside), class by class up to the JDK.
jvm::ExceptionHandler emitDeepFields(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver) {
  const int classes = a.newLabel(), nextClass = a.newLabel(), end = a.newLabel();
  a.load('L', 5);
  appendChar(a, '{');
  a.op(Opcode::pop);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.store('L', 6);
  a.bind(classes);
  a.load('L', 6);
  a.jump(Opcode::ifnull, end);
  a.load('L', 6);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.store('L', 3);
  jumpIfJdkName(a, 3, end);
  a.load('L', 6);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredFields", "()[Ljava/lang/reflect/Field;");
  a.store('L', 7);
  FieldLoop l;
  l.fields = 7, l.index = 8, l.field = 9, l.text = 3, l.builder = 5, l.seen = 1, l.object = 0, l.depth = 2;
  l.mask = 8 | 0x1000;  // ACC_STATIC, ACC_SYNTHETIC (this$0, val$x: how javac compiled a capture)
  l.keep = 0;
  const jvm::ExceptionHandler h = emitFieldLoop(a, pool, driver, l, nextClass);
  a.bind(nextClass);
  a.load('L', 6);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getSuperclass", "()Ljava/lang/Class;");
  a.store('L', 6);
  a.jump(Opcode::goto_, classes);
  a.bind(end);
  a.load('L', 5);
  appendChar(a, '}');
  returnText(a);
  return h;
}

/// static String pasdaDeep(Object v, IdentityHashMap seen, int depth): what pasdaValue renders
/// for null, strings, boxes and primitive arrays; "enum NAME" for an enum constant; for an
/// object of a class outside the JDK "#k{name=value;...}" over the instance fields it and its
/// superclasses below the JDK declare (synthetic ones and lambdas' classes aside), for a
/// reference array or a List "#k<e0;e1;...>", where k numbers the objects in the order first
/// met and a second meeting prints "#k" alone (the shape of the graph, which the comparison
/// matches up to isomorphism); "obj" past the depth, the object or element bounds, or for
/// other JDK objects (not compared).
jvm::Method deepMethod(jvm::ClassFile& cf, const std::string& driver) {
  product::Assembler a(cf.pool);
  const int deep = a.newLabel(), opaque = a.newLabel(), fields = a.newLabel();
  emitDeepLeaves(a, cf.pool, driver, deep, opaque);
  a.bind(opaque);
  a.ldcString("obj");
  a.ret('L');
  a.bind(deep);
  emitDeepNumbering(a, opaque);
  emitDeepElements(a, cf.pool, driver, fields, opaque);
  a.bind(fields);
  std::vector<jvm::ExceptionHandler> hs{emitDeepFields(a, cf.pool, driver)};
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kDeep, kDeepDesc, a.finish(), 6, kDeepLocals,
                             std::move(hs));
}

/// static String pasdaState(Object o): pasdaDeep(o) over a map of its own, or "?" when the
/// state cannot be rendered (a class missing, a list whose toArray fails).
jvm::Method stateMethod(jvm::ClassFile& cf, const std::string& driver) {
  product::Assembler a(cf.pool);
  a.load('L', 0);
  a.newObject("java/util/IdentityHashMap");
  a.op(Opcode::dup);
  a.invoke(Opcode::invokespecial, "java/util/IdentityHashMap", "<init>", "()V");
  a.iconst(kDepth);
  a.invoke(Opcode::invokestatic, driver, kDeep, kDeepDesc);
  a.ret('L');
  const std::uint16_t whole = a.here();
  a.op(Opcode::pop);
  a.ldcString(kUnknown);
  a.ret('L');
  std::vector<jvm::ExceptionHandler> hs{{0, whole, whole, cf.pool.addClass("java/lang/Throwable")}};
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kState, kToText, a.finish(), 5, 1, std::move(hs));
}

/// static String pasdaStatics(Class c): "{name=value;...}" over the non-final static fields c
/// declares (synthetic ones aside), each rendered as pasdaDeep does; "?" when they cannot be
/// listed.
jvm::Method staticsMethod(jvm::ClassFile& cf, const std::string& driver) {
  product::Assembler a(cf.pool);
  // locals: 0 class, 1 seen, 2 builder, 3 fields, 4 index, 5 field, 6 text
  const int end = a.newLabel();
  a.newObject("java/util/IdentityHashMap");
  a.op(Opcode::dup);
  a.invoke(Opcode::invokespecial, "java/util/IdentityHashMap", "<init>", "()V");
  a.store('L', 1);
  newBuilder(a, "{");
  a.store('L', 2);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredFields", "()[Ljava/lang/reflect/Field;");
  a.store('L', 3);
  FieldLoop l;
  l.fields = 3, l.index = 4, l.field = 5, l.text = 6, l.builder = 2, l.seen = 1;
  l.mask = 8 | 16;  // ACC_STATIC | ACC_FINAL: static, not final
  l.keep = 8;
  l.skip_synthetic = true;
  const jvm::ExceptionHandler fieldRead = emitFieldLoop(a, cf.pool, driver, l, end);
  a.bind(end);
  a.load('L', 2);
  appendChar(a, '}');
  returnText(a);
  const std::uint16_t whole = a.here();
  a.op(Opcode::pop);
  a.ldcString(kUnknown);
  a.ret('L');
  std::vector<jvm::ExceptionHandler> hs{fieldRead, {0, whole, whole, cf.pool.addClass("java/lang/Throwable")}};
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kStatics, kStaticsDesc, a.finish(), 5, 7,
                             std::move(hs));
}

/// A printed state parsed back into its graph: leaves (values compared as text), objects
/// (fields by name), sequences (reference arrays and lists) and references to an object
/// printed earlier ("#k").
struct StateGraph {
  struct Node {
    enum Kind { Leaf, Object, Sequence, Ref } kind = Leaf;
    std::string text;                                   // Leaf
    int id = -1;                                        // Object, Sequence (its #k), Ref
    std::vector<std::pair<std::string, int>> fields;    // Object
    std::vector<int> elems;                             // Sequence
  };
  std::vector<Node> nodes;
  std::map<int, int> defined;  // #k -> node
  const std::string& s;
  std::size_t at = 0;
  bool bad = false;

  explicit StateGraph(const std::string& text) : s(text) {}

  int add(Node n) {
    nodes.push_back(std::move(n));
    return static_cast<int>(nodes.size()) - 1;
  }
  bool eat(char c) {
    if (at < s.size() && s[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  /// name=value; ... up to `close` (or the end for the implicit top-level object).
  void entries(Node& into, char close) {
    std::map<std::string, int> seen;
    while (at < s.size() && s[at] != close) {
      const std::size_t eq = s.find('=', at);
      if (eq == std::string::npos) {
        bad = true;
        return;
      }
      std::string name = s.substr(at, eq - at);
      at = eq + 1;
      if (int n = seen[name]++; n > 0) name += "#" + std::to_string(n);  // a hidden field
      const int v = value();
      if (bad || !eat(';')) {
        bad = true;
        return;
      }
      into.fields.emplace_back(std::move(name), v);
    }
  }
  int value() {
    Node n;
    if (eat('#')) {
      const std::size_t digits = at;
      while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
      if (digits == at) {
        bad = true;
        return add(n);
      }
      n.id = std::stoi(s.substr(digits, at - digits));
      if (eat('{')) {
        n.kind = Node::Object;
        entries(n, '}');
        if (!eat('}')) bad = true;
      } else if (eat('<')) {
        n.kind = Node::Sequence;
        while (!bad && at < s.size() && s[at] != '>') {
          n.elems.push_back(value());
          if (!eat(';')) bad = true;
        }
        if (!eat('>')) bad = true;
      } else {
        n.kind = Node::Ref;
        return add(n);
      }
      const int id = n.id;
      const int index = add(std::move(n));
      defined[id] = index;
      return index;
    }
    if (eat('{')) {  // the statics: an object without a number
      n.kind = Node::Object;
      entries(n, '}');
      if (!eat('}')) bad = true;
      return add(std::move(n));
    }
    const std::size_t stop = s.find_first_of(";}>", at);
    n.text = s.substr(at, stop == std::string::npos ? std::string::npos : stop - at);
    at = stop == std::string::npos ? s.size() : stop;
    return add(std::move(n));
  }
  /// The whole printout of one input: a value, or "name=value;..." (an object's fields).
  int root() {
    const bool implicit = !s.empty() && s[0] != '#' && s[0] != '{' && s.find('=') != std::string::npos;
    if (!implicit) return value();
    Node n;
    n.kind = Node::Object;
    entries(n, '\0');
    return add(std::move(n));
  }
  /// A reference resolved to the object it names (-1: not printed, e.g. past a bound).
  int resolve(int i) const {
    if (i < 0 || nodes[static_cast<std::size_t>(i)].kind != Node::Ref) return i;
    auto it = defined.find(nodes[static_cast<std::size_t>(i)].id);
    return it == defined.end() ? -1 : it->second;
  }
};

/// Compares two state graphs up to isomorphism: objects are matched as they are met, and a
/// match once made must hold wherever either object appears again (aliasing is state too).
struct StateMatch {
  const StateGraph& o;
  const StateGraph& n;
  std::map<int, int> forward, backward;

  static bool unknown(const StateGraph::Node& x) { return x.kind == StateGraph::Node::Leaf && x.text == kUnknown; }
  static bool opaque(const StateGraph::Node& x) { return x.kind == StateGraph::Node::Leaf && x.text == "obj"; }
  static std::string show(const StateGraph::Node& x) {
    switch (x.kind) {
      case StateGraph::Node::Leaf: return x.text;
      case StateGraph::Node::Sequence: return "a sequence of " + std::to_string(x.elems.size());
      default: return "an object";
    }
  }

  std::string diff(int a, int b, const std::string& where) {
    a = o.resolve(a);
    b = n.resolve(b);
    if (a < 0 || b < 0) return "";  // past a bound on one side: not compared
    const auto& x = o.nodes[static_cast<std::size_t>(a)];
    const auto& y = n.nodes[static_cast<std::size_t>(b)];
    if (unknown(x) || unknown(y)) return "";
    if (opaque(x) || opaque(y)) {  // not rendered: only null against an object is a difference
      const bool xNull = x.kind == StateGraph::Node::Leaf && x.text == "null";
      const bool yNull = y.kind == StateGraph::Node::Leaf && y.text == "null";
      return xNull || yNull ? where + ": " + show(x) + " vs " + show(y) : "";
    }
    if (x.kind != y.kind) return where + ": " + show(x) + " vs " + show(y);
    if (x.kind == StateGraph::Node::Leaf) return x.text == y.text ? "" : where + ": " + x.text + " vs " + y.text;
    auto f = forward.find(a);
    auto g = backward.find(b);
    if (f != forward.end() || g != backward.end()) {
      if (f != forward.end() && g != backward.end() && f->second == b) return "";
      return where + ": the objects are shared differently";
    }
    forward[a] = b;
    backward[b] = a;
    if (x.kind == StateGraph::Node::Sequence) {
      if (x.elems.size() != y.elems.size())
        return where + ": " + std::to_string(x.elems.size()) + " vs " + std::to_string(y.elems.size()) + " elements";
      for (std::size_t i = 0; i < x.elems.size(); ++i)
        if (std::string d = diff(x.elems[i], y.elems[i], where + "[" + std::to_string(i) + "]"); !d.empty()) return d;
      return "";
    }
    for (const auto& [field, v] : x.fields) {  // a field of one version only is not compared
      for (const auto& [other, w] : y.fields)
        if (other == field) {
          if (std::string d = diff(v, w, where + "." + field); !d.empty()) return d;
          break;
        }
    }
    return "";
  }
};

/// Objects printed as "BEFORE ~ AFTER" (the static fields): a field is compared after the call
/// only where both versions held equal values before it.
std::string changedFieldDifference(const std::string& oldBefore, const std::string& newBefore,
                                   const std::string& oldAfter, const std::string& newAfter, const std::string& who) {
  StateGraph ob(oldBefore), nb(newBefore), oa(oldAfter), na(newAfter);
  const int rob = ob.root(), rnb = nb.root(), roa = oa.root(), rna = na.root();
  if (ob.bad || nb.bad || oa.bad || na.bad) return "";
  auto fieldsOf = [](const StateGraph& g, int root) -> const std::vector<std::pair<std::string, int>>* {
    if (root < 0 || g.nodes[static_cast<std::size_t>(root)].kind != StateGraph::Node::Object) return nullptr;
    return &g.nodes[static_cast<std::size_t>(root)].fields;
  };
  auto find = [](const std::vector<std::pair<std::string, int>>* fs, const std::string& name) {
    if (fs)
      for (const auto& [f, v] : *fs)
        if (f == name) return v;
    return -1;
  };
  const auto *fob = fieldsOf(ob, rob), *fnb = fieldsOf(nb, rnb), *foa = fieldsOf(oa, roa), *fna = fieldsOf(na, rna);
  if (!foa || !fna) return "";
  StateMatch after{oa, na, {}, {}};
  for (const auto& [field, v] : *foa) {
    const int w = find(fna, field), vb = find(fob, field), wb = find(fnb, field);
    if (w < 0 || vb < 0 || wb < 0) continue;  // (a field of one version only)
    StateMatch before{ob, nb, {}, {}};
    if (!before.diff(vb, wb, field).empty()) continue;  // apart before the call: not the call's doing
    if (std::string d = after.diff(v, w, who + "." + field); !d.empty()) return d;
  }
  return "";
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
  cf.methods.push_back(deepMethod(cf, driver));
  cf.methods.push_back(stateMethod(cf, driver));
  cf.methods.push_back(staticsMethod(cf, driver));
}

void captureStatics(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, const std::string& cls,
                    int slot) {
  a.op(Opcode::ldc_w);
  a.u2(pool.addClass(cls));
  a.invoke(Opcode::invokestatic, driver, kStatics, kStaticsDesc);
  a.store('L', slot);
}

void printState(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, const std::string& prefix,
                const std::vector<int>& slots, const std::vector<std::string>& staticsOf, int staticsBefore) {
  if (slots.empty() && staticsOf.empty()) return;
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
  for (std::size_t k = 0; k < staticsOf.size(); ++k) {  // each class's static fields, after the inputs
    a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    if (!slots.empty() || k > 0) {
      a.op(Opcode::dup);
      a.ldcString(kSeparator);
      a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
    }
    if (staticsBefore >= 0) {
      a.op(Opcode::dup);
      a.load('L', staticsBefore + static_cast<int>(k));
      a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
      a.op(Opcode::dup);
      a.ldcString(kBeforeAfter);
      a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "print", "(Ljava/lang/String;)V");
    }
    a.op(Opcode::ldc_w);
    a.u2(pool.addClass(staticsOf[k]));
    a.invoke(Opcode::invokestatic, driver, kStatics, kStaticsDesc);
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
    const std::size_t ob = o[i].find(kBeforeAfter), nb = n[i].find(kBeforeAfter);
    if (ob != std::string::npos || nb != std::string::npos) {
      if (ob == std::string::npos || nb == std::string::npos) continue;
      if (std::string d = changedFieldDifference(o[i].substr(0, ob), n[i].substr(0, nb),
                                                 o[i].substr(ob + std::string(kBeforeAfter).size()),
                                                 n[i].substr(nb + std::string(kBeforeAfter).size()), who);
          !d.empty())
        return d;
      continue;
    }
    StateGraph og(o[i]), ng(n[i]);
    const int a = og.root(), b = ng.root();
    if (og.bad || ng.bad) continue;  // (a printout cut short: not compared)
    StateMatch m{og, ng, {}, {}};
    if (std::string d = m.diff(a, b, who); !d.empty()) return d;
  }
  return "";
}

}  // namespace pasda::witness::detail
