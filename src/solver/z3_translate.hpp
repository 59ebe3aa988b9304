// Internal to pasda_solver: translation of terms to Z3 expressions under either arithmetic
// model. The only headers including z3++.h are in src/solver.
#pragma once

#include <z3++.h>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pasda/terms/term.hpp"

namespace pasda::solver::detail {

/// Decimal text "p" or "p/q" of the exact rational value of a finite double.
std::string exactRational(double d);

/// The literal of a model value of sort `s` (not Ref: references are the solver's own), under
/// Java's (`java`: bit-vectors, IEEE floats) or the math model's encoding; nullopt when it has
/// none, with `text` then (or for a rational that no double equals) the value's exact text.
std::optional<terms::Term> literalOfValue(terms::TermManager& tm, const z3::expr& val, terms::Sort s,
                                          std::string& text, bool java);

class Translator {
 public:
  Translator(z3::context& ctx, terms::TermManager& tm, terms::Arith arith, bool boundIntegers, bool exactFpRemainder);

  /// The Z3 expression of a term; cached per term id for the translator's lifetime.
  z3::expr operator()(terms::Term t);

  /// Range axioms of integer inputs (Math model) created since the last call.
  std::vector<z3::expr> takeNewAxioms();

  /// For a Var: the Z3 constant whose model value determines the variable (under Java, the
  /// bit-vector behind a floating input).
  z3::expr valueHandle(terms::Term var);

  z3::sort sortOf(terms::Sort s);
  /// After translation: whether the term involves a floating-point value (Float/Double sort).
  bool hasFloating(terms::Term t) const { return floating_.count(t.id) && floating_.at(t.id); }
  terms::Arith arith() const { return arith_; }
  /// The Var terms translated so far, in order.
  const std::vector<terms::Term>& variables() const { return variables_; }

 private:
  z3::expr translateNode(terms::Term t, const std::vector<z3::expr>& a);
  z3::expr translateJava(const terms::Node& n, const std::vector<z3::expr>& a);
  z3::expr translateMath(const terms::Node& n, const std::vector<z3::expr>& a);
  z3::expr literal(const terms::Node& n);
  z3::expr variable(terms::Term t, const terms::Node& n);
  z3::expr apply(const terms::Node& n, const std::vector<z3::expr>& a);
  z3::func_decl function(const std::string& name, const std::vector<terms::Sort>& dom, terms::Sort range,
                         const char* kind);
  z3::expr wrap(Z3_ast a);
  z3::expr rne();
  z3::expr fmod(const z3::expr& x, const z3::expr& y, terms::Sort s);
  z3::expr javaToIntegral(const z3::expr& x, terms::Sort from, terms::Sort to);
  z3::expr truncReal(const z3::expr& x);
  z3::expr toInt(const z3::expr& x);  // floor (Z3's to_int)
  std::string freshName(const std::string& base);

  z3::context& ctx_;
  terms::TermManager& tm_;
  terms::Arith arith_;
  bool boundIntegers_;
  bool exactFpRemainder_;
  std::unordered_map<std::uint32_t, z3::expr> cache_;
  std::unordered_map<std::uint32_t, z3::expr> handles_;
  std::unordered_map<std::uint32_t, bool> floating_;
  std::map<std::string, z3::func_decl> functions_;
  std::map<std::string, int> usedNames_;
  std::vector<z3::expr> newAxioms_;
  std::vector<terms::Term> variables_;
  std::optional<z3::sort> refSort_;
};

}  // namespace pasda::solver::detail
