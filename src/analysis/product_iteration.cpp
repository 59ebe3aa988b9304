// Iterations of the partition-based tools (PASDA, PRV) over the product program: one
// exploration of the product, each partition classified, replayed, searched and explained as
// it ends; with abstractions, their usage for the refinement and ARDiff's H1 candidates.
#include <atomic>
#include <sstream>

#include "explain.hpp"
#include "iteration.hpp"
#include "partition.hpp"
#include "witnesses.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Term;

namespace {

/// The witness's entry values of the primitive static fields the path read (the statics
/// holder's fields), as (variable, literal) pairs for the explanation.
std::vector<std::pair<Term, Term>> staticsPinsOf(terms::TermManager& tm, const symexec::RawPartition& raw,
                                                 const witness::CallContext& c) {
  std::vector<std::pair<Term, Term>> out;
  for (const symexec::InputShape& sh : raw.input_shapes) {
    if (sh.cls != "<statics>") continue;
    for (const symexec::InputShape::Field& f : sh.fields) {
      if (f.reference || !f.value) continue;
      for (std::size_t i = 0; i < c.statics.field_names.size() && i < c.statics.field_values.size(); ++i)
        if (c.statics.field_names[i] == f.name) out.emplace_back(f.value, tm.lit(tm.sort(f.value), c.statics.field_values[i].bits));
    }
  }
  return out;
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Summaries for H1 (reference §10): OR over the partitions that reached the comparison of
/// pc && outcome, for each version, with one shared return variable and outcome code.
struct H1Summaries {
  terms::TermManager& tm;
  Term summary[2];
  std::map<std::string, int> codes;

  explicit H1Summaries(terms::TermManager& t) : tm(t), summary{t.boolLit(false), t.boolLit(false)} {}

  Term outcomeOf(const symexec::ExecEffect& e) {
    Term outcome = tm.var("$h1_outcome", terms::Sort::Int);
    int code = 0;
    if (e.kind == symexec::ExecEffect::Kind::Throw)
      code = codes.emplace(e.exception, static_cast<int>(codes.size()) + 1).first->second;
    Term f = tm.eq(outcome, tm.intLit(code));
    if (e.kind == symexec::ExecEffect::Kind::Return && e.value)
      f = tm.land(f, tm.same(tm.var(std::string("$h1_ret_") + terms::sortName(tm.sort(e.value)), tm.sort(e.value)),
                             e.value));
    return f;
  }

  void add(const symexec::RawPartition& raw) {
    if (!raw.product_compare || raw.depth_limited || raw.error_mismatch) return;
    Term pc = tm.boolLit(true);
    for (Term c : raw.pc) pc = tm.land(pc, c);
    summary[0] = tm.lor(summary[0], tm.land(pc, outcomeOf(raw.old_effect)));
    summary[1] = tm.lor(summary[1], tm.land(pc, outcomeOf(raw.new_effect)));
  }
};

/// Where the abstractions occur in a partition (for H2 and the refinement fallback).
void countUsage(terms::TermManager& tm, const AbstractionIndex& index, const symexec::RawPartition& raw,
                const PartitionResult& r, UifUsage& usage) {
  std::map<AbstractionId, int> inPc, inOld, inNew;
  for (terms::Term c : raw.pc) countAbstractions(tm, index, c, inPc);
  countAbstractions(tm, index, raw.old_effect.value, inOld);
  countAbstractions(tm, index, raw.new_effect.value, inNew);
  for (auto& [k, c] : inOld) usage.in_old[k] += c;
  for (auto& [k, c] : inNew) usage.in_new[k] += c;
  bool undecided = r.result != Verdict::EQ && r.result != Verdict::UNREACHABLE;
  for (auto* m : {&inPc, &inOld, &inNew})
    for (auto& [k, c] : *m) {
      usage.seen.insert(k);
      if (undecided) usage.in_undecided.insert(k);
    }
}

/// One iteration over the product program (IterationKind's steps).
class ProductIteration final : public IterationKind {
 public:
  ProductIteration(IterationEnv& env, const IterationPlan& plan) : env_(env), o_(*env.options), plan_(plan), tm_(o_.arith) {}

  void setUp(IterationResult& it) override;
  void explore(IterationResult& it, StepTimes& steps) override;
  void finish(IterationResult& it) override;

 private:
  /// The exploration options: exploration stops a little before the run's deadline so that
  /// the wrap-up (classifying the last partition, writing results) still ends within it.
  void setExecOptions(IterationResult& it);
  /// One finished path: classified, replayed or searched, counted, explained.
  void onPartition(const symexec::RawPartition& raw, solver::Solver& s, IterationResult& it);
  bool proofOnly() const { return !plan_.coupled.empty() || plan_.shared_recursion; }
  bool wantH1() const { return plan_.usage && !plan_.abs.empty(); }

  IterationEnv& env_;
  const Options& o_;
  const IterationPlan& plan_;
  terms::TermManager tm_;
  solver::SolverOptions so_;
  std::unique_ptr<solver::Solver> solver_, proof_solver_;
  symexec::Program program_;
  const symexec::MethodInfo* run_ = nullptr;
  symexec::MethodInputs inputs_;
  std::vector<Term> run_args_;
  symexec::ExecOptions eo_;
  AbstractionIndex names_;  // the function symbols of this iteration's abstractions
  std::atomic<bool> neq_found_{false};
  bool stop_at_neq_ = false;
  /// The settle rule: the time (Clock ticks) the exploration ends, set by the first partition
  /// that rules EQ out; 0 while none.
  std::atomic<std::int64_t> settle_at_{0};
  bool settle_ = false;
  int settle_n_ = 0;        // the partition count when EQ was ruled out
  bool settle_count_ = false;  // the exploration ended by the partition count (else by the clock)
  std::string settled_by_;  // "partition 3 (MAYBE_NEQ)"
  std::unique_ptr<PartitionClassifier> classifier_;
  std::unique_ptr<WitnessStage> witnesses_;
  std::unique_ptr<Explainer> explainer_;
  std::unique_ptr<H1Summaries> h1_;
  Clock::time_point t0_ = Clock::now();
  double classify_s_ = 0;
  int n_ = 0;
};

void ProductIteration::setUp(IterationResult& it) {
  if (o_.solver_timeout_ms) so_.timeout_ms = o_.solver_timeout_ms;
  so_.math_first = o_.arith == terms::Arith::Java && o_.math_first;  // issue 17: feasibility and Neq-queries
  solver_ = solver::makeZ3Solver(tm_, so_);
  loadProgram(env_, program_);
  const Prepared& p = env_.prepared;
  const symexec::LoadedClass* prod = program_.find(symexec::kProduct, p.product_name);
  run_ = prod ? prod->method("run", p.run_descriptor) : nullptr;
  const symexec::LoadedClass* oldC = program_.find(symexec::kOld, p.old_name);
  const symexec::MethodInfo* oldM = oldC ? oldC->method(p.name, p.old_descriptor) : nullptr;
  if (!run_ || !oldM) throw std::logic_error("product or old method missing after preparation");
  inputs_ = symexec::makeInputs(*oldM, tm_);
  run_args_ = symexec::productArguments(*oldM, inputs_, tm_);
  setExecOptions(it);
}

void ProductIteration::setExecOptions(IterationResult& it) {
  // Under Java's semantics the witnesses are replayed in a JVM after the exploration (the
  // only confirmation for string and array inputs): the exploration leaves time for it.
  const bool jvm = o_.arith == terms::Arith::Java && (o_.replay == "auto" || o_.replay == "jvm") && !proofOnly();
  eo_ = baseExecOptions(env_, so_.timeout_ms, jvm);
  eo_.product_class = env_.prepared.product_name;
  setHeapOptions(env_, eo_);
  applyAbstraction(env_, plan_.match, plan_.abs, names_, eo_, it);
  if (proofOnly()) {
    // Induction (issue 13): the inductiveness queries run on a solver of their own, beside
    // the exploration's incremental one.
    eo_.coupled_loops = plan_.coupled;
    proof_solver_ = solver::makeZ3Solver(tm_, so_);
    eo_.proof_solver = proof_solver_.get();
  }
  if (plan_.shared_recursion) {
    // RVT's rule: a call of the compared method by either version's code is the same function
    // of its arguments in both (the product's two calls still run the versions' code).
    const Prepared& p = env_.prepared;
    const std::string symbol = "rec_" + p.name;
    eo_.shared_recursion[p.old_name + "." + p.name + ":" + p.old_descriptor] = symbol;
    eo_.shared_recursion[p.new_name + "." + p.name + ":" + p.new_descriptor] = symbol;
    it.uifs.push_back(symbol + ": the recursive calls of " + p.name + " in both versions");
  }
  // Issue 17: under Java a confirmed NEQ partition decides the program (rule 2 of the
  // iteration verdict); the exploration stops there instead of spending the rest of the run
  // on floating-point feasibility checks (--stop-at-neq no: explore every partition, as math
  // runs and the paper do).
  stop_at_neq_ = o_.arith == terms::Arith::Java && o_.neq_stops_exploration && o_.mode == Tool::Pasda;
  if (stop_at_neq_) eo_.cancel = &neq_found_;
  // The settle rule (--settle): in an iteration that abstracts nothing, a partition that is
  // neither EQ nor UNREACHABLE rules an EQ verdict of the iteration out (rule 3 of the
  // iteration verdict) whatever the paths left — a DEPTH_LIMITED one when no deeper round may
  // follow; those paths could only find a NEQ, which gets settle_s more seconds. (A settled
  // first iteration also ends the run: src/analysis/iteration.cpp.)
  settle_ = o_.settle_s > 0 && o_.mode == Tool::Pasda && plan_.abs.empty() && !proofOnly();
  if (settle_) eo_.stop_at = &settle_at_;
}

void ProductIteration::onPartition(const symexec::RawPartition& raw, solver::Solver& s, IterationResult& it) {
  if (h1_) h1_->add(raw);
  auto tc = Clock::now();
  PartitionResult r = classifier_->classify(raw, s, ++n_, since(t0_));
  // (the classifier's last witness is this one's; a method without parameters has a witness
  // call without values)
  const bool witnessed = !r.witness_call.empty();
  const std::vector<Term> model = witnessed ? classifier_->lastModel() : std::vector<Term>{};
  if (o_.mode != Tool::Prv && !proofOnly())
    witnesses_->process(raw, r, model, witnessed ? classifier_->lastReferenceInputs() : std::vector<witness::InputValue>{},
                        witnessed ? classifier_->lastContext() : witness::CallContext{});
  if (wantH1()) countUsage(tm_, names_, raw, r, *plan_.usage);
  if (o_.mode == Tool::Prv) {
    r.result = classify::withoutBestEffort(r.result);
    r.output_class = classify::withoutBestEffort(r.output_class);
  }
  if (stop_at_neq_ && r.result == Verdict::NEQ) neq_found_ = true;
  const bool rulesOutEq = r.result != Verdict::EQ && r.result != Verdict::UNREACHABLE &&
                          (r.result != Verdict::DEPTH_LIMITED || !o_.deepen);
  if (settle_ && settle_at_.load() == 0 && rulesOutEq) {
    const auto grace = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.settle_s));
    settle_at_ = (Clock::now() + grace).time_since_epoch().count();
    settle_n_ = n_;
    settled_by_ = "partition " + std::to_string(r.index) + " (" + classify::verdictName(r.result) + ")";
  } else if (settle_ && settle_n_ > 0 && o_.settle_partitions > 0 && n_ - settle_n_ >= o_.settle_partitions &&
             Clock::now().time_since_epoch().count() < settle_at_.load()) {
    // ... or that many partitions later, if sooner: the exploration ends now.
    settle_at_ = Clock::now().time_since_epoch().count();
    settle_count_ = true;
  }
  if (r.result == Verdict::DEPTH_LIMITED && raw.decision_limited) ++it.depth_cuts;
  if (env_.monitor) env_.monitor->partition(r);
  it.partitions.push_back(std::move(r));
  // The explanation comes last: the monitor already holds the partition and its verdict.
  if (PartitionResult& last = it.partitions.back(); last.result == Verdict::NEQ && !proofOnly()) {
    // The found inputs when a search decided the partition, else the solver's witness.
    const bool searched = last.decided_by == "search";
    std::vector<Term> pin = searched ? witnesses_->witnessTerms(last.index) : model;
    const auto statics = searched || !witnessed ? std::vector<std::pair<Term, Term>>{}
                                                : staticsPinsOf(tm_, raw, classifier_->lastContext());
    if (!pin.empty() || !statics.empty()) explainer_->explain(last, pin, statics);
  }
  classify_s_ += since(tc);
}

/// H1 (ARDiff's first heuristic): when an iteration with abstractions ends undecided, the
/// abstractions whose summaries would make the versions equal.
void findEnablingAbstractions(const IterationEnv& env, terms::TermManager& tm, solver::Solver& solver,
                              const AbstractionIndex& index, const H1Summaries& h1, const IterationResult& it,
                              UifUsage& usage, StepTimes& steps) {
  classify::IterationFacts f;
  for (const PartitionResult& r : it.partitions) f.partitions.push_back(r.result);
  const Verdict v = classify::iterationVerdict(f);
  if (v == Verdict::EQ || v == Verdict::NEQ) return;
  auto tr = Clock::now();
  usage.h1 = equivalenceEnablingAbstractions(tm, solver, index, h1.summary[0], h1.summary[1],
                                             h1QueryMs(*env.options), h1Deadline(env));
  steps.refinement += since(tr);
}

void ProductIteration::explore(IterationResult& it, StepTimes& steps) {
  const Prepared& p = env_.prepared;
  symexec::Executor ex(program_, tm_, *solver_, eo_);
  classifier_ = std::make_unique<PartitionClassifier>(tm_, inputs_, p.name, classifierLimits(o_, so_.timeout_ms, env_.deadline));
  classifier_->setOwner(!p.is_static && !p.is_constructor, p.orig_old_name);
  witnesses_ = std::make_unique<WitnessStage>(env_, program_, *run_, inputs_, tm_);
  witnesses_->enableConcreteSearch(eo_, run_args_);
  explainer_ = std::make_unique<Explainer>(env_, program_, *run_, inputs_, tm_, eo_, run_args_);
  if (wantH1()) h1_ = std::make_unique<H1Summaries>(tm_);
  symexec::ExecStats stats = ex.explore(*run_, run_args_, inputs_.constraints,
                                        [&](const symexec::RawPartition& raw, solver::Solver& s) { onPartition(raw, s, it); });
  env_.warnings.insert(stats.warnings.begin(), stats.warnings.end());
  it.uifs.insert(it.uifs.end(), stats.couplings.begin(), stats.couplings.end());
  const Clock::time_point end = Clock::now();
  const bool beforeDeadline = end < eo_.deadline;
  const std::int64_t settleAt = settle_at_.load();
  it.settled = stats.timed_out && settleAt != 0 && end.time_since_epoch().count() >= settleAt && !neq_found_ &&
               beforeDeadline;
  it.timed_out = stats.timed_out && !(neq_found_ && beforeDeadline) && !it.settled;
  if (it.settled) {
    std::ostringstream w;
    w << "the exploration settled: it ended ";
    if (settle_count_) w << o_.settle_partitions << " partitions";
    else w << o_.settle_s << " s";
    w << " after " << settled_by_
      << ", as the method cannot be EQ any more and more paths could only find a NEQ (--settle off explores to the "
         "limit)";
    env_.warnings.insert(w.str());
  }
  // Under Java the witnesses of a cut iteration are replayed too, in the time that is left
  // (replayAllInJvm skips the JVM when too little is): every NEQ should have a JVM replay.
  if (o_.mode != Tool::Prv && !proofOnly() && (!it.timed_out || o_.arith == terms::Arith::Java))
    witnesses_->replayAllInJvm(it);
  if (h1_ && !it.timed_out) findEnablingAbstractions(env_, tm_, *solver_, names_, *h1_, it, *plan_.usage, steps);
  steps.symbolic_execution += stats.seconds - classify_s_;
  steps.partition_classification += classify_s_;
}

void ProductIteration::finish(IterationResult& it) {
  classify::IterationFacts facts;
  facts.error = !it.error.empty();
  facts.timed_out = it.timed_out;
  for (const PartitionResult& r : it.partitions) {
    facts.partitions.push_back(r.result);
    it.depth_limited = it.depth_limited || r.result == Verdict::DEPTH_LIMITED;
    it.has_uif = it.has_uif || r.uif_pc || r.uif_old || r.uif_new;
  }
  it.result = classify::iterationVerdict(facts);
  if (o_.mode == Tool::Prv) it.result = classify::withoutBestEffort(it.result);
}

}  // namespace

IterationResult runProductIteration(IterationEnv& env, const IterationPlan& plan, StepTimes& steps) {
  ProductIteration kind(env, plan);
  return runIteration(env, kind, plan.index, steps);
}

}  // namespace pasda::analysis
