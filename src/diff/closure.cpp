// The identical-closure oracle: a graph of methods, fields and classes of the analysed class
// path, built lazily from the code of both versions, and a memoised "can a difference be
// reached from here" over its strongly connected components. What each kind of instruction
// adds to the graph is documented in docs/release-diff.md ("The oracle").
#include "pasda/diff/closure.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "closure_code.hpp"
#include "closure_jdk.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::diff {

using detail::DecodedMethod;
using jvm::ConstValue;
using jvm::Instruction;
using jvm::Opcode;

const char* closureVerdictName(ClosureVerdict v) {
  switch (v) {
    case ClosureVerdict::Identical: return "identical";
    case ClosureVerdict::Affected: return "affected";
    case ClosureVerdict::Changed: return "changed";
    case ClosureVerdict::Missing: return "missing";
  }
  return "?";
}

namespace {

enum class NodeKind : std::uint8_t { Method, Field, Class, Callbacks, EnumValues };

struct Node {
  NodeKind kind = NodeKind::Method;
  std::string cls, name, desc;  // class names in the oracle's key space (old names)
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

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// The ConstantValue of a static field as text ("" if none).
std::string constantValue(const jvm::ClassFile& cf, const jvm::Field& f) {
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
HandleRef parseHandle(const std::string& text) {
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
std::string classOfType(const std::string& t) {
  std::size_t i = 0;
  while (i < t.size() && t[i] == '[') ++i;
  if (i == 0) return t;
  if (i < t.size() && t[i] == 'L' && t.back() == ';') return t.substr(i + 1, t.size() - i - 2);
  return "";
}

}  // namespace

struct ClosureOracle::Impl {
  struct ClassSide {
    const jvm::ClassFile* cf = nullptr;
    std::string error;  // the class is in the path but cannot be read
  };
  struct Resolution {
    std::vector<std::string> targets;  // declaring classes (key space) in the path
    bool exact = false;                // found on the class chain: no JDK code runs instead
  };

  const jvm::ClassPath* paths[2];
  detail::Normaliser norm;
  bool identified = false;
  std::map<std::string, ClassSide> classes[2];
  std::vector<Node> nodes;
  std::unordered_map<std::string, int> ids;
  int counter = 0;
  // Whole-path indexes, built on first need (dispatch, call-backs).
  bool indexed = false;
  std::string index_error;
  std::map<std::string, std::vector<std::string>> decls[2];  // "name:desc" -> classes declaring it (instance)
  std::map<std::string, std::vector<std::string>> subs[2];   // class -> direct subtypes in the path
  std::vector<std::pair<std::string, std::string>> callbacks[2];  // (class, "name:desc")
  std::vector<std::string> enums[2];
  struct ClassFacts {
    std::set<std::string> jdk;  // JDK supertypes, through the path's ancestry and the JDK tables
    bool opaque = false;        // a JDK supertype whose hierarchy the oracle does not know
    bool concrete = false;      // neither abstract nor an interface: can be an object's class
  };
  std::map<std::string, ClassFacts> facts[2];
  std::map<std::string, unsigned> jdk_on_this[2];  // memo of jdkCodeOnPathObject

  Impl(const jvm::ClassPath& o, const jvm::ClassPath& n, const ClosureOptions& opt)
      : paths{&o, &n}, norm(opt.old_name, opt.new_name), identified(!opt.old_name.empty()) {}

  // ----- names and classes -----
  std::string key(const std::string& name, int v) const { return identified ? norm.canon(name, v) : name; }
  // Key-space text (a class name or a descriptor) back to version v's own names.
  std::string actual(const std::string& k, int v) const {
    if (!identified || k.find("<this>") == std::string::npos) return k;
    std::string out = k;
    for (std::size_t p = 0; (p = out.find("<this>", p)) != std::string::npos; p += norm.name(v).size())
      out.replace(p, 6, norm.name(v));
    return out;
  }
  const ClassSide& side(int v, const std::string& k) {
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
  bool inPath(int v, const std::string& k) {
    const ClassSide& s = side(v, k);
    return s.cf != nullptr || !s.error.empty();
  }
  std::string superOf(int v, const std::string& k) {
    const ClassSide& s = side(v, k);
    return s.cf ? key(s.cf->superName(), v) : "";
  }
  std::vector<std::string> interfacesOf(int v, const std::string& k) {
    std::vector<std::string> out;
    const ClassSide& s = side(v, k);
    if (s.cf)
      for (std::uint16_t i : s.cf->interfaces) out.push_back(key(s.cf->pool.className(i), v));
    return out;
  }

  // ----- nodes -----
  int node(NodeKind kind, const std::string& cls, const std::string& name = "", const std::string& desc = "") {
    std::string k = std::to_string(static_cast<int>(kind)) + "|" + cls + "|" + name + "|" + desc;
    auto it = ids.find(k);
    if (it != ids.end()) return it->second;
    Node n;
    n.kind = kind;
    n.cls = cls;
    n.name = name;
    n.desc = desc;
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
    }
    return "?";
  }

  // ----- resolution (JVMS 5.4.3), in the path only -----
  Resolution resolveMethod(int v, const std::string& owner, const std::string& name, const std::string& desc) {
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

  std::vector<std::string> subtypes(int v, const std::string& k) {
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
  void addInsnEdges(int id, int v, const DecodedMethod& dm, const Instruction& insn);
  void call(int id, int v, const jvm::MemberRef& m, bool isVirtual, bool isStatic);
  void handleEdge(int id, int v, const ConstValue& handle);
  void bootstrapEdges(int id, int v, const jvm::ClassFile& cf, std::uint16_t index, const std::string& desc);
  void typeEdge(int id, int v, const std::string& type);
  void callBacks(int id, unsigned set) {
    for (unsigned bit : detail::callBackBits())
      if (set & bit) edge(id, node(NodeKind::Callbacks, "", detail::callBackName(bit)));
  }
  bool nonInert(int v, const std::string& type);
  bool mayBeSubtype(int v, const std::string& cls, const std::string& jdkType);
  unsigned jdkCodeOnPathObject(int v, const std::string& jdkType, const std::string& name, const std::string& desc);
  std::optional<detail::KnownCallBacks> knownAbove(int v, const std::string& cls, const std::string& name,
                                                   const std::string& desc);
  unsigned externalCallBacks(int v, const std::string& owner, const jvm::MemberRef& m, const std::string& desc,
                             bool isStatic);
  bool reachesDifference(int root);
  std::string pathToDifference(int root);
};

// ----- whole-path index -----

void ClosureOracle::Impl::buildIndex() {
  if (indexed) return;
  indexed = true;
  for (int v = 0; v < 2; ++v) {
    std::vector<std::string> names;
    try {
      names = paths[v]->list();
    } catch (const jvm::LoadError& e) {
      index_error = "the class path cannot be listed: " + e.reason();
      return;
    }
    for (const std::string& name : names) {
      const std::string k = key(name, v);
      const ClassSide& s = side(v, k);
      if (!s.error.empty()) {
        index_error = "class " + name + " cannot be read: " + s.error;
        return;
      }
      if (!s.cf) continue;
      const jvm::ClassFile& cf = *s.cf;
      for (const jvm::Method& m : cf.methods)
        if (!m.isStatic() && m.name != "<init>" && m.name != "<clinit>")
          decls[v][m.name + ":" + key(m.descriptor, v)].push_back(k);
      if (!cf.superName().empty()) subs[v][key(cf.superName(), v)].push_back(k);
      for (const auto& i : interfacesOf(v, k)) subs[v][i].push_back(k);
      if (cf.access_flags & jvm::acc::Enum) enums[v].push_back(k);
      ClassFacts& f = facts[v][k];
      f.concrete = !(cf.access_flags & (jvm::acc::Abstract | jvm::acc::Interface));
      // The JDK supertypes reached through the path's ancestry, completed by the JDK tables.
      std::vector<std::string> work{k};
      std::set<std::string> seen;
      while (!work.empty()) {
        std::string c = work.back();
        work.pop_back();
        if (c.empty() || !seen.insert(c).second) continue;
        if (side(v, c).cf) {
          work.push_back(superOf(v, c));
          for (const auto& i : interfacesOf(v, c)) work.push_back(i);
          continue;
        }
        const std::string jdk = actual(c, v);
        f.jdk.insert(jdk);
        if (auto up = detail::jdkSupertypes(jdk)) f.jdk.insert(up->begin(), up->end());
        else if (jdk != "java/lang/Object") f.opaque = true;
      }
      // Which of its methods JDK code may call back (docs/release-diff.md, "Call-backs").
      std::set<std::string> allowed;
      bool known = true;
      for (const auto& t : f.jdk) {
        auto methods = detail::overridableJdkMethods(t);
        if (!methods) known = false;
        else allowed.insert(methods->begin(), methods->end());
      }
      const auto objectMethods = detail::overridableJdkMethods("java/lang/Object");
      allowed.insert(objectMethods->begin(), objectMethods->end());
      const bool serializable = f.jdk.count("java/io/Serializable") || !known;
      for (const jvm::Method& m : cf.methods) {
        if (m.isStatic() || m.name == "<init>" || m.name == "<clinit>") continue;
        const std::string md = m.name + ":" + m.descriptor;
        const bool hook = serializable && detail::serializationHook(md);
        const bool candidate = known ? allowed.count(md) > 0 : !(m.access_flags & jvm::acc::Private);
        if (hook || candidate) callbacks[v].push_back({k, m.name + ":" + key(m.descriptor, v)});
      }
    }
  }
}

bool ClosureOracle::Impl::mayBeSubtype(int v, const std::string& cls, const std::string& jdkType) {
  if (jdkType == "java/lang/Object") return true;
  auto it = facts[v].find(cls);
  if (it == facts[v].end()) return true;
  return it->second.opaque || it->second.jdk.count(jdkType) > 0;
}

// What is known of the JDK implementation of name:desc that an object of path class `cls` runs
// when neither it nor its path ancestors declare the method: looked up on its first JDK
// superclass and that class's JDK supertypes.
std::optional<detail::KnownCallBacks> ClosureOracle::Impl::knownAbove(int v, const std::string& cls,
                                                                      const std::string& name, const std::string& desc) {
  std::string c = cls;
  for (int guard = 0; guard < 256 && side(v, c).cf; ++guard) c = superOf(v, c);
  std::vector<std::string> lookIn{c.empty() ? std::string("java/lang/Object") : actual(c, v)};
  if (auto up = detail::jdkSupertypes(lookIn.front())) lookIn.insert(lookIn.end(), up->begin(), up->end());
  lookIn.push_back("java/lang/Object");
  for (const auto& t : lookIn)
    if (auto k = detail::knownCallBacks(t, name, actual(desc, v))) return k;
  return std::nullopt;
}

// What JDK code may call back when an object of the path that may be a `jdkType` runs the
// JDK's implementation of name:desc (it neither declares nor inherits the method from the path).
unsigned ClosureOracle::Impl::jdkCodeOnPathObject(int v, const std::string& jdkType, const std::string& name,
                                                  const std::string& desc) {
  const std::string memo = jdkType + "|" + name + ":" + desc;
  auto it = jdk_on_this[v].find(memo);
  if (it != jdk_on_this[v].end()) return it->second;
  unsigned bits = 0;
  for (const auto& [cls, f] : facts[v]) {
    if (!f.concrete || !mayBeSubtype(v, cls, jdkType) || resolveMethod(v, cls, name, desc).exact) continue;
    auto known = knownAbove(v, cls, name, desc);
    bits |= known && known->covers_this ? known->bits : detail::kAny;
    if (bits & detail::kAny) break;
  }
  jdk_on_this[v].emplace(memo, bits);
  return bits;
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
    case NodeKind::Callbacks: {
      buildIndex();
      if (!index_error.empty()) return markBad(id, index_error);
      const std::string set = nodes[static_cast<std::size_t>(id)].name;
      if (set == "any") {
        for (int v = 0; v < 2; ++v)
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
          for (int v = 0; v < 2; ++v) {
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
      for (int v = 0; v < 2; ++v)
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
  const jvm::Method* m[2] = {nullptr, nullptr};
  const jvm::ClassFile* cf[2] = {nullptr, nullptr};
  for (int v = 0; v < 2; ++v) {
    const ClassSide& s = side(v, cls);
    if (!s.error.empty()) return markBad(id, "class " + actual(cls, v) + " cannot be read: " + s.error);
    cf[v] = s.cf;
    if (cf[v]) m[v] = cf[v]->findMethod(name, actual(desc, v));
  }
  Node& n = nodes[static_cast<std::size_t>(id)];
  if (!m[0] || !m[1]) {
    n.missing = true;
    return markBad(id, m[0] ? "not declared in the new version" : "not declared in the old version");
  }
  if ((m[0]->access_flags ^ m[1]->access_flags) & kMethodFlags) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its modifiers differ");
  }
  edge(id, node(NodeKind::Class, cls));
  if (!m[0]->code && !m[1]->code) return;  // abstract or native in both
  if (!m[0]->code || !m[1]->code) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "it has code in one version only");
  }
  DecodedMethod d[2];
  try {
    for (int v = 0; v < 2; ++v) d[v] = detail::decodeMethod(*cf[v], *m[v]);
  } catch (const jvm::FormatError& e) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its code cannot be decoded: " + e.reason());
  }
  std::string diff = detail::codeDifference(d[0], d[1], norm);
  if (!diff.empty()) {
    nodes[static_cast<std::size_t>(id)].code_differs = true;
    return markBad(id, "its code differs (" + diff + ")");
  }
  for (int v = 0; v < 2; ++v) {
    for (const Instruction& insn : d[v].insns) addInsnEdges(id, v, d[v], insn);
    for (const auto& h : m[v]->code->handlers)
      if (h.catch_type) typeEdge(id, v, cf[v]->pool.className(h.catch_type));
  }
}

void ClosureOracle::Impl::expandField(int id) {
  const std::string owner = nodes[static_cast<std::size_t>(id)].cls;
  const std::string name = nodes[static_cast<std::size_t>(id)].name;
  const std::string desc = nodes[static_cast<std::size_t>(id)].desc;
  std::string found[2];
  std::uint16_t flags[2] = {0, 0};
  std::string constant[2];  // a compile-time constant is set before the class initialiser runs
  for (int v = 0; v < 2; ++v) {
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
  if (found[0] != found[1])
    return markBad(id, "it resolves to " + (found[0].empty() ? std::string("the JDK") : found[0]) + " in the old version and " +
                           (found[1].empty() ? std::string("the JDK") : found[1]) + " in the new");
  if (found[0].empty()) return;
  if ((flags[0] ^ flags[1]) & (jvm::acc::Static | jvm::acc::Final | jvm::acc::Volatile))
    return markBad(id, "its modifiers differ");
  if (constant[0] != constant[1]) return markBad(id, "its constant value differs");
  edge(id, node(NodeKind::Class, found[0]));
}

void ClosureOracle::Impl::expandClass(int id) {
  const std::string k = nodes[static_cast<std::size_t>(id)].cls;
  const jvm::ClassFile* cf[2];
  for (int v = 0; v < 2; ++v) {
    const ClassSide& s = side(v, k);
    if (!s.error.empty()) return markBad(id, "it cannot be read: " + s.error);
    cf[v] = s.cf;
  }
  if (!cf[0] && !cf[1]) return;
  if (!cf[0] || !cf[1]) return markBad(id, cf[0] ? "it is absent from the new version" : "it is absent from the old version");
  if ((cf[0]->access_flags ^ cf[1]->access_flags) & kClassFlags) return markBad(id, "its modifiers differ");
  if (superOf(0, k) != superOf(1, k) || interfacesOf(0, k) != interfacesOf(1, k))
    return markBad(id, "its superclass or interfaces differ");
  if (cf[0]->findMethod("<clinit>", "()V") || cf[1]->findMethod("<clinit>", "()V"))
    edge(id, node(NodeKind::Method, k, "<clinit>", "()V"));
  for (int v = 0; v < 2; ++v) {
    std::vector<std::string> supers = interfacesOf(v, k);
    supers.push_back(superOf(v, k));
    for (const auto& s : supers)
      if (!s.empty() && (inPath(0, s) || inPath(1, s))) edge(id, node(NodeKind::Class, s));
  }
}

// ----- what one instruction reaches -----

void ClosureOracle::Impl::typeEdge(int id, int v, const std::string& type) {
  std::string c = key(classOfType(type), v);
  if (!c.empty() && inPath(v, c)) edge(id, node(NodeKind::Class, c));
}

bool ClosureOracle::Impl::nonInert(int v, const std::string& type) {
  std::string c = classOfType(type);
  if (c.empty()) return false;  // primitive array
  return inPath(v, c) || !detail::inertJdkType(actual(c, v));
}

// What JDK code entered through a call of m (not resolved to code of the path) may call back.
unsigned ClosureOracle::Impl::externalCallBacks(int v, const std::string& owner, const jvm::MemberRef& m,
                                                const std::string& desc, bool isStatic) {
  const bool ctor = m.name == "<init>";
  // The JDK class whose code runs: the owner, or the first JDK class above it in the path.
  std::string jdkClass = owner;
  for (int guard = 0; guard < 256 && side(v, jdkClass).cf; ++guard) jdkClass = superOf(v, jdkClass);
  std::vector<std::string> lookIn{actual(jdkClass, v)};
  if (auto up = detail::jdkSupertypes(lookIn.front())) lookIn.insert(lookIn.end(), up->begin(), up->end());
  lookIn.push_back("java/lang/Object");
  std::optional<detail::KnownCallBacks> known;
  for (const auto& t : lookIn)
    if (!known) known = detail::knownCallBacks(t, m.name, m.descriptor);
  unsigned bits = 0;
  if (known) {
    bits = known->bits;
  } else {
    bool refs = !isStatic && !ctor && nonInert(v, owner);
    try {
      for (const jvm::TypeDesc& p : jvm::parseMethodDescriptor(desc).params)
        refs = refs || ((p.kind == 'L' || p.kind == '[') && nonInert(v, p.kind == 'L' ? p.className() : p.text));
    } catch (const std::invalid_argument&) {
      refs = true;
    }
    if (refs) bits = detail::kAny;
  }
  if (isStatic || (known && known->covers_this)) return bits;
  // JDK code may run with an object of the path as `this` and call its overrides.
  if (inPath(v, owner)) return bits | detail::kAny;
  buildIndex();
  const std::string realOwner = actual(owner, v);
  if (ctor) {
    for (const auto& [cls, f] : facts[v])
      if (superOf(v, cls) == owner) return bits | detail::kAny;
    return bits;
  }
  return bits | jdkCodeOnPathObject(v, realOwner, m.name, desc);
}

void ClosureOracle::Impl::call(int id, int v, const jvm::MemberRef& m, bool isVirtual, bool isStatic) {
  const std::string owner = key(m.owner, v);
  const std::string desc = key(m.descriptor, v);
  if (owner.empty() || owner[0] == '[') return;  // array methods (clone) call nothing
  const std::string realOwner = actual(owner, v);
  if (!inPath(v, owner) && detail::reflectiveCall(realOwner, m.name))
    return markBad(id, "it uses reflection (" + realOwner + "." + m.name + "): its targets are unknown");
  if (!inPath(v, owner) && detail::enumReflectiveCall(realOwner, m.name)) edge(id, node(NodeKind::EnumValues, ""));
  Resolution r = resolveMethod(v, owner, m.name, desc);
  for (const auto& t : r.targets) edge(id, node(NodeKind::Method, t, m.name, desc));
  bool dispatches = isVirtual;
  if (r.exact) {
    const jvm::Method* decl = side(v, r.targets.front()).cf->findMethod(m.name, m.descriptor);
    if (decl && (decl->access_flags & jvm::acc::Private)) dispatches = false;
  }
  if (dispatches) {
    buildIndex();
    if (!index_error.empty()) return markBad(id, index_error);
    if (inPath(v, owner)) {
      for (const auto& s : subtypes(v, owner)) {
        Resolution rs = resolveMethod(v, s, m.name, desc);
        for (const auto& t : rs.targets) edge(id, node(NodeKind::Method, t, m.name, desc));
      }
    } else if (!detail::inertJdkType(realOwner)) {
      auto it = decls[v].find(m.name + ":" + desc);
      if (it != decls[v].end())
        for (const auto& c : it->second)
          if (mayBeSubtype(v, c, realOwner)) edge(id, node(NodeKind::Method, c, m.name, desc));
    }
  }
  if (!r.exact) callBacks(id, externalCallBacks(v, owner, m, desc, isStatic));
}
void ClosureOracle::Impl::handleEdge(int id, int v, const ConstValue& handle) {
  HandleRef h = parseHandle(handle.text);
  jvm::MemberRef m{h.owner, h.name, h.desc, false};
  if (startsWith(h.kind, "REF_get") || startsWith(h.kind, "REF_put")) {
    std::string o = key(h.owner, v);
    if (inPath(v, o)) edge(id, node(NodeKind::Field, o, h.name, key(h.desc, v)));
    return;
  }
  const bool isVirtual = h.kind == "REF_invokeVirtual" || h.kind == "REF_invokeInterface";
  call(id, v, m, isVirtual, h.kind == "REF_invokeStatic");
  if (h.kind == "REF_newInvokeSpecial") typeEdge(id, v, h.owner);
}

void ClosureOracle::Impl::bootstrapEdges(int id, int v, const jvm::ClassFile& cf, std::uint16_t index,
                                         const std::string& desc) {
  detail::Bootstrap bs;
  try {
    bs = detail::bootstrapAt(cf, index);
  } catch (const std::exception& e) {
    return markBad(id, std::string("a bootstrap method cannot be read: ") + e.what());
  }
  {  // the bootstrap method itself: its own call-backs are judged below
    HandleRef b = parseHandle(bs.handle.text);
    std::string o = key(b.owner, v);
    if (inPath(v, o))
      for (const auto& t : resolveMethod(v, o, b.name, key(b.desc, v)).targets)
        edge(id, node(NodeKind::Method, t, b.name, key(b.desc, v)));
  }
  for (const ConstValue& a : bs.args) {
    if (a.kind == ConstValue::Kind::MethodHandle) handleEdge(id, v, a);
    else if (a.kind == ConstValue::Kind::Class) typeEdge(id, v, a.text);
    else if (a.kind == ConstValue::Kind::Dynamic) return markBad(id, "a bootstrap argument is a dynamic constant");
  }
  // A JDK bootstrap (string concatenation, ...) may call methods of the objects it is given;
  // a lambda factory only stores them (the lambda body is followed above).
  HandleRef h = parseHandle(bs.handle.text);
  if (inPath(v, key(h.owner, v)) || h.owner == "java/lang/invoke/LambdaMetafactory") return;
  bool refs = false;
  try {
    for (const jvm::TypeDesc& p : jvm::parseMethodDescriptor(desc).params)
      refs = refs || ((p.kind == 'L' || p.kind == '[') && nonInert(v, p.kind == 'L' ? p.className() : p.text));
  } catch (const std::invalid_argument&) {
    refs = true;
  }
  if (refs) callBacks(id, h.owner == "java/lang/invoke/StringConcatFactory" ? detail::kToString : detail::kAny);
}

void ClosureOracle::Impl::addInsnEdges(int id, int v, const DecodedMethod& dm, const Instruction& insn) {
  switch (insn.op) {
    case Opcode::invokestatic: call(id, v, insn.member, false, true); break;
    case Opcode::invokespecial: call(id, v, insn.member, false, false); break;
    case Opcode::invokevirtual: case Opcode::invokeinterface: call(id, v, insn.member, true, false); break;
    case Opcode::invokedynamic:
      bootstrapEdges(id, v, *dm.cls, static_cast<std::uint16_t>(insn.imm), insn.member.descriptor);
      break;
    case Opcode::getstatic: case Opcode::putstatic: case Opcode::getfield: case Opcode::putfield: {
      std::string o = key(insn.member.owner, v);
      if (inPath(v, o)) edge(id, node(NodeKind::Field, o, insn.member.name, key(insn.member.descriptor, v)));
      break;
    }
    case Opcode::new_: case Opcode::anewarray: case Opcode::checkcast: case Opcode::instanceof:
    case Opcode::multianewarray:
      typeEdge(id, v, insn.type);
      break;
    case Opcode::ldc: case Opcode::ldc_w: case Opcode::ldc2_w:
      if (insn.constant.kind == ConstValue::Kind::Class) typeEdge(id, v, insn.constant.text);
      else if (insn.constant.kind == ConstValue::Kind::MethodHandle) handleEdge(id, v, insn.constant);
      else if (insn.constant.kind == ConstValue::Kind::Dynamic)
        bootstrapEdges(id, v, *dm.cls, dm.cls->pool.at(insn.cp_index).ref1, "()V");
      break;
    default: break;
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
  const std::string k = I.key(cls, 0);
  const int id = I.node(NodeKind::Method, k, name, I.key(descriptor, 0));
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
  const int id = I.node(NodeKind::Method, I.key(cls, 0), name, I.key(descriptor, 0));
  I.expand(id);
  const Node& n = I.nodes[static_cast<std::size_t>(id)];
  return !n.missing && !n.code_differs;
}

std::size_t ClosureOracle::nodesExamined() const { return impl_->nodes.size(); }

}  // namespace pasda::diff
