// Standalone benchmark (not built by CMake) for the solver layer's default timeout choice.
// Build from a build tree that has libpasda_solver.a and libpasda_terms.a, e.g.:
//   g++ -std=c++20 -O2 -Iinclude bench/solver_bench.cpp <build>/libpasda_solver.a \
//       <build>/libpasda_terms.a -lz3 -pthread -o solver_bench
// Prints the latency distribution of typical path-condition queries in both models and how
// long a hard Float64 query runs against several timeouts.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "pasda/solver/solver.hpp"

using namespace pasda::terms;
using namespace pasda::solver;

namespace {

void report(const char* what, std::vector<double>& ms) {
  std::sort(ms.begin(), ms.end());
  auto q = [&](double p) { return ms[static_cast<std::size_t>(p * (ms.size() - 1))]; };
  std::printf("%-38s n=%zu median %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms\n", what, ms.size(), q(0.5), q(0.9),
              q(0.99), ms.back());
}

// A path-condition-like workload: a growing conjunction of random linear branch conditions,
// explored depth-first with push/pop, in the given model and value sort.
void pathWorkload(Arith ar, Sort s, const char* label) {
  TermManager tm(ar);
  auto solver = makeZ3Solver(tm, {});
  std::mt19937 rng(7);
  std::vector<Term> vars;
  for (int i = 0; i < 4; ++i) vars.push_back(tm.var("v" + std::to_string(i), s));
  auto lit = [&](int v) {
    switch (s) {
      case Sort::Int: return tm.intLit(v);
      case Sort::Long: return tm.longLit(v);
      case Sort::Float: return tm.floatLit(static_cast<float>(v));
      default: return tm.doubleLit(v);
    }
  };
  std::vector<double> ms;
  for (int path = 0; path < 40; ++path) {
    unsigned depth = 0;
    for (int d = 0; d < 8; ++d) {
      Term a = vars[rng() % 4], b = vars[rng() % 4];
      Term lhs = tm.add(tm.mul(a, lit(static_cast<int>(rng() % 5) + 1)), b);
      Term cond = rng() % 2 ? tm.lt(lhs, lit(static_cast<int>(rng() % 200) - 100)) : tm.ge(lhs, lit(static_cast<int>(rng() % 200) - 100));
      solver->push();
      ++depth;
      solver->add(cond);
      auto r = solver->check();
      ms.push_back(r.seconds * 1000);
      if (r.status != Status::Sat) break;
    }
    solver->pop(depth);
  }
  report(label, ms);
}

void hardQuery(unsigned timeout) {
  TermManager tm(Arith::Java);
  SolverOptions o;
  o.timeout_ms = timeout;
  auto s = makeZ3Solver(tm, o);
  Term x = tm.var("x", Sort::Double), y = tm.var("y", Sort::Double), z = tm.var("z", Sort::Double);
  Term q = tm.lnot(tm.same(tm.mul(tm.mul(x, y), z), tm.mul(x, tm.mul(y, z))));
  auto r = s->check({q});
  std::printf("Float64 (x*y)*z vs x*(y*z), timeout %5u ms: %s %s after %.3f s\n", timeout, statusName(r.status),
              r.reason.c_str(), r.seconds);
}

}  // namespace

int main() {
  pathWorkload(Arith::Math, Sort::Int, "math/int path conditions");
  pathWorkload(Arith::Math, Sort::Double, "math/real path conditions");
  pathWorkload(Arith::Java, Sort::Int, "java/bv32 path conditions");
  pathWorkload(Arith::Java, Sort::Double, "java/float64 path conditions");
  for (unsigned t : {200u, 1000u, 3000u}) hardQuery(t);
  return 0;
}
