// Internal to symexec: coupled loops (ExecOptions::coupled_loops, issue 13). A loop of the old
// version and one of the new are summarised by functions of their variables, and related by a
// coupling invariant proved inductive over one iteration of both bodies (docs/depth-limit.md,
// "Coupled loops").
#pragma once

#include <functional>
#include <unordered_map>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "pasda/solver/horn.hpp"
#include "pasda/symexec/affine.hpp"
#include "state.hpp"

namespace pasda::symexec {

/// How a summarised loop ends: at one of its exits, by a return inside it, or by an exception.
struct LoopOutcome {
  enum class Kind : std::uint8_t { Exit, Return, Throw };
  Kind kind = Kind::Exit;
  std::size_t exit = 0;    // Exit: index into LoopSummaryHook::exits
  char ret_kind = 'V';     // Return: the kind of the value ('V' for none)
  std::string exception;   // Throw: internal class name
  bool operator==(const LoopOutcome&) const = default;
};

/// A loop's outcomes in a fixed order: its exits, one return (if it has return instructions;
/// they return the same kind), then its exceptions. Empty when its returns differ in kind.
std::vector<LoopOutcome> loopOutcomes(const LoopSummaryHook& h);

/// One conjunct of a coupling invariant over the variables (local slots) of two coupled loops:
/// a == b, a - b == c, a == c, or an affine equality over any of them (Formula, from Karr's
/// analysis: a Bool term over the loops' symbolic header variables).
struct Conjunct {
  enum class Kind : std::uint8_t { Equal, Offset, Constant, Formula };
  Kind kind = Kind::Equal;
  Version va = Version::kOld, vb = Version::kNew;
  int a = 0, b = 0;  // slots (b unused for Constant, neither for Formula)
  Term c;            // Offset: a - b == c; Constant: a == c; Formula: the formula
  bool operator<(const Conjunct& o) const;
  bool operator==(const Conjunct& o) const;
};

/// Values of the loop variables of each version: slot -> value.
using LoopState = PerVersion<std::map<int, Term>>;

class LoopCoupler {
 public:
  LoopCoupler(const Program& program, terms::TermManager& tm, const ExecOptions& opt)
      : program_(program), tm_(tm), opt_(opt) {}

  /// The pair whose loop of the top frame's version has its header at the frame's current
  /// instruction in the compared method (null: none).
  const CoupledLoop* at(const Frame& f);
  /// The loop variables of `v`'s loop: the locals it reads or writes, with their kinds.
  static std::vector<std::pair<int, char>> variables(const LoopSummaryHook& h);
  /// Candidate conjuncts over the two loops' variables given their entry values: equalities of
  /// variables of one sort, offsets between integral ones whose entry difference folds to a
  /// literal, and variables whose entry value is a literal.
  /// `aligned`: only variables of one name (the same slot without names) across the versions,
  /// and variables the loops do not write within a version — the relations lock-step code
  /// usually keeps, tried first; otherwise every pair of one sort.
  std::vector<Conjunct> candidates(const CoupledLoop& c, const LoopState& entry, bool aligned);
  Term instantiate(const Conjunct& k, const LoopState& st);

  /// How many iterations of each version's loop one step of the proof takes: 1 and 1 is lock
  /// step; 2 and 1 couples two iterations of the old loop with one of the new (an unrolled or
  /// a halved loop).
  using Ratio = PerVersion<int>;
  struct Proof {
    std::vector<Conjunct> inductive;  // holds at every pair of header visits
    std::vector<Conjunct> at_exit;    // holds at the exits (corresponding exits are taken together)
  };
  /// The largest subset of `initial` (which holds at the entries) that is inductive for the
  /// two loop bodies, under which they take corresponding outcomes together and returns inside
  /// them return equal values; nullopt when there is none (or the solver cannot tell). In lock
  /// step; with `ratios`, at steps of two or three iterations of one loop against one of the
  /// other instead (kRatios; tried after lock step failed with every set of candidates).
  std::optional<Proof> prove(const CoupledLoop& c, const std::vector<Conjunct>& initial, bool ratios = false);
  /// "c(new) == c(old) + 1, i(new) == i(old)" with the locals' source names.
  std::string describe(const CoupledLoop& c, const std::vector<Conjunct>& ks) const;

  const std::set<std::string>& notes() const { return notes_; }
  void note(const std::string& n) { notes_.insert(n); }
  const MethodInfo* method(Version v, const CoupledLoop& c);

 private:
  /// One path of one iteration of a loop body from a symbolic header state.
  struct BodyPath {
    std::vector<Term> pc;
    bool back = false;  // reached the header again
    bool cut = false;   // ended for a bound of the exploration
    LoopOutcome outcome;
    Term ret;
    std::map<int, Term> post;  // loop variables where it ended (back or exit)
  };
  struct Bodies {
    LoopState header;  // the symbolic header state
    PerVersion<std::vector<BodyPath>> paths;
    std::string failure;  // "" when both bodies were explored completely
  };
  /// Conjuncts assumed at the header, as the substitution their equalities and constants
  /// define (a variable by its class's representative: a literal, or one variable of the
  /// class; an offset's variable by the other's term) and the facts it does not encode. A
  /// formula with the conjuncts is satisfiable exactly when its substitution with the facts
  /// is: the substituted variables take the values the conjuncts give them.
  struct Assumed {
    std::unordered_map<Term, Term, terms::TermHash> sigma;
    std::vector<Term> facts;
  };
  /// A body path under an Assumed: its path condition, post state and returned value substituted.
  struct PathView {
    const BodyPath* path = nullptr;
    Term pc;
    std::map<int, Term> post;
    Term ret;
  };
  Assumed assume(const std::vector<Conjunct>& ks, const LoopState& header);
  /// A conjunction with an atom and its negation (two paths that branch apart on equal terms).
  bool contradictory(Term conj) const;
  std::vector<PathView> view(const std::vector<BodyPath>& paths, const Assumed& a);
  /// The bodies of one step at `r` (src/symexec/coupled_bodies.cpp), explored once per ratio.
  const Bodies& bodies(const CoupledLoop& c, Ratio r);
  /// `times` iterations of `v`'s body from the symbolic header state: paths that come back
  /// after all of them, and paths that leave in any of them.
  std::string exploreBody(const CoupledLoop& c, Version v, Bodies& b, int times);
  /// prove() at one ratio; `where` names the loop pair in the notes.
  std::optional<Proof> proveAt(const CoupledLoop& c, const std::vector<Conjunct>& initial, Ratio r,
                               const std::string& where);
  /// Satisfiability of `facts` on the proof solver; after Sat, `probe`'s values in the model
  /// (true only for those that evaluate to true).
  solver::Status query(const std::vector<Term>& facts, const std::vector<Term>& probe, std::vector<bool>* holds);
  /// Drop from `ks` what fails at the ends of the path pairs `select` accepts, until none fails.
  /// `assumed` at the header (null: `ks` itself, the inductive case).
  bool houdini(const Bodies& b, std::vector<Conjunct>& ks, const std::vector<Conjunct>* assumed,
               const std::function<bool(const BodyPath&, const BodyPath&)>& select);
  /// One round of houdini: the first pair of paths `select` accepts at whose ends `ks` fails
  /// drops what fails there. nullopt: the solver could not tell.
  std::optional<bool> dropFailing(const Bodies& b, std::vector<Conjunct>& ks, const std::vector<Conjunct>& assumed,
                                  const std::function<bool(const BodyPath&, const BodyPath&)>& select);
  bool outcomesCorrespond(const Bodies& b, const std::vector<Conjunct>& ks);
  std::vector<Term> all(const std::vector<Conjunct>& ks, const LoopState& st);
  /// The second source of candidates: the affine equalities over the loops' integral variables
  /// that hold at the entries (as far as `initial` says) and after every pair of body
  /// iterations that `inductive` leaves feasible (Karr's analysis), those with more than two
  /// variables or other coefficients than 1 and -1 (the others are Equal/Offset/Constant
  /// candidates already), each checked to follow from `initial` under the analysed arithmetic.
  std::vector<Conjunct> affineCandidates(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& initial,
                                         const std::vector<Conjunct>& inductive);
  /// The third source: the conjuncts of an invariant Spacer finds for Horn clauses over the two
  /// bodies (src/symexec/coupled_horn.cpp) that keeps the loops in lock step and `goals` (the
  /// cross-version equalities of `initial` that `inductive` lost) equal at the exits; tried only
  /// when the loops are not in lock step under `inductive` or a goal was lost.
  std::vector<Conjunct> hornCandidates(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& initial,
                                       const std::vector<Conjunct>& inductive, const std::vector<Conjunct>& goals);
  /// The Horn clauses over both bodies without the goals: the relation's variables, the entry,
  /// the steps and the bad pairs; the states after the pairs leaving by one exit together, where
  /// the goals are added per try.
  struct HornClauses {
    solver::HornProblem base;
    std::vector<std::pair<Term, LoopState>> exits;
  };
  /// Whether to ask Spacer at all: not past the bound of pairs of body paths, and only when a
  /// goal was lost or the loops are not in lock step.
  bool hornWorthTrying(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& inductive,
                       const std::vector<Conjunct>& goals);
  /// nullopt: no numeric loop variable to relate.
  std::optional<HornClauses> hornClauses(const Bodies& b, const std::vector<Conjunct>& initial,
                                         const std::vector<Conjunct>& inductive);
  /// Spacer on `h` with all the goals, then each alone, within the time; the conjuncts found.
  std::vector<Conjunct> askSpacer(const CoupledLoop& c, const HornClauses& h, const std::vector<Conjunct>& goals);
  /// `inductive` widened by hornCandidates where Houdini keeps them all inductive together, then
  /// stripped of each Spacer conjunct the proof does not need.
  void widenByHorn(const CoupledLoop& c, const Bodies& b, const std::vector<Conjunct>& initial,
                   std::vector<Conjunct>& inductive);
  /// Karr's maps: one per distinct pair of back paths of the two bodies that `inductive`
  /// leaves feasible, over `coords` (nullopt: too many pairs).
  std::optional<std::vector<affine::Map>> iterationMaps(const Bodies& b, const std::vector<Conjunct>& inductive,
                                                        const std::vector<Term>& coords);
  /// An equality over `coords` as a conjunct (nullopt: mixed sorts or out of range).
  std::optional<Conjunct> affineConjunct(const affine::Equality& e, const std::vector<Term>& coords);

  const Program& program_;
  terms::TermManager& tm_;
  const ExecOptions& opt_;
  std::map<std::pair<const MethodInfo*, std::uint32_t>, const CoupledLoop*> at_;
  bool resolved_ = false;
  std::map<std::tuple<int, int, int>, Bodies> bodies_;  // (pair, old iterations, new iterations)
  /// The symbolic header variables of every explored body: (version, slot) of each.
  std::unordered_map<Term, std::pair<Version, int>, terms::TermHash> header_vars_;
  std::map<std::tuple<int, bool, std::vector<Conjunct>>, std::optional<Proof>> proofs_;
  std::set<std::string> notes_;
};

}  // namespace pasda::symexec
