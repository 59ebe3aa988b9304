// Internal to pasda_solver: Z3 model values read back as term literals (src/solver/z3_translate.hpp).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "z3_translate.hpp"

namespace pasda::solver::detail {

using terms::Sort;
using terms::Term;

std::optional<Term> literalOfValue(terms::TermManager& tm, const z3::expr& val, Sort s, std::string& text, bool java) {
  text.clear();
  z3::context& ctx = val.ctx();  // the value's own context (math first has its own)
  switch (s) {
    case Sort::Bool:
      if (val.is_true()) return tm.boolLit(true);
      if (val.is_false()) return tm.boolLit(false);
      break;
    case Sort::Int: case Sort::Long: {
      if (!val.is_numeral()) break;
      if (java) {
        std::uint64_t bits = 0;
        if (val.is_numeral_u64(bits)) return tm.lit(s, bits);
        break;
      }
      std::int64_t v = 0;
      if (val.is_numeral_i64(v)) return tm.lit(s, static_cast<std::uint64_t>(v));
      text = Z3_get_numeral_string(ctx, val);  // beyond int64: only the exact text
      return std::nullopt;
    }
    case Sort::Float: case Sort::Double: {
      if (java) {
        if (Z3_fpa_is_numeral_nan(ctx, val)) return s == Sort::Float ? tm.lit(s, 0x7FC00000ull) : tm.lit(s, 0x7FF8000000000000ull);
        std::uint64_t bits = 0;
        z3::expr bv = val.mk_to_ieee_bv().simplify();
        if (bv.is_numeral_u64(bits)) return tm.lit(s, bits);
        break;
      }
      z3::sort fs = s == Sort::Float ? ctx.fpa_sort(8, 24) : ctx.fpa_sort(11, 53);
      if (val.is_algebraic()) {
        std::string dec = val.get_decimal_string(25);
        if (!dec.empty() && dec.back() == '?') dec.pop_back();
        text = val.to_string();
        double d = std::strtod(dec.c_str(), nullptr);
        return s == Sort::Float ? tm.floatLit(static_cast<float>(d)) : tm.doubleLit(d);
      }
      if (!val.is_numeral()) break;
      // Nearest float/double, rounded by Z3 itself (correct rounding of the rational).
      z3::expr fp = z3::expr(ctx, Z3_mk_fpa_to_fp_real(ctx, Z3_mk_fpa_rne(ctx), val, fs)).simplify();
      std::uint64_t bits = 0;
      z3::expr bv = fp.mk_to_ieee_bv().simplify();
      if (!bv.is_numeral_u64(bits)) break;
      Term lit = tm.lit(s, bits);
      double d = *tm.asFloating(lit);
      std::string rational = Z3_get_numeral_string(ctx, val);
      if (!std::isfinite(d) || exactRational(d) != rational) text = rational;
      return lit;
    }
    case Sort::Ref: break;  // (the solver's own: identities of its model)
  }
  text = val.to_string();
  return std::nullopt;
}

}  // namespace pasda::solver::detail
