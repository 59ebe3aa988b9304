#include "pasda/solver/solver.hpp"

namespace pasda::solver {

namespace {

class NullSolver final : public Solver {
 public:
  void push() override { ++levels_; }
  void pop(unsigned n) override { levels_ = n > levels_ ? 0 : levels_ - n; }
  unsigned levels() const override { return levels_; }
  void add(terms::Term) override {}
  CheckResult check(const std::vector<terms::Term>&) override {
    ++checks_;
    return {Status::Unknown, "no solver (concrete run)", 0};
  }
  Model model(const std::vector<terms::Term>&) override { return {}; }
  std::optional<terms::Term> eval(terms::Term, std::string*) override { return std::nullopt; }
  void setTimeoutMs(unsigned) override {}
  void interrupt() override {}
  std::uint64_t checks() const override { return checks_; }
  double checkSeconds() const override { return 0; }

 private:
  unsigned levels_ = 0;
  std::uint64_t checks_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeNullSolver() { return std::make_unique<NullSolver>(); }

}  // namespace pasda::solver
