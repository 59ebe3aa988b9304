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

/// Renders a term without recursion: a work stack of items, each either text to emit or a term
/// to render in a context of precedence `prec`. Items are pushed in reverse order of emission.
class Renderer {
 public:
  explicit Renderer(const TermManager& tm) : tm_(tm) {}

  std::string run(Term root) {
    pushTerm(root, 0);
    while (!stack_.empty()) {
      Item it = std::move(stack_.back());
      stack_.pop_back();
      if (!it.t) {
        out_ += it.text ? std::string(it.text) : it.owned;
        continue;
      }
      if (out_.size() > kMaxOutput && !tm_.node(it.t).args.empty()) {
        // Over the budget: the sub-terms not yet rendered become "..." while the pending text
        // (closing parentheses, operators) is still emitted, so the rendering stays well formed.
        out_ += "...";
        continue;
      }
      render(tm_.node(it.t), it.prec);
    }
    return std::move(out_);
  }

 private:
  struct Item {
    Term t;
    int prec;
    const char* text;
    std::string owned;
  };

  void pushText(const char* s) { stack_.push_back({Term{}, 0, s, {}}); }
  void pushOwned(std::string s) { stack_.push_back({Term{}, 0, nullptr, std::move(s)}); }
  void pushTerm(Term t, int p) { stack_.push_back({t, p, nullptr, {}}); }

  /// f(a, b, ...)
  void call(const Node& n, std::string fname) {
    pushText(")");
    for (std::size_t i = n.args.size(); i-- > 0;) {
      pushTerm(n.args[i], 0);
      if (i > 0) pushText(", ");
    }
    pushOwned(std::move(fname) + "(");
  }

  /// Parenthesise an expression of precedence `mine` in a context of precedence `ctx`: the
  /// closing parenthesis is pushed now, the caller pushes the opening one last.
  bool wrap(int mine, int ctx) {
    bool paren = mine < ctx;
    if (paren) pushText(")");
    return paren;
  }

  void render(const Node& n, int prec) {
    switch (n.op) {
      case Op::Lit: {
        std::string s = literalText(n);
        if ((s[0] == '-') && prec > kUnary) s = "(" + s + ")";  // a negative literal is a unary expression
        out_ += s;
        return;
      }
      case Op::Var: out_ += n.name; return;
      case Op::Neg: case Op::Not: case Op::Convert: case Op::I2B: case Op::I2C: case Op::I2S: return unary(n, prec);
      case Op::Ite: return ternary(n, prec);
      case Op::Cmp:
        return call(n, n.sort == Sort::Int && tm_.node(n.args[0]).sort == Sort::Int ? "Integer.compare" : "Long.compare");
      case Op::CmpL: return call(n, "cmpl");
      case Op::CmpG: return call(n, "cmpg");
      case Op::Floor: return call(n, "Math.floor");
      case Op::Ceil: return call(n, "Math.ceil");
      case Op::Rint: return call(n, "Math.rint");
      case Op::RawBits: return call(n, n.sort == Sort::Int ? "Float.floatToRawIntBits" : "Double.doubleToRawLongBits");
      case Op::FromBits: return call(n, n.sort == Sort::Float ? "Float.intBitsToFloat" : "Double.longBitsToDouble");
      case Op::Same: {
        // Double.compare(a, b) == 0 is exactly Double.equals: NaN equals NaN, 0.0 differs from -0.0.
        bool paren = wrap(kEquality, prec);
        pushText(" == 0");
        call(n, tm_.node(n.args[0]).sort == Sort::Float ? "Float.compare" : "Double.compare");
        if (paren) pushText("(");
        return;
      }
      case Op::Apply: {
        std::string fname = n.name;
        if (n.fun == FunKind::Library && fname.find('.') == std::string::npos) fname = libraryOwner(fname) + fname;
        return call(n, fname);
      }
      default: return binary(n, prec);
    }
  }

  void unary(const Node& n, int prec) {
    bool paren = wrap(kUnary, prec);
    pushTerm(n.args[0], kUnary);
    if (n.op == Op::Neg) {
      // Avoid "--x" for the negation of a negative literal or of a negation.
      const Node& a = tm_.node(n.args[0]);
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
  }

  void ternary(const Node& n, int prec) {
    bool paren = wrap(kTernary, prec);
    pushTerm(n.args[2], kTernary);
    pushText(" : ");
    pushTerm(n.args[1], kTernary + 1);
    pushText(" ? ");
    pushTerm(n.args[0], kTernary + 1);
    if (paren) pushText("(");
  }

  void binary(const Node& n, int prec) {
    BinInfo bi = binaryInfo(n.op);
    if (!bi.text) {
      out_ += "<?>";
      return;
    }
    bool paren = wrap(bi.prec, prec);
    pushTerm(n.args[1], bi.prec + 1);
    pushText(bi.text);
    pushTerm(n.args[0], bi.prec);
    if (paren) pushText("(");
  }

  const TermManager& tm_;
  std::vector<Item> stack_;
  std::string out_;
};

}  // namespace

std::string TermManager::toString(Term root) const {
  node(root);  // (checks the term)
  return Renderer(*this).run(root);
}

}  // namespace pasda::terms
