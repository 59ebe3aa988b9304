// Karr's affine-equality analysis over rationals (include/pasda/symexec/affine.hpp).
#include "pasda/symexec/affine.hpp"

#include <algorithm>
#include <utility>

namespace pasda::symexec::affine {

namespace {

using Integer = boost::multiprecision::cpp_int;

bool isZero(const Vector& v) {
  return std::all_of(v.begin(), v.end(), [](const Rational& x) { return x == 0; });
}

Rational dot(const Vector& a, const Vector& b) {
  Rational s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0 && b[i] != 0) s += a[i] * b[i];
  return s;
}

/// Scale to coprime integers with a positive first non-zero coefficient.
Equality normalised(Vector a, Rational c) {
  Integer l = 1;
  auto lcmWith = [&](const Rational& x) {
    const Integer d = boost::multiprecision::denominator(x);
    l = l / boost::multiprecision::gcd(l, d) * d;
  };
  for (const Rational& x : a) lcmWith(x);
  lcmWith(c);
  Integer g = 0;
  for (Rational& x : a) {
    x *= l;
    g = boost::multiprecision::gcd(g, boost::multiprecision::abs(boost::multiprecision::numerator(x)));
  }
  c *= l;
  g = boost::multiprecision::gcd(g, boost::multiprecision::abs(boost::multiprecision::numerator(c)));
  if (g > 1) {
    for (Rational& x : a) x /= g;
    c /= g;
  }
  for (const Rational& x : a)
    if (x != 0) {
      if (x < 0) {
        for (Rational& y : a) y = -y;
        c = -c;
      }
      break;
    }
  return {std::move(a), std::move(c)};
}

}  // namespace

bool Space::addDirection(Vector v) {
  for (std::size_t r = 0; r < directions_.size(); ++r)
    if (v[pivots_[r]] != 0) {
      const Rational f = v[pivots_[r]];
      for (std::size_t j = 0; j < n_; ++j)
        if (directions_[r][j] != 0) v[j] -= f * directions_[r][j];
    }
  std::size_t p = 0;
  while (p < n_ && v[p] == 0) ++p;
  if (p == n_) return false;
  const Rational lead = v[p];
  for (Rational& x : v) x /= lead;
  for (Vector& d : directions_)  // keep the form reduced: no other row has a non-zero at p
    if (d[p] != 0) {
      const Rational f = d[p];
      for (std::size_t j = 0; j < n_; ++j)
        if (v[j] != 0) d[j] -= f * v[j];
    }
  // Insert in pivot order.
  std::size_t at = 0;
  while (at < pivots_.size() && pivots_[at] < p) ++at;
  directions_.insert(directions_.begin() + static_cast<std::ptrdiff_t>(at), std::move(v));
  pivots_.insert(pivots_.begin() + static_cast<std::ptrdiff_t>(at), p);
  return true;
}

Space Space::solutions(std::size_t n, const std::vector<Equality>& eqs) {
  // Gauss-Jordan on the augmented rows [a | c].
  std::vector<Vector> rows;
  for (const Equality& e : eqs) {
    Vector r = e.a;
    r.resize(n);
    r.push_back(e.c);
    rows.push_back(std::move(r));
  }
  std::vector<std::size_t> pivotCol;
  std::size_t rank = 0;
  for (std::size_t col = 0; col < n && rank < rows.size(); ++col) {
    std::size_t sel = rank;
    while (sel < rows.size() && rows[sel][col] == 0) ++sel;
    if (sel == rows.size()) continue;
    std::swap(rows[rank], rows[sel]);
    const Rational lead = rows[rank][col];
    for (Rational& x : rows[rank]) x /= lead;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != rank && rows[i][col] != 0) {
        const Rational f = rows[i][col];
        for (std::size_t j = 0; j <= n; ++j) rows[i][j] -= f * rows[rank][j];
      }
    pivotCol.push_back(col);
    ++rank;
  }
  for (std::size_t i = rank; i < rows.size(); ++i)
    if (rows[i][n] != 0) return Space(n);  // 0 == c, c != 0: no solution
  Space s(n);
  Vector point(n, Rational(0));
  std::vector<bool> isPivot(n, false);
  for (std::size_t r = 0; r < rank; ++r) {
    point[pivotCol[r]] = rows[r][n];
    isPivot[pivotCol[r]] = true;
  }
  s.point_ = point;
  for (std::size_t f = 0; f < n; ++f) {
    if (isPivot[f]) continue;
    Vector d(n, Rational(0));
    d[f] = 1;
    for (std::size_t r = 0; r < rank; ++r) d[pivotCol[r]] = -rows[r][f];
    s.addDirection(std::move(d));
  }
  return s;
}

bool Space::join(const Space& o) {
  if (o.empty()) return false;
  if (empty()) {
    *this = o;
    return true;
  }
  bool grew = false;
  for (const Vector& d : o.directions_) grew = addDirection(d) || grew;
  Vector diff = *o.point_;
  for (std::size_t j = 0; j < n_; ++j) diff[j] -= (*point_)[j];
  grew = addDirection(std::move(diff)) || grew;
  return grew;
}

Space Space::image(const Map& m) const {
  Space out(n_);
  if (empty()) return out;
  auto apply = [&](const Vector& x, bool affinePart) {
    Vector y(n_, Rational(0));
    for (std::size_t i = 0; i < n_; ++i) {
      const auto& row = i < m.rows.size() ? m.rows[i] : std::nullopt;
      if (!row) continue;  // (spanned by the unit direction below)
      y[i] = dot(row->coefficients, x) + (affinePart ? row->constant : Rational(0));
    }
    return y;
  };
  out.point_ = apply(*point_, true);
  for (const Vector& d : directions_) out.addDirection(apply(d, false));
  for (std::size_t i = 0; i < n_; ++i)
    if (i >= m.rows.size() || !m.rows[i]) {
      Vector e(n_, Rational(0));
      e[i] = 1;
      out.addDirection(std::move(e));
    }
  return out;
}

std::vector<Equality> Space::equalities() const {
  std::vector<Equality> out;
  if (empty()) return out;
  std::vector<bool> isPivot(n_, false);
  for (std::size_t p : pivots_) isPivot[p] = true;
  // {a | a · d == 0 for every direction}: one vector per non-pivot column.
  for (std::size_t f = 0; f < n_; ++f) {
    if (isPivot[f]) continue;
    Vector a(n_, Rational(0));
    a[f] = 1;
    for (std::size_t r = 0; r < directions_.size(); ++r) a[pivots_[r]] = -directions_[r][f];
    const Rational c = dot(a, *point_);
    out.push_back(normalised(std::move(a), c));
  }
  return out;
}

bool Space::contains(const Vector& x) const {
  if (empty()) return false;
  for (const Equality& e : equalities())
    if (dot(e.a, x) != e.c) return false;
  return true;
}

Space closure(const Space& entry, const std::vector<Map>& maps) {
  Space s = entry;
  // Every round that changes anything raises the dimension (or leaves the empty space), so
  // at most n + 2 rounds.
  for (;;) {
    bool grew = false;
    const Space before = s;
    for (const Map& m : maps) grew = s.join(before.image(m)) || grew;
    if (!grew) return s;
  }
}

std::string describe(const Equality& e, const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < e.a.size(); ++i) {
    const Rational& x = e.a[i];
    if (x == 0) continue;
    const Rational mag = x < 0 ? Rational(-x) : x;
    if (out.empty())
      out += x < 0 ? "-" : "";
    else
      out += x < 0 ? " - " : " + ";
    if (mag != 1) out += mag.str() + "*";
    out += i < names.size() ? names[i] : "x" + std::to_string(i);
  }
  if (out.empty()) out = "0";
  return out + " == " + e.c.str();
}

}  // namespace pasda::symexec::affine
