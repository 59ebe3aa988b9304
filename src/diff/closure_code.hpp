// Internal to pasda_diff: the code comparison of the closure oracle (two versions of one
// method, instruction by instruction after normalisation) and the bootstrap-method table
// that invokedynamic and dynamic constants refer to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "method_facts.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::diff::detail {

/// One method's decoded code and a pc -> instruction index map.
struct DecodedMethod {
  const jvm::ClassFile* cls = nullptr;
  const jvm::Method* method = nullptr;
  std::vector<jvm::Instruction> insns;
  /// Instruction index at `pc`; insns.size() for the end of the code; -1 otherwise.
  int indexAt(std::uint32_t pc) const;
};

/// Decode `m` of `cf` (which must have code). Throws jvm::FormatError.
DecodedMethod decodeMethod(const jvm::ClassFile& cf, const jvm::Method& m);

/// One entry of a class's BootstrapMethods attribute: the method handle and static arguments.
struct Bootstrap {
  jvm::ConstValue handle;             // Kind::MethodHandle
  std::vector<jvm::ConstValue> args;  // loadable constants
};

/// Entry `index` of the BootstrapMethods attribute of `cf`. Throws std::out_of_range when the
/// attribute or the entry is missing or malformed.
Bootstrap bootstrapAt(const jvm::ClassFile& cf, std::uint16_t index);

/// Canonical text of bootstrap entry `index` of `cf` in version v (class names through `norm`),
/// with dynamic constants among the arguments expanded (to a bounded depth).
std::string bootstrapText(const jvm::ClassFile& cf, std::uint16_t index, const Normaliser& norm, Version v,
                          int depth = 0);

/// In a class initialiser `m` of `self`: drop every store of a constant (`aconst_null`,
/// `iconst_*`, `bipush`, an `ldc` of a number or string, then `putstatic`) to a static field of
/// the class that `other` (the class's other version) does not declare at all. Such a store
/// cannot throw nor be seen by code present in both versions (which cannot name the field), so
/// a field added or removed with a constant initialiser leaves the initialisers comparable.
/// Instructions after a dropped pair move up; a branch or handler that pointed at one finds
/// nothing there (indexAt gives -1) and the comparison reports a difference, conservatively.
void dropOneVersionConstantStores(DecodedMethod& m, const jvm::ClassFile& self, const jvm::ClassFile& other);

/// What differs between two versions of a method's code ("" when nothing): the normalised
/// instructions (bootstrap methods of invokedynamic and dynamic constants included), local
/// slots up to a bijection that keeps the parameters' slots, branch targets by instruction
/// index, and the exception table.
std::string codeDifference(const DecodedMethod& a, const DecodedMethod& b, const Normaliser& norm);

}  // namespace pasda::diff::detail
