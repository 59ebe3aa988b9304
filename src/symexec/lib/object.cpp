// Models of java.lang.Object's methods and of the constructors of library classes.
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

/// getClass: a Class object naming the receiver's dynamic class.
ModelResult getClass(ModelCall& c) {
  Object o;
  o.cls = "java/lang/Class";
  o.text = c.object(c.receiver()).cls;
  return ModelResult::value(c.allocate(std::move(o)));
}

}  // namespace

void registerObjectModels(LibraryRegistry& r) {
  r.addOverloads("java/lang/Object", "getClass", getClass);
  // Constructors of library classes (Object, exceptions, ...) have no effect the engine tracks.
  r.addOverloads(LibraryRegistry::kAnyOwner, "<init>", [](ModelCall&) { return ModelResult::none(); });
}

}  // namespace pasda::symexec::lib
