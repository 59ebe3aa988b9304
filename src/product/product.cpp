#include "pasda/product/product.hpp"

#include <stdexcept>

#include "pasda/product/assembler.hpp"

namespace pasda::product {

using jvm::Opcode;

namespace {

jvm::ClassFile emptyClass(const std::string& name, const std::string& super) {
  jvm::ClassFile cf;
  cf.major_version = 49;
  cf.minor_version = 0;
  cf.access_flags = jvm::acc::Public | jvm::acc::Super;
  cf.this_class = cf.pool.addClass(name);
  cf.super_class = cf.pool.addClass(super);
  return cf;
}

std::string parseMethodFor(char kind, std::string& owner, std::string& desc) {
  switch (kind) {
    case 'Z': owner = "java/lang/Boolean"; desc = "(Ljava/lang/String;)Z"; return "parseBoolean";
    case 'B': owner = "java/lang/Byte"; desc = "(Ljava/lang/String;)B"; return "parseByte";
    case 'S': owner = "java/lang/Short"; desc = "(Ljava/lang/String;)S"; return "parseShort";
    case 'J': owner = "java/lang/Long"; desc = "(Ljava/lang/String;)J"; return "parseLong";
    case 'F': owner = "java/lang/Float"; desc = "(Ljava/lang/String;)F"; return "parseFloat";
    case 'D': owner = "java/lang/Double"; desc = "(Ljava/lang/String;)D"; return "parseDouble";
    default: owner = "java/lang/Integer"; desc = "(Ljava/lang/String;)I"; return "parseInt";
  }
}

std::string printlnDesc(char kind) {
  switch (kind) {
    case 'Z': return "(Z)V";
    case 'C': return "(C)V";
    case 'J': return "(J)V";
    case 'F': return "(F)V";
    case 'D': return "(D)V";
    case 'L': case '[': return "(Ljava/lang/Object;)V";
    default: return "(I)V";
  }
}

}  // namespace

std::string versionName(const std::string& internalName, Version v) {
  return internalName + (v == Version::kOld ? "$V1" : "$V2");
}

void prepareVersion(jvm::ClassFile& cf, const std::string& newName, const std::string& method,
                    const std::string& descriptor) {
  std::string old = cf.name();
  if (old != newName) jvm::renameClass(cf, old, newName);
  cf.access_flags = static_cast<std::uint16_t>((cf.access_flags & ~(jvm::acc::Private | jvm::acc::Protected)) | jvm::acc::Public);
  (void)descriptor;  // overloads are all opened: the descriptor may have been renamed
  for (jvm::Method& m : cf.methods)
    if (m.name == method)
      m.access_flags = static_cast<std::uint16_t>((m.access_flags & ~(jvm::acc::Private | jvm::acc::Protected)) | jvm::acc::Public);
}

std::string versionDescriptor(const ProductSpec& spec, Version v) {
  const std::string& from = v == Version::kOld ? spec.orig_old : spec.orig_new;
  const std::string& to = v == Version::kOld ? spec.old_class : spec.new_class;
  std::string d = spec.descriptor;
  if (from.empty()) return d;
  std::string pat = "L" + from + ";", rep = "L" + to + ";";
  for (std::size_t pos = d.find(pat); pos != std::string::npos; pos = d.find(pat, pos + rep.size()))
    d.replace(pos, pat.size(), rep);
  return d;
}

std::string runDescriptor(const ProductSpec& spec) {
  jvm::MethodDesc mo = jvm::parseMethodDescriptor(versionDescriptor(spec, Version::kOld));
  jvm::MethodDesc mn = jvm::parseMethodDescriptor(versionDescriptor(spec, Version::kNew));
  std::string d = "(";
  if (!spec.is_static && !spec.is_constructor) d += "L" + spec.old_class + ";L" + spec.new_class + ";";
  for (std::size_t i = 0; i < mo.params.size(); ++i) {
    const auto& p = mo.params[i];
    if (p.kind == 'L' || p.kind == '[') d += p.text + mn.params[i].text;
    else d += p.text;
  }
  d += ")";
  char rk = mo.ret.kind;
  if (spec.is_constructor || rk == 'L' || rk == '[') d += "Ljava/lang/Object;";
  else d += mo.ret.text;
  return d;
}

namespace {

/// What the product's methods share: the spec, the run method's and the analysed method's
/// descriptors, and the class being built.
struct ProductContext {
  const ProductSpec& spec;
  std::string run_desc;
  jvm::MethodDesc md;    // run's descriptor
  jvm::MethodDesc orig;  // the analysed method's descriptor
  char rk;               // run's result kind
  std::string exc_name;  // DifferentOutputsException
  std::string results_desc;
  bool instance() const { return !spec.is_static && !spec.is_constructor; }
};

/// DifferentOutputsException extends RuntimeException, with a no-argument constructor.
jvm::ClassFile exceptionClass(const std::string& name) {
  jvm::ClassFile cf = emptyClass(name, "java/lang/RuntimeException");
  Assembler a(cf.pool);
  a.op(Opcode::aload_0);
  a.invoke(Opcode::invokespecial, "java/lang/RuntimeException", "<init>", "()V");
  a.op(Opcode::return_);
  cf.methods.push_back(codeMethod(cf, jvm::acc::Public, "<init>", "()V", a.finish(), 1, 1));
  return cf;
}

/// Slots of the run parameters seen by version `side` (1 or 2), in call order: the receivers
/// and every reference parameter come twice in run (old copy, new copy), primitives once.
std::vector<std::pair<char, int>> versionArgs(const ProductContext& c, Version side) {
  std::vector<std::pair<char, int>> slots;
  int s = 0;
  if (c.instance()) {
    slots.emplace_back('L', side == Version::kOld ? 0 : 1);
    s = 2;
  }
  for (const auto& p : c.orig.params) {
    if (p.kind == 'L' || p.kind == '[') {
      slots.emplace_back('L', side == Version::kOld ? s : s + 1);
      s += 2;
    } else {
      slots.emplace_back(p.kind, s);
      s += p.slots();
    }
  }
  return slots;
}

/// In run: call version `side`, its result into slot r and what it threw (or null) into slot e.
void callVersion(const ProductContext& c, jvm::ClassFile& cf, Assembler& a, Version side, int r, int e,
                 std::vector<jvm::ExceptionHandler>& hs) {
  const ProductSpec& spec = c.spec;
  const std::string& cls = side == Version::kOld ? spec.old_class : spec.new_class;
  std::string vdesc = versionDescriptor(spec, side);
  if (c.rk != 'V') {
    a.pushDefault(c.rk);
    a.store(c.rk, r);
  }
  a.op(Opcode::aconst_null);
  a.store('L', e);
  std::uint16_t start = a.here();
  if (spec.is_constructor) {
    a.newObject(cls);
    a.op(Opcode::dup);
  }
  for (auto [kind, s] : versionArgs(c, side)) a.load(kind, s);
  if (spec.is_constructor) {
    a.invoke(Opcode::invokespecial, cls, "<init>", vdesc);
  } else {
    a.invoke(c.instance() ? Opcode::invokevirtual : Opcode::invokestatic, cls, spec.method, vdesc);
  }
  if (c.rk != 'V') a.store(c.rk, r);
  std::uint16_t end = a.here();
  int after = a.newLabel();
  a.jump(Opcode::goto_, after);
  std::uint16_t handler = a.here();
  a.store('L', e);
  a.bind(after);
  hs.push_back({start, end, handler, cf.pool.addClass("java/lang/Throwable")});
}

/// In run: throw DifferentOutputsException unless the comparison on the stack holds.
void failUnless(const ProductContext& c, Assembler& a) {
  int ok = a.newLabel();
  a.jump(Opcode::ifne, ok);
  a.newObject(c.exc_name);
  a.op(Opcode::dup);
  a.invoke(Opcode::invokespecial, c.exc_name, "<init>", "()V");
  a.op(Opcode::athrow);
  a.bind(ok);
}

/// static R run(P...): the product template (both versions, each in try/catch(Throwable), then
/// sameErrors and sameResults).
void addRun(const ProductContext& c, jvm::ClassFile& cf) {
  Assembler a(cf.pool);
  int slot = 0;
  for (const auto& p : c.md.params) slot += p.slots();
  const char rk = c.rk;
  const int rs = rk == 'V' ? 0 : c.md.ret.slots();
  const int r1 = slot, e1 = r1 + rs, r2 = e1 + 1, e2 = r2 + rs, maxLocals = e2 + 1;
  std::vector<jvm::ExceptionHandler> handlers;
  callVersion(c, cf, a, Version::kOld, r1, e1, handlers);
  callVersion(c, cf, a, Version::kNew, r2, e2, handlers);
  a.load('L', e1);
  a.load('L', e2);
  a.invoke(Opcode::invokestatic, c.spec.product_class, "sameErrors", "(Ljava/lang/Throwable;Ljava/lang/Throwable;)Z");
  failUnless(c, a);
  if (rk != 'V') {
    a.load(rk, r1);
    a.load(rk, r2);
  }
  a.invoke(Opcode::invokestatic, c.spec.product_class, "sameResults", c.results_desc);
  failUnless(c, a);
  if (rk != 'V') a.load(rk, r2);
  a.ret(rk);
  std::uint16_t maxStack = static_cast<std::uint16_t>(std::max(slot, 4) + 6);
  cf.methods.push_back(codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "run", c.run_desc, a.finish(), maxStack,
                                  static_cast<std::uint16_t>(maxLocals), handlers));
}

/// static boolean sameErrors(Throwable a, Throwable b): both null, or the same class.
void addSameErrors(jvm::ClassFile& cf) {
  Assembler a(cf.pool);
  int notNull = a.newLabel(), no = a.newLabel();
  a.op(Opcode::aload_0);
  a.jump(Opcode::ifnonnull, notNull);
  a.op(Opcode::aload_1);
  a.jump(Opcode::ifnonnull, no);
  a.op(Opcode::iconst_1);
  a.op(Opcode::ireturn);
  a.bind(notNull);
  a.op(Opcode::aload_1);
  a.jump(Opcode::ifnull, no);
  a.op(Opcode::aload_0);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.op(Opcode::aload_1);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.jump(Opcode::if_acmpne, no);
  a.op(Opcode::iconst_1);
  a.op(Opcode::ireturn);
  a.bind(no);
  a.op(Opcode::iconst_0);
  a.op(Opcode::ireturn);
  cf.methods.push_back(codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "sameErrors",
                                  "(Ljava/lang/Throwable;Ljava/lang/Throwable;)Z", a.finish(), 2, 2));
}

/// static boolean sameResults(R a, R b): Java equality (Double.equals semantics for floating).
void addSameResults(const ProductContext& c, jvm::ClassFile& cf) {
  Assembler a(cf.pool);
  const char rk = c.rk;
  int no = a.newLabel();
  int s2 = rk == 'V' ? 0 : c.md.ret.slots();
  if (rk != 'V') {
    a.load(rk, 0);
    a.load(rk, s2);
    switch (rk) {
      case 'D': a.invoke(Opcode::invokestatic, "java/lang/Double", "compare", "(DD)I"); a.jump(Opcode::ifne, no); break;
      case 'F': a.invoke(Opcode::invokestatic, "java/lang/Float", "compare", "(FF)I"); a.jump(Opcode::ifne, no); break;
      case 'J': a.op(Opcode::lcmp); a.jump(Opcode::ifne, no); break;
      case 'L': case '[':
        a.invoke(Opcode::invokestatic, "java/util/Objects", "equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z");
        a.jump(Opcode::ifeq, no);
        break;
      default: a.jump(Opcode::if_icmpne, no); break;
    }
  }
  a.op(Opcode::iconst_1);
  a.op(Opcode::ireturn);
  a.bind(no);
  a.op(Opcode::iconst_0);
  a.op(Opcode::ireturn);
  cf.methods.push_back(codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "sameResults", c.results_desc, a.finish(),
                                  4, static_cast<std::uint16_t>(2 * s2 + 1)));
}

/// public static void main(String[] args): run(parse(args[0]), ...) and print the result.
void addMain(const ProductContext& c, jvm::ClassFile& cf) {
  Assembler a(cf.pool);
  const char rk = c.rk;
  int i = 0;
  for (const auto& p : c.md.params) {
    if (p.kind == 'L' || p.kind == '[') {
      a.op(Opcode::aconst_null);
    } else {
      a.op(Opcode::aload_0);
      a.iconst(i);
      a.op(Opcode::aaload);
      if (p.kind == 'C') {
        a.iconst(0);
        a.invoke(Opcode::invokevirtual, "java/lang/String", "charAt", "(I)C");
      } else {
        std::string owner, desc;
        std::string name = parseMethodFor(p.kind, owner, desc);
        a.invoke(Opcode::invokestatic, owner, name, desc);
      }
    }
    ++i;
  }
  a.invoke(Opcode::invokestatic, c.spec.product_class, "run", c.run_desc);
  if (rk == 'V') {
    a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    a.ldcString("void");
    a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", "(Ljava/lang/String;)V");
  } else {
    a.store(rk, 1);
    a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    a.load(rk, 1);
    a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", printlnDesc(rk));
  }
  a.op(Opcode::return_);
  int slots = 0;
  for (const auto& p : c.md.params) slots += p.slots();
  cf.methods.push_back(codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "main", "([Ljava/lang/String;)V",
                                  a.finish(), static_cast<std::uint16_t>(slots + 4), 3));
}

}  // namespace

ProductClasses buildProduct(const ProductSpec& spec) {
  ProductContext c{spec, runDescriptor(spec), {}, {}, 'V', spec.product_class + "$DifferentOutputsException", ""};
  c.md = jvm::parseMethodDescriptor(c.run_desc);
  c.orig = jvm::parseMethodDescriptor(spec.descriptor);
  c.rk = c.md.ret.kind;
  c.results_desc = c.rk == 'V' ? "()Z" : "(" + c.md.ret.text + c.md.ret.text + ")Z";
  ProductClasses out;
  out.exception = exceptionClass(c.exc_name);
  out.product = emptyClass(spec.product_class, "java/lang/Object");
  addRun(c, out.product);
  addSameErrors(out.product);
  addSameResults(c, out.product);
  addMain(c, out.product);
  return out;
}

}  // namespace pasda::product
