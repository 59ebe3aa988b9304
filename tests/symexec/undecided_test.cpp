// A solver that decides nothing (every check Unknown) lets both directions of a bounds check
// through; an access into an empty array must still throw ArrayIndexOutOfBoundsException, not
// read past the elements (a crash seen by the soundness fuzzer under load, when Z3 timed out).
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

}  // namespace
}  // namespace symtest
