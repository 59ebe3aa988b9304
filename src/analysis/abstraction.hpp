// Analysis stage (private): the identity of one abstraction (an unchanged region or an
// identical helper replaced by function symbols) and the function symbols an iteration hands
// out for its abstractions, so that a symbol in a term is mapped back to what it abstracts by
// lookup, never by taking its name apart.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "pasda/terms/term.hpp"

namespace pasda::analysis {

struct AbstractionId {
  enum class Kind : std::uint8_t { Region, Helper };
  Kind kind = Kind::Region;
  int region = 0;      // Region: diff::Region::id
  std::string helper;  // Helper: the helper's name (overloads share one function symbol)

  static AbstractionId ofRegion(int id) { return {Kind::Region, id, {}}; }
  /// `nameAndDescriptor` as in Abstraction::helpers ("name:descriptor").
  static AbstractionId ofHelper(const std::string& nameAndDescriptor) {
    return {Kind::Helper, 0, nameAndDescriptor.substr(0, nameAndDescriptor.find(':'))};
  }
  /// The name shown to users and the stem of the function symbols: "UIF_<id>", "helper_<name>".
  std::string name() const { return kind == Kind::Region ? "UIF_" + std::to_string(region) : "helper_" + helper; }
  auto operator<=>(const AbstractionId&) const = default;
};

/// The function symbols of one iteration's abstractions.
class AbstractionIndex {
 public:
  /// The symbol of output `output` of region `id` ("UIF_<id>_<output>").
  std::string regionSymbol(int id, const std::string& output) { return hand(AbstractionId::ofRegion(id), "_" + output); }
  /// The symbol of an identical helper's calls ("helper_<name>").
  std::string helperSymbol(const std::string& nameAndDescriptor) { return hand(AbstractionId::ofHelper(nameAndDescriptor), ""); }
  /// The abstraction an application node stands for; nullopt for anything else (library
  /// functions, symbols of another iteration).
  std::optional<AbstractionId> of(const terms::Node& n) const {
    if (n.op != terms::Op::Apply || (n.fun != terms::FunKind::Uif && n.fun != terms::FunKind::Helper)) return std::nullopt;
    auto it = ids_.find(n.name);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::string hand(const AbstractionId& id, const std::string& suffix) {
    std::string symbol = id.name() + suffix;
    ids_.emplace(symbol, id);
    return symbol;
  }
  std::map<std::string, AbstractionId> ids_;
};

}  // namespace pasda::analysis
