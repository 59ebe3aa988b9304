// A replay driver's call by reflection: a private method of a version read from its class path
// cannot be called from the driver's code (IllegalAccessError), but can through
// Method.setAccessible(true) and Method.invoke, with boxed arguments and an unboxed result.
#include "driver.hpp"
#include "pasda/product/assembler.hpp"

namespace pasda::witness::detail {

using jvm::Opcode;

namespace {

struct Box {
  char kind;
  const char* cls;
  const char* unbox;  // the xValue method
};

const Box* boxOf(char kind) {
  static const Box boxes[] = {{'Z', "java/lang/Boolean", "booleanValue"}, {'B', "java/lang/Byte", "byteValue"},
                              {'C', "java/lang/Character", "charValue"},  {'S', "java/lang/Short", "shortValue"},
                              {'I', "java/lang/Integer", "intValue"},     {'J', "java/lang/Long", "longValue"},
                              {'F', "java/lang/Float", "floatValue"},     {'D', "java/lang/Double", "doubleValue"}};
  for (const Box& b : boxes)
    if (b.kind == kind) return &b;
  return nullptr;
}

/// The Class object of a parameter type: Integer.TYPE & co. for primitives.
void pushClassOf(product::Assembler& a, jvm::ConstantPool& pool, const jvm::TypeDesc& t) {
  if (const Box* b = boxOf(t.kind)) return a.field(Opcode::getstatic, b->cls, "TYPE", "Ljava/lang/Class;");
  a.op(Opcode::ldc_w);
  a.u2(pool.addClass(t.kind == 'L' ? t.className() : t.text));
}

}  // namespace

void pushMethodLookup(product::Assembler& a, jvm::ConstantPool& pool, const std::string& cls,
                      const std::string& method, const jvm::MethodDesc& md) {
  a.op(Opcode::ldc_w);
  a.u2(pool.addClass(cls));
  a.ldcString(method);
  pushInt(a, pool, static_cast<std::int32_t>(md.params.size()));
  a.op(Opcode::anewarray);
  a.u2(pool.addClass("java/lang/Class"));
  for (std::size_t i = 0; i < md.params.size(); ++i) {
    a.op(Opcode::dup);
    pushInt(a, pool, static_cast<std::int32_t>(i));
    pushClassOf(a, pool, md.params[i]);
    a.op(Opcode::aastore);
  }
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getDeclaredMethod",
           "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;");
  a.op(Opcode::dup);
  a.iconst(1);
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Method", "setAccessible", "(Z)V");
}

void invokeReflectively(product::Assembler& a, jvm::ConstantPool& pool, const jvm::MethodDesc& md, int methodSlot,
                        const std::vector<std::pair<char, int>>& loads, bool instance) {
  a.load('L', methodSlot);
  std::size_t first = 0;
  if (instance && !loads.empty()) {
    a.load('L', loads[0].second);
    first = 1;
  } else {
    a.op(Opcode::aconst_null);
  }
  pushInt(a, pool, static_cast<std::int32_t>(loads.size() - first));
  a.op(Opcode::anewarray);
  a.u2(pool.addClass("java/lang/Object"));
  for (std::size_t i = first; i < loads.size(); ++i) {
    a.op(Opcode::dup);
    pushInt(a, pool, static_cast<std::int32_t>(i - first));
    const char kind = md.params[i - first].kind;
    a.load(loads[i].first, loads[i].second);
    if (const Box* b = boxOf(kind))
      a.invoke(Opcode::invokestatic, b->cls, "valueOf", std::string("(") + kind + ")L" + b->cls + ";");
    a.op(Opcode::aastore);
  }
  a.invoke(Opcode::invokevirtual, "java/lang/reflect/Method", "invoke",
           "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;");
  const jvm::TypeDesc& ret = md.ret;
  if (ret.kind == 'V') {
    a.op(Opcode::pop);
  } else if (const Box* b = boxOf(ret.kind)) {
    a.op(Opcode::checkcast);
    a.u2(pool.addClass(b->cls));
    a.invoke(Opcode::invokevirtual, b->cls, b->unbox, std::string("()") + ret.kind);
  } else {
    a.op(Opcode::checkcast);
    a.u2(pool.addClass(ret.kind == 'L' ? ret.className() : ret.text));
  }
}

void unwrapInvocationTarget(product::Assembler& a, jvm::ConstantPool& pool, int slot) {
  const int done = a.newLabel();
  a.load('L', slot);
  a.op(Opcode::instanceof);
  a.u2(pool.addClass("java/lang/reflect/InvocationTargetException"));
  a.jump(Opcode::ifeq, done);
  a.load('L', slot);
  a.invoke(Opcode::invokevirtual, "java/lang/Throwable", "getCause", "()Ljava/lang/Throwable;");
  a.store('L', slot);
  a.bind(done);
}

}  // namespace pasda::witness::detail
