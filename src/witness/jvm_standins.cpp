// Stand-ins for witness objects of abstract types: a parameter of an interface type
// (CharSequence, Iterator, a functional interface of the program) has no class to allocate, so
// the JVM replay gives both versions the same real object of a JDK class that implements it, or
// a proxy whose methods return default values. Any real object is a valid input: when the
// versions differ on it they differ, whatever the model's path was; equal results prove nothing
// (the stand-in need not follow the model's path), so the replay reports the stand-ins and the
// analysis never demotes a solver NEQ on them.
#include <functional>

#include "driver.hpp"
#include "pasda/product/assembler.hpp"

namespace pasda::witness::detail {

using jvm::Opcode;

namespace {

constexpr const char* kStandIn = "pasdaStandIn";
constexpr const char* kStandInDesc = "(Ljava/lang/Class;)Ljava/lang/Object;";

/// static Object pasdaStandIn(Class c): records c's name in the system property
/// pasda.standin, then returns "" (c a supertype of String), a new ArrayList, HashSet, ArrayDeque,
/// HashMap, ConcurrentHashMap or StringBuilder (the first whose class c is a supertype of), a
/// proxy of an interface, or throws InstantiationException (an abstract class).
jvm::Method standInMethod(jvm::ClassFile& cf, const std::string& driver) {
  product::Assembler a(cf.pool);
  a.ldcString(kStandInProperty);
  a.ldcString(kStandInProperty);
  a.ldcString("");
  a.invoke(Opcode::invokestatic, "java/lang/System", "getProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;");
  a.ldcString(" ");
  a.invoke(Opcode::invokevirtual, "java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;");
  a.invoke(Opcode::invokestatic, "java/lang/System", "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
  a.op(Opcode::pop);
  auto when = [&](const std::string& cls, const std::function<void()>& build) {
    const int next = a.newLabel();
    a.load('L', 0);
    typeOp(a, cf.pool, Opcode::ldc_w, cls);
    a.invoke(Opcode::invokevirtual, "java/lang/Class", "isAssignableFrom", "(Ljava/lang/Class;)Z");
    a.jump(Opcode::ifeq, next);
    build();
    a.ret('L');
    a.bind(next);
  };
  when("java/lang/String", [&] { a.ldcString(""); });
  for (const char* cls : {"java/util/ArrayList", "java/util/HashSet", "java/util/ArrayDeque", "java/util/HashMap",
                          "java/util/concurrent/ConcurrentHashMap", "java/lang/StringBuilder"})
    when(cls, [&] {
      a.newObject(cls);
      a.op(Opcode::dup);
      a.invoke(Opcode::invokespecial, cls, "<init>", "()V");
    });
  const int notInterface = a.newLabel();
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "isInterface", "()Z");
  a.jump(Opcode::ifeq, notInterface);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getClassLoader", "()Ljava/lang/ClassLoader;");
  a.iconst(1);
  typeOp(a, cf.pool, Opcode::anewarray, "java/lang/Class");
  a.op(Opcode::dup);
  a.iconst(0);
  a.load('L', 0);
  a.op(Opcode::aastore);
  a.newObject(driver);
  a.op(Opcode::dup);
  a.invoke(Opcode::invokespecial, driver, "<init>", "()V");
  a.invoke(Opcode::invokestatic, "java/lang/reflect/Proxy", "newProxyInstance",
           "(Ljava/lang/ClassLoader;[Ljava/lang/Class;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;");
  a.ret('L');
  a.bind(notInterface);
  a.newObject("java/lang/InstantiationException");
  a.op(Opcode::dup);
  a.load('L', 0);
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.invoke(Opcode::invokespecial, "java/lang/InstantiationException", "<init>", "(Ljava/lang/String;)V");
  a.op(Opcode::athrow);
  return product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, kStandIn, kStandInDesc, a.finish(), 7, 1);
}

/// public Object invoke(Object proxy, Method m, Object[] args): the default value of m's return
/// type (null, false, a zero), boxed.
jvm::Method invokeMethod(jvm::ClassFile& cf) {
  product::Assembler a(cf.pool);
  a.load('L', 2);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Method", "getReturnType", "()Ljava/lang/Class;");
  a.store('L', 4);
  struct Box { const char* cls; const char* prim; Opcode zero; };
  static const Box boxes[] = {{"java/lang/Boolean", "Z", Opcode::iconst_0}, {"java/lang/Integer", "I", Opcode::iconst_0},
                              {"java/lang/Long", "J", Opcode::lconst_0},    {"java/lang/Double", "D", Opcode::dconst_0},
                              {"java/lang/Float", "F", Opcode::fconst_0},   {"java/lang/Character", "C", Opcode::iconst_0},
                              {"java/lang/Short", "S", Opcode::iconst_0},   {"java/lang/Byte", "B", Opcode::iconst_0}};
  for (const Box& b : boxes) {
    const int next = a.newLabel();
    a.load('L', 4);
    a.field(Opcode::getstatic, b.cls, "TYPE", "Ljava/lang/Class;");
    a.jump(Opcode::if_acmpne, next);
    a.op(b.zero);
    a.invoke(Opcode::invokestatic, b.cls, "valueOf", std::string("(") + b.prim + ")L" + b.cls + ";");
    a.ret('L');
    a.bind(next);
  }
  a.op(Opcode::aconst_null);
  a.ret('L');
  return product::codeMethod(cf, jvm::acc::Public, "invoke",
                             "(Ljava/lang/Object;Ljava/lang/reflect/Method;[Ljava/lang/Object;)Ljava/lang/Object;",
                             a.finish(), 4, 5);
}

}  // namespace

void addStandInHelpers(jvm::ClassFile& cf, const std::string& driver) {
  cf.interfaces.push_back(cf.pool.addClass("java/lang/reflect/InvocationHandler"));
  product::Assembler init(cf.pool);
  init.load('L', 0);
  init.invoke(Opcode::invokespecial, "java/lang/Object", "<init>", "()V");
  init.op(Opcode::return_);
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public, "<init>", "()V", init.finish(), 1, 1));
  cf.methods.push_back(invokeMethod(cf));
  cf.methods.push_back(standInMethod(cf, driver));
}

void emitStandInCall(product::Assembler& a, const std::string& driver) {
  a.invoke(Opcode::invokestatic, driver, kStandIn, kStandInDesc);
}

}  // namespace pasda::witness::detail
