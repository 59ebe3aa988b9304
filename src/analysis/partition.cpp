// Classification of one finished path of the product program: the PC, Neq and Eq queries,
// Tables 1 and 2, the witness of a (possibly) non-equivalent partition.
#include "partition.hpp"

#include "witnesses.hpp"

#include <algorithm>
#include <cstring>

namespace pasda::analysis {

using solver::Status;
using terms::Sort;
using terms::Term;

namespace {

// Rendered terms can be huge (loops build deep expressions); results keep a readable prefix.
constexpr std::size_t kMaxRendered = 4000;
constexpr std::size_t kMaxRenderedState = 4 * kMaxRendered;  // all the state entries of one effect

std::string clip(std::string s) {
  if (s.size() <= kMaxRendered) return s;
  std::size_t more = s.size() - kMaxRendered;
  s.resize(kMaxRendered);
  return s + " ... (" + std::to_string(more) + " more characters)";
}

std::string joinPc(terms::TermManager& tm, const std::vector<Term>& pc) {
  if (pc.empty()) return "true";
  std::string out;
  for (std::size_t i = 0; i < pc.size(); ++i) {
    if (i) out += " && ";
    out += tm.toString(pc[i]);
    if (out.size() > kMaxRendered) break;
  }
  return clip(out);
}

Effect renderEffect(terms::TermManager& tm, const symexec::ExecEffect& e) {
  Effect out;
  switch (e.kind) {
    case symexec::ExecEffect::Kind::Return:
      out.kind = Effect::Kind::Return;
      out.value = e.value ? clip(tm.toString(e.value)) : "";
      break;
    case symexec::ExecEffect::Kind::Void: out.kind = Effect::Kind::Void; break;
    case symexec::ExecEffect::Kind::Throw:
      out.kind = Effect::Kind::Throw;
      out.exception = jvm::toDottedName(e.exception);
      break;
    case symexec::ExecEffect::Kind::None: out.kind = Effect::Kind::None; break;
  }
  // The entries' values share one budget: a state of many large entries (a 128-element table
  // of a class initialiser, each element a term over the table) would otherwise render to
  // megabytes per partition. Past it, the entries are listed with their values elided.
  std::size_t used = 0;
  for (const auto& [path, value] : e.state) {
    if (used > kMaxRenderedState) {
      out.state.emplace_back(path, "(elided)");
      continue;
    }
    std::string v = clip(tm.toString(value));
    used += v.size();
    out.state.emplace_back(path, std::move(v));
  }
  return out;
}

}  // namespace

std::string javaLiteral(terms::TermManager& tm, const jvm::TypeDesc& type, Term value) {
  if (!value) return "?";
  switch (type.kind) {
    case 'Z': {
      auto v = tm.asInteger(value);
      return v ? (*v ? "true" : "false") : tm.toString(value);
    }
    case 'C': {
      auto v = tm.asInteger(value);
      if (!v) return tm.toString(value);
      if (*v >= 32 && *v < 127 && *v != '\'' && *v != '\\') return std::string("'") + static_cast<char>(*v) + "'";
      return "(char) " + std::to_string(*v);
    }
    case 'B': return "(byte) " + tm.toString(value);
    case 'S': return "(short) " + tm.toString(value);
    default: return tm.toString(value);
  }
}

PartitionClassifier::PartitionClassifier(terms::TermManager& tm, const symexec::MethodInputs& inputs,
                                         std::string methodName, Limits limits)
    : tm_(tm), inputs_(inputs), method_(std::move(methodName)), limits_(limits) {}

Status PartitionClassifier::ask(solver::Solver& s, std::vector<Term> assumptions, std::string& reason) {
  unsigned budget = limits_.solver_timeout_ms;
  const bool limited = limits_.hard_budget_s > 0 && counters_.hard_spent_s >= limits_.hard_budget_s;
  if (limited && (budget == 0 || budget > limits_.hard_fallback_ms)) {
    budget = limits_.hard_fallback_ms;
    ++counters_.budget_limited;
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limits_.deadline - symexec::Clock::now()).count();
  if (left <= 0) {
    reason = "timeout";
    return Status::Unknown;
  }
  if (budget == 0 || static_cast<unsigned long long>(left) < budget) budget = static_cast<unsigned>(left);
  s.setTimeoutMs(budget);
  solver::CheckResult r = s.check(assumptions);
  last_math_first_ = r.math_first;
  if (r.status == Status::Unknown && reason.empty()) reason = r.reason;
  if (r.status == Status::Unknown && r.seconds >= 0.9 * budget / 1000.0) counters_.hard_spent_s += r.seconds;
  return r.status;
}

bool PartitionClassifier::overApprox(Term t) const { return tm_.containsUif(t) || tm_.containsLibrary(t); }

PartitionResult PartitionClassifier::describe(const symexec::RawPartition& p, int index, double clock_s) const {
  PartitionResult r;
  r.index = index;
  r.path_condition = joinPc(tm_, p.pc);
  if (!p.heap.empty()) {
    std::string shape;
    for (const std::string& f : p.heap) shape += (shape.empty() ? "" : " && ") + f;
    r.path_condition = p.pc.empty() ? shape : shape + " && " + r.path_condition;
  }
  r.constraint_count = p.pc.size();
  r.old_effect = renderEffect(tm_, p.old_effect);
  r.new_effect = renderEffect(tm_, p.new_effect);
  r.lines_old.assign(p.lines[symexec::kOld].begin(), p.lines[symexec::kOld].end());
  r.lines_new.assign(p.lines[symexec::kNew].begin(), p.lines[symexec::kNew].end());
  r.depth_limited = p.depth_limited;
  r.time_s = clock_s;
  for (Term c : p.pc) r.uif_pc = r.uif_pc || overApprox(c);
  return r;
}

void PartitionClassifier::nameDifference(solver::Solver& s, const symexec::RawPartition& p, PartitionResult& r,
                                         Term v1, Term v2) {
  if (v1) r.neq_old = evalText(s, v1);
  if (v2) r.neq_new = evalText(s, v2);
  // Name what differs under this model: the result and each compared piece of state.
  std::vector<std::string> parts;
  if (v1 && v2 && r.neq_old != r.neq_new) parts.push_back("result: " + r.neq_old + " vs " + r.neq_new);
  for (std::size_t i = 0; i < p.old_effect.state.size() && i < p.new_effect.state.size(); ++i) {
    std::string a = evalText(s, p.old_effect.state[i].second), b = evalText(s, p.new_effect.state[i].second);
    if (a != b) parts.push_back(p.old_effect.state[i].first + ": " + a + " vs " + b);
  }
  for (const std::string& part : parts) r.differs += (r.differs.empty() ? "" : ", ") + part;
}

bool PartitionClassifier::compareOutputs(const symexec::RawPartition& p, solver::Solver& s, PartitionResult& r,
                                         classify::PartitionFacts& facts, std::string& reason, Term* sameOut) {
  // Outputs: both threw the same exception type -> equal; otherwise compare the values.
  Term v1 = p.old_effect.kind == symexec::ExecEffect::Kind::Return ? p.old_effect.value : Term{};
  Term v2 = p.new_effect.kind == symexec::ExecEffect::Kind::Return ? p.new_effect.value : Term{};
  Term same = (v1 && v2) ? tm_.same(v1, v2) : tm_.boolLit(true);
  // Extra observed state (issue 7) must agree field by field.
  if (p.old_effect.state.size() == p.new_effect.state.size()) {
    for (std::size_t i = 0; i < p.old_effect.state.size(); ++i)
      same = tm_.land(same, tm_.same(p.old_effect.state[i].second, p.new_effect.state[i].second));
  } else {
    same = tm_.boolLit(false);
  }
  if (sameOut) *sameOut = same;
  r.uif_old = v1 && overApprox(v1);
  r.uif_new = v2 && overApprox(v2);
  for (const auto& st : p.old_effect.state) r.uif_old = r.uif_old || overApprox(st.second);
  for (const auto& st : p.new_effect.state) r.uif_new = r.uif_new || overApprox(st.second);
  facts.uif_out = r.uif_old || r.uif_new;
  if (tm_.asBool(same) == std::optional<bool>(true)) {
    // The outputs are the same term: equal on every input of the path, no query needed.
    facts.neq = Status::Unsat;
    ++counters_.identical;
    r.decided_by = "identical";
    if (limits_.skip_pc_of_identical) {
      facts.pc = Status::Unknown;
      r.pc_status = facts.pc;
      r.neq_status = facts.neq;
      r.reason_unknown = "outputs identical: reachability not queried";
      r.reachability = classify::reachability(facts.uif_pc, facts.pc);
      r.output_class = Verdict::EQ;
      r.result = classify::partitionVerdict(facts);
      return true;
    }
  } else {
    facts.neq = ask(s, {tm_.lnot(same)}, reason);
    if (facts.neq == Status::Sat && last_math_first_) {
      r.decided_by = "math";  // the Java query with the inputs pinned to a math-model candidate
      ++counters_.math_confirmed;
    }
  }
  if (facts.neq == Status::Sat) {
    witness(s, r, p);
    nameDifference(s, p, r, v1, v2);
  }
  facts.eq = ask(s, {same}, reason);
  facts.pc = (facts.neq == Status::Sat || facts.eq == Status::Sat) ? Status::Sat : ask(s, {}, reason);
  r.pc_status = facts.pc;
  r.neq_status = facts.neq;
  r.eq_status = facts.eq;
  return false;
}

PartitionResult PartitionClassifier::classify(const symexec::RawPartition& p, solver::Solver& s, int index,
                                              double clock_s, Term* sameOut) {
  PartitionResult r = describe(p, index, clock_s);
  classify::PartitionFacts facts;
  facts.uif_pc = r.uif_pc;
  facts.depth_limited = p.depth_limited;
  std::string reason;

  if (p.depth_limited || !p.product_compare) {
    // Cut paths (and paths that never reached the comparison): reachability only.
    facts.pc = ask(s, {}, reason);
    r.pc_status = facts.pc;
  } else if (p.error_mismatch) {
    facts.pc = ask(s, {}, reason);
    r.pc_status = facts.pc;
    facts.neq = Status::Sat;  // synthetic, as in the reference: exception types differ
    facts.eq = Status::Unsat;
    facts.uif_out = r.uif_pc;
    r.neq_status = facts.neq;
    r.eq_status = facts.eq;
    if (facts.pc == Status::Sat) witness(s, r, p);
  } else if (compareOutputs(p, s, r, facts, reason, sameOut)) {
    return r;  // identical outputs, reachability not queried
  }
  r.reason_unknown = reason;
  r.reachability = classify::reachability(facts.uif_pc, facts.pc);
  r.output_class = (r.neq_status || r.eq_status)
                       ? classify::outputClass(facts.uif_pc || facts.uif_out, r.neq_status, r.eq_status)
                       : Verdict::UNKNOWN;
  r.result = classify::partitionVerdict(facts);
  if (r.result != Verdict::NEQ && r.result != Verdict::MAYBE_NEQ) {
    r.witness.clear();
    r.witness_call.clear();
  }
  if (!r.witness.empty() && r.decided_by != "math") r.decided_by = "solver";
  return r;
}

void PartitionClassifier::witness(solver::Solver& s, PartitionResult& r, const symexec::RawPartition& p) {
  std::vector<Term> vars;
  for (Term t : inputs_.terms)
    if (tm_.sort(t) != Sort::Ref) vars.push_back(t);
  for (Term t : p.heap_vars) vars.push_back(t);
  solver::Model m;
  try {
    m = s.model(vars);
  } catch (const std::exception&) {
    // no model after all: the witness lists the inputs without values
  }
  auto shapeOf = [&](const std::string& name) -> std::string {
    for (const std::string& f : p.heap) {
      if (f == name + " == null") return "null";
      if (f == name + " != null") return "new object";
      if (f.rfind(name + " == ", 0) == 0) return "same object as " + f.substr(name.size() + 4);
    }
    return "null";
  };
  auto valueOf = [&](Term t) -> std::uint64_t {
    if (tm_.isLit(t)) return tm_.node(t).bits;
    std::optional<Term> v = m.lookup(t);
    return v ? tm_.node(*v).bits : 0;
  };
  std::vector<std::string> args;  // as written in the call
  last_model_.clear();
  last_refs_.assign(inputs_.terms.size(), witness::InputValue{});
  for (std::size_t i = 0; i < inputs_.terms.size(); ++i) {
    WitnessValue w;
    w.name = inputs_.names[i];
    w.type = inputs_.types[i].javaName();
    if (tm_.sort(inputs_.terms[i]) == Sort::Ref) {
      // A string or an array is written as the literal a replay builds; an object by its shape.
      last_refs_[i] = referenceInput(p, w.name, valueOf);
      const bool built = last_refs_[i].buildable();
      w.literal = built ? witness::javaLiteral(inputs_.types[i], last_refs_[i], class_) : shapeOf(w.name);
      args.push_back(built || w.literal == "null" ? w.literal : w.name);
      r.witness.push_back(std::move(w));
      last_model_.push_back(Term{});
      continue;
    }
    std::optional<Term> v = m.lookup(inputs_.terms[i]);
    for (const auto& mv : m.values)
      if (mv.var == inputs_.terms[i]) w.exact = mv.exact;
    w.literal = v ? javaLiteral(tm_, inputs_.types[i], *v) : "?";
    args.push_back(w.literal);
    last_model_.push_back(v ? *v : Term{});
    r.witness.push_back(std::move(w));
  }
  r.witness_call = javaCall(method_, args);
  last_context_ = callContext(p, instance_, valueOf);
  // The receiver and the static fields the replay sets, written like the other inputs.
  const jvm::TypeDesc self = jvm::parseFieldDescriptor("L" + (class_.empty() ? std::string("Object") : class_) + ";");
  if (instance_ && last_context_.receiver.buildable())
    r.witness_call = witness::javaLiteral(self, last_context_.receiver, class_) + "." + r.witness_call;
  if (last_context_.statics.buildable() && !last_context_.statics.field_names.empty())
    r.witness_call += " with " + witness::javaLiteral(self, last_context_.statics, class_);
  // The input heap: the receiver's and the parameters' fields read on the path.
  for (const std::string& f : p.heap) {
    if (f.find('.') == std::string::npos || f.rfind(" != null") != f.size() - 8) continue;
    WitnessValue w;
    w.name = f.substr(0, f.size() - 8);
    w.type = "object";
    w.literal = "new object";
    r.witness.push_back(std::move(w));
  }
  for (Term t : p.heap_vars) {
    WitnessValue w;
    w.name = tm_.node(t).name;
    w.type = terms::sortName(tm_.sort(t));
    std::optional<Term> v = m.lookup(t);
    w.literal = v ? tm_.toString(*v) : "?";
    r.witness.push_back(std::move(w));
  }
}

std::string PartitionClassifier::evalText(solver::Solver& s, Term t) {
  std::string exact;
  std::optional<Term> v;
  try {
    v = s.eval(t, &exact);
  } catch (const std::exception&) {
    return "?";
  }
  if (!v) return "?";
  std::string text = tm_.toString(*v);
  if (!exact.empty() && exact != text) text += " (" + exact + ")";
  return text;
}

}  // namespace pasda::analysis
