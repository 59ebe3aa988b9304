// Interpreter benchmark (a program, not a test): symbolic exploration of the benchmark's
// largest methods at a fixed deadline each, in both arithmetic models. Prints interpreted
// instructions per second, partitions, forks, solver checks and the share of time in Z3.
//
//   interp_bench [--classes DIR] [--deadline SECONDS] [--depth-limit N] [CASE/VERSION ...]
//
// CASE/VERSION is e.g. Ell/rj/Eq/oldV (the class demo/benchmarks/Ell/rj/Eq/oldV, method
// snippet). DIR defaults to the compiled benchmark classes of the build tree.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/loader.hpp"
#include "pasda/solver/solver.hpp"
#include "pasda/symexec/executor.hpp"
#include "pasda/symexec/program.hpp"
#include "pasda/terms/term.hpp"

#ifndef PASDA_BENCHMARK_CLASSES
#define PASDA_BENCHMARK_CLASSES ""
#endif

namespace {

using namespace pasda;

struct Row {
  std::string name, model;
  symexec::ExecStats stats;
  std::string error;
};

Row runOne(const std::string& classes, const std::string& kase, terms::Arith arith, double deadline, int depth) {
  Row row;
  row.name = kase;
  row.model = terms::arithName(arith);
  try {
    terms::TermManager tm(arith);
    symexec::Program program;
    program.setClassPath(symexec::kOld, std::make_shared<jvm::ClassPath>(jvm::ClassPath::parse(classes)));
    const symexec::LoadedClass* cls = program.find(symexec::kOld, "demo/benchmarks/" + kase);
    if (!cls) throw std::runtime_error("class demo/benchmarks/" + kase + " not found under " + classes);
    const symexec::MethodInfo* m = nullptr;
    for (const auto& [key, mi] : cls->methods)
      if (mi->name == "snippet") m = mi.get();
    if (!m) throw std::runtime_error("no method snippet");
    symexec::MethodInputs in = symexec::makeInputs(*m, tm);
    auto solver = solver::makeZ3Solver(tm, solver::SolverOptions{});
    symexec::ExecOptions opt;
    opt.depth_limit = depth;
    opt.deadline = symexec::Clock::now() + std::chrono::microseconds(static_cast<long long>(deadline * 1e6));
    symexec::Executor ex(program, tm, *solver, opt);
    row.stats = ex.explore(*m, in.terms, in.constraints, [](const symexec::RawPartition&, solver::Solver&) {});
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::string classes = PASDA_BENCHMARK_CLASSES;
  double deadline = 5;
  int depth = 10;
  std::vector<std::string> cases;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--classes" && i + 1 < argc) classes = argv[++i];
    else if (a == "--deadline" && i + 1 < argc) deadline = std::atof(argv[++i]);
    else if (a == "--depth-limit" && i + 1 < argc) depth = std::atoi(argv[++i]);
    else if (a == "--help" || a == "-h") {
      std::printf("usage: interp_bench [--classes DIR] [--deadline S] [--depth-limit N] [CASE/VERSION ...]\n");
      return 0;
    } else cases.push_back(a);
  }
  if (classes.empty()) {
    std::fprintf(stderr, "interp_bench: error: no --classes directory given\n");
    return 2;
  }
  if (!(deadline > 0)) {
    std::fprintf(stderr, "interp_bench: error: --deadline must be positive\n");
    return 2;
  }
  if (cases.empty())
    cases = {"Ell/rj/Eq/oldV", "tcas/altseptest/Eq/oldV", "sine/mysin/Eq/oldV", "Ell/dbrent/Eq/oldV",
             "Ell/ellpi/Eq/oldV", "Bess/bessj/Eq/oldV"};

  std::printf("deadline %.1f s per method, depth limit %d, classes %s\n\n", deadline, depth, classes.c_str());
  std::printf("%-26s %-5s %9s %12s %10s %8s %8s %9s %8s %7s\n", "method", "model", "time s", "instructions",
              "instr/s", "paths", "forks", "checks", "z3 s", "z3 %");
  std::uint64_t totalInstr = 0;
  double totalSecs = 0, totalZ3 = 0;
  for (const std::string& c : cases) {
    for (terms::Arith ar : {terms::Arith::Math, terms::Arith::Java}) {
      Row r = runOne(classes, c, ar, deadline, depth);
      if (!r.error.empty()) {
        std::printf("%-26s %-5s error: %s\n", c.c_str(), r.model.c_str(), r.error.c_str());
        continue;
      }
      const auto& s = r.stats;
      double ips = s.seconds > 0 ? s.instructions / s.seconds : 0;
      double share = s.seconds > 0 ? 100.0 * s.solver_seconds / s.seconds : 0;
      std::printf("%-26s %-5s %9.3f %12llu %10.0f %8llu %8llu %9llu %8.3f %6.1f%%%s\n", c.c_str(), r.model.c_str(),
                  s.seconds, static_cast<unsigned long long>(s.instructions), ips,
                  static_cast<unsigned long long>(s.partitions), static_cast<unsigned long long>(s.forks),
                  static_cast<unsigned long long>(s.solver_checks), s.solver_seconds, share,
                  s.timed_out ? "  (deadline)" : "");
      totalInstr += s.instructions;
      totalSecs += s.seconds;
      totalZ3 += s.solver_seconds;
    }
  }
  if (totalSecs > 0) {
    std::printf("\noverall: %.0f instructions/s, %.1f%% of the time in Z3, %.1f%% interpreting and bookkeeping\n",
                totalInstr / totalSecs, 100 * totalZ3 / totalSecs, 100 * (1 - totalZ3 / totalSecs));
    std::printf("(interpretation-only rate: %.0f instructions per non-solver second)\n",
                totalSecs > totalZ3 ? totalInstr / (totalSecs - totalZ3) : 0.0);
  }
  return 0;
}
