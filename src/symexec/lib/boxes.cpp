// Models of the box classes' static helpers: Double's bit conversions, isNaN and compare
// (Java's total order: -0.0 < 0.0, NaN largest), Integer.compare and Long.compare.
#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

constexpr std::int64_t kCanonicalNaN = 0x7ff8000000000000LL;

Term isNaN(terms::TermManager& tm, Term x) { return tm.lnot(tm.eq(x, x)); }

ModelResult doubleToLongBits(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0);
  return ModelResult::value(tm.ite(isNaN(tm, x), tm.longLit(kCanonicalNaN), tm.rawBits(x)));
}

ModelResult doubleIsNaN(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  return ModelResult::value(tm.ite(isNaN(tm, c.arg(0)), tm.intLit(1), tm.intLit(0)));
}

ModelResult doubleCompare(ModelCall& c) {
  // Double.compare: a total order with -0.0 < 0.0 and NaN largest (equal to itself). The
  // math model has neither: reals compare plainly.
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0), y = c.arg(1);
  Term bx = tm.ite(isNaN(tm, x), tm.longLit(kCanonicalNaN), tm.rawBits(x));
  Term by = tm.ite(isNaN(tm, y), tm.longLit(kCanonicalNaN), tm.rawBits(y));
  Term byBits = tm.ite(tm.eq(bx, by), tm.intLit(0), tm.ite(tm.lt(bx, by), tm.intLit(-1), tm.intLit(1)));
  if (!c.javaArith())
    return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), tm.intLit(0))));
  return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), byBits)));
}

ModelResult integralCompare(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0), y = c.arg(1);
  return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), tm.intLit(0))));
}

}  // namespace

void registerBoxModels(LibraryRegistry& r) {
  const std::string dbl = "java/lang/Double";
  r.add(dbl, "doubleToRawLongBits", "(D)J", [](ModelCall& c) { return ModelResult::value(c.tm().rawBits(c.arg(0))); });
  r.add(dbl, "longBitsToDouble", "(J)D", [](ModelCall& c) { return ModelResult::value(c.tm().fromBits(c.arg(0))); });
  r.add(dbl, "doubleToLongBits", "(D)J", doubleToLongBits);
  r.add(dbl, "isNaN", "(D)Z", doubleIsNaN);
  r.add(dbl, "compare", "(DD)I", doubleCompare);
  r.addOverloads("java/lang/Integer", "compare", integralCompare);
  r.addOverloads("java/lang/Long", "compare", integralCompare);
}

}  // namespace pasda::symexec::lib
