// The run driver: pre-check, product construction, iterations, run classification.
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "iteration.hpp"
#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/closure.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/product/product.hpp"

namespace pasda::analysis {

namespace fs = std::filesystem;
using symexec::Clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string nowIso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::tm tmv{};
  gmtime_r(&t, &tmv);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  return buf;
}

/// The source file of a version next to its class (a .class file's directory, or the package
/// directory under a class-path root), "" when there is none.
std::string sourceNextTo(const Version& v) {
  std::string src = v.cls.sourceFile();
  if (src.empty()) return "";
  std::error_code ec;
  fs::path p(v.path), dir;
  if (fs::is_regular_file(p, ec) && p.extension() == ".class") dir = p.parent_path();
  else if (fs::is_directory(p, ec)) {
    const std::string& name = v.cls.name();
    auto slash = name.rfind('/');
    dir = slash == std::string::npos ? p : p / name.substr(0, slash);
  } else {
    return "";
  }
  fs::path file = dir / src;
  return fs::is_regular_file(file, ec) ? file.string() : "";
}

}  // namespace

Prepared prepare(const Version& oldV, const Version& newV, const std::string& method) {
  Prepared p;
  auto colon = method.find(':');
  p.name = method.substr(0, colon);
  p.descriptor = method.substr(colon + 1);
  p.old_cls = oldV.cls;
  p.new_cls = newV.cls;
  p.old_name = product::versionName(oldV.cls.name(), pasda::Version::kOld);
  p.new_name = product::versionName(newV.cls.name(), pasda::Version::kNew);
  product::prepareVersion(p.old_cls, p.old_name, p.name, p.descriptor);
  product::prepareVersion(p.new_cls, p.new_name, p.name, p.descriptor);
  std::string base = oldV.cls.name();
  p.product_name = base + "$Product";
  product::ProductSpec spec;
  spec.old_class = p.old_name;
  spec.new_class = p.new_name;
  spec.method = p.name;
  spec.descriptor = p.descriptor;
  spec.product_class = p.product_name;
  const jvm::Method* m = oldV.cls.findMethod(p.name, p.descriptor);
  p.is_constructor = p.name == "<init>";
  p.is_static = m ? m->isStatic() : true;
  spec.is_static = p.is_static;
  spec.is_constructor = p.is_constructor;
  spec.orig_old = oldV.cls.name();
  spec.orig_new = newV.cls.name();
  p.run_descriptor = product::runDescriptor(spec);
  p.old_descriptor = product::versionDescriptor(spec, pasda::Version::kOld);
  p.new_descriptor = product::versionDescriptor(spec, pasda::Version::kNew);
  p.product = product::buildProduct(spec);
  p.old_classpath = oldV.classpath;
  p.new_classpath = newV.classpath;
  p.orig_old = oldV.cls;
  p.orig_new = newV.cls;
  p.orig_old_name = oldV.cls.name();
  p.orig_new_name = newV.cls.name();
  return p;
}

std::string emitProduct(const Version& oldV, const Version& newV, const std::string& method, const std::string& dir) {
  return writePrepared(prepare(oldV, newV, method), dir);
}

std::string writePrepared(const Prepared& p, const std::string& dir) {
  auto write = [&](const jvm::ClassFile& cf) {
    fs::path file = fs::path(dir) / (cf.name() + ".class");
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    std::vector<std::uint8_t> bytes = jvm::writeClass(cf);
    std::ofstream out(file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw InputError(file.string(), "cannot write");
  };
  write(p.product.product);
  write(p.product.exception);
  write(p.old_cls);
  write(p.new_cls);
  return jvm::toDottedName(p.product_name);
}

namespace {

/// The paper's lightweight pre-check: different parameter or return types (or one static
/// version) are NEQ. "" when the signatures agree; throws when the new version lacks the method.
std::string signaturePrecheck(const Version& oldV, const Version& newV, const std::string& name,
                              const std::string& desc) {
  const jvm::Method* mo = oldV.cls.findMethod(name, desc);
  const jvm::Method* mn = newV.cls.findMethod(name, desc);
  if (!mn) {
    for (const jvm::Method& m : newV.cls.methods)
      if (m.name == name) mn = &m;
    if (!mn) throw InputError(newV.path, "class " + jvm::toDottedName(newV.cls.name()) + " has no method " + name);
    return "signatures differ: " + name + desc + " (old) vs " + name + mn->descriptor + " (new)";
  }
  if (mo && mo->isStatic() != mn->isStatic()) return std::string("one version of ") + name + " is static, the other is not";
  return "";
}

/// Identical code is EQ at once: the method's normalised code and everything it can reach
/// inside the class paths (callees, overrides, fields, class initialisers) are the same. Only
/// for one class name in both versions: the oracle looks the class up by name in each class
/// path, and two differently named classes (oldV and newV of one folder) would both find the old.
bool identicalCode(const Version& oldV, const Version& newV, const std::string& name, const std::string& desc) {
  if (!oldV.classpath || !newV.classpath || oldV.cls.name() != newV.cls.name()) return false;
  try {
    diff::ClosureOracle oracle(*oldV.classpath, *newV.classpath);
    return oracle.method(oldV.cls.name(), name, desc).verdict == diff::ClosureVerdict::Identical;
  } catch (const std::exception&) {
    return false;  // the oracle could not decide: the engine does
  }
}

}  // namespace

RunResult analyze(const Version& oldV, const Version& newV, const Options& o, RunMonitor* monitor) {
  const auto t0 = Clock::now();
  const auto deadline = o.timeout_s > 0 ? t0 + std::chrono::microseconds(static_cast<long long>(o.timeout_s * 1e6))
                                        : Clock::time_point::max();
  RunResult run;
  run.started_at = nowIso();
  RunSettings& st = run.settings;
  st.tool = o.mode;
  st.old_path = oldV.path;
  st.new_path = newV.path;
  st.class_old = jvm::toDottedName(oldV.cls.name());
  st.class_new = jvm::toDottedName(newV.cls.name());
  st.timeout_s = o.timeout_s;
  st.depth_limit = o.depth_limit;
  st.deepen = o.deepen;
  st.arith = terms::arithName(o.arith);
  st.solver_timeout_ms = o.solver_timeout_ms ? o.solver_timeout_ms : solver::SolverOptions{}.timeout_ms;
  st.heap_bound = o.heap_bound;
  st.benchmark = o.benchmark;
  st.expected = o.expected;

  std::string method = selectMethod(oldV, newV, o.method);
  st.method = method;
  auto colon = method.find(':');
  std::string name = method.substr(0, colon), desc = method.substr(colon + 1);

  run.precheck = signaturePrecheck(oldV, newV, name, desc);
  if (run.precheck.empty() && o.identical_shortcut && identicalCode(oldV, newV, name, desc)) {
    run.precheck = "identical code: the method and everything it can reach are the same in both versions";
    run.result = Verdict::EQ;
    run.decided_by = "identical";
    run.runtime_s = since(t0);
    run.steps.initialization = run.runtime_s;
    return run;
  }
  if (!run.precheck.empty()) {
    run.result = Verdict::NEQ;
    run.decided_by = "precheck";
    run.runtime_s = since(t0);
    run.steps.initialization = run.runtime_s;
    return run;
  }
  run.steps.initialization = since(t0);

  if (monitor) monitor->header(run);
  IterationEnv env;
  env.monitor = monitor;
  env.options = &o;
  env.deadline = deadline;
  env.run_start = t0;
  env.source_file[pasda::Version::kOld] = sourceNextTo(oldV);
  env.source_file[pasda::Version::kNew] = sourceNextTo(newV);
  try {
    auto ti = Clock::now();
    env.prepared = prepare(oldV, newV, method);
    run.steps.instrumentation += since(ti);
  } catch (const std::exception& e) {
    run.result = Verdict::ERROR;
    run.errors = std::string("building the product class failed: ") + e.what();
    run.runtime_s = since(t0);
    return run;
  }

  runRounds(env, run);
  run.decided_by = decidingMechanism(run, o);
  run.runtime_s = since(t0);
  return run;
}

std::string decidingMechanism(const RunResult& run, const Options& o) {
  if (run.result != Verdict::EQ && run.result != Verdict::NEQ) return "";
  if (run.iterations.empty()) return run.precheck.rfind("identical code", 0) == 0 ? "identical" : "precheck";
  if (run.induction_note.rfind("proved", 0) == 0) return "induction";
  if (run.deepening_rounds > 1 && run.depth_limit_used > o.depth_limit) return "deepening";
  if (run.result == Verdict::EQ) return "solver";
  // A NEQ: how its NEQ partitions were established, the strongest first.
  std::set<std::string> by;
  for (const PartitionResult& p : run.iterations[run.reported_iteration].partitions)
    if (p.result == Verdict::NEQ) by.insert(p.decided_by.empty() ? "solver" : p.decided_by);
  for (const char* m : {"solver", "math", "replay", "search"})
    if (by.count(m)) return m;
  return "solver";
}

}  // namespace pasda::analysis
