// Beyond the solver (issue 8): every NEQ / MAYBE_NEQ witness is replayed concretely; where
// the solver could not decide, a search for differing inputs runs within a share of the run's
// time. A replayed difference (confirmed at high precision in the math model) proves NEQ.
#include "witnesses.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "pasda/terms/java_semantics.hpp"
#include "pasda/witness/witness.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Term;

/// Arrays past --max-array-length are replayed up to this length (their elements spelled out).
constexpr std::int64_t kMaxReplayedLength = 4096;

namespace {

/// Whether both versions were read from class paths: the JVM replay then runs each version in
/// a JVM of its own over its class path (callees elsewhere in the release included).
bool onClassPaths(const Prepared& pr) {
  return pr.old_classpath && pr.new_classpath && !pr.old_classpath->entries().empty() &&
         !pr.new_classpath->entries().empty();
}

/// An undetermined reference input (the shape could not be rebuilt).
witness::InputValue refValue() {
  witness::InputValue v;
  v.sort = terms::Sort::Ref;
  return v;
}

/// Does `t` read a value of the run — the clock, an identity hash (lib::appendSources's "clock#"
/// and "run#" symbols)?
bool readsTheRun(const terms::TermManager& tm, Term t) {
  if (!t) return false;
  std::vector<Term> stack{t};
  std::set<std::uint32_t> seen;
  while (!stack.empty()) {
    const Term cur = stack.back();
    stack.pop_back();
    if (!seen.insert(cur.id).second) continue;
    const terms::Node& n = tm.node(cur);
    if (n.op == terms::Op::Apply && (n.name.rfind("run#", 0) == 0 || n.name == "clock#")) return true;
    for (Term a : n.args) stack.push_back(a);
  }
  return false;
}

const symexec::InputShape* shapeAt(const symexec::RawPartition& p, const std::string& path) {
  for (const symexec::InputShape& sh : p.input_shapes)
    if (sh.path == path) return &sh;
  return nullptr;
}

}  // namespace

bool vmInternalClass(const std::string& cls) {
  for (const char* prefix : {"java/lang/reflect/", "java/lang/invoke/", "java/lang/ref/", "jdk/internal/", "sun/"})
    if (cls.rfind(prefix, 0) == 0) return true;
  for (const char* exact : {"java/lang/Class", "java/lang/ClassLoader", "java/lang/Module", "java/lang/ModuleLayer",
                            "java/lang/StackWalker"})
    if (cls == exact) return true;
  return false;
}

namespace {

/// An object input: its class and the fields the path read, each built like an input (a field
/// that holds an input reached by another path first, an alias, is not buildable). An object
/// of a class whose instances the JVM itself makes and relies on (a reflective Method, a
/// MethodHandle, a Class: vmInternalClass) is not buildable: one allocated without
/// its constructor crashed the replay JVM (MethodHandles.Lookup.unreflect of a `Method{}`).
witness::InputValue objectValue(const symexec::RawPartition& p, const symexec::InputShape& shape,
                                const std::function<std::uint64_t(Term)>& valueOf) {
  using Ref = witness::InputValue::Ref;
  witness::InputValue v;
  v.sort = terms::Sort::Ref;
  if (shape.other_state || vmInternalClass(shape.cls)) return v;
  v.ref = Ref::Object;
  v.cls = shape.cls;
  for (const symexec::InputShape::Field& f : shape.fields) {
    witness::InputValue fv;
    jvm::TypeDesc t;
    try {
      t = jvm::parseFieldDescriptor(f.desc);
    } catch (const std::exception&) {
      return refValue();
    }
    fv.sort = symexec::sortOf(t);
    if (!f.reference) {
      fv.bits = f.value ? valueOf(f.value) : 0;
    } else if (f.target.empty()) {
      fv.ref = Ref::Null;
    } else {
      const symexec::InputShape* target = shapeAt(p, f.target);
      if (!target || f.target != symexec::inputFieldPath(shape.path, shape.cls, f.name)) return refValue();
      fv = shapeValue(p, *target, valueOf);
      if (!fv.buildable()) return refValue();
    }
    v.field_names.push_back(f.name);
    v.field_descs.push_back(f.desc);
    v.field_values.push_back(std::move(fv));
  }
  return v;
}

}  // namespace

bool partitionReadsTheRun(const terms::TermManager& tm, const symexec::RawPartition& raw) {
  for (Term c : raw.pc)
    if (readsTheRun(tm, c)) return true;
  for (const symexec::ExecEffect* e : {&raw.old_effect, &raw.new_effect}) {
    if (readsTheRun(tm, e->value)) return true;
    for (const auto& [path, v] : e->state)
      if (readsTheRun(tm, v)) return true;
  }
  return false;
}

witness::InputValue shapeValue(const symexec::RawPartition& p, const symexec::InputShape& shape,
                               const std::function<std::uint64_t(Term)>& valueOf) {
  using Ref = witness::InputValue::Ref;
  witness::InputValue v;
  v.sort = terms::Sort::Ref;
  if (!shape.is_array && shape.cls != "java/lang/String") return objectValue(p, shape, valueOf);
  if (shape.other_state) return v;
  if (shape.is_array) {
    if (shape.cls.size() < 2) return v;
    v.ref = Ref::Array;
    v.elem = shape.cls.substr(1);
    const bool references = v.elem[0] == 'L' || v.elem[0] == '[';
    for (Term e : shape.elements) v.elems.push_back(references ? 0 : valueOf(e));  // reference elements: null
    if (shape.length_term) {  // past the bound, no element read: zeros (nulls) of the model's length
      const auto n = static_cast<std::int64_t>(static_cast<std::int32_t>(valueOf(shape.length_term)));
      if (n < 0 || n > kMaxReplayedLength) {
        v.ref = Ref::None;  // (a length a witness cannot spell out: not replayed)
        return v;
      }
      v.elems.assign(static_cast<std::size_t>(n), 0);
    }
    return v;
  }
  v.ref = Ref::String;
  for (Term e : shape.elements) v.elems.push_back(valueOf(e) & 0xFFFFu);
  return v;
}

witness::InputValue referenceInput(const symexec::RawPartition& p, const std::string& name,
                                   const std::function<std::uint64_t(Term)>& valueOf) {
  using Ref = witness::InputValue::Ref;
  witness::InputValue v;
  v.sort = terms::Sort::Ref;
  for (const std::string& f : p.heap) {
    if (f == name + " == null") {
      v.ref = Ref::Null;
      return v;
    }
    if (f.rfind(name + " == ", 0) == 0) return v;  // the same object as another input
  }
  const symexec::InputShape* shape = shapeAt(p, name);
  if (!shape) {  // never looked at on the path: any value will do
    v.ref = Ref::Null;
    return v;
  }
  return shapeValue(p, *shape, valueOf);
}

witness::CallContext callContext(const symexec::RawPartition& p, bool instance,
                                 const std::function<std::uint64_t(Term)>& valueOf) {
  witness::CallContext c;
  c.receiver.sort = terms::Sort::Ref;
  if (instance) {
    const symexec::InputShape* self = shapeAt(p, "this");
    if (self) {
      c.receiver = shapeValue(p, *self, valueOf);
    } else {  // the receiver's state was never read: any object of the class
      c.receiver.ref = witness::InputValue::Ref::Object;
      c.receiver.cls = "<main>";
    }
  }
  c.statics.sort = terms::Sort::Ref;
  for (const symexec::InputShape& sh : p.input_shapes)
    if (sh.cls == "<statics>") c.statics = shapeValue(p, sh, valueOf);
  return c;
}

WitnessStage::WitnessStage(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
                           const symexec::MethodInputs& inputs, terms::TermManager& tm)
    : env_(env), inputs_(inputs), tm_(tm), program_(&program), run_(&run) {
  const Options& o = *env.options;
  enabled_ = o.replay != "off";
  for (Term t : inputs.terms) has_references_ = has_references_ || tm.sort(t) == terms::Sort::Ref;
  instance_ = !env.prepared.is_static && !env.prepared.is_constructor;
  renv_.program = &program;
  renv_.product_run = &run;
  renv_.product_class = env.prepared.product_name;
  renv_.main_class[symexec::kOld] = env.prepared.old_name;
  renv_.main_class[symexec::kNew] = env.prepared.new_name;
  renv_.input_types = inputs.types;
  renv_.arith = o.arith;
  renv_.session = o.jvm_session.get();
  double total = o.timeout_s * o.search_share;
  search_left_s_ = std::min(total, o.time.search_cap_s);
  deep_search_left_s_ = o.deep_search ? std::min(o.timeout_s * o.time.deep_search_share, o.time.deep_search_cap_s) : 0;
}

std::vector<witness::InputValue> WitnessStage::valuesOf(const std::vector<Term>& model) const {
  std::vector<witness::InputValue> out;
  for (std::size_t i = 0; i < inputs_.terms.size(); ++i) {
    witness::InputValue v;
    v.sort = tm_.sort(inputs_.terms[i]);
    if (i < model.size() && model[i]) v.bits = tm_.node(model[i]).bits;
    out.push_back(v);
  }
  return out;
}

witness::SearchProblem WitnessStage::problem(const symexec::RawPartition& raw, Clock::time_point deadline,
                                             const std::vector<Term>& seed) const {
  witness::SearchProblem p;
  p.tm = &tm_;
  p.pc = raw.pc;
  if (raw.old_effect.kind == symexec::ExecEffect::Kind::Return) p.out_old = raw.old_effect.value;
  if (raw.new_effect.kind == symexec::ExecEffect::Kind::Return) p.out_new = raw.new_effect.value;
  p.inputs = inputs_.terms;
  p.input_types = inputs_.types;
  for (std::size_t i = 0; i < inputs_.terms.size(); ++i)
    p.seed.push_back(i < seed.size() && seed[i] ? std::optional<Term>(seed[i]) : std::nullopt);
  p.arith = env_.options->arith;
  p.deadline = deadline;
  p.exceptions_differ = raw.error_mismatch;
  return p;
}

void WitnessStage::queueForJvmOnly(const PartitionResult& r, const std::vector<Term>& model,
                                   const std::vector<witness::InputValue>& refs, const witness::CallContext& context,
                                   bool effects) {
  // The interpreter's replay builds no input objects, sets no static fields and compares no
  // heap effects: such a witness goes to the JVM only (replayAllInJvm), whose different
  // results prove NEQ; with heap effects, equal results there contradict nothing (the JVM
  // compares results only).
  if ((r.result != Verdict::NEQ && r.result != Verdict::MAYBE_NEQ) || r.witness_call.empty()) return;
  if (instance_ && !context.receiver.buildable()) return;
  if (context.statics.ref == witness::InputValue::Ref::Object && !context.statics.buildable()) return;
  std::vector<witness::InputValue> vals = valuesOf(model);
  for (std::size_t i = 0; i < vals.size(); ++i)
    if (vals[i].sort == terms::Sort::Ref) {
      if (i >= refs.size() || !refs[i].buildable()) return;
      vals[i] = refs[i];
    }
  addJvmInputs(r.index, std::move(vals), context);
  if (effects) results_only_.insert(r.index);
}

void WitnessStage::recordFound(PartitionResult& r, Replay rep, const std::vector<witness::InputValue>& found) {
  r.replays.push_back(std::move(rep));
  r.result = Verdict::NEQ;
  r.decided_by = "search";
  r.witness.clear();
  for (std::size_t i = 0; i < found.size(); ++i) {
    WitnessValue w;
    w.name = inputs_.names[i];
    w.type = inputs_.types[i].javaName();
    w.literal = witness::javaLiteral(inputs_.types[i], found[i]);
    r.witness.push_back(w);
  }
  r.witness_call = javaCall(env_.prepared.name, r.witness);
  addJvmInputs(r.index, found);
}

void WitnessStage::process(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<Term>& model,
                           const std::vector<witness::InputValue>& refs, const witness::CallContext& context) {
  if (!enabled_) return;
  if (raw.depth_limited) {
    searchBeyondTheLimit(raw, r, model);
    return;
  }
  if (!raw.product_compare) return;
  const bool runDependent = partitionReadsTheRun(tm_, raw);  // (see witnesses.hpp)
  if (runDependent) run_dependent_.insert(r.index);
  const bool effects = !raw.old_effect.state.empty() || !raw.new_effect.state.empty();
  const bool statics = context.statics.ref == witness::InputValue::Ref::Object;
  if (has_references_ || effects || instance_ || statics) {
    queueForJvmOnly(r, model, refs, context, effects);
    return;
  }
  const bool java = env_.options->arith == terms::Arith::Java;
  const TimePolicy& t = env_.options->time;
  // Terms with abstractions cannot be evaluated: such partitions (MAYBE_REACHABLE paths, UIF
  // outputs) are confirmed on the unabstracted path and searched by replaying the real product.
  bool abstracted = (raw.old_effect.value && tm_.containsUif(raw.old_effect.value)) ||
                    (raw.new_effect.value && tm_.containsUif(raw.new_effect.value));
  for (Term c : raw.pc) abstracted = abstracted || tm_.containsUif(c);
  auto confirmed = [&](const std::vector<witness::InputValue>& vals, const analysis::Replay& rep) {
    if (!rep.differs || runDependent) return false;
    if (java) return true;
    if (abstracted) return confirmOnConcretePath(vals, Clock::now() + secondsOf(t.confirm_s));
    witness::SearchProblem p = problem(raw, Clock::now() + secondsOf(t.confirm_s), model);
    return witness::confirmMath(p, vals) == witness::MathCheck::Confirmed;
  };
  // One interpreter replay gets a share of the time left, within bounds.
  renv_.interp_timeout_s = std::clamp(std::chrono::duration<double>(env_.deadline - Clock::now()).count() *
                                          t.interp_replay_share,
                                      t.interp_replay_min_s, t.interp_replay_cap_s);
  if ((r.result == Verdict::NEQ || r.result == Verdict::MAYBE_NEQ) && !r.witness_call.empty()) {
    std::vector<witness::InputValue> vals = valuesOf(model);
    Replay rep = witness::replayInterp(renv_, vals);
    bool ok = confirmed(vals, rep);
    if (r.result == Verdict::NEQ && !rep.differs)
      rep.note += (rep.note.empty() ? "" : "; ") + std::string("the solver's witness does not replay to a difference");
    r.replays.push_back(rep);
    addJvmInputs(r.index, vals);
    if (r.result == Verdict::MAYBE_NEQ && ok) {
      r.result = Verdict::NEQ;
      r.decided_by = "replay";
    }
    // A MAYBE_NEQ whose model does not replay to a difference (an inexact function's model
    // value is not the real one) is searched like an undecided partition.
    if (r.result != Verdict::MAYBE_NEQ || rep.differs) return;
  }
  if (r.result != Verdict::UNKNOWN && r.result != Verdict::MAYBE_EQ && r.result != Verdict::MAYBE_NEQ) return;
  // An abstracted partition whose outputs were proved equal (MAYBE_EQ: only its reachability is
  // in doubt) is not searched: a concrete search is not tied to its path and would mostly spend
  // the time of equivalent programs.
  if (abstracted && r.result == Verdict::MAYBE_EQ) return;
  if (search_left_s_ <= t.search_min_s) return;
  auto now = Clock::now();
  double runLeft = std::chrono::duration<double>(env_.deadline - now).count();
  double share = std::min({search_left_s_, std::max(t.search_partition_min_s, runLeft * t.search_partition_share),
                           t.search_partition_cap_s, runLeft - t.search_reserve_s});
  if (share <= t.search_min_s) return;
  auto deadline = now + std::chrono::microseconds(static_cast<long long>(share * 1e6));
  std::optional<std::vector<witness::InputValue>> found;
  Replay rep;
  if (abstracted) {
    found = searchByReplay(model, deadline, rep);
  } else {
    found = witness::search(problem(raw, deadline, model));
    if (found) rep = witness::replayInterp(renv_, *found);
  }
  search_left_s_ -= std::chrono::duration<double>(Clock::now() - now).count();
  if (!found) return;
  if (!abstracted && !confirmed(*found, rep)) return;
  if (abstracted)
    rep.note += (rep.note.empty() ? "" : "; ") +
                std::string("found by concrete search: the programs differ on this input, which need not lie on "
                            "this (abstracted) partition's path");
  recordFound(r, std::move(rep), *found);
}

void WitnessStage::searchBeyondTheLimit(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<Term>& model) {
  // Only the decision budget cut the path (a deeper exploration could finish it), the inputs
  // are primitives, and the partition has no class yet but DEPTH_LIMITED.
  if (!raw.decision_limited || has_references_ || instance_ || r.result != Verdict::DEPTH_LIMITED) return;
  const TimePolicy& t = env_.options->time;
  auto now = Clock::now();
  const double runLeft = std::chrono::duration<double>(env_.deadline - now).count();
  const double share = std::min({deep_search_left_s_, t.deep_search_partition_cap_s, runLeft - t.search_reserve_s});
  if (share <= t.search_min_s) return;
  const auto deadline = now + secondsOf(share);
  Replay rep;
  // The concrete product runs each sample to its end, past the depth limit.
  std::optional<std::vector<witness::InputValue>> found = searchByReplay(model, deadline, rep, true);
  deep_search_left_s_ -= std::chrono::duration<double>(Clock::now() - now).count();
  if (!found) return;
  rep.note += (rep.note.empty() ? "" : "; ") +
              std::string("found by concrete search past the depth limit: the programs differ on this input, which "
                          "need not lie on this partition's path");
  recordFound(r, std::move(rep), *found);
}

void WitnessStage::addJvmInputs(int index, std::vector<witness::InputValue> args, const witness::CallContext& context) {
  jvm_inputs_.emplace_back(index, std::move(args));
  contexts_.push_back(context);
  warmUpJvm();
}

void WitnessStage::warmUpJvm() {
  const Options& o = *env_.options;
  if (renv_.session || (o.replay != "auto" && o.replay != "jvm")) return;
  // Versions on class paths start JVMs of their own with the replay: a session JVM would boot
  // sooner, but its class loader per request costs more than it saves on a single run (it is
  // used when the caller keeps one for many runs, as the release diff's workers do).
  if (onClassPaths(env_.prepared)) return;
  const double left = std::chrono::duration<double>(env_.deadline - Clock::now()).count() - o.time.jvm_reserve_s;
  if (left < o.time.jvm_min_s) return;  // (replayAllInJvm would not start one either)
  own_jvm_ = std::make_unique<witness::JvmSession>();
  if (own_jvm_->warmUp()) renv_.session = own_jvm_.get();
  else own_jvm_.reset();
}

std::vector<Term> WitnessStage::witnessTerms(int index) const {
  std::vector<Term> out;
  for (const auto& [i, vals] : jvm_inputs_)
    if (i == index) {
      out.clear();
      for (const witness::InputValue& v : vals) out.push_back(tm_.lit(v.sort, v.bits));
    }
  return out;
}

void WitnessStage::enableConcreteSearch(const symexec::ExecOptions& eo, const std::vector<Term>& run_args) {
  concrete_eo_ = eo;
  concrete_eo_->regions.clear();
  concrete_eo_->abstracted_methods.clear();
  run_args_ = run_args;
}

bool WitnessStage::confirmOnConcretePath(const std::vector<witness::InputValue>& vals, Clock::time_point deadline) {
  if (env_.options->arith == terms::Arith::Java) return true;  // Java's equality: the replay decides
  if (!concrete_eo_ || !program_ || !run_) return false;
  // Explore the unabstracted product with the inputs pinned to the witness: the path that is
  // feasible over the reals for these values, with its terms still symbolic, so that
  // confirmMath can evaluate them at high precision.
  std::vector<Term> pinned = inputs_.constraints;
  for (std::size_t i = 0; i < inputs_.terms.size() && i < vals.size(); ++i)
    pinned.push_back(tm_.eq(inputs_.terms[i], tm_.lit(vals[i].sort, vals[i].bits)));
  symexec::ExecOptions eo = *concrete_eo_;
  eo.deadline = std::min(eo.deadline, deadline);
  // One input, one path: the depth limit, which bounds the exploration of a symbolic loop, is
  // lifted here (the instruction budget and the deadline still bound the run).
  eo.depth_limit = 1000000;
  solver::SolverOptions so;
  so.timeout_ms = std::min(env_.options->solver_timeout_ms ? env_.options->solver_timeout_ms : 1000u, 500u);
  std::unique_ptr<solver::Solver> solver = solver::makeZ3Solver(tm_, so);
  bool ok = false;
  try {
    symexec::Executor ex(*program_, tm_, *solver, eo);
    ex.explore(*run_, run_args_, pinned, [&](const symexec::RawPartition& raw, solver::Solver&) {
      if (ok || !raw.product_compare || raw.depth_limited) return;
      if (!raw.old_effect.state.empty() || !raw.new_effect.state.empty()) return;
      witness::SearchProblem p = problem(raw, deadline, {});
      ok = witness::confirmMath(p, vals) == witness::MathCheck::Confirmed;
    });
  } catch (const std::exception&) {
    return false;
  }
  return ok;
}

std::optional<std::vector<witness::InputValue>> WitnessStage::searchByReplay(const std::vector<Term>& model,
                                                                             Clock::time_point deadline,
                                                                             Replay& rep, bool ascending) {
  std::mt19937_64 rng(0x9e3779b97f4a7c15ULL ^ (samples_ * 0x100000001b3ULL));
  std::vector<witness::InputValue> seed = valuesOf(model);
  const double edges[] = {0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, 10.0, -10.0, 100.0, -100.0, 1e-3, 1e3, 1e6, -1e6};
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto valueOf = [&](const witness::InputValue& v) -> double {
    switch (v.sort) {
      case terms::Sort::Double: case terms::Sort::Float: return terms::semantics::Value{v.sort, v.bits}.asDouble();
      default: return static_cast<double>(static_cast<std::int64_t>(v.bits));
    }
  };
  auto make = [&](terms::Sort s, double d) {
    witness::InputValue v;
    v.sort = s;
    switch (s) {
      case terms::Sort::Double: v.bits = terms::semantics::bitsOfDouble(d); break;
      case terms::Sort::Float: v.bits = terms::semantics::bitsOfFloat(static_cast<float>(d)); break;
      case terms::Sort::Bool: v.bits = d != 0 ? 1 : 0; break;
      case terms::Sort::Int:
        v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(
            static_cast<std::int32_t>(std::clamp(std::round(d), -2147483648.0, 2147483647.0))));
        break;
      default: v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(std::clamp(std::round(d), -9.2e18, 9.2e18)));
    }
    return v;
  };
  // Past the depth limit, loops run longer the larger the inputs: every input on a ladder of
  // growing magnitudes first (the concrete runs and their confirmation stay short), then samples.
  const double ladder[] = {3, 7, 15, 30, 60, 120, 250, 500, 1000};
  const int first = ascending ? static_cast<int>(std::size(ladder)) : 0;
  for (int k = 0; k < first && Clock::now() < deadline; ++k) {
    std::vector<witness::InputValue> cand = seed;
    for (std::size_t i = 0; i < cand.size(); ++i) cand[i] = make(seed[i].sort, ladder[k]);
    Replay r = witness::replayInterp(renv_, cand);
    if (!r.differs || !confirmOnConcretePath(cand, deadline)) continue;
    rep = r;
    return cand;
  }
  for (int n = 0; n < 400 && Clock::now() < deadline; ++n, ++samples_) {
    std::vector<witness::InputValue> cand = seed;
    for (std::size_t i = 0; i < cand.size(); ++i) {
      if (n > 0 && unit(rng) < 0.3) continue;  // keep some coordinates of the seed
      double base = valueOf(seed[i]);
      double d;
      double pick = unit(rng);
      if (n == 0) d = base;
      else if (pick < 0.4) d = edges[rng() % std::size(edges)];
      else if (pick < 0.7) d = base * (1.0 + (unit(rng) - 0.5)) + (unit(rng) - 0.5);
      else d = (unit(rng) - 0.5) * 2.0 * std::pow(10.0, static_cast<int>(rng() % 7) - 2);
      cand[i] = make(seed[i].sort, d);
    }
    Replay r = witness::replayInterp(renv_, cand);
    if (!r.differs) continue;
    if (!confirmOnConcretePath(cand, deadline)) continue;
    rep = r;
    return cand;
  }
  return std::nullopt;
}

WitnessStage::JvmCalls WitnessStage::distinctJvmCalls() const {
  // Many partitions of a method share one witness (those that differ only in what an
  // unmodelled call did, which the inputs do not fix): each distinct call runs once and its
  // replay goes to every partition that asked for it.
  JvmCalls calls;
  calls.call_of.resize(jvm_inputs_.size());
  std::map<std::string, std::size_t> distinct;
  for (std::size_t i = 0; i < jvm_inputs_.size(); ++i) {
    const witness::CallContext& c = i < contexts_.size() ? contexts_[i] : witness::CallContext{};
    auto [at, fresh] = distinct.emplace(witness::callKey(jvm_inputs_[i].second, c), calls.inputs.size());
    if (fresh) {
      calls.inputs.push_back(jvm_inputs_[i].second);
      calls.contexts.push_back(c);
    }
    calls.call_of[i] = at->second;
  }
  return calls;
}

std::optional<std::vector<Replay>> WitnessStage::runJvmCalls(const std::string& dir, const JvmCalls& calls) {
  writePrepared(env_.prepared, dir);
  // Versions read from class paths run over them (callees outside the class included);
  // versions given as lone class files run as the renamed copies next to the product.
  const Prepared& pr = env_.prepared;
  // (a private method is called through reflection: the driver's code cannot call it)
  auto isPrivate = [&](const jvm::ClassFile& cf) {
    for (const jvm::Method& m : cf.methods)
      if (m.name == pr.name && m.descriptor == pr.descriptor) return (m.access_flags & jvm::acc::Private) != 0;
    return false;
  };
  const bool paths = onClassPaths(pr);
  if (paths) {
    renv_.old_classpath = pr.old_classpath->entries();
    renv_.new_classpath = pr.new_classpath->entries();
    renv_.reflective = isPrivate(pr.orig_old) || isPrivate(pr.orig_new);
  } else {  // the renamed copies: descriptors that name the analysed class are rewritten
    renv_.old_original = pr.orig_old_name;
    renv_.new_original = pr.orig_new_name;
  }
  return witness::replayJvm(dir, renv_, paths ? pr.orig_old_name : pr.old_name, paths ? pr.orig_new_name : pr.new_name,
                            pr.name, pr.descriptor, calls.inputs, calls.contexts, instance_);
}

void WitnessStage::judgeJvmReplay(PartitionResult& p, Replay rep) const {
  const bool java = env_.options->arith == terms::Arith::Java;
  auto addNote = [&](const std::string& n) { rep.note += (rep.note.empty() ? "" : "; ") + n; };
  // A self-check of the model: under Java semantics a NEQ whose witness runs to equal outputs
  // in a real JVM is not a proof (the model and the JVM disagree).
  // (an Error in the JVM — a class the replay directory lacks, a verifier or linkage error, a
  // stack overflow — says nothing about the model)
  auto envError = [](const std::string& out) {
    return out.rfind("throws ", 0) == 0 && out.size() > 5 && out.find("Error") != std::string::npos;
  };
  // A difference needs a judged replay; equal outputs contradict the solver only when nothing
  // was left out (no note: results compared whole, no stand-ins).
  const bool judged = rep.judged && !rep.old_out.empty() && !rep.new_out.empty() && !envError(rep.old_out) &&
                      !envError(rep.new_out);
  const bool ran = judged && rep.note.empty() && rep.exact_inputs;
  if (rep.note.empty() && !rep.differs && (envError(rep.old_out) || envError(rep.new_out)))
    rep.note = "not judged: the JVM replay failed with an Error (" +
               (envError(rep.old_out) ? rep.old_out : rep.new_out).substr(7) + ")";
  const bool resultsOnly = results_only_.count(p.index) > 0;
  if (resultsOnly && !rep.differs) addNote("the effects on the heap are not compared in the JVM");
  if (const std::string n = witness::standInNote(rep); !n.empty()) addNote(n);
  if (java && ran && !resultsOnly && !rep.differs && p.result == Verdict::NEQ) {
    p.result = Verdict::MAYBE_NEQ;
    p.decided_by.clear();
    rep.note = "the model and the JVM disagree: the witness gives equal outputs in a real JVM";
  } else if (rep.differs && run_dependent_.count(p.index)) {
    addNote("the outputs read the clock or an identity hash: runs that differ show the run, not the versions");
  } else if (java && judged && rep.differs && p.result == Verdict::MAYBE_NEQ) {
    // Two real runs that differ (and a second run of the old version that agrees with its
    // first) are a difference under Java's semantics, whatever the model left open.
    p.result = Verdict::NEQ;
    p.decided_by = "replay";
  }
  p.replays.push_back(std::move(rep));
}

void WitnessStage::replayAllInJvm(IterationResult& it) {
  const Options& o = *env_.options;
  if (!enabled_ || jvm_inputs_.empty() || (o.replay != "auto" && o.replay != "jvm")) return;
  // The JVM replay counts against the run's timeout like everything else: it gets the time
  // left (less a margin for writing the results), and none when too little is left.
  double left = std::chrono::duration<double>(env_.deadline - Clock::now()).count() - o.time.jvm_reserve_s;
  if (left < o.time.jvm_min_s) return;
  renv_.jvm_timeout_s = std::min(renv_.jvm_timeout_s, left);
  namespace fs = std::filesystem;
  std::error_code ec;
  // A directory of this replay's own: a release diff's workers are threads of one process, and
  // one worker's clean-up must not take another's classes (a shared per-process directory did).
  std::string tmpl = (fs::temp_directory_path(ec) / "pasda-jvm-replay-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return;
  const fs::path dir = tmpl;
  try {
    const JvmCalls calls = distinctJvmCalls();
    if (auto reps = runJvmCalls(dir.string(), calls)) {
      std::map<int, PartitionResult*> byIndex;
      for (PartitionResult& p : it.partitions) byIndex.emplace(p.index, &p);
      for (std::size_t i = 0; i < jvm_inputs_.size(); ++i) {
        auto found = byIndex.find(jvm_inputs_[i].first);
        if (calls.call_of[i] < reps->size() && found != byIndex.end())
          judgeJvmReplay(*found->second, (*reps)[calls.call_of[i]]);
      }
    }
  } catch (const std::exception&) {
    // A failed JVM replay leaves the interpreter's evidence as it is.
  }
  fs::remove_all(dir, ec);
}

}  // namespace pasda::analysis
