// Opcode family: arrays. Creation (negative length throws, symbolic lengths explored up to
// max_array_length, longer ones cut), element loads and stores with null and bounds checks
// (a symbolic index is an ite over the elements; narrow stores are narrowed), arraylength.
#include "ops.hpp"

namespace pasda::symexec::ops {

using jvm::Opcode;

namespace {

/// Null and bounds checks of an element access. Passed: the array object.
Checked<Object*> checkedElement(Interpreter& I, State& s, Term ref, Term idx) {
  terms::TermManager& tm = I.tm();
  if (Guard g = I.requireNonNull(s, ref)) return *g;
  const Object& a = I.deref(s, ref);
  Term len = a.long_length ? a.long_length : tm.intLit(static_cast<std::int32_t>(a.elems.size()));
  Term outOfBounds = tm.lor(tm.lt(idx, tm.intLit(0)), tm.ge(idx, len));
  auto oob = I.explorer().branch(s, outOfBounds, false);
  if (!oob) return StepOutcome::Ended;
  if (*oob) return I.throwNew(s, "java/lang/ArrayIndexOutOfBoundsException");
  // (A bounds check the solver could not decide lets both ways through; an index that is
  // surely out of bounds still throws here: an empty array, or a literal past its end.)
  const Object& held = I.deref(s, ref);
  if (!held.long_length) {
    const auto k = tm.asInteger(idx);
    if (held.elems.empty() || (k && (*k < 0 || *k >= static_cast<std::int64_t>(held.elems.size()))))
      return I.throwNew(s, "java/lang/ArrayIndexOutOfBoundsException");
  }
  if (I.deref(s, ref).long_length && I.deref(s, ref).elem_sort != Sort::Ref)
    return &I.deref(s, ref);  // an array of primitives past the bound: see Interpreter::longArrayElement
  if (I.deref(s, ref).long_length) {  // an element of an array of references past the bound: not held
    I.explorer().note(s, "an element of an input array longer than " + std::to_string(I.options().max_array_length) +
                             " is accessed (path cut)");
    I.explorer().cutPath(s, Explorer::Cut::Depth);
    return StepOutcome::Ended;
  }
  return &I.deref(s, ref);
}

/// The index of an access to an array of references, as a literal: a reference is a heap literal,
/// never a term over the index, so a symbolic index is decided value by value (the bounds check
/// passed, so one of the n values holds).
Checked<Term> referenceIndex(Interpreter& I, State& s, Term idx, std::size_t n) {
  terms::TermManager& tm = I.tm();
  if (tm.asInteger(idx)) return idx;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    auto isK = I.explorer().branch(s, tm.eq(idx, tm.intLit(static_cast<std::int32_t>(k))), false);
    if (!isK) return StepOutcome::Ended;
    if (*isK) return tm.intLit(static_cast<std::int32_t>(k));
  }
  return tm.intLit(static_cast<std::int32_t>(n - 1));
}

StepOutcome load(Interpreter& I, State& s) {
  terms::TermManager& tm = I.tm();
  I.explorer().keepInstructionStart(s);  // an element from an unmodelled call may decide its nullness
  Term idx = pop(s);
  Term ref = pop(s);
  Checked<Object*> arr = checkedElement(I, s, ref, idx);
  if (!arr.ok()) return arr.outcome();
  if ((*arr)->long_length) return pushNext(s, I.longArrayElement(s, ref, idx));
  const std::vector<Term>& elems = (*arr)->elems;
  if ((*arr)->elem_sort == Sort::Ref) {
    Checked<Term> k = referenceIndex(I, s, idx, elems.size());
    if (!k.ok()) return k.outcome();
    idx = *k;
  }
  if (auto k = tm.asInteger(idx)) {
    Term e = elems[static_cast<std::size_t>(*k)];
    if (tm.sort(e) == Sort::Ref && tm.node(e).bits != 0 && I.deref(s, e).maybe_null) {
      std::optional<Term> settled = I.settle(s, e);
      if (!settled) return StepOutcome::Ended;
      I.deref(s, ref).elems[static_cast<std::size_t>(*k)] = *settled;
      e = *settled;
    }
    return pushNext(s, e);
  }
  // A primitive element at a symbolic index: an ite over the elements.
  Term v = elems.back();
  for (std::size_t i = elems.size() - 1; i-- > 0;)
    v = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), elems[i], v);
  return pushNext(s, v);
}

StepOutcome store(Interpreter& I, State& s) {
  terms::TermManager& tm = I.tm();
  I.explorer().keepInstructionStart(s);
  Term v = pop(s);
  Term idx = pop(s);
  Term ref = pop(s);
  Checked<Object*> checked = checkedElement(I, s, ref, idx);
  if (!checked.ok()) return checked.outcome();
  if ((**checked).elem_sort == Sort::Ref) {
    Checked<Term> k = referenceIndex(I, s, idx, (**checked).elems.size());
    if (!k.ok()) return k.outcome();
    idx = *k;
  }
  if (I.deref(s, ref).long_length) {
    I.storeLongArrayElement(s, ref, idx, v);
    return next(s);
  }
  Object& arr = I.deref(s, ref);
  arr.dirty = true;
  arr.ident = Term{};
  v = narrowTo(tm, arr.elem_kind, v);
  if (auto k = tm.asInteger(idx)) {
    arr.elems[static_cast<std::size_t>(*k)] = v;
  } else {
    for (std::size_t i = 0; i < arr.elems.size(); ++i)
      arr.elems[i] = tm.ite(tm.eq(idx, tm.intLit(static_cast<std::int32_t>(i))), v, arr.elems[i]);
  }
  return next(s);
}


constexpr std::size_t kLongArray = static_cast<std::size_t>(-1);

/// The length of a new array: NegativeArraySizeException below zero; a symbolic count is
/// explored value by value up to max_array_length; a longer one cuts the path, or, when
/// `longOk` (an array of primitives), is kLongArray with `count > max_array_length` on the path.
Checked<std::size_t> newLength(Interpreter& I, State& s, Term count, const std::string& desc, bool longOk = false) {
  terms::TermManager& tm = I.tm();
  auto negative = I.explorer().branch(s, tm.lt(count, tm.intLit(0)), false);
  if (!negative) return StepOutcome::Ended;
  if (*negative) return I.throwNew(s, "java/lang/NegativeArraySizeException");
  if (auto k = tm.asInteger(count)) {
    const auto budget = static_cast<std::int64_t>(I.options().max_array_elements);
    if (*k > budget) {
      // Every element is a term in every state of the path: past the budget the path is cut
      // (bounded verification), never an allocation the machine cannot hold.
      I.explorer().note(s, "array of " + std::to_string(*k) + " elements (" + desc + ") exceeds the engine's budget of " +
                               std::to_string(budget) + " elements per array (path cut)");
      I.explorer().cutPath(s, Explorer::Cut::Depth);
      return StepOutcome::Ended;
    }
    return static_cast<std::size_t>(*k);
  }
  const int bound = I.options().max_array_length;
  for (int k = 0; k <= bound; ++k) {
    auto isK = I.explorer().branch(s, tm.eq(count, tm.intLit(k)), false);
    if (!isK) return StepOutcome::Ended;
    if (*isK) return static_cast<std::size_t>(k);
  }
  if (longOk) {
    s.pc.push_back(tm.gt(count, tm.intLit(bound)));
    return kLongArray;
  }
  I.explorer().note(s, "array of symbolic length longer than " + std::to_string(bound) + " (" + desc + ") cut");
  I.explorer().cutPath(s, Explorer::Cut::Depth);
  return StepOutcome::Ended;
}

Term makeArray(Interpreter& I, State& s, std::size_t len, const std::string& elemDesc) {
  Object o;
  o.cls = "[" + elemDesc;
  o.is_array = true;
  o.elem_kind = elemDesc[0];
  o.elem_sort = sortOfDescriptor(elemDesc[0]);
  jvm::TypeDesc td;
  td.kind = elemDesc[0];
  td.text = elemDesc;
  o.elems.assign(len, I.defaultValue(td));
  return I.allocate(s, std::move(o));
}

/// Cut the path when `more` new elements would take its heap past max_path_elements.
Guard withinBudget(Interpreter& I, State& s, std::size_t more) {
  std::size_t held = 0;
  for (const Object& o : s.heap) held += o.elems.size();
  const std::size_t budget = I.options().max_path_elements;
  if (held + more <= budget) return std::nullopt;
  I.explorer().note(s, "arrays of more than " + std::to_string(budget) +
                           " elements in all on one path exceed the engine's budget (path cut)");
  I.explorer().cutPath(s, Explorer::Cut::Depth);
  return StepOutcome::Ended;
}

StepOutcome newArray(Interpreter& I, State& s, const Instruction& in) {
  Term count = pop(s);
  static const char* kinds = "????ZCFDBSIJ";  // newarray atype 4..11
  std::string elem;
  if (in.op == Opcode::newarray) {
    if (in.imm < 4 || in.imm > 11) throw ExecError("bad newarray type");
    elem = std::string(1, kinds[in.imm]);
  } else {
    elem = in.type[0] == '[' ? in.type : "L" + in.type + ";";
  }
  const bool primitive = elem[0] != 'L' && elem[0] != '[';
  Checked<std::size_t> len = newLength(I, s, count, elem, primitive);
  if (!len.ok()) return len.outcome();
  if (*len == kLongArray) return pushNext(s, I.allocate(s, longArray(I.tm(), elem, count)));
  if (Guard g = withinBudget(I, s, *len)) return *g;
  return pushNext(s, makeArray(I, s, *len, elem));
}

/// An array of `lens.size() - d` dimensions from descriptor `desc`, sub-arrays included.
Term buildDimensions(Interpreter& I, State& s, const std::vector<std::size_t>& lens, std::size_t d,
                     const std::string& desc) {
  std::string elem = desc.substr(1);
  Term arr = makeArray(I, s, lens[d], elem);
  if (d + 1 < lens.size()) {
    for (std::size_t i = 0; i < lens[d]; ++i) {
      Term sub = buildDimensions(I, s, lens, d + 1, elem);
      I.deref(s, arr).elems[i] = sub;
    }
  }
  return arr;
}

StepOutcome multiNewArray(Interpreter& I, State& s, const Instruction& in) {
  int dims = in.imm;
  std::vector<Term> counts(static_cast<std::size_t>(dims));
  for (int i = dims - 1; i >= 0; --i) counts[static_cast<std::size_t>(i)] = pop(s);
  std::vector<std::size_t> lens;
  for (Term c : counts) {
    Checked<std::size_t> len = newLength(I, s, c, in.type);
    if (!len.ok()) return len.outcome();
    lens.push_back(*len);
  }
  std::size_t total = 1, all = 0;
  for (std::size_t l : lens) {
    total = total * std::max<std::size_t>(l, 1);
    all += total;
    if (all > I.options().max_path_elements) break;
  }
  if (Guard g = withinBudget(I, s, all)) return *g;
  return pushNext(s, buildDimensions(I, s, lens, 0, in.type));
}

StepOutcome length(Interpreter& I, State& s) {
  Term ref = pop(s);
  if (Guard g = I.requireNonNull(s, ref)) return *g;
  if (Term n = I.deref(s, ref).long_length) return pushNext(s, n);
  std::size_t n = I.deref(s, ref).elems.size();
  return pushNext(s, I.tm().intLit(static_cast<std::int32_t>(n)));
}

}  // namespace

StepOutcome arrays(Interpreter& I, State& s, const Instruction& in) {
  switch (in.op) {
    case Opcode::iaload: case Opcode::laload: case Opcode::faload: case Opcode::daload:
    case Opcode::aaload: case Opcode::baload: case Opcode::caload: case Opcode::saload:
      return load(I, s);
    case Opcode::iastore: case Opcode::lastore: case Opcode::fastore: case Opcode::dastore:
    case Opcode::aastore: case Opcode::bastore: case Opcode::castore: case Opcode::sastore:
      return store(I, s);
    case Opcode::newarray: case Opcode::anewarray: return newArray(I, s, in);
    case Opcode::multianewarray: return multiNewArray(I, s, in);
    case Opcode::arraylength: return length(I, s);
    default: throw misrouted(s, in);
  }
}

}  // namespace pasda::symexec::ops
