// Internal to symexec: one explicit registration function per file of JDK models. Each adds
// its models to the registry; jdkModels() (library.cpp) calls them all once.
#pragma once

#include "../library.hpp"

namespace pasda::symexec::lib {

void registerMathModels(LibraryRegistry& r);         // math.cpp: java.lang.Math, StrictMath
void registerBoxModels(LibraryRegistry& r);          // boxes.cpp: Double, Integer, Long
void registerObjectModels(LibraryRegistry& r);       // object.cpp: Object, library constructors
void registerIoModels(LibraryRegistry& r);           // io.cpp: java.io.PrintStream
void registerUnknownCallModels(LibraryRegistry& r);  // unknown.cpp: the fallback, invokedynamic

/// The result of a call the engine does not model: an opaque object for reference results, an
/// uninterpreted function of the primitive arguments otherwise (with a warning naming it).
Term opaqueResult(ModelCall& call);

}  // namespace pasda::symexec::lib
