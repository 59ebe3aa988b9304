// The explanation of a NEQ partition (issue 14, docs/explain.md): the product runs again on
// the witness's inputs while every changed line's operands (the values its stores, returns,
// branches, field/array writes and calls consume) become ite(b_g, fresh, value) with one
// indicator b_g per line; the solver then finds the fewest indicators that make the outputs
// equal (a cardinality bound over the indicators, raised from 0, and blocking clauses for the
// next sets).
#include "explain.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <tuple>

#include "pasda/jvm/descriptor.hpp"

namespace pasda::analysis {

using symexec::Clock;
using terms::Sort;
using terms::Term;
using jvm::Opcode;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// How many operands on top of the stack `op` consumes as the effect of its line (stores,
/// returns, branches, writes, call arguments); -1: the local slot of an iinc; 0: none.
int consumedOperands(const jvm::Instruction& in) {
  const int op = static_cast<int>(in.op);
  auto between = [&](Opcode lo, Opcode hi) { return op >= static_cast<int>(lo) && op <= static_cast<int>(hi); };
  if (between(Opcode::istore, Opcode::astore_3)) return 1;
  if (between(Opcode::iastore, Opcode::sastore)) return 1;  // the stored value
  if (between(Opcode::ifeq, Opcode::ifle)) return 1;
  if (between(Opcode::if_icmpeq, Opcode::if_icmple)) return 2;
  if (between(Opcode::ireturn, Opcode::dreturn)) return 1;
  switch (in.op) {
    case Opcode::iinc: return -1;
    case Opcode::tableswitch: case Opcode::lookupswitch: case Opcode::putstatic: case Opcode::putfield: return 1;
    case Opcode::invokevirtual: case Opcode::invokespecial: case Opcode::invokestatic:
    case Opcode::invokeinterface: case Opcode::invokedynamic:
      return static_cast<int>(jvm::parseMethodDescriptor(in.member.descriptor).params.size());
    default: return 0;
  }
}

std::string renameDescriptor(std::string d, const std::string& from, const std::string& to) {
  const std::string pat = "L" + from + ";", rep = "L" + to + ";";
  for (auto pos = d.find(pat); pos != std::string::npos; pos = d.find(pat, pos + rep.size())) d.replace(pos, pat.size(), rep);
  return d;
}

std::string trimmed(std::string s) {
  // A trailing line comment is not code (strings with quotes are left alone).
  if (s.find('"') == std::string::npos)
    if (auto c = s.find("//"); c != std::string::npos) s.erase(c);
  auto b = s.find_first_not_of(" \t\r");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace

Term outputsEqual(terms::TermManager& tm, const symexec::RawPartition& p) {
  if (p.error_mismatch) return tm.boolLit(false);
  Term v1 = p.old_effect.kind == symexec::ExecEffect::Kind::Return ? p.old_effect.value : Term{};
  Term v2 = p.new_effect.kind == symexec::ExecEffect::Kind::Return ? p.new_effect.value : Term{};
  Term same = (v1 && v2) ? tm.same(v1, v2) : tm.boolLit(true);
  if (p.old_effect.state.size() != p.new_effect.state.size()) return tm.boolLit(false);
  for (std::size_t i = 0; i < p.old_effect.state.size(); ++i)
    same = tm.land(same, tm.same(p.old_effect.state[i].second, p.new_effect.state[i].second));
  return same;
}

Explainer::Explainer(const IterationEnv& env, const symexec::Program& program, const symexec::MethodInfo& run,
                     const symexec::MethodInputs& inputs, terms::TermManager& tm, const symexec::ExecOptions& eo,
                     std::vector<Term> run_args)
    : env_(env), program_(program), run_(run), inputs_(inputs), tm_(tm), eo_(eo), run_args_(std::move(run_args)) {
  eo_.regions.clear();
  eo_.abstracted_methods.clear();
}

void Explainer::plan() {
  planned_ = true;
  const Prepared& p = env_.prepared;
  std::vector<diff::ChangedLine> lines;
  try {
    lines = diff::changedLines(p.orig_old, p.orig_new, p.name + ":" + p.descriptor);
  } catch (const std::exception& e) {
    plan_note_ = std::string("no changed code: ") + e.what();
    return;
  }
  for (diff::ChangedLine& c : lines) {
    const std::size_t g = groups_.size();
    const int side = c.side == 0 ? symexec::kOld : symexec::kNew;
    const auto colon = c.method.find(':');
    const std::string& from = c.side == 0 ? p.orig_old_name : p.orig_new_name;
    const std::string& to = c.side == 0 ? p.old_name : p.new_name;
    const std::string key = c.method.substr(0, colon) + ":" + renameDescriptor(c.method.substr(colon + 1), from, to);
    for (std::uint32_t pc : c.pcs) at_[side][key][pc] = g;
    Term b = tm_.var("$cause_b" + std::to_string(g), Sort::Bool);
    groups_.push_back({std::move(c), b});
  }
  if (groups_.empty()) plan_note_ = "the matcher found no changed code";
  eo_.before_step = [this](const symexec::StepView& v) { relax(v); };
}

void Explainer::relax(const symexec::StepView& v) {
  const Prepared& p = env_.prepared;
  if (v.method->owner->name != (v.side == symexec::kOld ? p.old_name : p.new_name)) return;
  auto side = at_.find(v.side);
  if (side == at_.end()) return;
  auto m = side->second.find(v.method->name + ":" + v.method->descriptor);
  if (m == side->second.end()) return;
  auto g = m->second.find(v.insn->pc);
  if (g == m->second.end()) return;
  const Term b = groups_[g->second].indicator;
  auto relaxed = [&](Term t, std::size_t k) {
    if (!t || tm_.sort(t) == Sort::Ref) return t;
    const terms::Node& n = tm_.node(t);
    if (n.op == terms::Op::Ite && !n.args.empty() && n.args[0] == b) return t;  // a forked copy: done already
    Term fresh = tm_.var("$cause_v" + std::to_string(g->second) + "_" + std::to_string(v.step) + "_" + std::to_string(k),
                         tm_.sort(t));
    return tm_.ite(b, fresh, t);
  };
  const int n = consumedOperands(*v.insn);
  if (n < 0) {
    auto slot = static_cast<std::size_t>(v.insn->local);
    if (slot < v.locals->size()) (*v.locals)[slot] = relaxed((*v.locals)[slot], 0);
    return;
  }
  std::vector<Term>& st = *v.stack;
  for (int k = 0; k < n && static_cast<std::size_t>(k) < st.size(); ++k) {
    Term& t = st[st.size() - 1 - static_cast<std::size_t>(k)];
    t = relaxed(t, static_cast<std::size_t>(k));
  }
}

std::optional<Term> Explainer::relaxedRun(const std::vector<Term>& pinned, Clock::time_point deadline, std::string& note) {
  symexec::ExecOptions eo = eo_;
  eo.deadline = std::min(eo.deadline, deadline);
  // Relaxed branches fork; loops whose condition is relaxed are bounded like any loop, a bit
  // deeper than the analysis (the witness's own decisions are forced by the pinned inputs).
  eo.depth_limit = eo_.depth_limit + 10;
  eo.max_steps_per_path = std::min<std::uint64_t>(eo.max_steps_per_path, 200'000);
  std::atomic<bool> cancel{false};
  eo.cancel = &cancel;
  solver::SolverOptions so;
  so.timeout_ms = 250;
  std::unique_ptr<solver::Solver> solver = solver::makeZ3Solver(tm_, so);
  Term any = tm_.boolLit(false);
  int paths = 0, compared = 0;
  try {
    symexec::Executor ex(program_, tm_, *solver, eo);
    ex.explore(run_, run_args_, pinned, [&](const symexec::RawPartition& raw, solver::Solver&) {
      if (++paths >= 256) cancel = true;
      if (!raw.product_compare || raw.depth_limited) return;
      ++compared;
      Term path = outputsEqual(tm_, raw);
      for (Term c : raw.pc) path = tm_.land(path, c);
      any = tm_.lor(any, path);
    });
  } catch (const std::exception& e) {
    note = std::string("the relaxed run failed: ") + e.what();
    return std::nullopt;
  }
  if (compared == 0) {
    note = "the relaxed run reached no comparison";
    return std::nullopt;
  }
  return any;
}

std::vector<std::vector<std::size_t>> Explainer::minimalSets(Term f, Clock::time_point deadline, std::string& note) {
  solver::SolverOptions so;
  so.timeout_ms = 500;
  std::unique_ptr<solver::Solver> s = solver::makeZ3Solver(tm_, so);
  s->add(f);
  Term count = tm_.intLit(0);
  for (const Group& g : groups_) count = tm_.add(count, tm_.ite(g.indicator, tm_.intLit(1), tm_.intLit(0)));
  std::vector<std::vector<std::size_t>> sets;
  for (std::size_t k = 0; k <= groups_.size() && sets.size() < 3;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 1) {
      note = "time budget of the explanation used up";
      break;
    }
    s->setTimeoutMs(static_cast<unsigned>(std::min<long long>(left, 500)));
    solver::CheckResult r = s->check({tm_.le(count, tm_.intLit(static_cast<std::int32_t>(k)))});
    if (r.status == solver::Status::Unknown) {
      note = "solver: " + r.reason;
      break;
    }
    if (r.status == solver::Status::Unsat) {
      ++k;
      continue;
    }
    std::vector<std::size_t> set;
    Term block = tm_.boolLit(false);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      auto v = s->eval(groups_[g].indicator);
      if (!v || !tm_.asBool(*v).value_or(false)) continue;
      set.push_back(g);
      block = tm_.lor(block, tm_.lnot(groups_[g].indicator));
    }
    if (set.empty()) {
      note = "the outputs agree on the witness's relaxed run without any change";
      break;
    }
    sets.push_back(set);
    s->add(block);  // later sets must not contain this one
  }
  return sets;
}

std::string Explainer::sourceText(int side, const std::vector<int>& lines) {
  const int v = side == 0 ? 0 : 1;
  if (!source_loaded_[v]) {
    source_loaded_[v] = true;
    if (!env_.source_file[v].empty()) {
      std::ifstream in(env_.source_file[v]);
      for (std::string l; std::getline(in, l);) source_lines_[v].push_back(l);
    }
  }
  std::string out;
  for (int l : lines) {
    if (l <= 0 || static_cast<std::size_t>(l) > source_lines_[v].size()) return "";
    std::string t = trimmed(source_lines_[v][static_cast<std::size_t>(l - 1)]);
    if (!t.empty()) out += (out.empty() ? "" : " ") + t;
  }
  return out;
}

Cause Explainer::causeOf(const std::vector<std::size_t>& set) {
  Cause c;
  for (std::size_t g : set) {
    const diff::ChangedLine& l = groups_[g].line;
    CauseLine cl;
    cl.side = l.side == 0 ? "old" : "new";
    cl.line = l.line;
    cl.method = l.method;
    cl.kind = l.kind == diff::ChangedLine::Kind::Changed ? "changed"
              : l.kind == diff::ChangedLine::Kind::Inserted ? "inserted" : "deleted";
    std::string here = sourceText(l.side, {l.line});
    if (here.empty()) here = l.code;
    (l.side == 0 ? cl.old_code : cl.new_code) = here;
    if (l.kind == diff::ChangedLine::Kind::Changed) {
      cl.old_code = sourceText(0, l.other_lines);
      if (cl.old_code.empty()) cl.old_code = l.other_code;
    }
    c.lines.push_back(std::move(cl));
  }
  std::sort(c.lines.begin(), c.lines.end(),
            [](const CauseLine& a, const CauseLine& b) { return std::tie(a.side, a.line) < std::tie(b.side, b.line); });
  return c;
}

void Explainer::explain(PartitionResult& r, const std::vector<Term>& model) {
  const auto t0 = Clock::now();
  const Options& o = *env_.options;
  auto done = [&](std::string note) {
    r.cause_note = std::move(note);
    r.explain_s = since(t0);
  };
  if (!o.explain) return done("explanation off");
  if (!planned_) plan();
  if (groups_.empty()) return done(plan_note_);
  std::vector<Term> pinned = inputs_.constraints;
  for (std::size_t i = 0; i < inputs_.terms.size(); ++i) {
    if (tm_.sort(inputs_.terms[i]) == Sort::Ref) return done("not explained: reference inputs");
    if (i >= model.size() || !model[i]) return done("not explained: the witness has no value for " + inputs_.names[i]);
    pinned.push_back(tm_.eq(inputs_.terms[i], model[i]));
  }
  // At most a share of the time left (and 1 s) per partition.
  double left = env_.deadline == Clock::time_point::max() ? 10.0 : std::chrono::duration<double>(env_.deadline - t0).count();
  double budget = std::min(1.0, left * o.explain_share);
  if (budget < 0.005) return done("time budget of the explanation used up");
  auto deadline = t0 + std::chrono::microseconds(static_cast<long long>(budget * 1e6));
  std::string note;
  std::optional<Term> f = relaxedRun(pinned, deadline, note);
  if (!f) return done(note);
  for (const auto& set : minimalSets(*f, deadline, note)) r.causes.push_back(causeOf(set));
  done(r.causes.empty() ? (note.empty() ? "no set of changed lines makes the outputs equal" : note) : "");
}

}  // namespace pasda::analysis
