// Property test: the term layer's Java semantics (java_semantics.hpp, used by folding and the
// witness evaluator) against a real JVM. Every operation of the catalogue on generated operands
// (edge values crossed, then seeded random values) is written as one line; ONE JVM process
// (fixtures.semantics.OpDriver) computes them all with Java's own operators; the results are
// compared bit for bit, any NaN equal to any NaN (Java does not specify NaN payloads). Library
// functions may differ from the JVM's within Java's documented error bound (1 ulp for most, 2
// for atan2 and sinh/cosh/tanh, exact for sqrt).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include "pasda/terms/java_semantics.hpp"
#include "support/semantics_cases.hpp"

using namespace pasda::terms;
using pasda::terms::semantics::Value;
using pasda::testsupport::OpCase;

namespace {

namespace fs = std::filesystem;

char letter(Sort s) {
  switch (s) {
    case Sort::Bool: return 'Z';
    case Sort::Int: return 'I';
    case Sort::Long: return 'J';
    case Sort::Float: return 'F';
    case Sort::Double: return 'D';
    case Sort::Ref: break;
  }
  return '?';
}

struct Line {
  const OpCase* c;
  std::vector<Value> args;
  std::optional<Value> ours;
};

std::optional<Value> ours(const OpCase& c, const std::vector<Value>& t) {
  if (c.op != Op::Apply) return semantics::evalJava(c.op, c.result, t);
  std::vector<double> x;
  for (const Value& v : t) x.push_back(v.asDouble());
  auto r = semantics::javaLibrary(c.fn, x);
  if (!r) return std::nullopt;
  return Value::ofDouble(*r);
}

// Java's error bound of a library function, in ulps.
std::uint64_t allowedUlps(const std::string& fn) {
  if (fn == "sqrt") return 0;
  if (fn == "atan2" || fn == "sinh" || fn == "cosh" || fn == "tanh") return 2;
  return 1;
}

bool withinUlps(double a, double b, std::uint64_t ulps) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return std::signbit(a) == std::signbit(b);
  if (std::signbit(a) != std::signbit(b) || std::isinf(a) || std::isinf(b)) return false;
  auto ia = static_cast<std::int64_t>(semantics::bitsOfDouble(std::fabs(a)));
  auto ib = static_cast<std::int64_t>(semantics::bitsOfDouble(std::fabs(b)));
  return static_cast<std::uint64_t>(ia > ib ? ia - ib : ib - ia) <= ulps;
}

std::vector<std::string> runDriver(const std::vector<Line>& lines) {
  fs::path dir = fs::path(::testing::TempDir()) / ("semantics_jvm_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path in = dir / "in.txt", out = dir / "out.txt", err = dir / "err.txt";
  {
    std::ofstream f(in);
    for (const Line& l : lines) {
      f << (l.c->op == Op::Apply ? l.c->fn : std::string(opName(l.c->op))) << ' ';
      for (Sort s : l.c->operands) f << letter(s);
      f << ' ' << letter(l.c->result);
      for (const Value& v : l.args) f << ' ' << static_cast<std::int64_t>(v.bits);
      f << '\n';
    }
  }
  std::string cp = std::string(PASDA_FIXTURE_CLASSES) + "/semantics";
  std::string cmd = std::string(PASDA_JAVA) + " -cp " + cp + " fixtures.semantics.OpDriver < " + in.string() + " > " +
                    out.string() + " 2> " + err.string();
  int rc = std::system(cmd.c_str());
  std::ifstream e(err);
  std::string errText((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rc, 0) << "the JVM driver failed: " << cmd << "\n" << errText;
  std::vector<std::string> result;
  std::ifstream f(out);
  for (std::string l; std::getline(f, l);) result.push_back(l);
  fs::remove_all(dir);
  return result;
}

TEST(JavaSemanticsVsJvm, EveryOperationOnGeneratedOperands) {
  std::vector<OpCase> cases = pasda::testsupport::allOpCases();
  const std::vector<OpCase> library = pasda::testsupport::libraryOpCases();
  cases.insert(cases.end(), library.begin(), library.end());
  std::vector<Line> lines;
  std::uint64_t seed = 7;
  for (const OpCase& c : cases)
    for (auto& t : pasda::testsupport::operandTuples(c.operands, 400, seed++)) lines.push_back({&c, t, ours(c, t)});

  std::vector<std::string> jvm = runDriver(lines);
  ASSERT_EQ(jvm.size(), lines.size()) << "the driver answered " << jvm.size() << " of " << lines.size() << " lines";
  std::map<std::string, int> compared;
  int mismatches = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    bool ok;
    if (jvm[i] == "X") {
      ok = !l.ours;  // Java threw: the semantics must have no value
    } else if (!l.ours) {
      ok = false;
    } else {
      auto bits = static_cast<std::uint64_t>(std::stoll(jvm[i]));
      ok = l.c->op == Op::Apply
               ? withinUlps(l.ours->asDouble(), semantics::doubleOfBits(bits), allowedUlps(l.c->fn))
               : pasda::testsupport::sameUpToNaN(l.c->result, l.ours->bits, bits);
    }
    ++compared[l.c->name()];
    if (ok) continue;
    if (++mismatches > 40) continue;
    std::string args;
    TermManager tm(Arith::Java);
    for (const Value& v : l.args) args += " " + tm.toString(tm.lit(v.sort, v.bits));
    std::string mine = l.ours ? tm.toString(tm.lit(l.ours->sort, l.ours->bits)) : std::string("no value");
    std::string theirs = jvm[i] == "X" ? "throws" : tm.toString(tm.lit(l.c->result, static_cast<std::uint64_t>(std::stoll(jvm[i])) & (l.c->result == Sort::Float ? 0xFFFFFFFFull : ~0ull)));
    ADD_FAILURE() << l.c->name() << args << ": semantics " << mine << ", JVM " << theirs;
  }
  for (const OpCase& c : cases) EXPECT_GE(compared[c.name()], 60) << c.name();
  EXPECT_EQ(mismatches, 0);
  std::printf("[ semantics ] %zu values compared with the JVM over %zu operations\n", lines.size(), cases.size());
}

}  // namespace
