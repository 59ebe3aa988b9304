// Calls the engine does not model (the registry's fallback) and invokedynamic call sites: an
// opaque object for a reference result, an uninterpreted function of the primitive arguments
// (an inexact library symbol) otherwise; both leave a warning.
#include "models.hpp"

namespace pasda::symexec::lib {

Term opaqueResult(ModelCall& c) {
  const jvm::TypeDesc& ret = c.desc().ret;
  const std::string call = c.owner() + "." + c.name() + c.descriptor();
  if (ret.kind == 'L' || ret.kind == '[') {
    c.warn("library call " + call + " returns an opaque object");
    Object o;
    o.cls = ret.kind == 'L' ? ret.className() : ret.text;
    o.is_array = ret.kind == '[';
    o.opaque = true;
    return c.allocate(std::move(o));
  }
  c.warn("library call " + call + " abstracted as an uninterpreted function");
  std::vector<Term> fargs;
  for (Term a : c.args())
    if (c.tm().sort(a) != Sort::Ref) fargs.push_back(a);
  std::string name = c.owner() + "." + c.name();
  for (char& ch : name)
    if (ch == '/') ch = '.';
  return c.tm().apply(name, terms::FunKind::Library, sortOf(ret), fargs);
}

void registerUnknownCallModels(LibraryRegistry& r) {
  r.setFallback([](ModelCall& c) {
    if (c.desc().ret.kind == 'V') return ModelResult::none();  // no effect is tracked, no value to invent
    return ModelResult::value(opaqueResult(c));
  });
  r.addClass(LibraryRegistry::kInvokeDynamic, [](ModelCall& c) {
    c.warn("invokedynamic " + c.name() + c.descriptor() + " yields an opaque value");
    if (c.desc().ret.kind == 'V') return ModelResult::none();
    return ModelResult::value(opaqueResult(c));
  });
}

}  // namespace pasda::symexec::lib
