// Internal to symexec: one explicit registration function per file of JDK models. Each adds
// its models to the registry; jdkModels() (library.cpp) calls them all once.
#pragma once

#include "../library.hpp"

namespace pasda::symexec::lib {

void registerMathModels(LibraryRegistry& r);         // math.cpp: java.lang.Math, StrictMath
void registerBoxModels(LibraryRegistry& r);          // boxes.cpp: Double, Integer, Long
void registerObjectModels(LibraryRegistry& r);       // object.cpp: Object, library constructors
void registerIoModels(LibraryRegistry& r);           // io.cpp: java.io.PrintStream
void registerArrayModels(LibraryRegistry& r);        // arrays.cpp: java.util.Arrays, System.arraycopy, clone
void registerStringModels(LibraryRegistry& r);       // strings.cpp: String, StringBuilder, concatenation
void registerCharacterModels(LibraryRegistry& r);    // character.cpp: Character's classification, case
void registerEnumModels(LibraryRegistry& r);         // object.cpp: java.lang.Enum, java.util.Objects
void registerReflectionModels(LibraryRegistry& r);   // reflect.cpp: reflect.Array, Class's component type
void registerUnknownCallModels(LibraryRegistry& r);  // unknown.cpp: the fallback, invokedynamic

/// A call the engine does not model (the registry's fallback): see unknown.cpp. `site` names an
/// invokedynamic call site ("" for a method call).
/// `metafactory`: a LambdaMetafactory call site (never throws, never null).
ModelResult unknownCall(ModelCall& call, const std::string& display, const std::string& site, bool metafactory = false);
/// The text String.valueOf gives a value of descriptor kind `kind` (strings.cpp): 1 and `out`
/// holds its characters; 0 not modelled (floating point, an object's toString); -1 the path ended.
int textOfValue(ModelCall& call, Term value, char kind, std::vector<Term>& out);
/// What an unmodelled call's result depends on besides its arguments (unknown.cpp), appended
/// to `args`: the run, for identity hashes (never shared between the versions), and the call's
/// number on its side, for the clock and for random seeds and draws (a new value at each call).
/// Clock readings and random numbers are coupled between the versions: the old version's k-th
/// reading, unseeded generator or Math.random() is the new version's k-th, so identical code
/// sees the same time and draws the same numbers and an EQ holds for every clock and seed, while
/// a NEQ on such values stays MAYBE_NEQ (they are uninterpreted). A generator's draws are
/// functions of its state, which each draw renews.
void appendSources(ModelCall& call, std::vector<terms::Term>& args);
/// An invokedynamic call site the engine does not model (unknown.cpp).
ModelResult invokeDynamicCall(ModelCall& call);

}  // namespace pasda::symexec::lib
