// Internal to witness: the generated code that builds a JVM replay's inputs (jvm_inputs.cpp),
// used by the replay drivers (jvm_replay.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/instruction.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::product {
class Assembler;
}

namespace pasda::witness::detail {

/// Names a driver's generated code needs: the class one version's call goes to (what
/// "<main>" in an input's class stands for; empty: no mapping) and the driver class itself
/// (the owner of the build helpers).
/// The pseudo-field of an enum input naming its constant (a string; replayJvm sets it from the
/// model's "$ordinal"): the driver passes Enum.valueOf's constant of that name to each version.
inline constexpr const char* kEnumConstant = "$constant";

struct DriverNames {
  std::string called;
  std::string driver;
  std::string map(const std::string& text) const;  // "<main>" -> called
};

void pushInt(product::Assembler& a, jvm::ConstantPool& pool, std::int32_t v);
/// An instruction that takes a class operand (new, anewarray, checkcast, instanceof, ldc_w).
void typeOp(product::Assembler& a, jvm::ConstantPool& pool, jvm::Opcode o, const std::string& cls);
/// A constant of type `t` from raw bits (references: null).
void pushConstant(product::Assembler& a, jvm::ConstantPool& pool, const jvm::TypeDesc& t, std::uint64_t bits);
/// An array of `elemDesc` with the given elements (reference elements are null).
void pushArray(product::Assembler& a, jvm::ConstantPool& pool, const std::string& elemDesc,
               const std::vector<std::uint64_t>& elems);
/// An input of the call: a constant, or a fresh string, array or object built from the witness
/// (one per call, so that what one version does to it cannot reach the other).
void pushInput(product::Assembler& a, jvm::ConstantPool& pool, const jvm::TypeDesc& t, const InputValue& v,
               const DriverNames& names);
/// Sets the called class's static fields a "<statics>" value names (nothing for another value).
void setStatics(product::Assembler& a, jvm::ConstantPool& pool, const InputValue& statics, const DriverNames& names);
/// The other program classes whose static fields a "<statics>" value sets (fields named
/// "owner.field", owner an internal name), in the order first named.
std::vector<std::string> staticsClassesOf(const InputValue& statics);
/// Leaves `cls`'s declared method `method` of descriptor `md` on the stack, made accessible.
void pushMethodLookup(product::Assembler& a, jvm::ConstantPool& pool, const std::string& cls,
                      const std::string& method, const jvm::MethodDesc& md);
/// Calls the Method in local `methodSlot` with the locals `loads` (the receiver first when
/// `instance`), boxing them, and leaves the result unboxed (nothing for void) on the stack.
void invokeReflectively(product::Assembler& a, jvm::ConstantPool& pool, const jvm::MethodDesc& md, int methodSlot,
                        const std::vector<std::pair<char, int>>& loads, bool instance);
/// Replaces an InvocationTargetException in local `slot` by its cause.
void unwrapInvocationTarget(product::Assembler& a, jvm::ConstantPool& pool, int slot);
/// The complete lines of a JVM's output (up to and including its last newline): a JVM killed at
/// the replay deadline may leave a line cut short ("... throw java.lang"), which must not be
/// read as a result.
std::string completeLines(const std::string& output);

/// Adds the helpers the code above calls (pasdaAlloc, pasdaField) to the driver class `cf`
/// named `driver` (pasdaAlloc gives an abstract type a stand-in: addStandInHelpers).
void addBuildHelpers(jvm::ClassFile& cf, const std::string& driver);

/// The system property in which pasdaStandIn lists the abstract types it stood in for, cleared
/// before each call's inputs are built (jvm_standins.cpp).
inline constexpr const char* kStandInProperty = "pasda.standin";
/// Makes the driver class `cf` named `driver` an InvocationHandler (the proxies' default
/// answers) and adds pasdaStandIn(Class): a real object of an abstract type.
void addStandInHelpers(jvm::ClassFile& cf, const std::string& driver);
/// Stack: Class -> its stand-in object.
void emitStandInCall(product::Assembler& a, const std::string& driver);

/// Names the enum constants of a witness (recursively): an object with the model's "$ordinal"
/// gets kEnumConstant, the name of that constant in the old version's class (else the new one's).
void nameEnumConstants(InputValue& v, const symexec::Program* program);

/// Runs `argv` with a wall-clock limit, collecting stdout and stderr (jvm_process.cpp); false
/// when it cannot be started.
bool runWithTimeout(const std::vector<std::string>& argv, double timeoutS, std::string& output, bool& timedOut);
/// The command of a replay JVM: class path `cp`, main class `driver` (internal or dotted name).
std::vector<std::string> jvmCommand(const std::string& java, const std::string& cp, std::string driver);
/// A split replay's two drivers, each in a JVM of its own over `classDir` and its version's
/// class path, at the same time.
bool runSplit(const std::string& java, const std::string& classDir, const ReplayEnv& env, const std::string& oldDriver,
              const std::string& newDriver, std::string& output, bool& timedOut);

/// Adds the helpers printState calls (pasdaValue, pasdaDeep, pasdaState, pasdaStatics) to the
/// driver class `cf` named `driver` (jvm_state.cpp).
void addStateHelpers(jvm::ClassFile& cf, const std::string& driver);
/// Prints "<prefix> state S0 | S1 ..." and a newline: the state of the reference locals `slots`
/// and the non-final static fields of each class `staticsOf` names. An object of a class
/// outside the JDK prints as "#k{name=value;...}" over its instance fields, objects inside it
/// likewise to a bound ("#k" again for an object met before); a reference array or a list as
/// "#k<e0;e1;...>"; a string, a box or a primitive array as its value; an enum constant as
/// "enum NAME"; other JDK objects as "obj"; "null"; "?" when it cannot be printed.
/// The static fields are printed as "BEFORE ~ AFTER", BEFORE being what captureStatics kept
/// in local `staticsBefore` + k ahead of the call for class k.
void printState(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, const std::string& prefix,
                const std::vector<int>& slots, const std::vector<std::string>& staticsOf = {},
                int staticsBefore = -1);
/// Keeps the printout of class `cls`'s non-final static fields in local `slot`.
void captureStatics(product::Assembler& a, jvm::ConstantPool& pool, const std::string& driver, const std::string& cls,
                    int slot);
/// The first difference between two printed states, compared as graphs up to isomorphism on
/// the fields both versions declare ("this.size: 0 vs -5", "this.next.value: 1 vs 2"; the
/// inputs called by `names`), or "" when they agree. An object not printed (past a bound, a
/// JDK object) compares equal to any object but not to null.
std::string stateDifference(const std::string& oldState, const std::string& newState,
                            const std::vector<std::string>& names);

/// JDK-wide state a replay may change (jvm_globals.cpp): the system properties, the default
/// locale and time zone, System.out, System.err: kGlobalCount values.
constexpr int kGlobalCount = 5;
/// Pushes each value and calls store(k) to keep it (the properties as a copy).
void emitSaveGlobals(product::Assembler& a, jvm::ConstantPool& pool, const std::function<void(int)>& store);
/// Sets each value back from what load(k) pushes.
void emitRestoreGlobals(product::Assembler& a, jvm::ConstantPool& pool, const std::function<void(int)>& load);
/// Static fields and the methods kSaveGlobals()V and kRestoreGlobals()V of a driver class.
constexpr const char* kSaveGlobals = "pasda$saveGlobals";
constexpr const char* kRestoreGlobals = "pasda$restoreGlobals";
void addGlobalsHelpers(jvm::ClassFile& cf, const std::string& driver);

}  // namespace pasda::witness::detail
