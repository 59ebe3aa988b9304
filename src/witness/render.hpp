// Internal to witness: rendering of concrete Java values and Java's equality on raw bits,
// shared by the interpreter replay, the JVM replay and the JUnit emitter so that all three
// speak about a value in the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pasda/jvm/descriptor.hpp"
#include "pasda/witness/replay_result.hpp"

namespace pasda::product {
class Assembler;
}

namespace pasda::witness::detail {

/// A pasteable Java literal of a value of descriptor kind `kind` ('I', 'D', ...) from raw bits
/// as stored in terms::Node::bits (ints sign-extended, floats/doubles raw IEEE bits).
std::string literal(char kind, std::uint64_t bits);

/// The java launcher: `configured` if executable, else $JAVA_HOME/bin/java, else `java` on
/// PATH; "" when there is none (jvm_replay.cpp; the replay and the session both start JVMs).
std::string findJava(const std::string& configured);

/// The options of every replay JVM: the shared class archive, the C1 compiler only, the serial
/// collector and no performance-data file (a short-lived JVM starts about a fifth faster).
std::vector<std::string> jvmOptions();

/// Generated code printing `s` to System.out (jvm_replay.cpp; drivers and the session's server).
void printString(product::Assembler& a, const std::string& s, bool newline);

/// A pasteable Java string literal of UTF-16 units ("a\u0000\"b").
std::string stringLiteral(const std::vector<std::uint64_t>& units);

/// Java's equality of two values of one kind: Double.equals/Float.equals for floating kinds.
bool javaEqual(char kind, std::uint64_t a, std::uint64_t b);

/// Renderings of effects used in Replay records (replay_result.hpp).
using witness::throwsText;
using witness::voidText;

/// The descriptor kind as a value of a term sort would need it ('Z','B','C','S' behave as 'I').
inline char valueKind(char kind) { return (kind == 'Z' || kind == 'B' || kind == 'C' || kind == 'S') ? 'I' : kind; }

}  // namespace pasda::witness::detail
