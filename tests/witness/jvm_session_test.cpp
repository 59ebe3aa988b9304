// The JVM kept across replays (JvmSession, one per worker of a release diff): it answers like a
// JVM started per run, is started once for many replays, gives every replay freshly
// initialised classes, and is replaced after a replay that overran its time limit.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include <sstream>

#include "pasda/jvm/classfile.hpp"
#include "pasda/product/assembler.hpp"
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

TEST(JvmSession, JdkWideStateAReplayChangesIsPutBackForTheNext) {
  // One replay sets a system property, the default locale and time zone, and points System.out
  // and System.err to nowhere; the next replay in the same JVM must see the JVM's own state
  // (and the server's answers must still arrive), as in a JVM of its own.
  const std::string dir = std::string(PASDA_FIXTURE_CLASSES) + "/witness/globals";
  JvmSession fresh, session;
  std::string own, leak, look;
  bool late = false;
  ASSERT_TRUE(fresh.run(dir, "globals.Look", 30, own, late));
  ASSERT_FALSE(late);
  ASSERT_NE(own.find("null|"), std::string::npos) << own;
  ASSERT_TRUE(session.run(dir, "globals.Leak", 30, leak, late));
  EXPECT_FALSE(late) << "the server's answer did not arrive after System.out was changed";
  ASSERT_TRUE(session.run(dir, "globals.Look", 30, look, late));
  EXPECT_FALSE(late);
  EXPECT_EQ(look, own);
  EXPECT_EQ(session.starts(), 1);
}

TEST(JvmSession, OneVersionsCallDoesNotChangeWhatTheOthersSees) {
  // Both versions replay in one JVM, old then new: the old call's System.setProperty must not
  // reach the new call (it made the unchanged method "differ" by replay), nor the next witness.
  Pair p("witness/props", "fixtures/witness/props/Prop", "swap", "(I)Ljava/lang/String;");
  TempDir d("props");
  auto r = p.jvm(d.path, {{I(1)}, {I(2)}});
  ASSERT_TRUE(r.has_value());
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ((*r)[i].old_out, "null") << (*r)[i].note;
    EXPECT_EQ((*r)[i].new_out, "null");
    EXPECT_FALSE((*r)[i].differs);
  }
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

TEST(JvmSession, TheTwoVersionsOfAReplayShareItsTime) {
  // Two releases replay one after the other in the session JVM; when both hang, the second gets
  // what the first left, not a timeout of its own (twice the replay's time, past the deadline
  // of a release diff's method). Both are reported as not finished.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/witness/spin";
  pasda::witness::ReplayEnv env;
  env.old_classpath = {root + "/old"};
  env.new_classpath = {root + "/new"};
  env.jvm_timeout_s = 3;
  JvmSession session;
  env.session = &session;
  ASSERT_TRUE(session.warmUp());
  TempDir a("spin");
  const auto start = std::chrono::steady_clock::now();
  auto r = pasda::witness::replayJvm(a.path.string(), env, "fixtures.witness.spin.Spin", "fixtures.witness.spin.Spin",
                                     "spin", "(I)I", {{I(1)}});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE((*r)[0].differs);
  EXPECT_NE((*r)[0].note.find("did not finish"), std::string::npos) << (*r)[0].note;
  EXPECT_LT(took, 4.5);  // (6 s and more when each version had the whole 3 s)
  EXPECT_EQ(session.requests(), 1);  // the new version's driver had no time left to be sent
}

/// The pid of a child of `parent` (from /proc), or -1.
pid_t childOf(pid_t parent) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    std::string state;
    long ppid = 0;
    if (rest >> state >> ppid && ppid == parent) return static_cast<pid_t>(std::stol(name));
  }
  return -1;
}

/// Has process `pid` ended (gone, or a zombie nobody reaped yet)?
bool ended(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  return stat.empty() || close == std::string::npos || stat.substr(close + 2, 1) == "Z";
}

TEST(JvmSession, TheJvmEndsWithTheProcessThatStartedItEvenMidReplay) {
  // A release worker killed at the diff's deadline while its JVM ran a replay that never ends
  // left that JVM spinning for good (found after a whole-release diff). The JVM now watches
  // its parent and halts when it is gone.
  TempDir d("spin");
  {
    pasda::jvm::ClassFile cf;
    cf.major_version = 49;
    cf.access_flags = pasda::jvm::acc::Public | pasda::jvm::acc::Super;
    cf.this_class = cf.pool.addClass("Spin");
    cf.super_class = cf.pool.addClass("java/lang/Object");
    pasda::product::Assembler a(cf.pool);
    const int loop = a.newLabel();
    a.bind(loop);
    a.jump(pasda::jvm::Opcode::goto_, loop);
    cf.methods.push_back(pasda::product::codeMethod(cf, pasda::jvm::acc::Public | pasda::jvm::acc::Static, "main",
                                                    "([Ljava/lang/String;)V", a.finish(), 1, 1));
    const std::vector<std::uint8_t> bytes = pasda::jvm::writeClass(cf);
    std::ofstream(d.path / "Spin.class", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    JvmSession session;
    const bool up = session.warmUp();
    (void)!::write(ready[1], up ? "y" : "n", 1);
    std::string out;
    bool timedOut = false;
    session.run(d.path.string(), "Spin", 120, out, timedOut);  // never answers
    ::_exit(0);
  }
  char up = 0;
  ASSERT_EQ(::read(ready[0], &up, 1), 1);
  ASSERT_EQ(up, 'y') << "no JVM";
  pid_t jvm = -1;
  for (int i = 0; i < 100 && jvm < 0; ++i) {
    jvm = childOf(worker);
    if (jvm < 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(jvm, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));  // the request is sent; Spin runs
  EXPECT_FALSE(ended(jvm));
  ::kill(worker, SIGKILL);
  int status = 0;
  ::waitpid(worker, &status, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {  // the watchdog looks every 0.5 s
    gone = ended(jvm);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!gone) ::kill(jvm, SIGKILL);  // (not left behind by the test either)
  EXPECT_TRUE(gone) << "the replay JVM outlived the process that started it";
  ::close(ready[0]);
  ::close(ready[1]);
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
