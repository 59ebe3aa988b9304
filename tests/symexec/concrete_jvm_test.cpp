// The concrete mode (runConcrete under Arith::Java) against a real JVM: generated inputs
// (edge values: 0, -0.0, NaN, infinities, MIN/MAX, plus seeded random values) for the public
// static methods of the symexec fixtures and for every benchmark `snippet`, all run in ONE
// JVM by fixtures.symexec.Driver, compared bit for bit (any NaN equals any NaN; results of
// methods that call a transcendental Math function within one ulp for the fixtures, which call
// one function, and within a small relative error for benchmark code that combines many).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "pasda/jvm/descriptor.hpp"
#include "symexec/support.hpp"

namespace symtest {
namespace {

namespace fs = std::filesystem;

struct Call {
  std::string cls;  // internal name
  std::string name, desc;
  std::vector<std::string> args;  // Driver encoding
  std::vector<Term> terms;
  bool fresh = false;    // load in a fresh class loader (static state)
  bool inexact = false;  // the class calls a transcendental function
  bool benchmark = false;
  std::string ours;      // our rendered result
};

const std::set<std::string> kTranscendental = {"sin",  "cos",  "tan",   "asin", "acos",  "atan",  "atan2",
                                               "exp",  "log",  "log10", "pow",  "cbrt",  "sinh",  "cosh",
                                               "tanh", "hypot", "expm1", "log1p"};

bool callsTranscendental(const pasda::symexec::LoadedClass& c) {
  for (const auto& [key, m] : c.methods)
    for (const pasda::jvm::Instruction& in : m->insns)
      if (in.op == pasda::jvm::Opcode::invokestatic &&
          (in.member.owner == "java/lang/Math" || in.member.owner == "java/lang/StrictMath") &&
          kTranscendental.count(in.member.name))
        return true;
  return false;
}

template <class T, class U>
U bitcast(T v) {
  U u;
  std::memcpy(&u, &v, sizeof v);
  return u;
}

class InputGen {
 public:
  explicit InputGen(std::uint64_t seed) : rng_(seed) {}
  /// One value of descriptor kind `k`: edge values first (cycled by `i`), random otherwise.
  std::pair<Term, std::string> value(TermManager& tm, char k, std::size_t i, bool small) {
    bool edge = (i % 3) != 2;
    switch (k) {
      case 'J': {
        static const std::int64_t e[] = {0, 1, -1, INT64_MIN, INT64_MAX, 1LL << 40, -123456789012LL, 63, 64, 65, 7};
        std::int64_t v = edge ? e[pick(i, std::size(e))] : static_cast<std::int64_t>(rng_()) >> (rng_() % 60);
        return {tm.longLit(v), std::to_string(v)};
      }
      case 'F': {
        static const float e[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 2.5f, 3.7f, 1e10f, NAN, INFINITY,
                                  -INFINITY, 1e-45f, 3.4e38f, -7.5f};
        float v = edge ? e[pick(i, std::size(e))] : std::uniform_real_distribution<float>(-100, 100)(rng_);
        return {tm.floatLit(v), std::to_string(bitcast<float, std::int32_t>(v))};
      }
      case 'D': {
        static const double e[] = {0.0,  -0.0,    1.0,      -1.0,     0.5,      -2.5,     2.5,     1.5,
                                   3.7,  -3.7,    1e10,     -1e10,    1e300,    NAN,      INFINITY, -INFINITY,
                                   5e-324, 1.7976931348623157e308, 9.3e18, 0.49999999999999994, 100.0, -7.0};
        static const double s[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.7, NAN, 10.0, 0.1, 7.0};
        double v = edge ? (small ? s[pick(i, std::size(s))] : e[pick(i, std::size(e))])
                        : std::uniform_real_distribution<double>(small ? -10 : -1e6, small ? 10 : 1e6)(rng_);
        return {tm.doubleLit(v), std::to_string(bitcast<double, std::int64_t>(v))};
      }
      default: {  // I and the narrow kinds (the fixtures take int only)
        static const std::int32_t e[] = {0, 1, -1, 2, 3, 5, 7, 31, 32, 33, -7, 100, 100000, -100,
                                         INT32_MIN, INT32_MAX, 65535, 200, 4, 9};
        static const std::int32_t s[] = {0, 1, -1, 2, 3, 5, 7, 10, -7, 20, 4, 9};
        std::int32_t v = edge ? (small ? s[pick(i, std::size(s))] : e[pick(i, std::size(e))])
                              : std::uniform_int_distribution<std::int32_t>(small ? -20 : -100000, small ? 20 : 100000)(rng_);
        return {tm.intLit(v), std::to_string(v)};
      }
    }
  }

 private:
  std::size_t pick(std::size_t i, std::size_t n) { return (i + rng_() % 5) % n; }
  std::mt19937_64 rng_;
};

std::string render(TermManager& tm, const pasda::symexec::ConcreteRun& run, std::string* why) {
  const ExecEffect& e = run.partition.entry;
  switch (e.kind) {
    case ExecEffect::Kind::Void: return "V";
    case ExecEffect::Kind::Throw: return "T " + e.exception;
    case ExecEffect::Kind::Return: {
      if (!tm.isLit(e.value)) {
        *why = "symbolic result " + tm.toString(e.value);
        return "";
      }
      const pasda::terms::Node& n = tm.node(e.value);
      switch (n.sort) {
        case Sort::Float: return "R " + std::to_string(static_cast<std::int32_t>(n.bits));
        case Sort::Double: return "R " + std::to_string(static_cast<std::int64_t>(n.bits));
        case Sort::Bool: return "R " + std::to_string(n.bits);
        default: return "R " + std::to_string(*tm.asInteger(e.value));
      }
    }
    default: *why = "no effect"; return "";
  }
}

/// Distance in ulps between two doubles of the same sign (large if signs differ).
std::uint64_t ulps(double a, double b) {
  std::int64_t ia = bitcast<double, std::int64_t>(a), ib = bitcast<double, std::int64_t>(b);
  if ((ia < 0) != (ib < 0)) return a == b ? 0 : UINT64_MAX;
  return static_cast<std::uint64_t>(ia > ib ? ia - ib : ib - ia);
}

bool sameResult(const Call& c, char retKind, const std::string& ours, const std::string& jvm, std::string* note) {
  if (ours == jvm) return true;
  if (ours.rfind("R ", 0) != 0 || jvm.rfind("R ", 0) != 0) return false;
  double a, b;
  if (retKind == 'D') {
    a = bitcast<std::int64_t, double>(std::stoll(ours.substr(2)));
    b = bitcast<std::int64_t, double>(std::stoll(jvm.substr(2)));
  } else if (retKind == 'F') {
    a = bitcast<std::int32_t, float>(static_cast<std::int32_t>(std::stol(ours.substr(2))));
    b = bitcast<std::int32_t, float>(static_cast<std::int32_t>(std::stol(jvm.substr(2))));
  } else {
    return false;
  }
  if (std::isnan(a) && std::isnan(b)) return true;  // NaN payloads are not specified by Java
  if (!c.inexact) return false;
  std::uint64_t d = ulps(a, b);
  if (!c.benchmark) return d <= 1;
  // Benchmark code combines many transcendental calls; one-ulp differences propagate.
  bool close = std::isfinite(a) && std::isfinite(b) && std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
  if (close) *note = "within 1e-9 relative (" + std::to_string(d) + " ulps)";
  return close;
}

std::vector<std::string> runJvm(const std::vector<Call>& calls, const std::string& classpath) {
  fs::path dir = fs::path(::testing::TempDir()) / ("concrete_jvm_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path in = dir / "inputs.txt", out = dir / "outputs.txt", err = dir / "stderr.txt";
  {
    std::ofstream f(in);
    for (const Call& c : calls) {
      f << (c.fresh ? "!" : "") << pasda::jvm::toDottedName(c.cls) << ' ' << c.name << ' ' << c.desc;
      for (const std::string& a : c.args) f << ' ' << a;
      f << '\n';
    }
  }
  std::string cmd = std::string(PASDA_JAVA) + " -Xss64m -cp " + classpath + " fixtures.symexec.Driver < " +
                    in.string() + " > " + out.string() + " 2> " + err.string();
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << "the JVM driver failed: " << cmd;
  std::vector<std::string> lines;
  {
    std::ifstream f(out);
    for (std::string l; std::getline(f, l);) lines.push_back(l);
  }
  if (rc == 0) {
    std::error_code ec;
    fs::remove_all(dir, ec);  // (kept when the driver failed, for its stderr)
  }
  return lines;
}

TEST(ConcreteVsJvm, FixturesAndBenchmarkMethodsAgreeBitForBit) {
  const std::string bench = PASDA_BENCHMARK_CLASSES;
  const bool haveBench = fs::exists(bench + "/demo");
  const std::string classpath = fixtureRoot() + (haveBench ? ":" + bench : "");
  Harness h(Arith::Java, classpath);
  TermManager& tm = h.tm();
  InputGen gen(20240531);
  std::vector<Call> calls;

  auto addInputs = [&](const pasda::symexec::LoadedClass& cls, const pasda::symexec::MethodInfo& m, int count,
                       bool small, bool isBench) {
    bool inexact = callsTranscendental(cls);
    for (int k = 0; k < count; ++k) {
      Call c;
      c.cls = cls.name;
      c.name = m.name;
      c.desc = m.descriptor;
      c.inexact = inexact;
      c.benchmark = isBench;
      c.fresh = cls.name.find("Objs") != std::string::npos;
      std::size_t p = 0;
      for (const pasda::jvm::TypeDesc& t : m.desc.params) {
        auto [term, text] = gen.value(tm, t.kind, static_cast<std::size_t>(k) * 7 + p * 3, small);
        c.terms.push_back(term);
        c.args.push_back(text);
        ++p;
      }
      calls.push_back(std::move(c));
    }
  };

  // Fixture methods: every public static method over primitives.
  for (const char* cls : {"Ops", "Objs", "Arrays1", "Exc", "Calls", "Lib", "Models"}) {
    const auto* lc = h.program().find(pasda::symexec::kOld, std::string(kPkg) + cls);
    ASSERT_NE(lc, nullptr) << cls;
    for (const auto& [key, m] : lc->methods) {
      // heavy: unbounded; unknown, parents: call library methods without a model (uninterpreted
      // functions, so no concrete value by design).
      if (!m->is_static || !(m->method->access_flags & 0x0001) || m->name == "heavy" || m->name == "unknown" ||
          m->name == "parents" || m->name == "<clinit>")
        continue;
      bool prim = m->desc.ret.kind != 'L' && m->desc.ret.kind != '[';
      for (const auto& t : m->desc.params) prim = prim && t.kind != 'L' && t.kind != '[';
      if (!prim) continue;
      int n = m->desc.params.empty() ? 1 : m->desc.params.size() == 1 ? 14 : 10;
      addInputs(*lc, *m, n, false, false);
    }
  }
  std::size_t fixtureCalls = calls.size();

  // Benchmark methods: `snippet` of every class in cases.tsv.
  if (haveBench) {
    std::ifstream tsv(std::string(PASDA_BENCHMARK_DIR) + "/cases.tsv");
    std::string line;
    std::getline(tsv, line);  // header
    while (std::getline(tsv, line)) {
      std::vector<std::string> col;
      std::stringstream ss(line);
      for (std::string f; std::getline(ss, f, '\t');) col.push_back(f);
      if (col.size() < 6) continue;
      for (const std::string& dotted : {col[4], col[5]}) {
        const auto* lc = h.program().find(pasda::symexec::kOld, pasda::jvm::toInternalName(dotted));
        ASSERT_NE(lc, nullptr) << dotted;
        for (const auto& [key, m] : lc->methods)
          if (m->name == col[2]) addInputs(*lc, *m, m->desc.params.empty() ? 1 : 3, true, true);
      }
    }
  }

  // Our side: concrete runs; inputs whose run does not complete within the step budget are
  // not sent to the JVM (they are counted).
  std::vector<Call> compared;
  std::size_t skipped = 0, fixtureCompared = 0;
  for (Call& c : calls) {
    const auto& m = h.method(c.cls, c.name, c.desc);
    ExecOptions opt;
    opt.max_steps_per_path = 300000;
    opt.deadline = Clock::now() + std::chrono::seconds(5);
    pasda::symexec::ConcreteRun run;
    try {
      run = pasda::symexec::runConcrete(h.program(), tm, m, c.terms, opt);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "runConcrete threw on " << c.cls << "." << c.name << ": " << e.what();
      continue;
    }
    if (!run.completed) {
      EXPECT_TRUE(run.error.find("budget") != std::string::npos || run.error.find("deadline") != std::string::npos)
          << c.cls << "." << c.name << c.desc << ": " << run.error;
      ++skipped;
      continue;
    }
    std::string why;
    c.ours = render(tm, run, &why);
    if (c.ours.empty()) {
      ADD_FAILURE() << c.cls << "." << c.name << ": " << why;
      continue;
    }
    fixtureCompared += !c.benchmark;
    compared.push_back(c);
  }
  ASSERT_GE(fixtureCompared, 150u) << "too few fixture inputs completed (" << fixtureCalls << " generated)";
  ASSERT_GE(compared.size(), 300u);

  std::vector<std::string> jvm = runJvm(compared, classpath);
  ASSERT_EQ(jvm.size(), compared.size());
  int mismatches = 0, tolerated = 0;
  for (std::size_t i = 0; i < compared.size(); ++i) {
    const Call& c = compared[i];
    std::string note;
    char rk = pasda::jvm::parseMethodDescriptor(c.desc).ret.kind;
    if (sameResult(c, rk, c.ours, jvm[i], &note)) {
      tolerated += !note.empty();
      continue;
    }
    ++mismatches;
    std::string args;
    for (const auto& t : c.terms) args += (args.empty() ? "" : ", ") + tm.toString(t);
    ADD_FAILURE() << c.cls << "." << c.name << c.desc << "(" << args << "): ours `" << c.ours << "`, JVM `" << jvm[i]
                  << "`";
    if (mismatches > 40) break;
  }
  std::printf("[ concrete ] %zu inputs compared (%zu fixture, %zu benchmark), %zu skipped (budget), %d within tolerance\n",
              compared.size(), fixtureCompared, compared.size() - fixtureCompared, skipped, tolerated);
}

/// The JVM gives every call the result the concrete mode gave (exactly: the models are exact).
void expectJvmAgrees(const std::vector<Call>& calls, const char* what) {
  std::vector<std::string> jvm = runJvm(calls, fixtureRoot());
  ASSERT_EQ(jvm.size(), calls.size());
  int mismatches = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].ours == jvm[i]) continue;
    std::string args;
    for (const std::string& a : calls[i].args) args += (args.empty() ? "" : ", ") + a;
    ADD_FAILURE() << calls[i].name << "(" << args << "): ours `" << calls[i].ours << "`, JVM `" << jvm[i] << "`";
    if (++mismatches > 20) break;
  }
  std::printf("[ concrete ] %zu %s inputs compared with the JVM\n", calls.size(), what);
}

// Library models against the JVM on a grid of operands (every sign, zero, the extremes and
// the values next to them): the fixture methods that call an exactly modelled integral
// library function. The random inputs above may miss a corner; a model wrong on any grid
// point fails here. Results must agree exactly (no tolerance: the models are exact).
TEST(ConcreteVsJvm, LibraryModelsAgreeOnAGridOfOperands) {
  Harness h(Arith::Java);
  TermManager& tm = h.tm();
  const std::int64_t ints[] = {INT32_MIN, INT32_MIN + 1, -1000000007, -7, -3, -2, -1, 0,
                               1,         2,             3,           7,  1000000007, INT32_MAX - 1, INT32_MAX};
  const std::int64_t longs[] = {INT64_MIN, INT64_MIN + 1, -10000000019LL, INT32_MIN, -7, -1, 0,
                                1,         7,             INT32_MAX,      10000000019LL, INT64_MAX - 1, INT64_MAX};
  auto operands = [&](char kind) {
    std::vector<std::pair<Term, std::string>> out;
    if (kind == 'J')
      for (std::int64_t v : longs) out.emplace_back(tm.longLit(v), std::to_string(v));
    else
      for (std::int64_t v : ints) out.emplace_back(tm.intLit(static_cast<std::int32_t>(v)), std::to_string(v));
    return out;
  };
  struct Target { const char* name; const char* desc; };
  const Target targets[] = {{"floorMod", "(II)I"}, {"floorModL", "(JJ)J"}, {"floorModLI", "(JI)I"},
                            {"floorModBranch", "(II)I"}};
  std::vector<Call> calls;
  for (const Target& t : targets) {
    const auto& m = h.method("Lib", t.name, t.desc);
    ASSERT_EQ(m.desc.params.size(), 2u);
    for (const auto& [a, at] : operands(m.desc.params[0].kind))
      for (const auto& [b, bt] : operands(m.desc.params[1].kind)) {
        Call c;
        c.cls = std::string(kPkg) + "Lib";
        c.name = t.name;
        c.desc = t.desc;
        c.terms = {a, b};
        c.args = {at, bt};
        pasda::symexec::ConcreteRun run = pasda::symexec::runConcrete(h.program(), tm, m, c.terms, ExecOptions{});
        ASSERT_TRUE(run.completed) << t.name << "(" << at << ", " << bt << "): " << run.error;
        std::string why;
        c.ours = render(tm, run, &why);
        ASSERT_FALSE(c.ours.empty()) << why;
        calls.push_back(std::move(c));
      }
  }
  expectJvmAgrees(calls, "library-model");
}

// java.lang.Character's models are exact below 128: every ASCII code point, every modelled
// classification and case mapping (Models.charClass, Models.charCase), against the JVM.
TEST(ConcreteVsJvm, CharacterModelsAgreeOnEveryAsciiCodePoint) {
  Harness h(Arith::Java);
  TermManager& tm = h.tm();
  std::vector<Call> calls;
  for (const char* name : {"charClass", "charCase"}) {
    const auto& m = h.method("Models", name, "(I)I");
    for (int x = 0; x < 128; ++x) {
      Call c;
      c.cls = std::string(kPkg) + "Models";
      c.name = name;
      c.desc = "(I)I";
      c.terms = {tm.intLit(x)};
      c.args = {std::to_string(x)};
      pasda::symexec::ConcreteRun run = pasda::symexec::runConcrete(h.program(), tm, m, c.terms, ExecOptions{});
      ASSERT_TRUE(run.completed) << name << "(" << x << "): " << run.error;
      std::string why;
      c.ours = render(tm, run, &why);
      ASSERT_FALSE(c.ours.empty()) << why;
      calls.push_back(std::move(c));
    }
  }
  expectJvmAgrees(calls, "Character-model");
}

// java.lang.reflect.Array and the component type of an array class (reflect.cpp), Float's
// compare and isNaN: exact, against the JVM on small values, their negatives and the extremes.
void expectModelAgrees(const char* method) {
  Harness h(Arith::Java);
  TermManager& tm = h.tm();
  const auto& m = h.method("Models", method, "(I)I");
  std::vector<Call> calls;
  std::vector<std::int64_t> xs = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1};
  for (int x = -17; x <= 17; ++x) xs.push_back(x);
  for (std::int64_t x : xs) {
    Call c;
    c.cls = std::string(kPkg) + "Models";
    c.name = method;
    c.desc = "(I)I";
    c.terms = {tm.intLit(static_cast<std::int32_t>(x))};
    c.args = {std::to_string(x)};
    pasda::symexec::ConcreteRun run = pasda::symexec::runConcrete(h.program(), tm, m, c.terms, ExecOptions{});
    ASSERT_TRUE(run.completed) << method << "(" << x << "): " << run.error;
    std::string why;
    c.ours = render(tm, run, &why);
    ASSERT_FALSE(c.ours.empty()) << why;
    calls.push_back(std::move(c));
  }
  const std::string what = std::string("library-model-") + method;
  expectJvmAgrees(calls, what.c_str());
}

TEST(ConcreteVsJvm, ReflectionModelsAgree) { expectModelAgrees("reflect"); }

// Array.set/get and Integer.TYPE and the like: every check, unboxing and widening as the JVM.
TEST(ConcreteVsJvm, ReflectiveArrayAccessAgrees) { expectModelAgrees("reflectSet"); }

// Objects.equals: identity and null short cuts, then String's and the boxes' equals.
TEST(ConcreteVsJvm, ObjectsEqualsAgrees) { expectModelAgrees("objectsEquals"); }

}  // namespace
}  // namespace symtest
