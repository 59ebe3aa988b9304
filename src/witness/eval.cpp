#include "eval.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cstring>
#include <limits>

namespace pasda::witness::detail {

using terms::Op;
using terms::Sort;
using terms::Term;
namespace mp = boost::multiprecision;

namespace {

double bitsToDouble(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
float bitsToFloat(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
std::uint64_t doubleBits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

template <class R>
bool finite(const R& r) {
  using std::isfinite;
  using mp::isfinite;
  return isfinite(r);
}

template <class R>
R fromI128(i128 v) {
  if (v >= std::numeric_limits<long long>::min() && v <= std::numeric_limits<long long>::max())
    return R(static_cast<long long>(v));
  // Split: hi * 2^64 + lo.
  bool neg = v < 0;
  u128 u = neg ? static_cast<u128>(-v) : static_cast<u128>(v);
  R hi = R(static_cast<unsigned long long>(u >> 64)), lo = R(static_cast<unsigned long long>(u));
  R r = hi * R(18446744073709551616.0) + lo;
  return neg ? R(-r) : r;
}

// Java's narrowing of a double to int/long (NaN -> 0, saturating, truncating).
i128 javaToIntegral(double d, Sort to) {
  if (std::isnan(d)) return 0;
  if (to == Sort::Int) {
    if (d >= 2147483647.0) return std::numeric_limits<std::int32_t>::max();
    if (d <= -2147483648.0) return std::numeric_limits<std::int32_t>::min();
    return static_cast<std::int32_t>(d);
  }
  if (d >= 9223372036854775808.0) return std::numeric_limits<std::int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(d);
}

std::int64_t wrap64(i128 v) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(static_cast<u128>(v))); }
std::int32_t wrap32(i128 v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<u128>(v))); }

template <class R>
R rintHalfEven(const R& x) {
  using std::floor;
  using mp::floor;
  R f = floor(x);
  R diff = x - f;
  if (diff < R(0.5)) return f;
  if (diff > R(0.5)) return f + 1;
  R half = f / 2;
  return floor(half) == half ? f : R(f + 1);
}

// ulp distance check for the Java model's library tolerance.
bool withinUlps(double a, double b, double ulps) {
  if (a == b) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  double m = std::max(std::fabs(a), std::fabs(b));
  double ulp = std::nextafter(m, std::numeric_limits<double>::infinity()) - m;
  return std::fabs(a - b) <= ulps * ulp;
}

}  // namespace

bool javaSameFloating(Sort s, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (s == Sort::Float) {
    float fa = static_cast<float>(a), fb = static_cast<float>(b);
    std::uint32_t x, y;
    std::memcpy(&x, &fa, 4);
    std::memcpy(&y, &fb, 4);
    return x == y;
  }
  return doubleBits(a) == doubleBits(b);
}

template <class R>
double Evaluator<R>::toDouble(const Val<R>& v) {
  switch (v.sort) {
    case Sort::Bool: return v.b ? 1 : 0;
    case Sort::Float: case Sort::Double: return static_cast<double>(v.r);
    default: return static_cast<double>(v.i);
  }
}

template <class R>
bool Evaluator<R>::wrapInt(Val<R>& v) const {
  if (java_) {
    v.i = v.sort == Sort::Int ? i128(wrap32(v.i)) : i128(wrap64(v.i));
    return true;
  }
  // Math: unbounded, but our carrier is 128 bits; stay well inside it.
  const i128 lim = static_cast<i128>(1) << 120;
  return (v.i) < lim && (v.i) > -lim;
}

template <class R>
void Evaluator<R>::roundFloat(Val<R>& v) const {
  if (java_ && v.sort == Sort::Float) v.r = static_cast<double>(static_cast<float>(static_cast<double>(v.r)));
}

template <class R>
bool Evaluator<R>::close(const Val<R>& a, const Val<R>& b) {
  if (java_) {
    if (a.r == b.r) return false;
    return (a.lib || b.lib) && lib_ulps > 0 &&
           withinUlps(static_cast<double>(a.r), static_cast<double>(b.r), lib_ulps);
  }
  if (!track_error) return false;
  using std::fabs;
  using mp::fabs;
  return fabs(R(a.r - b.r)) <= a.err + b.err && (a.err + b.err) > 0;
}

namespace {
template <class R>
R absR(const R& x) {
  using std::fabs;
  using mp::fabs;
  return fabs(x);
}
template <class R>
R unitRoundoff() {
  return std::numeric_limits<R>::epsilon();
}
}  // namespace

template <class R>
std::optional<Val<R>> Evaluator<R>::eval(Term t) {
  auto it = memo_.find(t.id);
  if (it != memo_.end()) return it->second;
  std::optional<Val<R>> v = compute(t, tm_.node(t));
  memo_.emplace(t.id, v);
  return v;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::library(const terms::Node& n, const std::vector<Val<R>>& a) {
  using std::atan2, std::sqrt, std::exp, std::log, std::log10, std::sin, std::cos, std::tan, std::asin, std::acos,
      std::atan, std::sinh, std::cosh, std::tanh, std::pow;
  using mp::atan2, mp::sqrt, mp::exp, mp::log, mp::log10, mp::sin, mp::cos, mp::tan, mp::asin, mp::acos,
      mp::atan, mp::sinh, mp::cosh, mp::tanh, mp::pow;
  if (a.empty()) return std::nullopt;
  const std::string& f = n.name.substr(n.name.rfind('.') == std::string::npos ? 0 : n.name.rfind('.') + 1);
  R x = a[0].r, r;
  R y = a.size() > 1 ? a[1].r : R(0);
  if (f == "sqrt") r = sqrt(x);
  else if (f == "cbrt") r = x < 0 ? R(-pow(R(-x), R(1) / 3)) : R(pow(x, R(1) / 3));
  else if (f == "exp") r = exp(x);
  else if (f == "log") r = log(x);
  else if (f == "log10") r = log10(x);
  else if (f == "sin") r = sin(x);
  else if (f == "cos") r = cos(x);
  else if (f == "tan") r = tan(x);
  else if (f == "asin") r = asin(x);
  else if (f == "acos") r = acos(x);
  else if (f == "atan") r = atan(x);
  else if (f == "sinh") r = sinh(x);
  else if (f == "cosh") r = cosh(x);
  else if (f == "tanh") r = tanh(x);
  else if (f == "expm1") r = java_ ? R(std::expm1(static_cast<double>(x))) : R(exp(x) - 1);
  else if (f == "log1p") r = java_ ? R(std::log1p(static_cast<double>(x))) : R(log(R(x + 1)));
  else if (f == "pow" && a.size() == 2) r = pow(x, y);
  else if (f == "atan2" && a.size() == 2) r = atan2(x, y);
  else if (f == "hypot" && a.size() == 2) r = java_ ? R(std::hypot(static_cast<double>(x), static_cast<double>(y)))
                                                    : R(sqrt(R(x * x + y * y)));
  else return std::nullopt;  // unknown function: no concrete meaning
  Val<R> v;
  v.sort = n.sort;
  v.r = r;
  v.lib = true;
  if (!java_ && !finite(v.r)) return std::nullopt;  // outside the function's real domain
  if (!java_ && track_error) {
    // Propagated error: the spread of f over the arguments' error intervals (f is smooth at
    // this scale), plus the function's own error (a few units of the working precision).
    R spread = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (a[k].err == 0) continue;
      for (int s : {-1, 1}) {
        std::vector<Val<R>> b = a;
        b[k].r = a[k].r + R(s) * a[k].err;
        b[k].err = 0;
        Evaluator<R> sub(tm_, false);
        auto w = sub.library(n, b);
        if (!w) return std::nullopt;  // the interval leaves the domain
        R d = absR(R(w->r - r));
        if (d > spread) spread = d;
      }
    }
    v.err = spread * 2 + absR(r) * unitRoundoff<R>() * 64;
    if (f == "sin" || f == "cos" || f == "tan") {
      // Argument reduction loses about log2|x| bits: bound it, and refuse huge arguments.
      if (absR(x) > R(1e12)) return std::nullopt;
      v.err += absR(x) * unitRoundoff<R>() * 64 * (f == "tan" ? R(1) + r * r : R(1));
    }
  }
  roundFloat(v);
  return v;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::compute(Term t, const terms::Node& n) {
  Val<R> v;
  v.sort = n.sort;
  switch (n.op) {
    case Op::Lit:
      switch (n.sort) {
        case Sort::Bool: v.b = n.bits != 0; break;
        case Sort::Int: case Sort::Long: case Sort::Ref: v.i = static_cast<std::int64_t>(n.bits); break;
        case Sort::Float: v.r = R(static_cast<double>(bitsToFloat(static_cast<std::uint32_t>(n.bits)))); break;
        case Sort::Double: v.r = R(bitsToDouble(n.bits)); break;
      }
      if (!java_ && terms::isFloating(n.sort) && !finite(v.r)) return std::nullopt;
      return v;
    case Op::Var: {
      auto it = assignment_ ? assignment_->find(t.id) : Assignment::const_iterator{};
      if (!assignment_ || it == assignment_->end()) return std::nullopt;
      terms::Node fake{Op::Lit, n.sort, terms::FunKind::Library, it->second, {}, {}};
      return compute(Term{}, fake);
    }
    case Op::Ite: {
      auto c = eval(n.args[0]);
      if (!c) return std::nullopt;
      return eval(c->b ? n.args[1] : n.args[2]);
    }
    case Op::And: case Op::Or: {
      // Short-circuit where possible: an undefined operand does not matter once decided.
      bool isAnd = n.op == Op::And;
      bool undefined = false;
      for (Term a : n.args) {
        auto x = eval(a);
        if (!x) { undefined = true; continue; }
        if (x->b != isAnd) { v.b = !isAnd; return v; }
      }
      if (undefined) return std::nullopt;
      v.b = isAnd;
      return v;
    }
    default: break;
  }

  std::vector<Val<R>> a;
  a.reserve(n.args.size());
  bool lib = false;
  for (Term x : n.args) {
    auto e = eval(x);
    if (!e) return std::nullopt;
    lib = lib || e->lib;
    a.push_back(*e);
  }
  v.lib = lib;
  const Sort s0 = a.empty() ? n.sort : a[0].sort;
  const bool fl = terms::isFloating(s0);

  auto cmpReal = [&](Op op) -> std::optional<bool> {
    if (close(a[0], a[1])) uncertain = true;
    const R& x = a[0].r;
    const R& y = a[1].r;
    switch (op) {
      case Op::Eq: return x == y;
      case Op::Ne: return !(x == y);
      case Op::Lt: return x < y;
      case Op::Le: return x <= y;
      case Op::Gt: return x > y;
      case Op::Ge: return x >= y;
      default: return std::nullopt;
    }
  };

  switch (n.op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem:
      if (fl) {
        const R& x = a[0].r;
        const R& y = a[1].r;
        if (!java_ && (n.op == Op::Div || n.op == Op::Rem) && y == 0) return std::nullopt;
        const R& ex = a[0].err;
        const R& ey = a[1].err;
        switch (n.op) {
          case Op::Add: case Op::Sub: {
            R yy = n.op == Op::Add ? y : R(-y);
            v.r = x + yy;
            if (track_error) {
              // TwoSum: the exact rounding error of the addition.
              R bv = v.r - x;
              R av = v.r - bv;
              R rounding = (x - av) + (yy - bv);
              v.err = ex + ey + absR(rounding) * 2;
            }
            break;
          }
          case Op::Mul:
            v.r = x * y;
            if (track_error) v.err = absR(x) * ey + absR(y) * ex + ex * ey + absR(v.r) * unitRoundoff<R>();
            break;
          case Op::Div:
            if (track_error && absR(y) <= ey) return std::nullopt;  // the divisor may be zero
            v.r = x / y;
            if (track_error) v.err = (ex + absR(v.r) * ey) / (absR(y) - ey) + absR(v.r) * unitRoundoff<R>();
            break;
          default: {
            using std::fmod;
            using mp::fmod;
            v.r = fmod(x, y);
            if (track_error && (ex > 0 || ey > 0)) uncertain = true;  // fmod is discontinuous
          }
        }
        roundFloat(v);
        return v;
      } else {
        i128 x = a[0].i, y = a[1].i;
        if (java_) x = s0 == Sort::Int ? i128(wrap32(x)) : i128(wrap64(x)), y = s0 == Sort::Int ? i128(wrap32(y)) : i128(wrap64(y));
        switch (n.op) {
          case Op::Add: if (__builtin_add_overflow(x, y, &v.i)) return std::nullopt; break;
          case Op::Sub: if (__builtin_sub_overflow(x, y, &v.i)) return std::nullopt; break;
          case Op::Mul: if (__builtin_mul_overflow(x, y, &v.i)) return std::nullopt; break;
          case Op::Div: if (y == 0) return std::nullopt; v.i = x / y; break;
          default: if (y == 0) return std::nullopt; v.i = x % y; break;
        }
        if (!wrapInt(v)) return std::nullopt;
        return v;
      }
    case Op::Neg:
      if (fl) { v.r = -a[0].r; v.err = a[0].err; return v; }
      v.i = -a[0].i;
      if (!wrapInt(v)) return std::nullopt;
      return v;
    case Op::Shl: case Op::Shr: case Op::Ushr: case Op::BitAnd: case Op::BitOr: case Op::BitXor: {
      // Both models: Java semantics on the two's-complement image of the Java width.
      bool w32 = s0 == Sort::Int;
      std::int64_t x = w32 ? wrap32(a[0].i) : wrap64(a[0].i);
      std::int64_t y = a[1].sort == Sort::Int ? wrap32(a[1].i) : wrap64(a[1].i);
      std::uint64_t ux = w32 ? static_cast<std::uint32_t>(x) : static_cast<std::uint64_t>(x);
      int sh = static_cast<int>(y & (w32 ? 31 : 63));
      std::int64_t r = 0;
      switch (n.op) {
        case Op::Shl: r = static_cast<std::int64_t>(ux << sh); break;
        case Op::Shr: r = x >> sh; break;
        case Op::Ushr: r = static_cast<std::int64_t>(ux >> sh); break;
        case Op::BitAnd: r = x & y; break;
        case Op::BitOr: r = x | y; break;
        default: r = x ^ y; break;
      }
      v.i = w32 ? i128(wrap32(r)) : i128(r);
      return v;
    }
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (fl) {
        auto r = cmpReal(n.op);
        if (!r) return std::nullopt;
        v.b = *r;
        return v;
      }
      switch (n.op) {
        case Op::Eq: v.b = a[0].i == a[1].i; break;
        case Op::Ne: v.b = a[0].i != a[1].i; break;
        case Op::Lt: v.b = a[0].i < a[1].i; break;
        case Op::Le: v.b = a[0].i <= a[1].i; break;
        case Op::Gt: v.b = a[0].i > a[1].i; break;
        default: v.b = a[0].i >= a[1].i; break;
      }
      if (s0 == Sort::Bool) v.b = n.op == Op::Eq ? a[0].b == a[1].b : (n.op == Op::Ne ? a[0].b != a[1].b : v.b);
      return v;
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      if (fl) {
        if (close(a[0], a[1])) uncertain = true;
        bool nan = !(a[0].r == a[0].r) || !(a[1].r == a[1].r);
        if (nan) v.i = n.op == Op::CmpG ? 1 : -1;
        else v.i = a[0].r < a[1].r ? -1 : (a[0].r > a[1].r ? 1 : 0);
      } else {
        v.i = a[0].i < a[1].i ? -1 : (a[0].i > a[1].i ? 1 : 0);
      }
      return v;
    case Op::Not: v.b = !a[0].b; return v;
    case Op::Convert: {
      const Sort to = n.sort;
      if (terms::isIntegral(s0)) {
        if (terms::isIntegral(to)) { v.i = a[0].i; if (!wrapInt(v)) return std::nullopt; return v; }
        if (java_) {
          std::int64_t iv = s0 == Sort::Int ? wrap32(a[0].i) : wrap64(a[0].i);
          v.r = to == Sort::Float ? R(static_cast<double>(static_cast<float>(iv))) : R(static_cast<double>(iv));
        } else {
          v.r = fromI128<R>(a[0].i);
        }
        return v;
      }
      if (terms::isIntegral(to)) {
        if (java_) { v.i = javaToIntegral(static_cast<double>(a[0].r), to); return v; }
        using std::trunc;
        using mp::trunc;
        R tr = trunc(a[0].r);
        if (track_error && a[0].err > 0 && trunc(R(a[0].r - a[0].err)) != trunc(R(a[0].r + a[0].err))) uncertain = true;
        using std::fabs;
        using mp::fabs;
        if (fabs(tr) > R(1e30)) return std::nullopt;
        // Exact: split into a double-sized high part and the rest.
        double hi = static_cast<double>(tr);
        R rest = tr - R(hi);
        v.i = static_cast<i128>(hi) + static_cast<i128>(static_cast<long long>(static_cast<double>(rest)));
        return v;
      }
      v.r = a[0].r;
      v.err = a[0].err;
      roundFloat(v);
      return v;
    }
    case Op::I2B: v.i = static_cast<std::int8_t>(static_cast<std::uint8_t>(wrap64(a[0].i))); return v;
    case Op::I2C: v.i = static_cast<std::uint16_t>(wrap64(a[0].i)); return v;
    case Op::I2S: v.i = static_cast<std::int16_t>(static_cast<std::uint16_t>(wrap64(a[0].i))); return v;
    case Op::Floor: case Op::Ceil: case Op::Rint: {
      using std::floor, std::ceil;
      using mp::floor, mp::ceil;
      if (java_ && !finite(a[0].r)) { v.r = a[0].r; return v; }
      const R& x = a[0].r;
      v.r = n.op == Op::Floor ? R(floor(x)) : n.op == Op::Ceil ? R(ceil(x)) : rintHalfEven(x);
      if (track_error && a[0].err > 0) {
        auto at = [&](const R& y) { return n.op == Op::Floor ? R(floor(y)) : n.op == Op::Ceil ? R(ceil(y)) : rintHalfEven(y); };
        if (at(R(x - a[0].err)) != at(R(x + a[0].err))) uncertain = true;
      }
      if (java_ && v.r == 0 && (x < 0 || std::signbit(static_cast<double>(x)))) v.r = -0.0;  // keeps -0.0
      roundFloat(v);
      return v;
    }
    case Op::RawBits: {
      if (!java_) return std::nullopt;  // an uninterpreted function of a real in the math model
      double d = static_cast<double>(a[0].r);
      if (s0 == Sort::Float) {
        float f = static_cast<float>(d);
        std::uint32_t b;
        std::memcpy(&b, &f, 4);
        v.i = static_cast<std::int32_t>(b);
      } else {
        v.i = static_cast<std::int64_t>(doubleBits(d));
      }
      return v;
    }
    case Op::FromBits: {
      v.r = s0 == Sort::Int ? R(static_cast<double>(bitsToFloat(static_cast<std::uint32_t>(wrap32(a[0].i)))))
                            : R(bitsToDouble(static_cast<std::uint64_t>(wrap64(a[0].i))));
      if (!java_ && !finite(v.r)) return std::nullopt;
      return v;
    }
    case Op::Same:
      if (fl) {
        if (java_) { v.b = javaSameFloating(s0, static_cast<double>(a[0].r), static_cast<double>(a[1].r)); return v; }
        auto r = cmpReal(Op::Eq);
        v.b = *r;
        return v;
      }
      v.b = s0 == Sort::Bool ? a[0].b == a[1].b : a[0].i == a[1].i;
      return v;
    case Op::Apply:
      if (n.fun != terms::FunKind::Library) return std::nullopt;  // UIF / helper: unknown
      return library(n, a);
    default: return std::nullopt;
  }
}

template <class R>
double Evaluator<R>::distance(Term t, bool want) {
  const terms::Node& n = tm_.node(t);
  constexpr double kUndefined = 1e6;
  switch (n.op) {
    case Op::Not: return distance(n.args[0], !want);
    case Op::And: case Op::Or: {
      bool conj = (n.op == Op::And) == want;  // all must reach `want`
      double sum = 0, best = std::numeric_limits<double>::infinity();
      for (Term a : n.args) {
        double d = distance(a, want);
        sum += d;
        best = std::min(best, d);
      }
      return conj ? sum : best;
    }
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Same: {
      auto b = eval(t);
      if (!b) return kUndefined;
      if (b->b == want) return 0;
      auto x = eval(n.args[0]), y = eval(n.args[1]);
      if (!x || !y) return kUndefined;
      double dx = toDouble(*x), dy = toDouble(*y);
      double d = std::fabs(dx - dy);
      if (!std::isfinite(d)) return 1e3;
      return 1 + std::log1p(d);
    }
    default: {
      auto b = eval(t);
      if (!b) return kUndefined;
      return b->b == want ? 0 : 1;
    }
  }
}

template class Evaluator<double>;
template class Evaluator<mp::cpp_bin_float_100>;

}  // namespace pasda::witness::detail
