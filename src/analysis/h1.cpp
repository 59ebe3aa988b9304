// ARDiff's H1 refinement heuristic as a quantified Z3 query (docs/refinement.md).
#include <algorithm>
#include <unordered_map>

#include "iteration.hpp"

namespace pasda::analysis {

using terms::Term;

namespace {

// Outermost applications of abstractions and library functions in `root` (an application
// nested in another one's arguments disappears with it when the outer one is replaced).
void outermostApplications(const terms::TermManager& tm, Term root, std::vector<Term>& out, std::set<std::uint32_t>& seen) {
  std::vector<Term> stack{root};
  while (!stack.empty()) {
    Term t = stack.back();
    stack.pop_back();
    if (!seen.insert(t.id).second) continue;
    const terms::Node& n = tm.node(t);
    if (n.op == terms::Op::Apply) {
      out.push_back(t);
      continue;
    }
    for (Term c : n.args) stack.push_back(c);
  }
}

Term iff(terms::TermManager& tm, Term a, Term b) { return tm.land(tm.lor(tm.lnot(a), b), tm.lor(a, tm.lnot(b))); }

}  // namespace

std::set<AbstractionId> equivalenceEnablingAbstractions(terms::TermManager& tm, solver::Solver& solver,
                                                        const AbstractionIndex& index, Term summaryOld,
                                                        Term summaryNew, unsigned per_query_ms,
                                                        symexec::Clock::time_point deadline) {
  std::set<AbstractionId> out;
  if (!summaryOld || !summaryNew) return out;
  std::vector<Term> apps;
  std::set<std::uint32_t> seen;
  outermostApplications(tm, summaryOld, apps, seen);
  std::size_t inOld = apps.size();
  outermostApplications(tm, summaryNew, apps, seen);

  std::unordered_map<Term, Term, terms::TermHash> toConst;
  std::map<AbstractionId, std::vector<Term>> constsOf;  // abstraction -> its constants
  std::vector<AbstractionId> oldKeys;                    // those of the old summary, in order of appearance
  for (std::size_t i = 0; i < apps.size(); ++i) {
    Term c = tm.var("$h1_" + std::to_string(i), tm.sort(apps[i]));
    toConst.emplace(apps[i], c);
    std::optional<AbstractionId> id = index.of(tm.node(apps[i]));
    if (!id) continue;  // library functions: always quantified
    const AbstractionId& key = *id;
    constsOf[key].push_back(c);
    if (i < inOld && std::find(oldKeys.begin(), oldKeys.end(), key) == oldKeys.end()) oldKeys.push_back(key);
  }
  if (oldKeys.empty()) return out;
  Term body = iff(tm, tm.substitute(summaryOld, toConst), tm.substitute(summaryNew, toConst));
  std::vector<Term> vars;
  tm.collectVars(body, vars);

  for (const AbstractionId& key : oldKeys) {
    auto now = symexec::Clock::now();
    if (now >= deadline) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    const std::vector<Term>& mine = constsOf[key];
    std::vector<Term> universal;
    for (Term v : vars)
      if (std::find(mine.begin(), mine.end(), v) == mine.end()) universal.push_back(v);
    solver.setTimeoutMs(static_cast<unsigned>(std::max<long long>(1, std::min<long long>(per_query_ms, left))));
    solver.push();
    solver::CheckResult r = solver.checkForall(body, universal);
    solver.pop();
    if (r.status == solver::Status::Sat) out.insert(key);
  }
  return out;
}

}  // namespace pasda::analysis
