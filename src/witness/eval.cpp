// Concrete evaluation of terms for the witness stage. The Java model delegates every operation to
// the term layer's shared semantics (the rules constant folding uses); the math model keeps its
// own real-number path (unbounded integers in __int128, reals in R with error bounds) and shares
// the Java rules it uses for bit operations, shifts and narrowing.
#include "eval.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <limits>

#include "pasda/terms/java_semantics.hpp"

namespace pasda::witness::detail {

using terms::Op;
using terms::Sort;
using terms::Term;
namespace mp = boost::multiprecision;
namespace sem = terms::semantics;

namespace {

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

// The raw bits of a floating value of sort s held in a double (a float is exact in a double).
std::uint64_t floatingBits(Sort s, double d) {
  return s == Sort::Float ? sem::bitsOfFloat(static_cast<float>(d)) : sem::bitsOfDouble(d);
}

template <class R>
sem::Value toValue(const Val<R>& v) {
  switch (v.sort) {
    case Sort::Bool: return sem::Value::ofBool(v.b);
    case Sort::Int: return sem::Value::ofInt(wrap32(v.i));
    case Sort::Long: return sem::Value::ofLong(wrap64(v.i));
    case Sort::Float: case Sort::Double: return sem::Value{v.sort, floatingBits(v.sort, static_cast<double>(v.r))};
    case Sort::Ref: break;
  }
  return sem::Value{Sort::Ref, static_cast<std::uint64_t>(wrap64(v.i))};
}

bool isOrdering(Op op) {
  switch (op) {
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool javaSameFloating(Sort s, double a, double b) {
  return sem::javaSameFloating(s, floatingBits(s, a), floatingBits(s, b));
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

template <class R>
Val<R> Evaluator<R>::literal(Sort s, std::uint64_t bits) const {
  Val<R> v;
  v.sort = s;
  switch (s) {
    case Sort::Bool: v.b = bits != 0; break;
    // Under the math model an Int literal is an unbounded integer held in int64.
    case Sort::Int: case Sort::Long: case Sort::Ref: v.i = static_cast<std::int64_t>(bits); break;
    case Sort::Float: case Sort::Double: v.r = R(sem::Value{s, bits}.asDouble()); break;
  }
  return v;
}

// ---- the walk ---------------------------------------------------------------------------------

template <class R>
const std::optional<Val<R>>* Evaluator<R>::known(Term t) const {
  auto it = memo_.find(t.id);
  return it == memo_.end() ? nullptr : &it->second;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::eval(Term root) {
  if (const auto* k = known(root)) return *k;
  // Post-order with an explicit stack (terms can be arbitrarily deep). The operands of a node
  // are looked at in order and the walk stops where the recursive definition would: at the
  // first undefined operand, at Ite's branch not taken, at a deciding And/Or operand.
  std::vector<Frame> stack{Frame{root}};
  while (!stack.empty()) {
    std::optional<Val<R>> value;
    Term child = step(stack.back(), value);
    if (child) {
      stack.push_back(Frame{child});
      continue;
    }
    memo_.emplace(stack.back().t.id, value);
    stack.pop_back();
  }
  return *known(root);
}

template <class R>
Term Evaluator<R>::step(Frame& f, std::optional<Val<R>>& out) {
  const terms::Node& n = tm_.node(f.t);
  switch (n.op) {
    case Op::Lit:
      out = literal(n.sort, n.bits);
      if (!java_ && terms::isFloating(n.sort) && !finite(out->r)) out.reset();
      return {};
    case Op::Var: {
      auto it = assignment_ ? assignment_->find(f.t.id) : Assignment::const_iterator{};
      if (!assignment_ || it == assignment_->end()) return {};
      out = literal(n.sort, it->second);
      if (!java_ && terms::isFloating(n.sort) && !finite(out->r)) out.reset();
      return {};
    }
    case Op::Ite: {
      const auto* c = known(n.args[0]);
      if (!c) return n.args[0];
      if (!*c) return {};
      Term branch = (*c)->b ? n.args[1] : n.args[2];
      const auto* b = known(branch);
      if (!b) return branch;
      out = *b;
      return {};
    }
    case Op::And: case Op::Or: {
      // Short-circuit where possible: an undefined operand does not matter once decided.
      const bool isAnd = n.op == Op::And;
      for (; f.next < n.args.size(); ++f.next) {
        const auto* x = known(n.args[f.next]);
        if (!x) return n.args[f.next];
        if (!*x) { f.undefined = true; continue; }
        if ((*x)->b != isAnd) {
          out = Val<R>{Sort::Bool, !isAnd};
          return {};
        }
      }
      if (!f.undefined) out = Val<R>{Sort::Bool, isAnd};
      return {};
    }
    default: break;
  }
  for (; f.next < n.args.size(); ++f.next) {
    const auto* x = known(n.args[f.next]);
    if (!x) return n.args[f.next];
    if (!*x) return {};  // an undefined operand: the node is undefined
  }
  std::vector<Val<R>> a;
  a.reserve(n.args.size());
  for (Term x : n.args) a.push_back(**known(x));
  out = compute(n, a);
  return {};
}

// ---- one node, its operands known -------------------------------------------------------------

template <class R>
std::optional<Val<R>> Evaluator<R>::compute(const terms::Node& n, const std::vector<Val<R>>& a) {
  if (n.op == Op::Apply) {
    if (n.fun != terms::FunKind::Library) return std::nullopt;  // UIF / helper: unknown
    return library(n, a);
  }
  if (java_) return computeJava(n, a);
  Val<R> v;
  v.sort = n.sort;
  for (const auto& x : a) v.lib = v.lib || x.lib;
  const Sort s0 = a.empty() ? n.sort : a[0].sort;
  switch (n.op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem: case Op::Neg:
      return mathArith(n, a);
    case Op::Shl: case Op::Shr: case Op::Ushr: case Op::BitAnd: case Op::BitOr: case Op::BitXor: {
      // Java's rules on the two's-complement image of the Java width (as the solver encodes them).
      std::optional<std::int64_t> r;
      if (s0 == Sort::Int) r = sem::javaInt(n.op, wrap32(a[0].i), wrap32(a[1].i));
      else r = sem::javaLong(n.op, wrap64(a[0].i), a[1].sort == Sort::Int ? wrap32(a[1].i) : wrap64(a[1].i));
      if (!r) return std::nullopt;
      v.i = *r;
      return v;
    }
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Same: {
      auto r = mathCompare(n.op, a);
      if (!r) return std::nullopt;
      v.b = *r;
      return v;
    }
    case Op::Cmp: case Op::CmpL: case Op::CmpG:
      if (terms::isFloating(s0)) {
        if (close(a[0], a[1])) uncertain = true;
        bool nan = !(a[0].r == a[0].r) || !(a[1].r == a[1].r);
        if (nan) v.i = n.op == Op::CmpG ? 1 : -1;
        else v.i = a[0].r < a[1].r ? -1 : (a[0].r > a[1].r ? 1 : 0);
      } else {
        v.i = a[0].i < a[1].i ? -1 : (a[0].i > a[1].i ? 1 : 0);
      }
      return v;
    case Op::Not: v.b = !a[0].b; return v;
    case Op::Convert: return mathConvert(n, a);
    case Op::I2B: v.i = sem::javaI2B(wrap32(a[0].i)); return v;
    case Op::I2C: v.i = sem::javaI2C(wrap32(a[0].i)); return v;
    case Op::I2S: v.i = sem::javaI2S(wrap32(a[0].i)); return v;
    case Op::Floor: case Op::Ceil: case Op::Rint: return mathRound(n, a);
    case Op::RawBits: return std::nullopt;  // an uninterpreted function of a real in the math model
    case Op::FromBits:
      v.r = R(sem::Value{n.sort, static_cast<std::uint64_t>(s0 == Sort::Int ? wrap32(a[0].i) : wrap64(a[0].i))}
                  .asDouble());
      if (!finite(v.r)) return std::nullopt;
      return v;
    default: return std::nullopt;
  }
}

template <class R>
std::optional<Val<R>> Evaluator<R>::computeJava(const terms::Node& n, const std::vector<Val<R>>& a) {
  // Comparisons of values that depend on a library function are uncertain within lib_ulps.
  if (isOrdering(n.op) && terms::isFloating(a[0].sort) && close(a[0], a[1])) uncertain = true;
  std::vector<sem::Value> args;
  args.reserve(a.size());
  bool lib = false;
  for (const auto& x : a) {
    args.push_back(toValue(x));
    lib = lib || x.lib;
  }
  auto r = sem::evalJava(n.op, n.sort, args);
  if (!r) return std::nullopt;
  Val<R> v = literal(r->sort, r->bits);
  v.lib = lib;
  return v;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::mathArith(const terms::Node& n, const std::vector<Val<R>>& a) {
  Val<R> v;
  v.sort = n.sort;
  for (const auto& x : a) v.lib = v.lib || x.lib;
  if (terms::isIntegral(a[0].sort)) {
    const i128 x = a[0].i;
    const i128 y = a.size() > 1 ? a[1].i : 0;
    switch (n.op) {
      case Op::Add: if (__builtin_add_overflow(x, y, &v.i)) return std::nullopt; break;
      case Op::Sub: if (__builtin_sub_overflow(x, y, &v.i)) return std::nullopt; break;
      case Op::Mul: if (__builtin_mul_overflow(x, y, &v.i)) return std::nullopt; break;
      case Op::Div: if (y == 0) return std::nullopt; v.i = x / y; break;  // truncates, like Java
      case Op::Rem: if (y == 0) return std::nullopt; v.i = x % y; break;
      default: v.i = -x; break;
    }
    if (!wrapInt(v)) return std::nullopt;
    return v;
  }
  const R& x = a[0].r;
  const R& ex = a[0].err;
  if (n.op == Op::Neg) {
    v.r = -x;
    v.err = ex;
    return v;
  }
  const R& y = a[1].r;
  const R& ey = a[1].err;
  if ((n.op == Op::Div || n.op == Op::Rem) && y == 0) return std::nullopt;
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
  return v;
}

template <class R>
std::optional<bool> Evaluator<R>::mathCompare(Op op, const std::vector<Val<R>>& a) {
  if (terms::isFloating(a[0].sort)) {
    if (close(a[0], a[1])) uncertain = true;
    const R& x = a[0].r;
    const R& y = a[1].r;
    switch (op) {
      case Op::Eq: case Op::Same: return x == y;  // reals: Same is equality
      case Op::Ne: return !(x == y);
      case Op::Lt: return x < y;
      case Op::Le: return x <= y;
      case Op::Gt: return x > y;
      default: return x >= y;
    }
  }
  if (a[0].sort == Sort::Bool) {
    if (op == Op::Eq || op == Op::Same) return a[0].b == a[1].b;
    if (op == Op::Ne) return a[0].b != a[1].b;
  }
  const i128 x = a[0].i, y = a[1].i;
  switch (op) {
    case Op::Eq: case Op::Same: return x == y;
    case Op::Ne: return x != y;
    case Op::Lt: return x < y;
    case Op::Le: return x <= y;
    case Op::Gt: return x > y;
    default: return x >= y;
  }
}

template <class R>
std::optional<Val<R>> Evaluator<R>::mathConvert(const terms::Node& n, const std::vector<Val<R>>& a) {
  Val<R> v;
  v.sort = n.sort;
  v.lib = a[0].lib;
  const Sort from = a[0].sort, to = n.sort;
  if (terms::isIntegral(from)) {
    if (terms::isIntegral(to)) {
      v.i = a[0].i;
      if (!wrapInt(v)) return std::nullopt;
      return v;
    }
    v.r = fromI128<R>(a[0].i);
    return v;
  }
  if (terms::isIntegral(to)) {
    using std::trunc;
    using mp::trunc;
    R tr = trunc(a[0].r);
    if (track_error && a[0].err > 0 && trunc(R(a[0].r - a[0].err)) != trunc(R(a[0].r + a[0].err))) uncertain = true;
    if (absR(tr) > R(1e30)) return std::nullopt;
    // Exact: split into a double-sized high part and the rest.
    double hi = static_cast<double>(tr);
    R rest = tr - R(hi);
    v.i = static_cast<i128>(hi) + static_cast<i128>(static_cast<long long>(static_cast<double>(rest)));
    return v;
  }
  v.r = a[0].r;  // float <-> double: the same real
  v.err = a[0].err;
  return v;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::mathRound(const terms::Node& n, const std::vector<Val<R>>& a) {
  using std::floor, std::ceil;
  using mp::floor, mp::ceil;
  Val<R> v;
  v.sort = n.sort;
  v.lib = a[0].lib;
  const R& x = a[0].r;
  auto at = [&](const R& y) { return n.op == Op::Floor ? R(floor(y)) : n.op == Op::Ceil ? R(ceil(y)) : rintHalfEven(y); };
  v.r = at(x);
  if (track_error && a[0].err > 0 && at(R(x - a[0].err)) != at(R(x + a[0].err))) uncertain = true;
  return v;
}

template <class R>
std::optional<Val<R>> Evaluator<R>::library(const terms::Node& n, const std::vector<Val<R>>& a) {
  using std::atan2, std::sqrt, std::exp, std::log, std::log10, std::sin, std::cos, std::tan, std::asin, std::acos,
      std::atan, std::sinh, std::cosh, std::tanh, std::pow;
  using mp::atan2, mp::sqrt, mp::exp, mp::log, mp::log10, mp::sin, mp::cos, mp::tan, mp::asin, mp::acos,
      mp::atan, mp::sinh, mp::cosh, mp::tanh, mp::pow;
  if (a.empty()) return std::nullopt;
  Val<R> v;
  v.sort = n.sort;
  v.lib = true;
  if (java_) {
    // The C library with Java's special cases: the same function constant folding uses.
    std::vector<double> x;
    for (const auto& e : a) x.push_back(static_cast<double>(e.r));
    auto r = sem::javaLibrary(n.name, x);
    if (!r) return std::nullopt;
    v.r = R(*r);
    roundFloat(v);
    return v;
  }
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
  else if (f == "expm1") r = R(exp(x) - 1);
  else if (f == "log1p") r = R(log(R(x + 1)));
  else if (f == "pow" && a.size() == 2) r = pow(x, y);
  else if (f == "atan2" && a.size() == 2) r = atan2(x, y);
  else if (f == "hypot" && a.size() == 2) r = R(sqrt(R(x * x + y * y)));
  else return std::nullopt;  // unknown function: no concrete meaning
  v.r = r;
  if (!finite(v.r)) return std::nullopt;  // outside the function's real domain
  if (track_error) {
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
  return v;
}

// ---- branch distance --------------------------------------------------------------------------

template <class R>
double Evaluator<R>::distance(Term root, bool wantRoot) {
  // Post-order over the Boolean structure (Not/And/Or) with an explicit stack: a path condition
  // can be an arbitrarily deep conjunction. Operands are visited in order, as eval() does.
  struct Item {
    Term t;
    bool want;
    bool expanded;
  };
  auto key = [](Term t, bool want) { return (static_cast<std::uint64_t>(t.id) << 1) | (want ? 1u : 0u); };
  std::unordered_map<std::uint64_t, double> done;
  std::vector<Item> stack{{root, wantRoot, false}};
  while (!stack.empty()) {
    Item it = stack.back();
    if (done.count(key(it.t, it.want))) {
      stack.pop_back();
      continue;
    }
    const terms::Node& n = tm_.node(it.t);
    const bool structural = n.op == Op::Not || n.op == Op::And || n.op == Op::Or;
    if (!structural) {
      done.emplace(key(it.t, it.want), leafDistance(it.t, it.want));
      stack.pop_back();
      continue;
    }
    const bool childWant = n.op == Op::Not ? !it.want : it.want;
    if (!it.expanded) {
      stack.back().expanded = true;
      for (std::size_t i = n.args.size(); i-- > 0;) stack.push_back({n.args[i], childWant, false});
      continue;
    }
    double d;
    if (n.op == Op::Not) {
      d = done.at(key(n.args[0], childWant));
    } else {
      bool conj = (n.op == Op::And) == it.want;  // all must reach `want`
      double sum = 0, best = std::numeric_limits<double>::infinity();
      for (Term a : n.args) {
        double x = done.at(key(a, childWant));
        sum += x;
        best = std::min(best, x);
      }
      d = conj ? sum : best;
    }
    done.emplace(key(it.t, it.want), d);
    stack.pop_back();
  }
  return done.at(key(root, wantRoot));
}

template <class R>
double Evaluator<R>::leafDistance(Term t, bool want) {
  const terms::Node& n = tm_.node(t);
  constexpr double kUndefined = 1e6;
  auto b = eval(t);
  if (!b) return kUndefined;
  if (b->b == want) return 0;
  switch (n.op) {
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Same: {
      auto x = eval(n.args[0]), y = eval(n.args[1]);
      if (!x || !y) return kUndefined;
      double dx = toDouble(*x), dy = toDouble(*y);
      double d = std::fabs(dx - dy);
      if (!std::isfinite(d)) return 1e3;
      return 1 + std::log1p(d);
    }
    default: return 1;
  }
}

template class Evaluator<double>;
template class Evaluator<mp::cpp_bin_float_100>;

}  // namespace pasda::witness::detail
