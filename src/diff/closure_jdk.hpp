// Internal to pasda_diff: what the closure oracle assumes about the JDK (the classes outside the
// analysed class path): which of its methods are reflective, which call back into the analysed
// classes and through which methods, and the supertypes of the JDK types that analysed classes
// commonly extend. Everything not listed here is treated in the most conservative way.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pasda::diff::detail {

/// The overridable methods a JDK method may call back on the analysed objects it can reach.
enum CallBack : unsigned {
  kToString = 1,      // toString()
  kEquals = 2,        // equals(Object)
  kHashCode = 4,      // hashCode()
  kCompareTo = 8,     // compareTo(Object)
  kCharSequence = 16, // length(), charAt(int), subSequence(int, int), toString(), isEmpty()
  kFormattable = 32,  // formatTo(Formatter, int, int, int)
  kAny = 64,          // any method the JDK may call back
};
/// The single-bit sets in the order the oracle creates their nodes.
const std::vector<unsigned>& callBackBits();
const char* callBackName(unsigned bit);  // "toString", ..., "any"
/// Method keys ("name:descriptor") of a single-bit set other than kAny.
const std::vector<std::string>& callBackMethods(unsigned bit);

/// What a JDK method is known to call back: `bits`, and whether that also holds when its
/// receiver is an analysed object that inherits the method from the JDK class (covers_this).
struct KnownCallBacks {
  unsigned bits = 0;
  bool covers_this = false;
};
/// The known behaviour of JDK method owner.name(desc), or nullopt when nothing is known.
std::optional<KnownCallBacks> knownCallBacks(const std::string& owner, const std::string& name, const std::string& desc);

/// JDK classes whose instances can neither be nor hold objects of the analysed classes.
bool inertJdkType(const std::string& internalName);

/// JDK calls whose targets are chosen at run time by name or class object (reflection).
bool reflectiveCall(const std::string& owner, const std::string& name);
/// JDK calls that call values() of an enum class they are given as a Class object.
bool enumReflectiveCall(const std::string& owner, const std::string& name);

/// All JDK supertypes of JDK type `name` (java/lang/Object left out), or nullopt when the
/// oracle does not know its hierarchy (then it may be a subtype of anything).
std::optional<std::vector<std::string>> jdkSupertypes(const std::string& name);

/// Methods of the given JDK supertype that the analysed classes can override and JDK code may
/// call: nullopt when the type is not one of the few the oracle knows completely.
std::optional<std::vector<std::string>> overridableJdkMethods(const std::string& type);

/// Private methods that serialization calls reflectively on Serializable classes.
bool serializationHook(const std::string& nameAndDescriptor);

}  // namespace pasda::diff::detail
