// Test helper shared by the store and report tests: a hand-built RunResult that uses every
// field, including awkward strings (quotes, backslashes, newlines, control characters, UTF-8).
#pragma once

#include <string>

#include "pasda/analysis/result.hpp"

namespace pasda::testing {

inline analysis::RunResult sampleRun(const std::string& tag = "") {
  using namespace analysis;
  RunResult r;
  auto& s = r.settings;
  s.tool = pasda::analysis::Tool::Pasda;
  s.old_path = "/tmp/old/Demo.class";
  s.new_path = "/tmp/new/Demo.class";
  s.class_old = "demo.Demo";
  s.class_new = "demo.Demo";
  s.method = "snippet:(ID)D";
  s.timeout_s = 10.5;
  s.depth_limit = 10;
  s.deepen = true;
  s.arith = "java";
  s.solver_timeout_ms = 5000;
  s.heap_bound = 3;
  s.benchmark = "Demo/snippet/NEq" + tag;
  s.expected = "NEQ";
  s.version = "0.1.0";

  // Iteration 1: a complete one with three partitions.
  IterationResult it1;
  it1.index = 1;
  it1.result = Verdict::NEQ;
  it1.runtime_s = 1.25;

  PartitionResult p1;
  p1.index = 1;
  p1.path_condition = "x > 0 && y <= 2.5";
  p1.constraint_count = 2;
  p1.old_effect.kind = Effect::Kind::Return;
  p1.old_effect.value = "x + 1";
  p1.new_effect.kind = Effect::Kind::Return;
  p1.new_effect.value = "x + 1";
  p1.new_effect.state = {{"this.count", "x"}, {"Demo.total", "0"}};
  p1.old_effect.state = {{"this.count", "x"}};
  p1.lines_old = {3, 4, 7};
  p1.lines_new = {3, 5};
  p1.pc_status = Status::Sat;
  p1.neq_status = Status::Unsat;
  p1.reachability = Reachability::Reachable;
  p1.output_class = Verdict::EQ;
  p1.result = Verdict::EQ;
  p1.decided_by = "solver";
  p1.time_s = 0.5;

  PartitionResult p2;
  p2.index = 2;
  p2.path_condition = "x <= 0 && s.equals(\"a\\\"b\")";
  p2.constraint_count = 2;
  p2.old_effect.kind = Effect::Kind::Throw;
  p2.old_effect.exception = "java.lang.ArithmeticException";
  p2.new_effect.kind = Effect::Kind::Return;
  p2.new_effect.value = "-1";
  p2.lines_old = {3, 9};
  p2.lines_new = {3, 10, 11};
  p2.pc_status = Status::Sat;
  p2.neq_status = Status::Sat;
  p2.eq_status = Status::Unsat;
  p2.neq_old = "ArithmeticException";
  p2.neq_new = "-1";
  p2.uif_old = true;
  p2.reachability = Reachability::Reachable;
  p2.output_class = Verdict::NEQ;
  p2.result = Verdict::NEQ;
  p2.witness = {{"x", "int", "-2147483648", ""}, {"y", "double", "0.3333333333333333", "1/3"},
                {"s", "java.lang.String", "\"a\\\"b\\n\"", ""}};
  p2.witness_call = "snippet(-2147483648, 0.3333333333333333)";
  p2.decided_by = "replay";
  p2.replays = {{"interp", "throw java.lang.ArithmeticException", "return -1", true, ""},
                {"jvm", "throw java.lang.ArithmeticException", "return -1", true, "tab\there \x01 caf\xc3\xa9"}};
  // Two minimal correction sets: one changed line, or an inserted and a deleted one.
  p2.causes = {{{{"new", 42, "changed", "snippet:(ID)D", "x * 5", "x * 10", {}}}},
               {{{"new", 7, "inserted", "snippet:(ID)D", "", "if (x < 0) return 0;", {}},
                 {"old", 9, "deleted", "snippet:(ID)D", "y++;", "", {8, 10}}}}};
  p2.explain_s = 0.125;
  p2.time_s = 0.75;

  PartitionResult p3;
  p3.cause_note = "not explained: reference inputs";
  p3.index = 3;
  p3.path_condition = "x == 0 && y > 1.0E10";
  p3.constraint_count = 2;
  p3.old_effect.kind = Effect::Kind::None;
  p3.new_effect.kind = Effect::Kind::Void;
  p3.pc_status = Status::Unknown;
  p3.reason_unknown = "timeout";
  p3.depth_limited = true;
  p3.reachability = Reachability::MaybeReachable;
  p3.output_class = Verdict::UNKNOWN;
  p3.result = Verdict::DEPTH_LIMITED;
  p3.time_s = 1.0;

  it1.partitions = {p1, p2, p3};
  it1.depth_limited = true;
  it1.has_uif = true;

  // Iteration 2: timed out, with an error text, UIF descriptions, and no partition.
  IterationResult it2;
  it2.index = 2;
  it2.uifs = {"UIF_1(x, y) = pc 4..17", "AF_helper(int)"};
  it2.result = Verdict::TIMEOUT;
  it2.timed_out = true;
  it2.has_uif = true;
  it2.error = "line one\nline two";
  it2.runtime_s = 8.5;

  r.iterations = {it1, it2};
  r.reported_iteration = 0;
  r.result = Verdict::NEQ;
  r.timed_out = true;
  r.depth_limited = true;
  r.has_uif = true;
  r.depth_limit_used = 40;
  r.deepening_rounds = 4;
  r.deepening_note = "the round at depth 80 did not complete (TIMEOUT, timed out); the result of depth 40 stands";
  r.decided_by = "solver";
  r.induction_note = "not proved (MAYBE_NEQ): loop pair 1 (old pc 4, new pc 4): invariant n(old) == n(new)";
  r.precheck = "";
  r.errors = "";
  r.warnings = {"helper Demo.h(I)I abstracted", "second \"quoted\" warning"};
  r.runtime_s = 10.25;
  r.steps.initialization = 0.1;
  r.steps.instrumentation = 0.2;
  r.steps.symbolic_execution = 5.5;
  r.steps.partition_classification = 2.25;
  r.steps.program_classification = 0.01;
  r.steps.refinement = 0.3;
  r.steps.finalization = 0.02;
  r.started_at = "2026-01-02T03:04:05Z";
  return r;
}

}  // namespace pasda::testing
