// pasda-jvm on bad input: exactly one line "pasda-jvm: error: ..." on stderr, exit status 2,
// nothing on stdout; and --dump against javap.
#include <map>
#include <regex>

#include "e2e/cli_support.hpp"
#include "pasda/analysis/analysis.hpp"
#include "pasda/store/store.hpp"
#include "report/json_check.hpp"

namespace e2e {
namespace {

void expectOneErrorLine(const CliRun& r, const std::string& mentions = "") {
  EXPECT_EQ(r.code, 2) << "stdout: " << r.out << "\nstderr: " << r.err;
  std::vector<std::string> l = lines(r.err);
  ASSERT_EQ(l.size(), 1u) << "stderr: " << r.err;
  EXPECT_EQ(l[0].rfind("pasda-jvm: error: ", 0), 0u) << l[0];
  EXPECT_TRUE(r.out.empty()) << r.out;
  if (!mentions.empty()) {
    EXPECT_NE(l[0].find(mentions), std::string::npos) << l[0];
  }
}

const std::string kOld = cliClass("eqmax", "old", "MaxSum");
const std::string kNew = cliClass("eqmax", "new", "MaxSum");

TEST(Store, InitDbCreatesTheSchemaAndRefusesAFileThatIsNotADatabase) {
  fs::path d = scratch("initdb");
  std::string db = (d / "fresh.sqlite").string();
  CliRun r = runCli({"--db", db, "--init-db"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  {
    pasda::store::Store st(db);  // throws when the file lacks the schema
    EXPECT_EQ(st.countRows("run"), 0);
  }
  // A run appended to the created file is stored like in any other database.
  CliRun a = runCli({"-q", "--db", db, e2eClass("listing2", "old", "Listing2"), e2eClass("listing2", "new", "Listing2")});
  ASSERT_EQ(a.code, 1) << a.err;
  EXPECT_EQ(runCli({"--db", db, "--init-db"}).code, 0);  // checking an existing database keeps its runs
  EXPECT_EQ(pasda::store::Store(db).countRows("run"), 1);
  const fs::path text = d / "notes.txt";
  std::ofstream(text) << "not a database\n";
  expectOneErrorLine(runCli({"--db", text.string(), "--init-db"}), "notes.txt");
  expectOneErrorLine(runCli({"--init-db"}), "--db");
  expectOneErrorLine(runCli({"--db", db, "--init-db", kOld, kNew}), "inputs");
  fs::remove_all(d);
}

TEST(Verbose, PrintsTheTimePolicyAndTheHelpShowsTheEnginesDefaultTimeout) {
  CliRun r = runCli({"-v", kOld, kNew});
  ASSERT_NE(r.code, 2) << r.err;
  ASSERT_NE(r.out.find("Time policy"), std::string::npos) << r.out;
  const pasda::analysis::TimePolicy policy;
  ASSERT_GE(policy.entries().size(), 20u);
  for (const auto& e : policy.entries()) EXPECT_NE(r.out.find(std::string("  ") + e.name + " "), std::string::npos) << e.name;
  EXPECT_EQ(runCli({kOld, kNew}).out.find("Time policy"), std::string::npos);  // only with -v
  // The CLI's default --timeout is the engine's (they disagreed: 60 and 300).
  CliRun h = runCli({"--help"});
  const std::string expected =
      "--timeout arg (=" + std::to_string(static_cast<long long>(pasda::analysis::kDefaultTimeoutS)) + ")";
  EXPECT_NE(h.out.find(expected), std::string::npos) << h.out;
  EXPECT_EQ(pasda::analysis::Options{}.timeout_s, pasda::analysis::kDefaultTimeoutS);
}

TEST(BadInput, MissingFile) {
  expectOneErrorLine(runCli({kOld, "/nonexistent/dir/Nope.class"}), "Nope.class");
  expectOneErrorLine(runCli({"/nonexistent/Old.class", kNew}), "Old.class");
}

TEST(BadInput, CorruptClassAndNotAClass) {
  fs::path d = scratch("bad");
  std::string good = slurp(kNew);
  {  // a truncated class file
    std::ofstream f(d / "Truncated.class", std::ios::binary);
    f << good.substr(0, good.size() / 2);
  }
  {  // a flipped byte in the constant pool count region
    std::string bad = good;
    bad[9] = static_cast<char>(0xFF);
    bad[8] = static_cast<char>(0xFF);
    std::ofstream f(d / "Corrupt.class", std::ios::binary);
    f << bad;
  }
  {  // text, not a class
    std::ofstream f(d / "Text.class");
    f << "public class Text {}\n";
  }
  {
    std::ofstream f(d / "empty.jar");
    f << "PK but not really a zip";
  }
  for (const char* name : {"Truncated.class", "Corrupt.class", "Text.class", "empty.jar"}) {
    SCOPED_TRACE(name);
    expectOneErrorLine(runCli({kOld, (d / name).string()}), name);
  }
  fs::remove_all(d);
}

TEST(BadInput, MissingMethod) {
  expectOneErrorLine(runCli({"--method", "noSuchMethod", kOld, kNew}), "noSuchMethod");
}

TEST(BadInput, AbsurdOptions) {
  const std::vector<std::vector<std::string>> cases = {
      {"--timeout", "-1"},   {"--timeout", "0"},        {"--timeout", "abc"},   {"--depth-limit", "x"},
      {"--depth-limit", "-3"}, {"--arith", "float"},    {"--format", "xml"},    {"--mode", "magic"},
      {"--no-such-option"},  {"--max-array-length", "-1"}};
  for (std::vector<std::string> args : cases) {
    SCOPED_TRACE(args[0] + (args.size() > 1 ? " " + args[1] : ""));
    args.push_back(kOld);
    args.push_back(kNew);
    expectOneErrorLine(runCli(args));
  }
  expectOneErrorLine(runCli({kOld}));  // one input only
  expectOneErrorLine(runCli({kOld, kNew, kNew}));
}

TEST(BadInput, DbThatIsADirectory) {
  fs::path d = scratch("dbdir");
  CliRun r = runCli({"-q", "--db", d.string(), kOld, kNew});
  EXPECT_EQ(r.code, 2);
  std::vector<std::string> l = lines(r.err);
  ASSERT_EQ(l.size(), 1u) << r.err;
  EXPECT_EQ(l[0].rfind("pasda-jvm: error: ", 0), 0u);
  fs::remove_all(d);
}

TEST(Cli, HelpAndVersion) {
  CliRun h = runCli({"--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--depth-limit"), std::string::npos);
  EXPECT_NE(h.out.find("Exit status"), std::string::npos);
  CliRun v = runCli({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("pasda-jvm ", 0), 0u);
}

/// "pc: mnemonic" lines of every method, as a multiset.
std::multiset<std::string> mnemonics(const std::string& text, const std::regex& re) {
  std::multiset<std::string> out;
  for (const std::string& l : lines(text)) {
    std::smatch m;
    if (std::regex_search(l, m, re)) out.insert(m[1].str() + ": " + m[2].str());
  }
  return out;
}

TEST(Dump, MnemonicsMatchJavapAndJsonIsValid) {
  for (const std::string& file : {std::string(PASDA_FIXTURE_CLASSES) + "/symexec/fixtures/symexec/Ops.class",
                                  std::string(PASDA_FIXTURE_CLASSES) + "/symexec/fixtures/symexec/Exc.class", kOld}) {
    SCOPED_TRACE(file);
    CliRun ours = runCli({"--dump", file});
    ASSERT_EQ(ours.code, 0) << ours.err;
    CliRun javap = runShell(quote(PASDA_JAVAP) + " -c -p " + quote(file));
    ASSERT_EQ(javap.code, 0) << javap.err;
    auto a = mnemonics(ours.out, std::regex(R"(^\s*(\d+): ([a-z_][a-z0-9_]*))"));
    auto b = mnemonics(javap.out, std::regex(R"(^\s+(\d+): ([a-z_][a-z0-9_]*))"));
    EXPECT_GE(b.size(), 10u);
    EXPECT_EQ(a, b);
    CliRun js = runCli({"--dump", file, "--format", "json"});
    ASSERT_EQ(js.code, 0);
    pasda::testing::Json j = pasda::testing::JsonParser(js.out).parse();
    EXPECT_EQ(j.type, pasda::testing::Json::Type::Object);
  }
  expectOneErrorLine(runCli({"--dump", "/nonexistent/X.class"}));
}

}  // namespace
}  // namespace e2e
