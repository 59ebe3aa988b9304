// Loading from .class files, class-path directories and jars (written with libzip), by path and name.
#include <gtest/gtest.h>
#include <zip.h>

#include "pasda/jvm/errors.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

void makeJar(const std::string& path, const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& entries) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr);
  for (const auto& [name, data] : entries) {
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    ASSERT_NE(src, nullptr);
    ASSERT_GE(zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE), 0);
  }
  ASSERT_EQ(zip_close(z), 0);
}

std::vector<std::uint8_t> renamedFlow(const std::string& to) {
  ClassFile cf = loadClassFile(fixtureClass("Flow"));
  renameClass(cf, "Flow", to);
  return writeClass(cf);
}

TEST(Loader, ClassFileByPath) {
  ClassFile cf = loadClassFile(fixtureClass("Flow"));
  EXPECT_EQ(cf.name(), "Flow");
  EXPECT_EQ(cf.superName(), "java/lang/Object");
  EXPECT_EQ(cf.sourceFile(), "Flow.java");
  EXPECT_EQ(cf.source_file_path, fixtureClass("Flow"));
  EXPECT_THROW(loadClassFile(fixtureDir() + "/Missing.class"), LoadError);
  EXPECT_THROW(loadClassFile(fixtureDir()), LoadError);
}

TEST(Loader, DirectoryByInternalAndDottedName) {
  TempDir dir("cpdir");
  writeBytes(dir.file("p/q/Flow.class"), renamedFlow("p/q/Flow"));
  ClassPath cp = ClassPath::parse(fixtureDir() + ":" + dir.path());
  ASSERT_EQ(cp.entries().size(), 2u);
  const ClassFile* flow = cp.load("Flow");
  ASSERT_NE(flow, nullptr);
  EXPECT_EQ(flow->name(), "Flow");
  EXPECT_EQ(cp.load("Flow"), flow) << "cached";
  const ClassFile* pq = cp.load("p.q.Flow");
  ASSERT_NE(pq, nullptr);
  EXPECT_EQ(pq->name(), "p/q/Flow");
  EXPECT_NE(cp.load("Objects$Circle"), nullptr);
  EXPECT_EQ(cp.load("no/Such"), nullptr);
  std::string where;
  ASSERT_TRUE(cp.find("p/q/Flow", &where));
  EXPECT_EQ(where, dir.file("p/q/Flow.class"));
  auto names = cp.list();
  EXPECT_TRUE(std::binary_search(names.begin(), names.end(), "p/q/Flow"));
  EXPECT_TRUE(std::binary_search(names.begin(), names.end(), "Arith"));
  EXPECT_EQ(impliedClassPathRoot(dir.file("p/q/Flow.class"), *pq), fs::path(dir.path()).lexically_normal().string());
  EXPECT_THROW(ClassPath::parse(dir.path() + ":/no/such/dir"), LoadError);
  EXPECT_EQ(toDottedName("a/b/C"), "a.b.C");
  EXPECT_EQ(toInternalName("a.b.C"), "a/b/C");
}

TEST(Loader, JarByName) {
  TempDir dir("jar");
  std::string jar = dir.file("lib.jar");
  makeJar(jar, {{"META-INF/MANIFEST.MF", {'M', 'a', 'n', 'i', 'f', 'e', 's', 't', '\n'}},
                {"p/q/Flow.class", renamedFlow("p/q/Flow")},
                {"Arith.class", readFile(fixtureClass("Arith"))},
                {"bad/Broken.class", {0xca, 0xfe, 0xba, 0xbe, 0, 0}}});
  ClassPath cp = ClassPath::parse(jar);
  const ClassFile* pq = cp.load("p.q.Flow");
  ASSERT_NE(pq, nullptr);
  EXPECT_EQ(pq->name(), "p/q/Flow");
  EXPECT_NE(pq->findMethod("nested", "(I)I"), nullptr);
  ASSERT_NE(cp.load("Arith"), nullptr);
  EXPECT_EQ(cp.load("Missing"), nullptr);
  std::string where;
  ASSERT_TRUE(cp.find("Arith", &where));
  EXPECT_EQ(where, jar + "!/Arith.class");
  auto names = cp.list();
  EXPECT_EQ(names, (std::vector<std::string>{"Arith", "bad/Broken", "p/q/Flow"}));
  try {
    cp.load("bad/Broken");
    ADD_FAILURE() << "corrupt class in jar accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), jar + "!/bad/Broken.class");
    EXPECT_EQ(e.offset(), 6u);
  }
}

TEST(Loader, CorruptJarsAreLoadErrors) {
  TempDir dir("badjar");
  std::string garbage = dir.file("garbage.jar");
  writeBytes(garbage, {'n', 'o', 't', ' ', 'a', ' ', 'z', 'i', 'p'});
  EXPECT_THROW(ClassPath::parse(garbage), LoadError);
  std::string good = dir.file("good.jar");
  makeJar(good, {{"Arith.class", readFile(fixtureClass("Arith"))}, {"Flow.class", readFile(fixtureClass("Flow"))}});
  auto bytes = readFile(good);
  // Truncations and bit flips of a real jar: a LoadError or FormatError, never anything else.
  int rejected = 0;
  for (std::size_t cut = 0; cut < bytes.size(); cut += 13) {
    for (int flip = 0; flip < 2; ++flip) {
      auto m = flip ? bytes : std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
      if (flip) m[cut] ^= 0x5a;
      std::string path = dir.file("m.jar");
      writeBytes(path, m);
      try {
        ClassPath cp = ClassPath::parse(path);
        (void)cp.list();
        (void)cp.load("Arith");
        (void)cp.load("Flow");
      } catch (const LoadError& e) {
        EXPECT_FALSE(e.reason().empty());
        ++rejected;
      } catch (const FormatError&) {
        ++rejected;
      }
    }
  }
  EXPECT_GT(rejected, 10);
}

}  // namespace
}  // namespace pasda::jvm::test
