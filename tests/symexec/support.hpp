// Helpers for the symbolic interpreter tests: load fixture classes into a Program, explore a
// method and keep its partitions, and decide facts about terms with a separate Z3 solver.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pasda/jvm/loader.hpp"
#include "pasda/solver/solver.hpp"
#include "pasda/symexec/concrete.hpp"
#include "pasda/symexec/executor.hpp"
#include "pasda/symexec/program.hpp"
#include "pasda/terms/term.hpp"

namespace symtest {

using pasda::solver::Status;
using pasda::symexec::Clock;
using pasda::symexec::ExecEffect;
using pasda::symexec::ExecOptions;
using pasda::symexec::ExecStats;
using pasda::symexec::RawPartition;
using pasda::terms::Arith;
using pasda::terms::Sort;
using pasda::terms::Term;
using pasda::terms::TermManager;

inline std::string fixtureRoot() { return std::string(PASDA_FIXTURE_CLASSES) + "/symexec"; }
inline const char* kPkg = "fixtures/symexec/";

struct Explored {
  std::vector<RawPartition> parts;
  ExecStats stats;
  pasda::symexec::MethodInputs in;
};

/// One arithmetic model: a TermManager, a Program whose old side reads the fixture classes,
/// and a checker solver (separate from the executor's solver).
class Harness {
 public:
  explicit Harness(Arith arith, const std::string& classpath = fixtureRoot()) : tm_(arith) {
    program_.setClassPath(pasda::symexec::kOld,
                          std::make_shared<pasda::jvm::ClassPath>(pasda::jvm::ClassPath::parse(classpath)));
    pasda::solver::SolverOptions so;
    so.timeout_ms = 20000;
    checker_ = pasda::solver::makeZ3Solver(tm_, so);
  }

  TermManager& tm() { return tm_; }
  pasda::symexec::Program& program() { return program_; }
  bool java() const { return tm_.arith() == Arith::Java; }

  /// A method of a fixture class; `cls` without package is taken from fixtures/symexec.
  const pasda::symexec::MethodInfo& method(const std::string& cls, const std::string& name, const std::string& desc) {
    std::string internal = cls.find('/') == std::string::npos ? kPkg + cls : cls;
    const pasda::symexec::LoadedClass* c = program_.find(pasda::symexec::kOld, internal);
    if (!c) throw std::runtime_error("fixture class not found: " + internal);
    const pasda::symexec::MethodInfo* m = c->method(name, desc);
    if (!m) throw std::runtime_error("fixture method not found: " + internal + "." + name + desc);
    return *m;
  }

  Explored explore(const std::string& cls, const std::string& name, const std::string& desc,
                   ExecOptions opt = {}) {
    const auto& m = method(cls, name, desc);
    Explored e;
    e.in = pasda::symexec::makeInputs(m, tm_);
    pasda::solver::SolverOptions so;
    so.timeout_ms = opt.solver_timeout_ms;
    auto solver = pasda::solver::makeZ3Solver(tm_, so);
    pasda::symexec::Executor ex(program_, tm_, *solver, opt);
    e.stats = ex.explore(m, e.in.terms, e.in.constraints,
                         [&](const RawPartition& p, pasda::solver::Solver&) { e.parts.push_back(p); });
    return e;
  }

  Term var(const Explored& e, const std::string& name) {
    for (std::size_t i = 0; i < e.in.names.size(); ++i)
      if (e.in.names[i] == name) return e.in.terms[i];
    throw std::runtime_error("no input " + name);
  }

  Term conj(const std::vector<Term>& ts) {
    Term r = tm_.boolLit(true);
    for (Term t : ts) r = tm_.land(r, t);
    return r;
  }
  Term pc(const RawPartition& p) { return conj(p.pc); }
  Term iff(Term a, Term b) { return tm_.lor(tm_.land(a, b), tm_.land(tm_.lnot(a), tm_.lnot(b))); }

  Status check(Term f) {
    checker_->push();
    checker_->add(f);
    Status s = checker_->check().status;
    checker_->pop();
    return s;
  }
  bool valid(Term f) { return check(tm_.lnot(f)) == Status::Unsat; }
  bool equivalent(Term a, Term b) { return valid(iff(a, b)); }
  /// Under `pc`, is the value `v` always equal to `expected` (same numeric value)?
  /// (Java model: Double.equals semantics, so NaN is the same as NaN and -0.0 differs from 0.0.)
  bool alwaysEqual(Term pcTerm, Term v, Term expected) {
    return check(tm_.land(pcTerm, tm_.lnot(tm_.same(v, expected)))) == Status::Unsat;
  }
  /// Is the partition's returned value `expected` at `point` (which the pc must admit)?
  /// Decided by the solver, so it works for reals (Math model) as well as for literals.
  bool returnsAt(const RawPartition& p, const std::unordered_map<Term, Term, pasda::terms::TermHash>& point,
                 Term expected) {
    if (p.entry.kind != ExecEffect::Kind::Return) return false;
    // Literal points fold under the Java model (also through functions the solver leaves
    // uninterpreted, such as fmod); otherwise ask the solver.
    Term pcAt = tm_.substitute(pc(p), point), vAt = tm_.substitute(p.entry.value, point);
    if (tm_.isLit(pcAt) && tm_.isLit(vAt) && tm_.isLit(expected)) {
      return tm_.asBool(pcAt).value_or(false) && tm_.asBool(tm_.same(vAt, expected)).value_or(false);
    }
    Term f = pc(p);
    for (const auto& [v, val] : point) f = tm_.land(f, tm_.eq(v, val));
    if (check(f) == Status::Unsat) return false;
    return alwaysEqual(f, p.entry.value, expected);
  }

  /// Evaluate a Bool/number term at a point by substitution (the manager folds literals).
  Term at(Term t, const std::unordered_map<Term, Term, pasda::terms::TermHash>& point) {
    return tm_.substitute(t, point);
  }
  /// The partitions whose path condition holds at `point` (decided by the solver, so that
  /// inexact function symbols are handled: "may hold").
  std::vector<const RawPartition*> at(const Explored& e,
                                      const std::unordered_map<Term, Term, pasda::terms::TermHash>& point) {
    std::vector<const RawPartition*> out;
    for (const RawPartition& p : e.parts) {
      Term f = pc(p);
      for (const auto& [v, val] : point) f = tm_.land(f, tm_.eq(v, val));
      if (check(f) != Status::Unsat) out.push_back(&p);
    }
    return out;
  }

 private:
  TermManager tm_;
  pasda::symexec::Program program_;
  std::unique_ptr<pasda::solver::Solver> checker_;
};

inline std::size_t countKind(const Explored& e, ExecEffect::Kind k) {
  std::size_t n = 0;
  for (const auto& p : e.parts) n += p.entry.kind == k && !p.depth_limited;
  return n;
}
inline std::size_t countThrow(const Explored& e, const std::string& cls) {
  std::size_t n = 0;
  for (const auto& p : e.parts) n += p.entry.kind == ExecEffect::Kind::Throw && p.entry.exception == cls;
  return n;
}
inline std::size_t countCut(const Explored& e) {
  std::size_t n = 0;
  for (const auto& p : e.parts) n += p.depth_limited;
  return n;
}

/// Both arithmetic models, for parameterised tests.
class BothModels : public ::testing::TestWithParam<Arith> {};
inline std::string modelName(const ::testing::TestParamInfo<Arith>& i) {
  return i.param == Arith::Java ? "Java" : "Math";
}

}  // namespace symtest
