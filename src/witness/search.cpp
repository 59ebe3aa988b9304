// Witness search where the solver cannot decide: sampling plus an alternating-variable local
// search over the branch distance of the path condition (in the spirit of CORAL), with every
// candidate evaluated concretely; see docs/witnesses.md.
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "eval.hpp"
#include "pasda/terms/java_semantics.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::witness {

using detail::Assignment;
using detail::Evaluator;
using detail::Val;
using terms::Sort;
using terms::Term;
namespace mp = boost::multiprecision;
namespace sem = terms::semantics;

namespace {

// The value range of one input, by Java type.
struct Domain {
  char kind;
  std::int64_t lo = 0, hi = 0;  // integral kinds
  bool floating() const { return kind == 'D' || kind == 'F'; }
  bool fixed() const { return kind == 'L' || kind == '['; }
};

Domain domainOf(const jvm::TypeDesc& t) {
  Domain d{t.kind};
  switch (t.kind) {
    case 'Z': d.lo = 0; d.hi = 1; break;
    case 'B': d.lo = -128; d.hi = 127; break;
    case 'S': d.lo = -32768; d.hi = 32767; break;
    case 'C': d.lo = 0; d.hi = 65535; break;
    case 'I': d.lo = std::numeric_limits<std::int32_t>::min(); d.hi = std::numeric_limits<std::int32_t>::max(); break;
    case 'J': d.lo = std::numeric_limits<std::int64_t>::min(); d.hi = std::numeric_limits<std::int64_t>::max(); break;
    default: break;
  }
  return d;
}

// Candidates are kept as doubles (floating kinds) or int64 (integral kinds), then encoded.
struct Point {
  std::vector<double> f;
  std::vector<std::int64_t> i;
};

class Search {
 public:
  explicit Search(const SearchProblem& p) : p_(p), ev_(*p.tm, p.arith == terms::Arith::Java), rng_(0x9a5da) {
    java_ = p.arith == terms::Arith::Java;
    ev_.lib_ulps = java_ ? 4 : 0;
    for (const auto& t : p.input_types) dom_.push_back(domainOf(t));
  }

  std::optional<std::vector<InputValue>> run();

 private:
  bool expired() const { return std::chrono::steady_clock::now() >= p_.deadline; }
  std::vector<InputValue> encode(const Point& x) const;
  Assignment assign(const std::vector<InputValue>& in) const;
  double fitness(const Point& x);  // 0: a confirmed witness was found (stored in found_)
  bool confirm(const std::vector<InputValue>& in);
  Point seedPoint() const;
  void randomise(Point& x, std::size_t i);
  void edge(Point& x, std::size_t i);
  bool localSearch(Point& x, double& fx);
  bool clampInt(std::size_t i, double v, std::int64_t& out) const;

  const SearchProblem& p_;
  Evaluator<double> ev_;
  std::mt19937_64 rng_;
  bool java_ = false;
  std::vector<Domain> dom_;
  std::optional<std::vector<InputValue>> found_;
  std::size_t evaluations_ = 0;
};

std::vector<InputValue> Search::encode(const Point& x) const {
  std::vector<InputValue> out;
  for (std::size_t i = 0; i < dom_.size(); ++i) {
    InputValue v;
    v.sort = symexec::sortOf(p_.input_types[i]);
    switch (dom_[i].kind) {
      case 'D': v.bits = sem::bitsOfDouble(x.f[i]); break;
      case 'F': v.bits = sem::bitsOfFloat(static_cast<float>(x.f[i])); break;
      case 'L': case '[': v.bits = 0; break;
      default: v.bits = static_cast<std::uint64_t>(x.i[i]); break;
    }
    out.push_back(v);
  }
  return out;
}

Assignment Search::assign(const std::vector<InputValue>& in) const {
  Assignment a;
  for (std::size_t i = 0; i < in.size() && i < p_.inputs.size(); ++i) a[p_.inputs[i].id] = in[i].bits;
  return a;
}

bool Search::clampInt(std::size_t i, double v, std::int64_t& out) const {
  if (!std::isfinite(v)) return false;
  double r = std::round(v);
  if (r < static_cast<double>(dom_[i].lo)) r = static_cast<double>(dom_[i].lo);
  if (r > static_cast<double>(dom_[i].hi)) r = static_cast<double>(dom_[i].hi);
  out = r >= 9223372036854775807.0 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(r);
  return true;
}

Point Search::seedPoint() const {
  Point x;
  x.f.assign(dom_.size(), 0.0);
  x.i.assign(dom_.size(), 0);
  for (std::size_t i = 0; i < dom_.size(); ++i) {
    if (i >= p_.seed.size() || !p_.seed[i] || !p_.tm->isLit(*p_.seed[i])) continue;
    const terms::Node& n = p_.tm->node(*p_.seed[i]);
    if (dom_[i].floating()) {
      x.f[i] = terms::isFloating(n.sort) ? sem::Value{n.sort, n.bits}.asDouble() : static_cast<double>(static_cast<std::int64_t>(n.bits));
      if (!java_ && !std::isfinite(x.f[i])) x.f[i] = 0;
    } else if (!dom_[i].fixed()) {
      std::int64_t v = static_cast<std::int64_t>(n.bits);
      x.i[i] = std::clamp(v, dom_[i].lo, dom_[i].hi);
    }
  }
  return x;
}

void Search::randomise(Point& x, std::size_t i) {
  const Domain& d = dom_[i];
  if (d.fixed()) return;
  std::uniform_int_distribution<int> pick(0, 3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int mode = pick(rng_);
  if (d.floating()) {
    double sign = unit(rng_) < 0.5 ? -1 : 1;
    double v;
    if (mode == 0) v = sign * unit(rng_) * 10;                                      // small
    else if (mode == 1) v = sign * (1 + unit(rng_) * 9) * std::pow(10.0, std::floor(unit(rng_) * 17 - 8));  // spread
    else if (mode == 2) v = sign * std::pow(10.0, unit(rng_) * 600 - 300);          // any magnitude
    else v = std::round(sign * unit(rng_) * 100);                                   // integral-valued
    if (d.kind == 'F') v = static_cast<double>(static_cast<float>(v));
    x.f[i] = v;
  } else {
    std::int64_t v;
    if (mode <= 1) {
      v = std::uniform_int_distribution<std::int64_t>(-100, 100)(rng_);
    } else if (mode == 2) {
      v = std::uniform_int_distribution<std::int64_t>(d.lo, d.hi)(rng_);
    } else {
      int k = std::uniform_int_distribution<int>(0, d.kind == 'J' ? 62 : 30)(rng_);
      v = (std::int64_t{1} << k) * (unit(rng_) < 0.5 ? -1 : 1) + std::uniform_int_distribution<int>(-2, 2)(rng_);
    }
    x.i[i] = std::clamp(v, d.lo, d.hi);
  }
}

void Search::edge(Point& x, std::size_t i) {
  const Domain& d = dom_[i];
  if (d.fixed()) return;
  if (d.floating()) {
    static const double finite[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, -10.0, 100.0, 1e-3, 1e3, 1e10, -1e10,
                                    3.141592653589793, 1.5707963267948966, 2.2250738585072014e-308,
                                    4.9e-324, 1.7976931348623157e308, -1.7976931348623157e308};
    static const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity()};
    std::size_t nf = std::size(finite), ns = java_ ? std::size(special) : 0;
    std::size_t k = std::uniform_int_distribution<std::size_t>(0, nf + ns - 1)(rng_);
    double v = k < nf ? finite[k] : special[k - nf];
    if (d.kind == 'F') v = static_cast<double>(static_cast<float>(v));
    x.f[i] = v;
  } else {
    const std::int64_t vals[] = {0, 1, -1, 2, -2, 10, -10, 100, d.lo, d.hi, d.lo + 1, d.hi - 1};
    x.i[i] = std::clamp(vals[std::uniform_int_distribution<std::size_t>(0, std::size(vals) - 1)(rng_)], d.lo, d.hi);
  }
}

bool Search::confirm(const std::vector<InputValue>& in) {
  if (!java_) return confirmMath(p_, in) == MathCheck::Confirmed;
  // Java model: the evaluator already used Java semantics; reject only results that depend on
  // a comparison or difference within a few ulps of a library function (the JVM's Math.sin
  // may differ from the C library's by an ulp).
  Assignment a = assign(in);
  ev_.reset(a);
  for (Term c : p_.pc) {
    auto v = ev_.eval(c);
    if (!v || !v->b) return false;
  }
  if (ev_.uncertain) return false;
  if (p_.out_old && p_.out_new) {
    auto o = ev_.eval(p_.out_old), n = ev_.eval(p_.out_new);
    if (!o || !n) return false;
    if (terms::isFloating(o->sort)) {
      double x = o->r, y = n->r;
      if (detail::javaSameFloating(o->sort, x, y)) return false;
      if ((o->lib || n->lib) && std::isfinite(x) && std::isfinite(y)) {
        double m = std::max(std::fabs(x), std::fabs(y));
        double ulp = std::nextafter(m, std::numeric_limits<double>::infinity()) - m;
        if (std::fabs(x - y) <= 4 * ulp) return false;
      }
      return true;
    }
    return o->sort == Sort::Bool ? o->b != n->b : o->i != n->i;
  }
  return true;
}

// Branch distance of the path condition, plus 1 while the outputs agree.
double Search::fitness(const Point& x) {
  ++evaluations_;
  std::vector<InputValue> in = encode(x);
  Assignment a = assign(in);
  ev_.reset(a);
  double d = 0;
  for (Term c : p_.pc) d += ev_.distance(c, true);
  if (d > 0) return d + 1;
  bool differ = true;
  if (p_.out_old && p_.out_new) {
    auto o = ev_.eval(p_.out_old), n = ev_.eval(p_.out_new);
    if (!o || !n) return 1;
    if (terms::isFloating(o->sort)) {
      differ = java_ ? !detail::javaSameFloating(o->sort, o->r, n->r) : o->r != n->r;
    } else {
      differ = o->sort == Sort::Bool ? o->b != n->b : o->i != n->i;
    }
  }
  if (!differ) return 1;
  if (confirm(in)) {
    found_ = in;
    return 0;
  }
  return 0.5;  // satisfied at double precision, but not robustly: keep moving
}

// Alternating variable method: exploratory moves per variable, accelerated while improving.
bool Search::localSearch(Point& x, double& fx) {
  bool improvedAny = true;
  int rounds = 0;
  while (improvedAny && rounds++ < 50) {
    improvedAny = false;
    for (std::size_t i = 0; i < dom_.size(); ++i) {
      if (dom_[i].fixed() || dom_[i].kind == 'Z') {
        if (dom_[i].kind == 'Z') {
          Point y = x;
          y.i[i] = 1 - y.i[i];
          double fy = fitness(y);
          if (fy == 0) { x = y; fx = 0; return true; }
          if (fy < fx) { x = y; fx = fy; improvedAny = true; }
        }
        continue;
      }
      for (int dir : {1, -1}) {
        double step = dom_[i].floating() ? std::max(std::fabs(x.f[i]) * 1e-3, 1e-9) : 1;
        bool floatUlp = dom_[i].floating();
        for (int k = 0; k < 64; ++k) {
          if (expired()) return false;
          Point y = x;
          if (dom_[i].floating()) {
            double v = x.f[i] + dir * step;
            if (floatUlp && k == 0) v = std::nextafter(x.f[i], dir > 0 ? INFINITY : -INFINITY);
            if (dom_[i].kind == 'F') v = static_cast<double>(static_cast<float>(v));
            if (!std::isfinite(v)) break;
            y.f[i] = v;
          } else {
            double v = static_cast<double>(x.i[i]) + dir * step;
            if (!clampInt(i, v, y.i[i]) || y.i[i] == x.i[i]) break;
          }
          double fy = fitness(y);
          if (fy == 0) { x = y; fx = 0; return true; }
          if (fy < fx) {
            x = y;
            fx = fy;
            improvedAny = true;
            step *= 2;
          } else if (k > 0) {
            break;
          } else {
            step = dom_[i].floating() ? step : step;  // ulp probe failed: try the relative step
          }
        }
      }
    }
  }
  return false;
}

std::optional<std::vector<InputValue>> Search::run() {
  for (Term c : p_.pc)
    if (p_.tm->containsUif(c)) return std::nullopt;
  if (p_.out_old && p_.tm->containsUif(p_.out_old)) return std::nullopt;
  if (p_.out_new && p_.tm->containsUif(p_.out_new)) return std::nullopt;
  if (!p_.out_old && !p_.out_new && !p_.exceptions_differ) return std::nullopt;
  if (p_.inputs.size() != p_.input_types.size()) return std::nullopt;

  Point best = seedPoint();
  double fbest = fitness(best);
  if (fbest == 0) return found_;
  // Phase 1: edge values and random samples (a quarter of the evaluations go to edges).
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int n = 0; n < 2000 && !expired(); ++n) {
    Point y = n % 2 == 0 ? best : seedPoint();
    for (std::size_t i = 0; i < dom_.size(); ++i) {
      if (unit(rng_) < 0.5 && n > 0) continue;
      if (n % 4 == 0) edge(y, i);
      else randomise(y, i);
    }
    double fy = fitness(y);
    if (fy == 0) return found_;
    if (fy < fbest) { best = y; fbest = fy; }
  }
  // Phase 2: local search from the best point, then from random restarts.
  while (!expired()) {
    Point x = best;
    double fx = fbest;
    if (localSearch(x, fx)) return found_;
    if (fx < fbest) { best = x; fbest = fx; }
    // Restart: perturb the best point or draw a fresh one.
    Point y = unit(rng_) < 0.5 ? best : seedPoint();
    for (std::size_t i = 0; i < dom_.size(); ++i)
      if (unit(rng_) < 0.5) randomise(y, i);
    double fy = fitness(y);
    if (fy == 0) return found_;
    if (localSearch(y, fy)) return found_;
    if (fy < fbest) { best = y; fbest = fy; }
  }
  return std::nullopt;
}

// Evaluate at one precision: pc holds (certainly), and the outputs (as R values).
template <class R>
struct HighEval {
  bool defined = false, pc = false, uncertain = false;
  std::optional<Val<R>> o, n;
};

template <class R>
HighEval<R> evalAt(const SearchProblem& p, const Assignment& a) {
  HighEval<R> h;
  Evaluator<R> ev(*p.tm, false);
  ev.track_error = true;
  ev.reset(a);
  h.pc = true;
  for (Term c : p.pc) {
    auto v = ev.eval(c);
    if (!v) return h;
    h.pc = h.pc && v->b;
  }
  if (p.out_old) h.o = ev.eval(p.out_old);
  if (p.out_new) h.n = ev.eval(p.out_new);
  if ((p.out_old && !h.o) || (p.out_new && !h.n)) return h;
  h.defined = true;
  h.uncertain = ev.uncertain;
  return h;
}

}  // namespace

std::optional<std::vector<InputValue>> search(const SearchProblem& p) {
  if (!p.tm) return std::nullopt;
  Search s(p);
  return s.run();
}

MathCheck confirmMath(const SearchProblem& p, const std::vector<InputValue>& inputs, std::string* note) {
  auto say = [&](MathCheck c, const std::string& why) {
    if (note) *note = why;
    return c;
  };
  if (!p.tm || inputs.size() != p.inputs.size()) return say(MathCheck::Unknown, "inputs do not match the problem");
  Assignment a;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (terms::isFloating(inputs[i].sort)) {
      double d = sem::Value{inputs[i].sort, inputs[i].bits}.asDouble();
      if (!std::isfinite(d)) return say(MathCheck::Unknown, "an input is not a real number");
    }
    a[p.inputs[i].id] = inputs[i].bits;
  }
  using F100 = mp::cpp_bin_float_100;
  HighEval<F100> h = evalAt<F100>(p, a);
  if (!h.defined)
    return say(MathCheck::Unknown, "undefined in the math model (uninterpreted function, division by zero or outside a function's domain)");
  if (h.uncertain) return say(MathCheck::Unknown, "a comparison or rounding step is within the error bound at high precision");
  if (!h.pc) return say(MathCheck::Refuted, "the path condition does not hold in the math model");
  if (!p.out_old || !p.out_new) {
    if (!p.out_old && !p.out_new && !p.exceptions_differ) return say(MathCheck::Refuted, "both versions throw the same");
    return say(MathCheck::Confirmed, "one version throws, the other returns");
  }
  const Val<F100>& o = *h.o;
  const Val<F100>& n = *h.n;
  if (!terms::isFloating(o.sort)) {
    bool d = o.sort == Sort::Bool ? o.b != n.b : o.i != n.i;
    return d ? say(MathCheck::Confirmed, "integral outputs differ") : say(MathCheck::Refuted, "outputs are equal");
  }
  // Reals: the difference must exceed both the rounding-error bounds of the two outputs
  // (rounding cannot explain it) and the relative tolerance.
  F100 diff = mp::fabs(F100(o.r - n.r));
  F100 bound = o.err + n.err;
  F100 mag = mp::fabs(o.r) > mp::fabs(n.r) ? mp::fabs(o.r) : mp::fabs(n.r);
  const F100 tol("1e-30");
  if (diff == 0 && bound == 0) return say(MathCheck::Refuted, "outputs are equal in the math model");
  if (diff <= bound * 2) return say(MathCheck::Unknown, "the outputs differ by no more than their rounding-error bound");
  if (diff <= tol * mag) return say(MathCheck::Unknown, "outputs differ by less than the tolerance (relative 1e-30)");
  return say(MathCheck::Confirmed, "outputs differ by " + diff.str(6, std::ios::scientific) + " (relative " +
                                       F100(diff / mag).str(3, std::ios::scientific) + ", error bound " +
                                       bound.str(3, std::ios::scientific) + ")");
}

}  // namespace pasda::witness
