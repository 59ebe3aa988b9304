// Summarised loops (ExecOptions::loop_summaries, LoopSummaryHook): at the header of a loop of
// identical code, the rest of the loop's run is replaced by shared uninterpreted functions of
// what it reads — the same functions in both versions, so equal states give equal outcomes.
#include "interpreter.hpp"

#include <algorithm>

namespace pasda::symexec {

namespace {

/// Local `slot` of frame `f`, or no term when the frame has no such slot.
Term localOf(const Frame& f, int slot) {
  return static_cast<std::size_t>(slot) < f.locals.size() ? f.locals[static_cast<std::size_t>(slot)] : Term{};
}

}  // namespace

const LoopSummaryHook* Interpreter::loopSummaryAt(State& s) {
  Frame& f = s.frames.back();
  if (f.ip < 0 || static_cast<std::size_t>(f.ip) >= f.m->insns.size() || !f.m->in_loop[static_cast<std::size_t>(f.ip)])
    return nullptr;
  auto it = loops_.find(f.m);
  if (it == loops_.end()) it = loops_.emplace(f.m, opt_.loop_summaries(f.side, *f.m)).first;
  const std::uint32_t pc = f.m->insns[static_cast<std::size_t>(f.ip)].pc;
  const LoopSummaryHook* hook = nullptr;
  for (const LoopSummaryHook& h : it->second)
    if (h.header_pc == pc) hook = &h;
  return hook && f.stack.empty() ? hook : nullptr;
}

bool Interpreter::worthSummarising(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached) {
  // A loop that stores into arrays or reads fields is summarised only where running it cannot
  // end: over an array past the bound (no element held). Over arrays whose elements are held,
  // running it is exact, and its functions would only lose what the solver could use (Ran.gasdev
  // of the benchmark went from EQ in 0.1 s to MAYBE_EQ at the timeout).
  // A loop over strings, boxes or reference arrays' elements is summarised always: each
  // character or element it tests forks the path, and runs over a few held characters already
  // exceed a method's budget (StringUtils.deleteWhitespace: 511 paths).
  // So is one that calls helpers (ArrayUtils.shift's swap: its offsets fork every path).
  if (hook.calls_helpers || hook.changes_library_objects || (!hook.own_code_only && hook.reads_objects) ||
      (!hook.stores_arrays && hook.field_reads.empty() && !hook.reads_objects))
    return true;
  for (Term v : reached)
    if (v && tm_.sort(v) == Sort::Ref && tm_.node(v).bits != 0 && deref(s, v).is_array && deref(s, v).long_length)
      return true;
  return false;
}

bool Interpreter::loopSummaryArguments(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached,
                                       std::vector<Term>& args, std::string& sig, std::optional<StepOutcome>& stop) {
  const Frame& f = s.frames.back();
  // The primitive locals read or written (0 for one not assigned on this path: the loop writes
  // it before reading it), and the side-neutral identity of each reference local. A local the
  // loop only writes is an argument too: where the loop leaves without writing it, it keeps its
  // value from before the loop.
  for (auto [slot, kind] : LoopCoupler::variables(hook)) {
    Term v = localOf(f, slot);
    if (!v || tm_.sort(v) != sortOfDescriptor(kind)) v = tm_.lit(sortOfDescriptor(kind), 0);
    args.push_back(v);
    sig += kind;
  }
  for (int slot : hook.ref_reads) {
    Term v = localOf(f, slot);
    if (!v || tm_.sort(v) != Sort::Ref) return false;
    args.push_back(inputs_.identityOf(s, v, f.side));
    sig += 'A';
  }
  // The primitive fields it reads (or writes) of the objects its reference locals hold: their
  // values at the header; 0 for a null local (the identity above says null, and the outcome
  // function decides the NullPointerException).
  // A field holding a primitive array or a string: the identity of its content (null: null's).
  for (const auto& [slot, name, desc] : hook.field_reads) {
    Term ref = localOf(s.frames.back(), slot);
    if (!ref || tm_.sort(ref) != Sort::Ref) return false;
    const bool array = !desc.empty() && (desc[0] == '[' || desc[0] == 'L');
    const Sort sort = array ? Sort::Ref : sortOfDescriptor(desc.empty() ? 'I' : desc[0]);
    if (tm_.node(ref).bits == 0) {
      args.push_back(array ? inputs_.identity(s, 0, f.side) : tm_.lit(sort, 0));
    } else {
      std::optional<Term> v = readField(s, ref, name, desc);
      if (!v) {
        stop = StepOutcome::Ended;
        return false;
      }
      args.push_back(array ? inputs_.identityOf(s, *v, f.side) : *v);
    }
    sig += array ? 'a' : 'f';
  }
  // A loop that stores into arrays or writes fields: which of the arrays and objects it reaches
  // are one is part of the function (a store through one is seen through the other only when
  // they are one object).
  if (hook.stores_arrays || !hook.field_writes.empty()) {
    sig += "|";
    for (std::size_t i = 0; i < reached.size(); ++i) {
      std::size_t first = i;
      for (std::size_t j = 0; j < i; ++j)
        if (reached[j] == reached[i]) {
          first = j;
          break;
        }
      sig += std::to_string(first) + ",";
    }
  }
  return true;
}

std::optional<std::vector<Term>> Interpreter::reachedArrays(State& s, const LoopSummaryHook& hook) {
  // The reference locals' values, then the array fields' (of non-null objects) in hook order.
  // nullopt: reading a field ended the path (the heap bound).
  std::vector<Term> out;
  const Frame& f = s.frames.back();
  for (int slot : hook.ref_reads) out.push_back(localOf(f, slot));
  for (const auto& [slot, name, desc] : hook.field_reads) {
    if (desc.empty() || desc[0] != '[') continue;
    const Term ref = localOf(f, slot);
    Term v;
    if (ref && tm_.sort(ref) == Sort::Ref && tm_.node(ref).bits != 0) {
      std::optional<Term> read = readField(s, ref, name, desc);
      if (!read) return std::nullopt;
      v = *read;
    }
    out.push_back(v);
  }
  return out;
}

bool Interpreter::storesOnlyIntoReachedArrays(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached) {
  // The loop's stores go into arrays it reaches through its locals or array fields, which the
  // summary makes functions of its arguments; an array of arrays among them could lead a store
  // into an inner array the summary does not know of: such a loop runs.
  if (!hook.stores_arrays) return true;
  for (Term v : reached)
    if (v && tm_.sort(v) == Sort::Ref && tm_.node(v).bits != 0) {
      const Object& o = deref(s, v);
      if (o.is_array && o.cls.rfind("[[", 0) == 0) return false;  // (the verifier keeps other elements out: no checkcast in the loop)
    }
  return true;
}

bool Interpreter::elementsKnownByTheirArrays(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached) {
  // A loop that reads elements of an array past the bound is a function of the array's
  // identity, which stands for its elements' contents only where they cannot change: an array
  // of arrays past the bound holds inner arrays the input heap never materialised, which another
  // reference (a parameter) may alias and the code before the loop may have written. Such a
  // loop runs (and is cut at its first element, as before).
  if (!hook.reads_objects) return true;
  for (Term v : reached)
    if (v && tm_.sort(v) == Sort::Ref && tm_.node(v).bits != 0) {
      const Object& o = deref(s, v);
      if (o.is_array && o.long_length && o.cls.rfind("[[", 0) == 0) return false;
    }
  return true;
}

namespace {

/// The JDK classes whose objects a summarised loop may change (diff::LoopSummary::changes_library_objects).
bool changeableLibraryClass(const std::string& cls) {
  return cls == "java/util/BitSet" || cls == "java/lang/StringBuilder" || cls == "java/lang/StringBuffer";
}

/// The builders: final classes, so any object of them, an input too, is exactly of the class.
bool builderClass(const std::string& cls) { return cls == "java/lang/StringBuilder" || cls == "java/lang/StringBuffer"; }

}  // namespace

bool Interpreter::libraryReceiversKnown(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached) {
  // A loop that calls BitSet/StringBuilder/StringBuffer methods runs them on what its locals
  // hold or on elements of its arrays. Summarised only when every object it reaches is one it
  // cannot change (a string, a box, an array of those or of primitives) or a builder or bit set
  // exactly of its class — a BitSet built here by `new`, any builder not made by an unmodelled
  // call (the builders are final classes) — whose content the summary then makes a function of
  // the loop's arguments. An array of builders runs the loop (their elements are not havocked),
  // and so does any other object when the loop calls BitSet methods (an input BitSet or a
  // program object may be of a subclass whose overrides run program code); without them a
  // program object is changed only through the fields the summary writes.
  if (!hook.changes_library_objects) return true;
  for (Term v : reached) {
    if (!v || tm_.sort(v) != Sort::Ref || tm_.node(v).bits == 0) continue;
    const Object& o = deref(s, v);
    if (o.is_array) {
      if (o.elem_sort == Sort::Ref && !immutableValueClass(elementType(o.cls))) return false;
      continue;
    }
    if (immutableValueClass(o.cls) && !o.opaque) continue;
    if (changeableLibraryClass(o.cls) && o.exact_library && o.input < 0) continue;
    if (builderClass(o.cls) && !o.opaque) continue;
    if (!hook.calls_bitsets && !o.opaque && !changeableLibraryClass(o.cls)) continue;
    return false;
  }
  return true;
}

void Interpreter::havocLibraryObjects(State& s, const std::vector<Term>& reached, const std::string& base,
                                      const std::vector<Term>& args) {
  // Whichever way the loop ends, the builders and bit sets it reaches hold what it made of
  // them: a function of its arguments, the same in both versions.
  for (std::size_t i = 0; i < reached.size(); ++i) {
    const Term ref = reached[i];
    if (!ref || tm_.sort(ref) != Sort::Ref || tm_.node(ref).bits == 0) continue;
    Object& o = deref(s, ref);
    if (o.is_array || !changeableLibraryClass(o.cls)) continue;
    o.ident = tm_.apply(base + ":object" + std::to_string(i), terms::FunKind::Uif, Sort::Int, args);
    o.dirty = true;
    o.chars = false;  // (a builder's characters are no longer known)
    o.elems.clear();
  }
}

bool Interpreter::callReceiversReached(State& s, const LoopSummaryHook& hook, const std::vector<Term>& reached) {
  // A loop that calls CharSequence.charAt/length or Random.next* runs them on what its locals hold or on
  // elements of its arrays. The summary lets the loop change the objects its locals hold (below);
  // an element of an array of any class other than strings and boxes could be changed too
  // without the summary knowing of it: such a loop runs.
  // Except a one-dimensional array past the bound: no element of it is held (reading one cuts
  // the path), so its content is known by its identity alone, which the summary makes a
  // function of the loop's arguments (havocCallReceivers).
  if (!hook.calls_on_receivers) return true;
  for (Term v : reached) {
    if (!v || tm_.sort(v) != Sort::Ref || tm_.node(v).bits == 0) continue;
    const Object& o = deref(s, v);
    if (o.is_array && o.elem_sort == Sort::Ref && !immutableValueClass(elementType(o.cls)) &&
        (!o.long_length || o.cls.rfind("[[", 0) == 0))
      return false;
  }
  return true;
}

void Interpreter::havocCallReceivers(State& s, const std::vector<Term>& reached, const std::string& base,
                                         const std::vector<Term>& args) {
  // Whichever way the loop ends, charAt and length may have run code of the receivers' own
  // (an input CharSequence or Random may be of any class): each object its locals hold that is not a
  // string or a box, or a builder made here, holds a function of the loop's arguments, the
  // same in both versions; a program object's fields are unknown functions of it, as after
  // an unmodelled call.
  for (std::size_t i = 0; i < reached.size(); ++i) {
    const Term ref = reached[i];
    if (!ref || tm_.sort(ref) != Sort::Ref || tm_.node(ref).bits == 0) continue;
    Object& o = deref(s, ref);
    if (o.is_array && o.elem_sort == Sort::Ref && o.long_length && !immutableValueClass(elementType(o.cls))) {
      // Its elements (none held) may be objects whose calls changed them: its content, known by
      // its identity, is a function of the loop's arguments.
      o.ident = tm_.apply(base + ":elements" + std::to_string(i), terms::FunKind::Uif, Sort::Int, args);
      o.dirty = true;
      continue;
    }
    if (o.is_array || (immutableValueClass(o.cls) && !o.havocked)) continue;
    if (changeableLibraryClass(o.cls) && o.exact_library && o.input < 0) continue;  // (a builder's charAt reads)
    const Term after = tm_.apply(base + ":sequence" + std::to_string(i), terms::FunKind::Uif, Sort::Int, args);
    o.ident = after;
    o.dirty = true;
    o.chars = false;
    o.elems.clear();
    if (program_.find(kOld, o.cls) || program_.find(kNew, o.cls) || o.input >= 0) {
      o.havocked = true;
      o.havoc_base = after;
      o.fields.clear();
    }
  }
}

void Interpreter::havocSummarisedArrays(State& s, const std::vector<Term>& reached, const std::string& base,
                                        const std::vector<Term>& args) {
  // Whichever way it ends, the loop may have stored into the primitive arrays it reaches: their
  // elements (or, past the bound, their identities) become functions of the same arguments,
  // the same in both versions.
  for (std::size_t i = 0; i < reached.size(); ++i) {
    const Term ref = reached[i];
    if (!ref || tm_.sort(ref) != Sort::Ref || tm_.node(ref).bits == 0) continue;
    Object& o = deref(s, ref);
    if (!o.is_array || o.elem_sort == Sort::Ref) continue;
    const std::string tag = base + ":array" + std::to_string(i);
    o.dirty = true;
    if (o.long_length) {
      o.ident = tm_.apply(tag, terms::FunKind::Uif, Sort::Int, args);
      continue;
    }
    o.ident = Term{};
    for (std::size_t k = 0; k < o.elems.size(); ++k)
      o.elems[k] =
          narrowTo(tm_, o.elem_kind, tm_.apply(tag + "[" + std::to_string(k) + "]", terms::FunKind::Uif, o.elem_sort, args));
  }
}

void Interpreter::writeSummarisedFields(State& s, const LoopSummaryHook& hook, const std::string& base,
                                        const std::vector<Term>& args) {
  // Whichever way it ends, the loop may have written the primitive fields it writes of the
  // objects its reference locals hold: each becomes a function of its arguments, the same in
  // both versions, named after the first of the locals holding the object (the locals' aliasing
  // is part of the functions' names, loopSummaryArguments), so one written through two locals
  // is one value. A null local's object was never written (the loop threw, or never used it).
  const Frame& f = s.frames.back();
  for (const auto& [slot, name, desc] : hook.field_writes) {
    const Term ref = localOf(f, slot);
    if (!ref || tm_.sort(ref) != Sort::Ref || tm_.node(ref).bits == 0) continue;
    int first = slot;
    for (int other : hook.ref_reads)
      if (localOf(f, other) == ref) {
        first = other;
        break;
      }
    const char kind = desc.empty() ? 'I' : desc[0];
    const Term v = narrowTo(tm_, kind, tm_.apply(base + ":field" + std::to_string(first) + "." + name + ":" + desc,
                                                 terms::FunKind::Uif, sortOfDescriptor(kind), args));
    Object& o = deref(s, ref);
    o.fields[name] = v;
    o.dirty = true;
    o.ident = Term{};
  }
}

std::vector<std::string> Interpreter::possibleExceptions(State& s, const LoopSummaryHook& hook, std::string& sig) {
  // The loop's exceptions, less those its state rules out: with every reference local holding
  // a non-null object (and no element, array field or library object read, which may be
  // null), no NullPointerException — a summarised loop's NPE is always a null dereference of
  // what it reaches; with every one holding an array as well, no IllegalArgumentException where
  // only Array.getLength could throw it. Which were left out is part of the functions' names
  // (`sig`), so two states that decide differently share no function.
  std::vector<std::string> out = hook.exceptions;
  const Frame& f = s.frames.back();
  bool nonNull = !hook.reads_objects && !hook.calls_on_receivers && !hook.changes_library_objects;
  for (const auto& field : hook.field_reads)
    if (!std::get<2>(field).empty() && (std::get<2>(field)[0] == '[' || std::get<2>(field)[0] == 'L')) nonNull = false;
  bool arrays = true;
  for (int slot : hook.ref_reads) {
    const Term v = localOf(f, slot);
    if (!v || tm_.sort(v) != Sort::Ref || tm_.node(v).bits == 0) {
      nonNull = false;
      arrays = false;
      continue;
    }
    const Object& o = deref(s, v);
    if (o.maybe_null) nonNull = false;
    if (!o.is_array || o.opaque) arrays = false;
  }
  auto drop = [&out, &sig](const char* cls, char mark) {
    auto it = std::find(out.begin(), out.end(), cls);
    if (it == out.end()) return;
    out.erase(it);
    sig += mark;
  };
  if (nonNull) drop("java/lang/NullPointerException", 'n');
  if (nonNull && arrays && hook.iae_from_lengths_only) drop("java/lang/IllegalArgumentException", 'i');
  return out;
}

std::optional<StepOutcome> Interpreter::enterLoopSummary(State& s) {
  const LoopSummaryHook* hook = loopSummaryAt(s);
  if (!hook) return std::nullopt;
  // Reading the fields materialises input objects between decisions (a string field's nullness
  // and aliasing, then the outcome): a copy re-executing the header starts from before them.
  explorer_.keepInstructionStart(s);
  const std::optional<std::vector<Term>> reached = reachedArrays(s, *hook);
  if (!reached) return StepOutcome::Ended;
  // An array field read for the first time: its input array gets its length first (the next
  // step), then the header is visited again — the decision to summarise must not depend on
  // which version touched the array first (the new version's run was summarised at its first
  // visit, the old one's a visit later: different functions, MAYBE_NEQ on identical code).
  if (!s.pending.empty() || !s.pending_lengths.empty()) return StepOutcome::Continue;
  if (!worthSummarising(s, *hook, *reached) || !storesOnlyIntoReachedArrays(s, *hook, *reached) ||
      !elementsKnownByTheirArrays(s, *hook, *reached) ||
      !libraryReceiversKnown(s, *hook, *reached) || !callReceiversReached(s, *hook, *reached))
    return std::nullopt;
  std::vector<Term> args;
  std::string sig;
  std::optional<StepOutcome> stop;
  if (!loopSummaryArguments(s, *hook, *reached, args, sig, stop)) return stop;
  const std::vector<std::string> exceptions = possibleExceptions(s, *hook, sig);
  const std::string base = hook->fn + "(" + sig + ")";
  // Which way it ends: exit k, return r, or exception x, in that order.
  const std::size_t n = hook->exits.size() + hook->returns.size() + exceptions.size();
  if (n == 0) return std::nullopt;
  std::size_t k = n - 1;
  if (n > 1) {
    Term outcome = tm_.apply(base + ":outcome", terms::FunKind::Uif, Sort::Int, args);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      std::optional<bool> d = explorer_.branch(s, tm_.eq(outcome, tm_.intLit(static_cast<std::int32_t>(i))), false);
      if (!d) return StepOutcome::Ended;
      if (*d) {
        k = i;
        break;
      }
    }
  }
  explorer_.note(s, "loops of code identical in both versions are summarised by shared functions");
  if (hook->stores_arrays) havocSummarisedArrays(s, *reached, base, args);
  if (hook->changes_library_objects) havocLibraryObjects(s, *reached, base, args);
  if (hook->calls_on_receivers) havocCallReceivers(s, *reached, base, args);
  writeSummarisedFields(s, *hook, base, args);
  if (k < hook->exits.size()) {
    Frame& top = s.frames.back();
    for (auto [slot, kind] : hook->writes) {
      Term v = tm_.apply(base + ":" + std::to_string(slot), terms::FunKind::Uif, sortOfDescriptor(kind), args);
      const std::size_t need = static_cast<std::size_t>(slot) + ((kind == 'J' || kind == 'D') ? 2 : 1);
      if (top.locals.size() < need) top.locals.resize(need);
      top.locals[static_cast<std::size_t>(slot)] = v;
    }
    return jumpTo(s, static_cast<std::int32_t>(hook->exits[k]));
  }
  k -= hook->exits.size();
  if (k < hook->returns.size()) {
    const auto [retPc, kind] = hook->returns[k];
    if (kind == 'V') return returnFrom(s, std::nullopt);
    return returnFrom(s, tm_.apply(base + ":return@" + std::to_string(retPc), terms::FunKind::Uif,
                                   sortOfDescriptor(kind), args));
  }
  return throwNew(s, exceptions[k - hook->returns.size()]);
}

}  // namespace pasda::symexec
