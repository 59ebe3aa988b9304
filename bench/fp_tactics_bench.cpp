// Standalone benchmark (not built by CMake) for issue 17: Z3 strategies for the Float64 queries
// of --arith java on the ARDiff benchmark's shapes, against the solver the engine uses
// (tactic qffpbv). Build:
//   g++ -std=c++20 -O2 bench/fp_tactics_bench.cpp -lz3 -o fp_tactics_bench
// Run: ./fp_tactics_bench [timeout_ms]   (default 5000)
// For every query shape and strategy it prints the answer and the wall time. Strategies:
//   qffpbv      tactic("qffpbv").mk_solver()  (what src/solver uses for floating point)
//   default     z3::solver(ctx)                (the general solver, logic detected)
//   QF_FP       z3::solver(ctx, "QF_FP")
//   bv-pipeline simplify, fpa2bv, propagate-values, simplify, bit-blast, sat (as a tactic)
//   approx32    reduced precision first: the query over Float32 operations (the inputs
//               rounded), a Sat model checked in Float64 by evaluation; when it does not hold
//               there, the full Float64 query (qffpbv)
// The query shapes are those of the benchmark pairs whose differences are floating-point ones
// (Bess/dawson, Bess/bessy1: reassociated polynomials; Airy/MAX: NaN through a max) and of
// equivalences the engine must prove (a reordering that is exact under a path condition).
#include <z3++.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Fp {
  z3::context& c;
  unsigned e, s;
  z3::expr rm() { return z3::expr(c, Z3_mk_fpa_rne(c)); }
  z3::sort sort() { return c.fpa_sort(e, s); }
  // An input: to_fp of a 64-bit vector (as the engine declares doubles), rounded to this precision.
  z3::expr input(const z3::expr& bits) {
    z3::expr d(c, Z3_mk_fpa_to_fp_bv(c, bits, c.fpa_sort(11, 53)));
    if (e == 11) return d;
    return z3::expr(c, Z3_mk_fpa_to_fp_float(c, rm(), d, sort()));
  }
  z3::expr lit(double v) { return z3::expr(c, Z3_mk_fpa_numeral_double(c, v, sort())); }
  z3::expr add(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_add(c, rm(), a, b)); }
  z3::expr sub(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_sub(c, rm(), a, b)); }
  z3::expr mul(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_mul(c, rm(), a, b)); }
  z3::expr div(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_div(c, rm(), a, b)); }
  z3::expr lt(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_lt(c, a, b)); }
  z3::expr gt(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_gt(c, a, b)); }
  z3::expr geq(const z3::expr& a, const z3::expr& b) { return z3::expr(c, Z3_mk_fpa_geq(c, a, b)); }
  z3::expr isNaN(const z3::expr& a) { return z3::expr(c, Z3_mk_fpa_is_nan(c, a)); }
};

// A query: a formula over 64-bit input vectors, built at a given precision.
struct Shape {
  const char* name;
  int inputs;
  std::function<z3::expr(Fp&, const std::vector<z3::expr>&)> build;  // "the outputs differ" (+ pc)
};

std::vector<Shape> shapes() {
  return {
      {"cancel (a+b)-b vs a", 2,
       [](Fp& f, const std::vector<z3::expr>& x) { return f.sub(f.add(x[0], x[1]), x[1]) != x[0]; }},
      {"reassoc (a+b)+c vs a+(b+c)", 3,
       [](Fp& f, const std::vector<z3::expr>& x) {
         return f.add(f.add(x[0], x[1]), x[2]) != f.add(x[0], f.add(x[1], x[2]));
       }},
      {"horner vs expanded cubic (dawson-like)", 1,
       [](Fp& f, const std::vector<z3::expr>& x) {
         const z3::expr& t = x[0];
         z3::expr h = f.mul(f.add(f.mul(f.add(f.mul(f.lit(0.25), t), f.lit(-0.5)), t), f.lit(1.0)), t);
         z3::expr e = f.add(f.add(f.mul(f.mul(f.mul(f.lit(0.25), t), t), t), f.mul(f.mul(f.lit(-0.5), t), t)), t);
         return f.lt(f.lit(0.0), t) && f.lt(t, f.lit(1.0)) && h != e;
       }},
      {"ratio x/y*y vs x, 1<x,y<2 (bessy1-like)", 2,
       [](Fp& f, const std::vector<z3::expr>& x) {
         return f.lt(f.lit(1.0), x[0]) && f.lt(x[0], f.lit(2.0)) && f.lt(f.lit(1.0), x[1]) && f.lt(x[1], f.lit(2.0)) &&
                f.mul(f.div(x[0], x[1]), x[1]) != x[0];
       }},
      {"max: b>a?b:a vs a>=b?a:b, NaN (Airy/MAX-like)", 2,
       [](Fp& f, const std::vector<z3::expr>& x) {
         z3::expr o = z3::ite(f.gt(x[1], x[0]), x[1], x[0]);
         z3::expr n = z3::ite(f.isNaN(x[0]) || f.isNaN(x[1]), f.c.fpa_nan(f.sort()), z3::ite(f.geq(x[0], x[1]), x[0], x[1]));
         return o != n;
       }},
      {"exact: (x*2)/2 vs x, 0<x<100 (unsat)", 1,
       [](Fp& f, const std::vector<z3::expr>& x) {
         return f.lt(f.lit(0.0), x[0]) && f.lt(x[0], f.lit(100.0)) && f.div(f.mul(x[0], f.lit(2.0)), f.lit(2.0)) != x[0];
       }},
      {"exact: x+0.5 > x under 1<x<1e6 (unsat)", 1,
       [](Fp& f, const std::vector<z3::expr>& x) {
         return f.lt(f.lit(1.0), x[0]) && f.lt(x[0], f.lit(1e6)) && !f.gt(f.add(x[0], f.lit(0.5)), x[0]);
       }},
  };
}

struct Outcome {
  std::string answer;
  double ms;
};

Outcome run(z3::solver s, const z3::expr& q, unsigned timeoutMs) {
  s.set("timeout", timeoutMs);
  s.add(q);
  auto t0 = Clock::now();
  z3::check_result r = s.check();
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return {r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", ms};
}

std::vector<z3::expr> bitsVars(z3::context& c, int n) {
  std::vector<z3::expr> v;
  for (int i = 0; i < n; ++i) v.push_back(c.bv_const(("x" + std::to_string(i)).c_str(), 64));
  return v;
}

Outcome strategy(const std::string& name, const Shape& sh, unsigned timeoutMs) {
  z3::context c;
  auto bits = bitsVars(c, sh.inputs);
  Fp f64{c, 11, 53};
  std::vector<z3::expr> in64;
  for (auto& b : bits) in64.push_back(f64.input(b));
  z3::expr q64 = sh.build(f64, in64);
  if (name == "qffpbv") return run(z3::tactic(c, "qffpbv").mk_solver(), q64, timeoutMs);
  if (name == "default") return run(z3::solver(c), q64, timeoutMs);
  if (name == "QF_FP") return run(z3::solver(c, "QF_FP"), q64, timeoutMs);
  if (name == "bv-pipeline") {
    z3::tactic t = z3::tactic(c, "simplify") & z3::tactic(c, "fpa2bv") & z3::tactic(c, "propagate-values") &
                   z3::tactic(c, "simplify") & z3::tactic(c, "bit-blast") & z3::tactic(c, "sat");
    return run(t.mk_solver(), q64, timeoutMs);
  }
  // approx32: the same shape over Float32 operations on the same 64-bit inputs.
  auto t0 = Clock::now();
  Fp f32{c, 8, 24};
  std::vector<z3::expr> in32;
  for (auto& b : bits) in32.push_back(f32.input(b));
  z3::solver s32 = z3::tactic(c, "qffpbv").mk_solver();
  s32.set("timeout", timeoutMs);
  s32.add(sh.build(f32, in32));
  z3::check_result r = s32.check();
  auto elapsed = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
  if (r == z3::sat) {
    z3::model m = s32.get_model();
    z3::expr holds = m.eval(q64, true).simplify();  // the Float64 query at the Float32 model's inputs
    if (holds.is_true()) return {"sat (f32 model holds)", elapsed()};
  }
  unsigned left = static_cast<unsigned>(std::max(1.0, timeoutMs - elapsed()));
  Outcome full = run(z3::tactic(c, "qffpbv").mk_solver(), q64, left);
  full.ms = elapsed();
  full.answer += r == z3::sat ? " (f32 model refuted)" : r == z3::unsat ? " (f32 unsat)" : " (f32 unknown)";
  return full;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned timeoutMs = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 5000u;
  const char* names[] = {"qffpbv", "default", "QF_FP", "bv-pipeline", "approx32"};
  std::printf("timeout %u ms per query\n", timeoutMs);
  for (const Shape& sh : shapes()) {
    std::printf("%s\n", sh.name);
    for (const char* n : names) {
      Outcome o = strategy(n, sh, timeoutMs);
      std::printf("  %-12s %-28s %9.1f ms\n", n, o.answer.c_str(), o.ms);
      std::fflush(stdout);
    }
  }
  return 0;
}
