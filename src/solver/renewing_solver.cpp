#include "renewing_solver.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace pasda::solver {
namespace {

using terms::Term;

class RenewingSolver final : public Solver {
 public:
  explicit RenewingSolver(std::function<std::unique_ptr<Solver>()> make) : make_(std::move(make)), inner_(make_()) {}
  ~RenewingSolver() override { abandonIfRetired(); }
  // Every call first renews a solver that retired meanwhile: one that shares its context with
  // a solver whose check overran retires with it, between two of its own calls.
  void push() override {
    renewIfRetired();
    inner_->push();
    frames_.emplace_back();
  }
  void pop(unsigned levels) override {
    renewIfRetired();
    inner_->pop(levels);
    frames_.resize(frames_.size() - std::min<std::size_t>(levels, frames_.size() - 1));
  }
  unsigned levels() const override { return inner_->levels(); }
  void add(Term t) override {
    renewIfRetired();
    inner_->add(t);
    frames_.back().push_back(t);
  }
  CheckResult check(const std::vector<Term>& assumptions) override {
    renewIfRetired();
    CheckResult r = inner_->check(assumptions);
    renewIfRetired();
    return r;
  }
  CheckResult checkForall(Term body, const std::vector<Term>& universal) override {
    renewIfRetired();
    CheckResult r = inner_->checkForall(body, universal);
    renewIfRetired();
    return r;
  }
  Model model(const std::vector<Term>& vars) override { return inner_->model(vars); }
  std::optional<Term> eval(Term t, std::string* exact) override { return inner_->eval(t, exact); }
  void setTimeoutMs(unsigned ms) override {
    timeout_ms_ = ms;
    inner_->setTimeoutMs(ms);
  }
  void interrupt() override {
    std::lock_guard<std::mutex> lock(swap_);
    inner_->interrupt();
  }
  std::uint64_t checks() const override { return checks_before_ + inner_->checks(); }
  double checkSeconds() const override { return seconds_before_ + inner_->checkSeconds(); }
  bool retired() const override { return inner_->retired(); }

 private:
  void abandonIfRetired() {
    // Never destroyed: its destructor would wait for the check still running in Z3.
    if (inner_ && inner_->retired()) (void)inner_.release();
  }
  void renewIfRetired() {
    if (!inner_->retired() || renewals_ >= kMaxRenewals) return;
    std::unique_ptr<Solver> fresh = make_();
    if (timeout_ms_) fresh->setTimeoutMs(*timeout_ms_);
    for (std::size_t level = 0; level < frames_.size(); ++level) {
      if (level > 0) fresh->push();
      for (Term t : frames_[level]) fresh->add(t);
    }
    checks_before_ += inner_->checks();
    seconds_before_ += inner_->checkSeconds();
    std::lock_guard<std::mutex> lock(swap_);  // interrupt() may come from another thread
    abandonIfRetired();
    inner_ = std::move(fresh);
    ++renewals_;
  }

  std::function<std::unique_ptr<Solver>()> make_;
  std::unique_ptr<Solver> inner_;
  std::vector<std::vector<Term>> frames_{1};  // the assertions of each level, level 0 first
  std::optional<unsigned> timeout_ms_;
  std::mutex swap_;
  int renewals_ = 0;
  std::uint64_t checks_before_ = 0;  // statistics of the retired solvers
  double seconds_before_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeRenewingSolver(std::function<std::unique_ptr<Solver>()> make) {
  return std::make_unique<RenewingSolver>(std::move(make));
}

}  // namespace pasda::solver
