// Issue 7 through the command line: instance methods, object and array inputs, constructors,
// void methods and static state. Every fixture pair is run in both arithmetic models; each must
// get the right program-level class with no false proof, NEQ partitions must say what differs
// (by name, in the effects), and witnesses must give the input state that exposes it.
#include <functional>

#include "cli/support.hpp"

namespace cli_test {
namespace {

using Pred = std::function<bool(const std::string&)>;

bool isInt(const std::string& s, long long& v) {
  try {
    std::size_t n = 0;
    v = std::stoll(s, &n);
    return n == s.size();
  } catch (...) {
    return false;
  }
}
Pred intIs(std::function<bool(long long)> f) {
  return [f](const std::string& s) {
    long long v;
    return isInt(s, v) && f(v);
  };
}
Pred textIs(const std::string& want) {
  return [want](const std::string& s) { return s == want; };
}
/// A fresh object of class `cls` (simple name) as the replay builds it: "Item{qty = 10}".
Pred freshObject(const std::string& cls) {
  return [cls](const std::string& s) { return s.rfind(cls + "{", 0) == 0 && s.back() == '}'; };
}
Pred nonNullObject() {
  return [](const std::string& s) { return !s.empty() && s != "null"; };
}

struct ObjCase {
  const char* name;
  std::string folder, pkg, cls;
  std::vector<std::string> options;
  const char* truth;  // the real relation of the two versions: EQ or NEQ
  std::vector<std::string> accepted;  // program-level classes that are right for this case
  // NEQ cases: a state entry that must differ in some NEQ partition ("" when the difference is
  // the return value or the exception), and witness entries required of that partition.
  std::string diff_state;
  std::vector<std::pair<std::string, Pred>> witness;
};

std::vector<ObjCase> cases() {
  const std::vector<std::string> eq = {"EQ"}, neq = {"NEQ"};
  return {
      {"counter_eq", "objects/counter_eq", "objects.counter", "Counter", {}, "EQ", eq, "", {}},
      {"counter_neq", "objects/counter_neq", "objects.counter", "Counter", {}, "NEQ", neq, "this.count",
       {{"n", intIs([](long long v) { return v == 0; })}, {"this.count", intIs([](long long) { return true; })}}},
      {"static_counter", "objects/static_counter", "objects.registry", "Registry", {}, "NEQ", neq,
       "Registry.registered", {{"id", intIs([](long long v) { return v == 0; })}}},
      {"ctor", "objects/ctor", "objects.point", "Point", {"--method", "<init>"}, "NEQ", neq, ".y",
       {{"a", intIs([](long long v) { return v > 100; })}}},
      {"nullparam", "objects/nullparam", "objects.names", "Names", {}, "NEQ", neq, "", {{"b", textIs("null")}}},
      {"alias", "objects/alias", "objects.transfer", "Transfer", {}, "NEQ", neq, "from.balance",
       {{"to", textIs("same object as from")}, {"amount", intIs([](long long v) { return v != 0; })}}},
      {"arrays", "objects/arrays", "objects.sums", "Sums", {}, "NEQ", neq, "",
       {{"a[0]", intIs([](long long v) { return v != 0; })}}},
      // Recursion over an unbounded list: bounded by the depth limit, never a proof.
      {"recursive", "objects/recursive", "objects.node", "Node", {"--timeout", "5"}, "EQ",
       {"MAYBE_EQ", "DEPTH_LIMITED"}, "", {}},
      // Fixture pairs of tests/fixtures/objects2.
      {"twofields", "objects2/twofields", "objects2.twofields", "Account", {}, "EQ", eq, "", {}},
      {"helper_eq", "objects2/helper_eq", "objects2.helper", "Price", {}, "EQ", eq, "", {}},
      {"helper_neq", "objects2/helper_neq", "objects2.helper", "Price", {}, "NEQ", neq, "",
       {{"qty", intIs([](long long v) { return v >= 100; })}, {"this.unit", intIs([](long long v) { return v != 0; })}}},
      {"fieldread", "objects2/fieldread", "objects2.fieldread", "Orders", {}, "NEQ", neq, "",
       {{"it", freshObject("Orders$Item")}, {"it.qty", intIs([](long long v) { return v == 10; })}}},
      {"newobj_eq", "objects2/newobj_eq", "objects2.newobj", "Shapes", {}, "EQ", eq, "", {}},
      {"newobj_neq", "objects2/newobj_neq", "objects2.newobj", "Shapes", {}, "NEQ", neq, "result.y",
       {{"a", intIs([](long long v) { return v > 7; })}}},
      {"alias_only", "objects2/alias_only", "objects2.alias", "Transfer", {}, "NEQ", neq, "from.balance",
       {{"to", textIs("same object as from")}, {"amount", intIs([](long long v) { return v != 0; })}}},
      // Three distinct boxes are needed to see the difference: at --heap-bound 3 it is found.
      {"heapbound3", "objects2/heapbound", "objects2.heapbound", "Boxes", {"--heap-bound", "3"}, "NEQ", neq, "",
       {{"a", freshObject("Boxes$Box")}, {"b", freshObject("Boxes$Box")}, {"c", freshObject("Boxes$Box")}}},
      // Parameters are always distinct objects or aliases, whatever the bound: the three boxes
      // are found at the default bound too (they were cut there).
      {"heapbound2", "objects2/heapbound", "objects2.heapbound", "Boxes", {}, "NEQ", neq, "",
       {{"a", freshObject("Boxes$Box")}, {"b", freshObject("Boxes$Box")}, {"c", freshObject("Boxes$Box")}}},
      // Three distinct nodes reached through fields: beyond the default bound (2 nodes) the
      // difference is out of scope, no proof either way; at --heap-bound 3 it is found.
      {"heapfields2", "objects2/heapfields", "objects2.heapfields", "Chain", {}, "NEQ",
       {"MAYBE_EQ", "DEPTH_LIMITED"}, "", {}},
      {"heapfields3", "objects2/heapfields", "objects2.heapfields", "Chain", {"--heap-bound", "3"}, "NEQ", neq, "",
       {}},
      // The difference needs an array of 9 elements.
      {"array_long9", "objects2/array_long", "objects2.arraylong", "Sums", {"--max-array-length", "9"}, "NEQ", neq,
       "", {{"a[8]", intIs([](long long) { return true; })}}},
      // Past the default bound (8) too: elements of a long array are functions of the index,
      // so deepening runs the loop 9 times and finds it (before: the access cut the path).
      {"array_long8", "objects2/array_long", "objects2.arraylong", "Sums", {}, "NEQ", neq, "", {}},
      // The new version clears a reference field the old one leaves: differs whenever the
      // receiver's `next` is not null on entry (the old version never reads it).
      {"refwrite", "objects2/refwrite", "objects2.refwrite", "Cell", {}, "NEQ", neq, "this.next",
       {{"this.next", nonNullObject()}}},
      // A fresh object's field left at its default in one version, set to the default in the
      // other: the two results have the same state.
      {"defaultfield", "objects2/defaultfield", "objects2.defaultfield", "Maker", {}, "EQ", eq, "", {}},
      // Equivalent for every length; lengths past --max-array-length are not covered.
      {"array_eq", "objects2/array_eq", "objects2.arrays", "Sums", {}, "EQ", {"MAYBE_EQ", "DEPTH_LIMITED"}, "", {}},
      // Real code (issue 11, tests/fixtures/realcode): an array behind an instance field and a
      // static field is an input like an array parameter.
      {"rc_box", "realcode/box", "realcode.box", "Box", {}, "NEQ", neq, "", {{"x", intIs([](long long) { return true; })}}},
      {"rc_static_array", "realcode/static_array", "realcode.staticarray", "Table", {}, "NEQ", neq, "",
       {{"i", intIs([](long long v) { return v == 2; })}}},
      // Non-final statics hold any value at entry: the change shows from the second call on.
      {"rc_mean", "realcode/mean", "realcode.mean", "Stats", {}, "NEQ", neq, "", {}},
      {"rc_mean_clinit", "realcode/mean", "realcode.mean", "Stats", {"--static-inputs", "off"}, "EQ", eq, "", {}},
      // Objects the two class initialisers build (a box, an empty array) correspond.
      {"rc_clinit_objects", "realcode/clinit_objects", "realcode.clinit", "Zero", {"--shortcut", "off"}, "EQ", eq, "",
       {}},  // (identical code: the engine itself, not the identical-code shortcut)
      // A static made by a JDK call given a shared method reference (ThreadLocal.withInitial(
      // HashMap::new)) is the same in both versions though another Supplier.get changed.
      {"rc_threadlocal", "realcode/threadlocal", "realcode.threadlocal", "Registry",
       {"--method", "setFlag", "--shortcut", "off"}, "EQ", eq, "", {}},
      {"rc_enums", "realcode/enums", "realcode.enums", "Colors", {}, "EQ", eq, "", {}},
      // A private field renamed: nothing to compare it with, so MAYBE_NEQ, never NEQ.
      {"rc_renamedfield", "realcode/renamedfield", "realcode.renamedfield", "Cache", {"--method", "<init>:()V"},
       "EQ", {"MAYBE_NEQ"}, "", {}},
      {"rc_enums_neq", "realcode/enums_neq", "realcode.enums", "Colors", {}, "NEQ", neq, "",
       {{"i", intIs([](long long v) { return v == 1; })}}},
      {"rc_prefix", "realcode/prefix", "realcode.prefix", "Names", {}, "NEQ", neq, "", {}},
      {"rc_concat", "realcode/concat", "realcode.concat", "Label", {}, "NEQ", neq, "", {}},
      // Integer.valueOf's cache: two boxes of one value are the same object exactly in -128..127.
      {"rc_boxcache", "realcode/boxcache", "realcode.boxcache", "Cache", {}, "EQ", eq, "", {}},
      {"rc_print", "realcode/print", "realcode.print", "Report", {}, "NEQ", neq, "java/lang/System.out (length)",
       {{"x", intIs([](long long v) { return v >= 10; })}}},
      {"rc_print_off", "realcode/print", "realcode.print", "Report", {"--compare-output", "off"}, "EQ", eq, "", {}},
      // An unmodelled call with an effect on its argument: never EQ, never NEQ without a replay.
      {"rc_unknown_effect", "realcode/unknown_effect", "realcode.unknown", "Lists", {}, "NEQ", {"MAYBE_NEQ"}, "", {}},
      // A symbolic index into a table an unmodelled call filled: the index and then the
      // element's nullness are decided in one instruction (a forked copy re-executes it whole).
      // Both initialisers may fail (an unmodelled call): then both calls throw, whatever statics they set.
      {"rc_clinit_fail", "realcode/clinit_fail", "realcode.clinit", "Tables", {}, "EQ", eq, "", {}},
      // Input arrays longer than --max-array-length: a symbolic length, no elements held.
      {"rc_long_len", "realcode/long_array", "realcode.longarray", "Lengths", {"--method", "len"}, "NEQ", neq, "",
       {{"a.length", intIs([](long long v) { return v == 11; })}}},
      // An element past the bound is a function of the array and the index: found (the access
      // cut the path before).
      {"rc_long_elem", "realcode/long_array", "realcode.longarray", "Lengths", {"--method", "elem"}, "NEQ", neq, "",
       {{"a.length", intIs([](long long v) { return v > 9; })}}},
      {"rc_long_call", "realcode/long_array", "realcode.longarray", "Lengths", {"--method", "sorted"}, "EQ",
       {"MAYBE_NEQ", "MAYBE_EQ"}, "", {}},
      {"rc_long_same", "realcode/long_array", "realcode.longarray", "Lengths", {"--method", "empty", "--shortcut", "off"},
       "EQ", eq, "", {}},
      // The same unmodelled call's array has the same length in both versions.
      {"rc_opaque_array", "realcode/opaque_array", "realcode.opaquearray", "Sizes", {}, "EQ", eq, "", {}},
      {"rc_lookup", "realcode/lookup", "realcode.lookup", "Names", {}, "NEQ", {"NEQ", "MAYBE_NEQ"}, "", {}},
  };
}

int exitCodeOf(const std::string& result) {
  if (result == "EQ") return 0;
  if (result == "NEQ") return 1;
  if (result == "ERROR") return 2;
  return 3;
}

struct Param {
  ObjCase c;
  std::string arith;
};

void PrintTo(const Param& p, std::ostream* os) { *os << p.c.name << " --arith " << p.arith; }

std::vector<Param> params() {
  std::vector<Param> out;
  for (const ObjCase& c : cases())
    for (const char* a : {"math", "java"}) out.push_back({c, a});
  return out;
}

std::vector<std::string> argsOf(const Param& p) {
  // Every partition is inspected: no stop at the first NEQ (the default under java).
  std::vector<std::string> a = {"--arith", p.arith, "--stop-at-neq", "no"};
  a.insert(a.end(), p.c.options.begin(), p.c.options.end());
  a.push_back(fixtureClass(p.c.folder, "old", p.c.pkg, p.c.cls));
  a.push_back(fixtureClass(p.c.folder, "new", p.c.pkg, p.c.cls));
  return a;
}

/// What differs between the effects of a partition: kind, exception, return value or state.
std::vector<std::string> differences(const Json& part) {
  std::vector<std::string> out;
  const Json& o = part["effect_old"];
  const Json& n = part["effect_new"];
  auto str = [](const Json& e, const char* k) {
    const Json* v = e.find(k);
    return v && v->type == Json::Type::String ? v->string : std::string();
  };
  if (str(o, "kind") != str(n, "kind")) out.push_back("(kind)");
  if (str(o, "exception") != str(n, "exception")) out.push_back("(exception)");
  if (str(o, "value") != str(n, "value")) out.push_back("(return)");
  for (const std::string& s : differingState(part)) out.push_back(s);
  return out;
}

bool namesState(const std::vector<std::string>& diffs, const std::string& want) {
  for (const std::string& d : diffs) {
    // Exact, or with the engine's note on a shape difference: "this.next (object-vs-null)".
    if (d == want || d.rfind(want + " (", 0) == 0) return true;
    // A suffix pattern like ".y": the field of the constructed object, whatever its root name.
    if (!want.empty() && want[0] == '.' && d.size() > want.size() &&
        d.compare(d.size() - want.size(), want.size(), want) == 0 && d.find('.') == d.size() - want.size())
      return true;
  }
  return false;
}

class ObjectShapes : public ::testing::TestWithParam<Param> {};

TEST_P(ObjectShapes, ProgramClassWithoutFalseProof) {
  const Param& p = GetParam();
  JsonRun j = runJson(argsOf(p));
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  const std::string result = j.json["result"].string;
  EXPECT_NE(j.run.code, 2) << "ERROR: " << j.json["errors"].string << j.run.err;
  if (std::string(p.c.truth) == "EQ") {
    EXPECT_NE(result, "NEQ") << "false NEQ proof";
  }
  if (std::string(p.c.truth) == "NEQ") {
    EXPECT_NE(result, "EQ") << "false EQ proof";
  }
  EXPECT_TRUE(contains(p.c.accepted, result)) << "result " << result << ", expected one of " << joined(p.c.accepted)
                                              << "\n" << j.run.out;
  EXPECT_EQ(j.run.code, exitCodeOf(result));
  // The partitions agree with the program class.
  const Json& parts = j.json["partitions"];
  ASSERT_EQ(parts.type, Json::Type::Array);
  int neqs = 0;
  for (const Json& part : parts.array) neqs += part["result"].string == "NEQ";
  if (result == "NEQ") {
    EXPECT_GE(neqs, 1);
  }
  if (result == "EQ") {
    for (const Json& part : parts.array) EXPECT_EQ(part["result"].string, "EQ") << part["path_condition"].string;
  }
}

// The cases whose right answer is a NEQ proof.
class NeqShapes : public ::testing::TestWithParam<Param> {};

std::vector<Param> neqParams() {
  std::vector<Param> out;
  for (const Param& p : params())
    if (p.c.accepted.size() == 1 && p.c.accepted.front() == "NEQ") out.push_back(p);
  return out;
}

TEST_P(NeqShapes, NeqPartitionsNameTheDifferenceAndWitnessTheInput) {
  const Param& p = GetParam();
  JsonRun j = runJson(argsOf(p));
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  ASSERT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  bool named = p.c.diff_state.empty();
  bool witnessed = false;
  std::string report;
  for (const Json& part : j.json["partitions"].array) {
    if (part["result"].string != "NEQ") continue;
    const std::vector<std::string> diffs = differences(part);
    // A NEQ partition whose two effects read the same would not say what differs.
    EXPECT_FALSE(diffs.empty()) << "NEQ partition with identical effects: " << part["path_condition"].string;
    const bool here = p.c.diff_state.empty() || namesState(diffs, p.c.diff_state);
    named = named || here;
    report += "  pc " + part["path_condition"].string + ": differs in " + joined(diffs) + "\n";
    if (!here) continue;
    bool ok = true;
    for (const auto& [name, pred] : p.c.witness) {
      std::string v = witnessValue(part, name);
      if (!pred(v)) {
        ok = false;
        report += "    witness " + name + " = '" + v + "' does not expose the difference\n";
      }
    }
    witnessed = witnessed || ok;
  }
  EXPECT_TRUE(named) << "no NEQ partition names " << p.c.diff_state << "\n" << report;
  EXPECT_TRUE(witnessed) << "no NEQ partition has a witness giving the input state\n" << report;
}

// NEQ cases that differ in a state entry with a full name (not the return value, not a suffix).
class NamedStateShapes : public ::testing::TestWithParam<Param> {};

std::vector<Param> namedStateParams() {
  std::vector<Param> out;
  for (const Param& p : neqParams())
    if (!p.c.diff_state.empty() && p.c.diff_state[0] != '.') out.push_back(p);
  return out;
}

TEST_P(NamedStateShapes, TextOutputNamesTheDifferingState) {
  const Param& p = GetParam();
  CliRun r = runCli(argsOf(p));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(resultLine(r), "NEQ");
  // The state entry appears within the listing of a NEQ partition.
  std::size_t at = r.out.find("NEQ ", r.out.find("Partitions"));
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(p.c.diff_state, at), std::string::npos) << r.out;
}

std::string paramName(const ::testing::TestParamInfo<Param>& info) {
  return std::string(info.param.c.name) + "_" + info.param.arith;
}

INSTANTIATE_TEST_SUITE_P(Cli, ObjectShapes, ::testing::ValuesIn(params()), paramName);
INSTANTIATE_TEST_SUITE_P(Cli, NeqShapes, ::testing::ValuesIn(neqParams()), paramName);
INSTANTIATE_TEST_SUITE_P(Cli, NamedStateShapes, ::testing::ValuesIn(namedStateParams()), paramName);

// ---------------------------------------------------------------------------------------------
// Aliasing: the versions differ only when the two parameters are the same object.

class Aliasing : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> aliasArgs(const std::string& folder, const std::string& pkg, const std::string& arith) {
  return {"--arith", arith, "--stop-at-neq", "no", fixtureClass(folder, "old", pkg, "Transfer"),
          fixtureClass(folder, "new", pkg, "Transfer")};
}

bool bothNonNullDistinct(const std::string& pc) {
  return pc.find("from != null") != std::string::npos && pc.find("to != null") != std::string::npos &&
         pc.find("to == from") == std::string::npos;
}

TEST_P(Aliasing, OnlyAliasedPartitionsDiffer) {
  // objects2/alias_only reads both balances before writing: the null cases throw at the same
  // point in both versions, so every difference needs `to` and `from` to be one object.
  JsonRun j = runJson(aliasArgs("objects2/alias_only", "objects2.alias", GetParam()));
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "NEQ");
  int aliased = 0, distinct = 0;
  for (const Json& part : j.json["partitions"].array) {
    const std::string& pc = part["path_condition"].string;
    const std::string& res = part["result"].string;
    if (res == "NEQ") {
      EXPECT_NE(pc.find("to == from"), std::string::npos) << "NEQ without aliasing: " << pc;
      EXPECT_TRUE(contains(differingState(part), "from.balance")) << pc;
    } else {
      EXPECT_EQ(res, "EQ") << pc;
    }
    if (pc.find("to == from") != std::string::npos) {
      ++aliased;
      EXPECT_EQ(res, "NEQ") << pc;
    }
    if (bothNonNullDistinct(pc)) {
      ++distinct;
      EXPECT_EQ(res, "EQ") << pc;
    }
  }
  EXPECT_GE(aliased, 1) << "no partition where the parameters alias\n" << j.run.out;
  EXPECT_GE(distinct, 1) << "no partition with two distinct accounts\n" << j.run.out;
}

TEST_P(Aliasing, OriginalFixtureDistinctAccountsAreEqual) {
  // objects/alias writes `from` before reading `to`: with `to == null` the old version has
  // already changed from.balance when the NPE comes, the new one has not (a real difference).
  // Distinct non-null accounts are EQ; the aliased ones NEQ.
  JsonRun j = runJson(aliasArgs("objects/alias", "objects.transfer", GetParam()));
  ASSERT_TRUE(j.ok);
  EXPECT_EQ(j.json["result"].string, "NEQ");
  int aliased = 0, distinct = 0;
  for (const Json& part : j.json["partitions"].array) {
    const std::string& pc = part["path_condition"].string;
    const std::string& res = part["result"].string;
    if (pc.find("to == from") != std::string::npos) {
      ++aliased;
      EXPECT_EQ(res, "NEQ") << pc;
    } else if (bothNonNullDistinct(pc)) {
      ++distinct;
      EXPECT_EQ(res, "EQ") << pc;
    } else if (res == "NEQ") {
      // The only other NEQ: `to` is null and the old version wrote from.balance first.
      EXPECT_NE(pc.find("to == null"), std::string::npos) << pc;
      EXPECT_EQ(part["effect_old"]["kind"].string, part["effect_new"]["kind"].string) << pc;
      EXPECT_TRUE(contains(differingState(part), "from.balance")) << pc;
    }
  }
  EXPECT_GE(aliased, 1);
  EXPECT_GE(distinct, 1);
}

INSTANTIATE_TEST_SUITE_P(Cli, Aliasing, ::testing::Values("math", "java"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// ---------------------------------------------------------------------------------------------
// Recursion over the input heap ends by the depth limit, not by the wall clock.

TEST(ObjectBounds, RecursiveMethodIsCutByTheDepthLimitNotTheTimeout) {
  // Node.length() recursive vs a loop. With --heap-bound 1 the only non-null `next` is the
  // receiver itself (a cycle): both versions run forever on it, so only the depth limit can
  // end that path. It must be cut (DEPTH_LIMITED partition), well before the wall clock.
  for (const char* arith : {"math", "java"}) {
    SCOPED_TRACE(arith);
    JsonRun j = runJson({"--arith", arith, "--stop-at-neq", "no", "--heap-bound", "1", "--depth-limit", "3", "--timeout", "20",
                         fixtureClass("objects/recursive", "old", "objects.node", "Node"),
                         fixtureClass("objects/recursive", "new", "objects.node", "Node")});
    ASSERT_TRUE(j.ok);
    const std::string result = j.json["result"].string;
    EXPECT_TRUE(result == "MAYBE_EQ" || result == "DEPTH_LIMITED") << result;
    EXPECT_FALSE(j.json["timed_out"].boolean) << "the cyclic list ran until --timeout";
    EXPECT_TRUE(j.json["depth_limited"].boolean) << "no path was cut by the depth limit";
    EXPECT_LT(j.run.seconds, 10.0);
  }
}

}  // namespace
}  // namespace cli_test

namespace cli_test {
namespace {

// ---------------------------------------------------------------------------------------------
// Identical code is EQ at once (issue 11), reported as decided by identical code; --shortcut off
// leaves it to the engine; two differently named classes are never taken for identical code.

TEST(IdenticalCode, EqWithoutAnalysisAndTheEngineWithShortcutOff) {
  const std::string a = fixtureClass("realcode/clinit_objects", "old", "realcode.clinit", "Zero");
  const std::string b = fixtureClass("realcode/clinit_objects", "new", "realcode.clinit", "Zero");
  CliRun fast = runCli({a, b});
  EXPECT_EQ(fast.code, 0) << fast.err;
  EXPECT_EQ(resultLine(fast), "EQ") << fast.out;
  EXPECT_NE(fast.out.substr(0, fast.out.find('\n')).find("(pre-check: identical code"), std::string::npos) << fast.out;
  CliRun engine = runCli({a, b, "--shortcut", "off"});
  EXPECT_EQ(resultLine(engine), "EQ") << engine.out;
  EXPECT_EQ(engine.out.find("identical code"), std::string::npos) << engine.out;
  EXPECT_NE(engine.out.find("Partitions"), std::string::npos) << engine.out;
}

TEST(IdenticalCode, AnEnumsOwnValuesAreEqual) {
  // values() of the analysed enum returns an array of the analysed (renamed) class in each
  // version: the same class, not a difference (a false NEQ on every enum of a release before).
  const std::string a = fixtureClass("realcode/enums", "old", "realcode.enums", "Colors$Color");
  CliRun r = runCli({a, a, "--method", "values", "--shortcut", "off"});
  EXPECT_EQ(resultLine(r), "EQ") << r.out;
}

TEST(IdenticalCode, ALambdaWithTheSameBodyIsSharedBetweenTheVersions) {
  // A table filled by an unmodelled call given a lambda: the same pure lambda in both versions
  // gives both the same table, so identical code is EQ by the engine (not by the shortcut).
  const std::string a = fixtureClass("realcode/lookup", "old", "realcode.lookup", "Names");
  const std::string b = fixtureClass("realcode/lookup", "new", "realcode.lookup", "Names");
  CliRun same = runCli({a, a, "--shortcut", "off"});
  EXPECT_EQ(resultLine(same), "EQ") << same.out;
  EXPECT_NE(same.out.find("lambda:<analysed>.lambda$static$0"), std::string::npos) << same.out;
  // The two versions differ past the table only: the table's entries are not a difference.
  JsonRun j = runJson({a, b, "--arith", "math"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  for (const Json& part : j.json["partitions"].array)
    EXPECT_EQ(part["differs"].string.find("Names.TABLE"), std::string::npos) << part["differs"].string;
}

TEST(BadInput, AClassInitialiserIsNotAnalysedOnItsOwn) {
  // (the product would call <clinit> as a method, beside the JVM's own initialisation)
  const std::string a = fixtureClass("realcode/methodref", "old", "realcode.methodref", "Registry");
  const std::string b = fixtureClass("realcode/methodref", "new", "realcode.methodref", "Registry");
  CliRun r = runCli({a, b, "--method", "<clinit>", "--shortcut", "off"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("class initialiser"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Dispatch, AnInputObjectMayBeOfASubclassWhoseOverrideChanged) {
  // s.area() on an input Square: it runs Square.area when s is exactly a Square, and
  // BigSquare.area (changed) otherwise. Following Square.area alone was a false EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/override/";
  JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.override.Calc", "--method", "area"});
  ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
  EXPECT_NE(changed.json["result"].string, "EQ") << changed.run.out;
  bool forked = false;
  for (const Json& part : changed.json["partitions"].array)
    forked = forked || part["path_condition"].string.find("exact:realcode/override/Square") != std::string::npos;
  EXPECT_TRUE(forked) << changed.run.out;
  JsonRun same = runJson({root + "old", root + "old", "--class", "realcode.override.Calc", "--method", "area",
                          "--shortcut", "off"});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
}

TEST(Dispatch, TheAnalysedMethodIsItsOwnCodeWhateverTheReceiversClass) {
  // Square.area analysed on its own (BigSquare overrides it and changed): what is analysed is
  // Square.area's code, the same in both versions, so EQ with and without the identical-code
  // shortcut. The product's call of the old version used to fork on the receiver's exact class
  // (an unknown override) while the new version's ran its code (its renamed class unknown to
  // the override oracle): MAYBE_NEQ on identical code, 13 such methods in commons-lang3.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/override/";
  for (const char* version : {"old", "new"}) {
    JsonRun r = runJson({root + "old", root + version, "--class", "realcode.override.Square", "--method", "area",
                         "--shortcut", "off"});
    ASSERT_TRUE(r.ok) << r.run.out << r.run.err;
    EXPECT_EQ(r.json["result"].string, "EQ") << version << "\n" << r.run.out;
    for (const Json& part : r.json["partitions"].array)
      EXPECT_EQ(part["path_condition"].string.find("exact:"), std::string::npos) << r.run.out;
  }
}

TEST(Dispatch, InstanceofOnAParameterMayHoldForASubtype) {
  // `o instanceof String` for an Object parameter, `s instanceof Circle` for a Shape one: taken
  // as always false before (the declared class taken as exact), a false EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/typetest/";
  for (const char* method : {"kind", "round"}) {
    JsonRun changed = runJson({root + "old", root + "new", "--class", "realcode.typetest.Types", "--method", method});
    ASSERT_TRUE(changed.ok) << changed.run.out << changed.run.err;
    EXPECT_NE(changed.json["result"].string, "EQ") << method << "\n" << changed.run.out;
    JsonRun same = runJson({root + "old", root + "old", "--class", "realcode.typetest.Types", "--method", method,
                            "--shortcut", "off"});
    ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
    EXPECT_EQ(same.json["result"].string, "EQ") << method << "\n" << same.run.out;
  }
  // `o instanceof Types` inside Types, the same in both versions: the versions' renamed classes
  // are one class for an input (was MAYBE_NEQ: two unrelated conditions).
  JsonRun self = runJson({root + "old", root + "new", "--class", "realcode.typetest.Types", "--method", "self",
                          "--shortcut", "off"});
  ASSERT_TRUE(self.ok) << self.run.out << self.run.err;
  EXPECT_EQ(self.json["result"].string, "EQ") << self.run.out;
}

TEST(ClassInitialisation, TheSuperclassIsInitialisedFirst) {
  const std::string a = fixtureClass("realcode/superinit", "old", "realcode.superinit", "Sub");
  const std::string b = fixtureClass("realcode/superinit", "new", "realcode.superinit", "Sub");
  JsonRun j = runJson({a, b, "--static-inputs", "off"});
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  ASSERT_EQ(j.json["partitions"].array.size(), 1u) << j.run.out;
  EXPECT_NE(j.json["partitions"].array[0]["output_old"].string.find("Sub.S = 10"), std::string::npos) << j.run.out;
}

TEST(Report, AStateOfManyLargeEntriesIsElidedPastABudget) {
  // 300 entries of a static table, each an uninterpreted term: listed, their values elided past
  // a budget (a real class initialiser's table made the JSON of one method 26 MB).
  const std::string a = fixtureClass("realcode/bigtable", "old", "realcode.bigtable", "Table");
  const std::string b = fixtureClass("realcode/bigtable", "new", "realcode.bigtable", "Table");
  JsonRun j = runJson({a, b});
  ASSERT_TRUE(j.ok) << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ");
  EXPECT_LT(j.run.out.size(), 600000u);
  bool elided = false, listed = false;
  for (const Json& part : j.json["partitions"].array)
    for (const Json& e : part["effect_old"]["state"].array) {
      elided = elided || e["value"].string == "(elided)";
      listed = listed || e["name"].string == "Table.NAMES[299]";
    }
  EXPECT_TRUE(elided);
  EXPECT_TRUE(listed);
}

TEST(IdenticalCode, DifferentlyNamedClassesOfOneFolderAreAnalysed) {
  // The benchmark's layout: OldV.class and NewV.class side by side, so that the old class is on
  // the new version's class path too; the new version differs (NEQ), never "identical code".
  const std::string dir = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/renamed/realcode/renamed/";
  CliRun r = runCli({dir + "OldV.class", dir + "NewV.class"});
  EXPECT_EQ(resultLine(r), "NEQ") << r.out;
  EXPECT_EQ(r.out.find("identical code"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cli_test
