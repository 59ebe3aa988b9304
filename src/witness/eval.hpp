// Internal to witness: a concrete evaluator over the term DAG (memoised per assignment; walks
// the DAG with an explicit stack, so the depth of a term is bounded by memory, not the stack).
//
// Evaluator<R> evaluates a term for one assignment of the input variables:
//   java = true   Java semantics (R = double), by the term layer's shared concrete semantics
//                 (pasda/terms/java_semantics.hpp): the same rules as constant folding;
//   java = false  the math model: ints are unbounded (held in __int128; an overflow of that
//                 makes the value undefined), floats and doubles are reals approximated by R
//                 (double while searching, cpp_bin_float_50/100 when confirming).
// Library functions (sin, log, ...) are computed by the C library (Java model, with Java's
// special cases) or, in the math model, by R's functions (C library or Boost.Multiprecision). Uninterpreted functions have no concrete meaning: their value is
// undefined, and so is anything that depends on it.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "pasda/terms/term.hpp"

namespace pasda::witness::detail {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

template <class R>
struct Val {
  terms::Sort sort = terms::Sort::Int;
  bool b = false;  // Bool
  i128 i = 0;      // Int, Long, Ref (raw bits)
  R r = 0;         // Float, Double
  bool lib = false;  // depends on a library function (inexact in the C library)
  R err = 0;         // math model, error tracking on: bound on |r - exact real value|
};

/// Raw bits of an input value of a sort, as the evaluator's assignment.
using Assignment = std::unordered_map<std::uint32_t, std::uint64_t>;  // var term id -> bits

template <class R>
class Evaluator {
 public:
  Evaluator(const terms::TermManager& tm, bool java) : tm_(tm), java_(java) {}

  /// Math model: carry a running bound on the rounding error of every real value (first
  /// order, see docs/witnesses.md); comparisons whose operands are within their combined error
  /// bound, and floor/ceil/rint/truncation whose interval straddles an integer, are uncertain.
  bool track_error = false;
  /// Java model: comparisons with a library-dependent operand closer than this many ulps are
  /// uncertain (the JVM's Math.sin may differ from the C library's by an ulp).
  double lib_ulps = 0;
  bool uncertain = false;

  void reset(const Assignment& a) {
    assignment_ = &a;
    memo_.clear();
    uncertain = false;
  }

  std::optional<Val<R>> eval(terms::Term t);

  /// Branch distance of a Bool term towards `want` (0 when it already has that value), on a
  /// logarithmic scale so that the local search sees progress at every magnitude.
  double distance(terms::Term t, bool want);
  double leafDistance(terms::Term t, bool want);

  /// A value as a double (for distances and rendering).
  static double toDouble(const Val<R>& v);

 private:
  struct Frame {
    terms::Term t;
    std::uint32_t next = 0;  // next operand to look at (Ite: 0 the condition, then 1 or 2, the branch)
    bool undefined = false;  // And/Or: an operand seen so far was undefined
  };
  /// One step of the walk on the frame on top: the next child it needs (not yet memoised), or
  /// an empty Term when the frame's value is in `out`.
  terms::Term step(Frame& f, std::optional<Val<R>>& out);
  const std::optional<Val<R>>* known(terms::Term t) const;
  Val<R> literal(terms::Sort s, std::uint64_t bits) const;
  std::optional<Val<R>> compute(const terms::Node& n, const std::vector<Val<R>>& a);
  std::optional<Val<R>> computeJava(const terms::Node& n, const std::vector<Val<R>>& a);
  std::optional<Val<R>> mathArith(const terms::Node& n, const std::vector<Val<R>>& a);
  std::optional<Val<R>> mathConvert(const terms::Node& n, const std::vector<Val<R>>& a);
  std::optional<Val<R>> mathRound(const terms::Node& n, const std::vector<Val<R>>& a);
  std::optional<bool> mathCompare(terms::Op op, const std::vector<Val<R>>& a);
  std::optional<Val<R>> library(const terms::Node& n, const std::vector<Val<R>>& a);
  bool wrapInt(Val<R>& v) const;  // Java: wrap to width; Math: always fine
  void roundFloat(Val<R>& v) const;
  bool close(const Val<R>& a, const Val<R>& b);

  const terms::TermManager& tm_;
  bool java_;
  const Assignment* assignment_ = nullptr;
  std::unordered_map<std::uint32_t, std::optional<Val<R>>> memo_;
};

/// Java's Double.equals / Float.equals on two values of the same floating sort (as doubles).
bool javaSameFloating(terms::Sort s, double a, double b);

}  // namespace pasda::witness::detail
