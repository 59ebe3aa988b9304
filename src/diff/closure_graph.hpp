// Internal to pasda_diff: the identical-closure oracle's graph and state, shared by closure.cpp
// (node expansion, reachability, the public interface) and closure_calls.cpp (what an
// instruction reaches: calls by every dispatch target, JDK call-backs, the whole-path index).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "closure_code.hpp"
#include "closure_jdk.hpp"
#include "pasda/diff/closure.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::diff {

using detail::DecodedMethod;
using jvm::ConstValue;
using jvm::Instruction;
using jvm::Opcode;

namespace detail {

/// Call: a call site's targets (owner.name:desc as the call names them; name prefixed "v:" for
/// a dispatching call, "s:" otherwise), for ClosureOracle::callIdentical.
enum class NodeKind : std::uint8_t { Method, Field, Class, Callbacks, EnumValues, Call };

struct Node {
  NodeKind kind = NodeKind::Method;
  std::string cls, name, desc;  // class names in the oracle's key space (old names)
  /// A method's calling context: "k=id;" for each parameter k that every caller on this edge
  /// gives a lambda whose own method is lambda id (see CallSiteFacts). Empty: nothing known.
  std::string context;
  bool expanded = false;
  bool bad = false;           // differs between the versions, or cannot be resolved
  bool code_differs = false;  // a method whose own code or flags differ
  bool missing = false;       // a method declared in one version only
  std::string why;
  std::vector<int> edges;
  int index = -1, low = 0;  // Tarjan
  bool on_stack = false;
  std::int8_t reaches = -1;  // -1 not decided, 0 no difference reachable, 1 a difference reachable
};

constexpr std::uint16_t kMethodFlags = jvm::acc::Public | jvm::acc::Private | jvm::acc::Protected | jvm::acc::Static |
                                       jvm::acc::Final | jvm::acc::Synchronized | jvm::acc::Native |
                                       jvm::acc::Abstract | jvm::acc::Strict;
constexpr std::uint16_t kClassFlags = jvm::acc::Public | jvm::acc::Final | jvm::acc::Interface | jvm::acc::Abstract |
                                      jvm::acc::Annotation | jvm::acc::Enum;

inline bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

/// What the value-flow pass (closure_flow.cpp) knows of the object a reference may be: one of
/// these, or (>= 0) a lambda made by LambdaMetafactory, the id of its own method's "name:desc"
/// (ClosureOracle::Impl::lambdaId). A lambda's class is the JDK's; its own method runs the body,
/// which the oracle follows from where the lambda is made.
constexpr std::int32_t kAnyObject = -1;      // may be an object of a class of the path
constexpr std::int32_t kNotPathObject = -2;  // an object of no class of the path (the JDK's, a lambda) or null
constexpr std::int32_t kNoObject = -3;       // a primitive, or null

/// A call instruction as the pass sees it: the receiver's kind, and the callee's context (Node).
struct CallSiteFacts {
  std::int32_t receiver = kAnyObject;
  std::string callee_context;
};
/// The pass over one method: `clean` when no value that may be a path object reaches JDK code
/// (the jdk_clean of the oracle); `sites` by instruction index, empty when the pass could not follow the code.
struct FlowFacts {
  bool clean = false;
  std::vector<CallSiteFacts> sites;
};

// The ConstantValue of a static field as text ("" if none).
inline std::string constantValue(const jvm::ClassFile& cf, const jvm::Field& f) {
  if (!(f.access_flags & jvm::acc::Static)) return "";
  const jvm::Attribute* a = jvm::findAttribute(cf.pool, f.attributes, "ConstantValue");
  if (!a) return "";
  if (a->data.size() != 2) return "(malformed)";
  try {
    return jvm::constantText(jvm::resolveConstant(cf.pool, static_cast<std::uint16_t>((a->data[0] << 8) | a->data[1])));
  } catch (const std::exception&) {
    return "(unreadable)";
  }
}

// "REF_invokeStatic a/B.f:(I)V" -> kind, owner, name, descriptor.
struct HandleRef {
  std::string kind, owner, name, desc;
};
inline HandleRef parseHandle(const std::string& text) {
  HandleRef h;
  auto sp = text.find(' ');
  h.kind = text.substr(0, sp);
  std::string rest = sp == std::string::npos ? "" : text.substr(sp + 1);
  auto colon = rest.find(':');
  std::string ownerName = rest.substr(0, colon);
  h.desc = colon == std::string::npos ? "" : rest.substr(colon + 1);
  auto dot = ownerName.rfind('.');
  h.owner = dot == std::string::npos ? "" : ownerName.substr(0, dot);
  h.name = dot == std::string::npos ? ownerName : ownerName.substr(dot + 1);
  return h;
}

// The class named by a type operand or descriptor element ("a/B", "[La/B;", "[[I" -> "").
inline std::string classOfType(const std::string& t) {
  std::size_t i = 0;
  while (i < t.size() && t[i] == '[') ++i;
  if (i == 0) return t;
  if (i < t.size() && t[i] == 'L' && t.back() == ';') return t.substr(i + 1, t.size() - i - 2);
  return "";
}

}  // namespace detail

using namespace detail;  // NOLINT: the graph types above, within the oracle's files only

struct ClosureOracle::Impl {
  struct ClassSide {
    const jvm::ClassFile* cf = nullptr;
    std::string error;  // the class is in the path but cannot be read
  };
  struct Resolution {
    std::vector<std::string> targets;  // declaring classes (key space) in the path
    bool exact = false;                // found on the class chain: no JDK code runs instead
  };

  PerVersion<const jvm::ClassPath*> paths;
  detail::Normaliser norm;
  bool identified = false;
  PerVersion<std::map<std::string, ClassSide>> classes;
  std::vector<Node> nodes;
  std::unordered_map<std::string, int> ids;
  int counter = 0;
  // Whole-path indexes, built on first need (dispatch, call-backs).
  bool indexed = false;
  std::string index_error;
  PerVersion<std::map<std::string, std::vector<std::string>>> decls;  // "name:desc" -> classes declaring it (instance)
  PerVersion<std::map<std::string, std::vector<std::string>>> subs;   // class -> direct subtypes in the path
  PerVersion<std::vector<std::pair<std::string, std::string>>> callbacks;  // (class, "name:desc")
  PerVersion<std::vector<std::string>> enums;
  struct ClassFacts {
    std::set<std::string> jdk;  // JDK supertypes, through the path's ancestry and the JDK tables
    bool opaque = false;        // a JDK supertype whose hierarchy the oracle does not know
    bool concrete = false;      // neither abstract nor an interface: can be an object's class
  };
  PerVersion<std::map<std::string, ClassFacts>> facts;
  PerVersion<std::map<std::string, unsigned>> jdk_on_this;  // memo of jdkCodeOnPathObject
  std::map<int, bool> pure;                                  // memo of pureIdentical (method node -> answer)

  Impl(const jvm::ClassPath& o, const jvm::ClassPath& n, const ClosureOptions& opt)
      : paths{{&o, &n}}, norm(opt.old_name, opt.new_name), identified(!opt.old_name.empty()) {}

  // ----- names and classes -----
  std::string key(const std::string& name, Version v) const { return identified ? norm.canon(name, v) : name; }
  // Key-space text (a class name or a descriptor) back to version v's own names.
  std::string actual(const std::string& k, Version v) const {
    if (!identified || k.find("<this>") == std::string::npos) return k;
    std::string out = k;
    for (std::size_t p = 0; (p = out.find("<this>", p)) != std::string::npos; p += norm.name(v).size())
      out.replace(p, 6, norm.name(v));
    return out;
  }
  const ClassSide& side(Version v, const std::string& k) {
    auto it = classes[v].find(k);
    if (it != classes[v].end()) return it->second;
    ClassSide s;
    if (!k.empty() && k[0] != '[') {
      try {
        s.cf = paths[v]->load(actual(k, v));
      } catch (const jvm::FormatError& e) {
        s.error = e.reason();
      } catch (const jvm::LoadError& e) {
        s.error = e.reason();
      }
    }
    return classes[v].emplace(k, s).first->second;
  }
  bool inPath(Version v, const std::string& k) {
    const ClassSide& s = side(v, k);
    return s.cf != nullptr || !s.error.empty();
  }
  std::string superOf(Version v, const std::string& k) {
    const ClassSide& s = side(v, k);
    return s.cf ? key(s.cf->superName(), v) : "";
  }
  std::vector<std::string> interfacesOf(Version v, const std::string& k) {
    std::vector<std::string> out;
    const ClassSide& s = side(v, k);
    if (s.cf)
      for (std::uint16_t i : s.cf->interfaces) out.push_back(key(s.cf->pool.className(i), v));
    return out;
  }

  // ----- nodes -----
  int node(NodeKind kind, const std::string& cls, const std::string& name = "", const std::string& desc = "",
           const std::string& context = "") {
    std::string k = std::to_string(static_cast<int>(kind)) + "|" + cls + "|" + name + "|" + desc + "|" + context;
    auto it = ids.find(k);
    if (it != ids.end()) return it->second;
    Node n;
    n.kind = kind;
    n.cls = cls;
    n.name = name;
    n.desc = desc;
    n.context = context;
    nodes.push_back(std::move(n));
    int id = static_cast<int>(nodes.size()) - 1;
    ids.emplace(std::move(k), id);
    return id;
  }
  void edge(int from, int to) {
    if (from != to) nodes[static_cast<std::size_t>(from)].edges.push_back(to);
  }
  void markBad(int id, const std::string& why) {
    Node& n = nodes[static_cast<std::size_t>(id)];
    if (!n.bad) n.why = why;
    n.bad = true;
  }
  std::string text(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Method: return n.cls + "." + n.name + n.desc;
      case NodeKind::Field: return "field " + n.cls + "." + n.name;
      case NodeKind::Class: return "class " + n.cls;
      case NodeKind::Callbacks:
        return n.name == "any" ? "the methods JDK code may call back" : "the " + n.name + "() methods JDK code may call";
      case NodeKind::EnumValues: return "the values() of the enums";
      case NodeKind::Call: return "a call of " + n.cls + "." + n.name.substr(2) + n.desc;
    }
    return "?";
  }

  // ----- resolution (JVMS 5.4.3), in the path only -----
  Resolution resolveMethod(Version v, const std::string& owner, const std::string& name, const std::string& desc) {
    Resolution r;
    std::vector<std::string> chain;
    std::string c = owner;
    for (int guard = 0; !c.empty() && guard < 256; ++guard) {
      const ClassSide& s = side(v, c);
      if (!s.cf) break;  // external (or unreadable): the JDK may declare it
      if (s.cf->findMethod(name, desc)) {
        r.targets.push_back(c);
        r.exact = true;
        return r;
      }
      chain.push_back(c);
      c = superOf(v, c);
    }
    // Not on the class chain: default methods of the path's superinterfaces may be the target.
    std::set<std::string> seen;
    std::vector<std::string> work;
    for (const auto& k : chain)
      for (const auto& i : interfacesOf(v, k)) work.push_back(i);
    while (!work.empty()) {
      std::string i = work.back();
      work.pop_back();
      if (!seen.insert(i).second) continue;
      const ClassSide& s = side(v, i);
      if (!s.cf) continue;
      const jvm::Method* m = s.cf->findMethod(name, desc);
      if (m && !m->isStatic() && !(m->access_flags & jvm::acc::Private)) r.targets.push_back(i);
      for (const auto& j : interfacesOf(v, i)) work.push_back(j);
    }
    return r;
  }

  std::vector<std::string> subtypes(Version v, const std::string& k) {
    std::vector<std::string> out{k};
    std::set<std::string> seen{k};
    for (std::size_t i = 0; i < out.size(); ++i) {
      auto it = subs[v].find(out[i]);
      if (it == subs[v].end()) continue;
      for (const auto& s : it->second)
        if (seen.insert(s).second) out.push_back(s);
    }
    return out;
  }

  void buildIndex();
  void expand(int id);
  void expandNode(int id);
  void expandMethod(int id);
  void expandField(int id);
  void expandClass(int id);
  void addInsnEdges(int id, Version v, const DecodedMethod& dm, const Instruction& insn, const CallSiteFacts* site);
  /// `site`: what the flow pass knows of the call's receiver and arguments (nullptr: nothing).
  void call(int id, Version v, const jvm::MemberRef& m, bool isVirtual, bool isStatic,
            const CallSiteFacts* site = nullptr);
  void handleEdge(int id, Version v, const ConstValue& handle);
  void bootstrapEdges(int id, Version v, const jvm::ClassFile& cf, std::uint16_t index, const std::string& desc);
  void typeEdge(int id, Version v, const std::string& type);
  void callBacks(int id, unsigned set) {
    for (unsigned bit : detail::callBackBits())
      if (set & bit) edge(id, node(NodeKind::Callbacks, "", detail::callBackName(bit)));
  }
  bool nonInert(Version v, const std::string& type);
  /// The value-flow pass over method `dm` in its calling context (Node::context), closure_flow.cpp:
  /// whether no value that may be a path object reaches JDK code, and what its calls are made on.
  FlowFacts flowFacts(Version v, const DecodedMethod& dm, const std::string& context);
  /// Lambda methods ("name:desc" in the key space) by id, for FlowFacts and Node::context.
  std::vector<std::string> lambda_methods;
  std::unordered_map<std::string, std::int32_t> lambda_ids;
  std::int32_t lambdaId(const std::string& method) {
    auto [it, added] = lambda_ids.emplace(method, static_cast<std::int32_t>(lambda_methods.size()));
    if (added) lambda_methods.push_back(method);
    return it->second;
  }
  /// Set while the edges of a method whose flow facts are clean in both versions are added:
  /// its calls into the JDK call nothing back and dispatch to no path class.
  bool jdk_clean = false;
  bool mayBeSubtype(Version v, const std::string& cls, const std::string& jdkType);
  unsigned jdkCodeOnPathObject(Version v, const std::string& jdkType, const std::string& name, const std::string& desc);
  std::optional<detail::KnownCallBacks> knownAbove(Version v, const std::string& cls, const std::string& name,
                                                   const std::string& desc);
  /// `pathReceiver`: the receiver may be an object of the path (else JDK code runs on no such `this`).
  unsigned externalCallBacks(Version v, const std::string& owner, const jvm::MemberRef& m, const std::string& desc,
                             bool isStatic, bool pathReceiver = true);
  bool reachesDifference(int root);
  std::string pathToDifference(int root);
};

}  // namespace pasda::diff
