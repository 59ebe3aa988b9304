// A solver that decides nothing (every check Unknown) lets both directions of a bounds check
// through; an access into an empty array must still throw ArrayIndexOutOfBoundsException, not
// read past the elements (a crash seen by the soundness fuzzer under load, when Z3 timed out).
#include <filesystem>

#include "symexec/support.hpp"

namespace symtest {
namespace {

class Undecided : public ::testing::Test {
 protected:
  Harness h{Arith::Java};
  Explored explore(const std::string& name) {
    const auto& m = h.method("Undecided", name, "(I)I");
    Explored e;
    e.in = pasda::symexec::makeInputs(m, h.tm());
    auto solver = pasda::solver::makeNullSolver();
    pasda::symexec::Executor ex(h.program(), h.tm(), *solver, ExecOptions{});
    e.stats = ex.explore(m, e.in.terms, e.in.constraints,
                         [&](const RawPartition& p, pasda::solver::Solver&) { e.parts.push_back(p); });
    return e;
  }
};

TEST_F(Undecided, AnIndexIntoAnEmptyArrayThrowsWhateverTheSolverSays) {
  for (const char* name : {"load", "loadRef", "store"}) {
    Explored e = explore(name);
    ASSERT_FALSE(e.parts.empty()) << name;
    for (const RawPartition& p : e.parts) {
      EXPECT_EQ(p.entry.kind, ExecEffect::Kind::Throw) << name;
      EXPECT_EQ(p.entry.exception, "java/lang/ArrayIndexOutOfBoundsException") << name;
    }
  }
}

TEST_F(Undecided, ASubstringWhoseBoundsTheSolverLeavesOpenNeverRunsPastTheString) {
  // With no decision at all, the paths on which the begin index is 2 (past the end index 1)
  // contradict the bounds check they passed: they end, and every path that remains either
  // throws StringIndexOutOfBoundsException or returns a length the substring can have.
  Explored e = explore("sub");
  ASSERT_FALSE(e.parts.empty());
  bool threw = false, returned = false;
  for (const RawPartition& p : e.parts) {
    if (p.entry.kind == ExecEffect::Kind::Throw) {
      EXPECT_EQ(p.entry.exception, "java/lang/StringIndexOutOfBoundsException");
      threw = true;
      continue;
    }
    ASSERT_EQ(p.entry.kind, ExecEffect::Kind::Return);
    auto len = h.tm().asInteger(p.entry.value);
    ASSERT_TRUE(len.has_value());
    EXPECT_TRUE(*len == 0 || *len == 1) << *len;
    returned = true;
  }
  EXPECT_TRUE(threw);
  EXPECT_TRUE(returned);
}

TEST(UndecidedEverywhere, EveryFixtureMethodExploredWithoutAnyDecisionEndsWithoutAnInternalError) {
  // A solver that decides nothing keeps both directions of every branch, so every model and
  // instruction meets the values that only contradictory paths carry (the substring above was
  // found so, under load, on StringUtils). Every method of the interpreter's and the real-code
  // fixtures (every static method), a short exploration each: an ExecError (something unsupported, one clear line)
  // is allowed, any other exception is a bug.
  namespace fs = std::filesystem;
  std::vector<fs::path> roots{fs::path(PASDA_FIXTURE_CLASSES) / "symexec"};
  for (const char* group : {"realcode", "objects", "objects2"})
    for (const auto& e : fs::directory_iterator(fs::path(PASDA_FIXTURE_CLASSES) / group))
      for (const char* side : {"old", "new"})
        if (fs::is_directory(e.path() / side)) roots.push_back(e.path() / side);
  std::size_t methods = 0, unsupported = 0;
  for (const fs::path& root : roots) {
    if (!fs::is_directory(root)) continue;
    for (Arith arith : {Arith::Java, Arith::Math}) {
      Harness h(arith, root.string());
      for (const auto& f : fs::recursive_directory_iterator(root)) {
        if (f.path().extension() != ".class") continue;
        std::string internal = fs::relative(f.path(), root).replace_extension().generic_string();
        const pasda::symexec::LoadedClass* lc = nullptr;
        try {
          lc = h.program().find(pasda::symexec::kOld, internal);
        } catch (const std::exception& ex) {
          ADD_FAILURE() << internal << ": " << ex.what();
        }
        if (!lc) continue;
        for (const auto& [key, m] : lc->methods) {
          // (static methods: the engine enters code through the product's static run, which
          // calls instance methods on objects it has built; abstract and native ones have no code)
          if (m->insns.empty() || !m->is_static) continue;
          ++methods;
          ExecOptions opt;
          opt.depth_limit = 4;
          opt.max_steps_per_path = 20000;
          opt.deadline = Clock::now() + std::chrono::milliseconds(150);
          try {
            auto in = pasda::symexec::makeInputs(*m, h.tm());
            auto none = pasda::solver::makeNullSolver();
            pasda::symexec::Executor ex(h.program(), h.tm(), *none, opt);
            ex.explore(*m, in.terms, in.constraints, [](const RawPartition&, pasda::solver::Solver&) {});
          } catch (const pasda::symexec::ExecError&) {
            ++unsupported;
          } catch (const std::exception& ex) {
            ADD_FAILURE() << internal << "." << key << " (" << (arith == Arith::Java ? "java" : "math")
                          << "): " << ex.what();
          }
        }
      }
    }
  }
  EXPECT_GT(methods, 300u);
  RecordProperty("methods", static_cast<int>(methods));
  RecordProperty("unsupported", static_cast<int>(unsupported));
}

}  // namespace
}  // namespace symtest
