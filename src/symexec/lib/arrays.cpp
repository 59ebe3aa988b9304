// Models of java.util.Arrays (fill, copyOf, copyOfRange, equals, hashCode),
// System.arraycopy and clone() on arrays, exactly as Java specifies them: null checks, range
// checks (ArrayIndexOutOfBoundsException, IllegalArgumentException,
// NegativeArraySizeException), element-wise effects on the heap. Arrays have a concrete length
// on a path; a symbolic new length is explored value by value up to --max-array-length (longer
// arrays cut the path, as for newarray).
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

Term i32(terms::TermManager& tm, std::size_t v) { return tm.intLit(static_cast<std::int32_t>(v)); }

/// The element descriptor of an array class ("[I" -> "I").
std::string elemDescOf(const Object& arr) { return arr.cls.substr(1); }

Term defaultElem(ModelCall& c, const Object& arr) {
  jvm::TypeDesc td;
  td.kind = arr.elem_kind;
  td.text = elemDescOf(arr);
  return c.defaultValue(td);
}


/// The element at a symbolic index (an ite over the elements); the index is in bounds.
Term select(terms::TermManager& tm, const std::vector<Term>& elems, Term idx, Term fallback) {
  if (auto k = tm.asInteger(idx)) return *k >= 0 && static_cast<std::size_t>(*k) < elems.size() ? elems[*k] : fallback;
  Term v = fallback;
  for (std::size_t i = elems.size(); i-- > 0;) v = tm.ite(tm.eq(idx, i32(tm, i)), elems[i], v);
  return v;
}

/// A non-negative count as a concrete length, value by value up to the bound. nullopt: the
/// path ended (cut, or infeasible); `out` holds the result to return then.
std::optional<std::size_t> concreteLength(ModelCall& c, Term n, ModelResult& out) {
  terms::TermManager& tm = c.tm();
  if (auto k = tm.asInteger(n)) return static_cast<std::size_t>(*k);
  const int bound = c.maxArrayLength();
  for (int k = 0; k <= bound; ++k) {
    auto isK = c.branch(tm.eq(n, tm.intLit(k)));
    if (!isK) {
      out = c.ended();
      return std::nullopt;
    }
    if (*isK) return static_cast<std::size_t>(k);
  }
  out = c.cut("array length from a library call longer than " + std::to_string(bound));
  return std::nullopt;
}

/// Throw `cls` when `cond` holds. Returns the result to stop with, or nullopt to go on.
std::optional<ModelResult> throwIf(ModelCall& c, Term cond, const char* cls) {
  auto bad = c.branch(cond);
  if (!bad) return c.ended();
  if (*bad) return c.throwNew(cls);
  return std::nullopt;
}

std::optional<ModelResult> requireArray(ModelCall& c, Term ref) {
  if (c.isNull(ref)) return c.throwNew("java/lang/NullPointerException");
  if (!c.object(ref).is_array || c.object(ref).opaque) return ModelResult::declined();
  return std::nullopt;
}

/// Arrays.fill(a, v) and Arrays.fill(a, from, to, v).
ModelResult fill(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  if (auto stop = requireArray(c, c.arg(0))) return *stop;
  const std::size_t len = c.object(c.arg(0)).elems.size();
  Term from = tm.intLit(0), to = i32(tm, len);
  if (c.args().size() == 4) {
    from = c.arg(1);
    to = c.arg(2);
    if (auto stop = throwIf(c, tm.gt(from, to), "java/lang/IllegalArgumentException")) return *stop;
    if (auto stop = throwIf(c, tm.lor(tm.lt(from, tm.intLit(0)), tm.gt(to, i32(tm, len))),
                            "java/lang/ArrayIndexOutOfBoundsException"))
      return *stop;
  }
  Term v = c.args().back();
  Object& a = c.object(c.arg(0));
  if (tm.sort(v) == Sort::Ref && !c.isNull(v) && a.elem_sort == Sort::Ref) {
    // Storing into an array of references: the element type is checked (ArrayStoreException).
    const std::string ed = elemDescOf(a);
    std::optional<bool> fits = c.assignable(c.object(v).cls, ed[0] == 'L' ? ed.substr(1, ed.size() - 2) : ed);
    if (!fits || !*fits) return ModelResult::declined();
  }
  Object& arr = c.object(c.arg(0));
  v = narrowTo(tm, arr.elem_kind, v);
  for (std::size_t i = 0; i < len; ++i) {
    Term in = tm.land(tm.le(from, i32(tm, i)), tm.lt(i32(tm, i), to));
    arr.elems[i] = tm.ite(in, v, arr.elems[i]);
  }
  arr.dirty = true;
  arr.ident = Term{};
  return ModelResult::none();
}

/// Arrays.copyOf(a, n) (and copyOf(a, n, Class)) and Arrays.copyOfRange(a, from, to).
ModelResult copy(ModelCall& c, bool range) {
  terms::TermManager& tm = c.tm();
  if (range && c.args().size() != 3) return ModelResult::declined();
  if (!range && c.args().size() != 2) return ModelResult::declined();
  if (auto stop = requireArray(c, c.arg(0))) return *stop;
  const std::size_t len = c.object(c.arg(0)).elems.size();
  Term from = tm.intLit(0), n = c.arg(1);
  if (range) {  // (Java checks from > to first)
    from = c.arg(1);
    if (auto stop = throwIf(c, tm.gt(from, c.arg(2)), "java/lang/IllegalArgumentException")) return *stop;
    if (auto stop = throwIf(c, tm.lor(tm.lt(from, tm.intLit(0)), tm.gt(from, i32(tm, len))),
                            "java/lang/ArrayIndexOutOfBoundsException"))
      return *stop;
    n = tm.sub(c.arg(2), from);
  } else if (auto stop = throwIf(c, tm.lt(n, tm.intLit(0)), "java/lang/NegativeArraySizeException")) {
    return *stop;
  }
  ModelResult out = ModelResult::none();
  std::optional<std::size_t> newLen = concreteLength(c, n, out);
  if (!newLen) return out;
  const Object& src = c.object(c.arg(0));
  std::vector<Term> elems;
  for (std::size_t i = 0; i < *newLen; ++i)
    elems.push_back(select(tm, src.elems, tm.add(from, i32(tm, i)), defaultElem(c, src)));
  std::string desc = elemDescOf(src);
  return ModelResult::value(c.newArray(desc, std::move(elems)));
}

/// Arrays.equals(a, b) on arrays of primitives.
ModelResult equals(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  if (c.args().size() != 2) return ModelResult::declined();
  Term a = c.arg(0), b = c.arg(1);
  if (c.isNull(a) || c.isNull(b)) return ModelResult::value(tm.intLit(c.isNull(a) && c.isNull(b) ? 1 : 0));
  const Object& x = c.object(a);
  const Object& y = c.object(b);
  if (x.opaque || y.opaque || x.elem_sort == Sort::Ref) return ModelResult::declined();
  if (x.elems.size() != y.elems.size()) return ModelResult::value(tm.intLit(0));
  Term all = tm.boolLit(true);
  for (std::size_t i = 0; i < x.elems.size(); ++i) {
    bool floating = x.elem_sort == Sort::Double || x.elem_sort == Sort::Float;
    all = tm.land(all, floating ? tm.same(x.elems[i], y.elems[i]) : tm.eq(x.elems[i], y.elems[i]));
  }
  return ModelResult::value(tm.ite(all, tm.intLit(1), tm.intLit(0)));
}

/// Arrays.hashCode(a) on arrays of integral primitives and booleans.
ModelResult hashCode(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  if (c.isNull(c.arg(0))) return ModelResult::value(tm.intLit(0));
  const Object& a = c.object(c.arg(0));
  if (a.opaque || !c.javaArith()) return ModelResult::declined();  // (wrapping arithmetic only)
  Term h = tm.intLit(1);
  for (Term e : a.elems) {
    Term eh;
    switch (a.elem_kind) {
      case 'I': case 'S': case 'B': case 'C': eh = e; break;
      case 'Z': eh = tm.ite(tm.eq(e, tm.intLit(0)), tm.intLit(1237), tm.intLit(1231)); break;
      case 'J': eh = tm.convert(tm.bitXor(e, tm.ushr(e, tm.intLit(32))), Sort::Int); break;
      default: return ModelResult::declined();
    }
    h = tm.add(tm.mul(tm.intLit(31), h), eh);
  }
  return ModelResult::value(h);
}

/// System.arraycopy(src, srcPos, dst, dstPos, length): as if through a temporary copy.
ModelResult arraycopy(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term src = c.arg(0), dst = c.arg(2), sp = c.arg(1), dp = c.arg(3), n = c.arg(4);
  if (c.isNull(src) || c.isNull(dst)) return c.throwNew("java/lang/NullPointerException");
  const Object& s0 = c.object(src);
  const Object& d0 = c.object(dst);
  if (!s0.is_array || !d0.is_array || s0.opaque || d0.opaque) return ModelResult::declined();
  if (s0.cls != d0.cls) return ModelResult::declined();  // (ArrayStoreException rules: not modelled)
  const std::size_t slen = s0.elems.size(), dlen = d0.elems.size();
  Term bad = tm.lor(tm.lor(tm.lt(sp, tm.intLit(0)), tm.lt(dp, tm.intLit(0))),
                    tm.lor(tm.lt(n, tm.intLit(0)),
                           tm.lor(tm.gt(tm.add(sp, n), i32(tm, slen)), tm.gt(tm.add(dp, n), i32(tm, dlen)))));
  if (c.javaArith())  // sp + n may wrap: Java compares without overflow (srcPos > length - n)
    bad = tm.lor(tm.lor(tm.lt(sp, tm.intLit(0)), tm.lt(dp, tm.intLit(0))),
                 tm.lor(tm.lt(n, tm.intLit(0)), tm.lor(tm.gt(sp, tm.sub(i32(tm, slen), n)),
                                                       tm.gt(dp, tm.sub(i32(tm, dlen), n)))));
  if (auto stop = throwIf(c, bad, "java/lang/ArrayIndexOutOfBoundsException")) return *stop;
  const std::vector<Term> snapshot = c.object(src).elems;
  Object& d = c.object(dst);
  for (std::size_t i = 0; i < dlen; ++i) {
    Term k = i32(tm, i);
    Term in = tm.land(tm.le(dp, k), tm.lt(k, tm.add(dp, n)));
    d.elems[i] = tm.ite(in, select(tm, snapshot, tm.add(sp, tm.sub(k, dp)), d.elems[i]), d.elems[i]);
  }
  d.dirty = true;
  d.ident = Term{};
  return ModelResult::none();
}

/// clone() of an array: a new array with the same elements (shallow).
ModelResult cloneArray(ModelCall& c) {
  const Object& a = c.object(c.receiver());
  if (!a.is_array || a.opaque) return ModelResult::declined();
  Object copy;
  copy.cls = a.cls;
  copy.is_array = true;
  copy.elem_kind = a.elem_kind;
  copy.elem_sort = a.elem_sort;
  copy.elems = a.elems;
  return ModelResult::value(c.allocate(std::move(copy)));
}

}  // namespace

void registerArrayModels(LibraryRegistry& r) {
  const std::string arrays = "java/util/Arrays";
  r.addOverloads(arrays, "fill", fill);
  r.addOverloads(arrays, "copyOf", [](ModelCall& c) { return copy(c, false); });
  r.addOverloads(arrays, "copyOfRange", [](ModelCall& c) { return copy(c, true); });
  r.addOverloads(arrays, "equals", equals);
  r.addOverloads(arrays, "hashCode", hashCode);
  r.add("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", arraycopy);
  r.add(LibraryRegistry::kAnyArray, "clone", "()Ljava/lang/Object;", cloneArray);
}

}  // namespace pasda::symexec::lib
