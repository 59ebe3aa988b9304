// Models of java.lang.Character's classification and case mapping: exact on ASCII (code points
// 0..127, where Java's answer is a fixed small table), an uninterpreted function of the code
// point beyond it (where the answer comes from the Unicode tables, which the engine does not
// carry). The function is shared by both versions and by the char and int overloads, so that
// unchanged code over any text still proves equal; a path whose character lies beyond ASCII
// rests on it and is at most MAYBE.
#include <string>

#include "models.hpp"

namespace pasda::symexec::lib {

namespace {

using terms::FunKind;
using terms::Sort;
using terms::Term;

Term inRange(terms::TermManager& tm, Term c, int lo, int hi) {
  return tm.land(tm.ge(c, tm.intLit(lo)), tm.le(c, tm.intLit(hi)));
}

Term isAsciiLetter(terms::TermManager& tm, Term c) { return tm.lor(inRange(tm, c, 'A', 'Z'), inRange(tm, c, 'a', 'z')); }

/// Java's Character.isWhitespace below 128: \t \n \u000B \f \r, the separators 0x1C..0x1F, ' '.
Term isAsciiWhitespace(terms::TermManager& tm, Term c) { return tm.lor(inRange(tm, c, 9, 13), tm.lor(inRange(tm, c, 0x1C, 0x1F), tm.eq(c, tm.intLit(' ')))); }

using Ascii = Term (*)(terms::TermManager&, Term);

struct Predicate {
  const char* name;
  Ascii ascii;
};

const Predicate kPredicates[] = {
    {"isDigit", [](terms::TermManager& tm, Term c) { return inRange(tm, c, '0', '9'); }},
    {"isLetter", isAsciiLetter},
    {"isLetterOrDigit", [](terms::TermManager& tm, Term c) { return tm.lor(isAsciiLetter(tm, c), inRange(tm, c, '0', '9')); }},
    {"isAlphabetic", isAsciiLetter},
    {"isWhitespace", isAsciiWhitespace},
    {"isUpperCase", [](terms::TermManager& tm, Term c) { return inRange(tm, c, 'A', 'Z'); }},
    {"isLowerCase", [](terms::TermManager& tm, Term c) { return inRange(tm, c, 'a', 'z'); }},
};

Term asciiCode(terms::TermManager& tm, Term c) { return inRange(tm, c, 0, 127); }

/// A boolean result (0 or 1): the ASCII table below 128, the shared function beyond.
ModelResult predicate(ModelCall& call, const Predicate& p) {
  terms::TermManager& tm = call.tm();
  Term c = call.arg(0);
  Term beyond = tm.apply(std::string("java.lang.Character.") + p.name, FunKind::Library, Sort::Int, {c});
  Term cond = tm.ite(asciiCode(tm, c), p.ascii(tm, c), tm.ne(beyond, tm.intLit(0)));
  return ModelResult::value(tm.ite(cond, tm.intLit(1), tm.intLit(0)));
}

/// toUpperCase / toLowerCase: ASCII letters move by 32, other ASCII stays; beyond, the shared
/// function (a char result kept in 0..65535).
ModelResult caseMap(ModelCall& call, bool upper, bool charResult) {
  terms::TermManager& tm = call.tm();
  Term c = call.arg(0);
  Term from = upper ? inRange(tm, c, 'a', 'z') : inRange(tm, c, 'A', 'Z');
  Term ascii = tm.ite(from, upper ? tm.sub(c, tm.intLit(32)) : tm.add(c, tm.intLit(32)), c);
  Term beyond = tm.apply(upper ? "java.lang.Character.toUpperCase" : "java.lang.Character.toLowerCase",
                         FunKind::Library, Sort::Int, {c});
  if (charResult) beyond = tm.i2c(beyond);
  return ModelResult::value(tm.ite(asciiCode(tm, c), ascii, beyond));
}

}  // namespace

void registerCharacterModels(LibraryRegistry& r) {
  const std::string owner = "java/lang/Character";
  for (const Predicate& p : kPredicates) {
    for (const char* desc : {"(C)Z", "(I)Z"}) {
      if (std::string(p.name) == "isAlphabetic" && std::string(desc) == "(C)Z") continue;  // no such overload
      r.add(owner, p.name, desc, [&p](ModelCall& c) { return predicate(c, p); });
    }
  }
  r.add(owner, "toUpperCase", "(C)C", [](ModelCall& c) { return caseMap(c, true, true); });
  r.add(owner, "toLowerCase", "(C)C", [](ModelCall& c) { return caseMap(c, false, true); });
  r.add(owner, "toUpperCase", "(I)I", [](ModelCall& c) { return caseMap(c, true, false); });
  r.add(owner, "toLowerCase", "(I)I", [](ModelCall& c) { return caseMap(c, false, false); });
}

}  // namespace pasda::symexec::lib
