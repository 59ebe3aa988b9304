// Java-like rendering of terms with minimal parentheses. Iterative (explicit work stack) so
// that very deep terms do not overflow the call stack; output is capped for huge DAGs (the rest
// of the term is elided as "..." with every parenthesis still closed).
#include <charconv>
#include <cmath>
#include <cstring>

#include "impl.hpp"
#include "pasda/terms/java_semantics.hpp"

namespace pasda::terms {
namespace {

constexpr std::size_t kMaxOutput = 1u << 20;  // characters; beyond, sub-terms are elided

// Formats the shortest round-tripping digits of v (finite, non-zero) Java-style:
// decimal notation for 1e-3 <= |v| < 1e7, otherwise computerized scientific notation.
template <class F>
std::string javaFloating(F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  std::string sign;
  if (!s.empty() && s[0] == '-') {
    sign = "-";
    s.erase(0, 1);
  }
  auto e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp10 = std::stoi(s.substr(e + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  F a = v < 0 ? -v : v;
  std::string out;
  if (a >= static_cast<F>(1e-3) && a < static_cast<F>(1e7)) {
    if (exp10 >= 0) {
      std::string ip = digits.substr(0, std::min<std::size_t>(digits.size(), exp10 + 1));
      while (ip.size() < static_cast<std::size_t>(exp10 + 1)) ip += '0';
      std::string fp = digits.size() > static_cast<std::size_t>(exp10 + 1) ? digits.substr(exp10 + 1) : "0";
      out = ip + "." + fp;
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exp10 - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" + std::to_string(exp10);
  }
  return sign + out;
}

std::string literalText(const Node& n) {
  switch (n.sort) {
    case Sort::Bool: return n.bits ? "true" : "false";
    case Sort::Ref: return n.bits == 0 ? "null" : "ref#" + std::to_string(n.bits);
    case Sort::Int: return std::to_string(static_cast<std::int64_t>(n.bits));
    case Sort::Long: return std::to_string(static_cast<std::int64_t>(n.bits)) + "L";
    case Sort::Float: {
      float f = semantics::floatOfBits(static_cast<std::uint32_t>(n.bits));
      if (std::isnan(f)) return "Float.NaN";
      if (std::isinf(f)) return f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
      if (f == 0) return std::signbit(f) ? "-0.0f" : "0.0f";
      return javaFloating(f) + "f";
    }
    case Sort::Double: {
      double d = semantics::doubleOfBits(n.bits);
      if (std::isnan(d)) return "Double.NaN";
      if (std::isinf(d)) return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
      if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
      return javaFloating(d);
    }
  }
  return "?";
}

// Java operator precedence (higher binds tighter).
enum Prec : int { kTernary = 1, kOr = 3, kAnd = 4, kBitOr = 5, kBitXor = 6, kBitAnd = 7, kEquality = 8,
                  kRelational = 9, kShift = 10, kAdditive = 11, kMultiplicative = 12, kUnary = 13, kPrimary = 14 };

struct BinInfo { const char* text; int prec; };

BinInfo binaryInfo(Op op) {
  switch (op) {
    case Op::Add: return {" + ", kAdditive};
    case Op::Sub: return {" - ", kAdditive};
    case Op::Mul: return {" * ", kMultiplicative};
    case Op::Div: return {" / ", kMultiplicative};
    case Op::Rem: return {" % ", kMultiplicative};
    case Op::Shl: return {" << ", kShift};
    case Op::Shr: return {" >> ", kShift};
    case Op::Ushr: return {" >>> ", kShift};
    case Op::BitAnd: return {" & ", kBitAnd};
    case Op::BitOr: return {" | ", kBitOr};
    case Op::BitXor: return {" ^ ", kBitXor};
    case Op::Eq: return {" == ", kEquality};
    case Op::Ne: return {" != ", kEquality};
    case Op::Lt: return {" < ", kRelational};
    case Op::Le: return {" <= ", kRelational};
    case Op::Gt: return {" > ", kRelational};
    case Op::Ge: return {" >= ", kRelational};
    case Op::And: return {" && ", kAnd};
    case Op::Or: return {" || ", kOr};
    default: return {nullptr, 0};
  }
}

const char* libraryOwner(std::string_view fn) {
  static const char* const known[] = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                                      "tanh", "exp", "log", "log10", "sqrt", "cbrt", "pow", "hypot", "expm1",
                                      "log1p", "abs", "signum", "getExponent", "toRadians", "toDegrees",
                                      "round", "min", "max"};
  for (const char* k : known)
    if (fn == k) return "Math.";
  return "";
}

}  // namespace

// Longer than ~100 lines: one work-stack loop whose switch keeps every operator's rendering
// rule side by side (splitting it would pass the stack and the budget around).
std::string TermManager::toString(Term root) const {
  node(root);
  // Work items: either literal text to emit, or a term to render in a context of precedence p.
  struct Item { Term t; int prec; const char* text; std::string owned; };
  std::vector<Item> stack;
  stack.push_back({root, 0, nullptr, {}});
  std::string out;
  auto pushText = [&](const char* s) { stack.push_back({Term{}, 0, s, {}}); };
  auto pushOwned = [&](std::string s) { stack.push_back({Term{}, 0, nullptr, std::move(s)}); };
  auto pushTerm = [&](Term t, int p) { stack.push_back({t, p, nullptr, {}}); };
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    if (!it.t) {
      out += it.text ? std::string(it.text) : it.owned;
      continue;
    }
    if (out.size() > kMaxOutput && !impl_->nodes[it.t.id].args.empty()) {
      // Over the budget: the sub-terms not yet rendered become "..." while the pending text
      // (closing parentheses, operators) is still emitted, so the rendering stays well formed.
      out += "...";
      continue;
    }
    const Node& n = impl_->nodes[it.t.id];
    // Items are pushed in reverse order of emission.
    auto call = [&](std::string fname) {
      pushText(")");
      for (std::size_t i = n.args.size(); i-- > 0;) {
        pushTerm(n.args[i], 0);
        if (i > 0) pushText(", ");
      }
      pushOwned(std::move(fname) + "(");
    };
    auto wrap = [&](int myPrec) {
      bool paren = myPrec < it.prec;
      if (paren) {
        pushText(")");
      }
      return paren;
    };
    switch (n.op) {
      case Op::Lit: {
        std::string s = literalText(n);
        // A negative literal is a unary expression.
        if ((s[0] == '-') && it.prec > kUnary) s = "(" + s + ")";
        out += s;
        break;
      }
      case Op::Var: out += n.name; break;
      case Op::Neg: case Op::Not: case Op::Convert: case Op::I2B: case Op::I2C: case Op::I2S: {
        bool paren = wrap(kUnary);
        pushTerm(n.args[0], kUnary);
        if (n.op == Op::Neg) {
          // Avoid "--x" for the negation of a negative literal or of a negation.
          const Node& a = impl_->nodes[n.args[0].id];
          bool space = a.op == Op::Neg || (a.op == Op::Lit && literalText(a)[0] == '-');
          pushText(space ? "- " : "-");
        } else if (n.op == Op::Not) {
          pushText("!");
        } else if (n.op == Op::Convert) {
          pushOwned(std::string("(") + sortName(n.sort) + ") ");
        } else {
          pushText(n.op == Op::I2B ? "(byte) " : n.op == Op::I2C ? "(char) " : "(short) ");
        }
        if (paren) pushText("(");
        break;
      }
      case Op::Ite: {
        bool paren = wrap(kTernary);
        pushTerm(n.args[2], kTernary);
        pushText(" : ");
        pushTerm(n.args[1], kTernary + 1);
        pushText(" ? ");
        pushTerm(n.args[0], kTernary + 1);
        if (paren) pushText("(");
        break;
      }
      case Op::Cmp: call(n.sort == Sort::Int && impl_->nodes[n.args[0].id].sort == Sort::Int ? "Integer.compare" : "Long.compare"); break;
      case Op::CmpL: call("cmpl"); break;
      case Op::CmpG: call("cmpg"); break;
      case Op::Floor: call("Math.floor"); break;
      case Op::Ceil: call("Math.ceil"); break;
      case Op::Rint: call("Math.rint"); break;
      case Op::RawBits: call(n.sort == Sort::Int ? "Float.floatToRawIntBits" : "Double.doubleToRawLongBits"); break;
      case Op::FromBits: call(n.sort == Sort::Float ? "Float.intBitsToFloat" : "Double.longBitsToDouble"); break;
      case Op::Same: {
        // Double.compare(a, b) == 0 is exactly Double.equals: NaN equals NaN, 0.0 differs from -0.0.
        bool paren = wrap(kEquality);
        pushText(" == 0");
        call(impl_->nodes[n.args[0].id].sort == Sort::Float ? "Float.compare" : "Double.compare");
        if (paren) pushText("(");
        break;
      }
      case Op::Apply: {
        std::string fname = n.name;
        if (n.fun == FunKind::Library && fname.find('.') == std::string::npos) fname = libraryOwner(fname) + fname;
        call(fname);
        break;
      }
      default: {
        BinInfo bi = binaryInfo(n.op);
        if (!bi.text) {
          out += "<?>";
          break;
        }
        bool paren = wrap(bi.prec);
        pushTerm(n.args[1], bi.prec + 1);
        pushText(bi.text);
        pushTerm(n.args[0], bi.prec);
        if (paren) pushText("(");
        break;
      }
    }
  }
  return out;
}

}  // namespace pasda::terms
