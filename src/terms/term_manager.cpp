// TermManager core: storage, hash-consing, literals, sort checking, the generic builder and
// DAG queries. Folding lives in fold.cpp, normalisation in normalise.cpp, printing in printer.cpp.
#include <algorithm>
#include <unordered_set>

#include "impl.hpp"
#include "pasda/terms/java_semantics.hpp"

namespace pasda::terms {

const char* arithName(Arith a) { return a == Arith::Math ? "math" : "java"; }

const char* sortName(Sort s) {
  switch (s) {
    case Sort::Bool: return "boolean";
    case Sort::Int: return "int";
    case Sort::Long: return "long";
    case Sort::Float: return "float";
    case Sort::Double: return "double";
    case Sort::Ref: return "ref";
  }
  return "?";
}

bool isIntegral(Sort s) { return s == Sort::Int || s == Sort::Long; }
bool isFloating(Sort s) { return s == Sort::Float || s == Sort::Double; }

const char* opName(Op op) {
  static const char* const names[] = {
      "Lit", "Var", "Add", "Sub", "Mul", "Div", "Rem", "Neg", "Shl", "Shr", "Ushr", "BitAnd",
      "BitOr", "BitXor", "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "Cmp", "CmpL", "CmpG", "Not", "And",
      "Or", "Ite", "Convert", "I2B", "I2C", "I2S", "Floor", "Ceil", "Rint", "RawBits", "FromBits",
      "Same", "Apply"};
  auto i = static_cast<std::size_t>(op);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}

namespace {

std::size_t hashNode(const Node& n) {
  std::size_t h = static_cast<std::size_t>(n.op) * 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  mix(static_cast<std::uint64_t>(n.sort));
  mix(static_cast<std::uint64_t>(n.fun));
  mix(n.bits);
  if (!n.name.empty()) mix(std::hash<std::string>()(n.name));
  for (Term a : n.args) mix(a.id);
  return h;
}

bool sameNode(const Node& a, const Node& b) {
  return a.op == b.op && a.sort == b.sort && a.fun == b.fun && a.bits == b.bits && a.name == b.name &&
         a.args == b.args;
}

[[noreturn]] void fail(Op op, const std::string& why) {
  throw TermError(std::string("ill-formed ") + opName(op) + ": " + why);
}

bool isNumeric(Sort s) { return isIntegral(s) || isFloating(s); }

}  // namespace

TermManager::TermManager(Arith arith) : arith_(arith), impl_(std::make_unique<Impl>()) {
  impl_->nodes.push_back(Node{Op::Lit, Sort::Bool, FunKind::Library, 0, {}, {}});
  impl_->flags.push_back(0);
}

TermManager::~TermManager() = default;

const Node& TermManager::node(Term t) const {
  if (t.id == 0 || t.id >= impl_->nodes.size()) throw TermError("unknown term id " + std::to_string(t.id));
  return impl_->nodes[t.id];
}

std::size_t TermManager::size() const { return impl_->nodes.size() - 1; }

Term TermManager::intern(Node&& n) {
  std::size_t h = hashNode(n);
  auto range = impl_->index.equal_range(h);
  for (auto it = range.first; it != range.second; ++it)
    if (sameNode(impl_->nodes[it->second], n)) return Term{it->second};
  if (impl_->nodes.size() >= 0xFFFFFFF0u) throw TermError("too many terms");
  std::uint8_t fl = 0;
  if (n.op == Op::Apply) fl |= (n.fun == FunKind::Library) ? 2 : 1;
  for (Term a : n.args) fl |= impl_->flags[a.id];
  auto id = static_cast<std::uint32_t>(impl_->nodes.size());
  impl_->nodes.push_back(std::move(n));
  impl_->flags.push_back(fl);
  impl_->index.emplace(h, id);
  return Term{id};
}

// ---- literals --------------------------------------------------------------------------------

Term TermManager::lit(Sort s, std::uint64_t bits) {
  switch (s) {
    case Sort::Bool: bits = bits != 0; break;
    case Sort::Int:
      // Under Math an Int literal is an unbounded integer (stored as int64); under Java it is
      // the sign extension of its low 32 bits.
      if (arith_ == Arith::Java) bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(bits)));
      break;
    case Sort::Float: bits &= 0xFFFFFFFFull; break;
    default: break;
  }
  return intern(Node{Op::Lit, s, FunKind::Library, bits, {}, {}});
}

Term TermManager::boolLit(bool v) { return lit(Sort::Bool, v ? 1 : 0); }
Term TermManager::intLit(std::int32_t v) { return lit(Sort::Int, static_cast<std::uint64_t>(static_cast<std::int64_t>(v))); }
Term TermManager::longLit(std::int64_t v) { return lit(Sort::Long, static_cast<std::uint64_t>(v)); }
Term TermManager::floatLit(float v) { return lit(Sort::Float, semantics::bitsOfFloat(v)); }
Term TermManager::doubleLit(double v) { return lit(Sort::Double, semantics::bitsOfDouble(v)); }
Term TermManager::nullRef() { return lit(Sort::Ref, 0); }

std::optional<bool> TermManager::asBool(Term t) const {
  const Node& n = node(t);
  if (n.op != Op::Lit || n.sort != Sort::Bool) return std::nullopt;
  return n.bits != 0;
}

std::optional<std::int64_t> TermManager::asInteger(Term t) const {
  const Node& n = node(t);
  if (n.op != Op::Lit || !isIntegral(n.sort)) return std::nullopt;
  return static_cast<std::int64_t>(n.bits);
}

std::optional<double> TermManager::asFloating(Term t) const {
  const Node& n = node(t);
  if (n.op != Op::Lit || !isFloating(n.sort)) return std::nullopt;
  return n.sort == Sort::Float ? semantics::Value{n.sort, n.bits}.asDouble() : semantics::doubleOfBits(n.bits);
}

Term TermManager::var(std::string_view name, Sort s) {
  if (name.empty()) throw TermError("a variable needs a name");
  return intern(Node{Op::Var, s, FunKind::Library, 0, std::string(name), {}});
}

// ---- builders --------------------------------------------------------------------------------

Term TermManager::add(Term a, Term b) { return make(Op::Add, sort(a), {a, b}); }
Term TermManager::sub(Term a, Term b) { return make(Op::Sub, sort(a), {a, b}); }
Term TermManager::mul(Term a, Term b) { return make(Op::Mul, sort(a), {a, b}); }
Term TermManager::div(Term a, Term b) { return make(Op::Div, sort(a), {a, b}); }
Term TermManager::rem(Term a, Term b) { return make(Op::Rem, sort(a), {a, b}); }
Term TermManager::neg(Term a) { return make(Op::Neg, sort(a), {a}); }
Term TermManager::shl(Term a, Term n) { return make(Op::Shl, sort(a), {a, n}); }
Term TermManager::shr(Term a, Term n) { return make(Op::Shr, sort(a), {a, n}); }
Term TermManager::ushr(Term a, Term n) { return make(Op::Ushr, sort(a), {a, n}); }
Term TermManager::bitAnd(Term a, Term b) { return make(Op::BitAnd, sort(a), {a, b}); }
Term TermManager::bitOr(Term a, Term b) { return make(Op::BitOr, sort(a), {a, b}); }
Term TermManager::bitXor(Term a, Term b) { return make(Op::BitXor, sort(a), {a, b}); }
Term TermManager::eq(Term a, Term b) { return make(Op::Eq, Sort::Bool, {a, b}); }
Term TermManager::ne(Term a, Term b) { return make(Op::Ne, Sort::Bool, {a, b}); }
Term TermManager::lt(Term a, Term b) { return make(Op::Lt, Sort::Bool, {a, b}); }
Term TermManager::le(Term a, Term b) { return make(Op::Le, Sort::Bool, {a, b}); }
Term TermManager::gt(Term a, Term b) { return make(Op::Gt, Sort::Bool, {a, b}); }
Term TermManager::ge(Term a, Term b) { return make(Op::Ge, Sort::Bool, {a, b}); }
Term TermManager::cmp(Term a, Term b) { return make(Op::Cmp, Sort::Int, {a, b}); }
Term TermManager::cmpl(Term a, Term b) { return make(Op::CmpL, Sort::Int, {a, b}); }
Term TermManager::cmpg(Term a, Term b) { return make(Op::CmpG, Sort::Int, {a, b}); }
Term TermManager::lnot(Term a) { return make(Op::Not, Sort::Bool, {a}); }
Term TermManager::land(Term a, Term b) { return make(Op::And, Sort::Bool, {a, b}); }
Term TermManager::lor(Term a, Term b) { return make(Op::Or, Sort::Bool, {a, b}); }
Term TermManager::ite(Term c, Term a, Term b) { return make(Op::Ite, sort(a), {c, a, b}); }
Term TermManager::convert(Term a, Sort to) { return make(Op::Convert, to, {a}); }
Term TermManager::i2b(Term a) { return make(Op::I2B, Sort::Int, {a}); }
Term TermManager::i2c(Term a) { return make(Op::I2C, Sort::Int, {a}); }
Term TermManager::i2s(Term a) { return make(Op::I2S, Sort::Int, {a}); }
Term TermManager::floor(Term a) { return make(Op::Floor, sort(a), {a}); }
Term TermManager::ceil(Term a) { return make(Op::Ceil, sort(a), {a}); }
Term TermManager::rint(Term a) { return make(Op::Rint, sort(a), {a}); }
Term TermManager::rawBits(Term a) { return make(Op::RawBits, sort(a) == Sort::Float ? Sort::Int : Sort::Long, {a}); }
Term TermManager::fromBits(Term a) { return make(Op::FromBits, sort(a) == Sort::Int ? Sort::Float : Sort::Double, {a}); }
Term TermManager::same(Term a, Term b) { return make(Op::Same, Sort::Bool, {a, b}); }

Term TermManager::apply(std::string_view fn, FunKind kind, Sort result, const std::vector<Term>& args) {
  return make(Op::Apply, result, args, 0, fn, kind);
}

// Checks operand arity and sorts for a non-leaf operator.
static void checkSorts(const TermManager& tm, Op op, Sort sort, const std::vector<Term>& args) {
  auto arity = [&](std::size_t n) {
    if (args.size() != n) fail(op, "expects " + std::to_string(n) + " operands, got " + std::to_string(args.size()));
  };
  auto s = [&](std::size_t i) { return tm.sort(args[i]); };
  auto need = [&](bool ok, const char* why) {
    if (!ok) fail(op, why);
  };
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem:
      arity(2);
      need(isNumeric(s(0)) && s(0) == s(1) && sort == s(0), "operands must be numeric of the result sort");
      break;
    case Op::Neg:
      arity(1);
      need(isNumeric(s(0)) && sort == s(0), "operand must be numeric of the result sort");
      break;
    case Op::Shl: case Op::Shr: case Op::Ushr:
      arity(2);
      need(isIntegral(s(0)) && s(1) == Sort::Int && sort == s(0), "shifts take an int/long and an int amount");
      break;
    case Op::BitAnd: case Op::BitOr: case Op::BitXor:
      arity(2);
      need(isIntegral(s(0)) && s(0) == s(1) && sort == s(0), "operands must be int or long of the result sort");
      break;
    case Op::Eq: case Op::Ne: case Op::Same:
      arity(2);
      need(s(0) == s(1) && sort == Sort::Bool, "operands must have one sort, result boolean");
      break;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      arity(2);
      need(isNumeric(s(0)) && s(0) == s(1) && sort == Sort::Bool, "operands must be numeric of one sort");
      break;
    case Op::Cmp:
      arity(2);
      need(isIntegral(s(0)) && s(0) == s(1) && sort == Sort::Int, "lcmp takes two integral operands, result int");
      break;
    case Op::CmpL: case Op::CmpG:
      arity(2);
      need(isNumeric(s(0)) && s(0) == s(1) && sort == Sort::Int, "operands must be numeric of one sort, result int");
      break;
    case Op::Not:
      arity(1);
      need(s(0) == Sort::Bool && sort == Sort::Bool, "operand must be boolean");
      break;
    case Op::And: case Op::Or:
      arity(2);
      need(s(0) == Sort::Bool && s(1) == Sort::Bool && sort == Sort::Bool, "operands must be boolean");
      break;
    case Op::Ite:
      arity(3);
      need(s(0) == Sort::Bool && s(1) == s(2) && sort == s(1), "condition must be boolean, branches of one sort");
      break;
    case Op::Convert:
      arity(1);
      need(isNumeric(s(0)) && isNumeric(sort), "conversions are between numeric sorts");
      break;
    case Op::I2B: case Op::I2C: case Op::I2S:
      arity(1);
      need(s(0) == Sort::Int && sort == Sort::Int, "operand must be int");
      break;
    case Op::Floor: case Op::Ceil: case Op::Rint:
      arity(1);
      need(isFloating(s(0)) && sort == s(0), "operand must be floating of the result sort");
      break;
    case Op::RawBits:
      arity(1);
      need((s(0) == Sort::Double && sort == Sort::Long) || (s(0) == Sort::Float && sort == Sort::Int),
           "double -> long or float -> int");
      break;
    case Op::FromBits:
      arity(1);
      need((s(0) == Sort::Long && sort == Sort::Double) || (s(0) == Sort::Int && sort == Sort::Float),
           "long -> double or int -> float");
      break;
    case Op::Apply: case Op::Lit: case Op::Var: break;
  }
}

Term TermManager::make(Op op, Sort sort, const std::vector<Term>& argsIn, std::uint64_t bits,
                       std::string_view name, FunKind fun) {
  for (Term a : argsIn) node(a);  // validates ids
  if (op == Op::Lit) {
    if (!argsIn.empty()) fail(op, "a literal has no operands");
    return lit(sort, bits);
  }
  if (op == Op::Var) {
    if (!argsIn.empty()) fail(op, "a variable has no operands");
    return var(name, sort);
  }
  if (static_cast<std::size_t>(op) > static_cast<std::size_t>(Op::Apply)) throw TermError("unknown operator");
  checkSorts(*this, op, sort, argsIn);
  if (op == Op::Apply) {
    if (name.empty()) fail(op, "a function application needs a function name");
    if (fun == FunKind::Library) {
      if (Term f = detail::foldLibrary(*this, name, sort, argsIn)) return f;
    }
    return intern(Node{Op::Apply, sort, fun, 0, std::string(name), argsIn});
  }
  bool allLit = std::all_of(argsIn.begin(), argsIn.end(), [&](Term a) { return isLit(a); });
  if (allLit)
    if (Term f = detail::foldLiterals(*this, op, sort, argsIn)) return f;
  std::vector<Term> args = argsIn;
  if (Term n = detail::normalise(*this, op, sort, args)) return n;
  return intern(Node{op, sort, FunKind::Library, 0, {}, std::move(args)});
}

// ---- queries ---------------------------------------------------------------------------------

bool TermManager::containsUif(Term t) const {
  node(t);
  return (impl_->flags[t.id] & 1) != 0;
}

bool TermManager::containsLibrary(Term t) const {
  node(t);
  return (impl_->flags[t.id] & 2) != 0;
}

void TermManager::collectVars(Term t, std::vector<Term>& out) const {
  node(t);
  std::unordered_set<std::uint32_t> seen;
  std::vector<Term> stack{t};
  std::vector<Term> found;
  while (!stack.empty()) {
    Term cur = stack.back();
    stack.pop_back();
    if (!seen.insert(cur.id).second) continue;
    const Node& n = impl_->nodes[cur.id];
    if (n.op == Op::Var) found.push_back(cur);
    for (Term a : n.args) stack.push_back(a);
  }
  std::sort(found.begin(), found.end());
  for (Term v : found) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
}

Term TermManager::substitute(Term t, const std::unordered_map<Term, Term, TermHash>& map) {
  node(t);
  for (const auto& [from, to] : map) {
    if (sort(from) != sort(to)) throw TermError("substitute: a replacement must keep the sort");
  }
  std::unordered_map<std::uint32_t, Term> done;
  // Iterative post-order: a frame is (term, expanded?).
  std::vector<std::pair<Term, bool>> stack{{t, false}};
  while (!stack.empty()) {
    auto [cur, expanded] = stack.back();
    stack.pop_back();
    if (done.count(cur.id)) continue;
    if (auto it = map.find(cur); it != map.end()) {
      done.emplace(cur.id, it->second);
      continue;
    }
    const Node& n = impl_->nodes[cur.id];
    if (n.args.empty()) {
      done.emplace(cur.id, cur);
      continue;
    }
    if (!expanded) {
      stack.push_back({cur, true});
      for (Term a : n.args)
        if (!done.count(a.id)) stack.push_back({a, false});
      continue;
    }
    std::vector<Term> args;
    args.reserve(n.args.size());
    bool changed = false;
    for (Term a : n.args) {
      Term r = done.at(a.id);
      changed |= r != a;
      args.push_back(r);
    }
    if (!changed) {
      done.emplace(cur.id, cur);
      continue;
    }
    // Copy what we need before make() may grow the deque (references stay valid, but be safe).
    Op op = n.op;
    Sort s = n.sort;
    std::uint64_t bits = n.bits;
    std::string name = n.name;
    FunKind fun = n.fun;
    done.emplace(cur.id, make(op, s, args, bits, name, fun));
  }
  return done.at(t.id);
}

}  // namespace pasda::terms
