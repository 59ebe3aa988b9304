// The input heap: lazy materialisation of reference inputs in bounded verification's
// small-scope style, one identically materialised copy per side (so one version's writes are
// invisible to the other), and the alignment of the two sides' final states.
#include "input_heap.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec {

namespace {

bool isRefDesc(const std::string& d) { return !d.empty() && (d[0] == 'L' || d[0] == '['); }

std::string classOfDesc(const std::string& d) {
  if (d.empty()) return "java/lang/Object";
  if (d[0] == 'L') return d.substr(1, d.size() - 2);
  return d;
}

}  // namespace

std::string InputHeap::originalName(const std::string& cls) const {
  // (arrays of the analysed class too: "[[L<main>;")
  std::size_t dims = 0;
  while (dims < cls.size() && cls[dims] == '[') ++dims;
  const bool refArray = dims > 0 && cls.size() > dims + 2 && cls[dims] == 'L' && cls.back() == ';';
  if (dims > 0 && !refArray) return cls;
  const std::string inner = refArray ? cls.substr(dims + 1, cls.size() - dims - 2) : cls;
  for (Side side : {kOld, kNew})
    if (!opt_.main_class[side].empty() && inner == opt_.main_class[side])
      return dims ? std::string(dims, '[') + "L<main>;" : "<main>";
  return cls;
}

std::string InputHeap::sideName(const std::string& neutral, Side side) const {
  const std::size_t at = neutral.find("<main>");
  if (at == std::string::npos) return neutral;
  return neutral.substr(0, at) + opt_.main_class[side] + neutral.substr(at + 6);
}

int InputHeap::newInput(State& s, const std::string& path, const std::string& cls) {
  InputObject in;
  in.path = path;
  in.cls = cls;
  in.is_array = !cls.empty() && cls[0] == '[';
  int index = static_cast<int>(s.inputs.size());
  for (Side side : {kOld, kNew}) {
    Object o;
    o.cls = sideName(cls, side);
    o.input = index;
    o.lazy = true;
    o.is_array = in.is_array;
    Term ref = allocate(tm_, s, std::move(o));
    in.side_obj[side] = tm_.node(ref).bits;
  }
  s.inputs.push_back(std::move(in));
  return index;
}

// Choose the target of an input reference: null (unless non_null), a fresh input object
// (within the bound), or an alias of an existing input object of the same class. Returns
// the input index, -1 for null, or -2 when the path was cut by the heap bound.
int InputHeap::chooseTarget(State& s, const std::string& path, const std::string& cls, bool nonNull,
                                 std::string& fact) {
  std::vector<int> aliases;
  int sameClass = 0;
  for (std::size_t j = 0; j < s.inputs.size(); ++j)
    if (s.inputs[j].cls == cls) {
      aliases.push_back(static_cast<int>(j));
      ++sameClass;
    }
  // The "fresh object" alternative always exists; beyond the heap bound it cuts the path
  // (bounded verification covers every heap up to the bound and none beyond). The bound is on
  // the objects reached through fields and elements: a parameter (or the receiver) is always
  // one more object if it is not an alias, as the method's arity bounds them (Triple.of(l, m, r)
  // of three Objects was cut at the default bound 2). Strings and boxes are never cut: they
  // hold no reference, so they start no chain of objects the bound must stop, and how many a
  // path meets is bounded by its field reads (ToStringStyle's appendDetail reads three string
  // fields of its receiver besides its String parameter: it was cut at the second).
  const bool root = path.find_first_of(".[") == std::string::npos;
  bool canFresh = root || immutableValueClass(cls) || sameClass < opt_.heap_bound;
  int n = (nonNull ? 0 : 1) + 1 + static_cast<int>(aliases.size());
  int k = n == 1 ? 0 : explorer_.choose(s, n);
  if (!nonNull) {
    if (k == 0) {
      fact = path + " == null";
      return -1;
    }
    --k;
  }
  if (k == 0) {
    if (!canFresh) {
      explorer_.note(s, "heap bound " + std::to_string(opt_.heap_bound) + " reached for " + cls + " (path cut)");
      explorer_.cutPath(s, Explorer::Cut::Depth);
      return -2;
    }
    fact = path + " != null";
    return newInput(s, path, cls);
  }
  --k;
  int j = aliases[static_cast<std::size_t>(k)];
  fact = path + " == " + s.inputs[static_cast<std::size_t>(j)].path;
  return j;
}

StepOutcome InputHeap::longArray(State& s, InputObject& in) {
  // Longer than the bound: one more partition whose length is an input variable above it and
  // whose elements are not held. What reads only the length (or passes the array on) is
  // decided for every length; an element access cuts the path there.
  const std::string bound = std::to_string(opt_.max_array_length);
  Term n = inputVar(s, in.path + ".length", 'I');
  s.pc.push_back(tm_.gt(n, tm_.intLit(opt_.max_array_length)));
  s.heap_facts.push_back(in.path + ".length > " + bound);
  in.fields["length"] = n;
  char elem = in.cls.size() > 1 ? in.cls[1] : 'I';
  for (Side side : {kOld, kNew}) {
    Object& o = s.heap[in.side_obj[side]];
    o.elem_kind = elem;
    o.elem_sort = sortOfDescriptor(elem);
    o.elems.clear();
    o.long_length = n;
  }
  explorer_.note(s, "input arrays longer than " + bound + " have a symbolic length and no elements held");
  return StepOutcome::Continue;
}

StepOutcome InputHeap::materializeLength(State& s) {
  // A fresh input array gets its length (explored value by value up to the bound; longer
  // arrays cut the path).
  int len = explorer_.choose(s, opt_.max_array_length + 2);
  int target = s.pending_lengths.front();
  s.pending_lengths.erase(s.pending_lengths.begin());
  InputObject& in = s.inputs[static_cast<std::size_t>(target)];
  if (len > opt_.max_array_length) return longArray(s, in);
  s.heap_facts.push_back(in.path + ".length == " + std::to_string(len));
  char elem = in.cls.size() > 1 ? in.cls[1] : 'I';
  Sort es = sortOfDescriptor(elem);
  in.fields["length"] = tm_.intLit(len);
  std::vector<Term> elems;
  for (int i = 0; i < len; ++i) {
    std::string name = in.path + "[" + std::to_string(i) + "]";
    Term v = es == Sort::Ref ? tm_.nullRef() : inputVar(s, name, elem);
    in.fields["[" + std::to_string(i) + "]"] = v;
    elems.push_back(v);
  }
  // The elements of an array of references are unknown objects, each side's copy its own
  // object with one side-neutral identity ("input:a[0]"): null or not is decided at first use
  // (shared by the versions), and what they are like unmodelled results (any object they could
  // be, Java's identity included). (They were null: a false EQ when code tested them.)
  const std::string elemType = elementType(in.cls);
  const std::string path = in.path;
  const std::uint64_t copies[2] = {in.side_obj[kOld], in.side_obj[kNew]};
  for (int k = 0; k < 2; ++k) {
    std::vector<Term> mine = elems;
    for (int i = 0; es == Sort::Ref && i < len; ++i) {
      Term ident = tm_.apply("input:" + path + "[" + std::to_string(i) + "]", terms::FunKind::Library, Sort::Int, {});
      mine[static_cast<std::size_t>(i)] = allocate(tm_, s, unknownObject(elemType, ident));
    }
    Object& o = s.heap[copies[k]];
    o.elem_kind = elem;
    o.elem_sort = es;
    o.elems = std::move(mine);
  }
  if (es == Sort::Ref && len > 0)
    explorer_.note(s, "elements of reference-array inputs are unknown objects (null or not decided at first use)");
  return StepOutcome::Continue;
}

StepOutcome InputHeap::materializePending(State& s) {
  if (!s.pending_lengths.empty()) return materializeLength(s);
  PendingInput pin = s.pending.front();
  std::string fact;
  int target = chooseTarget(s, pin.name, pin.cls, pin.non_null, fact);
  if (target == -2) return StepOutcome::Ended;
  s.pending.erase(s.pending.begin());
  s.root_names.push_back(pin.name);
  if (!fact.empty()) s.heap_facts.push_back(fact);
  Frame& f = s.frames.front();
  for (auto [slot, side] : pin.slots) {
    Term ref = target < 0 ? tm_.nullRef() : tm_.lit(Sort::Ref, s.inputs[static_cast<std::size_t>(target)].side_obj[side]);
    if (static_cast<std::size_t>(slot) < f.locals.size()) f.locals[static_cast<std::size_t>(slot)] = ref;
  }
  if (target >= 0 && s.inputs[static_cast<std::size_t>(target)].is_array &&
      !s.inputs[static_cast<std::size_t>(target)].fields.count("length"))
    s.pending_lengths.push_back(target);
  return StepOutcome::Continue;
}

std::string inputFieldPath(const std::string& path, const std::string& cls, const std::string& field) {
  if (cls != "<statics>" || field.find('.') == std::string::npos) return path + "." + field;
  std::string out = field;
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

std::optional<Term> InputHeap::readField(State& s, Object& o, const std::string& name, const std::string& desc) {
  const int k = o.input;
  InputObject* in = &s.inputs[static_cast<std::size_t>(k)];
  // The side whose copy is read (decided now: materialising may grow the heap and move `o`).
  Side side = kOld;
  for (Side sd : {kOld, kNew})
    if (&s.heap[in->side_obj[sd]] == &o) side = sd;
  if (auto it = in->fields.find(name); it != in->fields.end()) return it->second;
  in->descs[name] = isRefDesc(desc) && desc[0] == 'L' ? "L" + originalName(classOfDesc(desc)) + ";" : originalName(desc);
  if (!isRefDesc(desc)) {
    Term v = inputVar(s, inputFieldPath(in->path, in->cls, name), desc[0]);
    s.inputs[static_cast<std::size_t>(k)].fields[name] = v;
    return v;
  }
  auto rf = in->ref_fields.find(name);
  int target;
  if (rf != in->ref_fields.end()) {
    target = rf->second;
  } else {
    std::string fact;
    std::string path = inputFieldPath(in->path, in->cls, name);
    target = chooseTarget(s, path, originalName(classOfDesc(desc)), false, fact);
    if (target == -2) return std::nullopt;
    in = &s.inputs[static_cast<std::size_t>(k)];  // chooseTarget may have grown the vector
    in->ref_fields[name] = target;
    s.heap_facts.push_back(fact);
    // An array behind a field is an input like an array parameter: its length is chosen
    // before the next instruction (Interpreter::step), its elements are input variables.
    if (target >= 0) {
      const InputObject& t = s.inputs[static_cast<std::size_t>(target)];
      bool pending = std::find(s.pending_lengths.begin(), s.pending_lengths.end(), target) != s.pending_lengths.end();
      if (t.is_array && !t.fields.count("length") && !pending) s.pending_lengths.push_back(target);
    }
  }
  // The value for the side that reads: its own copy of the target.
  return target < 0 ? tm_.nullRef() : tm_.lit(Sort::Ref, s.inputs[static_cast<std::size_t>(target)].side_obj[side]);
}

bool InputHeap::compareState(State& s, const std::vector<std::pair<Term, Term>>& roots, Entries& oldState,
                             Entries& newState) {
  // A difference in the shape of the two object graphs: reported as two distinct values.
  auto mismatch = [&](const std::string& path, const std::string& what) {
    oldState.emplace_back(path + " (" + what + ")", tm_.intLit(0));
    newState.emplace_back(path + " (" + what + ")", tm_.intLit(1));
  };
  // The two graphs are compared up to isomorphism: a bijection between the objects met.
  std::map<std::uint64_t, std::uint64_t> seen, seenBack;  // old id -> new id, new id -> old id
  std::vector<std::tuple<std::string, Term, Term>> work;
  for (std::size_t i = 0; i < roots.size(); ++i)
    work.emplace_back(i < s.root_names.size() ? s.root_names[i] : "result", roots[i].first, roots[i].second);
  if (!staticRoots(s, work, oldState, newState)) return false;
  while (!work.empty()) {
    auto [path, a, b] = work.front();
    work.erase(work.begin());
    std::uint64_t ia = tm_.node(a).bits, ib = tm_.node(b).bits;
    if (ia == 0 || ib == 0) {
      if (ia != ib) mismatch(path, ia == 0 ? "null-vs-object" : "object-vs-null");
      continue;
    }
    auto it = seen.find(ia);
    auto back = seenBack.find(ib);
    if (it != seen.end() || back != seenBack.end()) {
      if (it == seen.end() || it->second != ib) mismatch(path, "aliasing");
      continue;
    }
    seen[ia] = ib;
    seenBack[ib] = ia;
    if (!compareObjects(s, path, ia, ib, work, oldState, newState)) return false;
  }
  compareOutput(s, oldState, newState);
  return true;
}

void InputHeap::compareOutput(State& s, Entries& oldState, Entries& newState) {
  // Console output, stream by stream: two texts of known characters compare exactly (lengths,
  // then characters); with an unmodelled piece of text in either, only the same pieces at the
  // same places compare piece by piece, anything else is unknown.
  if (!opt_.compare_output) return;
  std::set<std::string> streams;
  for (Side side : {kOld, kNew})
    for (const auto& [k, v] : s.printed[side]) streams.insert(k);
  static const std::vector<Term> kNothing;
  for (const std::string& stream : streams) {
    auto get = [&](Side side) -> const std::vector<Term>& {
      auto it = s.printed[side].find(stream);
      return it == s.printed[side].end() ? kNothing : it->second;
    };
    const std::vector<Term>& a = get(kOld);
    const std::vector<Term>& b = get(kNew);
    auto marker = [&](Term t) { return tm_.op(t) == terms::Op::Apply; };
    const bool anyMarker = std::any_of(a.begin(), a.end(), marker) || std::any_of(b.begin(), b.end(), marker);
    if (a.size() != b.size()) {
      if (anyMarker) {
        oldState.emplace_back(stream, tm_.apply("output_old:" + stream, terms::FunKind::Library, Sort::Int, {}));
        newState.emplace_back(stream, tm_.apply("output_new:" + stream, terms::FunKind::Library, Sort::Int, {}));
      } else {
        oldState.emplace_back(stream + " (length)", tm_.intLit(static_cast<std::int32_t>(a.size())));
        newState.emplace_back(stream + " (length)", tm_.intLit(static_cast<std::int32_t>(b.size())));
      }
      continue;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      oldState.emplace_back(stream + "[" + std::to_string(i) + "]", a[i]);
      newState.emplace_back(stream + "[" + std::to_string(i) + "]", b[i]);
    }
  }
}

bool InputHeap::compareObjects(State& s, const std::string& path, std::uint64_t ia, std::uint64_t ib,
                               std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                               Entries& newState) {
  Object& oa = s.heap[ia];
  Object& ob = s.heap[ib];
  if (originalName(oa.cls) != originalName(ob.cls) || oa.is_array != ob.is_array) {
    oldState.emplace_back(path + " (class)", tm_.intLit(0));
    newState.emplace_back(path + " (class)", tm_.intLit(1));
    return true;
  }
  if (oa.long_length || ob.long_length) {
    // An input array past the bound on a side: its length and its identity (the input, or the
    // unmodelled call that may have changed it).
    oldState.emplace_back(path + ".length", oa.long_length ? oa.long_length : tm_.intLit(static_cast<std::int32_t>(oa.elems.size())));
    newState.emplace_back(path + ".length", ob.long_length ? ob.long_length : tm_.intLit(static_cast<std::int32_t>(ob.elems.size())));
    oldState.emplace_back(path, identity(s, ia, kOld));
    newState.emplace_back(path, identity(s, ib, kNew));
    return true;
  }
  if (oa.opaque || ob.opaque || oa.havocked || ob.havocked) {
    // Values the engine does not model (library objects): equal only when their identity
    // terms are (the same unmodelled computation on equal arguments), otherwise unknown.
    Term x = identity(s, ia, kOld), y = identity(s, ib, kNew);
    oldState.emplace_back(path, x);
    newState.emplace_back(path, y);
    return true;
  }
  if (oa.chars && ob.chars) {  // strings and builders with known characters: their texts
    if (oa.elems.size() != ob.elems.size()) {
      oldState.emplace_back(path + ".length()", tm_.intLit(static_cast<std::int32_t>(oa.elems.size())));
      newState.emplace_back(path + ".length()", tm_.intLit(static_cast<std::int32_t>(ob.elems.size())));
      return true;
    }
    for (std::size_t i = 0; i < oa.elems.size(); ++i) {
      if (oa.elems[i] == ob.elems[i]) continue;
      oldState.emplace_back(path + ".charAt(" + std::to_string(i) + ")", oa.elems[i]);
      newState.emplace_back(path + ".charAt(" + std::to_string(i) + ")", ob.elems[i]);
    }
    return true;
  }
  const bool libraryObject = !oa.is_array && !program_.find(kOld, oa.cls) && oa.fields.empty() && ob.fields.empty();
  if (oa.chars || ob.chars || oa.cls == "java/lang/String" || libraryObject) {
    // A string whose characters one side does not know (an input never read, a String made by
    // a library constructor), or a library object without modelled fields (a Class constant, a
    // StringBuilder made by a constructor): equal exactly when the identity terms are (the same
    // input, the same constructor on equal arguments, the same class), otherwise unknown.
    oldState.emplace_back(path, identity(s, ia, kOld));
    newState.emplace_back(path, identity(s, ib, kNew));
    return true;
  }
  if (oa.is_array) {
    if (oa.elems.size() != ob.elems.size()) {
      oldState.emplace_back(path + ".length", tm_.intLit(static_cast<std::int32_t>(oa.elems.size())));
      newState.emplace_back(path + ".length", tm_.intLit(static_cast<std::int32_t>(ob.elems.size())));
      return true;
    }
    for (std::size_t i = 0; i < oa.elems.size(); ++i) {
      std::string p = path + "[" + std::to_string(i) + "]";
      Term ea = s.heap[ia].elems[i], eb = s.heap[ib].elems[i];
      if (tm_.sort(ea) == Sort::Ref) work.emplace_back(p, ea, eb);
      else {
        oldState.emplace_back(p, ea);
        newState.emplace_back(p, eb);
      }
    }
    return true;
  }
  return compareFields(s, path, ia, ib, work, oldState, newState);
}

bool InputHeap::compareFields(State& s, const std::string& path, std::uint64_t ia, std::uint64_t ib,
                              std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                              Entries& newState) {
  // Fields either side wrote or read; a field one side never touched still holds its input value.
  std::set<std::string> names;
  for (const auto& [n, v] : s.heap[ia].fields) names.insert(n);
  for (const auto& [n, v] : s.heap[ib].fields) names.insert(n);
  for (const std::string& n : names) {
    // (objects are looked up again on every field: materialising inputs may grow the heap)
    auto fa = s.heap[ia].fields.find(n), fb = s.heap[ib].fields.find(n);
    Term va = fa != s.heap[ia].fields.end() ? fa->second : Term{};
    Term vb = fb != s.heap[ib].fields.end() ? fb->second : Term{};
    auto fromInput = [&](Object& o, Side side) -> Term {
      if (o.input < 0) return Term{};
      InputObject& in = s.inputs[static_cast<std::size_t>(o.input)];
      if (auto it = in.fields.find(n); it != in.fields.end()) return it->second;
      if (auto it = in.ref_fields.find(n); it != in.ref_fields.end())
        return it->second < 0 ? tm_.nullRef()
                              : tm_.lit(Sort::Ref, s.inputs[static_cast<std::size_t>(it->second)].side_obj[side]);
      return Term{};
    };
    std::string p = path + "." + n;
    if (!declaresField(kOld, s.heap[ia].cls, n) || !declaresField(kNew, s.heap[ib].cls, n)) {
      // A field of one version's class only (a renamed or added private field): its value
      // has nothing to be compared with; what the object does with it shows in other outputs.
      // (An input object is shared by the versions: the other side "reads" the field from it
      // although its class has no such field.)
      oldState.emplace_back(p, tm_.apply("unknown_old:" + p, terms::FunKind::Library, Sort::Int, {}));
      newState.emplace_back(p, tm_.apply("unknown_new:" + p, terms::FunKind::Library, Sort::Int, {}));
      continue;
    }
    if (!va) va = fromInput(s.heap[ia], kOld);
    if (!vb) vb = fromInput(s.heap[ib], kNew);
    if ((!va || !vb) && (va || vb)) {
      Checked<Term> filler = untouchedField(s, va ? s.heap[ib] : s.heap[ia], va ? kNew : kOld, n, va ? va : vb);
      if (!filler.ok()) return false;
      (va ? vb : va) = *filler;
    }
    if (!va || !vb) {
      oldState.emplace_back(p, tm_.apply("unknown_old:" + p, terms::FunKind::Library, Sort::Int, {}));
      newState.emplace_back(p, tm_.apply("unknown_new:" + p, terms::FunKind::Library, Sort::Int, {}));
      continue;
    }
    if (tm_.sort(va) == Sort::Ref || tm_.sort(vb) == Sort::Ref) {
      work.emplace_back(p, va, vb);
    } else {
      oldState.emplace_back(p, va);
      newState.emplace_back(p, vb);
    }
  }
  return true;
}

bool InputHeap::declaresField(Side side, const std::string& cls, const std::string& name) const {
  std::string c = cls;
  for (int guard = 0; guard < 256 && !c.empty() && c != "java/lang/Object"; ++guard) {
    const LoadedClass* lc = program_.find(side, c);
    if (lc == nullptr) return true;  // a library class (or one not loaded): it may declare it
    for (const jvm::Field& f : lc->cf.fields)
      if (f.name == name) return true;
    c = lc->super_name;
  }
  return false;  // (Object declares no field)
}

Checked<Term> InputHeap::untouchedField(State& s, Object& missing, Side missingSide, const std::string& n, Term known) {
  // A field one side never touched: on an object created during the run it holds its
  // default value; on an input object it holds the input value (primitives: the input
  // variable; references: materialised now, which may fork on its shape like a read would).
  // An empty term: the value is unknown (the comparison stays inexact).
  if (missing.input < 0) return tm_.sort(known) == Sort::Ref ? tm_.nullRef() : tm_.lit(tm_.sort(known), 0);
  if (tm_.sort(known) != Sort::Ref) {
    InputObject& in = s.inputs[static_cast<std::size_t>(missing.input)];
    Term filler = tm_.var(in.path + "." + n, tm_.sort(known));
    in.fields[n] = filler;
    if (const LoadedClass* c = program_.find(missingSide, missing.cls))
      for (const jvm::Field& fld : c->cf.fields)
        if (fld.name == n && !fld.isStatic()) in.descs[n] = fld.descriptor;
    explorer_.addInputVar(filler);
    return filler;
  }
  std::string desc;
  if (const LoadedClass* c = program_.find(missingSide, missing.cls))
    for (const jvm::Field& fld : c->cf.fields)
      if (fld.name == n && !fld.isStatic()) desc = fld.descriptor;
  if (desc.empty()) return Term{};
  std::optional<Term> v = readField(s, missing, n, desc);
  if (!v) return StepOutcome::Ended;
  return *v;
}

std::string InputHeap::mainSimpleName() const {
  std::string cls = opt_.main_class[kOld].empty() ? opt_.main_class[kNew] : opt_.main_class[kOld];
  std::string simple = cls.substr(cls.rfind('/') == std::string::npos ? 0 : cls.rfind('/') + 1);
  for (const char* suffix : {"$V1", "$V2"})
    if (simple.size() > 3 && simple.compare(simple.size() - 3, 3, suffix) == 0) simple.resize(simple.size() - 3);
  return simple;
}

int InputHeap::staticsHolder(State& s) {
  if (s.statics_input >= 0) return s.statics_input;
  InputObject in;
  in.path = mainSimpleName();
  in.cls = "<statics>";
  int index = static_cast<int>(s.inputs.size());
  for (Side side : {kOld, kNew}) {
    Object o;
    o.cls = "<statics>";
    o.input = index;
    o.lazy = true;
    Term ref = allocate(tm_, s, std::move(o));
    in.side_obj[side] = tm_.node(ref).bits;
  }
  s.inputs.push_back(std::move(in));
  s.statics_input = index;
  return index;
}

namespace {

/// The static field `name` of class `c`, if `c` declares it.
const jvm::Field* staticField(const LoadedClass* c, const std::string& name) {
  if (!c) return nullptr;
  for (const jvm::Field& f : c->cf.fields)
    if (f.isStatic() && f.name == name) return &f;
  return nullptr;
}

bool isFinal(const jvm::Field& f) { return (f.access_flags & jvm::acc::Final) != 0; }

}  // namespace

const LoadedClass* InputHeap::staticTwin(Side side, const std::string& cls) const {
  const Side other = side == kOld ? kNew : kOld;
  if (opt_.main_class[kOld].empty() || opt_.main_class[kNew].empty()) return nullptr;
  if (cls == opt_.main_class[side]) return program_.find(other, opt_.main_class[other]);
  if (cls == opt_.main_class[other]) return nullptr;  // (the other version's class on this side's path)
  return program_.find(other, cls);                    // another class of the program: by its name
}

std::string InputHeap::holderField(const std::string& key) const {
  const std::size_t hash = key.find('#'), dot = key.rfind('.');
  const std::string owner = key.substr(hash + 1, dot - hash - 1), name = key.substr(dot + 1);
  for (Side side : {kOld, kNew})
    if (owner == opt_.main_class[side]) return name;
  return owner + "." + name;
}

namespace {

/// The classes named by a class's NestHost / NestMembers attribute (JVMS 4.7.28-29).
std::vector<std::string> nestClasses(const jvm::ClassFile& cf) {
  std::vector<std::string> out;
  for (const jvm::Attribute& a : cf.attributes) {
    const std::string& name = cf.pool.utf8(a.name_index);
    auto u2 = [&](std::size_t at) { return static_cast<std::uint16_t>(a.data[at] << 8 | a.data[at + 1]); };
    if (name == "NestHost" && a.data.size() == 2) out.push_back(cf.pool.className(u2(0)));
    if (name == "NestMembers" && a.data.size() >= 2)
      for (std::size_t i = 0, n = u2(0); i < n && 2 + 2 * i + 1 < a.data.size(); ++i)
        out.push_back(cf.pool.className(u2(2 + 2 * i)));
  }
  return out;
}

}  // namespace

bool InputHeap::effectivelyFinal(Side side, const LoadedClass& cls, const jvm::Field& f) const {
  if ((f.access_flags & jvm::acc::Private) == 0) return false;  // (code outside the jar may write it)
  const std::string key = std::to_string(side.index()) + "#" + cls.name + "." + f.name;
  if (auto it = effectively_final_.find(key); it != effectively_final_.end()) return it->second;
  // Only the class itself and its nestmates (their own accessors: Java 11+) can write it; a
  // class compiled for older targets writes it for its inner classes through its own
  // synthetic accessors, which are scanned with its other methods.
  std::vector<const LoadedClass*> scope{&cls};
  std::vector<std::string> nest = nestClasses(cls.cf);
  if (const LoadedClass* host = nest.size() == 1 ? program_.find(side, nest[0]) : nullptr) {
    scope.push_back(host);
    nest = nestClasses(host->cf);
  }
  for (const std::string& n : nest)
    if (const LoadedClass* m = program_.find(side, n); m && m != &cls) scope.push_back(m);
  bool written = false;
  for (const LoadedClass* c : scope)
    for (const auto& [k, m] : c->methods) {
      if (c == &cls && m->name == "<clinit>") continue;
      for (const jvm::Instruction& in : m->insns)
        written = written || (in.op == jvm::Opcode::putstatic && in.member.owner == cls.name && in.member.name == f.name);
    }
  effectively_final_[key] = !written;
  return !written;
}

bool InputHeap::staticInput(Side side, const LoadedClass& cls, const jvm::Field& f, const LoadedClass& twin) const {
  if (!f.isStatic() || isFinal(f)) return false;
  const jvm::Field* g = staticField(&twin, f.name);
  if (!g || isFinal(*g) || g->descriptor != f.descriptor) return false;
  // A private static no code writes after <clinit>, in both versions, holds its initialiser's
  // value whenever the method is called (Suppliers.NUL, a lambda: as an input, every call of
  // it was each version's own).
  return !(effectivelyFinal(side, cls, f) && effectivelyFinal(twin.side, twin, *g));
}

void InputHeap::makeStaticInputs(State& s, Side side, const LoadedClass& cls) {
  if (!opt_.static_inputs || (side != kOld && side != kNew)) return;
  const LoadedClass* twin = staticTwin(side, cls.name);
  if (!twin) return;
  for (const jvm::Field& f : cls.cf.fields) {
    if (!staticInput(side, cls, f, *twin)) continue;
    std::string key = std::to_string(side.index()) + "#" + cls.name + "." + f.name;
    s.statics.erase(key);
    s.lazy_statics.insert(key);
    if (cls.name != opt_.main_class[side]) s.input_static_classes.insert(cls.name);
  }
}

std::optional<Term> InputHeap::readStatic(State& s, Side side, const std::string& key, const std::string& desc) {
  int holder = staticsHolder(s);
  Object& o = s.heap[s.inputs[static_cast<std::size_t>(holder)].side_obj[side]];
  std::optional<Term> v = readField(s, o, holderField(key), desc);
  if (!v) return std::nullopt;
  s.lazy_statics.erase(key);
  s.statics[key] = *v;
  return v;
}

void InputHeap::addStaticRoot(const std::string& path, const PerSide<Term>& v,
                              std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                              Entries& newState) {
  if (tm_.sort(v[kOld]) == Sort::Ref) {
    work.emplace_back(path, v[kOld], v[kNew]);
  } else {
    oldState.emplace_back(path, v[kOld]);
    newState.emplace_back(path, v[kNew]);
  }
}

bool InputHeap::staticRoots(State& s, std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                            Entries& newState) {
  if (opt_.main_class[kOld].empty() || opt_.main_class[kNew].empty()) return true;
  PerSide<const LoadedClass*> c{{nullptr, program_.find(kOld, opt_.main_class[kOld]),
                             program_.find(kNew, opt_.main_class[kNew])}};
  if (!c[kOld] || !c[kNew]) return true;
  // An erroneous class (its <clinit> threw) has no observable static state: both versions'
  // failed, so only their exceptions are compared (one version's alone differs by its exception).
  auto failed = [&](Side side) { return s.init_failed.count(std::to_string(side.index()) + "#" + c[side]->name) > 0; };
  if (failed(kOld) && failed(kNew)) return true;
  const std::string simple = mainSimpleName();
  for (const jvm::Field& f : c[kOld]->cf.fields) {
    if (!f.isStatic()) continue;
    const jvm::Field* g = staticField(c[kNew], f.name);
    if (!g || g->descriptor != f.descriptor) continue;
    PerSide<Term> v;
    for (Side side : {kOld, kNew}) {
      std::string key = std::to_string(side.index()) + "#" + c[side]->name + "." + f.name;
      if (auto it = s.statics.find(key); it != s.statics.end()) {
        v[side] = it->second;
      } else if (s.lazy_statics.count(key)) {
        // Never touched on this side: it still holds its entry value (the shared input).
        std::optional<Term> in = readStatic(s, side, key, f.descriptor);
        if (!in) return false;
        v[side] = *in;
      }
    }
    if (!v[kOld] || !v[kNew]) continue;  // the class was never initialised on a side
    addStaticRoot(simple + "." + f.name, v, work, oldState, newState);
  }
  return helperStaticRoots(s, work, oldState, newState);
}

bool InputHeap::helperStaticRoots(State& s, std::vector<std::tuple<std::string, Term, Term>>& work,
                                  Entries& oldState, Entries& newState) {
  for (const std::string& h : s.input_static_classes) {
    PerSide<const LoadedClass*> c{{nullptr, program_.find(kOld, h), program_.find(kNew, h)}};
    if (!c[kOld] || !c[kNew]) continue;
    // (a class whose initialiser threw on a side: that exception is what the versions show)
    auto failed = [&](Side side) { return s.init_failed.count(std::to_string(side.index()) + "#" + h) > 0; };
    if (failed(kOld) || failed(kNew)) continue;
    std::string dotted = h;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    for (const jvm::Field& f : c[kOld]->cf.fields) {
      if (!staticInput(kOld, *c[kOld], f, *c[kNew])) continue;
      PerSide<std::string> key{{"", std::to_string(kOld.index()) + "#" + h + "." + f.name,
                                std::to_string(kNew.index()) + "#" + h + "." + f.name}};
      // Touched on neither side: both still hold the one entry value.
      if (!s.statics.count(key[kOld]) && !s.statics.count(key[kNew])) continue;
      PerSide<Term> v;
      for (Side side : {kOld, kNew}) {
        if (auto it = s.statics.find(key[side]); it != s.statics.end()) {
          v[side] = it->second;
          continue;
        }
        // Lazy, or the class never initialised on this side: its entry value (the class was
        // initialised before the call, as the replay's setting of the field makes it).
        std::optional<Term> in = readStatic(s, side, key[side], f.descriptor);
        if (!in) return false;
        v[side] = *in;
      }
      addStaticRoot(dotted + "." + f.name, v, work, oldState, newState);
    }
  }
  return true;
}

Term InputHeap::identity(State& s, std::uint64_t id, Side side, int depth) {
  using terms::FunKind;
  if (id == 0) return tm_.apply("null", FunKind::Library, Sort::Int, {});
  const Object& o = s.heap[id];
  if (o.ident) return o.ident;
  auto own = [&] {  // never shared: this side's own object
    return tm_.apply("object#" + std::to_string(side.index()) + "#" + std::to_string(id), FunKind::Library, Sort::Int, {});
  };
  // An input first, even a string whose characters are held: whether they are held depends on
  // which version touched it first (String.indexOf(str, sep) was a function of "input:sep" in
  // the old version's run and of its characters in the new one's, after the old one's
  // sep.length() had materialised them: an unshared call, MAYBE_NEQ on identical code).
  if (o.input >= 0 && !o.dirty && !o.havocked)
    return tm_.apply("input:" + s.inputs[static_cast<std::size_t>(o.input)].path, FunKind::Library, Sort::Int, {});
  if (o.chars) return tm_.apply(originalName(o.cls) + "#" + std::to_string(o.elems.size()), FunKind::Library, Sort::Int, o.elems);
  if (o.cls == "java/lang/Class" && !o.text.empty() && !o.opaque)
    return tm_.apply("class:" + originalName(o.text), FunKind::Library, Sort::Int, {});
  if (o.opaque || o.havocked || o.long_length || depth > 2) return own();
  if (auto v = o.fields.find("value"); v != o.fields.end() && o.fields.size() == 1 && !o.is_array &&
                                        o.cls.rfind("java/lang/", 0) == 0 && tm_.sort(v->second) != Sort::Ref)
    return tm_.apply("box:" + o.cls, FunKind::Library, Sort::Int, {v->second});  // a box: its value
  std::vector<Term> parts;
  auto add = [&](Term v) {
    parts.push_back(tm_.sort(v) == Sort::Ref ? identity(s, tm_.node(v).bits, side, depth + 1) : v);
  };
  if (o.is_array) {
    for (Term e : o.elems) add(e);
    return tm_.apply("array:" + originalName(o.cls) + ":" + std::to_string(o.elems.size()), FunKind::Library,
                     Sort::Int, parts);
  }
  if (!program_.find(side, o.cls)) return own();  // a library object without a known content
  if (o.input >= 0) return own();  // a written input object: unread fields are not in `fields`
  std::string shape = "object:" + originalName(o.cls);
  for (const auto& [name, v] : o.fields) {
    shape += ":" + name;
    add(v);
  }
  return tm_.apply(shape, FunKind::Library, Sort::Int, parts);
}

Term InputHeap::identityOf(State& s, Term value, Side side) {
  if (tm_.sort(value) != Sort::Ref) return value;
  return identity(s, tm_.node(value).bits, side);
}

Term InputHeap::inputVar(State& s, const std::string& name, char kind) {
  Term v = tm_.var(name, sortOfDescriptor(kind));
  explorer_.addInputVar(v);
  auto range = [&](std::int32_t lo, std::int32_t hi) {
    s.pc.push_back(tm_.land(tm_.ge(v, tm_.intLit(lo)), tm_.le(v, tm_.intLit(hi))));
    s.model.reset();  // (a model of the path so far need not satisfy the new range)
  };
  switch (kind) {
    case 'Z': range(0, 1); break;
    case 'B': range(-128, 127); break;
    case 'S': range(-32768, 32767); break;
    case 'C': range(0, 65535); break;
    default: break;
  }
  return v;
}

int InputHeap::materializeString(State& s, std::uint64_t id) {
  Object& o = s.heap[id];
  if (o.chars) return 1;
  if (o.input < 0) return 0;
  const int index = o.input;
  InputObject& in = s.inputs[static_cast<std::size_t>(index)];
  if (!in.fields.count("length")) {
    int len = explorer_.choose(s, opt_.max_array_length + 2);
    if (len > opt_.max_array_length) {
      // Past the bound no character is held: the string is known by its identity alone (the
      // input it is), so what library code makes of it is the unknown-call model's function
      // of that identity, the same in both versions (it once cut the path).
      explorer_.note(s, "input strings longer than " + std::to_string(opt_.max_array_length) +
                            " hold no characters: calls on them are functions of the string");
      s.heap_facts.push_back(in.path + ".length() > " + std::to_string(opt_.max_array_length));
      in.fields["length"] = tm_.apply("long_string", terms::FunKind::Library, Sort::Int, {});
      return 0;
    }
    s.heap_facts.push_back(s.inputs[static_cast<std::size_t>(index)].path + ".length() == " + std::to_string(len));
    s.inputs[static_cast<std::size_t>(index)].fields["length"] = tm_.intLit(len);
    for (int i = 0; i < len; ++i) {
      std::string name = s.inputs[static_cast<std::size_t>(index)].path + ".charAt(" + std::to_string(i) + ")";
      Term v = inputVar(s, name, 'C');
      s.inputs[static_cast<std::size_t>(index)].fields["[" + std::to_string(i) + "]"] = v;
    }
  }
  InputObject& done = s.inputs[static_cast<std::size_t>(index)];
  auto len = tm_.asInteger(done.fields["length"]);
  if (!len) return 0;  // a long string (above)
  std::vector<Term> elems;
  for (std::int64_t i = 0; len && i < *len; ++i) elems.push_back(done.fields["[" + std::to_string(i) + "]"]);
  for (Side side : {kOld, kNew}) {
    Object& copy = s.heap[done.side_obj[side]];
    copy.chars = true;
    copy.elems = elems;
    copy.elem_kind = 'C';
    copy.elem_sort = Sort::Int;
  }
  return 1;
}

}  // namespace pasda::symexec
