// The JVM kept across replays (JvmSession, one per worker of a release diff): it answers like a
// JVM started per run, is started once for many replays, gives every replay freshly
// initialised classes, and is replaced after a replay that overran its time limit.
#include "witness/support.hpp"

namespace wtest {
namespace {

using pasda::witness::JvmSession;

std::optional<std::vector<pasda::witness::Replay>> replayWith(const Pair& p, JvmSession* session, const fs::path& dir,
                                                               const std::vector<std::vector<InputValue>>& in,
                                                               const std::string& method, const std::string& desc,
                                                               double timeout = 30) {
  p.emit(dir);
  pasda::witness::ReplayEnv env = p.env();
  env.session = session;
  env.jvm_timeout_s = timeout;
  return pasda::witness::replayJvm(dir.string(), env, p.oldName(), p.newName(), method, desc, in);
}

TEST(JvmSession, OneJvmForManyReplaysWithTheSameAnswers) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "wave", "(D)D");
  TempDir a("session-a"), b("session-b"), c("session-c");
  const std::vector<std::vector<InputValue>> in = {{D(1.0)}, {D(4.0)}, {D(2.999)}, {D(100.5)}};
  auto fresh = p.jvm(a.path, in);  // a JVM of its own
  ASSERT_TRUE(fresh.has_value());
  JvmSession session;
  auto first = replayWith(p, &session, b.path, in, "wave", "(D)D");
  auto second = replayWith(p, &session, c.path, in, "wave", "(D)D");
  ASSERT_TRUE(first.has_value() && second.has_value());
  for (std::size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ((*first)[i].old_out, (*fresh)[i].old_out);
    EXPECT_EQ((*first)[i].new_out, (*fresh)[i].new_out);
    EXPECT_EQ((*first)[i].differs, (*fresh)[i].differs);
    EXPECT_EQ((*second)[i].old_out, (*fresh)[i].old_out);
    EXPECT_TRUE((*second)[i].note.empty()) << (*second)[i].note;
  }
  EXPECT_EQ(session.starts(), 1);
  EXPECT_EQ(session.requests(), 2);
}

TEST(JvmSession, EveryReplaySeesFreshStatics) {
  Pair p("release/session", "fixtures/release/session/Tick", "next", "(I)I");
  TempDir a("tick-a"), b("tick-b");
  JvmSession session;
  auto first = replayWith(p, &session, a.path, {{I(1)}}, "next", "(I)I");
  auto second = replayWith(p, &session, b.path, {{I(1)}}, "next", "(I)I");
  ASSERT_TRUE(first.has_value() && second.has_value());
  // First call of each version in each replay: calls == 1 in both replays.
  EXPECT_EQ((*first)[0].old_out, "11");
  EXPECT_EQ((*second)[0].old_out, "11");
  EXPECT_EQ((*second)[0].new_out, "11");
  EXPECT_EQ(session.starts(), 1);
}

TEST(JvmSession, AReplayThatOverrunsGetsAFreshJvmNextTime) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "wave", "(D)D");
  TempDir a("late-a"), b("late-b");
  JvmSession session;
  auto late = replayWith(p, &session, a.path, {{D(1.0)}}, "wave", "(D)D", 0.001);
  ASSERT_TRUE(late.has_value());
  EXPECT_NE((*late)[0].note.find("did not finish"), std::string::npos) << (*late)[0].note;
  auto next = replayWith(p, &session, b.path, {{D(4.0)}}, "wave", "(D)D");
  ASSERT_TRUE(next.has_value());
  EXPECT_TRUE((*next)[0].differs) << (*next)[0].note;
  EXPECT_EQ(session.starts(), 2);
}

TEST(JvmSession, VersionsOnClassPathsReplayInTheSessionLikeInJvmsOfTheirOwn) {
  // Two releases of one class (the release diff): each version's driver runs in a class loader
  // over its own class path, in the one session JVM, one request per version.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/release/lib";
  pasda::witness::ReplayEnv env;
  env.old_classpath = {root + "/old"};
  env.new_classpath = {root + "/new"};
  ASSERT_FALSE(pasda::witness::replaysInOneJvm(env, "fixtures.release.lib.Calc", "fixtures.release.lib.Calc"));
  const std::vector<std::vector<InputValue>> in = {{I(5)}, {I(101)}};
  TempDir a("split-own"), b("split-session");
  auto own = pasda::witness::replayJvm(a.path.string(), env, "fixtures.release.lib.Calc", "fixtures.release.lib.Calc",
                                       "price", "(I)I", in);
  JvmSession session;
  env.session = &session;
  auto shared = pasda::witness::replayJvm(b.path.string(), env, "fixtures.release.lib.Calc",
                                          "fixtures.release.lib.Calc", "price", "(I)I", in);
  ASSERT_TRUE(own.has_value() && shared.has_value());
  for (std::size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ((*shared)[i].old_out, (*own)[i].old_out);
    EXPECT_EQ((*shared)[i].new_out, (*own)[i].new_out);
    EXPECT_EQ((*shared)[i].differs, (*own)[i].differs);
    EXPECT_TRUE((*shared)[i].note.empty()) << (*shared)[i].note;
  }
  EXPECT_EQ((*shared)[1].old_out, "1010");
  EXPECT_EQ((*shared)[1].new_out, "1011");
  EXPECT_TRUE((*shared)[1].differs);
  EXPECT_FALSE((*shared)[0].differs);
  EXPECT_EQ(session.starts(), 1);
  EXPECT_EQ(session.requests(), 2);  // the old version's driver, then the new one's
  // Both versions in one package on one class path: one request.
  pasda::witness::ReplayEnv one;
  one.old_classpath = one.new_classpath = {std::string(PASDA_FIXTURE_CLASSES) + "/witness/onepath"};
  one.session = &session;
  TempDir c("onepath-session");
  auto jvm = pasda::witness::replayJvm(c.path.string(), one, "onepath.OldV", "onepath.NewV", "f", "(I)I", {{I(9)}});
  ASSERT_TRUE(jvm.has_value());
  EXPECT_EQ((*jvm)[0].old_out, "10");
  EXPECT_EQ((*jvm)[0].new_out, "11");
  EXPECT_EQ(session.requests(), 3);
  EXPECT_EQ(session.starts(), 1);
}

TEST(JvmSession, NoJavaMeansNoReplay) {
  Pair p("witness/mixed", "fixtures/witness/mixed/Mixed", "wave", "(D)D");
  TempDir a("nojava-session");
  JvmSession session("/nonexistent/bin/java");
  pasda::witness::ReplayEnv env = p.env();
  env.java = "/nonexistent/bin/java";
  env.session = &session;
  p.emit(a.path);
  EXPECT_FALSE(pasda::witness::replayJvm(a.path.string(), env, p.oldName(), p.newName(), "wave", "(D)D", {{D(1.0)}})
                   .has_value());
  EXPECT_EQ(session.starts(), 0);
}

}  // namespace
}  // namespace wtest
