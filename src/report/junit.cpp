// JUnit 5 regression tests for confirmed NEQ witnesses: one test class per run, one test
// method per distinct witness, asserting the old version's observed behaviour.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "pasda/report/junit.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/witness/replay_result.hpp"

namespace pasda::report {

namespace fs = std::filesystem;

namespace {

std::string dotted(std::string s) {
  for (char& c : s)
    if (c == '/') c = '.';
  return s;
}

// Java source form of a binary class name: nested classes Outer$Inner are written Outer.Inner.
std::string sourceName(std::string dottedName) {
  for (char& c : dottedName)
    if (c == '$') c = '.';
  return dottedName;
}

std::string escapeComment(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  // "*/" would end the comment.
  for (std::size_t p; (p = out.find("*/")) != std::string::npos;) out.replace(p, 2, "* /");
  if (out.size() > 400) out = out.substr(0, 400) + " ...";
  return out;
}

// The replay whose old output the test asserts: a real JVM's when there is one.
const analysis::Replay* evidence(const analysis::PartitionResult& p) {
  const analysis::Replay* best = nullptr;
  for (const analysis::Replay& r : p.replays) {
    if (!r.differs || r.old_out.empty()) continue;
    if (!best || (r.engine == "jvm" && best->engine != "jvm")) best = &r;
  }
  return best;
}

// The assertion on the old version's result, or "" when it cannot be expressed.
std::string assertion(const jvm::TypeDesc& ret, const std::string& call, const std::string& oldOut) {
  const std::string throwsPrefix = "throws ";
  if (oldOut.rfind(throwsPrefix, 0) == 0) {
    std::string cls = oldOut.substr(throwsPrefix.size());
    return "    Throwable thrown = assertThrows(Throwable.class, () -> " + call + ");\n"
           "    assertEquals(\"" + cls + "\", thrown.getClass().getName());\n";
  }
  if (ret.kind == 'V') {
    if (oldOut != witness::voidText()) return "";
    return "    assertDoesNotThrow(() -> " + call + ");\n";
  }
  switch (ret.kind) {
    case 'D':
      return "    assertEquals(Double.doubleToLongBits(" + oldOut + "), Double.doubleToLongBits(" + call + "));\n";
    case 'F':
      return "    assertEquals(Float.floatToIntBits(" + oldOut + "), Float.floatToIntBits(" + call + "));\n";
    case 'Z': case 'B': case 'C': case 'S': case 'I': case 'J':
      return "    assertEquals(" + oldOut + ", " + call + ");\n";
    case 'L':  // a string, by its content (the JVM replay renders it as a literal)
      if (ret.className() != "java/lang/String" || (oldOut != "null" && oldOut.rfind('"', 0) != 0)) return "";
      return "    assertEquals(" + oldOut + ", " + call + ");\n";
    case '[': {  // an array of primitives other than char, by Arrays.toString
      const std::string e = ret.elementDescriptor();
      if (e.size() != 1 || e == "C") return "";
      if (oldOut == "null") return "    assertNull(" + call + ");\n";
      return "    assertEquals(\"" + oldOut + "\", java.util.Arrays.toString(" + call + "));\n";
    }
    default:
      return "";  // other object results: no value to assert
  }
}

}  // namespace

std::vector<std::string> emitJUnit(const analysis::RunResult& run, const std::string& className,
                                   const std::string& method, const std::string& descriptor, const std::string& dir,
                                   bool numberIfExists) {
  std::vector<std::string> written;
  jvm::MethodDesc md;
  try {
    md = jvm::parseMethodDescriptor(descriptor);
  } catch (const std::exception&) {
    return written;
  }
  const std::string cls = dotted(className);
  const auto dot = cls.rfind('.');
  const std::string pkg = dot == std::string::npos ? "" : cls.substr(0, dot);
  std::string simple = dot == std::string::npos ? cls : cls.substr(dot + 1);
  std::string testName;
  for (char c : simple) testName += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  std::string safeMethod;
  for (char c : method) safeMethod += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  testName += "_" + safeMethod + "_RegressionTest";

  std::string body;
  std::set<std::string> calls;
  int count = 0;
  for (const analysis::IterationResult& it : run.iterations) {
    for (const analysis::PartitionResult& p : it.partitions) {
      if (p.result != analysis::Verdict::NEQ || p.witness.empty()) continue;
      const analysis::Replay* r = evidence(p);
      if (!r) continue;
      // A witness with a receiver or static fields to set (`Box{n = 1}.m(2)`, `m(2) with
      // static{...}`) has no pasteable call: no test (the JVM replay builds them by reflection).
      if (!p.witness_call.empty() &&
          (p.witness_call.rfind(method + "(", 0) != 0 || p.witness_call.find(") with ") != std::string::npos))
        continue;
      // The parameters come first in the witness (the input heap's entries follow); each must
      // be a pasteable literal: not an object the replay could not build.
      std::string args;
      bool ok = p.witness.size() >= md.params.size();
      for (std::size_t i = 0; ok && i < md.params.size(); ++i) {
        const std::string& lit = p.witness[i].literal;
        const bool object = !lit.empty() && lit.back() == '}' && lit.rfind("new ", 0) != 0;  // Box{n = 1}
        if (lit.empty() || lit == "?" || object || lit.rfind("same object as ", 0) == 0) ok = false;
        args += (i ? ", " : "") + lit;
      }
      if (!ok) continue;
      std::string call = sourceName(cls) + "." + method + "(" + args + ")";
      if (!calls.insert(call).second) continue;
      std::string check = assertion(md.ret, call, r->old_out);
      if (check.empty()) continue;
      ++count;
      body += "  /** Iteration " + std::to_string(it.index) + ", partition " + std::to_string(p.index) + ": " +
              escapeComment(p.path_condition) + ".\n   *  Old version: " + escapeComment(r->old_out) +
              "; new version: " + escapeComment(r->new_out) + " (" + r->engine + " replay). */\n";
      body += "  @Test\n  void witness" + std::to_string(count) + "() {\n" + check + "  }\n\n";
    }
  }
  if (count == 0) return written;

  std::string src;
  src += "// Generated by pasda-jvm: regression tests pinning the old behaviour of " + cls + "." + method + descriptor +
         ".\n// They pass on the old version and fail on the new one.\n";
  if (!pkg.empty()) src += "package " + pkg + ";\n\n";
  src += "import static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\n";
  src += "public class " + testName + " {\n" + body + "}\n";

  fs::path out = fs::path(dir);
  if (!pkg.empty()) {
    std::string rel = pkg;
    for (char& c : rel)
      if (c == '.') c = '/';
    out /= rel;
  }
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw std::runtime_error(out.string() + ": cannot create the directory: " + ec.message());
  // Overloads of one method would share a name: later ones get a number when asked.
  fs::path file = out / (testName + ".java");
  const std::string base = testName;
  for (int k = 2; numberIfExists && fs::exists(file, ec) && k < 1000; ++k) {
    const std::string from = "public class " + testName + " {";
    testName = base + "_" + std::to_string(k);
    src.replace(src.find(from), from.size(), "public class " + testName + " {");
    file = out / (testName + ".java");
  }
  std::ofstream f(file);
  f << src;
  f.close();
  if (!f) throw std::runtime_error(file.string() + ": cannot write");
  written.push_back(file.string());
  return written;
}

}  // namespace pasda::report
