// The loader on hostile input: special files refused by type before anything is read (a FIFO
// never blocks), size caps on class files and jar entries (zip bombs), jar entry names that
// would leave the class path, and class names that would.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "pasda/jvm/errors.hpp"
#include "support.hpp"
#include "support/jars.hpp"

namespace pasda::jvm::test {
namespace {

using Clock = std::chrono::steady_clock;

std::string bytesOf(const std::string& path) {
  auto v = readFile(path);
  return std::string(v.begin(), v.end());
}

/// The LoadError `f` throws (fails the test when it throws nothing or something else).
template <class F>
LoadError loadErrorOf(F&& f) {
  try {
    f();
  } catch (const LoadError& e) {
    return e;
  }
  ADD_FAILURE() << "no LoadError";
  return LoadError("", "");
}

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

TEST(LoaderHostile, FifoIsRefusedWithoutBlocking) {
  TempDir dir("fifo");
  const std::string fifo = dir.file("Old.class");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = Clock::now();
  LoadError e = loadErrorOf([&] { readFile(fifo); });
  EXPECT_EQ(e.file(), fifo);
  EXPECT_NE(e.reason().find("named pipe"), std::string::npos) << e.reason();
  loadErrorOf([&] { loadClassFile(fifo); });
  // As a jar: zip_open would wait for a writer.
  const std::string fifoJar = dir.file("lib.jar");
  ASSERT_EQ(::mkfifo(fifoJar.c_str(), 0600), 0);
  e = loadErrorOf([&] { ClassPath::parse(fifoJar); });
  EXPECT_NE(e.reason().find("named pipe"), std::string::npos) << e.reason();
  // Inside a class-path directory it is not a class file at all.
  ClassPath cp = ClassPath::parse(dir.path());
  EXPECT_EQ(cp.load("Old"), nullptr);
  EXPECT_TRUE(cp.list().empty());
  EXPECT_LT(secondsSince(t0), 2.0);
}

TEST(LoaderHostile, DevicesAndDirectoriesAreRefusedByType) {
  for (const char* dev : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    LoadError e = loadErrorOf([&] { readFile(dev); });
    EXPECT_EQ(e.reason(), "is a character device, not a regular file") << dev;
    e = loadErrorOf([&] { ClassPath cp; cp.addJar(dev); });
    EXPECT_EQ(e.reason(), "is a character device, not a regular file") << dev;
  }
  TempDir dir("dirfile");
  EXPECT_EQ(loadErrorOf([&] { readFile(dir.path()); }).reason(), "is a directory, not a file");
  EXPECT_EQ(loadErrorOf([&] { readFile(dir.file("missing.class")); }).reason(), "no such file or directory");
}

TEST(LoaderHostile, ClassFileSizeIsCapped) {
  TempDir dir("big");
  const std::string big = dir.file("Big.class");
  { std::ofstream(big, std::ios::binary) << "x"; }
  // A sparse file: no disk space, but its size is above the cap.
  ASSERT_EQ(::truncate(big.c_str(), static_cast<off_t>(kMaxClassFileBytes + 1)), 0);
  LoadError e = loadErrorOf([&] { readFile(big); });
  EXPECT_NE(e.reason().find("above the limit of " + std::to_string(kMaxClassFileBytes) + " bytes"), std::string::npos)
      << e.reason();
  // At the cap it is read (and then rejected by the parser, not by the reader).
  ASSERT_EQ(::truncate(big.c_str(), 4096), 0);
  EXPECT_EQ(readFile(big).size(), 4096u);
  EXPECT_EQ(readFile(big, 4096).size(), 4096u);
  EXPECT_THROW(readFile(big, 4095), LoadError);
}

TEST(LoaderHostile, ZipBombEntryIsRefusedBeforeInflating) {
  TempDir dir("bomb");
  const std::string jar = dir.file("bomb.jar");
  pasda::testsupport::writeZerosJar(jar, "Bomb.class", std::uint64_t{256} << 20);
  ASSERT_LT(fs::file_size(jar), std::uintmax_t{2} << 20) << "the bomb should compress";
  ClassPath cp = ClassPath::parse(jar);
  EXPECT_EQ(cp.list(), std::vector<std::string>{"Bomb"});
  const auto t0 = Clock::now();
  LoadError e = loadErrorOf([&] { cp.load("Bomb"); });
  EXPECT_EQ(e.file(), jar);
  EXPECT_NE(e.reason().find("268435456 bytes uncompressed"), std::string::npos) << e.reason();
  EXPECT_LT(secondsSince(t0), 0.5) << "refused from the directory, not after inflating";
}

TEST(LoaderHostile, JarEntryNamesOutsideTheClassPathAreRefusedByName) {
  TempDir dir("names");
  const std::string cls = bytesOf(fixtureClass("Arith"));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"../../etc/x.class", "'..' segment"},
      {"/etc/x.class", "absolute path"},
      {"a\\b.class", "backslash"},
      {"a//b.class", "empty path segment"},
      {"a/./b.class", "'.' segment"},
  };
  for (const auto& [name, why] : bad) {
    SCOPED_TRACE(name);
    const std::string jar = dir.file("bad.jar");
    pasda::testsupport::writeJar(jar, {{"Arith.class", cls}, {name, cls}});
    ClassPath cp = ClassPath::parse(jar);
    LoadError e = loadErrorOf([&] { cp.list(); });
    EXPECT_EQ(e.file(), jar);
    EXPECT_NE(e.reason().find("entry '" + name + "' is not a class-path name"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find(why), std::string::npos) << e.reason();
    EXPECT_NE(cp.load("Arith"), nullptr) << "a well-named entry stays loadable by name";
  }
}

TEST(LoaderHostile, ClassNamesNeverReachOutsideTheClassPath) {
  TempDir dir("escape");
  // dir/root is the class path; dir/Secret.class lies outside it.
  const std::string root = dir.file("root");
  fs::create_directories(root);
  writeBytes(dir.file("Secret.class"), readFile(fixtureClass("Arith")));
  writeBytes(dir.file("root/Arith.class"), readFile(fixtureClass("Arith")));
  ClassPath cp = ClassPath::parse(root);
  EXPECT_NE(cp.load("Arith"), nullptr);
  for (const char* name : {"../Secret", "/etc/passwd", "a/../../Secret", "..\\Secret", ""}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(cp.find(name).has_value());
    EXPECT_EQ(cp.load(name), nullptr);
  }
}

TEST(LoaderHostile, ClassPathNameRules) {
  EXPECT_EQ(classPathNameProblem("a/b/C"), "");
  EXPECT_EQ(classPathNameProblem("C$1"), "");
  EXPECT_EQ(classPathNameProblem("p/..x/C"), "");  // ".." only as a whole segment
  EXPECT_NE(classPathNameProblem(""), "");
  EXPECT_NE(classPathNameProblem(std::string("a\0b", 3)), "");
  EXPECT_NE(classPathNameProblem("a\\b"), "");
  EXPECT_NE(classPathNameProblem("/a"), "");
  EXPECT_NE(classPathNameProblem("a/"), "");
  EXPECT_NE(classPathNameProblem("a//b"), "");
  EXPECT_NE(classPathNameProblem("./a"), "");
  EXPECT_NE(classPathNameProblem("a/.."), "");
}

TEST(LoaderHostile, TwentyThousandEntryJarIsListedQuickly) {
  TempDir dir("wide");
  std::vector<std::pair<std::string, std::string>> entries;
  entries.reserve(20000);
  entries.emplace_back("Arith.class", bytesOf(fixtureClass("Arith")));
  for (int i = 1; i < 20000; ++i) entries.emplace_back("p/q/C" + std::to_string(i) + ".class", "not parsed");
  const std::string jar = dir.file("wide.jar");
  pasda::testsupport::writeJar(jar, entries);
  const auto t0 = Clock::now();
  ClassPath cp = ClassPath::parse(jar);
  EXPECT_EQ(cp.list().size(), 20000u);
  EXPECT_NE(cp.load("Arith"), nullptr);
  EXPECT_LT(secondsSince(t0), 5.0);
}

}  // namespace
}  // namespace pasda::jvm::test
