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
