// Standalone benchmark (not built by CMake): the engine's encoding of Java strings as
// "characters as terms" (a string of each concrete length 0..N, one symbolic character per
// position, String methods as ite chains over them; the engine forks on the lengths) against
// Z3's sequence theory, on query shapes of real refactorings (Apache Commons Lang 3.17.0 ->
// 3.18.0). Every query asks "do the two versions' outputs differ?": unsat is expected for the
// equivalent rewrites (EQ), sat for the behaviour changes (NEQ). Build:
//   g++ -std=c++20 -O2 bench/string_encoding_bench.cpp -lz3 -o string_encoding_bench
// Run: ./string_encoding_bench [N] [timeout_ms]   (defaults 8 = --max-array-length, 10000)
// Encodings:
//   chars-bv   characters 16-bit bit-vector constants, indices and lengths 32-bit vectors
//              (the engine under --arith java); one query per combination of the input
//              lengths 0..N, the times summed, "sat" when any combination is sat
//   chars-int  characters Int constants in 0..65535, indices Int (the engine, --arith math)
//   seq-str    Z3's String sort. In Z3 4.8.12 its characters are the sort "Unicode" (codes
//              0..0x2FFFF) and the C/C++ API has no character terms, so a char c is an Int
//              code in 0..65535, made a one-character string by str.from_code and read back
//              by str.to_code(str.at(s, k)) (both declarations taken from the SMT-LIB parser).
//              Inputs are kept to Java's chars (the BMP, 0..0xFFFF) by
//              s in (re.range "\u{0}" "\u{ffff}")* (faster, bounded, than a constraint
//              str.to_code(str.at(s, k)) <= 0xFFFF per position k < N); the unbounded query
//              is also run without it ("unb-anychar": the answers of shapes that compare
//              characters only for equality do not depend on the alphabet; a model's non-BMP
//              char would be reported by the model check).
//   seq-bv16   the generic sequence sort (Seq (_ BitVec 16)): exactly Java's chars; a char
//              is a 16-bit vector, seq.unit of it a one-character sequence, seq.nth reads one.
//   Each seq encoding is run "bounded" (every input length <= N) and "unbounded".
// Sat models are checked: the inputs are read from the model and both versions evaluated by
// the C++ reference implementations of the Java methods below ("model ok" / "MODEL WRONG").
// The times are those of the solver (add + check), not of building the terms. Z3's sequence
// solver is sensitive to the context's history: an unbounded query that follows the bounded
// one in the same context can time out where it is answered at once in a fresh context.
#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using U16 = std::u16string;
constexpr double kRowBudgetMs = 120000;  // a row stops (marked "+incomplete") past this

// ---------------------------------------------------------------------------------------
// Java reference implementations (java.lang.String semantics) over UTF-16 code units.
long jLen(const U16& s) { return static_cast<long>(s.size()); }

bool jRegionMatches(const U16& s, long to, const U16& o, long oo, long len) {
  if (oo < 0 || to < 0 || to > jLen(s) - len || oo > jLen(o) - len) return false;
  for (long k = 0; k < len; ++k)
    if (s[to + k] != o[oo + k]) return false;
  return true;
}
bool jStartsWith(const U16& s, const U16& p, long off = 0) {
  if (off < 0 || off > jLen(s) - jLen(p)) return false;
  return jRegionMatches(s, off, p, 0, jLen(p));
}
long jIndexOf(const U16& s, const U16& p) {
  for (long k = 0; k + jLen(p) <= jLen(s); ++k)
    if (jRegionMatches(s, k, p, 0, jLen(p))) return k;
  return -1;
}
bool jContains(const U16& s, const U16& p) { return s.find(p) != U16::npos; }  // independent of jIndexOf
long jIndexOfChar(const U16& s, char16_t c) {
  auto r = s.find(c);
  return r == U16::npos ? -1 : static_cast<long>(r);
}
char16_t jUpper(char16_t c) { return c >= u'a' && c <= u'z' ? static_cast<char16_t>(c - 32) : c; }  // ASCII
char16_t jLower(char16_t c) { return c >= u'A' && c <= u'Z' ? static_cast<char16_t>(c + 32) : c; }
bool jEqualsIgnoreCase(const U16& a, const U16& b) {  // regionMatches(true, ...) on ASCII
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    char16_t x = a[k], y = b[k];
    if (x == y) continue;
    char16_t u = jUpper(x), v = jUpper(y);
    if (u == v || jLower(u) == jLower(v)) continue;
    return false;
  }
  return true;
}

// Concrete inputs of a query: the strings, the int i and the char c.
struct Inputs {
  std::vector<U16> s;
  long i = 0;
  char16_t c = 0;
};
// Values read from a model, before checking that they are Java values.
struct Raw {
  std::vector<std::vector<std::int64_t>> s;
  std::int64_t i = 0, c = 0;
};

// ---------------------------------------------------------------------------------------
// Character operations shared by the encodings: chars are 16-bit vectors or Ints.
struct CharOps {
  z3::context& ctx;
  bool bvChars;
  CharOps(z3::context& c, bool bv) : ctx(c), bvChars(bv) {}
  z3::expr chr(unsigned v) const { return bvChars ? ctx.bv_val(v, 16) : ctx.int_val(v); }
  z3::expr cle(const z3::expr& a, const z3::expr& b) const { return bvChars ? z3::ule(a, b) : a <= b; }
  z3::expr within(const z3::expr& x, unsigned lo, unsigned hi) const { return cle(chr(lo), x) && cle(x, chr(hi)); }
  z3::expr upper(const z3::expr& x) const { return z3::ite(within(x, 'a', 'z'), x - chr(32), x); }
  z3::expr lower(const z3::expr& x) const { return z3::ite(within(x, 'A', 'Z'), x + chr(32), x); }
  // Java regionMatches(ignoreCase) per character, on ASCII.
  z3::expr sameIgnoringCase(const z3::expr& x, const z3::expr& y) const {
    return x == y || upper(x) == upper(y) || lower(upper(x)) == lower(upper(y));
  }
  z3::expr charVar(const std::string& n, unsigned maxCode, z3::expr_vector& pre) const {
    z3::expr x = bvChars ? ctx.bv_const(n.c_str(), 16) : ctx.int_const(n.c_str());
    if (!bvChars || maxCode < 0xFFFF) pre.push_back(within(x, 0, maxCode));
    return x;
  }
};

// Characters as terms: a string is a vector of character terms of a concrete length.
struct CharEnc : CharOps {
  using CharOps::CharOps;
  z3::expr num(long v) const { return bvChars ? ctx.bv_val(static_cast<int>(v), 32) : ctx.int_val(v); }
  z3::expr intVar(const char* n) const { return bvChars ? ctx.bv_const(n, 32) : ctx.int_const(n); }
};
using Str = std::vector<z3::expr>;
long len(const Str& s) { return static_cast<long>(s.size()); }

// s[k .. k+|p|) == p (false when it does not fit): the engine's match at offset k.
z3::expr matchAt(CharEnc& e, const Str& s, const Str& p, long k) {
  if (k < 0 || k + len(p) > len(s)) return e.ctx.bool_val(false);
  z3::expr_vector eq(e.ctx);
  for (long j = 0; j < len(p); ++j) eq.push_back(s[k + j] == p[j]);
  return z3::mk_and(eq);
}
// The first k in 0..n-1 where at(k) holds, else -1: a nested ite from the front.
template <class F>
z3::expr firstIndex(CharEnc& e, long n, F at) {
  z3::expr r = e.num(-1);
  for (long k = n; k-- > 0;) r = z3::ite(at(k), e.num(k), r);
  return r;
}
z3::expr indexOfStr(CharEnc& e, const Str& s, const Str& p) {
  return firstIndex(e, len(s) - len(p) + 1, [&](long k) { return matchAt(e, s, p, k); });
}
// s.charAt(idx) for a symbolic idx known to be in range: an ite over the positions.
z3::expr charAt(CharEnc& e, const Str& s, const z3::expr& idx) {
  z3::expr r = e.chr(0);
  for (long k = len(s); k-- > 0;) r = z3::ite(idx == e.num(k), s[k], r);
  return r;
}

// ---------------------------------------------------------------------------------------
// Z3 sequences: String sort (Unicode chars, Int codes) or Seq (_ BitVec 16).
enum class Bmp { Regex, None };  // whether seq-str inputs are kept to 0..0xFFFF

struct SeqEnc : CharOps {
  bool str;
  Bmp bmp;
  z3::expr_vector pre;
  std::optional<z3::func_decl> toCode, fromCode;
  SeqEnc(z3::context& c, bool isStr, Bmp b) : CharOps(c, !isStr), str(isStr), bmp(b), pre(c) {
    if (!str) return;
    z3::expr_vector v = ctx.parse_string(
        "(declare-const s String)(declare-const k Int)(assert (= (str.to_code s) (str.len (str.from_code k))))");
    toCode = v[0].arg(0).decl();
    fromCode = v[0].arg(1).arg(0).decl();
  }
  z3::sort sort() const {
    if (str) return ctx.string_sort();
    z3::sort b = ctx.bv_sort(16);
    return ctx.seq_sort(b);
  }
  z3::expr code(const z3::expr& s, const z3::expr& k) const { return str ? (*toCode)(s.at(k)) : s.nth(k); }
  z3::expr code(const z3::expr& s, long k) const { return code(s, ctx.int_val(k)); }
  // An input string, of length <= bound when bound >= 0.
  z3::expr var(const std::string& n, long bound) {
    z3::expr x = ctx.constant(n.c_str(), sort());
    if (bound >= 0) pre.push_back(x.length() <= ctx.int_val(bound));
    if (str && bmp == Bmp::Regex)
      pre.push_back(z3::in_re(x, z3::star(z3::range(ctx.string_val("\\u{0}"), ctx.string_val("\\u{ffff}")))));
    return x;
  }
  z3::expr unitOf(const z3::expr& c) const { return str ? (*fromCode)(c) : c.unit(); }
};

using SeqIn = std::vector<z3::expr>;
using MaybeExpr = std::optional<z3::expr>;

// A query shape: the strings it takes (one letter each), its "outputs differ" formula in
// each encoding (nullopt: not expressible) and the reference (old, new) outputs.
struct Shape {
  const char* name;
  bool equiv;
  const char* vars;
  bool ascii;
  std::function<z3::expr(CharEnc&, const std::vector<Str>&, const z3::expr& i, const z3::expr& c)> chars;
  std::function<MaybeExpr(SeqEnc&, const SeqIn&, const z3::expr& i, const z3::expr& c, long bound)> seq;
  std::function<std::pair<long, long>(const Inputs&)> ref;
};

// 1. s.startsWith(p) vs p.length() <= s.length() && s.regionMatches(0, p, 0, p.length()).
Shape startsWithRegion() {
  return {"startsWith_region", true, "sp", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr&) {
            const Str &s = x[0], &p = x[1];
            z3::expr o = matchAt(e, s, p, 0);
            // regionMatches as its loop with an early exit (concrete lengths: bounds folded).
            z3::expr region = e.ctx.bool_val(len(p) <= len(s));
            if (len(p) <= len(s))
              for (long k = len(p); k-- > 0;) region = z3::ite(s[k] != p[k], e.ctx.bool_val(false), region);
            return o != (e.num(len(p)) <= e.num(len(s)) && region);
          },
          [](SeqEnc& e, const SeqIn& x, const z3::expr&, const z3::expr&, long) -> MaybeExpr {
            const z3::expr &s = x[0], &p = x[1];
            return z3::prefixof(p, s) != (p.length() <= s.length() && s.extract(e.ctx.int_val(0), p.length()) == p);
          },
          [](const Inputs& in) {
            const U16 &s = in.s[0], &p = in.s[1];
            return std::pair<long, long>{jStartsWith(s, p), jLen(p) <= jLen(s) && jRegionMatches(s, 0, p, 0, jLen(p))};
          }};
}

// 2. s.contains(p) vs s.indexOf(p) >= 0.
Shape containsIndexOf() {
  return {"contains_indexOf", true, "sp", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr&) {
            const Str &s = x[0], &p = x[1];
            z3::expr_vector any(e.ctx);  // contains: a match at some offset
            for (long k = 0; k + len(p) <= len(s); ++k) any.push_back(matchAt(e, s, p, k));
            return z3::mk_or(any) != (indexOfStr(e, s, p) >= e.num(0));
          },
          [](SeqEnc& e, const SeqIn& x, const z3::expr&, const z3::expr&, long) -> MaybeExpr {
            const z3::expr &s = x[0], &p = x[1];
            return s.contains(p) != (z3::indexof(s, p, e.ctx.int_val(0)) >= 0);
          },
          [](const Inputs& in) {
            return std::pair<long, long>{jContains(in.s[0], in.s[1]), jIndexOf(in.s[0], in.s[1]) >= 0};
          }};
}

// The old loop of shape 3 in the unbounded sequence query: a recursive function.
z3::expr loopIndexRec(SeqEnc& e, const z3::expr& s, const z3::expr& c) {
  z3::context& ctx = e.ctx;
  z3::sort dom[3] = {s.get_sort(), c.get_sort(), ctx.int_sort()};
  z3::func_decl f = ctx.recfun("oldIndexOf", 3, dom, ctx.int_sort());
  z3::expr xs = ctx.constant("xs", dom[0]), xc = ctx.constant("xc", dom[1]), xk = ctx.int_const("xk");
  z3::expr_vector args(ctx);
  args.push_back(xs);
  args.push_back(xc);
  args.push_back(xk);
  ctx.recdef(f, args, z3::ite(xk >= xs.length(), ctx.int_val(-1), z3::ite(e.code(xs, xk) == xc, xk, f(xs, xc, xk + 1))));
  return f(s, c, ctx.int_val(0));
}

// 3. for (k...) if (s.charAt(k) == c) return k; return -1;  vs  s.indexOf(c).
// chars: the old loop is the nested ite from the front; the new one is built as a forward
// scan with a found flag (r = (r == -1 && s[k] == c) ? k : r), an equal function but a
// different term, so that the solver rather than the term builder has to prove it.
// seq: new = indexof(s, unit(c), 0); old = the loop unrolled with nth/str.at up to N
// (bounded) or a recursive function (define-fun-rec) over the whole string (unbounded).
Shape indexOfChar() {
  return {"indexOf_char", true, "s", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr& c) {
            const Str& s = x[0];
            z3::expr o = firstIndex(e, len(s), [&](long k) { return s[k] == c; });
            z3::expr n = e.num(-1);
            for (long k = 0; k < len(s); ++k) n = z3::ite(n == e.num(-1) && s[k] == c, e.num(k), n);
            return o != n;
          },
          [](SeqEnc& e, const SeqIn& x, const z3::expr&, const z3::expr& c, long bound) -> MaybeExpr {
            const z3::expr& s = x[0];
            z3::expr n = z3::indexof(s, e.unitOf(c), e.ctx.int_val(0));
            if (bound < 0) return loopIndexRec(e, s, c) != n;
            z3::expr o = e.ctx.int_val(-1);
            for (long k = bound; k-- > 0;)
              o = z3::ite(e.ctx.int_val(k) < s.length() && e.code(s, k) == c, e.ctx.int_val(k), o);
            return o != n;
          },
          [](const Inputs& in) {
            long old = -1;
            for (long k = 0; k < jLen(in.s[0]); ++k)
              if (in.s[0][k] == in.c) {
                old = k;
                break;
              }
            return std::pair<long, long>{old, jIndexOfChar(in.s[0], in.c)};
          }};
}

// 4. 0 <= i && i <= s.length() && s.substring(i).startsWith(p)  vs  ... && s.startsWith(p, i).
// chars: substring forks on the value of i (as the engine does); startsWith(p, i) reads
// s.charAt(i + j) with a symbolic index after its bounds check.
Shape substringStartsWith() {
  return {"substring_startsWith", true, "sp", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr& i, const z3::expr&) {
            const Str &s = x[0], &p = x[1];
            z3::expr guard = e.num(0) <= i && i <= e.num(len(s));
            z3::expr_vector forks(e.ctx);
            for (long k = 0; k <= len(s); ++k) forks.push_back(i == e.num(k) && matchAt(e, s, p, k));
            z3::expr_vector eq(e.ctx);
            for (long j = 0; j < len(p); ++j) eq.push_back(charAt(e, s, i + e.num(j)) == p[j]);
            z3::expr n = i <= e.num(len(s)) - e.num(len(p)) && z3::mk_and(eq);
            return (guard && z3::mk_or(forks)) != (guard && n);
          },
          [](SeqEnc&, const SeqIn& x, const z3::expr& i, const z3::expr&, long) -> MaybeExpr {
            const z3::expr &s = x[0], &p = x[1];
            z3::expr guard = 0 <= i && i <= s.length();
            z3::expr o = z3::prefixof(p, s.extract(i, s.length() - i));
            z3::expr n = i <= s.length() - p.length() && s.extract(i, p.length()) == p;
            return (guard && o) != (guard && n);
          },
          [](const Inputs& in) {
            const U16 &s = in.s[0], &p = in.s[1];
            bool guard = 0 <= in.i && in.i <= jLen(s);
            return std::pair<long, long>{guard && jStartsWith(s.substr(guard ? in.i : 0), p),
                                         guard && jStartsWith(s, p, in.i)};
          }};
}

// 5. a.equalsIgnoreCase(b) vs a.length() == b.length() && all upper(a[k]) == upper(b[k]),
// characters restricted to ASCII. The sequence query is unrolled with nth: bounded only.
Shape equalsIgnoreCaseAscii() {
  return {"equalsIgnoreCase_ascii", true, "ab", true,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr&) {
            const Str &a = x[0], &b = x[1];
            z3::expr_vector o(e.ctx), n(e.ctx);
            for (long k = 0; k < std::min(len(a), len(b)); ++k) {
              o.push_back(e.sameIgnoringCase(a[k], b[k]));
              n.push_back(e.upper(a[k]) == e.upper(b[k]));
            }
            z3::expr sameLen = e.ctx.bool_val(len(a) == len(b));  // the old code's length check
            return (sameLen && z3::mk_and(o)) != (e.num(len(a)) == e.num(len(b)) && z3::mk_and(n));
          },
          [](SeqEnc& e, const SeqIn& x, const z3::expr&, const z3::expr&, long bound) -> MaybeExpr {
            if (bound < 0) return std::nullopt;
            const z3::expr &a = x[0], &b = x[1];
            z3::expr_vector o(e.ctx), n(e.ctx);
            for (long k = 0; k < bound; ++k) {
              z3::expr in = e.ctx.int_val(k) < a.length(), ca = e.code(a, k), cb = e.code(b, k);
              e.pre.push_back(z3::implies(in, e.cle(ca, e.chr(127))));
              e.pre.push_back(z3::implies(e.ctx.int_val(k) < b.length(), e.cle(cb, e.chr(127))));
              o.push_back(z3::implies(in, e.sameIgnoringCase(ca, cb)));
              n.push_back(z3::implies(in, e.upper(ca) == e.upper(cb)));
            }
            z3::expr sameLen = a.length() == b.length();
            return (sameLen && z3::mk_and(o)) != (sameLen && z3::mk_and(n));
          },
          [](const Inputs& in) {
            const U16 &a = in.s[0], &b = in.s[1];
            bool n = a.size() == b.size();
            for (std::size_t k = 0; n && k < a.size(); ++k) n = jUpper(a[k]) == jUpper(b[k]);
            return std::pair<long, long>{jEqualsIgnoreCase(a, b), n};
          }};
}

// 6. s.startsWith(p) vs !p.isEmpty() && s.startsWith(p): differs for p = "".
Shape startsWithEmpty() {
  return {"startsWith_empty", false, "sp", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr&) {
            const Str &s = x[0], &p = x[1];
            z3::expr o = matchAt(e, s, p, 0);
            return o != (!(e.num(len(p)) == e.num(0)) && o);
          },
          [](SeqEnc&, const SeqIn& x, const z3::expr&, const z3::expr&, long) -> MaybeExpr {
            const z3::expr &s = x[0], &p = x[1];
            return z3::prefixof(p, s) != (p.length() > 0 && z3::prefixof(p, s));
          },
          [](const Inputs& in) {
            bool o = jStartsWith(in.s[0], in.s[1]);
            return std::pair<long, long>{o, !in.s[1].empty() && o};
          }};
}

// 7. (s + t).indexOf(p) vs s.indexOf(p) >= 0 ? s.indexOf(p) : t.indexOf(p) >= 0 ?
// s.length() + t.indexOf(p) : -1 -- wrong for a match across the boundary.
Shape concatLength() {
  return {"concat_length", false, "stp", false,
          [](CharEnc& e, const std::vector<Str>& x, const z3::expr&, const z3::expr&) {
            const Str &s = x[0], &t = x[1], &p = x[2];
            Str st = s;
            st.insert(st.end(), t.begin(), t.end());
            z3::expr is = indexOfStr(e, s, p), it = indexOfStr(e, t, p), zero = e.num(0);
            z3::expr n = z3::ite(is >= zero, is, z3::ite(it >= zero, e.num(len(s)) + it, e.num(-1)));
            return indexOfStr(e, st, p) != n;
          },
          [](SeqEnc& e, const SeqIn& x, const z3::expr&, const z3::expr&, long) -> MaybeExpr {
            const z3::expr &s = x[0], &t = x[1], &p = x[2], zero = e.ctx.int_val(0);
            z3::expr is = z3::indexof(s, p, zero), it = z3::indexof(t, p, zero);
            z3::expr n = z3::ite(is >= 0, is, z3::ite(it >= 0, s.length() + it, e.ctx.int_val(-1)));
            return z3::indexof(z3::concat(s, t), p, zero) != n;
          },
          [](const Inputs& in) {
            const U16 &s = in.s[0], &t = in.s[1], &p = in.s[2];
            long is = jIndexOf(s, p), it = jIndexOf(t, p);
            return std::pair<long, long>{jIndexOf(s + t, p), is >= 0 ? is : it >= 0 ? jLen(s) + it : -1};
          }};
}

// ---------------------------------------------------------------------------------------
// Running queries and summing them up.
struct Outcome {
  z3::check_result r;
  bool timeout;
  double ms;
};

Outcome solve(z3::context& ctx, const z3::expr_vector& pre, const z3::expr& q, unsigned timeoutMs,
              std::optional<z3::model>& model) {
  auto t0 = Clock::now();
  z3::solver s(ctx);
  s.set("timeout", timeoutMs);
  s.add(pre);
  s.add(q);
  z3::check_result r = s.check();
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::string why = r == z3::unknown ? s.reason_unknown() : "";
  if (r == z3::sat) model = s.get_model();
  return {r, why.find("timeout") != std::string::npos || why.find("canceled") != std::string::npos, ms};
}

struct Row {
  int queries = 0, sat = 0, unknown = 0, timeouts = 0, modelOk = 0, modelBad = 0, modelNotJava = 0;
  double total = 0, max = 0;
  bool na = false, incomplete = false;
  void add(const Outcome& o) {
    ++queries;
    total += o.ms;
    max = std::max(max, o.ms);
    if (o.r == z3::sat) ++sat;
    if (o.r == z3::unknown) ++(o.timeout ? timeouts : unknown);
  }
  std::string answer() const {
    if (na) return "n/a";
    std::string a = sat ? "sat" : timeouts ? "timeout" : unknown ? "unknown" : "unsat";
    if (sat && queries > 1) a += "(" + std::to_string(sat) + ")";
    if (sat && (timeouts || unknown)) a += "+" + std::to_string(timeouts + unknown) + "?";
    return incomplete ? a + "+incomplete" : a;
  }
  std::string model() const {
    if (!sat) return "-";
    if (!modelBad && !modelNotJava) return "model ok";
    std::string r = "MODEL WRONG (" + std::to_string(modelBad + modelNotJava) + "/" + std::to_string(sat);
    return r + (modelNotJava ? ", " + std::to_string(modelNotJava) + " not Java inputs)" : ")");
  }
};

std::int64_t numeral(const z3::model& m, const z3::expr& x) { return m.eval(x, true).get_numeral_int64(); }

enum class Check { Ok, Wrong, NotJava };
void count(Row& row, Check c) { ++(c == Check::Ok ? row.modelOk : c == Check::Wrong ? row.modelBad : row.modelNotJava); }

// A model's values as Java inputs (NotJava: a length past the bound, a char out of range),
// and whether both versions differ on them there.
Check checkModel(const Shape& sh, const Raw& raw, long bound) {
  Inputs in;
  for (const auto& s : raw.s) {
    if (bound >= 0 && static_cast<long>(s.size()) > bound) return Check::NotJava;
    U16 u;
    for (std::int64_t v : s) {
      if (v < 0 || v > (sh.ascii ? 127 : 0xFFFF)) return Check::NotJava;
      u.push_back(static_cast<char16_t>(v));
    }
    in.s.push_back(u);
  }
  if (raw.c < 0 || raw.c > 0xFFFF) return Check::NotJava;
  in.i = static_cast<long>(raw.i);
  in.c = static_cast<char16_t>(raw.c);
  auto [o, n] = sh.ref(in);
  return o != n ? Check::Ok : Check::Wrong;
}

Row runChars(const Shape& sh, bool bv, long N, unsigned timeoutMs) {
  z3::context ctx;
  Row row;
  const std::size_t ns = std::strlen(sh.vars);
  std::vector<long> lens(ns, 0);
  for (;;) {
    CharEnc e(ctx, bv);
    z3::expr_vector pre(ctx);
    std::vector<Str> in(ns);
    for (std::size_t j = 0; j < ns; ++j)
      for (long k = 0; k < lens[j]; ++k)
        in[j].push_back(e.charVar(std::string(1, sh.vars[j]) + std::to_string(k), sh.ascii ? 127 : 0xFFFF, pre));
    z3::expr i = e.intVar("i"), c = e.charVar("c", 0xFFFF, pre);
    z3::expr q = sh.chars(e, in, i, c);
    std::optional<z3::model> m;
    Outcome o = solve(ctx, pre, q, timeoutMs, m);
    row.add(o);
    if (m) {
      Raw raw;
      for (const Str& s : in) {
        raw.s.emplace_back();
        for (const z3::expr& x : s) raw.s.back().push_back(numeral(*m, x));
      }
      std::int64_t iv = numeral(*m, i);
      raw.i = bv ? static_cast<std::int32_t>(static_cast<std::uint32_t>(iv)) : iv;
      raw.c = numeral(*m, c);
      count(row, checkModel(sh, raw, N));
    }
    if (row.total > kRowBudgetMs) {
      row.incomplete = true;
      break;
    }
    std::size_t j = 0;  // the next combination of lengths
    while (j < ns && ++lens[j] > N) lens[j++] = 0;
    if (j == ns) break;
  }
  return row;
}

// One sequence query (bounded when bound >= 0) in the context shared by the shape's queries.
Row runSeq(z3::context& ctx, const Shape& sh, bool str, long bound, Bmp bmp, unsigned timeoutMs) {
  SeqEnc e(ctx, str, bmp);
  Row row;
  SeqIn in;
  for (const char* v = sh.vars; *v; ++v) in.push_back(e.var(std::string(1, *v), bound));
  z3::expr i = ctx.int_const("i"), c = e.charVar("c", 0xFFFF, e.pre);
  MaybeExpr q = sh.seq(e, in, i, c, bound);
  if (!q) {
    row.na = true;
    return row;
  }
  std::optional<z3::model> m;
  row.add(solve(ctx, e.pre, *q, timeoutMs, m));
  if (m) {
    Raw raw;
    for (const z3::expr& s : in) {
      raw.s.emplace_back();
      std::int64_t n = std::min<std::int64_t>(numeral(*m, s.length()), 100000);
      for (long k = 0; k < n; ++k) raw.s.back().push_back(numeral(*m, e.code(s, k)));
    }
    raw.i = numeral(*m, i);
    raw.c = numeral(*m, c);
    count(row, checkModel(sh, raw, bound));
  }
  return row;
}

void print(const Shape& sh, const std::string& enc, const Row& r, std::map<std::string, double>& totals) {
  std::printf("%-23s %-4s %-19s %-18s %7d %11.1f %10.1f  %s\n", sh.name, sh.equiv ? "EQ" : "NEQ", enc.c_str(),
              r.answer().c_str(), r.queries, r.total, r.max, r.model().c_str());
  std::fflush(stdout);
  totals[enc] += r.total;
}

}  // namespace

int main(int argc, char** argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 8;
  unsigned timeoutMs = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 10000u;
  std::printf("N = %ld (string lengths 0..N), timeout %u ms per query, Z3 %s\n", N, timeoutMs, Z3_get_full_version());
  std::printf("%-23s %-4s %-19s %-18s %7s %11s %10s  %s\n", "shape", "exp", "encoding", "answer", "queries", "total ms",
              "max ms", "model");
  const std::vector<Shape> shapes = {startsWithRegion(), containsIndexOf(),      indexOfChar(),    substringStartsWith(),
                                     equalsIgnoreCaseAscii(), startsWithEmpty(), concatLength()};
  std::map<std::string, double> totals;
  const char* order[] = {"chars-bv",         "chars-int",        "seq-str bounded",   "seq-str unbounded",
                         "seq-str unb-anychar", "seq-bv16 bounded", "seq-bv16 unbounded"};
  for (const Shape& sh : shapes) {
    print(sh, "chars-bv", runChars(sh, true, N, timeoutMs), totals);
    print(sh, "chars-int", runChars(sh, false, N, timeoutMs), totals);
    for (bool str : {true, false}) {
      z3::context ctx;  // one context per encoding per shape, for both queries
      std::string enc = str ? "seq-str" : "seq-bv16";
      print(sh, enc + " bounded", runSeq(ctx, sh, str, N, Bmp::Regex, timeoutMs), totals);
      print(sh, enc + " unbounded", runSeq(ctx, sh, str, -1, Bmp::Regex, timeoutMs), totals);
      if (str) print(sh, "seq-str unb-anychar", runSeq(ctx, sh, str, -1, Bmp::None, timeoutMs), totals);
    }
  }
  std::printf("\ntotal solver time per encoding over all shapes (n/a rows count 0):\n");
  for (const char* enc : order) std::printf("  %-19s %11.1f ms\n", enc, totals[enc]);
  return 0;
}
