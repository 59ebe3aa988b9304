// Term layer: a hash-consed expression DAG over Java values, independent of Z3.
//
// Terms are small handles (an index into the TermManager's arena). Two structurally
// equal terms built by one manager are the same handle, so equality of handles is
// structural equality. The manager folds constants and normalises lightly (canonical
// operand order for commutative integer operations, identities such as x+0) according
// to the arithmetic model it was created with:
//   Arith::Math  ints and longs are unbounded integers, floats and doubles are reals;
//   Arith::Java  ints and longs are 32/64-bit two's complement, floats and doubles IEEE-754.
// Under Arith::Java every operation on literals folds to a literal with Java's exact
// semantics, which is what the interpreter's concrete mode relies on.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pasda::terms {

/// Thrown for ill-formed terms (operand sorts that do not match an operator, unknown ids).
class TermError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

enum class Arith : std::uint8_t { Math, Java };
const char* arithName(Arith a);

/// Java value sorts. Byte/short/char values are Int (javac widens them on the stack).
enum class Sort : std::uint8_t { Bool, Int, Long, Float, Double, Ref };
const char* sortName(Sort s);
bool isIntegral(Sort s);  // Int, Long
bool isFloating(Sort s);  // Float, Double

enum class Op : std::uint8_t {
  // Leaves.
  Lit,  // literal; payload in Node::bits (bool 0/1, int/long sign-extended, float/double raw IEEE bits)
  Var,  // free input variable; name in Node::name
  // Arithmetic: result sort = operand sort (Int, Long, Float, Double).
  Add, Sub, Mul, Div, Rem, Neg,
  // Integer bit operations (Int, Long). Shift amounts have sort Int and are masked as Java does.
  Shl, Shr, Ushr, BitAnd, BitOr, BitXor,
  // Comparisons: operands of one numeric sort (or Ref for Eq/Ne), result Bool.
  // For Float/Double these are IEEE comparisons (false when an operand is NaN, -0.0 == 0.0).
  Eq, Ne, Lt, Le, Gt, Ge,
  // Three-way comparisons producing Int -1/0/1: lcmp, fcmpl/dcmpl (NaN -> -1), fcmpg/dcmpg (NaN -> 1).
  Cmp, CmpL, CmpG,
  // Boolean connectives.
  Not, And, Or, Ite,  // Ite(c, a, b): c Bool, a and b of the same sort (result sort)
  // Conversions: Convert to Node::sort from the argument's sort (i2l, i2d, d2i, l2f, ...),
  // with Java's rules under Arith::Java (saturating, NaN -> 0, round to nearest).
  // Under Arith::Math, floating -> integral truncates toward zero.
  Convert,
  I2B, I2C, I2S,  // narrowing of an Int to byte/char/short, result Int
  // Exactly modelled library functions.
  Floor, Ceil, Rint,  // Math.floor/ceil/rint on Double
  RawBits,            // Double.doubleToRawLongBits: Double -> Long (Java model exact; Math model UF)
  FromBits,           // Double.longBitsToDouble: Long -> Double
  // Structural "same output" relation used to compare the two versions' outputs:
  // under Arith::Java, Double.equals / Float.equals semantics (NaN equals NaN, +0.0 != -0.0);
  // for other sorts and under Arith::Math, plain equality. Result Bool.
  Same,
  // Application of a function symbol (Node::name) to the arguments; result sort Node::sort.
  Apply,
};
const char* opName(Op op);

/// What an Apply stands for; classification needs to know.
enum class FunKind : std::uint8_t {
  Uif,      // abstraction of an unchanged region (counts as a UIF for Tables 1 and 2)
  Helper,   // abstraction of a helper method identical in both versions (counts as a UIF too)
  Library,  // a library function without an exact model (sin, log, ...): inexact, not a UIF
};

struct Term {
  std::uint32_t id = 0;  // 0 is "no term"
  explicit operator bool() const { return id != 0; }
  friend bool operator==(Term a, Term b) { return a.id == b.id; }
  friend bool operator!=(Term a, Term b) { return a.id != b.id; }
  friend bool operator<(Term a, Term b) { return a.id < b.id; }
};

struct TermHash {
  std::size_t operator()(Term t) const { return std::hash<std::uint32_t>()(t.id); }
};

struct Node {
  Op op;
  Sort sort;
  FunKind fun = FunKind::Library;  // Apply only
  std::uint64_t bits = 0;          // Lit payload
  std::string name;                // Var name, Apply function symbol
  std::vector<Term> args;
};

class TermManager {
 public:
  explicit TermManager(Arith arith);
  TermManager(const TermManager&) = delete;
  TermManager& operator=(const TermManager&) = delete;

  Arith arith() const { return arith_; }
  const Node& node(Term t) const;
  Sort sort(Term t) const { return node(t).sort; }
  Op op(Term t) const { return node(t).op; }
  std::size_t size() const;  // number of distinct terms

  // Literals.
  Term boolLit(bool v);
  Term intLit(std::int32_t v);
  Term longLit(std::int64_t v);
  Term floatLit(float v);
  Term doubleLit(double v);
  Term nullRef();  // the null reference literal (sort Ref, bits 0)
  /// Literal of a given sort from raw payload bits (as stored in Node::bits).
  Term lit(Sort s, std::uint64_t bits);

  bool isLit(Term t) const { return node(t).op == Op::Lit; }
  std::optional<bool> asBool(Term t) const;
  std::optional<std::int64_t> asInteger(Term t) const;  // Int or Long literal
  std::optional<double> asFloating(Term t) const;       // Float or Double literal (as double)

  /// A free variable; the same name and sort give the same term.
  Term var(std::string_view name, Sort s);

  // Builders: they fold and normalise; operands must have matching sorts (checked).
  Term add(Term a, Term b);
  Term sub(Term a, Term b);
  Term mul(Term a, Term b);
  /// Division and remainder assume a non-zero divisor for Int/Long (the interpreter branches on
  /// zero first). Under Arith::Java they follow Java (truncation, MIN/-1 = MIN, fmod for %).
  Term div(Term a, Term b);
  Term rem(Term a, Term b);
  Term neg(Term a);
  Term shl(Term a, Term amount);
  Term shr(Term a, Term amount);
  Term ushr(Term a, Term amount);
  Term bitAnd(Term a, Term b);
  Term bitOr(Term a, Term b);
  Term bitXor(Term a, Term b);

  Term eq(Term a, Term b);
  Term ne(Term a, Term b);
  Term lt(Term a, Term b);
  Term le(Term a, Term b);
  Term gt(Term a, Term b);
  Term ge(Term a, Term b);
  Term cmp(Term a, Term b);   // lcmp
  Term cmpl(Term a, Term b);  // fcmpl / dcmpl
  Term cmpg(Term a, Term b);  // fcmpg / dcmpg

  Term lnot(Term a);
  Term land(Term a, Term b);
  Term lor(Term a, Term b);
  Term ite(Term c, Term a, Term b);

  Term convert(Term a, Sort to);
  Term i2b(Term a);
  Term i2c(Term a);
  Term i2s(Term a);

  Term floor(Term a);
  Term ceil(Term a);
  Term rint(Term a);
  Term rawBits(Term a);
  Term fromBits(Term a);

  Term same(Term a, Term b);

  /// Function application. Library functions with literal arguments are folded when the
  /// function is one the manager knows (sin, cos, ..., see docs/arithmetic-models.md).
  Term apply(std::string_view fn, FunKind kind, Sort result, const std::vector<Term>& args);

  /// Generic builder by operator (used by substitution and the solver's tests).
  Term make(Op op, Sort sort, const std::vector<Term>& args, std::uint64_t bits = 0,
            std::string_view name = {}, FunKind fun = FunKind::Library);

  // Queries over the DAG (memoised).
  bool containsUif(Term t) const;      // an Apply of kind Uif or Helper occurs
  bool containsLibrary(Term t) const;  // an Apply of kind Library occurs (inexact)
  void collectVars(Term t, std::vector<Term>& out) const;  // distinct Var leaves, sorted by id

  /// Replace sub-terms according to `map` (bottom-up, memoised), rebuilding with folding.
  Term substitute(Term t, const std::unordered_map<Term, Term, TermHash>& map);

  /// Java-like rendering for users, e.g. `(x + 1) * y > 3.5`, `Math.sin(x)`, `(int) d`.
  std::string toString(Term t) const;

 private:
  Term intern(Node&& n);
  Arith arith_;
  struct Impl;
  std::unique_ptr<Impl> impl_;

 public:
  ~TermManager();
};

}  // namespace pasda::terms
