// The Z3 contexts the solvers share: the pool (docs/architecture.md, "Solver contexts").
#include "z3_contexts.hpp"

#include <cstdlib>
#include <set>

namespace pasda::solver::detail {

ContextPool& ContextPool::instance() {
  static ContextPool* pool = new ContextPool;  // never destroyed: no order problem at exit
  return *pool;
}

std::shared_ptr<SharedContext> ContextPool::acquire(Kind kind) {
  static const bool privateContexts = std::getenv("PASDA_Z3_PRIVATE_CONTEXTS") != nullptr;  // diagnostics
  if (privateContexts) {
    ++created_;
    return std::shared_ptr<SharedContext>(new SharedContext, [](SharedContext* c) {
      if (!c->tainted) delete c;
    });
  }
  const auto key = std::make_pair(std::this_thread::get_id(), static_cast<int>(kind));
  std::unique_ptr<SharedContext> fresh;
  // A tainted current context found here is released only after the lock (its deleter locks
  // it too, should this be its last reference).
  std::shared_ptr<SharedContext> current;
  {
    std::lock_guard<std::mutex> l(mu_);
    for (auto it = current_.begin(); it != current_.end();)
      it = it->second.expired() ? current_.erase(it) : std::next(it);
    if (auto it = current_.find(key); it != current_.end()) {
      current = it->second.lock();
      if (current && !current->tainted) return current;
    }
    if (!free_.empty()) {
      fresh = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (!fresh) {
    fresh = std::make_unique<SharedContext>();  // outside the lock: tens of ms
    ++created_;
  }
  std::shared_ptr<SharedContext> sp(fresh.release(), [](SharedContext* c) { instance().release(c); });
  {
    std::lock_guard<std::mutex> l(mu_);
    current_[key] = sp;
  }
  current.reset();  // (outside the lock)
  return sp;
}

void ContextPool::release(SharedContext* c) {
  if (c->tainted) return;  // a runaway check may still be inside: leaked on purpose
  std::lock_guard<std::mutex> l(mu_);
  if (free_.size() < kKeep) free_.emplace_back(c);
  else delete c;
}

bool pureArithmetic(const z3::expr_vector& goal) {
  std::vector<z3::expr> stack;
  for (unsigned i = 0; i < goal.size(); ++i) stack.push_back(goal[i]);
  std::set<unsigned> seen;
  while (!stack.empty()) {
    z3::expr e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.id()).second) continue;
    if (e.is_quantifier()) return false;
    if (!e.is_app()) continue;
    const z3::sort s = e.get_sort();
    if (!s.is_bool() && !s.is_int() && !s.is_real()) return false;
    if (e.decl().decl_kind() == Z3_OP_UNINTERPRETED && e.num_args() > 0) return false;
    for (unsigned i = 0; i < e.num_args(); ++i) stack.push_back(e.arg(i));
  }
  return true;
}

}  // namespace pasda::solver::detail
