// The classes an execution can reach, organised in "sides": side 0 holds the generated
// product class, side 1 the old version and its class path, side 2 the new version and its
// class path. A name is resolved in the side of the code that mentions it, so the two
// versions can use helper classes of the same name.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/loader.hpp"

namespace pasda::symexec {

enum Side : int { kProduct = 0, kOld = 1, kNew = 2 };

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
  std::map<std::string, std::unique_ptr<LoadedClass>> classes_[3];
  std::shared_ptr<jvm::ClassPath> paths_[3];
  mutable std::map<std::string, std::unique_ptr<LoadedClass>> loaded_[3];
  mutable std::map<std::string, bool> missing_[3];
};

/// Superclass of a well-known library class (java/lang exceptions etc.), "" if unknown.
std::string librarySuperclass(const std::string& internalName);

}  // namespace pasda::symexec
