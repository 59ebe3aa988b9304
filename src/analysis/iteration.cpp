// Iterations of the partition-based tools (PASDA, PRV) over the product program.
#include "iteration.hpp"

#include "partition.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::analysis {

using symexec::Clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void loadProgram(const IterationEnv& env, symexec::Program& program) {
  const Prepared& p = env.prepared;
  program.add(symexec::kProduct, p.product.product);
  program.add(symexec::kProduct, p.product.exception);
  program.add(symexec::kOld, p.old_cls);
  program.add(symexec::kNew, p.new_cls);
  program.setClassPath(symexec::kOld, p.old_classpath);
  program.setClassPath(symexec::kNew, p.new_classpath);
}

}  // namespace

IterationResult runProductIteration(IterationEnv& env, const Abstraction& abs, int index, StepTimes& steps) {
  const Options& o = *env.options;
  IterationResult it;
  it.index = index;
  for (const std::string& h : abs.helpers) it.uifs.push_back("helper " + h);
  const auto t0 = Clock::now();
  double classifySeconds = 0;
  try {
    auto ti = Clock::now();
    terms::TermManager tm(o.arith);
    solver::SolverOptions so;
    if (o.solver_timeout_ms) so.timeout_ms = o.solver_timeout_ms;
    std::unique_ptr<solver::Solver> solver = solver::makeZ3Solver(tm, so);
    symexec::Program program;
    loadProgram(env, program);
    const Prepared& p = env.prepared;
    const symexec::LoadedClass* prod = program.find(symexec::kProduct, p.product_name);
    const symexec::MethodInfo* runM = prod ? prod->method("run", p.descriptor) : nullptr;
    const symexec::LoadedClass* oldC = program.find(symexec::kOld, p.old_name);
    const symexec::MethodInfo* oldM = oldC ? oldC->method(p.name, p.descriptor) : nullptr;
    if (!runM || !oldM) throw std::logic_error("product or old method missing after preparation");
    symexec::MethodInputs inputs = symexec::makeInputs(*oldM, tm);
    steps.initialization += since(ti);

    symexec::ExecOptions eo;
    eo.depth_limit = o.depth_limit;
    eo.deadline = env.deadline;
    eo.solver_timeout_ms = so.timeout_ms;
    eo.max_array_length = o.max_array_length;
    eo.product_class = p.product_name;
    eo.abstracted_methods = abs.helpers;
    symexec::Executor ex(program, tm, *solver, eo);
    PartitionClassifier classifier(tm, inputs, p.name, {so.timeout_ms, env.deadline});
    int n = 0;
    auto sink = [&](const symexec::RawPartition& raw, solver::Solver& s) {
      auto tc = Clock::now();
      PartitionResult r = classifier.classify(raw, s, ++n, since(t0));
      if (o.mode == "prv") {
        r.result = classify::withoutBestEffort(r.result);
        r.output_class = classify::withoutBestEffort(r.output_class);
      }
      it.partitions.push_back(std::move(r));
      classifySeconds += since(tc);
    };
    symexec::ExecStats stats = ex.explore(*runM, inputs.terms, inputs.constraints, sink);
    it.timed_out = stats.timed_out;
    steps.symbolic_execution += stats.seconds - classifySeconds;
    steps.partition_classification += classifySeconds;
  } catch (const std::exception& e) {
    it.error = e.what();
  }
  auto tp = Clock::now();
  classify::IterationFacts facts;
  facts.error = !it.error.empty();
  facts.timed_out = it.timed_out;
  for (const PartitionResult& r : it.partitions) {
    facts.partitions.push_back(r.result);
    it.depth_limited = it.depth_limited || r.result == Verdict::DEPTH_LIMITED;
    it.has_uif = it.has_uif || r.uif_pc || r.uif_old || r.uif_new;
  }
  it.result = classify::iterationVerdict(facts);
  if (o.mode == "prv") it.result = classify::withoutBestEffort(it.result);
  it.runtime_s = since(t0);
  steps.program_classification += since(tp);
  return it;
}

void runTool(IterationEnv& env, RunResult& run) {
  const Options& o = *env.options;
  Abstraction none;
  run.iterations.push_back(runProductIteration(env, none, 1, run.steps));
  if (o.mode == "prv") return;
  // Later iterations (UIF abstraction and refinement) are added by the matcher stage.
}

}  // namespace pasda::analysis
