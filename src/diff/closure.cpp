// The identical-closure oracle: a graph of methods, fields and classes of the analysed class
// path, built lazily from the code of both versions, and a memoised "can a difference be
// reached from here" over its strongly connected components. What each kind of instruction
// adds to the graph is documented in docs/release-diff.md ("The oracle").
#include <algorithm>

#include "closure_graph.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::diff {

const char* closureVerdictName(ClosureVerdict v) {
  switch (v) {
    case ClosureVerdict::Identical: return "identical";
    case ClosureVerdict::Affected: return "affected";
    case ClosureVerdict::Changed: return "changed";
    case ClosureVerdict::Missing: return "missing";
  }
  return "?";
}

// ----- expansion of nodes -----

void ClosureOracle::Impl::expand(int id) {
  if (nodes[static_cast<std::size_t>(id)].expanded) return;
  nodes[static_cast<std::size_t>(id)].expanded = true;
  try {
    expandNode(id);
  } catch (const std::exception& e) {
    markBad(id, std::string("it cannot be analysed: ") + e.what());
  }
}

void ClosureOracle::Impl::expandNode(int id) {
  switch (nodes[static_cast<std::size_t>(id)].kind) {
    case NodeKind::Method: expandMethod(id); break;
    case NodeKind::Field: expandField(id); break;
    case NodeKind::Class: expandClass(id); break;
    case NodeKind::Call: {
      const Node n = nodes[static_cast<std::size_t>(id)];
      for (Version v : kBothVersions)
        call(id, v, jvm::MemberRef{actual(n.cls, v), n.name.substr(2), actual(n.desc, v), false}, n.name[0] == 'v',
             n.name[0] == 's');
      break;
    }
    case NodeKind::Callbacks: {
      buildIndex();
      if (!index_error.empty()) return markBad(id, index_error);
      const std::string set = nodes[static_cast<std::size_t>(id)].name;
      if (set == "any") {
        for (Version v : kBothVersions)
          for (const auto& [cls, md] : callbacks[v]) {
            auto colon = md.find(':');
            edge(id, node(NodeKind::Method, cls, md.substr(0, colon), md.substr(colon + 1)));
          }
        break;
      }
      for (unsigned bit : detail::callBackBits()) {
        if (set != detail::callBackName(bit)) continue;
        for (const std::string& md : detail::callBackMethods(bit)) {
          const auto colon = md.find(':');
          for (Version v : kBothVersions) {
            auto it = decls[v].find(md);
            if (it == decls[v].end()) continue;
            for (const auto& cls : it->second) edge(id, node(NodeKind::Method, cls, md.substr(0, colon), md.substr(colon + 1)));
          }
        }
      }
      break;
    }
    case NodeKind::EnumValues:
      buildIndex();
      if (!index_error.empty()) return markBad(id, index_error);
      for (Version v : kBothVersions)
        for (const auto& e : enums[v]) {
          edge(id, node(NodeKind::Class, e));
          edge(id, node(NodeKind::Method, e, "values", key("()[L" + actual(e, v) + ";", v)));
        }
      break;
  }
}

void ClosureOracle::Impl::expandMethod(int id) {
  const std::string cls = nodes[static_cast<std::size_t>(id)].cls;
  const std::string name = nodes[static_cast<std::size_t>(id)].name;
  const std::string desc = nodes[static_cast<std::size_t>(id)].desc;
  const std::string context = nodes[static_cast<std::size_t>(id)].context;
  PerVersion<const jvm::Method*> m{};
  PerVersion<const jvm::ClassFile*> cf{};
  for (Version v : kBothVersions) {
    const ClassSide& s = side(v, cls);
    if (!s.error.empty()) return markBad(id, "class " + actual(cls, v) + " cannot be read: " + s.error);
    cf[v] = s.cf;
    if (cf[v]) m[v] = cf[v]->findMethod(name, actual(desc, v));
  }
  const jvm::Method* mo = m[Version::kOld];
  const jvm::Method* mn = m[Version::kNew];
  Node& n = nodes[static_cast<std::size_t>(id)];
  if (!mo || !mn) {
    n.missing = true;
    return markBad(id, "not declared in the " + std::string(versionName(mo ? Version::kNew : Version::kOld)) + " version");
  }
  if ((mo->access_flags ^ mn->access_flags) & kMethodFlags) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its modifiers differ");
  }
  edge(id, node(NodeKind::Class, cls));
  if (!mo->code && !mn->code) {  // abstract or native in both
    // An abstract method has no code of its own, but what a call of it runs is an override's:
    // it reaches them all, as a dispatching call does (DatePrinter.format, whose only
    // implementation changed, is affected, not identical).
    // (its overrides are called with the same arguments: the same context)
    const CallSiteFacts site{kAnyObject, context};
    if (mo->access_flags & jvm::acc::Abstract)
      for (Version v : kBothVersions)
        call(id, v, jvm::MemberRef{actual(cls, v), name, actual(desc, v), false}, true, false, &site);
    return;
  }
  if (!mo->code || !mn->code) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "it has code in one version only");
  }
  PerVersion<DecodedMethod> d;
  try {
    for (Version v : kBothVersions) d[v] = detail::decodeMethod(*cf[v], *m[v]);
  } catch (const jvm::FormatError& e) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its code cannot be decoded: " + e.reason());
  }
  if (name == "<clinit>")  // a field with a constant initialiser in one version only
    for (Version v : kBothVersions) detail::dropOneVersionConstantStores(d[v], *cf[v], *cf[otherVersion(v)]);
  std::string diff = detail::codeDifference(d[Version::kOld], d[Version::kNew], norm);
  if (!diff.empty()) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its code differs (" + diff + ")");
  }
  // (reset however this ends: an exception below must not leave it set for the next node)
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{jdk_clean};
  PerVersion<FlowFacts> flow;
  for (Version v : kBothVersions) flow[v] = flowFacts(v, d[v], context);
  jdk_clean = flow[Version::kOld].clean && flow[Version::kNew].clean;
  for (Version v : kBothVersions) {
    const std::vector<CallSiteFacts>& sites = flow[v].sites;
    for (std::size_t i = 0; i < d[v].insns.size(); ++i)
      addInsnEdges(id, v, d[v], d[v].insns[i], sites.empty() ? nullptr : &sites[i]);
    for (const auto& h : m[v]->code->handlers)
      if (h.catch_type) typeEdge(id, v, cf[v]->pool.className(h.catch_type));
  }
}

void ClosureOracle::Impl::expandField(int id) {
  const std::string owner = nodes[static_cast<std::size_t>(id)].cls;
  const std::string name = nodes[static_cast<std::size_t>(id)].name;
  const std::string desc = nodes[static_cast<std::size_t>(id)].desc;
  PerVersion<std::string> found;
  PerVersion<std::uint16_t> flags;
  PerVersion<std::string> constant;  // a compile-time constant is set before the class initialiser runs
  for (Version v : kBothVersions) {
    // JVMS 5.4.3.2: the class, its superinterfaces, then its superclass; the JDK ends the search.
    std::vector<std::string> work{owner};
    std::set<std::string> seen;
    while (!work.empty() && found[v].empty()) {
      std::string c = work.front();
      work.erase(work.begin());
      if (c.empty() || !seen.insert(c).second) continue;
      const ClassSide& s = side(v, c);
      if (!s.error.empty()) return markBad(id, "class " + actual(c, v) + " cannot be read: " + s.error);
      if (!s.cf) break;
      const jvm::Field* f = s.cf->findField(name, actual(desc, v));
      if (f) {
        found[v] = c;
        flags[v] = f->access_flags;
        constant[v] = constantValue(*s.cf, *f);
        break;
      }
      std::vector<std::string> next = interfacesOf(v, c);
      next.push_back(superOf(v, c));
      work.insert(work.begin(), next.begin(), next.end());
    }
  }
  if (found[Version::kOld] != found[Version::kNew]) {
    auto resolvedIn = [&](Version v) {
      return (found[v].empty() ? std::string("the JDK") : found[v]) + " in the " + std::string(versionName(v));
    };
    return markBad(id, "it resolves to " + resolvedIn(Version::kOld) + " version and " + resolvedIn(Version::kNew));
  }
  if (found[Version::kOld].empty()) return;
  if ((flags[Version::kOld] ^ flags[Version::kNew]) & (jvm::acc::Static | jvm::acc::Final | jvm::acc::Volatile))
    return markBad(id, "its modifiers differ");
  if (constant[Version::kOld] != constant[Version::kNew]) return markBad(id, "its constant value differs");
  edge(id, node(NodeKind::Class, found[Version::kOld]));
}

void ClosureOracle::Impl::expandClass(int id) {
  const std::string k = nodes[static_cast<std::size_t>(id)].cls;
  PerVersion<const jvm::ClassFile*> cf{};
  for (Version v : kBothVersions) {
    const ClassSide& s = side(v, k);
    if (!s.error.empty()) return markBad(id, "it cannot be read: " + s.error);
    cf[v] = s.cf;
  }
  const jvm::ClassFile* co = cf[Version::kOld];
  const jvm::ClassFile* cn = cf[Version::kNew];
  if (!co && !cn) return;
  if (!co || !cn)
    return markBad(id, "it is absent from the " + std::string(versionName(co ? Version::kNew : Version::kOld)) + " version");
  if ((co->access_flags ^ cn->access_flags) & kClassFlags) return markBad(id, "its modifiers differ");
  if (superOf(Version::kOld, k) != superOf(Version::kNew, k) ||
      interfacesOf(Version::kOld, k) != interfacesOf(Version::kNew, k))
    return markBad(id, "its superclass or interfaces differ");
  if (co->findMethod("<clinit>", "()V") || cn->findMethod("<clinit>", "()V"))
    edge(id, node(NodeKind::Method, k, "<clinit>", "()V"));
  for (Version v : kBothVersions) {
    std::vector<std::string> supers = interfacesOf(v, k);
    supers.push_back(superOf(v, k));
    for (const auto& s : supers)
      if (!s.empty() && (inPath(Version::kOld, s) || inPath(Version::kNew, s))) edge(id, node(NodeKind::Class, s));
  }
}

// ----- reachability of a difference (Tarjan's SCCs, memoised across queries) -----

bool ClosureOracle::Impl::reachesDifference(int root) {
  if (nodes[static_cast<std::size_t>(root)].reaches >= 0) return nodes[static_cast<std::size_t>(root)].reaches == 1;
  std::vector<int> stack;
  std::vector<std::pair<int, std::size_t>> frames;
  auto push = [&](int n) {
    expand(n);
    Node& x = nodes[static_cast<std::size_t>(n)];
    x.index = x.low = counter++;
    x.on_stack = true;
    stack.push_back(n);
    frames.push_back({n, 0});
  };
  push(root);
  while (!frames.empty()) {
    const int n = frames.back().first;
    const std::size_t i = frames.back().second;
    if (i < nodes[static_cast<std::size_t>(n)].edges.size()) {
      frames.back().second = i + 1;
      const int w = nodes[static_cast<std::size_t>(n)].edges[i];
      const Node& y = nodes[static_cast<std::size_t>(w)];
      if (y.reaches >= 0) continue;
      if (y.index < 0) {
        push(w);
      } else if (y.on_stack) {
        nodes[static_cast<std::size_t>(n)].low = std::min(nodes[static_cast<std::size_t>(n)].low, y.index);
      }
      continue;
    }
    frames.pop_back();
    if (!frames.empty()) {
      Node& parent = nodes[static_cast<std::size_t>(frames.back().first)];
      parent.low = std::min(parent.low, nodes[static_cast<std::size_t>(n)].low);
    }
    if (nodes[static_cast<std::size_t>(n)].low != nodes[static_cast<std::size_t>(n)].index) continue;
    std::vector<int> scc;
    for (int w = -1; w != n;) {
      w = stack.back();
      stack.pop_back();
      nodes[static_cast<std::size_t>(w)].on_stack = false;
      scc.push_back(w);
    }
    bool reaches = false;
    for (int w : scc) {
      const Node& y = nodes[static_cast<std::size_t>(w)];
      reaches = reaches || y.bad;
      for (int e : y.edges) reaches = reaches || nodes[static_cast<std::size_t>(e)].reaches == 1;
    }
    for (int w : scc) nodes[static_cast<std::size_t>(w)].reaches = reaches ? 1 : 0;
  }
  return nodes[static_cast<std::size_t>(root)].reaches == 1;
}

// The shortest chain from `root` to a node that differs, as text.
std::string ClosureOracle::Impl::pathToDifference(int root) {
  std::map<int, int> parent{{root, -1}};
  std::vector<int> queue{root};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int n = queue[q];
    const Node& x = nodes[static_cast<std::size_t>(n)];
    if (x.bad) {
      std::vector<int> chain;
      for (int c = n; c != -1; c = parent[c]) chain.push_back(c);
      std::reverse(chain.begin(), chain.end());
      if (chain.size() == 1) return x.why;
      std::string out = "reaches " + text(x) + ", which " + (x.why.rfind("it ", 0) == 0 ? x.why.substr(3) : x.why);
      if (chain.size() > 2) {
        out += " (through ";
        for (std::size_t k = 1; k + 1 < chain.size() && k < 4; ++k)
          out += (k > 1 ? " -> " : "") + text(nodes[static_cast<std::size_t>(chain[k])]);
        out += chain.size() > 5 ? " -> ...)" : ")";
      }
      return out;
    }
    for (int e : x.edges)
      if (nodes[static_cast<std::size_t>(e)].reaches == 1 && parent.emplace(e, n).second) queue.push_back(e);
  }
  return "a difference is reachable";
}

// ----- public interface -----

ClosureOracle::ClosureOracle(const jvm::ClassPath& oldPath, const jvm::ClassPath& newPath, ClosureOptions options)
    : impl_(std::make_unique<Impl>(oldPath, newPath, options)) {}
ClosureOracle::~ClosureOracle() = default;

MethodClosure ClosureOracle::method(const std::string& cls, const std::string& name, const std::string& descriptor) {
  Impl& I = *impl_;
  const std::string k = I.key(cls, Version::kOld);
  const int id = I.node(NodeKind::Method, k, name, I.key(descriptor, Version::kOld));
  I.expand(id);
  const Node& n = I.nodes[static_cast<std::size_t>(id)];
  MethodClosure out;
  if (n.missing) {
    out.verdict = ClosureVerdict::Missing;
    out.reason = n.why;
  } else if (n.code_differs) {
    out.verdict = ClosureVerdict::Changed;
    out.reason = n.why;
  } else if (I.reachesDifference(id)) {
    out.verdict = ClosureVerdict::Affected;
    out.reason = I.pathToDifference(id);
  } else {
    out.verdict = ClosureVerdict::Identical;
  }
  return out;
}

bool ClosureOracle::sameCode(const std::string& cls, const std::string& name, const std::string& descriptor) {
  Impl& I = *impl_;
  const int id = I.node(NodeKind::Method, I.key(cls, Version::kOld), name, I.key(descriptor, Version::kOld));
  I.expand(id);
  const Node& n = I.nodes[static_cast<std::size_t>(id)];
  return !n.missing && !n.code_differs;
}

bool ClosureOracle::callIdentical(const std::string& owner, const std::string& name, const std::string& descriptor,
                                  bool dispatches) {
  Impl& I = *impl_;
  const int id = I.node(NodeKind::Call, I.key(owner, Version::kOld), (dispatches ? "v:" : "s:") + name,
                        I.key(descriptor, Version::kOld));
  I.expand(id);
  return !I.reachesDifference(id);
}

bool ClosureOracle::overridden(const std::string& cls, const std::string& name, const std::string& descriptor) {
  Impl& I = *impl_;
  I.buildIndex();
  if (!I.index_error.empty()) return true;
  const std::string k = I.key(cls, Version::kOld);
  const std::string d = I.key(descriptor, Version::kOld);
  for (Version v : kBothVersions) {
    for (const auto& sub : I.subtypes(v, k)) {
      if (sub == k) continue;
      const Impl::ClassSide& side = I.side(v, sub);
      if (!side.cf) continue;
      const jvm::Method* m = side.cf->findMethod(name, I.actual(d, v));
      if (m && !m->isStatic() && !(m->access_flags & jvm::acc::Private)) return true;
    }
  }
  return false;
}

std::size_t ClosureOracle::nodesExamined() const { return impl_->nodes.size(); }

}  // namespace pasda::diff
