// The generated product class in a real JVM: analysis::emitProduct writes the product, its
// exception class and the two renamed versions; `java -Xverify:all` loads and runs them on
// values given as arguments. Equal outputs print the result; different outputs (values or
// exception types) end in DifferentOutputsException.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pasda/analysis/analysis.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct JavaRun {
  int code = -1;
  std::string out, err;
};

class ProductJvm : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("pasda_product_" + std::to_string(::getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string e2eClass(const std::string& kase, const std::string& side, const std::string& cls) {
    return std::string(PASDA_FIXTURE_CLASSES) + "/e2e/" + kase + "/" + side + "/fixtures/" + kase + "/" + cls + ".class";
  }

  /// Emit the product of a fixture pair; returns the product's dotted name.
  std::string emit(const std::string& kase, const std::string& cls) {
    pasda::analysis::Version o = pasda::analysis::loadVersion(e2eClass(kase, "old", cls), "", "");
    pasda::analysis::Version n = pasda::analysis::loadVersion(e2eClass(kase, "new", cls), "", "");
    std::string method = pasda::analysis::selectMethod(o, n, "");
    return pasda::analysis::emitProduct(o, n, method, dir_.string());
  }

  JavaRun java(const std::string& product, const std::vector<std::string>& args) {
    // Single quotes: the product's name contains '$'.
    std::string cmd = std::string(PASDA_JAVA) + " -Xverify:all -cp '" + dir_.string() + "' '" + product + "'";
    for (const std::string& a : args) cmd += " " + a;
    fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    int st = std::system((cmd + " > " + out.string() + " 2> " + err.string()).c_str());
    JavaRun r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  fs::path dir_;
};

TEST_F(ProductJvm, WritesTheProductTheExceptionAndBothRenamedVersions) {
  std::string product = emit("listing2", "Listing2");
  EXPECT_EQ(product.rfind("fixtures.listing2.", 0), 0u) << product;
  std::size_t classes = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_)) classes += e.path().extension() == ".class";
  EXPECT_EQ(classes, 4u);
  // Same class name in both versions: loaded side by side after renaming.
  pasda::jvm::ClassPath cp = pasda::jvm::ClassPath::parse(dir_.string());
  std::vector<std::string> names = cp.list();
  EXPECT_EQ(std::count_if(names.begin(), names.end(),
                          [](const std::string& n) { return n.rfind("fixtures/listing2/Listing2", 0) == 0; }),
            4);
}

TEST_F(ProductJvm, EqualOutputsPrintTheResult) {
  std::string product = emit("listing2", "Listing2");
  JavaRun r = java(product, {"1.5", "20"});  // n > 10: both return x * 2
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "3.0\n");
  JavaRun s = java(product, {"0.25", "3"});  // n < 10: both return x + n
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.out, "3.25\n");
}

TEST_F(ProductJvm, DifferentValuesThrowDifferentOutputsException) {
  std::string product = emit("listing2", "Listing2");
  JavaRun r = java(product, {"0.0", "10"});  // old: x + n = 10.0, new: x * 2 = 0.0
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("DifferentOutputsException"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("VerifyError"), std::string::npos) << r.err;
}

TEST_F(ProductJvm, DifferentExceptionTypesThrowDifferentOutputsException) {
  std::string product = emit("divzero", "Div");
  JavaRun same = java(product, {"7", "2"});
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(same.out, "3\n");
  JavaRun r = java(product, {"7", "0"});  // old returns 0, new throws ArithmeticException
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("DifferentOutputsException"), std::string::npos) << r.err;
}

TEST_F(ProductJvm, IntegerAndLibraryFixtures) {
  std::string algebra = emit("algebra", "Algebra");
  for (auto [a, b, want] : {std::tuple{"3", "4", "6"}, std::tuple{"10", "5", "30"}, std::tuple{"-20", "2", "-19"}}) {
    JavaRun r = java(algebra, {a, b});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, std::string(want) + "\n");
  }
  std::string trig = emit("trig", "Trig");
  JavaRun r = java(trig, {"0.3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NEAR(std::stod(r.out), 1 + std::sin(0.3), 1e-15);
  JavaRun big = java(trig, {"1.2"});  // sin(1.2) > 0.5: 2 * s versus s + s, equal
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NEAR(std::stod(big.out), 2 * std::sin(1.2), 1e-15);
}

}  // namespace
