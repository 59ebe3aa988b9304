// Models of java.lang.Math and StrictMath: exact terms where Java's result can be expressed
// (abs, min, max, signum, floor, ceil, rint, round, getExponent, floorMod, toRadians,
// toDegrees), inexact library function symbols for the transcendental functions.
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

Term isNaN(terms::TermManager& tm, Term x) { return tm.lnot(tm.eq(x, x)); }

Term zeroOf(terms::TermManager& tm, Sort so) {
  switch (so) {
    case Sort::Double: return tm.doubleLit(0.0);
    case Sort::Float: return tm.floatLit(0.0f);
    case Sort::Long: return tm.longLit(0);
    default: return tm.intLit(0);
  }
}

ModelResult abs(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0);
  Sort so = tm.sort(x);
  Term zero = zeroOf(tm, so);
  if (so == Sort::Double || so == Sort::Float)
    return ModelResult::value(tm.ite(tm.le(x, zero), tm.sub(zero, x), x));  // Java: (a <= 0.0) ? 0.0 - a : a
  return ModelResult::value(tm.ite(tm.lt(x, zero), tm.neg(x), x));
}

ModelResult minMax(ModelCall& c, bool isMax) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0), y = c.arg(1);
  Sort so = tm.sort(x);
  Term pick = isMax ? tm.ite(tm.ge(x, y), x, y) : tm.ite(tm.le(x, y), x, y);
  if (c.javaArith() && (so == Sort::Double || so == Sort::Float)) {
    // NaN wins; max(-0.0, 0.0) = 0.0 and min(0.0, -0.0) = -0.0 (compare raw bits of -0.0).
    Term zero = zeroOf(tm, so);
    Term dx = so == Sort::Double ? x : tm.convert(x, Sort::Double);
    Term dy = so == Sort::Double ? y : tm.convert(y, Sort::Double);
    Term negZero = tm.longLit(static_cast<std::int64_t>(0x8000000000000000ULL));
    Term bothZero = tm.land(tm.eq(x, zero), tm.eq(y, zero));
    Term signedCase = isMax ? tm.land(bothZero, tm.eq(tm.rawBits(dx), negZero))
                            : tm.land(bothZero, tm.eq(tm.rawBits(dy), negZero));
    pick = tm.ite(isNaN(tm, x), x, tm.ite(signedCase, y, pick));
  }
  return ModelResult::value(pick);
}

ModelResult signum(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0);
  bool dbl = tm.sort(x) == Sort::Double;
  Term zero = dbl ? tm.doubleLit(0.0) : tm.floatLit(0.0f);
  Term one = dbl ? tm.doubleLit(1.0) : tm.floatLit(1.0f);
  Term mone = dbl ? tm.doubleLit(-1.0) : tm.floatLit(-1.0f);
  return ModelResult::value(tm.ite(tm.lor(tm.eq(x, zero), isNaN(tm, x)), x, tm.ite(tm.gt(x, zero), one, mone)));
}

ModelResult round(ModelCall& c) {
  // Exact for |x| < 2^52: floor(x), plus one when the fraction is at least 0.5.
  terms::TermManager& tm = c.tm();
  bool fromDouble = c.descriptor() == "(D)J";
  Term x = fromDouble ? c.arg(0) : tm.convert(c.arg(0), Sort::Double);
  Sort to = fromDouble ? Sort::Long : Sort::Int;
  Term fl = tm.floor(x);
  Term rounded = tm.ite(tm.ge(tm.sub(x, fl), tm.doubleLit(0.5)), tm.add(fl, tm.doubleLit(1.0)), fl);
  Term big = tm.ge(tm.ite(tm.lt(x, tm.doubleLit(0.0)), tm.neg(x), x), tm.doubleLit(4503599627370496.0));
  return ModelResult::value(tm.convert(tm.ite(big, x, rounded), to));
}

ModelResult getExponent(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term bits = tm.rawBits(c.arg(0));
  Term e = tm.shr(tm.bitAnd(bits, tm.longLit(0x7ff0000000000000LL)), tm.intLit(52));
  return ModelResult::value(tm.sub(tm.convert(e, Sort::Int), tm.intLit(1023)));
}

/// floorMod(x, y): the remainder whose sign is the divisor's (Java's x - floorDiv(x, y) * y);
/// ArithmeticException when y is 0. The (long, int) overload is (int) floorMod(x, (long) y).
ModelResult floorMod(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0), y = c.arg(1);
  auto byZero = c.branch(tm.eq(y, zeroOf(tm, tm.sort(y))));
  if (!byZero) return c.ended();
  if (*byZero) return c.throwNew("java/lang/ArithmeticException");
  Sort so = tm.sort(x);
  Term wy = tm.sort(y) == so ? y : tm.convert(y, so);
  Term zero = zeroOf(tm, so);
  Term r = tm.rem(x, wy);  // truncated: the sign of x
  // Adjust a non-zero remainder whose sign differs from the divisor's (this cannot overflow).
  Term adjust = tm.lor(tm.land(tm.lt(r, zero), tm.gt(wy, zero)), tm.land(tm.gt(r, zero), tm.lt(wy, zero)));
  Term m = tm.ite(adjust, tm.add(r, wy), r);
  return ModelResult::value(c.desc().ret.kind == 'I' && so == Sort::Long ? tm.convert(m, Sort::Int) : m);
}

/// sin, log, pow, ...: no exact model; an inexact library function symbol of the arguments.
ModelResult transcendental(ModelCall& c) {
  return ModelResult::value(c.tm().apply(c.name(), terms::FunKind::Library, Sort::Double, c.args()));
}

void registerOn(LibraryRegistry& r, const std::string& owner) {
  r.addOverloads(owner, "abs", abs);
  r.addOverloads(owner, "max", [](ModelCall& c) { return minMax(c, true); });
  r.addOverloads(owner, "min", [](ModelCall& c) { return minMax(c, false); });
  r.add(owner, "signum", "(D)D", signum);
  r.add(owner, "signum", "(F)F", signum);
  r.add(owner, "floor", "(D)D", [](ModelCall& c) { return ModelResult::value(c.tm().floor(c.arg(0))); });
  r.add(owner, "ceil", "(D)D", [](ModelCall& c) { return ModelResult::value(c.tm().ceil(c.arg(0))); });
  r.add(owner, "rint", "(D)D", [](ModelCall& c) { return ModelResult::value(c.tm().rint(c.arg(0))); });
  r.add(owner, "round", "(D)J", round);
  r.add(owner, "round", "(F)I", round);
  r.add(owner, "getExponent", "(D)I", getExponent);
  r.addOverloads(owner, "floorMod", floorMod);  // (II)I, (JJ)J, (JI)I
  r.add(owner, "toRadians", "(D)D",
        [](ModelCall& c) { return ModelResult::value(c.tm().mul(c.arg(0), c.tm().doubleLit(0.017453292519943295))); });
  r.add(owner, "toDegrees", "(D)D",
        [](ModelCall& c) { return ModelResult::value(c.tm().mul(c.arg(0), c.tm().doubleLit(57.29577951308232))); });
  for (const char* u : {"sqrt", "cbrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
                        "cosh", "tanh", "expm1", "log1p"})
    r.add(owner, u, "(D)D", transcendental);
  for (const char* b : {"pow", "atan2", "hypot"}) r.add(owner, b, "(DD)D", transcendental);
}

}  // namespace

void registerMathModels(LibraryRegistry& r) {
  registerOn(r, "java/lang/Math");
  registerOn(r, "java/lang/StrictMath");
}

}  // namespace pasda::symexec::lib
