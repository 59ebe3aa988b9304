// Models of library methods. java.lang.Math/StrictMath functions that can be modelled exactly
// become terms (abs, min, max, signum, floor, ceil, rint, round, getExponent, toRadians, ...);
// transcendental functions become applications of library function symbols, flagged inexact;
// output calls (PrintStream) have no effect; anything else becomes an opaque application.
#include <cmath>

#include "engine.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::symexec {

namespace {

bool isMathOwner(const std::string& o) { return o == "java/lang/Math" || o == "java/lang/StrictMath"; }

}  // namespace

bool Executor::Impl::invokeLibrary(State& s, const jvm::MemberRef& r, const std::vector<Term>& a,
                                   std::optional<Term>& result) {
  const std::string& n = r.name;
  const std::string& d = r.descriptor;
  const bool java = tm.arith() == terms::Arith::Java;

  if (n == "<init>") return true;  // constructors of library classes (Object, exceptions, ...)
  if (r.owner == "java/io/PrintStream") {  // System.out.println and friends: no effect on results
    if (d.back() != 'V') result = defaultValue(jvm::parseMethodDescriptor(d).ret);
    return true;
  }

  if (isMathOwner(r.owner)) {
    auto isNaN = [&](Term x) { return tm.lnot(tm.eq(x, x)); };
    if (n == "abs") {
      Term x = a[0];
      Sort so = tm.sort(x);
      if (so == Sort::Double || so == Sort::Float) {
        Term zero = so == Sort::Double ? tm.doubleLit(0.0) : tm.floatLit(0.0f);
        result = tm.ite(tm.le(x, zero), tm.sub(zero, x), x);  // Java: (a <= 0.0) ? 0.0 - a : a
      } else {
        Term zero = so == Sort::Long ? tm.longLit(0) : tm.intLit(0);
        result = tm.ite(tm.lt(x, zero), tm.neg(x), x);
      }
      return true;
    }
    if (n == "max" || n == "min") {
      Term x = a[0], y = a[1];
      Sort so = tm.sort(x);
      bool isMax = n == "max";
      Term pick = isMax ? tm.ite(tm.ge(x, y), x, y) : tm.ite(tm.le(x, y), x, y);
      if (java && (so == Sort::Double || so == Sort::Float)) {
        // NaN wins; max(-0.0, 0.0) = 0.0 and min(0.0, -0.0) = -0.0 (compare raw bits of -0.0).
        Term zero = so == Sort::Double ? tm.doubleLit(0.0) : tm.floatLit(0.0f);
        Term dx = so == Sort::Double ? x : tm.convert(x, Sort::Double);
        Term dy = so == Sort::Double ? y : tm.convert(y, Sort::Double);
        Term negZero = tm.longLit(static_cast<std::int64_t>(0x8000000000000000ULL));
        Term bothZero = tm.land(tm.eq(x, zero), tm.eq(y, zero));
        Term signedCase = isMax ? tm.land(bothZero, tm.eq(tm.rawBits(dx), negZero))
                                : tm.land(bothZero, tm.eq(tm.rawBits(dy), negZero));
        pick = tm.ite(isNaN(x), x, tm.ite(signedCase, y, pick));
      }
      result = pick;
      return true;
    }
    if (n == "signum" && (d == "(D)D" || d == "(F)F")) {
      Term x = a[0];
      bool dbl = d == "(D)D";
      Term zero = dbl ? tm.doubleLit(0.0) : tm.floatLit(0.0f);
      Term one = dbl ? tm.doubleLit(1.0) : tm.floatLit(1.0f);
      Term mone = dbl ? tm.doubleLit(-1.0) : tm.floatLit(-1.0f);
      result = tm.ite(tm.lor(tm.eq(x, zero), isNaN(x)), x, tm.ite(tm.gt(x, zero), one, mone));
      return true;
    }
    if (d == "(D)D" && (n == "floor" || n == "ceil" || n == "rint")) {
      result = n == "floor" ? tm.floor(a[0]) : n == "ceil" ? tm.ceil(a[0]) : tm.rint(a[0]);
      return true;
    }
    if (n == "round" && (d == "(D)J" || d == "(F)I")) {
      // Exact for |x| < 2^52: floor(x), plus one when the fraction is at least 0.5.
      Term x = d == "(D)J" ? a[0] : tm.convert(a[0], Sort::Double);
      Sort to = d == "(D)J" ? Sort::Long : Sort::Int;
      Term fl = tm.floor(x);
      Term rounded = tm.ite(tm.ge(tm.sub(x, fl), tm.doubleLit(0.5)), tm.add(fl, tm.doubleLit(1.0)), fl);
      Term big = tm.ge(tm.ite(tm.lt(x, tm.doubleLit(0.0)), tm.neg(x), x), tm.doubleLit(4503599627370496.0));
      result = tm.convert(tm.ite(big, x, rounded), to);
      return true;
    }
    if (n == "getExponent" && d == "(D)I") {
      Term bits = tm.rawBits(a[0]);
      Term e = tm.shr(tm.bitAnd(bits, tm.longLit(0x7ff0000000000000LL)), tm.intLit(52));
      result = tm.sub(tm.convert(e, Sort::Int), tm.intLit(1023));
      return true;
    }
    if (n == "toRadians" && d == "(D)D") {
      result = tm.mul(a[0], tm.doubleLit(0.017453292519943295));
      return true;
    }
    if (n == "toDegrees" && d == "(D)D") {
      result = tm.mul(a[0], tm.doubleLit(57.29577951308232));
      return true;
    }
    static const char* unary[] = {"sqrt", "cbrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos",
                                  "atan", "sinh", "cosh", "tanh", "expm1", "log1p"};
    static const char* binary[] = {"pow", "atan2", "hypot"};
    if (d == "(D)D") {
      for (const char* u : unary)
        if (n == u) { result = tm.apply(n, terms::FunKind::Library, Sort::Double, {a[0]}); return true; }
    }
    if (d == "(DD)D") {
      for (const char* b : binary)
        if (n == b) { result = tm.apply(n, terms::FunKind::Library, Sort::Double, {a[0], a[1]}); return true; }
    }
    return false;
  }

  if (r.owner == "java/lang/Double") {
    if (n == "doubleToRawLongBits" && d == "(D)J") { result = tm.rawBits(a[0]); return true; }
    if (n == "longBitsToDouble" && d == "(J)D") { result = tm.fromBits(a[0]); return true; }
    if (n == "doubleToLongBits" && d == "(D)J") {
      result = tm.ite(tm.lnot(tm.eq(a[0], a[0])), tm.longLit(0x7ff8000000000000LL), tm.rawBits(a[0]));
      return true;
    }
    if (n == "isNaN" && d == "(D)Z") {
      result = tm.ite(tm.lnot(tm.eq(a[0], a[0])), tm.intLit(1), tm.intLit(0));
      return true;
    }
    if (n == "compare" && d == "(DD)I") {
      // Double.compare: a total order with -0.0 < 0.0 and NaN largest (equal to itself).
      Term x = a[0], y = a[1];
      Term bx = tm.ite(tm.lnot(tm.eq(x, x)), tm.longLit(0x7ff8000000000000LL), tm.rawBits(x));
      Term by = tm.ite(tm.lnot(tm.eq(y, y)), tm.longLit(0x7ff8000000000000LL), tm.rawBits(y));
      Term byBits = tm.ite(tm.eq(bx, by), tm.intLit(0), tm.ite(tm.lt(bx, by), tm.intLit(-1), tm.intLit(1)));
      result = java ? tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), byBits))
                    : tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), tm.intLit(0)));
      return true;
    }
  }
  if ((r.owner == "java/lang/Integer" || r.owner == "java/lang/Long") && n == "compare") {
    result = tm.ite(tm.lt(a[0], a[1]), tm.intLit(-1), tm.ite(tm.gt(a[0], a[1]), tm.intLit(1), tm.intLit(0)));
    return true;
  }
  if (r.owner == "java/lang/Object" && n == "getClass") {
    Object o;
    o.cls = "java/lang/Class";
    o.text = deref(s, a[0]).cls;
    result = allocate(s, std::move(o));
    return true;
  }
  return false;
}

Term Executor::Impl::opaqueCall(State& s, const jvm::MemberRef& r, const std::vector<Term>& args) {
  jvm::MethodDesc md = jvm::parseMethodDescriptor(r.descriptor);
  if (md.ret.kind == 'L' || md.ret.kind == '[') {
    note(s, "library call " + r.owner + "." + r.name + r.descriptor + " returns an opaque object");
    Object o;
    o.cls = md.ret.kind == 'L' ? md.ret.className() : md.ret.text;
    o.is_array = md.ret.kind == '[';
    o.opaque = true;
    return allocate(s, std::move(o));
  }
  note(s, "library call " + r.owner + "." + r.name + r.descriptor + " abstracted as an uninterpreted function");
  std::vector<Term> fargs;
  for (Term a : args)
    if (tm.sort(a) != Sort::Ref) fargs.push_back(a);
  std::string name = r.owner + "." + r.name;
  for (char& c : name)
    if (c == '/') c = '.';
  return tm.apply(name, terms::FunKind::Library, sortOf(md.ret), fargs);
}

}  // namespace pasda::symexec
