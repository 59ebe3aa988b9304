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
/// An invokedynamic call site the engine does not model (unknown.cpp).
ModelResult invokeDynamicCall(ModelCall& call);

}  // namespace pasda::symexec::lib
