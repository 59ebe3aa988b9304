// Internal to symexec: the input heap. Reference inputs and what they reach are materialised
// lazily (null, fresh or alias, up to heap_bound per class), one copy per side; the two sides'
// final states are aligned by access path for the product comparison (docs/heap.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "explorer.hpp"

namespace pasda::symexec {

class InputHeap {
 public:
  InputHeap(terms::TermManager& tm, const Program& program, const ExecOptions& opt, Explorer& explorer)
      : tm_(tm), program_(program), opt_(opt), explorer_(explorer) {}

  /// Materialise the next pending reference input or input-array length (one choice per
  /// step). Ended: the path was cut by a bound.
  StepOutcome materializePending(State& s);
  /// Value of field `name` (descriptor `desc`) of a lazy input object, materialised on first
  /// read. nullopt: the path ended (cut by the heap bound).
  std::optional<Term> readField(State& s, Object& o, const std::string& name, const std::string& desc);
  /// The final state of both versions, aligned by access path, for the product comparison.
  /// false: the path ended (materialising an untouched input field was cut by the heap bound).
  bool compareState(State& s, const std::vector<std::pair<Term, Term>>& roots,
                    std::vector<std::pair<std::string, Term>>& oldState,
                    std::vector<std::pair<std::string, Term>>& newState);
  /// The side-neutral name of a class: "<main>" for the analysed classes of both sides.
  std::string originalName(const std::string& cls) const;
  /// The class a side-neutral name stands for on `side` ("<main>" in it: that side's analysed class).
  std::string sideName(const std::string& neutral, Side side) const;
  /// After <clinit> of a program class on `side` (the analysed class or another class of the
  /// program the other version has too): its non-final static fields that the other version
  /// declares too (same name and type) become inputs, read lazily (static_inputs).
  void makeStaticInputs(State& s, Side side, const LoadedClass& cls);
  /// The entry value of the lazy static field `key` ("side#owner.name", descriptor `desc`):
  /// an input shared by both versions, materialised on first read like an input object's
  /// field. nullopt: the path ended (heap bound).
  std::optional<Term> readStatic(State& s, Side side, const std::string& key, const std::string& desc);
  /// The simple name of the analysed class (without the version suffix), used in paths.
  std::string mainSimpleName() const;
  /// The characters of an input String (a parameter, a field, a static), materialised on first
  /// use like an input array: a length explored up to max_array_length and one input variable
  /// in 0..65535 per character, shared by both sides: 1. Past max_array_length no character is
  /// held (the string is known by its identity only, docs/heap.md): 0, as for a string that is
  /// not an input.
  int materializeString(State& s, std::uint64_t id);
  /// A new input variable of primitive descriptor `kind`, with its range (boolean, byte, char,
  /// short) added to the path condition.
  Term inputVar(State& s, const std::string& name, char kind);
  /// A side-neutral term for the content of object `id` as seen by side `side`, for the
  /// arguments of uninterpreted library calls: two objects get the same term only when no
  /// library call can tell them apart (same string text, the same untouched input, arrays and
  /// program objects of equal content, results of the same unmodelled call on equal arguments).
  /// Anything else gets a term of its own per side and object, never shared.
  Term identity(State& s, std::uint64_t id, Side side, int depth = 0);
  /// identity() for a reference term, the term itself for a primitive one.
  Term identityOf(State& s, Term value, Side side);

 private:
  using Entries = std::vector<std::pair<std::string, Term>>;
  int newInput(State& s, const std::string& path, const std::string& cls);
  /// Target of an input reference: input index, -1 for null, -2 if the path was cut.
  int chooseTarget(State& s, const std::string& path, const std::string& cls, bool nonNull, std::string& fact);
  StepOutcome longArray(State& s, InputObject& in);
  StepOutcome materializeLength(State& s);
  /// Compare one pair of objects (matched by the bijection); reference fields go on `work`.
  bool compareObjects(State& s, const std::string& path, std::uint64_t ia, std::uint64_t ib,
                      std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState, Entries& newState);
  /// Compare the fields of one pair of objects; reference fields go on `work`.
  bool compareFields(State& s, const std::string& path, std::uint64_t ia, std::uint64_t ib,
                     std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState, Entries& newState);
  /// The value of field `n` of an object that one side never touched (see compareFields).
  /// Does `cls` (on `side`) or a superclass of the program declare a field `name`? (true when
  /// a library class in its ancestry might)
  bool declaresField(Side side, const std::string& cls, const std::string& name) const;
  Checked<Term> untouchedField(State& s, Object& missing, Side missingSide, const std::string& n, Term known);
  /// Static fields of the analysed classes that both versions declare: primitives into the
  /// entries, references as roots of the graph comparison. false: the path ended.
  bool staticRoots(State& s, std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                   Entries& newState);
  /// Non-final static fields of the other program classes whose statics are inputs
  /// (State::input_static_classes) that a side read or wrote. false: the path ended.
  bool helperStaticRoots(State& s, std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState,
                         Entries& newState);
  /// The class on the other side whose statics correspond to class `cls` of `side` (null: none).
  const LoadedClass* staticTwin(Side side, const std::string& cls) const;
  /// Is static field `f` of `cls` private and written by no code of its class (but <clinit>)
  /// or of its nestmates? (cached per side, class and field)
  bool effectivelyFinal(Side side, const LoadedClass& cls, const jvm::Field& f) const;
  /// Is static `f` of `cls` (on `side`) an input: non-final, declared alike by `twin` (the
  /// other version's class), and not effectively final in both?
  bool staticInput(Side side, const LoadedClass& cls, const jvm::Field& f, const LoadedClass& twin) const;
  /// One compared static: a primitive into the entries, a reference onto `work`.
  void addStaticRoot(const std::string& path, const PerSide<Term>& v,
                     std::vector<std::tuple<std::string, Term, Term>>& work, Entries& oldState, Entries& newState);
  /// The statics holder's field for static `key`: the analysed class's by its name, another
  /// class's as "owner.name" (owner's internal name).
  std::string holderField(const std::string& key) const;
  /// Console output of the two versions (compare_output).
  void compareOutput(State& s, Entries& oldState, Entries& newState);
  /// The static-field holder of the analysed classes (an input object without a reference).
  int staticsHolder(State& s);

  terms::TermManager& tm_;
  const Program& program_;
  const ExecOptions& opt_;
  Explorer& explorer_;
  mutable std::map<std::string, bool> effectively_final_;  // effectivelyFinal's answers
};

}  // namespace pasda::symexec
