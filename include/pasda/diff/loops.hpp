// Loops a symbolic execution may replace by shared uninterpreted functions: a loop of a method
// whose closure is identical in both versions (or whose own code is, calling only such
// methods) is the same function of what it reads, so both
// versions' runs of it, from equal states, have equal outcomes (RVT's rule for identical code).
// This finds the loops whose reads and effects that function can describe: local variables,
// elements and lengths of primitive arrays held in reference locals, pure arithmetic; no heap
// writes, no allocation, no calls but pure JDK arithmetic. With arrayStores, more: see
// summarisableLoops. Depends on jvm-frontend only.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "pasda/jvm/classfile.hpp"

namespace pasda::diff {

struct LoopSummary {
  int header = 0;                    // instruction index of the loop header
  std::uint32_t header_pc = 0;
  std::vector<std::pair<int, char>> reads;   // primitive local slots read in the loop (I, J, F, D)
  std::vector<int> ref_reads;                // reference local slots read (arrays, null tests)
  std::vector<std::pair<int, char>> writes;  // primitive local slots the loop writes
  std::vector<std::uint32_t> exits;          // pcs outside the loop that it continues at
  std::vector<std::pair<std::uint32_t, char>> returns;  // return instructions in the loop (pc, kind; V void)
  std::vector<std::string> exceptions;       // internal names of the exceptions it may throw
  int depth = 0;                             // how many other loops of the method enclose it
  bool stores_arrays = false;                // it stores into primitive arrays (only with arrayStores)
  /// Primitive fields it reads of the objects its reference locals hold (only with arrayStores),
  /// itself or through the instance helpers it calls on them, and one-dimensional primitive
  /// array fields it reads itself: (slot, name, descriptor). Their values at the header are
  /// arguments of its functions (the written fields' too).
  std::vector<std::tuple<int, std::string, std::string>> field_reads;
  /// Primitive fields it writes of those objects (only with arrayStores): each becomes a
  /// function of the loop's arguments where it ends, however it ends.
  std::vector<std::tuple<int, std::string, std::string>> field_writes;
  /// It reads immutable objects (only with arrayStores): elements of reference arrays (tested
  /// for null or read by the calls below), and String.charAt/length/isEmpty and the boxes'
  /// value getters on them or on its reference locals — functions of the objects' contents.
  bool reads_objects = false;
  /// It calls static methods of its class whose every instruction a summarised loop may hold
  /// (only with arrayStores; to a depth of 8): their reads, stores and exceptions are the loop's.
  /// Instance methods of its class called on the objects its reference locals hold are allowed
  /// likewise when they run the class's own code (see summarisableLoops' `overridable`), touch
  /// fields of their receiver only and are given primitives or what the loop's locals hold:
  /// their field accesses and builder calls are the loop's.
  bool calls_helpers = false;
  /// It calls methods of BitSet, StringBuilder and StringBuffer that change or read their
  /// receiver alone (only with arrayStores): the caller requires each such receiver its
  /// reference locals hold to be exactly of its class, and makes its content a function of the
  /// loop's arguments.
  bool changes_library_objects = false;
  /// Some of those are BitSet methods: a BitSet may be of a program subclass, so then every
  /// object it reaches must be known not to be one. (StringBuilder and StringBuffer are final.)
  bool calls_bitsets = false;
  /// It calls CharSequence.charAt/length or Random's next* on what its reference locals hold
  /// (only with arrayStores): functions of a string's characters or a generator's state; on an
  /// object of another class (a program CharSequence, a subclass of Random) unknown code, so the
  /// caller makes each such receiver's content a function of the loop's arguments and lets the
  /// loop throw an exception of unknown class.
  bool calls_on_receivers = false;
  /// The IllegalArgumentException it may throw comes only from Array.getLength on what is not
  /// an array. (Its NullPointerException always comes from dereferencing a null reference:
  /// it never throws one it builds.)
  bool iae_from_lengths_only = true;
};

/// The summarisable loops of `m` (outermost loops first; a loop inside a summarised one is
/// never reached). `why`, if given, receives one line per rejected loop. `pureCalls`, if given:
/// static methods of the class ("name:descriptor") the loops may call too — methods whose calls
/// the caller replaces by functions of their arguments (pure helpers, docs/matcher.md).
/// `leafCall`, if given: whether a static method of another class is an arithmetic leaf
/// (ClosureOracle::arithmeticLeaf) that the loops may call (it can throw ArithmeticException).
/// `arrayStores`: the loops may also store into primitive arrays held in reference locals
/// (LoopSummary::stores_arrays; the caller then makes those arrays' contents functions too)
/// and read primitive fields (and one-dimensional primitive array fields) of the objects those
/// locals hold (LoopSummary::field_reads; the caller passes their values at the header), and
/// read strings, boxes and reference arrays' elements (LoopSummary::reads_objects), and read
/// and write primitive fields of the objects their reference locals hold (LoopSummary::field_writes).
/// `overridable`, if given: whether a call of an instance method of the class may run another
/// class's override of it (without it, only private and final methods, methods of a final
/// class and invokespecial calls run known code). `sameCallee`, if given: whether a program
/// method the loops call (a helper of the class, an arithmetic leaf) is the same code, its
/// callees' included, in both versions — for a method whose own code is identical but whose
/// closure is not; without it every callee is taken to be.
std::vector<LoopSummary> summarisableLoops(const jvm::ClassFile& cf, const jvm::Method& m,
                                           std::vector<std::string>* why = nullptr,
                                           const std::set<std::string>* pureCalls = nullptr,
                                           const std::function<bool(const jvm::MemberRef&)>& leafCall = {},
                                           bool arrayStores = false,
                                           const std::function<bool(const jvm::MemberRef&)>& overridable = {},
                                           const std::function<bool(const jvm::MemberRef&)>& sameCallee = {});

}  // namespace pasda::diff
