// Constant folding of operations over literals, per arithmetic model, by the shared concrete
// semantics (java_semantics.hpp): under Arith::Java every operation folds bit-exactly; under
// Arith::Math integers fold when the exact result fits int64 and floating values only through
// exact operations.
#include <cmath>

#include "impl.hpp"
#include "pasda/terms/java_semantics.hpp"

namespace pasda::terms::detail {

Term foldLiterals(TermManager& tm, Op op, Sort sort, const std::vector<Term>& args) {
  std::vector<semantics::Value> v;
  v.reserve(args.size());
  for (Term a : args) v.push_back(semantics::Value{tm.sort(a), tm.node(a).bits});
  auto r = tm.arith() == Arith::Java ? semantics::evalJava(op, sort, v) : semantics::evalMath(op, sort, v);
  return r ? tm.lit(r->sort, r->bits) : Term{};
}

Term foldLibrary(TermManager& tm, std::string_view fn, Sort result, const std::vector<Term>& args) {
  if (result != Sort::Double || args.empty() || args.size() > 2) return {};
  double x[2] = {0, 0};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!tm.isLit(args[i]) || tm.sort(args[i]) != Sort::Double) return {};
    x[i] = *tm.asFloating(args[i]);
  }
  std::optional<double> r = semantics::javaLibrary(fn, std::span<const double>(x, args.size()));
  if (!r) return {};
  if (tm.arith() == Arith::Math && (!std::isfinite(*r) || !std::isfinite(x[0]) || !std::isfinite(x[1]))) return {};
  return tm.doubleLit(*r);
}

}  // namespace pasda::terms::detail
