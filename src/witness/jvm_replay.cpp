// Replay of all witnesses of a run in one real JVM: a generated driver class calls the old and
// the new version for every witness (inputs embedded as constants) and prints one line per
// witness per version; the output is parsed back into Replay records. The JVM is
// either started for the run or kept running across runs (JvmSession, with a generated server).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "pasda/jvm/loader.hpp"
#include "pasda/symexec/program.hpp"
#include "pasda/product/assembler.hpp"
#include "pasda/witness/witness.hpp"
#include "driver.hpp"
#include "render.hpp"

namespace pasda::witness {

namespace fs = std::filesystem;
using jvm::Opcode;

namespace detail {

std::string findJava(const std::string& configured) {
  auto executable = [](const fs::path& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); };
  if (!configured.empty()) return executable(configured) ? configured : "";
  if (const char* home = std::getenv("JAVA_HOME"); home && *home) {
    fs::path p = fs::path(home) / "bin" / "java";
    if (executable(p)) return p.string();
  }
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
      if (dir.empty()) continue;
      fs::path p = fs::path(dir) / "java";
      if (executable(p)) return p.string();
    }
  }
  return "";
}


// Identity hashes are one constant (HotSpot's -XX:hashCode=2): an identity hash depends on the
// JVM's history, and the objects each version's class loader makes for itself — its enum
// constants, its Class objects, its static singletons — would otherwise hash differently in the
// two versions' replays yet alike on repeats, a "difference" of the replays and not of the
// versions (an unchanged method returning Objects.hashCode of an enum constant was a false NEQ in
// a release diff). A JVM without the flag ignores it. A replay JVM that crashes (a witness no
// caller could make) writes its report to the temporary directory, never into the user's
// working directory, and no core file. A bounded heap makes a witness's huge allocation fail
// at once (not after seconds of heap growth; docs/witnesses.md): an Error is not judged.
std::vector<std::string> jvmOptions() {
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return {"-Xshare:auto", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
          "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2",
          "-XX:-CreateCoredumpFiles", "-XX:ErrorFile=" + (tmp / "pasda-jvm-replay-crash-%p.log").string()};
}

std::string completeLines(const std::string& output) {
  const std::size_t last = output.rfind('\n');
  return last == std::string::npos ? std::string() : output.substr(0, last + 1);
}

void printString(product::Assembler& a, const std::string& s, bool newline) {
  a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.ldcString(s);
  a.invoke(Opcode::invokevirtual, "java/io/PrintStream", newline ? "println" : "print", "(Ljava/lang/String;)V");
}

}  // namespace detail

using detail::findJava;
using detail::printString;

namespace {

constexpr const char* kTag = "PASDA-REPLAY";


/// Values of a reference result compared by content: strings (as their UTF-16 units), boxes
/// and arrays of primitives. Other objects are compared by null-ness only.
enum class RefResult { NullOnly, String, Box, PrimitiveArray, CharArray };

RefResult refResultKind(const jvm::TypeDesc& t) {
  if (t.kind == '[') {
    const std::string e = t.elementDescriptor();
    if (e == "C") return RefResult::CharArray;
    return (e.size() == 1) ? RefResult::PrimitiveArray : RefResult::NullOnly;
  }
  if (t.kind != 'L') return RefResult::NullOnly;
  const std::string c = t.className();
  if (c == "java/lang/String") return RefResult::String;
  for (const char* box : {"Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"})
    if (c == std::string("java/lang/") + box) return RefResult::Box;
  return RefResult::NullOnly;
}

/// Replaces the reference result on the stack by its rendering (a String without line breaks):
/// "null", "[97, 98]" (a string's or char array's units), Arrays.toString of other primitive
/// arrays, String.valueOf of a box.
void renderReference(product::Assembler& a, const jvm::TypeDesc& t, RefResult kind) {
  int nonNull = a.newLabel(), done = a.newLabel();
  a.op(Opcode::dup);
  a.jump(Opcode::ifnonnull, nonNull);
  a.op(Opcode::pop);
  a.ldcString("null");
  a.jump(Opcode::goto_, done);
  a.bind(nonNull);
  switch (kind) {
    case RefResult::CharArray:
      a.invoke(Opcode::invokestatic, "java/lang/String", "valueOf", "([C)Ljava/lang/String;");
      [[fallthrough]];
    case RefResult::String:
      a.invoke(Opcode::invokevirtual, "java/lang/String", "chars", "()Ljava/util/stream/IntStream;");
      a.invoke(Opcode::invokeinterface, "java/util/stream/IntStream", "toArray", "()[I");
      a.invoke(Opcode::invokestatic, "java/util/Arrays", "toString", "([I)Ljava/lang/String;");
      break;
    case RefResult::PrimitiveArray:
      a.invoke(Opcode::invokestatic, "java/util/Arrays", "toString", "(" + t.text + ")Ljava/lang/String;");
      break;
    default:
      a.invoke(Opcode::invokestatic, "java/lang/String", "valueOf", "(Ljava/lang/Object;)Ljava/lang/String;");
      break;
  }
  a.bind(done);
}


/// What the calls of one witness are given: its arguments, and its receiver and statics.
struct WitnessCall {
  const std::vector<InputValue>* args = nullptr;
  const CallContext* context = nullptr;
  bool instance = false;
  bool reflective = false;  // call through Method.invoke (a private method)
};

/// One call of every witness by a driver: the class called, the side it prints, and the
/// analysed class's name in that version's own class files ("" = the called class).
struct DriverCall {
  std::string cls;
  const char* side;
  std::string original;
};

// A witness method's locals: 0-1 result, 2 exception, 3 the Method of a reflective call,
// inputs from 4.
constexpr int kMethodSlot = 3;
constexpr int kFirstInput = 4;

/// Prints the class name of the Throwable in local `slot` after `prefix`.
void printThrowable(product::Assembler& a, const std::string& prefix, int slot) {
  printString(a, prefix, false);
  a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.load('L', slot);
  a.invoke(Opcode::invokevirtual, "java/lang/Object", "getClass", "()Ljava/lang/Class;");
  a.invoke(Opcode::invokevirtual, "java/lang/Class", "getName", "()Ljava/lang/String;");
  a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", "(Ljava/lang/String;)V");
}

/// Prints the result kept in local 0 as `printed` ('V', 'L' for a rendering, 'I', 'J').
void printResult(product::Assembler& a, const std::string& prefix, char printed) {
  if (printed == 'V') return printString(a, prefix + " void", true);
  printString(a, prefix + (printed == 'L' ? " obj " : " ret "), false);
  a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.load(printed, 0);
  const char* sig = printed == 'L' ? "(Ljava/lang/String;)V" : printed == 'J' ? "(J)V" : "(I)V";
  a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", sig);
}

/// `descriptor` as the called class's version has it: the analysed class under its called name.
std::string calledDescriptor(const std::string& descriptor, const DriverCall& c) {
  if (c.original.empty() || c.original == c.cls) return descriptor;
  std::string out = descriptor;
  const std::string from = "L" + c.original + ";", to = "L" + c.cls + ";";
  for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
    out.replace(at, from.size(), to);
  return out;
}

/// Sets the statics and builds the receiver and arguments of one call into locals (from
/// kFirstInput), inside a handler that prints "<prefix> setup <exception>" and jumps to
/// `after` when they cannot be built. Returns the locals to load for the call, in order.
std::vector<std::pair<char, int>> emitSetup(product::Assembler& a, jvm::ClassFile& cf,
                                            std::vector<jvm::ExceptionHandler>& handlers, const jvm::MethodDesc& md,
                                            const WitnessCall& in, const detail::DriverNames& names,
                                            const std::string& method, const std::string& prefix, int after) {
  std::vector<std::pair<char, int>> loads;
  const std::uint16_t start = a.here();
  a.ldcString(detail::kStandInProperty);
  a.invoke(Opcode::invokestatic, "java/lang/System", "clearProperty", "(Ljava/lang/String;)Ljava/lang/String;");
  a.op(Opcode::pop);
  if (in.context) detail::setStatics(a, cf.pool, in.context->statics, names);
  int slot = kFirstInput;
  if (in.instance) {
    InputValue none;
    none.sort = terms::Sort::Ref;
    detail::pushInput(a, cf.pool, jvm::parseFieldDescriptor("L" + names.called + ";"),
                      in.context ? in.context->receiver : none, names);
    a.store('L', slot);
    loads.emplace_back('L', slot++);
  }
  for (std::size_t i = 0; i < md.params.size(); ++i) {
    detail::pushInput(a, cf.pool, md.params[i], in.args && i < in.args->size() ? (*in.args)[i] : InputValue{}, names);
    const char k = md.params[i].kind == '[' ? 'L' : md.params[i].kind;
    a.store(k, slot);
    loads.emplace_back(k, slot);
    slot += md.params[i].slots();
  }
  if (in.reflective) {
    detail::pushMethodLookup(a, cf.pool, names.called, method, md);
    a.store('L', kMethodSlot);
  }
  {  // "<prefix> standin <types>" when an input of an abstract type got a stand-in
    const int none = a.newLabel();
    a.ldcString(detail::kStandInProperty);
    a.invoke(Opcode::invokestatic, "java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    a.store('L', 2);
    a.load('L', 2);
    a.jump(Opcode::ifnull, none);
    printString(a, prefix + " standin ", false);
    a.field(Opcode::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
    a.load('L', 2);
    a.invoke(Opcode::invokevirtual, "java/io/PrintStream", "println", "(Ljava/lang/String;)V");
    a.bind(none);
  }
  const std::uint16_t end = a.here();
  const int call = a.newLabel();
  a.jump(Opcode::goto_, call);
  const std::uint16_t handler = a.here();
  a.store('L', 2);
  printThrowable(a, prefix + " setup ", 2);
  a.jump(Opcode::goto_, after);
  handlers.push_back({start, end, handler, cf.pool.addClass("java/lang/Throwable")});
  a.bind(call);
  return loads;
}

/// The reference inputs whose state after the call is compared (their indices among the
/// call's locals: the receiver first): the receiver, arrays and objects but strings.
std::vector<std::size_t> stateInputs(const jvm::MethodDesc& md, bool instance) {
  std::vector<std::size_t> out;
  if (instance) out.push_back(0);
  for (std::size_t i = 0; i < md.params.size(); ++i) {
    const jvm::TypeDesc& t = md.params[i];
    if (t.kind == '[' || (t.kind == 'L' && t.className() != "java/lang/String")) out.push_back(i + (instance ? 1 : 0));
  }
  return out;
}

/// The local that keeps an object result for its state: past the receiver and arguments.
int resultLocal(const jvm::MethodDesc& md, bool instance) {
  return kFirstInput + (instance ? 1 : 0) + static_cast<int>(md.paramSlots());
}

/// How the witness text names those inputs ("this", "argument 2"), then an object result whose
/// state is compared too ("result": returned objects are otherwise compared by null-ness only),
/// then the analysed class's static fields ("static").
std::vector<std::string> stateNames(const jvm::MethodDesc& md, bool instance) {
  std::vector<std::string> out;
  for (std::size_t i : stateInputs(md, instance))
    out.push_back(instance && i == 0 ? std::string("this") : "argument " + std::to_string(instance ? i : i + 1));
  if ((md.ret.kind == 'L' || md.ret.kind == '[') && refResultKind(md.ret) == RefResult::NullOnly)
    out.push_back("result");
  out.push_back("static");  // the analysed class's non-final static fields ("static.count")
  return out;
}

// One version's call for witness `w`: build its inputs, then try { r = call; } catch
// (Throwable t) { print throw }.
void emitCall(product::Assembler& a, jvm::ClassFile& cf, std::vector<jvm::ExceptionHandler>& handlers,
              const DriverCall& c, const std::string& driver, const std::string& method,
              const std::string& descriptor, const WitnessCall& in, const std::string& prefix) {
  const std::string desc = calledDescriptor(descriptor, c);
  const jvm::MethodDesc md = jvm::parseMethodDescriptor(desc);
  const char rk = md.ret.kind;
  const detail::DriverNames names{c.cls, driver};
  int after = a.newLabel();
  const std::vector<std::pair<char, int>> loads = emitSetup(a, cf, handlers, md, in, names, method, prefix, after);
  // An object result (compared by null-ness below) is kept for its state: null until returned.
  const RefResult refKind = refResultKind(md.ret);
  const bool objectResult = (rk == 'L' || rk == '[') && refKind == RefResult::NullOnly;
  const int resultSlot = resultLocal(md, in.instance);
  if (objectResult) {
    a.op(Opcode::aconst_null);
    a.store('L', resultSlot);
  }
  // The static fields as the call finds them: only those equal in both versions before the
  // call are compared after it (each version's initialiser may have set them apart).
  // (the called class's, then those of the other program classes the witness sets)
  const int staticsBefore = resultSlot + 1;
  std::vector<std::string> staticsOf{c.cls};
  if (in.context)
    for (const std::string& h : detail::staticsClassesOf(in.context->statics)) staticsOf.push_back(h);
  for (std::size_t k = 0; k < staticsOf.size(); ++k)
    detail::captureStatics(a, cf.pool, driver, staticsOf[k], staticsBefore + static_cast<int>(k));
  std::uint16_t start = a.here();
  if (in.reflective) {
    detail::invokeReflectively(a, cf.pool, md, kMethodSlot, loads, in.instance);
  } else {
    for (auto [k, slot] : loads) a.load(k, slot);
    a.invoke(in.instance ? Opcode::invokevirtual : Opcode::invokestatic, c.cls, method, desc);
  }
  // Turn the result into an int or long to print: raw bits of floating values.
  char printed = 'I';
  switch (rk) {
    case 'V': printed = 'V'; break;
    case 'D': a.invoke(Opcode::invokestatic, "java/lang/Double", "doubleToRawLongBits", "(D)J"); printed = 'J'; break;
    case 'F': a.invoke(Opcode::invokestatic, "java/lang/Float", "floatToRawIntBits", "(F)I"); break;
    case 'J': printed = 'J'; break;
    case 'L': case '[': {
      if (refKind != RefResult::NullOnly) {
        renderReference(a, md.ret, refKind);
        printed = 'L';
        break;
      }
      int nonNull = a.newLabel(), done = a.newLabel();
      a.op(Opcode::dup);
      a.store('L', resultSlot);
      a.jump(Opcode::ifnonnull, nonNull);
      a.iconst(0);
      a.jump(Opcode::goto_, done);
      a.bind(nonNull);
      a.iconst(1);
      a.bind(done);
      break;
    }
    default: break;
  }
  if (printed != 'V') a.store(printed, 0);
  std::uint16_t end = a.here();
  a.invoke(Opcode::invokestatic, driver, detail::kRestoreGlobals, "()V");  // (the line must reach System.out)
  printResult(a, prefix, printed);
  const int state = a.newLabel();
  a.jump(Opcode::goto_, state);
  std::uint16_t handler = a.here();
  a.store('L', 2);
  if (in.reflective) detail::unwrapInvocationTarget(a, cf.pool, 2);
  a.invoke(Opcode::invokestatic, driver, detail::kRestoreGlobals, "()V");
  printThrowable(a, prefix + " throw ", 2);
  // What the call left in its reference inputs, returned or thrown (stateInputs).
  a.bind(state);
  std::vector<int> slots;
  for (std::size_t i : stateInputs(md, in.instance)) slots.push_back(loads[i].second);
  if (objectResult) slots.push_back(resultSlot);
  detail::printState(a, cf.pool, driver, prefix, slots, staticsOf, staticsBefore);
  a.bind(after);
  handlers.push_back({start, end, handler, cf.pool.addClass("java/lang/Throwable")});
}

jvm::ClassFile buildDriver(const std::string& name, const std::vector<DriverCall>& calls, const std::string& method,
                           const std::string& descriptor, const std::vector<WitnessCall>& inputs) {
  jvm::MethodDesc md = jvm::parseMethodDescriptor(descriptor);
  jvm::ClassFile cf;
  cf.major_version = 49;
  cf.minor_version = 0;
  cf.access_flags = jvm::acc::Public | jvm::acc::Super;
  cf.this_class = cf.pool.addClass(name);
  cf.super_class = cf.pool.addClass("java/lang/Object");
  const auto maxStack = static_cast<std::uint16_t>(md.paramSlots() + 48);
  // (+ the result's, + the static fields as they were before the call, per class)
  std::size_t classes = 1;
  for (const WitnessCall& in : inputs)
    if (in.context) classes = std::max(classes, 1 + detail::staticsClassesOf(in.context->statics).size());
  const auto maxLocals = static_cast<std::uint16_t>(kFirstInput + 2 + classes + md.paramSlots());
  for (std::size_t w = 0; w < inputs.size(); ++w) {
    product::Assembler a(cf.pool);
    std::vector<jvm::ExceptionHandler> handlers;
    std::string base = std::string(kTag) + " " + std::to_string(w);
    for (const DriverCall& c : calls) {
      a.invoke(Opcode::invokestatic, name, detail::kRestoreGlobals, "()V");  // as the JVM had them
      emitCall(a, cf, handlers, c, name, method, descriptor, inputs[w], base + " " + c.side);
    }
    a.op(Opcode::return_);
    cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "w" + std::to_string(w), "()V",
                                             a.finish(), maxStack, maxLocals, std::move(handlers)));
  }
  detail::addBuildHelpers(cf, name);
  detail::addStateHelpers(cf, name);
  detail::addStandInHelpers(cf, name);
  detail::addGlobalsHelpers(cf, name);
  product::Assembler a(cf.pool);
  a.invoke(Opcode::invokestatic, name, detail::kSaveGlobals, "()V");
  for (std::size_t w = 0; w < inputs.size(); ++w) a.invoke(Opcode::invokestatic, name, "w" + std::to_string(w), "()V");
  a.invoke(Opcode::invokestatic, name, detail::kRestoreGlobals, "()V");  // ("done" on the real System.out)
  printString(a, std::string(kTag) + " done", true);
  a.op(Opcode::return_);
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "main", "([Ljava/lang/String;)V", a.finish(), 3, 1, {}));
  return cf;
}

struct Observed {
  bool seen = false;
  enum { Value, Void, Throw, Text, Setup } kind = Value;  // Setup: the inputs could not be built
  std::uint64_t bits = 0;
  std::string exception;
  std::string text;  // Text: the rendering of a reference result (renderReference)
  bool same(const Observed& o, char kind) const {
    if (this->kind != o.kind) return false;
    switch (this->kind) {
      case Throw: return exception == o.exception;
      case Text: return text == o.text;
      case Void: return true;
      default: return kind == 'L' || kind == '[' ? bits == o.bits : detail::javaEqual(kind, bits, o.bits);
    }
  }
};

/// The units of a rendered string ("[97, 98]") as a Java literal; other renderings unchanged.
std::string textOf(const jvm::TypeDesc& t, const std::string& rendered) {
  if (rendered == "null" || refResultKind(t) != RefResult::String) return rendered;
  std::vector<std::uint64_t> units;
  std::istringstream in(rendered.substr(1));
  long long u = 0;
  char sep = 0;
  while (in >> u) {
    units.push_back(static_cast<std::uint64_t>(u));
    in >> sep;
  }
  return detail::stringLiteral(units);
}

using Drivers = std::vector<std::pair<std::string, std::vector<DriverCall>>>;  // (driver, its calls)

std::string packageOf(const std::string& cls) { return cls.substr(0, cls.rfind('/') + 1); }

/// Both versions on one class path (the benchmark's oldV and newV side by side): one JVM runs
/// them both, as it does the renamed copies — when the classes differ in name and share a
/// package (the driver must be in it to call a package-private method).
bool sharedClassPath(const std::string& oldC, const std::string& newC, const ReplayEnv& env) {
  return !env.old_classpath.empty() && env.old_classpath == env.new_classpath && oldC != newC &&
         packageOf(oldC) == packageOf(newC);
}

/// Each version is called this many times more after its first call, on fresh inputs each time.
constexpr int kRepeats = 4;

/// The drivers of one replay. Each version is called 1 + kRepeats times (fresh inputs each
/// time): outputs that change from one call to the next (a counter, a clock, identity hashes,
/// random numbers) are no difference between the versions. A random bit agrees with itself on
/// one repeat half of the time; on four repeats of both versions a difference that is only
/// chance survives once in 512 (ReplayJvm.ARandomBitIsNoDifference).
Drivers planDrivers(const std::string& base, const std::string& oldC, const std::string& newC, bool split,
                    const ReplayEnv& env) {
  auto calls = [&](bool withOld, bool withNew, const std::string& oldOriginal, const std::string& newOriginal) {
    std::vector<DriverCall> out;
    if (withOld) out.push_back({oldC, "old", oldOriginal});
    if (withNew) out.push_back({newC, "new", newOriginal});
    for (int k = 0; k < kRepeats; ++k) {
      if (withOld) out.push_back({oldC, "again", oldOriginal});
      if (withNew) out.push_back({newC, "renew", newOriginal});
    }
    return out;
  };
  if (!split) return {{base, calls(true, true, env.old_original, env.new_original)}};
  if (sharedClassPath(oldC, newC, env)) return {{packageOf(oldC) + base + "_both", calls(true, true, "", "")}};
  // Each version in a JVM of its own, the driver in the called class's package (so that a
  // package-private method can be called).
  return {{packageOf(oldC) + base + "_old", calls(true, false, "", "")},
          {packageOf(newC) + base + "_new", calls(false, true, "", "")}};
}

/// The output with every driver's own name (each version's driver is a class of its own, in
/// its version's package) replaced by one neutral name, as text and as the UTF-16 units
/// ("[80, 97, ...]") strings are printed in. What a replay prints may show its driver: the
/// stack trace a Throwable input records when the driver builds it, a caller's class name.
/// That is the replay's doing, not a difference between the versions (commons-lang3's
/// ExceptionUtils.getStackTrace of a Throwable was "NEQ" by the drivers' names alone).
std::string neutralDriverNames(std::string output, const Drivers& drivers) {
  if (drivers.size() < 2) return output;  // one driver calls both versions: nothing tells them apart
  auto units = [](const std::string& text) {
    std::string out;
    for (unsigned char c : text) out += (out.empty() ? "" : ", ") + std::to_string(c);
    return out;
  };
  auto digit = [&](std::size_t at) { return at < output.size() && output[at] >= '0' && output[at] <= '9'; };
  auto replaceAll = [&](const std::string& from, const std::string& to, bool wholeNumbers) {
    for (std::size_t at = output.find(from); at != std::string::npos; at = output.find(from, at)) {
      if (wholeNumbers && ((at > 0 && digit(at - 1)) || digit(at + from.size()))) {
        ++at;
        continue;
      }
      output.replace(at, from.size(), to);
      at += to.size();
    }
  };
  const std::string neutral = "PasdaReplayDriver";
  for (const auto& entry : drivers) {
    std::string dotted = entry.first;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    for (const std::string& name : {entry.first, dotted}) {
      replaceAll(name, neutral, false);
      replaceAll(units(name), units(neutral), true);
    }
  }
  return output;
}

/// Writes the drivers' class files under `classDir` (their paths into `files`); "" or why not.
std::string writeDrivers(const std::string& classDir, const Drivers& drivers, const std::string& method,
                         const std::string& descriptor, const std::vector<WitnessCall>& inputs,
                         std::vector<fs::path>& files) {
  try {
    for (const auto& [driver, calls] : drivers) {
      files.push_back(fs::path(classDir) / (driver + ".class"));
      std::error_code dirError;
      fs::create_directories(files.back().parent_path(), dirError);
      std::vector<std::uint8_t> bytes = jvm::writeClass(buildDriver(driver, calls, method, descriptor, inputs));
      std::ofstream f(files.back(), std::ios::binary);
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!f) return "cannot write the replay driver to " + files.back().string();
    }
  } catch (const std::exception& e) {
    return std::string("cannot build the replay driver: ") + e.what();
  }
  return "";
}

/// What the drivers printed, per (witness, side: 1 old, 2 new, 3 the old version's repeats, 4
/// the new version's): for a repeat, the first output that differs from the version's first
/// call (else the last repeat's).
using States = std::map<std::pair<std::size_t, int>, std::string>;  // (witness, call) -> printed state

std::map<std::pair<std::size_t, int>, Observed> parseOutput(const std::string& output, std::size_t witnesses, char ret,
                                                           States& states, States& standins) {
  std::map<std::pair<std::size_t, int>, Observed> seen;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream ls(line);
    std::string tag, side, what;
    std::size_t w = 0;
    if (!(ls >> tag >> w >> side >> what) || tag != kTag || w >= witnesses) continue;
    const int key = side == "old" ? 1 : side == "new" ? 2 : side == "again" ? 3 : side == "renew" ? 4 : 0;
    if (key == 0) continue;
    if (what == "standin") {
      std::string text;
      std::getline(ls >> std::ws, text);
      standins[{w, key}] = text;
      continue;
    }
    if (what == "state") {
      std::string text;
      std::getline(ls >> std::ws, text);
      if (key >= 3) {  // as below: a repeat that differs from the first call stays
        auto first = states.find({w, key - 2}), kept = states.find({w, key});
        if (first != states.end() && kept != states.end() && kept->second != first->second) continue;
      }
      states[{w, key}] = text;
      continue;
    }
    Observed o;
    o.seen = true;
    if (what == "obj") {
      o.kind = Observed::Text;
      std::getline(ls >> std::ws, o.text);
    } else if (what == "void") {
      o.kind = Observed::Void;
    } else if (what == "throw" || what == "setup") {
      ls >> o.exception;
      o.kind = what == "throw" ? Observed::Throw : Observed::Setup;
    } else if (what == "ret") {
      long long v = 0;
      if (!(ls >> v)) continue;
      o.bits = static_cast<std::uint64_t>(v);
      if (ret == 'F') o.bits &= 0xFFFFFFFFull;
    } else {
      continue;
    }
    if (key >= 3) {
      const Observed& first = seen[{w, key - 2}];
      const Observed& kept = seen[{w, key}];
      if (kept.seen && first.seen && !kept.same(first, ret)) continue;  // a differing repeat stays
    }
    seen[{w, key}] = o;
  }
  return seen;
}

/// The replay of one witness from what its calls printed.
void judge(Replay& r, const jvm::TypeDesc& ret, const Observed& a, const Observed& b, const Observed& again,
           const Observed& renew, bool timedOut, const std::vector<const std::string*>& states,
           const std::vector<std::string>& names) {
  if (!a.seen || !b.seen) {
    r.note = timedOut ? "the JVM did not finish within the replay timeout" : "no output from the JVM for this witness";
    return;
  }
  if (a.kind == Observed::Setup || b.kind == Observed::Setup) {
    r.note = "not judged: the JVM could not build the witness's inputs (" +
             (a.kind == Observed::Setup ? a.exception : b.exception) + ")";
    return;
  }
  auto text = [&](const Observed& o) {
    if (o.kind == Observed::Void) return std::string(detail::voidText());
    if (o.kind == Observed::Throw) return detail::throwsText(o.exception);
    if (o.kind == Observed::Text) return textOf(ret, o.text);
    return detail::literal(ret.kind, o.bits);
  };
  r.old_out = text(a);
  r.new_out = text(b);
  r.differs = !a.same(b, ret.kind);
  r.judged = true;
  const bool objectResults = a.kind == Observed::Value && (ret.kind == 'L' || ret.kind == '[') && (a.bits || b.bits);
  if (objectResults) r.note = "object results are compared by their own fields only";
  if (r.differs && again.seen && again.kind != Observed::Setup && !again.same(a, ret.kind)) {
    r.differs = false;
    r.judged = false;
    r.note = "the old version gives different outputs on two calls with these inputs (" + r.old_out + ", then " +
             text(again) + "): not a difference between the versions";
  } else if (r.differs && renew.seen && renew.kind != Observed::Setup && !renew.same(b, ret.kind)) {
    r.differs = false;
    r.judged = false;
    r.note = "the new version gives different outputs on two calls with these inputs (" + r.new_out + ", then " +
             text(renew) + "): not a difference between the versions";
  }
  // Equal results: the state the calls left in their inputs (states: old, new, again, renew).
  if (r.differs || (!r.note.empty() && !objectResults) || !states[0] || !states[1]) return;
  const std::string d = detail::stateDifference(*states[0], *states[1], names);
  if (d.empty()) return;
  for (int k : {2, 3})
    if (states[k] && !detail::stateDifference(*states[k - 2], *states[k], names).empty()) {
      r.note = std::string("the ") + (k == 2 ? "old" : "new") +
               " version leaves different states on two calls with these inputs: not a difference between the versions";
      r.judged = false;
      return;
    }
  r.differs = true;
  r.note = "the state after the call differs: " + d;
}

}  // namespace

/// Runs a replay's drivers (in the session JVM when there is one, else in JVMs of their own)
/// and collects what they print into `output`; false when no JVM could be started.
static bool runDrivers(const std::string& java, const std::string& classDir, const ReplayEnv& env, const Drivers& drivers,
                bool split, const std::string& base, std::string& output, bool& timedOut) {
  bool ran = false;
  auto path = [&](const std::vector<std::string>& entries) {
    std::vector<std::string> cp{classDir};
    cp.insert(cp.end(), entries.begin(), entries.end());
    return cp;
  };
  // A session JVM (started early, reused) runs each driver in a class loader over its class
  // path; without one, or when a path cannot travel in its request, JVMs of their own do.
  if (split && drivers.size() == 1) {  // both versions over their one class path
    if (!(env.session && env.session->run(path(env.old_classpath), drivers[0].first, env.jvm_timeout_s, output, timedOut))) {
      std::string cp = classDir;
      for (const std::string& e : env.old_classpath) cp += ":" + e;
      ran = detail::runWithTimeout(detail::jvmCommand(java, cp, drivers[0].first), env.jvm_timeout_s, output, timedOut);
    } else {
      ran = true;
    }
  } else if (split) {
    std::string oldOut, newOut;
    bool oldTimedOut = false, newTimedOut = false;
    // The two versions' drivers share the replay's time (the new one's gets what is left).
    const auto start = std::chrono::steady_clock::now();
    auto newRun = [&] {
      const double left = env.jvm_timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) return newTimedOut = true;  // (nothing printed: not judged)
      return env.session->run(path(env.new_classpath), drivers[1].first, left, newOut, newTimedOut);
    };
    if (env.session && env.session->run(path(env.old_classpath), drivers[0].first, env.jvm_timeout_s, oldOut, oldTimedOut) &&
        newRun()) {
      output = detail::completeLines(oldOut) + detail::completeLines(newOut);
      timedOut = oldTimedOut || newTimedOut;
      ran = true;
    } else {
      ran = detail::runSplit(java, classDir, env, drivers[0].first, drivers[1].first, output, timedOut);
    }
  } else {
    ran = env.session ? env.session->run(classDir, base, env.jvm_timeout_s, output, timedOut)
                      : detail::runWithTimeout(detail::jvmCommand(java, classDir, base), env.jvm_timeout_s, output, timedOut);
  }
  return ran;
}

/// Judges every witness from the drivers' output: results, the state left behind, repeats, and
/// the stand-ins its inputs got.
static void judgeAll(std::vector<Replay>& out, const std::string& output, const jvm::MethodDesc& md, bool instance,
                     bool timedOut, const std::vector<CallContext>& contexts) {
  States states, standins;
  auto seen = parseOutput(detail::completeLines(output), out.size(), md.ret.kind, states, standins);
  for (std::size_t w = 0; w < out.size(); ++w) {
    std::vector<std::string> names = stateNames(md, instance);
    if (w < contexts.size())
      for (std::string h : detail::staticsClassesOf(contexts[w].statics)) {
        std::replace(h.begin(), h.end(), '/', '.');
        names.push_back(h);  // (another class's statics: "org.x.Registry.count")
      }
    std::vector<const std::string*> st;
    for (int key = 1; key <= 4; ++key) {
      auto it = states.find({w, key});
      st.push_back(it == states.end() ? nullptr : &it->second);
    }
    judge(out[w], md.ret, seen[{w, 1}], seen[{w, 2}], seen[{w, 3}], seen[{w, 4}], timedOut, st, names);
    // Inputs of abstract types stood in for: a difference on them is one, equal results are not
    // evidence against the model (Replay::exact_inputs).
    std::string types;
    for (int key = 1; key <= 2; ++key)
      if (auto it = standins.find({w, key}); it != standins.end() && types.empty()) types = it->second;
    if (!types.empty()) {
      out[w].exact_inputs = false;
      while (!types.empty() && types.back() == ' ') types.pop_back();
      out[w].stand_ins = types;
    }
  }
}

std::optional<std::vector<Replay>> replayJvm(const std::string& classDir, const ReplayEnv& env,
                                                        const std::string& oldClass, const std::string& newClass,
                                                        const std::string& method, const std::string& descriptor,
                                                        const std::vector<std::vector<InputValue>>& inputs) {
  return replayJvm(classDir, env, oldClass, newClass, method, descriptor, inputs, {}, false);
}

std::optional<std::vector<Replay>> replayJvm(const std::string& classDir, const ReplayEnv& env,
                                                        const std::string& oldClass, const std::string& newClass,
                                                        const std::string& method, const std::string& descriptor,
                                                        const std::vector<std::vector<InputValue>>& inputs,
                                                        const std::vector<CallContext>& contexts, bool instance) {
  std::string java = findJava(env.java);
  if (java.empty()) return std::nullopt;
  std::vector<Replay> out(inputs.size());
  for (auto& r : out) r.engine = "jvm";
  if (inputs.empty()) return out;
  auto failAll = [&](const std::string& why) {
    for (auto& r : out) r.note = why;
    return out;
  };
  jvm::MethodDesc md;
  try {
    md = jvm::parseMethodDescriptor(descriptor);
  } catch (const std::exception& e) {
    return failAll(std::string("bad descriptor: ") + e.what());
  }
  auto internal = [](std::string s) {
    for (char& c : s)
      if (c == '.') c = '/';
    return s;
  };
  const std::string base =
      "PasdaReplayDriver" + std::to_string(::getpid()) + "_" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
  const bool split = !env.old_classpath.empty() && !env.new_classpath.empty();
  const Drivers drivers = planDrivers(base, internal(oldClass), internal(newClass), split, env);
  std::vector<fs::path> files;
  auto removeDrivers = [&] {
    std::error_code ec;
    for (const fs::path& f : files) fs::remove(f, ec);
  };
  std::vector<std::vector<InputValue>> args = inputs;
  std::vector<CallContext> ctxs = contexts;
  for (auto& list : args)
    for (InputValue& v : list) detail::nameEnumConstants(v, env.program);
  for (CallContext& c : ctxs) {
    detail::nameEnumConstants(c.receiver, env.program);
    detail::nameEnumConstants(c.statics, env.program);
  }
  std::vector<WitnessCall> calls;
  for (std::size_t w = 0; w < args.size(); ++w)
    calls.push_back({&args[w], w < ctxs.size() ? &ctxs[w] : nullptr, instance, env.reflective});
  if (std::string why = writeDrivers(classDir, drivers, method, descriptor, calls, files); !why.empty()) {
    removeDrivers();
    return failAll(why);
  }
  std::string output;
  bool timedOut = false;
  const bool ran = runDrivers(java, classDir, env, drivers, split, base, output, timedOut);
  removeDrivers();
  if (!ran) return failAll("cannot start " + java);
  judgeAll(out, neutralDriverNames(output, drivers), md, instance, timedOut, ctxs);
  return out;
}

bool replaysInOneJvm(const ReplayEnv& env, const std::string& oldClass, const std::string& newClass) {
  auto internal = [](std::string s) {
    for (char& c : s)
      if (c == '.') c = '/';
    return s;
  };
  const bool split = !env.old_classpath.empty() && !env.new_classpath.empty();
  return !split || sharedClassPath(internal(oldClass), internal(newClass), env);
}

}  // namespace pasda::witness
