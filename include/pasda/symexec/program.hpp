// The classes an execution can reach, organised in "sides": the generated product class's
// side and one side per version (pasda::Version) with that version's class path. A name is resolved in the side of the code that mentions it, so the two
// versions can use helper classes of the same name.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pasda/core/version.hpp"
#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/loader.hpp"

namespace pasda::symexec {

/// The class namespace code runs in: the product's, or one version's. A version converts to
/// its side; only a version's side has a version().
class Side {
 public:
  constexpr Side(Version v) : code_(static_cast<unsigned char>(static_cast<unsigned char>(v) + 1)) {}
  static constexpr Side product() { return Side(); }
  constexpr bool isProduct() const { return code_ == 0; }
  /// The version whose code this is (the product's side has none: old is returned).
  constexpr Version version() const { return code_ == 2 ? Version::kNew : Version::kOld; }
  /// 0 (product), 1 (old), 2 (new): for tables over the three sides and for symbol names.
  constexpr std::size_t index() const { return code_; }
  friend constexpr bool operator==(Side, Side) = default;

 private:
  constexpr Side() = default;
  unsigned char code_ = 0;
};
inline constexpr Side kProduct = Side::product();
inline constexpr Side kOld{Version::kOld};
inline constexpr Side kNew{Version::kNew};

/// One value per side, indexed by `Side`.
template <class T>
struct PerSide {
  std::array<T, 3> values{};
  T& operator[](Side s) { return values[s.index()]; }
  const T& operator[](Side s) const { return values[s.index()]; }
};

struct LoadedClass;

/// A method ready to execute: decoded instructions, pc -> index, loops.
struct MethodInfo {
  const LoadedClass* owner = nullptr;
  const jvm::Method* method = nullptr;
  std::string name, descriptor;
  jvm::MethodDesc desc;
  bool is_static = false;
  std::vector<jvm::Instruction> insns;
  std::vector<std::int32_t> index_of_pc;  // pc -> instruction index (-1 between instructions)
  std::vector<bool> in_loop;              // per instruction: inside a natural loop of the method
  std::vector<std::uint16_t> line;        // per instruction: source line (0 if unknown)
  std::uint16_t max_locals = 0;
  std::string key() const;  // owner/name:descriptor
};

struct LoadedClass {
  jvm::ClassFile cf;
  std::string name;  // internal name (after renaming)
  Side side = kProduct;
  std::string super_name;
  std::map<std::string, std::unique_ptr<MethodInfo>> methods;  // key name+descriptor
  const MethodInfo* method(const std::string& name, const std::string& descriptor) const;
};

class Program {
 public:
  Program() = default;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  /// Add a class to a side (takes ownership). Decodes every method (throws jvm::FormatError).
  const LoadedClass& add(Side side, jvm::ClassFile cf);
  /// The class path searched for classes of a side that were not added explicitly.
  void setClassPath(Side side, std::shared_ptr<jvm::ClassPath> cp);

  /// Resolve a class by internal name in a side (loads from the side's class path on demand).
  /// Returns nullptr for classes the program does not have (library classes).
  const LoadedClass* find(Side side, const std::string& internalName) const;
  /// Resolve a method in `cls` or its superclasses (within the side).
  const MethodInfo* resolveMethod(Side side, const std::string& cls, const std::string& name,
                                  const std::string& descriptor) const;
  /// Is `sub` equal to or a subclass of `super` (library exception classes included)?
  bool isSubclass(Side side, const std::string& sub, const std::string& super) const;
  /// Can a value of class or array type `from` be assigned to type `to` (checkcast,
  /// instanceof)? Program classes' superclasses and interfaces are followed; nullopt when the
  /// answer depends on a library class whose hierarchy the engine does not know.
  std::optional<bool> assignable(Side side, const std::string& from, const std::string& to) const;

 private:
  PerSide<std::map<std::string, std::unique_ptr<LoadedClass>>> classes_;
  PerSide<std::shared_ptr<jvm::ClassPath>> paths_;
  mutable PerSide<std::map<std::string, std::unique_ptr<LoadedClass>>> loaded_;
  mutable PerSide<std::map<std::string, bool>> missing_;
};

/// Superclass of a well-known library class (java/lang exceptions etc.), "" if unknown.
std::string librarySuperclass(const std::string& internalName);

}  // namespace pasda::symexec
