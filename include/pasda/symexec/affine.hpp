// Affine equalities among loop variables (Karr's analysis, 1976): the second source of coupling
// invariants for coupled loops (docs/depth-limit.md, "Coupled loops"). The smallest affine space
// that contains the loops' entry states and is closed under the affine maps of their body
// iterations, over the rationals; its equalities with integer coefficients are candidates that
// the coupler then proves inductive under the analysed arithmetic (so nothing here needs to be
// exact about Java's integers: a wrong candidate is dropped, never used).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pasda::symexec::affine {

using Rational = boost::multiprecision::cpp_rational;
using Vector = std::vector<Rational>;

/// a · x == c.
struct Equality {
  Vector a;
  Rational c;
};

/// x' = M x + b, one row per coordinate; a row without a value means "any value" (the body
/// assigns it something that is not affine in the coordinates).
struct Map {
  struct Row {
    Vector coefficients;
    Rational constant;
  };
  std::vector<std::optional<Row>> rows;
};

/// An affine subspace of Q^n in generator form: a point plus the span of independent
/// directions (kept in reduced row echelon form), or empty.
class Space {
 public:
  explicit Space(std::size_t n) : n_(n) {}  // empty
  /// {x | every a · x == c}; empty when they are inconsistent.
  static Space solutions(std::size_t n, const std::vector<Equality>& eqs);

  bool empty() const { return !point_; }
  std::size_t dimension() const { return directions_.size(); }
  /// The smallest affine space containing this one and `o`; true when this one grew.
  bool join(const Space& o);
  /// The image under a map (coordinates the map leaves unknown span every value).
  Space image(const Map& m) const;
  /// A basis of the equalities holding on the space, each scaled to coprime integer
  /// coefficients with a positive first coefficient (none for an empty space).
  std::vector<Equality> equalities() const;
  bool contains(const Vector& x) const;

 private:
  bool addDirection(Vector v);  // true when v is not in the span
  std::size_t n_;
  std::optional<Vector> point_;
  std::vector<Vector> directions_;  // reduced row echelon form, pivots at pivots_[i]
  std::vector<std::size_t> pivots_;
};

/// Karr's fixpoint: the smallest affine space containing `entry` and its images under every map.
Space closure(const Space& entry, const std::vector<Map>& maps);

/// "3*x - 2*y == 1" with the given coordinate names (for messages and tests).
std::string describe(const Equality& e, const std::vector<std::string>& names);

}  // namespace pasda::symexec::affine
