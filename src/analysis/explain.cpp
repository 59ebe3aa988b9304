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
#include <unordered_map>

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
    const symexec::Side side = c.side;
    const auto colon = c.method.find(':');
    const std::string& from = c.side == pasda::Version::kOld ? p.orig_old_name : p.orig_new_name;
    const std::string& to = c.side == pasda::Version::kOld ? p.old_name : p.new_name;
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
  const auto& byMethod = at_[v.side];
  auto m = byMethod.find(v.method->name + ":" + v.method->descriptor);
  if (m == byMethod.end()) return;
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

std::optional<Term> Explainer::relaxedRun(const std::vector<Term>& args, const std::vector<Term>& assumptions,
                                          Clock::time_point deadline, std::string& note) {
  symexec::ExecOptions eo = eo_;
  eo.deadline = std::min(eo.deadline, deadline);
  // Relaxed branches fork; loops whose condition is relaxed are bounded like any loop, a bit
  // deeper than the analysis (the witness's own decisions are forced by the pinned inputs).
  eo.depth_limit = eo_.depth_limit + 10;
  eo.max_steps_per_path = std::min<std::uint64_t>(eo.max_steps_per_path, 200'000);
  std::atomic<bool> cancel{false};
  eo.cancel = &cancel;
  // The inputs are literals: under Java arithmetic every branch the relaxation does not reach
  // folds, and a relaxed branch can go both ways, so no solver is needed (one that answers
  // nothing lets both directions through; an infeasible combination only adds an
  // unsatisfiable disjunct). Under the math model real arithmetic on literals stays a term,
  // which Z3 decides at once.
  if (!none_) none_ = solver::makeNullSolver();
  solver::Solver& solver = tm_.arith() == terms::Arith::Java ? *none_ : this->solver();
  Term any = tm_.boolLit(false);
  int paths = 0, compared = 0;
  try {
    symexec::Executor ex(program_, tm_, solver, eo);
    ex.explore(run_, args, assumptions, [&](const symexec::RawPartition& raw, solver::Solver&) {
      if (++paths >= kMaxPaths) cancel = true;
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

namespace {

/// The next k-subset of {0..n-1} in lexicographic order (false after the last).
bool nextSubset(std::vector<std::size_t>& idx, std::size_t n) {
  const std::size_t k = idx.size();
  for (std::size_t i = k; i-- > 0;) {
    if (idx[i] + (k - i) < n) {
      ++idx[i];
      for (std::size_t j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
      return true;
    }
  }
  return false;
}

}  // namespace

solver::Status Explainer::corrects(Term f, const std::vector<std::size_t>& set, Clock::time_point deadline) {
  std::unordered_map<Term, Term, terms::TermHash> fix;
  for (std::size_t g = 0; g < groups_.size(); ++g)
    fix.emplace(groups_[g].indicator, tm_.boolLit(std::find(set.begin(), set.end(), g) != set.end()));
  // The other lines keep their values: their relaxations fold away, and often the whole formula.
  Term q = tm_.substitute(f, fix);
  if (auto b = tm_.asBool(q)) return *b ? solver::Status::Sat : solver::Status::Unsat;
  // Before Z3: values for the candidate's fresh variables read off the formula's equalities,
  // checked by folding. Only a formula that folds to true counts (a model, so Sat is sound);
  // anything else goes to the solver.
  if (guessedModel(q)) return solver::Status::Sat;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 1) return solver::Status::Unknown;
  solver::Solver& s = solver();
  s.setTimeoutMs(static_cast<unsigned>(std::min<long long>(left, 250)));
  solver::CheckResult r = s.check({q});
  if (r.reason.find("retired") != std::string::npos) solver_.reset();
  return r.status;
}

bool Explainer::guessedModel(Term q) {
  std::vector<Term> vars;
  tm_.collectVars(q, vars);
  if (vars.empty() || vars.size() > 256) return false;
  auto ground = [&](Term t) { return tm_.isLit(t); };
  // var := value from Eq/Same(var ± literal, literal) anywhere under And/Or/Not (a guess only).
  std::unordered_map<Term, Term, terms::TermHash> val;
  {
    std::vector<Term> todo{q};
    std::unordered_map<Term, bool, terms::TermHash> seen;
    while (!todo.empty() && val.size() < vars.size()) {
      Term t = todo.back();
      todo.pop_back();
      if (!seen.emplace(t, true).second) continue;
      const terms::Node& n = tm_.node(t);
      if (n.op == terms::Op::And || n.op == terms::Op::Or || n.op == terms::Op::Not || n.op == terms::Op::Ite) {
        for (Term a : n.args) todo.push_back(a);
        continue;
      }
      if ((n.op != terms::Op::Eq && n.op != terms::Op::Same) || n.args.size() != 2) continue;
      for (int side = 0; side < 2; ++side) {
        Term lhs = n.args[static_cast<std::size_t>(side)], rhs = n.args[static_cast<std::size_t>(1 - side)];
        if (!ground(rhs)) continue;
        const terms::Node& l = tm_.node(lhs);
        Term v, value;
        if (l.op == terms::Op::Var) {
          v = lhs, value = rhs;
        } else if ((l.op == terms::Op::Add || l.op == terms::Op::Sub) && l.args.size() == 2 &&
                   tm_.node(l.args[0]).op == terms::Op::Var && ground(l.args[1])) {
          v = l.args[0];
          value = l.op == terms::Op::Add ? tm_.sub(rhs, l.args[1]) : tm_.add(rhs, l.args[1]);
        } else if (l.op == terms::Op::Add && l.args.size() == 2 && tm_.node(l.args[1]).op == terms::Op::Var &&
                   ground(l.args[0])) {
          v = l.args[1], value = tm_.sub(rhs, l.args[0]);
        }
        if (v && value && tm_.isLit(value) && tm_.sort(value) == tm_.sort(v)) val.emplace(v, value);
      }
    }
  }
  // The rest: 0 (false), then 1 (true).
  for (int one = 0; one < 2; ++one) {
    std::unordered_map<Term, Term, terms::TermHash> all = val;
    for (Term v : vars)
      if (!all.count(v)) {
        const Sort s = tm_.sort(v);
        if (s == Sort::Ref) return false;
        all.emplace(v, s == Sort::Bool ? tm_.boolLit(one == 1)
                       : s == Sort::Int ? tm_.intLit(one) : s == Sort::Long ? tm_.longLit(one)
                       : s == Sort::Float ? tm_.floatLit(static_cast<float>(one)) : tm_.doubleLit(one));
      }
    if (auto b = tm_.asBool(tm_.substitute(q, all)); b && *b) return true;
  }
  return false;
}

solver::Solver& Explainer::solver() {
  // One solver for every explanation of the iteration (a Z3 context costs milliseconds to
  // tens of milliseconds): the relaxed runs leave it at level 0, the checks use assumptions.
  if (!solver_) {
    solver::SolverOptions so;
    so.timeout_ms = 250;
    solver_ = solver::makeZ3Solver(tm_, so);
  }
  return *solver_;
}

std::vector<std::vector<std::size_t>> Explainer::minimalSets(Term f, Clock::time_point deadline, std::string& note) {
  std::vector<std::vector<std::size_t>> sets;
  // Only the lines the relaxed run executed can matter.
  std::vector<Term> vars;
  tm_.collectVars(f, vars);
  std::vector<std::size_t> live;
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (std::find(vars.begin(), vars.end(), groups_[g].indicator) != vars.end()) live.push_back(g);
  if (corrects(f, {}, deadline) == solver::Status::Sat) {
    note = "the outputs agree on the witness's relaxed run without any change";
    return sets;
  }
  // Candidate sets by increasing size, supersets of sets found skipped: each set found is
  // minimum among the remaining ones, hence subset-minimal.
  int checks = 0;
  bool unknown = false;
  for (std::size_t k = 1; k <= live.size() && sets.size() < 3; ++k) {
    std::vector<std::size_t> idx(k);
    for (std::size_t i = 0; i < k; ++i) idx[i] = i;
    do {
      std::vector<std::size_t> cand;
      for (std::size_t i : idx) cand.push_back(live[i]);
      bool super = std::any_of(sets.begin(), sets.end(), [&](const std::vector<std::size_t>& s) {
        return std::includes(cand.begin(), cand.end(), s.begin(), s.end());
      });
      if (super) continue;
      if (++checks > kMaxChecks || Clock::now() >= deadline) {
        note = "time budget of the explanation used up";
        return sets;
      }
      solver::Status st = corrects(f, cand, deadline);
      unknown = unknown || st == solver::Status::Unknown;
      if (st == solver::Status::Sat) sets.push_back(cand);
    } while (sets.size() < 3 && nextSubset(idx, live.size()));
  }
  if (sets.empty()) note = unknown ? "the solver could not decide the candidate sets" : "";
  return sets;
}

std::string Explainer::sourceText(pasda::Version v, const std::vector<int>& lines) {
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
    cl.side = std::string(versionName(l.side));
    cl.line = l.line;
    cl.method = l.method;
    cl.kind = l.kind == diff::ChangedLine::Kind::Changed ? "changed"
              : l.kind == diff::ChangedLine::Kind::Inserted ? "inserted" : "deleted";
    std::string here = sourceText(l.side, {l.line});
    if (here.empty()) here = l.code;
    (l.side == pasda::Version::kOld ? cl.old_code : cl.new_code) = here;
    if (l.kind == diff::ChangedLine::Kind::Changed) {
      cl.old_code = sourceText(pasda::Version::kOld, l.other_lines);
      if (cl.old_code.empty()) cl.old_code = l.other_code;
    }
    cl.near_new_lines = l.near_lines;
    c.lines.push_back(std::move(cl));
  }
  std::sort(c.lines.begin(), c.lines.end(),
            [](const CauseLine& a, const CauseLine& b) { return std::tie(a.side, a.line) < std::tie(b.side, b.line); });
  return c;
}

void Explainer::explain(PartitionResult& r, const std::vector<Term>& model,
                        const std::vector<std::pair<Term, Term>>& statics) {
  const auto t0 = Clock::now();
  const Options& o = *env_.options;
  auto done = [&](std::string note) {
    r.cause_note = std::move(note);
    r.explain_s = since(t0);
    spent_s_ += r.explain_s;
  };
  if (!o.explain) return done("explanation off");
  if (!planned_) plan();
  if (groups_.empty()) return done(plan_note_);
  // The inputs become the witness's literals in the run's arguments: every computation the
  // relaxation does not reach folds to a literal (library functions too), so the solver sees
  // only the indicators and the fresh values.
  std::unordered_map<Term, Term, terms::TermHash> pin;
  for (std::size_t i = 0; i < inputs_.terms.size(); ++i) {
    if (tm_.sort(inputs_.terms[i]) == Sort::Ref) return done("not explained: reference inputs");
    if (i >= model.size() || !model[i]) return done("not explained: the witness has no value for " + inputs_.names[i]);
    pin.emplace(inputs_.terms[i], model[i]);
  }
  std::vector<Term> args, assumptions;
  for (Term a : run_args_) args.push_back(tm_.substitute(a, pin));
  for (Term c : inputs_.constraints) assumptions.push_back(tm_.substitute(c, pin));
  // All explanations of an iteration share a budget: explain_share of the time left at the
  // first one (at most 5 s); one partition gets at most 1 s of it.
  if (budget_s_ < 0) {
    double left = env_.deadline == Clock::time_point::max() ? o.time.explain_unbounded_s
                                                             : std::chrono::duration<double>(env_.deadline - t0).count();
    budget_s_ = std::min(o.time.explain_cap_s, std::max(0.0, left) * o.explain_share);
  }
  double budget = std::min(o.time.explain_partition_cap_s, budget_s_ - spent_s_);
  if (budget < o.time.explain_min_s) return done("time budget of the explanation used up");
  auto deadline = t0 + std::chrono::microseconds(static_cast<long long>(budget * 1e6));
  std::string note;
  try {
    std::optional<Term> f = relaxedRun(args, assumptions, deadline, note);
    if (!f) return done(note);
    // The statics the path read are read lazily in the run, not arguments: their witness values
    // are conjoined (free, they could make the outputs agree without any change).
    for (const auto& [var, value] : statics) f = tm_.land(*f, tm_.same(var, value));
    for (const auto& set : minimalSets(*f, deadline, note)) r.causes.push_back(causeOf(set));
  } catch (const std::exception& e) {  // never an error of the run
    r.causes.clear();
    solver_.reset();
    return done(std::string("the explanation failed: ") + e.what());
  }
  done(r.causes.empty() ? (note.empty() ? "no set of changed lines makes the outputs equal" : note) : "");
}

}  // namespace pasda::analysis
