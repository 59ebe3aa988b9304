// Models of console output: what a version prints through a PrintStream (System.out,
// System.err, ...) is part of its behaviour when output is compared (ExecOptions::compare_output):
// print and println append the text of their argument to the stream's record on the calling side,
// one character term per UTF-16 unit, so print(5) and print("5") print the same and the product
// compares the two records exactly (InputHeap::compareOutput). Text the engine does not model (a
// double, an object's toString, printf) is an uninterpreted marker, compared inexactly.
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

/// The record a stream's output goes to: the same stream object gives the same key on both sides.
std::string streamKey(ModelCall& c) {
  Term id = c.identity(c.receiver());
  const std::string name = c.tm().node(id).name;
  if (name.rfind("static:", 0) == 0) return name.substr(7);
  return c.tm().toString(id);
}

ModelResult print(ModelCall& c, bool newline) {
  terms::TermManager& tm = c.tm();
  std::vector<Term> text;
  if (c.args().size() == 2) {
    const char kind = c.desc().params[0].kind;
    int known = textOfValue(c, c.arg(1), kind, text);
    if (known < 0) return c.ended();
    if (known == 0)
      text = {tm.apply("text_of", terms::FunKind::Library, Sort::Int, {c.identity(c.arg(1))})};
  }
  if (newline) text.push_back(tm.intLit('\n'));
  c.print(streamKey(c), text);
  return ModelResult::none();
}

}  // namespace

void registerIoModels(LibraryRegistry& r) {
  const std::string ps = "java/io/PrintStream";
  r.addOverloads(ps, "print", [](ModelCall& c) {
    if (!c.compareOutput()) return ModelResult::none();
    return print(c, false);
  });
  r.addOverloads(ps, "println", [](ModelCall& c) {
    if (!c.compareOutput()) return ModelResult::none();
    return print(c, true);
  });
  r.addOverloads(ps, "flush", [](ModelCall&) { return ModelResult::none(); });
  r.addClass(ps, [](ModelCall& c) {
    // printf, format, write, append, ...: text the engine does not model.
    if (c.compareOutput()) {
      std::vector<Term> args;
      for (Term a : c.args()) args.push_back(c.identity(a));
      c.print(streamKey(c), {c.tm().apply("text_of:" + c.name() + c.descriptor(), terms::FunKind::Library, Sort::Int, args)});
    }
    if (c.desc().ret.kind == 'V') return ModelResult::none();
    return unknownCall(c, c.owner() + "." + c.name() + c.descriptor(), "");
  });
}

}  // namespace pasda::symexec::lib
