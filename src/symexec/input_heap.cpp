// The input heap: lazy materialisation of reference inputs in bounded verification's
// small-scope style, one identically materialised copy per side (so one version's writes are
// invisible to the other), and the alignment of the two sides' final states.
#include "input_heap.hpp"

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
  for (int side : {kOld, kNew})
    if (!opt_.main_class[side].empty() && cls == opt_.main_class[side]) return "<main>";
  return cls;
}

int InputHeap::newInput(State& s, const std::string& path, const std::string& cls) {
  InputObject in;
  in.path = path;
  in.cls = cls;
  in.is_array = !cls.empty() && cls[0] == '[';
  int index = static_cast<int>(s.inputs.size());
  for (int side : {kOld, kNew}) {
    Object o;
    o.cls = cls == "<main>" ? opt_.main_class[side] : cls;
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
  // (bounded verification covers every heap up to the bound and none beyond).
  bool canFresh = sameClass < opt_.heap_bound;
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

StepOutcome InputHeap::materializeLength(State& s) {
  // A fresh input array gets its length (explored value by value up to the bound; longer
  // arrays cut the path).
  int len = explorer_.choose(s, opt_.max_array_length + 2);
  if (len > opt_.max_array_length) {
    explorer_.note(s, "input arrays longer than " + std::to_string(opt_.max_array_length) + " (path cut)");
    explorer_.cutPath(s, Explorer::Cut::Depth);
    return StepOutcome::Ended;
  }
  int target = s.pending_lengths.front();
  s.pending_lengths.erase(s.pending_lengths.begin());
  InputObject& in = s.inputs[static_cast<std::size_t>(target)];
  s.heap_facts.push_back(in.path + ".length == " + std::to_string(len));
  char elem = in.cls.size() > 1 ? in.cls[1] : 'I';
  Sort es = sortOfDescriptor(elem);
  in.fields["length"] = tm_.intLit(len);
  std::vector<Term> elems;
  for (int i = 0; i < len; ++i) {
    std::string name = in.path + "[" + std::to_string(i) + "]";
    Term v = es == Sort::Ref ? tm_.nullRef() : tm_.var(name, es);
    if (es != Sort::Ref) explorer_.addInputVar(v);
    in.fields["[" + std::to_string(i) + "]"] = v;
    elems.push_back(v);
  }
  for (int side : {kOld, kNew}) {
    Object& o = s.heap[in.side_obj[side]];
    o.elem_kind = elem;
    o.elem_sort = es;
    o.elems = elems;
  }
  if (es == Sort::Ref && len > 0) explorer_.note(s, "elements of reference-array inputs start as null");
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

std::optional<Term> InputHeap::readField(State& s, Object& o, const std::string& name, const std::string& desc) {
  const int k = o.input;
  InputObject* in = &s.inputs[static_cast<std::size_t>(k)];
  // The side whose copy is read (decided now: materialising may grow the heap and move `o`).
  int side = kOld;
  for (int sd : {kOld, kNew})
    if (&s.heap[in->side_obj[sd]] == &o) side = sd;
  if (auto it = in->fields.find(name); it != in->fields.end()) return it->second;
  if (!isRefDesc(desc)) {
    Term v = tm_.var(in->path + "." + name, sortOfDescriptor(desc[0]));
    explorer_.addInputVar(v);
    in->fields[name] = v;
    return v;
  }
  auto rf = in->ref_fields.find(name);
  int target;
  if (rf != in->ref_fields.end()) {
    target = rf->second;
  } else {
    std::string fact;
    std::string path = in->path + "." + name;
    target = chooseTarget(s, path, originalName(classOfDesc(desc)), false, fact);
    if (target == -2) return std::nullopt;
    in = &s.inputs[static_cast<std::size_t>(k)];  // chooseTarget may have grown the vector
    in->ref_fields[name] = target;
    s.heap_facts.push_back(fact);
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
  std::map<std::uint64_t, std::uint64_t> seen;  // old id -> new id
  std::vector<std::tuple<std::string, Term, Term>> work;
  for (std::size_t i = 0; i < roots.size(); ++i)
    work.emplace_back(i < s.root_names.size() ? s.root_names[i] : "result", roots[i].first, roots[i].second);
  while (!work.empty()) {
    auto [path, a, b] = work.front();
    work.erase(work.begin());
    std::uint64_t ia = tm_.node(a).bits, ib = tm_.node(b).bits;
    if (ia == 0 || ib == 0) {
      if (ia != ib) mismatch(path, ia == 0 ? "null-vs-object" : "object-vs-null");
      continue;
    }
    if (auto it = seen.find(ia); it != seen.end()) {
      if (it->second != ib) mismatch(path, "aliasing");
      continue;
    }
    seen[ia] = ib;
    Object& oa = s.heap[ia];
    Object& ob = s.heap[ib];
    if (originalName(oa.cls) != originalName(ob.cls) || oa.is_array != ob.is_array) {
      mismatch(path, "class");
      continue;
    }
    if (oa.opaque || ob.opaque) {
      // Values the engine does not model (library objects): never claimed equal.
      oldState.emplace_back(path, tm_.apply("opaque_old:" + path, terms::FunKind::Library, Sort::Int, {}));
      newState.emplace_back(path, tm_.apply("opaque_new:" + path, terms::FunKind::Library, Sort::Int, {}));
      continue;
    }
    if (oa.cls == "java/lang/String") {
      if (oa.text != ob.text) mismatch(path, "string");
      continue;
    }
    if (oa.is_array) {
      if (oa.elems.size() != ob.elems.size()) {
        oldState.emplace_back(path + ".length", tm_.intLit(static_cast<std::int32_t>(oa.elems.size())));
        newState.emplace_back(path + ".length", tm_.intLit(static_cast<std::int32_t>(ob.elems.size())));
        continue;
      }
      for (std::size_t i = 0; i < oa.elems.size(); ++i) {
        std::string p = path + "[" + std::to_string(i) + "]";
        if (tm_.sort(oa.elems[i]) == Sort::Ref) work.emplace_back(p, oa.elems[i], ob.elems[i]);
        else {
          oldState.emplace_back(p, oa.elems[i]);
          newState.emplace_back(p, ob.elems[i]);
        }
      }
      continue;
    }
    if (!compareFields(s, path, ia, ib, work, oldState, newState)) return false;
  }
  compareStatics(s, oldState, newState);
  return true;
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
    auto fromInput = [&](Object& o, int side) -> Term {
      if (o.input < 0) return Term{};
      InputObject& in = s.inputs[static_cast<std::size_t>(o.input)];
      if (auto it = in.fields.find(n); it != in.fields.end()) return it->second;
      if (auto it = in.ref_fields.find(n); it != in.ref_fields.end())
        return it->second < 0 ? tm_.nullRef()
                              : tm_.lit(Sort::Ref, s.inputs[static_cast<std::size_t>(it->second)].side_obj[side]);
      return Term{};
    };
    if (!va) va = fromInput(s.heap[ia], kOld);
    if (!vb) vb = fromInput(s.heap[ib], kNew);
    if ((!va || !vb) && (va || vb)) {
      Checked<Term> filler = untouchedField(s, va ? s.heap[ib] : s.heap[ia], va ? kNew : kOld, n, va ? va : vb);
      if (!filler.ok()) return false;
      (va ? vb : va) = *filler;
    }
    std::string p = path + "." + n;
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

Checked<Term> InputHeap::untouchedField(State& s, Object& missing, int missingSide, const std::string& n, Term known) {
  // A field one side never touched: on an object created during the run it holds its
  // default value; on an input object it holds the input value (primitives: the input
  // variable; references: materialised now, which may fork on its shape like a read would).
  // An empty term: the value is unknown (the comparison stays inexact).
  if (missing.input < 0) return tm_.sort(known) == Sort::Ref ? tm_.nullRef() : tm_.lit(tm_.sort(known), 0);
  if (tm_.sort(known) != Sort::Ref) {
    InputObject& in = s.inputs[static_cast<std::size_t>(missing.input)];
    Term filler = tm_.var(in.path + "." + n, tm_.sort(known));
    in.fields[n] = filler;
    explorer_.addInputVar(filler);
    return filler;
  }
  std::string desc;
  if (const LoadedClass* c = program_.find(static_cast<Side>(missingSide), missing.cls))
    for (const jvm::Field& fld : c->cf.fields)
      if (fld.name == n && !fld.isStatic()) desc = fld.descriptor;
  if (desc.empty()) return Term{};
  std::optional<Term> v = readField(s, missing, n, desc);
  if (!v) return StepOutcome::Ended;
  return *v;
}

void InputHeap::compareStatics(State& s, Entries& oldState, Entries& newState) {
  // Static fields of the analysed classes.
  const std::string prefixOld = std::to_string(kOld) + "#" + opt_.main_class[kOld] + ".";
  const std::string prefixNew = std::to_string(kNew) + "#" + opt_.main_class[kNew] + ".";
  for (const auto& [key, v] : s.statics) {
    if (key.rfind(prefixOld, 0) != 0) continue;
    std::string field = key.substr(prefixOld.size());
    auto it = s.statics.find(prefixNew + field);
    if (it == s.statics.end()) continue;
    std::string cls = opt_.main_class[kOld];
    std::string simple = cls.substr(cls.rfind('/') == std::string::npos ? 0 : cls.rfind('/') + 1);
    if (simple.size() > 3 && simple.compare(simple.size() - 3, 3, "$V1") == 0) simple.resize(simple.size() - 3);
    oldState.emplace_back(simple + "." + field, v);
    newState.emplace_back(simple + "." + field, it->second);
  }
}

}  // namespace pasda::symexec
