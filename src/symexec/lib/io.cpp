// Models of console output: every PrintStream method (System.out.println and friends) has no
// effect on results; a non-void one returns its type's default value.
#include "models.hpp"

namespace pasda::symexec::lib {

void registerIoModels(LibraryRegistry& r) {
  r.addClass("java/io/PrintStream", [](ModelCall& c) {
    if (c.desc().ret.kind == 'V') return ModelResult::none();
    return ModelResult::value(c.defaultValue(c.desc().ret));
  });
}

}  // namespace pasda::symexec::lib
