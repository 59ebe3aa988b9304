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

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Summary {
  Term formula;  // OR_i (pc_i && outcome_i)
  int paths = 0, throwing = 0, cut = 0;
  bool uif = false;
  std::set<int> lines;
};

}  // namespace

IterationResult runSummaryIteration(IterationEnv& env, const diff::MatchResult* match, const Abstraction& abs,
                                    int index, StepTimes& steps, UifUsage* usage) {
  const Options& o = *env.options;
  const Prepared& p = env.prepared;
  IterationResult it;
  it.index = index;
  const auto t0 = Clock::now();
  try {
    auto ti = Clock::now();
    terms::TermManager tm(o.arith);
    solver::SolverOptions so;
    if (o.solver_timeout_ms) so.timeout_ms = o.solver_timeout_ms;
    std::unique_ptr<solver::Solver> solver = solver::makeZ3Solver(tm, so);
    symexec::Program program;
    loadProgram(env, program);
    const symexec::MethodInfo* m[2] = {program.find(symexec::kOld, p.old_name)->method(p.name, p.old_descriptor),
                                       program.find(symexec::kNew, p.new_name)->method(p.name, p.new_descriptor)};
    if (!m[0] || !m[1]) throw std::logic_error("compared method missing after preparation");
    if (!m[0]->is_static || p.is_constructor)
      throw std::runtime_error("summary-based modes (ardiff, dse) support static methods only; use pasda or prv");
    symexec::MethodInputs inputs = symexec::makeInputs(*m[0], tm);
    steps.initialization += since(ti);

    symexec::ExecOptions eo;
    eo.depth_limit = o.depth_limit;
    eo.deadline = env.deadline;
    if (env.deadline != Clock::time_point::max())
      eo.deadline = env.deadline - std::chrono::milliseconds(static_cast<long long>(std::min(500.0, o.timeout_s * 50.0)));
    eo.solver_timeout_ms = o.feasibility_timeout_ms ? o.feasibility_timeout_ms : std::min(so.timeout_ms, 250u);
    eo.max_array_length = o.max_array_length;
    applyAbstraction(env, match, abs, eo, it);
    if (env.monitor) env.monitor->beginIteration(index, it.uifs);

    const jvm::TypeDesc& ret = m[0]->desc.ret;
    const bool isVoid = ret.kind == 'V';
    Term retVar[2], outcome[2];
    std::map<std::string, int> excCodes;  // exception class -> code (0 = normal return, -1 = cut)
    Summary sum[2];
    const char* tag[2] = {"old", "new"};
    for (int v = 0; v < 2; ++v) {
      if (!isVoid) retVar[v] = tm.var(std::string("$ret_") + tag[v], symexec::sortOf(ret));
      outcome[v] = tm.var(std::string("$outcome_") + tag[v], terms::Sort::Int);
      sum[v].formula = tm.boolLit(false);
      std::map<std::string, int> counts;
      symexec::Executor ex(program, tm, *solver, eo);
      symexec::ExecStats st = ex.explore(*m[v], inputs.terms, inputs.constraints,
                                         [&](const symexec::RawPartition& raw, solver::Solver&) {
        Term path = tm.boolLit(true);
        for (Term c : raw.pc) path = tm.land(path, c);
        Term out;
        sum[v].paths++;
        if (raw.depth_limited) {
          sum[v].cut++;
          out = tm.eq(outcome[v], tm.intLit(-1));
        } else if (raw.entry.kind == symexec::ExecEffect::Kind::Throw) {
          sum[v].throwing++;
          auto [pos, fresh] = excCodes.emplace(raw.entry.exception, static_cast<int>(excCodes.size()) + 1);
          out = tm.eq(outcome[v], tm.intLit(pos->second));
        } else {
          out = tm.eq(outcome[v], tm.intLit(0));
          if (!isVoid && raw.entry.value) {
            out = tm.land(out, tm.eq(retVar[v], raw.entry.value));
            countAbstractions(tm, raw.entry.value, counts);
          }
        }
        sum[v].uif = sum[v].uif || tm.containsUif(path) || tm.containsLibrary(path) || tm.containsUif(out) ||
                     tm.containsLibrary(out);
        sum[v].formula = tm.lor(sum[v].formula, tm.land(path, out));
        sum[v].lines.insert(raw.lines[v == 0 ? symexec::kOld : symexec::kNew].begin(),
                            raw.lines[v == 0 ? symexec::kOld : symexec::kNew].end());
      });
      if (usage)
        for (auto& [k, c] : counts) {
          (v == 0 ? usage->in_old : usage->in_new)[k] += c;
          usage->seen.insert(k);
          usage->in_undecided.insert(k);
        }
      if (st.timed_out) {
        it.timed_out = true;
        break;
      }
    }
    steps.symbolic_execution += since(t0);
    if (!it.timed_out) {
      auto tc = Clock::now();
      // Outcomes compared only where neither version was cut.
      Term bothCompared = tm.land(tm.ne(outcome[0], tm.intLit(-1)), tm.ne(outcome[1], tm.intLit(-1)));
      Term same = tm.eq(outcome[0], outcome[1]);
      if (!isVoid)
        same = tm.land(same, tm.lor(tm.ne(outcome[0], tm.intLit(0)), tm.same(retVar[0], retVar[1])));
      solver->push();
      solver->add(sum[0].formula);
      solver->add(sum[1].formula);
      solver->add(bothCompared);
      classify::SummaryFacts f;
      f.summaries_empty = sum[0].paths == 0 && sum[1].paths == 0;
      f.uif = sum[0].uif || sum[1].uif;
      f.depth_limited = sum[0].cut > 0 || sum[1].cut > 0;
      PartitionResult pr;
      pr.index = 1;
      pr.path_condition = "summaries: old " + std::to_string(sum[0].paths) + " paths (" +
                          std::to_string(sum[0].throwing) + " throwing, " + std::to_string(sum[0].cut) +
                          " cut), new " + std::to_string(sum[1].paths) + " paths (" + std::to_string(sum[1].throwing) +
                          " throwing, " + std::to_string(sum[1].cut) + " cut)";
      pr.lines_old.assign(sum[0].lines.begin(), sum[0].lines.end());
      pr.lines_new.assign(sum[1].lines.begin(), sum[1].lines.end());
      auto budget = [&]() -> unsigned {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(env.deadline - Clock::now()).count();
        double third = o.timeout_s * 1000.0 / 3.0;
        double b = std::max<double>(so.timeout_ms, third);
        return static_cast<unsigned>(std::max<long long>(1, std::min<long long>(left, static_cast<long long>(b))));
      };
      if (!f.summaries_empty) {
        solver->setTimeoutMs(budget());
        solver::CheckResult neq = solver->check({tm.lnot(same)});
        f.neq = neq.status;
        if (neq.status == solver::Status::Unknown) pr.reason_unknown = neq.reason;
        if (neq.status == solver::Status::Sat) {
          PartitionClassifier pc(tm, inputs, p.name, {so.timeout_ms, env.deadline});
          solver::Model model = solver->model(inputs.terms);
          std::string call = p.name + "(";
          for (std::size_t i = 0; i < inputs.terms.size(); ++i) {
            WitnessValue w;
            w.name = inputs.names[i];
            w.type = inputs.types[i].javaName();
            auto val = model.lookup(inputs.terms[i]);
            w.literal = val ? javaLiteral(tm, inputs.types[i], *val) : "?";
            call += (i ? ", " : "") + w.literal;
            pr.witness.push_back(w);
          }
          pr.witness_call = call + ")";
          if (f.uif) {
            solver->setTimeoutMs(budget());
            f.eq = solver->check({same}).status;
          }
        }
      }
      solver->pop();
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
      if (usage && (pr.result != Verdict::EQ && pr.result != Verdict::NEQ) && o.mode == "ardiff") {
        // H1 over the two summaries with one shared return value and outcome (reference §11.6).
        std::unordered_map<Term, Term, terms::TermHash> shared{{outcome[1], outcome[0]}};
        if (!isVoid) shared.emplace(retVar[1], retVar[0]);
        auto tr = Clock::now();
        usage->h1 = equivalenceEnablingAbstractions(tm, *solver, sum[0].formula,
                                                    tm.substitute(sum[1].formula, shared), h1QueryMs(o),
                                                    h1Deadline(env));
        steps.refinement += since(tr);
      }
      it.partitions.push_back(pr);
      it.result = pr.result;
      it.has_uif = f.uif;
      it.depth_limited = f.depth_limited;
      steps.partition_classification += since(tc);
    }
  } catch (const std::exception& e) {
    it.error = e.what();
  }
  if (!it.error.empty()) it.result = Verdict::ERROR;
  else if (it.timed_out) it.result = Verdict::TIMEOUT;
  it.runtime_s = since(t0);
  return it;
}

}  // namespace pasda::analysis
