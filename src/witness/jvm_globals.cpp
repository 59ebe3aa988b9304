// JDK-wide state a replayed method may change and that a fresh class loader does not reset:
// the system properties, the default locale and time zone, System.out and System.err. The
// session server keeps them in locals and puts them back after every request; a replay driver
// keeps them in static fields and puts them back before every call, so that neither one
// version's call (the old one's System.setProperty) nor an earlier replay changes what a call
// sees (docs/witnesses.md, "Replay").
#include "driver.hpp"
#include "pasda/product/assembler.hpp"

namespace pasda::witness::detail {

namespace {

using O = jvm::Opcode;

struct Global {
  const char* owner;
  const char* getter;  // static getter (or field for out/err)
  const char* setter;
  const char* type;    // descriptor
  bool field;          // System.out / System.err: a static field to read
};

const Global kGlobals[kGlobalCount] = {
    {"java/lang/System", "getProperties", "setProperties", "Ljava/util/Properties;", false},
    {"java/util/Locale", "getDefault", "setDefault", "Ljava/util/Locale;", false},
    {"java/util/TimeZone", "getDefault", "setDefault", "Ljava/util/TimeZone;", false},
    {"java/lang/System", "out", "setOut", "Ljava/io/PrintStream;", true},
    {"java/lang/System", "err", "setErr", "Ljava/io/PrintStream;", true},
};

// Properties are mutable: the saved copy is a clone, and each restore sets a clone of it.
void cloneProperties(product::Assembler& a, jvm::ConstantPool& pool) {
  a.invoke(O::invokevirtual, "java/util/Properties", "clone", "()Ljava/lang/Object;");
  typeOp(a, pool, O::checkcast, "java/util/Properties");
}

}  // namespace

void emitSaveGlobals(product::Assembler& a, jvm::ConstantPool& pool, const std::function<void(int)>& store) {
  for (int k = 0; k < kGlobalCount; ++k) {
    const Global& g = kGlobals[k];
    const std::string type = g.type;
    if (g.field) a.field(O::getstatic, g.owner, g.getter, type);
    else a.invoke(O::invokestatic, g.owner, g.getter, "()" + type);
    if (k == 0) cloneProperties(a, pool);
    store(k);
  }
}

void emitRestoreGlobals(product::Assembler& a, jvm::ConstantPool& pool, const std::function<void(int)>& load) {
  for (int k = 0; k < kGlobalCount; ++k) {
    const Global& g = kGlobals[k];
    load(k);
    if (k == 0) cloneProperties(a, pool);
    a.invoke(O::invokestatic, g.owner, g.setter, "(" + std::string(g.type) + ")V");
  }
}

void addGlobalsHelpers(jvm::ClassFile& cf, const std::string& driver) {
  auto name = [](int k) { return "pasda$global" + std::to_string(k); };
  for (int k = 0; k < kGlobalCount; ++k) {
    jvm::Field f;
    f.access_flags = jvm::acc::Private | jvm::acc::Static;
    f.name = name(k);
    f.descriptor = kGlobals[k].type;
    f.name_index = cf.pool.addUtf8(f.name);
    f.descriptor_index = cf.pool.addUtf8(f.descriptor);
    cf.fields.push_back(std::move(f));
  }
  product::Assembler s(cf.pool);
  emitSaveGlobals(s, cf.pool, [&](int k) { s.field(O::putstatic, driver, name(k), kGlobals[k].type); });
  s.op(O::return_);
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Static, kSaveGlobals, "()V", s.finish(), 2, 0));
  product::Assembler r(cf.pool);
  emitRestoreGlobals(r, cf.pool, [&](int k) { r.field(O::getstatic, driver, name(k), kGlobals[k].type); });
  r.op(O::return_);
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Static, kRestoreGlobals, "()V", r.finish(), 2, 0));
}

}  // namespace pasda::witness::detail
