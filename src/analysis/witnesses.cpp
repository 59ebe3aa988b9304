// Beyond the solver (issue 8): every NEQ / MAYBE_NEQ witness is replayed concretely; where
// the solver could not decide, a search for differing inputs runs within a share of the run's
// time. A replayed difference (confirmed at high precision in the math model) proves NEQ.
#include "witnesses.hpp"

#include <algorithm>
#include <filesystem>
#include <unistd.h>

#include "pasda/witness/witness.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Term;

WitnessStage::WitnessStage(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
                           const symexec::MethodInputs& inputs, terms::TermManager& tm)
    : env_(env), inputs_(inputs), tm_(tm) {
  const Options& o = *env.options;
  enabled_ = o.replay != "off";
  for (Term t : inputs.terms)
    if (tm.sort(t) == terms::Sort::Ref) enabled_ = false;  // replay builds no input objects
  renv_.program = &program;
  renv_.product_run = &run;
  renv_.product_class = env.prepared.product_name;
  renv_.input_types = inputs.types;
  renv_.arith = o.arith;
  double total = o.timeout_s * o.search_share;
  search_left_s_ = std::min(total, 10.0);
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

void WitnessStage::process(const symexec::RawPartition& raw, PartitionResult& r, const std::vector<Term>& model) {
  if (!enabled_ || raw.depth_limited || !raw.product_compare) return;
  // Effects on the heap are not part of the replayed outputs; leave such partitions to the solver.
  if (!raw.old_effect.state.empty() || !raw.new_effect.state.empty()) return;
  const bool java = env_.options->arith == terms::Arith::Java;
  auto confirmed = [&](const std::vector<witness::InputValue>& vals, const analysis::Replay& rep) {
    if (!rep.differs) return false;
    if (java) return true;
    witness::SearchProblem p = problem(raw, Clock::now() + std::chrono::seconds(1), model);
    return witness::confirmMath(p, vals) == witness::MathCheck::Confirmed;
  };
  // One interpreter replay gets at most 5 s and never more than a quarter of the time left.
  renv_.interp_timeout_s =
      std::clamp(std::chrono::duration<double>(env_.deadline - Clock::now()).count() / 4.0, 0.01, 5.0);
  if ((r.result == Verdict::NEQ || r.result == Verdict::MAYBE_NEQ) && !r.witness.empty()) {
    std::vector<witness::InputValue> vals = valuesOf(model);
    Replay rep = witness::replayInterp(renv_, vals);
    bool ok = confirmed(vals, rep);
    if (r.result == Verdict::NEQ && !rep.differs)
      rep.note += (rep.note.empty() ? "" : "; ") + std::string("the solver's witness does not replay to a difference");
    r.replays.push_back(rep);
    jvm_inputs_.push_back({r.index, vals});
    if (r.result == Verdict::MAYBE_NEQ && ok) {
      r.result = Verdict::NEQ;
      r.decided_by = "replay";
    }
    return;
  }
  if (r.result != Verdict::UNKNOWN && r.result != Verdict::MAYBE_EQ && r.result != Verdict::MAYBE_NEQ) return;
  if (search_left_s_ <= 0.05) return;
  auto now = Clock::now();
  double runLeft = std::chrono::duration<double>(env_.deadline - now).count();
  double share = std::min({search_left_s_, std::max(0.2, runLeft / 8.0), 1.0, runLeft - 0.3});
  if (share <= 0.05) return;
  auto deadline = now + std::chrono::microseconds(static_cast<long long>(share * 1e6));
  std::optional<std::vector<witness::InputValue>> found = witness::search(problem(raw, deadline, model));
  search_left_s_ -= std::chrono::duration<double>(Clock::now() - now).count();
  if (!found) return;
  Replay rep = witness::replayInterp(renv_, *found);
  if (!confirmed(*found, rep)) return;
  r.replays.push_back(rep);
  r.result = Verdict::NEQ;
  r.decided_by = "search";
  r.witness.clear();
  std::string call = env_.prepared.name + "(";
  for (std::size_t i = 0; i < found->size(); ++i) {
    WitnessValue w;
    w.name = inputs_.names[i];
    w.type = inputs_.types[i].javaName();
    w.literal = witness::javaLiteral(inputs_.types[i], (*found)[i]);
    call += (i ? ", " : "") + w.literal;
    r.witness.push_back(w);
  }
  r.witness_call = call + ")";
  jvm_inputs_.push_back({r.index, *found});
}

void WitnessStage::replayAllInJvm(IterationResult& it) {
  const Options& o = *env_.options;
  if (!enabled_ || jvm_inputs_.empty() || (o.replay != "auto" && o.replay != "jvm")) return;
  // The JVM replay counts against the run's timeout like everything else: it gets the time
  // left (less a margin for writing the results), and none when too little is left.
  double left = std::chrono::duration<double>(env_.deadline - Clock::now()).count() - 0.3;
  if (left < 0.2) return;
  renv_.jvm_timeout_s = std::min(renv_.jvm_timeout_s, left);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec) / ("pasda-jvm-replay-" + std::to_string(::getpid()));
  fs::create_directories(dir, ec);
  try {
    writePrepared(env_.prepared, dir.string());
    std::vector<std::vector<witness::InputValue>> all;
    for (const auto& [index, vals] : jvm_inputs_) all.push_back(vals);
    auto reps = witness::replayJvm(dir.string(), renv_, env_.prepared.old_name, env_.prepared.new_name,
                                   env_.prepared.name, env_.prepared.descriptor, all);
    if (reps) {
      for (std::size_t i = 0; i < reps->size() && i < jvm_inputs_.size(); ++i)
        for (PartitionResult& p : it.partitions)
          if (p.index == jvm_inputs_[i].first) p.replays.push_back((*reps)[i]);
    }
  } catch (const std::exception&) {
    // A failed JVM replay leaves the interpreter's evidence as it is.
  }
  fs::remove_all(dir, ec);
}

}  // namespace pasda::analysis
