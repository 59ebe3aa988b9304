// Summary-based iterations (ARDiff, DSE): each version is executed on its own into a summary
// (the disjunction of its paths), and one query over both summaries decides the iteration.
// Unlike the original, exceptions are part of a summary (an input that throws in one version
// and returns in the other is a difference), cast temporaries cannot clash (one term manager),
// and inputs on which a version was cut by the depth limit are excluded from the comparison
// and reported, so the best possible verdict there is MAYBE_EQ.
#include <map>
#include <unordered_map>

#include "iteration.hpp"
#include "partition.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Term;

namespace {

constexpr pasda::Version kOld = pasda::Version::kOld;  // (analysis::Version is a loaded version)
constexpr pasda::Version kNew = pasda::Version::kNew;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Summary {
  Term formula;  // OR_i (pc_i && outcome_i)
  int paths = 0, throwing = 0, cut = 0;
  int depth_cuts = 0;  // of `cut`: by the decision budget (a deeper round could complete them)
  bool uif = false;
  std::set<int> lines;
};

/// One summary iteration's shared pieces: the terms, the solver, the two methods, the inputs,
/// and each version's result/outcome variables and summary.
struct SummaryRun {
  const Options& o;
  const Prepared& p;
  terms::TermManager tm;
  solver::SolverOptions so;
  std::unique_ptr<solver::Solver> solver;
  symexec::Program program;
  PerVersion<const symexec::MethodInfo*> m{};
  symexec::MethodInputs inputs;
  symexec::ExecOptions eo;
  AbstractionIndex names;  // the function symbols of the iteration's abstractions
  bool is_void = false;
  PerVersion<Term> ret_var, outcome;
  std::map<std::string, int> exc_codes;  // exception class -> code (0 = normal return, -1 = cut)
  PerVersion<Summary> sum;

  SummaryRun(const Options& opt, const Prepared& prep) : o(opt), p(prep), tm(opt.arith) {}
};

/// The program, the two methods and the exploration options of the iteration.
void summarySetUp(SummaryRun& r, IterationEnv& env, const diff::MatchResult* match, const Abstraction& abs, IterationResult& it) {
  const Options& o = r.o;
  const Prepared& p = r.p;
  if (o.solver_timeout_ms) r.so.timeout_ms = o.solver_timeout_ms;
  r.solver = solver::makeZ3Solver(r.tm, r.so);
  loadProgram(env, r.program);
  r.m[kOld] = r.program.find(symexec::Side(kOld), p.old_name)->method(p.name, p.old_descriptor);
  r.m[kNew] = r.program.find(symexec::Side(kNew), p.new_name)->method(p.name, p.new_descriptor);
  if (!r.m[kOld] || !r.m[kNew]) throw std::logic_error("compared method missing after preparation");
  if (!r.m[kOld]->is_static || p.is_constructor)
    throw std::runtime_error("summary-based modes (ardiff, dse) support static methods only; use pasda or prv");
  r.inputs = symexec::makeInputs(*r.m[kOld], r.tm);
  r.eo = baseExecOptions(env, r.so.timeout_ms, false);  // no JVM replay: no per-path witnesses
  applyAbstraction(env, match, abs, r.names, r.eo, it);
}

/// One finished path of version v into its summary: (pc && outcome), the outcome -1 when cut,
/// the exception's code when it threw, 0 and the return value otherwise.
void addPath(SummaryRun& r, pasda::Version v, const symexec::RawPartition& raw, std::map<AbstractionId, int>& counts) {
  terms::TermManager& tm = r.tm;
  Summary& sum = r.sum[v];
  Term path = tm.boolLit(true);
  for (Term c : raw.pc) path = tm.land(path, c);
  Term out;
  sum.paths++;
  if (raw.depth_limited) {
    sum.cut++;
    if (raw.decision_limited) sum.depth_cuts++;
    out = tm.eq(r.outcome[v], tm.intLit(-1));
  } else if (raw.entry.kind == symexec::ExecEffect::Kind::Throw) {
    sum.throwing++;
    auto [pos, fresh] = r.exc_codes.emplace(raw.entry.exception, static_cast<int>(r.exc_codes.size()) + 1);
    out = tm.eq(r.outcome[v], tm.intLit(pos->second));
  } else {
    out = tm.eq(r.outcome[v], tm.intLit(0));
    if (!r.is_void && raw.entry.value) {
      out = tm.land(out, tm.eq(r.ret_var[v], raw.entry.value));
      countAbstractions(tm, r.names, raw.entry.value, counts);
    }
  }
  sum.uif = sum.uif || tm.containsUif(path) || tm.containsLibrary(path) || tm.containsUif(out) || tm.containsLibrary(out);
  sum.formula = tm.lor(sum.formula, tm.land(path, out));
  const auto& lines = raw.lines[symexec::Side(v)];
  sum.lines.insert(lines.begin(), lines.end());
}

/// Each version explored on its own into its summary. false: the deadline cut an exploration.
bool buildSummaries(SummaryRun& r, UifUsage* usage) {
  const jvm::TypeDesc& ret = r.m[kOld]->desc.ret;
  r.is_void = ret.kind == 'V';
  for (pasda::Version v : kBothVersions) {
    const std::string tag(versionName(v));
    if (!r.is_void) r.ret_var[v] = r.tm.var("$ret_" + tag, symexec::sortOf(ret));
    r.outcome[v] = r.tm.var("$outcome_" + tag, terms::Sort::Int);
    r.sum[v].formula = r.tm.boolLit(false);
    std::map<AbstractionId, int> counts;
    symexec::Executor ex(r.program, r.tm, *r.solver, r.eo);
    symexec::ExecStats st = ex.explore(*r.m[v], r.inputs.terms, r.inputs.constraints,
                                       [&](const symexec::RawPartition& raw, solver::Solver&) { addPath(r, v, raw, counts); });
    if (usage)
      for (auto& [k, c] : counts) {
        (v == kOld ? usage->in_old : usage->in_new)[k] += c;
        usage->seen.insert(k);
        usage->in_undecided.insert(k);
      }
    if (st.timed_out) return false;
  }
  return true;
}

/// The witness of a (possibly) non-equivalent comparison: the solver's model of the inputs.
void summaryWitness(SummaryRun& r, PartitionResult& pr) {
  solver::Model model = r.solver->model(r.inputs.terms);
  for (std::size_t i = 0; i < r.inputs.terms.size(); ++i) {
    WitnessValue w;
    w.name = r.inputs.names[i];
    w.type = r.inputs.types[i].javaName();
    auto val = model.lookup(r.inputs.terms[i]);
    w.literal = val ? javaLiteral(r.tm, r.inputs.types[i], *val) : "?";
    pr.witness.push_back(w);
  }
  pr.witness_call = javaCall(r.p.name, pr.witness);
}

/// The Neq (and, with abstractions, Eq) query over both summaries, where neither version was cut.
void querySummaries(SummaryRun& r, IterationEnv& env, Term same, classify::SummaryFacts& f, PartitionResult& pr) {
  terms::TermManager& tm = r.tm;
  auto budget = [&]() -> unsigned {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(env.deadline - Clock::now()).count();
    double share = r.o.timeout_s * 1000.0 * r.o.time.summary_query_share;
    double b = std::max<double>(r.so.timeout_ms, share);
    return static_cast<unsigned>(std::max<long long>(1, std::min<long long>(left, static_cast<long long>(b))));
  };
  r.solver->setTimeoutMs(budget());
  solver::CheckResult neq = r.solver->check({tm.lnot(same)});
  f.neq = neq.status;
  if (neq.status == solver::Status::Unknown) pr.reason_unknown = neq.reason;
  if (neq.status != solver::Status::Sat) return;
  summaryWitness(r, pr);
  if (f.uif) {
    r.solver->setTimeoutMs(budget());
    f.eq = r.solver->check({same}).status;
  }
}

/// The comparison of the two summaries: one partition holding the iteration's verdict.
PartitionResult compareSummaries(SummaryRun& r, IterationEnv& env, classify::SummaryFacts& f, Clock::time_point t0) {
  terms::TermManager& tm = r.tm;
  const PerVersion<Summary>& sum = r.sum;
  Term bothCompared = tm.land(tm.ne(r.outcome[kOld], tm.intLit(-1)), tm.ne(r.outcome[kNew], tm.intLit(-1)));
  Term same = tm.eq(r.outcome[kOld], r.outcome[kNew]);
  if (!r.is_void)
    same = tm.land(same, tm.lor(tm.ne(r.outcome[kOld], tm.intLit(0)), tm.same(r.ret_var[kOld], r.ret_var[kNew])));
  r.solver->push();
  for (pasda::Version v : kBothVersions) r.solver->add(sum[v].formula);
  r.solver->add(bothCompared);
  f.summaries_empty = sum[kOld].paths == 0 && sum[kNew].paths == 0;
  f.uif = sum[kOld].uif || sum[kNew].uif;
  f.depth_limited = sum[kOld].cut > 0 || sum[kNew].cut > 0;
  PartitionResult pr;
  pr.index = 1;
  pr.path_condition = "summaries:";
  for (pasda::Version v : kBothVersions)
    pr.path_condition += std::string(v == kOld ? " " : ", ") + std::string(versionName(v)) + " " +
                         std::to_string(sum[v].paths) + " paths (" + std::to_string(sum[v].throwing) + " throwing, " +
                         std::to_string(sum[v].cut) + " cut)";
  pr.lines_old.assign(sum[kOld].lines.begin(), sum[kOld].lines.end());
  pr.lines_new.assign(sum[kNew].lines.begin(), sum[kNew].lines.end());
  if (!f.summaries_empty) querySummaries(r, env, same, f, pr);
  r.solver->pop();
  pr.neq_status = f.neq;
  pr.eq_status = f.eq;
  pr.pc_status = solver::Status::Sat;
  pr.uif_pc = f.uif;
  pr.depth_limited = f.depth_limited;
  pr.reachability = f.uif ? classify::Reachability::MaybeReachable : classify::Reachability::Reachable;
  pr.result = classify::summaryVerdict(f);
  pr.output_class = pr.result;
  pr.time_s = since(t0);
  if (pr.result != Verdict::NEQ && pr.result != Verdict::MAYBE_NEQ) {
    pr.witness.clear();
    pr.witness_call.clear();
  } else {
    pr.decided_by = "solver";
  }
  return pr;
}

/// ARDiff's H1 over the two summaries with one shared return value and outcome (reference §11.6).
void summaryH1(SummaryRun& r, IterationEnv& env, StepTimes& steps, UifUsage& usage) {
  std::unordered_map<Term, Term, terms::TermHash> shared{{r.outcome[kNew], r.outcome[kOld]}};
  if (!r.is_void) shared.emplace(r.ret_var[kNew], r.ret_var[kOld]);
  auto tr = Clock::now();
  usage.h1 = equivalenceEnablingAbstractions(r.tm, *r.solver, r.names, r.sum[kOld].formula,
                                             r.tm.substitute(r.sum[kNew].formula, shared), h1QueryMs(r.o), h1Deadline(env));
  steps.refinement += since(tr);
}

}  // namespace

namespace {

/// One iteration of a summary-based tool (IterationKind's steps).
class SummaryIteration final : public IterationKind {
 public:
  SummaryIteration(IterationEnv& env, const IterationPlan& plan) : env_(env), plan_(plan), r_(*env.options, env.prepared) {}

  void setUp(IterationResult& it) override { summarySetUp(r_, env_, plan_.match, plan_.abs, it); }

  void explore(IterationResult& it, StepTimes& steps) override {
    const auto t0 = Clock::now();
    it.timed_out = !buildSummaries(r_, plan_.usage);
    it.depth_cuts = r_.sum[kOld].depth_cuts + r_.sum[kNew].depth_cuts;
    steps.symbolic_execution += since(t0);
    if (it.timed_out) return;
    auto tc = Clock::now();
    classify::SummaryFacts f;
    PartitionResult pr = compareSummaries(r_, env_, f, t0);
    if (plan_.usage && (pr.result != Verdict::EQ && pr.result != Verdict::NEQ) && r_.o.mode == Tool::Ardiff)
      summaryH1(r_, env_, steps, *plan_.usage);
    it.partitions.push_back(pr);
    it.result = pr.result;
    it.has_uif = f.uif;
    it.depth_limited = f.depth_limited;
    steps.partition_classification += since(tc);
  }

  void finish(IterationResult& it) override {
    if (!it.error.empty()) it.result = Verdict::ERROR;
    else if (it.timed_out) it.result = Verdict::TIMEOUT;
  }

 private:
  IterationEnv& env_;
  const IterationPlan& plan_;
  SummaryRun r_;
};

}  // namespace

IterationResult runSummaryIteration(IterationEnv& env, const IterationPlan& plan, StepTimes& steps) {
  SummaryIteration kind(env, plan);
  return runIteration(env, kind, plan.index, steps);
}

}  // namespace pasda::analysis
