// Analysis stage: rendering helpers of the plain result values (result.hpp).
#include "pasda/analysis/result.hpp"

namespace pasda::analysis {

// "return <value>", "throw <class>", "void", or "none" for a cut path; a compared final
// state follows as "; <name> = <value>" per entry.
std::string Effect::text() const {
  std::string out;
  switch (kind) {
    case Kind::Return: out = "return " + value; break;
    case Kind::Throw: out = "throw " + exception; break;
    case Kind::Void: out = "void"; break;
    case Kind::None: out = "none"; break;
  }
  for (const auto& [name, val] : state) out += "; " + name + " = " + val;
  return out;
}

}  // namespace pasda::analysis
