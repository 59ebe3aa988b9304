// Models of java.lang.String, StringBuilder/StringBuffer, string concatenation
// (invokedynamic makeConcatWithConstants) and the int-to-decimal conversions they need, on an
// array-of-characters encoding: a string whose characters are known holds them as terms
// (Object::chars); the characters of an input string are input variables, its length explored
// like an input array's (docs/interpreter.md, "Strings"). Methods on strings of unknown content
// (results of unmodelled calls) decline, so the unmodelled-call rules apply to them.
#include <algorithm>
#include <cstdint>

#include "../text.hpp"
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

using Chars = std::vector<Term>;
Term i32(terms::TermManager& tm, std::int64_t v) { return tm.intLit(static_cast<std::int32_t>(v)); }

enum class Have : std::uint8_t { Known, Unknown, Ended };

/// The characters of a non-null string-like object (materialising an input string's).
Have charsOf(ModelCall& c, Term ref, Chars& out) {
  int r = c.stringChars(ref, out);
  return r > 0 ? Have::Known : r == 0 ? Have::Unknown : Have::Ended;
}

Term newString(ModelCall& c, Chars chars, const char* cls = "java/lang/String") {
  Object o;
  o.cls = cls;
  o.chars = true;
  o.elem_kind = 'C';
  o.elems = std::move(chars);
  return c.allocate(std::move(o));
}

Term boolInt(terms::TermManager& tm, Term b) { return tm.ite(b, tm.intLit(1), tm.intLit(0)); }

/// A symbolic index as a concrete one in [lo, hi] (forks value by value); outside the range
/// the string methods throw StringIndexOutOfBoundsException, decided by the caller first.
std::optional<std::int64_t> concreteIndex(ModelCall& c, Term idx, std::int64_t lo, std::int64_t hi) {
  terms::TermManager& tm = c.tm();
  if (auto k = tm.asInteger(idx)) return *k;
  for (std::int64_t k = lo; k < hi; ++k) {
    auto is = c.branch(tm.eq(idx, i32(tm, k)));
    if (!is) return std::nullopt;
    if (*is) return k;
  }
  return hi;  // the only value left (the caller checked the range)
}

ModelResult outOfBounds(ModelCall& c) { return c.throwNew("java/lang/StringIndexOutOfBoundsException"); }

/// Throw StringIndexOutOfBoundsException when `bad` holds; nullopt to go on.
std::optional<ModelResult> boundsCheck(ModelCall& c, Term bad) {
  auto b = c.branch(bad);
  if (!b) return c.ended();
  if (*b) return outOfBounds(c);
  return std::nullopt;
}

/// Run `body` with the receiver's characters, or decline when they are unknown.
template <class F>
ModelResult withReceiver(ModelCall& c, F&& body) {
  Chars s;
  switch (charsOf(c, c.receiver(), s)) {
    case Have::Ended: return c.ended();
    case Have::Unknown: return ModelResult::declined();
    case Have::Known: break;
  }
  return body(s);
}

/// The characters of a String argument: NullPointerException for null, declined if unknown.
/// Returns the result to stop with, or nullopt with `out` filled.
std::optional<ModelResult> stringArg(ModelCall& c, std::size_t i, Chars& out) {
  if (c.isNull(c.arg(i))) return c.throwNew("java/lang/NullPointerException");
  switch (charsOf(c, c.arg(i), out)) {
    case Have::Ended: return c.ended();
    case Have::Unknown: return ModelResult::declined();
    case Have::Known: return std::nullopt;
  }
  return ModelResult::declined();
}

Term sameChars(terms::TermManager& tm, const Chars& a, const Chars& b, std::size_t offset) {
  Term all = tm.boolLit(true);
  for (std::size_t i = 0; i < b.size(); ++i) all = tm.land(all, tm.eq(a[offset + i], b[i]));
  return all;
}

/// The first (or last) k in [from, n) with pred(k), else -1: an ite chain.
template <class P>
Term firstIndex(terms::TermManager& tm, std::int64_t from, std::int64_t to, bool last, P&& pred) {
  Term r = tm.intLit(-1);
  if (!last) {
    for (std::int64_t k = to - 1; k >= from; --k) r = tm.ite(pred(k), i32(tm, k), r);
  } else {
    for (std::int64_t k = from; k < to; ++k) r = tm.ite(pred(k), i32(tm, k), r);
  }
  return r;
}

// --- String ------------------------------------------------------------------------------

ModelResult charAt(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Term i = c.arg(1);
    if (auto stop = boundsCheck(c, tm.lor(tm.lt(i, tm.intLit(0)), tm.ge(i, i32(tm, s.size()))))) return *stop;
    Term v = s.empty() ? tm.intLit(0) : s.back();
    for (std::size_t k = s.size() - 1; k-- > 0 && !s.empty();) v = tm.ite(tm.eq(i, i32(tm, k)), s[k], v);
    if (auto k = tm.asInteger(i)) v = s[static_cast<std::size_t>(*k)];
    return ModelResult::value(v);
  });
}

ModelResult equals(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Term o = c.arg(1);
    if (c.isNull(o)) return ModelResult::value(tm.intLit(0));
    const Object& other = c.object(o);
    if (!other.chars && !(other.input >= 0 && other.cls == "java/lang/String")) {
      if (other.opaque || other.cls == "java/lang/String") return ModelResult::declined();
      return ModelResult::value(tm.intLit(0));  // not a String
    }
    if (other.cls != "java/lang/String") return ModelResult::value(tm.intLit(0));
    Chars t;
    if (auto stop = stringArg(c, 1, t)) return *stop;
    if (s.size() != t.size()) return ModelResult::value(tm.intLit(0));
    return ModelResult::value(boolInt(tm, sameChars(tm, s, t, 0)));
  });
}

ModelResult hashCode(ModelCall& c) {
  if (!c.javaArith()) return ModelResult::declined();  // (the hash wraps: Java arithmetic only)
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Term h = tm.intLit(0);
    for (Term ch : s) h = tm.add(tm.mul(tm.intLit(31), h), ch);
    return ModelResult::value(h);
  });
}

ModelResult compareTo(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Chars t;
    if (auto stop = stringArg(c, 1, t)) return *stop;
    Term r = i32(tm, static_cast<std::int64_t>(s.size()) - static_cast<std::int64_t>(t.size()));
    for (std::size_t k = std::min(s.size(), t.size()); k-- > 0;) r = tm.ite(tm.ne(s[k], t[k]), tm.sub(s[k], t[k]), r);
    return ModelResult::value(r);
  });
}

/// indexOf/lastIndexOf of a char (int), optionally from an index.
ModelResult indexOfChar(ModelCall& c, bool last) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Term ch = c.arg(1);
    // A supplementary code point is searched as a surrogate pair: not modelled.
    auto bmp = c.branch(tm.land(tm.ge(ch, tm.intLit(0)), tm.le(ch, tm.intLit(0xFFFF))));
    if (!bmp) return c.ended();
    if (!*bmp) {
      auto invalid = c.branch(tm.lor(tm.lt(ch, tm.intLit(0)), tm.gt(ch, tm.intLit(0x10FFFF))));
      if (!invalid) return c.ended();
      if (*invalid) return ModelResult::value(tm.intLit(-1));  // not a code point: never found
      // A supplementary code point: its surrogate pair.
      Term off = tm.sub(ch, tm.intLit(0x10000));
      Term hi = tm.add(tm.intLit(0xD800), tm.shr(off, tm.intLit(10)));
      Term lo = tm.add(tm.intLit(0xDC00), tm.bitAnd(off, tm.intLit(0x3FF)));
      const auto n = static_cast<std::int64_t>(s.size());
      Term from = c.args().size() == 2 ? (last ? i32(tm, n) : tm.intLit(0)) : c.arg(2);
      return ModelResult::value(firstIndex(tm, 0, n - 1, last, [&](std::int64_t k) {
        Term inRange = last ? tm.le(i32(tm, k), from) : tm.ge(i32(tm, k), from);
        return tm.land(inRange, tm.land(tm.eq(s[k], hi), tm.eq(s[k + 1], lo)));
      }));
    }
    const auto n = static_cast<std::int64_t>(s.size());
    if (c.args().size() == 2)
      return ModelResult::value(firstIndex(tm, 0, n, last, [&](std::int64_t k) { return tm.eq(s[k], ch); }));
    Term from = c.arg(2);
    return ModelResult::value(firstIndex(tm, 0, n, last, [&](std::int64_t k) {
      Term inRange = last ? tm.le(i32(tm, k), from) : tm.ge(i32(tm, k), from);
      return tm.land(inRange, tm.eq(s[k], ch));
    }));
  });
}

/// indexOf/lastIndexOf(String), startsWith, endsWith, contains: matches at each offset.
ModelResult matchString(ModelCall& c, const std::string& what) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    Chars t;
    if (auto stop = stringArg(c, 1, t)) return *stop;
    const auto n = static_cast<std::int64_t>(s.size()), m = static_cast<std::int64_t>(t.size());
    auto at = [&](std::int64_t k) { return k >= 0 && k + m <= n ? sameChars(tm, s, t, static_cast<std::size_t>(k)) : tm.boolLit(false); };
    if (what == "startsWith") return ModelResult::value(boolInt(tm, at(0)));
    if (what == "endsWith") return ModelResult::value(boolInt(tm, at(n - m)));
    Term first = firstIndex(tm, 0, n - m + 1, what == "lastIndexOf", at);
    if (what == "contains") return ModelResult::value(boolInt(tm, tm.ge(first, tm.intLit(0))));
    return ModelResult::value(first);
  });
}

ModelResult concat(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    Chars t;
    if (auto stop = stringArg(c, 1, t)) return *stop;
    if (t.empty()) return ModelResult::value(c.receiver());  // Java returns this string itself
    Chars all = s;
    all.insert(all.end(), t.begin(), t.end());
    return ModelResult::value(newString(c, std::move(all)));
  });
}

ModelResult substring(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    const auto n = static_cast<std::int64_t>(s.size());
    Term b = c.arg(1), e = c.args().size() > 2 ? c.arg(2) : i32(tm, n);
    Term bad = tm.lor(tm.lor(tm.lt(b, tm.intLit(0)), tm.gt(e, i32(tm, n))), tm.gt(b, e));
    if (auto stop = boundsCheck(c, bad)) return *stop;
    auto bb = concreteIndex(c, b, 0, n);
    if (!bb) return c.ended();
    auto ee = concreteIndex(c, e, *bb, n);
    if (!ee) return c.ended();
    // The path passed the bounds check, so 0 <= begin <= end <= length holds on it; values
    // outside that were kept only because a feasibility check was left undecided: the path
    // contradicts itself and ends (it never reads past the characters).
    if (*bb < 0 || *ee > n || *bb > *ee) return c.ended();
    if (*bb == 0 && *ee == n) return ModelResult::value(c.receiver());  // Java returns this string itself
    return ModelResult::value(newString(c, Chars(s.begin() + *bb, s.begin() + *ee)));
  });
}

ModelResult toCharArray(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) { return ModelResult::value(c.newArray("C", s)); });
}

/// trim(): leading and trailing characters <= ' ' removed (this string if there are none).
ModelResult trim(ModelCall& c) {
  return withReceiver(c, [&](const Chars& s) {
    terms::TermManager& tm = c.tm();
    const auto n = static_cast<std::int64_t>(s.size());
    std::int64_t b = 0, e = n;
    while (b < e) {
      auto blank = c.branch(tm.le(s[b], tm.intLit(' ')));
      if (!blank) return c.ended();
      if (!*blank) break;
      ++b;
    }
    while (e > b) {
      auto blank = c.branch(tm.le(s[e - 1], tm.intLit(' ')));
      if (!blank) return c.ended();
      if (!*blank) break;
      --e;
    }
    if (b == 0 && e == n) return ModelResult::value(c.receiver());
    return ModelResult::value(newString(c, Chars(s.begin() + b, s.begin() + e)));
  });
}

// --- conversions to text ---------------------------------------------------------------------

Chars textOf(const std::string& ascii, terms::TermManager& tm) {
  Chars out;
  for (char ch : ascii) out.push_back(tm.intLit(static_cast<unsigned char>(ch)));
  return out;
}

/// The decimal digits of an int or long (Integer.toString): forks on the number of digits.
/// false: the path ended.
bool decimal(ModelCall& c, Term x, Chars& out) {
  terms::TermManager& tm = c.tm();
  if (auto k = tm.asInteger(x)) {
    out = textOf(std::to_string(*k), tm);
    return true;
  }
  const bool isLong = tm.sort(x) == Sort::Long;
  Term wide = isLong ? x : tm.convert(x, Sort::Long);
  auto neg = c.branch(tm.lt(wide, tm.longLit(0)));
  if (!neg) return false;
  if (*neg && isLong && c.javaArith()) {  // Long.MIN_VALUE has no positive counterpart
    auto min = c.branch(tm.eq(wide, tm.longLit(INT64_MIN)));
    if (!min) return false;
    if (*min) {
      out = textOf(std::to_string(INT64_MIN), tm);
      return true;
    }
  }
  Term mag = *neg ? tm.neg(wide) : wide;
  const int maxDigits = isLong ? 19 : 10;
  int digits = maxDigits;
  std::int64_t p = 10;  // 10^d (10^18 at most: 10^19 is beyond a long)
  for (int d = 1; d < maxDigits; ++d) {
    auto fits = c.branch(tm.lt(mag, tm.longLit(p)));
    if (!fits) return false;
    if (*fits) {
      digits = d;
      break;
    }
    if (d + 1 < maxDigits) p *= 10;
  }
  if (digits == maxDigits && !c.javaArith()) {  // unbounded integers: cut what Java cannot hold
    auto big = c.branch(tm.ge(mag, tm.longLit(isLong ? INT64_MAX : 10000000000LL)));
    if (!big) return false;
    if (*big) {
      c.cut("decimal text of an integer beyond the Java range");
      return false;
    }
  }
  out.clear();
  if (*neg) out.push_back(tm.intLit('-'));
  std::int64_t pow = 1;
  for (int d = 1; d < digits; ++d) pow *= 10;
  for (int d = 0; d < digits; ++d, pow /= 10) {
    Term digit = tm.rem(tm.div(mag, tm.longLit(pow)), tm.longLit(10));
    out.push_back(tm.add(tm.convert(digit, Sort::Int), tm.intLit('0')));
  }
  return true;
}

/// The text String.valueOf / concatenation gives a value of descriptor kind `kind`.
/// Known: `out` holds it; Unknown: not modelled (float, double, objects); Ended.
Have textOfKind(ModelCall& c, Term v, char kind, Chars& out) {
  terms::TermManager& tm = c.tm();
  switch (kind) {
    case 'C': out = {v}; return Have::Known;
    case 'I': case 'S': case 'B': case 'J': return decimal(c, v, out) ? Have::Known : Have::Ended;
    case 'Z': {
      auto t = c.branch(tm.ne(v, tm.intLit(0)));
      if (!t) return Have::Ended;
      out = textOf(*t ? "true" : "false", tm);
      return Have::Known;
    }
    case 'L': {
      if (c.isNull(v)) {
        out = textOf("null", tm);
        return Have::Known;
      }
      const Object& o = c.object(v);
      if (o.cls != "java/lang/String") return Have::Unknown;  // toString of an object: its own code
      return charsOf(c, v, out);
    }
    default: return Have::Unknown;
  }
}

ModelResult valueOf(ModelCall& c) {
  const jvm::TypeDesc& p = c.desc().params.at(0);
  if (p.kind == '[') {  // valueOf(char[]): a copy
    if (c.args().size() != 1) return ModelResult::declined();
    if (c.isNull(c.arg(0))) return c.throwNew("java/lang/NullPointerException");
    const Object& a = c.object(c.arg(0));
    if (a.opaque || a.cls != "[C") return ModelResult::declined();
    return ModelResult::value(newString(c, a.elems));
  }
  if (p.kind == 'L' && !c.isNull(c.arg(0)) && c.object(c.arg(0)).cls == "java/lang/String")
    return ModelResult::value(c.arg(0));  // String.valueOf(s) is s.toString(): s itself
  Chars out;
  switch (textOfKind(c, c.arg(0), p.kind, out)) {
    case Have::Ended: return c.ended();
    case Have::Unknown: return ModelResult::declined();
    case Have::Known: break;
  }
  return ModelResult::value(newString(c, std::move(out)));
}

/// makeConcatWithConstants: the recipe's \1 takes the next argument, \2 the next constant.
ModelResult concatenation(ModelCall& c) {
  std::string key = c.bootstrapKey();
  if (key.find("java/lang/invoke/StringConcatFactory.makeConcatWithConstants") == std::string::npos)
    return ModelResult::declined();
  std::vector<std::string> parts;
  for (std::size_t at = key.find('\0'); at != std::string::npos;) {
    std::size_t next = key.find('\0', at + 1);
    parts.push_back(key.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
    at = next;
  }
  if (parts.empty() || parts[0].rfind("S:", 0) != 0) return ModelResult::declined();
  const std::string recipe = parts[0].substr(2);
  terms::TermManager& tm = c.tm();
  Chars out;
  std::size_t arg = 0, constant = 1;
  for (std::uint16_t unit : utf16Units(recipe)) {
    if (unit == 1) {
      if (arg >= c.args().size()) return ModelResult::declined();
      Chars piece;
      switch (textOfKind(c, c.arg(arg), c.desc().params[arg].kind, piece)) {
        case Have::Ended: return c.ended();
        case Have::Unknown: return ModelResult::declined();
        case Have::Known: break;
      }
      ++arg;
      out.insert(out.end(), piece.begin(), piece.end());
    } else if (unit == 2) {
      if (constant >= parts.size() || parts[constant].rfind("S:", 0) != 0) return ModelResult::declined();
      for (std::uint16_t u : utf16Units(parts[constant++].substr(2))) out.push_back(tm.intLit(u));
    } else {
      out.push_back(tm.intLit(unit));
    }
  }
  if (arg != c.args().size()) return ModelResult::declined();
  return ModelResult::value(newString(c, std::move(out)));
}

// --- StringBuilder / StringBuffer ------------------------------------------------------------

/// The characters a builder starts with: none (capacity constructors), or its argument's.
void startBuilder(ModelCall& c, Chars chars) {
  Object& b = c.object(c.receiver());
  b.chars = true;
  b.elem_kind = 'C';
  b.elems = std::move(chars);
  b.exact_library = b.cls == c.owner() && b.input < 0 && !b.opaque;  // (`new` made it: exactly of the class)
}

ModelResult builderInit(ModelCall& c) {
  const auto& ps = c.desc().params;
  if (ps.empty() || ps[0].kind == 'I') {
    if (!ps.empty()) {
      auto neg = c.branch(c.tm().lt(c.arg(1), c.tm().intLit(0)));
      if (!neg) return c.ended();
      if (*neg) return c.throwNew("java/lang/NegativeArraySizeException");
    }
    startBuilder(c, {});
    return ModelResult::none();
  }
  if (ps[0].className() != "java/lang/String" && ps[0].className() != "java/lang/CharSequence") return ModelResult::declined();
  Chars t;
  if (auto stop = stringArg(c, 1, t)) return *stop;
  startBuilder(c, std::move(t));
  return ModelResult::none();
}

ModelResult append(ModelCall& c) {
  if (!c.object(c.receiver()).chars || c.desc().params.size() != 1) return ModelResult::declined();
  const jvm::TypeDesc& p = c.desc().params[0];
  Chars piece;
  if (p.kind == 'L' && p.className() != "java/lang/String" && p.className() != "java/lang/CharSequence" &&
      p.className() != "java/lang/Object")
    return ModelResult::declined();
  switch (textOfKind(c, c.arg(1), p.kind == '[' ? '?' : p.kind, piece)) {
    case Have::Ended: return c.ended();
    case Have::Unknown: return ModelResult::declined();
    case Have::Known: break;
  }
  Object& b = c.object(c.receiver());
  b.elems.insert(b.elems.end(), piece.begin(), piece.end());
  b.dirty = true;
  b.ident = Term{};
  return ModelResult::value(c.receiver());  // append returns this builder
}

ModelResult builderToString(ModelCall& c) {
  const Object& b = c.object(c.receiver());
  if (!b.chars) return ModelResult::declined();
  return ModelResult::value(newString(c, b.elems));
}

void registerOn(LibraryRegistry& r, const std::string& cls) {
  r.add(cls, "length", "()I", [](ModelCall& c) {
    return withReceiver(c, [&](const Chars& s) { return ModelResult::value(i32(c.tm(), static_cast<std::int64_t>(s.size()))); });
  });
  r.add(cls, "charAt", "(I)C", charAt);
}

}  // namespace

int textOfValue(ModelCall& c, Term value, char kind, std::vector<Term>& out) {
  if (kind == '[') {  // print(char[])
    if (c.isNull(value)) return 0;
    const Object& a = c.object(value);
    if (a.opaque || a.cls != "[C") return 0;
    out = a.elems;
    return 1;
  }
  switch (textOfKind(c, value, kind, out)) {
    case Have::Known: return 1;
    case Have::Unknown: return 0;
    case Have::Ended: return -1;
  }
  return 0;
}

void registerStringModels(LibraryRegistry& r) {
  const std::string str = "java/lang/String";
  registerOn(r, str);
  r.add(str, "isEmpty", "()Z", [](ModelCall& c) {
    return withReceiver(c, [&](const Chars& s) { return ModelResult::value(c.tm().intLit(s.empty() ? 1 : 0)); });
  });
  r.add(str, "equals", "(Ljava/lang/Object;)Z", equals);
  r.add(str, "hashCode", "()I", hashCode);
  r.add(str, "compareTo", "(Ljava/lang/String;)I", compareTo);
  r.add(str, "compareTo", "(Ljava/lang/Object;)I", [](ModelCall& c) {
    if (!c.isNull(c.arg(1)) && c.object(c.arg(1)).cls != "java/lang/String") return ModelResult::declined();
    return compareTo(c);
  });
  r.add(str, "indexOf", "(I)I", [](ModelCall& c) { return indexOfChar(c, false); });
  r.add(str, "indexOf", "(II)I", [](ModelCall& c) { return indexOfChar(c, false); });
  r.add(str, "lastIndexOf", "(I)I", [](ModelCall& c) { return indexOfChar(c, true); });
  r.add(str, "lastIndexOf", "(II)I", [](ModelCall& c) { return indexOfChar(c, true); });
  r.add(str, "indexOf", "(Ljava/lang/String;)I", [](ModelCall& c) { return matchString(c, "indexOf"); });
  r.add(str, "lastIndexOf", "(Ljava/lang/String;)I", [](ModelCall& c) { return matchString(c, "lastIndexOf"); });
  r.add(str, "startsWith", "(Ljava/lang/String;)Z", [](ModelCall& c) { return matchString(c, "startsWith"); });
  r.add(str, "endsWith", "(Ljava/lang/String;)Z", [](ModelCall& c) { return matchString(c, "endsWith"); });
  r.add(str, "contains", "(Ljava/lang/CharSequence;)Z", [](ModelCall& c) {
    if (!c.isNull(c.arg(1)) && c.object(c.arg(1)).cls != "java/lang/String") return ModelResult::declined();
    return matchString(c, "contains");
  });
  r.add(str, "concat", "(Ljava/lang/String;)Ljava/lang/String;", concat);
  r.add(str, "substring", "(I)Ljava/lang/String;", substring);
  r.add(str, "substring", "(II)Ljava/lang/String;", substring);
  r.add(str, "toCharArray", "()[C", toCharArray);
  r.add(str, "trim", "()Ljava/lang/String;", trim);
  r.add(str, "toString", "()Ljava/lang/String;", [](ModelCall& c) { return ModelResult::value(c.receiver()); });
  r.addOverloads(str, "valueOf", valueOf);
  for (const char* box : {"java/lang/Integer", "java/lang/Long"}) {
    std::string prim = std::string(box) == "java/lang/Integer" ? "I" : "J";
    r.add(box, "toString", "(" + prim + ")Ljava/lang/String;", valueOf);
  }
  r.addOverloads(LibraryRegistry::kInvokeDynamic, "makeConcatWithConstants", [](ModelCall& c) {
    ModelResult m = concatenation(c);
    return m.kind() == ModelResult::Kind::Declined ? invokeDynamicCall(c) : m;
  });
  for (const char* b : {"java/lang/StringBuilder", "java/lang/StringBuffer"}) {
    registerOn(r, b);
    r.addOverloads(b, "<init>", builderInit);
    r.addOverloads(b, "append", append);
    r.add(b, "toString", "()Ljava/lang/String;", builderToString);
  }
}

}  // namespace pasda::symexec::lib
