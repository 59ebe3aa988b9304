// The JVM replays of a release diff run in each worker's long-lived JVM, each version in a class
// loader of its own: what differs between those loaders and not between the versions must not
// turn an undecided method into a NEQ.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "pasda/report/json.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using pasda::report::Json;
using pasda::testsupport::CliRun;
using pasda::testsupport::runCli;

TEST(ReleaseReplay, IdentityHashesOfEachLoadersObjectsAreNoDifference) {
  // Tag.code returns Objects.hashCode of an enum constant: identical code, affected through
  // the changed Other.hashCode that JDK code may call. Its replays ran in one JVM, the
  // versions' enum constants hashed differently there (alike on repeats), and the method was a
  // false NEQ; identity hashes are now one constant in the replay JVMs.
  const std::string java = PASDA_JAVA;
  if (java.empty() || !fs::exists(java)) {
    const char* ci = std::getenv("CI");
    if (ci && std::string(ci) == "true") FAIL() << "java (" << java << ") is missing (CI=true)";
    GTEST_SKIP() << "java is missing";
  }
  const std::string c = std::string(PASDA_FIXTURE_CLASSES) + "/release/idhash/";
  CliRun r = runCli({c + "old", c + "new", "--class", "fixtures.release.idhash.Tag", "--shortcut", "off",
                     "--format", "json", "-q", "--jobs", "1"});
  ASSERT_NE(r.code, 2) << r.err;
  Json j = pasda::report::parseJson(r.out);
  bool seen = false;
  int replayed = 0;
  for (const Json& m : j.at("methods")) {
    if (m.at("method").get<std::string>() != "code") continue;
    seen = true;
    EXPECT_EQ(m.at("category").get<std::string>(), "affected") << m.dump();
    EXPECT_EQ(m.at("result").get<std::string>(), "MAYBE_NEQ") << m.dump();
    for (const Json& it : m.at("run").at("iterations"))
      for (const Json& p : it.at("partitions"))
        for (const Json& rep : p.at("replays"))
          if (rep.at("engine").get<std::string>() == "jvm") {
            ++replayed;
            EXPECT_FALSE(rep.at("differs").get<bool>()) << rep.dump();
          }
  }
  EXPECT_TRUE(seen) << r.out;
  EXPECT_GE(replayed, 1) << "the JVM replay did not run: " << r.out;
}

}  // namespace
