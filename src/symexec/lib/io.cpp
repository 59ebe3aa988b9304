// Models of console output: what a version prints through a PrintStream (System.out,
// System.err) is part of its behaviour when output is compared (ExecOptions::compare_output):
// each call is recorded on the calling side as (stream, method and descriptor, value), and the
// product compares the two sequences (InputHeap::compareState). A non-void method (printf,
// append, checkError) returns an uninterpreted value of its arguments.
#include "models.hpp"

namespace pasda::symexec::lib {

void registerIoModels(LibraryRegistry& r) {
  r.addClass("java/io/PrintStream", [](ModelCall& c) {
    if (c.compareOutput()) {
      terms::TermManager& tm = c.tm();
      std::vector<Term> parts;
      for (Term a : c.args()) parts.push_back(c.identity(a));
      // One record per call: its kind (stream identity and method) and its value (exact for a
      // primitive argument, an identity term otherwise).
      Term kind = tm.apply("print:" + c.name() + c.descriptor(), terms::FunKind::Library, Sort::Int, {parts[0]});
      c.print(kind);
      for (std::size_t i = 1; i < parts.size(); ++i) c.print(parts[i]);
    }
    if (c.desc().ret.kind == 'V') return ModelResult::none();
    return unknownCall(c, c.owner() + "." + c.name() + c.descriptor(), "");
  });
}

}  // namespace pasda::symexec::lib
