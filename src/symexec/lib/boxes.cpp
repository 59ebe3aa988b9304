// Models of the box classes: Double's bit conversions, isNaN and compare (Java's total order:
// -0.0 < 0.0, NaN largest), Integer.compare and Long.compare; boxing and unboxing (a box is an
// object with a `value` field; valueOf marks its result as possibly the cached instance, so
// that `==` on two boxes follows Java's cache: equal values in -128..127 are the same object),
// the boxes' constructors, equals, hashCode and compareTo.
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

ModelResult doubleCompareOf(ModelCall& c, Term x, Term y) {
  // Double.compare: a total order with -0.0 < 0.0 and NaN largest (equal to itself). The
  // math model has neither: reals compare plainly.
  terms::TermManager& tm = c.tm();
  Term bx = tm.ite(isNaN(tm, x), tm.longLit(kCanonicalNaN), tm.rawBits(x));
  Term by = tm.ite(isNaN(tm, y), tm.longLit(kCanonicalNaN), tm.rawBits(y));
  Term byBits = tm.ite(tm.eq(bx, by), tm.intLit(0), tm.ite(tm.lt(bx, by), tm.intLit(-1), tm.intLit(1)));
  if (!c.javaArith())
    return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), tm.intLit(0))));
  return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), byBits)));
}

ModelResult doubleCompare(ModelCall& c) { return doubleCompareOf(c, c.arg(0), c.arg(1)); }

ModelResult integralCompare(ModelCall& c) {
  terms::TermManager& tm = c.tm();
  Term x = c.arg(0), y = c.arg(1);
  return ModelResult::value(tm.ite(tm.lt(x, y), tm.intLit(-1), tm.ite(tm.gt(x, y), tm.intLit(1), tm.intLit(0))));
}

struct BoxClass {
  const char* cls;
  char prim;  // descriptor letter of the boxed value
};
constexpr BoxClass kBoxes[] = {{"java/lang/Integer", 'I'}, {"java/lang/Long", 'J'},      {"java/lang/Short", 'S'},
                               {"java/lang/Byte", 'B'},    {"java/lang/Character", 'C'}, {"java/lang/Boolean", 'Z'},
                               {"java/lang/Double", 'D'},  {"java/lang/Float", 'F'}};

std::string primDesc(char p) { return std::string(1, p); }

/// valueOf(prim): a box holding the value; the integral boxes may be the cached instance.
ModelResult valueOf(ModelCall& c, const BoxClass& b) {
  Object o;
  o.cls = b.cls;
  o.fields["value"] = c.arg(0);
  o.box_cache = b.prim != 'D' && b.prim != 'F';
  return ModelResult::value(c.allocate(std::move(o)));
}

/// The boxed value of a non-null box (an input box's value is an input).
std::optional<Term> boxedValue(ModelCall& c, Term box, const BoxClass& b) {
  return c.field(box, "value", primDesc(b.prim));
}

/// xxxValue(): the boxed value converted to the method's result type.
ModelResult unbox(ModelCall& c, const BoxClass& b) {
  std::optional<Term> v = boxedValue(c, c.receiver(), b);
  if (!v) return c.ended();
  char to = c.desc().ret.kind;
  terms::TermManager& tm = c.tm();
  Term r = *v;
  Sort target = sortOfDescriptor(to);
  if (tm.sort(r) != target) r = tm.convert(r, target);
  if (to == 'B') r = tm.i2b(r);
  if (to == 'S') r = tm.i2s(r);
  return ModelResult::value(r);
}

/// equals(Object): the argument is a box of the same class holding the same value.
ModelResult boxEquals(ModelCall& c, const BoxClass& b) {
  terms::TermManager& tm = c.tm();
  Term other = c.arg(1);
  if (c.isNull(other)) return ModelResult::value(tm.intLit(0));
  const Object& o = c.object(other);
  if (o.opaque) return ModelResult::declined();  // of unknown class: the unmodelled call
  if (o.cls != b.cls) return ModelResult::value(tm.intLit(0));
  std::optional<Term> x = boxedValue(c, c.receiver(), b);
  if (!x) return c.ended();
  std::optional<Term> y = boxedValue(c, other, b);
  if (!y) return c.ended();
  Term same = (b.prim == 'D' || b.prim == 'F') ? tm.same(*x, *y) : tm.eq(*x, *y);
  return ModelResult::value(tm.ite(same, tm.intLit(1), tm.intLit(0)));
}

ModelResult boxHashCode(ModelCall& c, const BoxClass& b) {
  std::optional<Term> v = boxedValue(c, c.receiver(), b);
  if (!v) return c.ended();
  terms::TermManager& tm = c.tm();
  switch (b.prim) {
    case 'I': case 'S': case 'B': case 'C': return ModelResult::value(*v);
    case 'Z': return ModelResult::value(tm.ite(tm.eq(*v, tm.intLit(0)), tm.intLit(1237), tm.intLit(1231)));
    case 'J': return ModelResult::value(tm.convert(tm.bitXor(*v, tm.ushr(*v, tm.intLit(32))), Sort::Int));
    default: return ModelResult::declined();
  }
}

ModelResult boxCompareTo(ModelCall& c, const BoxClass& b) {
  if (c.isNull(c.arg(1))) return c.throwNew("java/lang/NullPointerException");
  if (b.prim != 'I' && b.prim != 'J' && b.prim != 'S' && b.prim != 'B' && b.prim != 'C') return ModelResult::declined();
  std::optional<Term> x = boxedValue(c, c.receiver(), b);
  if (!x) return c.ended();
  std::optional<Term> y = boxedValue(c, c.arg(1), b);
  if (!y) return c.ended();
  terms::TermManager& tm = c.tm();
  if (b.prim == 'S' || b.prim == 'B' || b.prim == 'C') return ModelResult::value(tm.sub(*x, *y));
  return ModelResult::value(tm.ite(tm.lt(*x, *y), tm.intLit(-1), tm.ite(tm.gt(*x, *y), tm.intLit(1), tm.intLit(0))));
}

/// new Integer(int) and friends: the constructor stores the value.
ModelResult boxInit(ModelCall& c, const BoxClass& b) {
  if (c.desc().params.size() != 1 || c.desc().params[0].kind != b.prim) return ModelResult::declined();
  c.setField(c.receiver(), "value", c.arg(1));
  c.object(c.receiver()).dirty = false;  // a new box: its content is its value
  return ModelResult::none();
}

}  // namespace

void registerBoxModels(LibraryRegistry& r) {
  for (const BoxClass& b : kBoxes) {
    const std::string prim = primDesc(b.prim);
    r.add(b.cls, "valueOf", "(" + prim + ")L" + b.cls + ";", [b](ModelCall& c) { return valueOf(c, b); });
    for (const char* name : {"intValue", "longValue", "shortValue", "byteValue", "doubleValue", "floatValue",
                             "charValue", "booleanValue"})
      r.addOverloads(b.cls, name, [b](ModelCall& c) { return unbox(c, b); });
    r.add(b.cls, "equals", "(Ljava/lang/Object;)Z", [b](ModelCall& c) { return boxEquals(c, b); });
    r.add(b.cls, "hashCode", "()I", [b](ModelCall& c) { return boxHashCode(c, b); });
    r.add(b.cls, "compareTo", "(L" + std::string(b.cls) + ";)I", [b](ModelCall& c) { return boxCompareTo(c, b); });
    r.add(b.cls, "<init>", "(" + prim + ")V", [b](ModelCall& c) { return boxInit(c, b); });
  }
  const std::string dbl = "java/lang/Double";
  r.add(dbl, "doubleToRawLongBits", "(D)J", [](ModelCall& c) { return ModelResult::value(c.tm().rawBits(c.arg(0))); });
  r.add(dbl, "longBitsToDouble", "(J)D", [](ModelCall& c) { return ModelResult::value(c.tm().fromBits(c.arg(0))); });
  r.add(dbl, "doubleToLongBits", "(D)J", doubleToLongBits);
  r.add(dbl, "isNaN", "(D)Z", doubleIsNaN);
  r.add(dbl, "compare", "(DD)I", doubleCompare);
  // Float's: widening to double is exact and keeps the order, -0.0 and NaN.
  r.add("java/lang/Float", "isNaN", "(F)Z", doubleIsNaN);
  r.add("java/lang/Float", "compare", "(FF)I", [](ModelCall& c) {
    Term x = c.tm().convert(c.arg(0), Sort::Double), y = c.tm().convert(c.arg(1), Sort::Double);
    return doubleCompareOf(c, x, y);
  });
  r.addOverloads("java/lang/Integer", "compare", integralCompare);
  r.addOverloads("java/lang/Long", "compare", integralCompare);
}

}  // namespace pasda::symexec::lib
