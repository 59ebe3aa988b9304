// The identical-closure oracle's answer for the rule of equivalent callees: which changed
// methods an affected method reaches, when they are the only differences it reaches and no
// code on the way to them can catch an exception (docs/release-diff.md, "Equivalent callees").
#include "closure_graph.hpp"

namespace pasda::diff {

std::vector<std::string> ClosureOracle::changedCallees(const std::string& cls, const std::string& name,
                                                       const std::string& descriptor) {
  Impl& I = *impl_;
  // Whether a method of the path has an exception handler in either version.
  auto hasHandlers = [&I](const Node& n) {
    for (Version v : kBothVersions) {
      const auto& s = I.side(v, n.cls);
      const jvm::Method* m = s.cf ? s.cf->findMethod(n.name, I.actual(n.desc, v)) : nullptr;
      if (m && m->code && !m->code->handlers.empty()) return true;
    }
    return false;
  };
  const int root = I.node(NodeKind::Method, I.key(cls, Version::kOld), name, I.key(descriptor, Version::kOld));
  I.expand(root);
  if (I.nodes[static_cast<std::size_t>(root)].bad || !I.reachesDifference(root)) return {};
  // Every node on a way to a difference has `reaches` decided (1) by reachesDifference; nodes
  // that reach none (0) cannot be on the stack when a changed method runs.
  std::vector<int> queue{root};
  std::set<int> seen{root};
  std::set<std::string> out;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Node& n = I.nodes[static_cast<std::size_t>(queue[q])];
    if (n.bad) {
      if (n.kind != NodeKind::Method || !n.code_differs || n.missing || n.name == "<clinit>") return {};
      out.insert(I.actual(n.cls, Version::kOld) + "." + n.name + I.actual(n.desc, Version::kOld));
      continue;
    }
    if (n.kind == NodeKind::Method && hasHandlers(n)) return {};
    for (int e : n.edges)
      if (I.nodes[static_cast<std::size_t>(e)].reaches != 0 && seen.insert(e).second) queue.push_back(e);
  }
  return {out.begin(), out.end()};
}

}  // namespace pasda::diff
