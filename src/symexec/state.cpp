// Small operations on a path's state shared by the explorer, the input heap and the interpreter.
#include "state.hpp"

namespace pasda::symexec {

Sort sortOfDescriptor(char k) {
  switch (k) {
    case 'J': return Sort::Long;
    case 'F': return Sort::Float;
    case 'D': return Sort::Double;
    case 'L':
    case '[': return Sort::Ref;
    default: return Sort::Int;
  }
}

char primitiveOfBoxClass(const std::string& cls) {
  static const std::pair<const char*, char> kBoxes[] = {
      {"java/lang/Integer", 'I'}, {"java/lang/Long", 'J'},      {"java/lang/Short", 'S'},
      {"java/lang/Byte", 'B'},    {"java/lang/Character", 'C'}, {"java/lang/Boolean", 'Z'},
      {"java/lang/Double", 'D'},  {"java/lang/Float", 'F'},     {"java/lang/Void", 'V'}};
  for (const auto& [box, prim] : kBoxes)
    if (cls == box) return prim;
  return 0;
}

Term allocate(terms::TermManager& tm, State& s, Object obj) {
  // Objects a class initialiser creates exist before the analysed call: a caller may pass them.
  for (const Frame& f : s.frames)
    if (f.m && f.m->name == "<clinit>") obj.preexisting = true;
  s.heap.push_back(std::move(obj));
  return tm.lit(Sort::Ref, s.heap.size() - 1);
}

Object unknownObject(const std::string& type, Term ident) {
  Object o;
  o.cls = type;
  o.is_array = !type.empty() && type[0] == '[';
  o.opaque = true;
  o.maybe_null = true;
  o.ident = ident;
  return o;
}

Object longArray(terms::TermManager& tm, const std::string& elemDesc, Term length) {
  Object o;
  o.cls = "[" + elemDesc;
  o.is_array = true;
  o.elem_kind = elemDesc.at(0);
  o.elem_sort = sortOfDescriptor(o.elem_kind);
  o.long_length = length;
  o.ident = tm.apply("newarray:" + elemDesc, terms::FunKind::Library, Sort::Int, {length});
  return o;
}

bool immutableValueClass(const std::string& cls) {
  for (const char* c : {"java/lang/String", "java/lang/Integer", "java/lang/Long", "java/lang/Short", "java/lang/Byte",
                        "java/lang/Character", "java/lang/Boolean", "java/lang/Float", "java/lang/Double"})
    if (cls == c) return true;
  return false;
}

std::string elementType(const std::string& arrayClass) {
  if (arrayClass.size() > 2 && arrayClass[1] == 'L') return arrayClass.substr(2, arrayClass.size() - 3);
  return arrayClass.substr(1);
}

Object& deref(terms::TermManager& tm, State& s, Term ref) {
  auto id = tm.node(ref).bits;
  if (tm.op(ref) != terms::Op::Lit || id == 0 || id >= s.heap.size()) throw ExecError("invalid reference");
  return s.heap[id];
}

bool inCountedCode(const State& s) {
  const Frame& f = s.frames.back();
  return f.recursive || (f.ip >= 0 && static_cast<std::size_t>(f.ip) < f.m->in_loop.size() && f.m->in_loop[f.ip]);
}

}  // namespace pasda::symexec
