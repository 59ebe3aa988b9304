// Internal to pasda_terms: the TermManager's storage and the folding/normalising helpers.
#pragma once

#include <deque>
#include <unordered_map>
#include <vector>

#include "pasda/terms/term.hpp"

namespace pasda::terms {

struct TermManager::Impl {
  // nodes[0] is a dummy so that a Term's id indexes the deque directly. A deque keeps
  // references returned by node() valid while new terms are created.
  std::deque<Node> nodes;
  // Per-term flags computed at creation from the children: bit 0 = contains a Uif/Helper
  // Apply, bit 1 = contains a Library Apply.
  std::vector<std::uint8_t> flags;
  // Hash of a node -> ids with that hash (hash-consing index).
  std::unordered_multimap<std::size_t, std::uint32_t> index;
};

namespace detail {

/// Folds an operation whose arguments are all literals. Returns an empty Term when the
/// operation does not fold under the manager's model (e.g. floating arithmetic under Math,
/// a zero integer divisor, an int64 overflow under Math).
Term foldLiterals(TermManager& tm, Op op, Sort sort, const std::vector<Term>& args);

/// Light normalisation of a non-literal operation: may return a simpler equivalent term
/// (built through the manager's public builders), or an empty Term to intern as is.
/// May reorder the operands of commutative operations in place.
Term normalise(TermManager& tm, Op op, Sort sort, std::vector<Term>& args);

/// Folds a known library function over Double literal arguments (sin, cos, ...).
Term foldLibrary(TermManager& tm, std::string_view fn, Sort result, const std::vector<Term>& args);

}  // namespace detail
}  // namespace pasda::terms
