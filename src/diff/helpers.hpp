// Internal to pasda_diff: helper methods of the class (static or private) compared between the
// two versions, and the effect rules shared by regions and helpers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "method_facts.hpp"

namespace pasda::diff::detail {

class HelperOracle {
 public:
  HelperOracle(const jvm::ClassFile& oldCls, const jvm::ClassFile& newCls, const Normaliser& norm);
  /// Is `key` ("name:descriptor") a method of this class, present in both versions with code?
  bool isHelper(const std::string& key) const;
  /// Normalised code identical in both versions, and the same for every method of the class it calls.
  bool identical(const std::string& key);
  /// Identical, static, and its code (and its callees') only computes a value: no effects, no
  /// possible exceptions.
  bool pure(const std::string& key);
  /// Why `insn` (of the OLD version, in code where `prev` precedes it) may not be part of an
  /// abstracted region: "" if allowed. Returns are reported as not allowed.
  std::string forbidden(const jvm::Instruction& insn, const jvm::Instruction* prev);
  /// Methods of this class called (directly) by `key` in version v.
  std::vector<std::string> callees(const std::string& key, Version v = Version::kOld);
  /// The helpers reachable from `method` in either version (breadth first, the old version's
  /// callees first), without `method` itself.
  std::vector<std::string> reachableHelpers(const std::string& method);
  /// Why version v of `key` may not have its recursive calls replaced by a function shared
  /// between the versions (the recursion rule): "" when it only computes a value from its
  /// primitive arguments, calls of itself allowed. `*recursive` tells whether it calls itself.
  std::string recursionBlocker(const std::string& key, Version v, bool* recursive);
  /// Static fields of the class that may be read inside a region (final, primitive, and a
  /// class initialiser identical in both versions).
  bool constantField(const jvm::MemberRef& f) const;

 private:
  bool sameCode(const std::string& key);
  bool sameBootstrap(const MethodFacts& a, const jvm::Instruction& x, const MethodFacts& b,
                     const jvm::Instruction& y) const;
  const MethodFacts* facts(Version v, const std::string& key);

  PerVersion<const jvm::ClassFile*> cls_;
  const Normaliser& norm_;
  PerVersion<std::map<std::string, MethodFacts>> facts_;
  std::map<std::string, int> identical_;  // 0 in progress, 1 yes, 2 no
  std::map<std::string, int> pure_;
  bool clinit_same_ = false;
};

/// Method key "name:descriptor" of a member reference.
inline std::string memberKey(const jvm::MemberRef& m) { return m.name + ":" + m.descriptor; }

}  // namespace pasda::diff::detail
