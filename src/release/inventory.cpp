// The inventory of a release diff: both versions opened, classes and methods matched by name
// and descriptor, each method put in its category by the identical-closure oracle, and the
// signature-level changes (what japicmp reports) listed beside them.
#include "inventory.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "pasda/analysis/analysis.hpp"
#include "pasda/diff/closure.hpp"
#include "pasda/jvm/errors.hpp"

namespace pasda::release::detail {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Classes that are no program code: module and package descriptors, multi-release copies.
bool programClass(const std::string& internal) {
  return internal.rfind("META-INF/", 0) != 0 && !endsWith(internal, "module-info") && !endsWith(internal, "package-info");
}

void addEntries(jvm::ClassPath& cp, const std::string& spec) {
  if (spec.empty()) return;
  jvm::ClassPath extra = jvm::ClassPath::parse(spec);
  std::error_code ec;
  for (const std::string& e : extra.entries()) {
    if (fs::is_directory(e, ec)) cp.addDirectory(e);
    else cp.addJar(e);
  }
}

std::string visibility(std::uint16_t f) {
  if (f & jvm::acc::Public) return "public";
  if (f & jvm::acc::Protected) return "protected";
  if (f & jvm::acc::Private) return "private";
  return "package-private";
}

std::string classKind(std::uint16_t f) {
  if (f & jvm::acc::Annotation) return "annotation";
  if (f & jvm::acc::Interface) return "interface";
  if (f & jvm::acc::Enum) return "enum";
  return "class";
}

std::vector<std::string> thrown(const jvm::ClassFile& cf, const jvm::Method& m) {
  std::vector<std::string> out;
  const jvm::Attribute* a = jvm::findAttribute(cf.pool, m.attributes, "Exceptions");
  if (!a || a->data.size() < 2) return out;
  const auto& d = a->data;
  const std::size_t n = static_cast<std::size_t>((d[0] << 8) | d[1]);
  for (std::size_t i = 0; i < n && 2 + 2 * i + 1 < d.size(); ++i) {
    try {
      out.push_back(jvm::toDottedName(cf.pool.className(static_cast<std::uint16_t>((d[2 + 2 * i] << 8) | d[3 + 2 * i]))));
    } catch (const std::exception&) {
      out.push_back("?");
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  if (v.empty()) return "(none)";
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void flagChange(std::vector<std::string>& out, std::uint16_t a, std::uint16_t b, std::uint16_t flag, const char* what) {
  if ((a & flag) == (b & flag)) return;
  out.push_back(std::string(b & flag ? "now " : "no longer ") + what);
}

std::vector<std::string> methodChanges(const jvm::ClassFile& oc, const jvm::Method& o, const jvm::ClassFile& nc,
                                       const jvm::Method& n) {
  std::vector<std::string> out;
  if (visibility(o.access_flags) != visibility(n.access_flags))
    out.push_back("visibility: " + visibility(o.access_flags) + " -> " + visibility(n.access_flags));
  flagChange(out, o.access_flags, n.access_flags, jvm::acc::Static, "static");
  flagChange(out, o.access_flags, n.access_flags, jvm::acc::Final, "final");
  flagChange(out, o.access_flags, n.access_flags, jvm::acc::Abstract, "abstract");
  flagChange(out, o.access_flags, n.access_flags, jvm::acc::Synchronized, "synchronized");
  flagChange(out, o.access_flags, n.access_flags, jvm::acc::Native, "native");
  auto to = thrown(oc, o), tn = thrown(nc, n);
  if (to != tn) out.push_back("throws: " + join(to) + " -> " + join(tn));
  return out;
}

std::vector<std::string> classChanges(const jvm::ClassFile& o, const jvm::ClassFile& n) {
  std::vector<std::string> out;
  const std::uint16_t a = o.access_flags, b = n.access_flags;
  if (visibility(a) != visibility(b)) out.push_back("visibility: " + visibility(a) + " -> " + visibility(b));
  if (classKind(a) != classKind(b)) out.push_back("kind: " + classKind(a) + " -> " + classKind(b));
  flagChange(out, a, b, jvm::acc::Final, "final");
  flagChange(out, a, b, jvm::acc::Abstract, "abstract");
  if (o.superName() != n.superName())
    out.push_back("superclass: " + jvm::toDottedName(o.superName()) + " -> " + jvm::toDottedName(n.superName()));
  std::set<std::string> io, in;
  for (auto i : o.interfaces) io.insert(jvm::toDottedName(o.pool.className(i)));
  for (auto i : n.interfaces) in.insert(jvm::toDottedName(n.pool.className(i)));
  for (const auto& i : in)
    if (!io.count(i)) out.push_back("implements " + i + " (added)");
  for (const auto& i : io)
    if (!in.count(i)) out.push_back("implements " + i + " (removed)");
  return out;
}

const jvm::ClassFile* load(const Side& s, const std::string& internal) {
  try {
    return s.classes->load(internal);
  } catch (const jvm::FormatError& e) {
    throw analysis::InputError(e.file().empty() ? s.path : e.file(), e.reason() + " (at byte " + std::to_string(e.offset()) + ")");
  } catch (const jvm::LoadError& e) {
    throw analysis::InputError(e.file().empty() ? s.path : e.file(), e.reason());
  }
}

// Methods added and removed under one name, one of each: the descriptor changed.
void pairDescriptors(std::vector<MethodEntry>& entries, std::size_t from) {
  std::map<std::string, std::vector<std::size_t>> added, removed;
  for (std::size_t i = from; i < entries.size(); ++i) {
    if (entries[i].category == Category::Added) added[entries[i].name].push_back(i);
    if (entries[i].category == Category::Removed) removed[entries[i].name].push_back(i);
  }
  for (const auto& [name, a] : added) {
    auto r = removed.find(name);
    if (a.size() != 1 || r == removed.end() || r->second.size() != 1) continue;
    const std::string change = "descriptor: " + entries[r->second[0]].descriptor + " -> " + entries[a[0]].descriptor;
    entries[a[0]].api_changes.push_back(change);
    entries[r->second[0]].api_changes.push_back(change);
  }
}

MethodEntry entry(const std::string& cls, const jvm::Method& m, Category c) {
  MethodEntry e;
  e.cls = jvm::toDottedName(cls);
  e.name = m.name;
  e.descriptor = m.descriptor;
  e.category = c;
  return e;
}

// The methods of a class present in both versions.
void compareClass(const Side& o, const Side& n, const std::string& cls, diff::ClosureOracle& oracle,
                  ReleaseResult& out) {
  const jvm::ClassFile& oc = *load(o, cls);
  const jvm::ClassFile& nc = *load(n, cls);
  auto changes = classChanges(oc, nc);
  if (!changes.empty()) out.classes.push_back({jvm::toDottedName(cls), "changed", changes});
  const std::size_t first = out.methods.size();
  for (const jvm::Method& m : oc.methods) {
    const jvm::Method* other = nc.findMethod(m.name, m.descriptor);
    if (!other) {
      out.methods.push_back(entry(cls, m, Category::Removed));
      out.methods.back().api_changes.push_back("removed (" + visibility(m.access_flags) + ")");
      continue;
    }
    MethodEntry e = entry(cls, m, Category::Identical);
    e.api_changes = methodChanges(oc, m, nc, *other);
    diff::MethodClosure c = oracle.method(cls, m.name, m.descriptor);
    if (c.verdict == diff::ClosureVerdict::Affected) {
      e.category = Category::Affected;
      for (const std::string& k : oracle.changedCallees(cls, m.name, m.descriptor)) {
        const auto dot = k.find('.');  // "a/B.f(I)I" -> "a.B.f(I)I", as MethodEntry::key()
        e.changed_callees.push_back(jvm::toDottedName(k.substr(0, dot)) + k.substr(dot));
      }
    }
    if (c.verdict == diff::ClosureVerdict::Changed || c.verdict == diff::ClosureVerdict::Missing)
      e.category = Category::Changed;
    e.reason = c.reason;
    out.methods.push_back(std::move(e));
  }
  for (const jvm::Method& m : nc.methods) {
    if (oc.findMethod(m.name, m.descriptor)) continue;
    out.methods.push_back(entry(cls, m, Category::Added));
    out.methods.back().api_changes.push_back("added (" + visibility(m.access_flags) + ")");
  }
  pairDescriptors(out.methods, first);
}

}  // namespace

Side openSide(const std::string& path, const std::string& extraClasspath) {
  Side s;
  s.path = path;
  s.extra_classpath = extraClasspath;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw analysis::InputError(path, "no such file or directory");
  try {
    s.classes = std::make_shared<jvm::ClassPath>();
    s.full = std::make_shared<jvm::ClassPath>();
    if (fs::is_directory(path, ec)) {
      s.classes->addDirectory(path);
      s.full->addDirectory(path);
    } else if (endsWith(path, ".jar")) {
      s.classes->addJar(path);
      s.full->addJar(path);
    } else {
      throw analysis::InputError(path, "not a jar or a class-path directory");
    }
    addEntries(*s.full, extraClasspath);
    for (const std::string& c : s.classes->list())
      if (programClass(c)) s.names.push_back(c);
  } catch (const jvm::LoadError& e) {
    throw analysis::InputError(e.file().empty() ? path : e.file(), e.reason());
  }
  if (s.names.empty()) throw analysis::InputError(path, "holds no class files");
  return s;
}

ReleaseResult inventory(const Side& o, const Side& n, const std::string& classFilter) {
  ReleaseResult out;
  out.classes_old = o.names.size();
  out.classes_new = n.names.size();
  std::set<std::string> inOld(o.names.begin(), o.names.end()), inNew(n.names.begin(), n.names.end());
  std::set<std::string> all = inOld;
  all.insert(inNew.begin(), inNew.end());
  for (const auto& c : all) out.classes_common += inOld.count(c) && inNew.count(c);
  if (out.classes_common == 0)
    throw analysis::InputError(o.path, "has no class in common with " + n.path + " (not two versions of one library?)");
  const std::string filter = jvm::toInternalName(classFilter);
  if (!filter.empty()) {
    if (!all.count(filter)) throw analysis::InputError(o.path, "has no class " + classFilter + " (nor has " + n.path + ")");
    all = {filter};
  }
  // The oracle compares the analysed classes and the libraries of each version alike.
  diff::ClosureOracle oracle(*o.full, *n.full);
  for (const std::string& cls : all) {
    const bool a = inOld.count(cls), b = inNew.count(cls);
    if (a && b) {
      compareClass(o, n, cls, oracle, out);
      continue;
    }
    const jvm::ClassFile& cf = *load(a ? o : n, cls);
    out.classes.push_back({jvm::toDottedName(cls), a ? "removed" : "added",
                           {std::string(a ? "removed" : "added") + " (" + visibility(cf.access_flags) + " " +
                            classKind(cf.access_flags) + ")"}});
    for (const jvm::Method& m : cf.methods) {
      out.methods.push_back(entry(cls, m, a ? Category::Removed : Category::Added));
      out.methods.back().api_changes.push_back(std::string(a ? "removed" : "added") + " with its class");
    }
  }
  std::sort(out.methods.begin(), out.methods.end(), [](const MethodEntry& x, const MethodEntry& y) {
    return std::tie(x.cls, x.name, x.descriptor) < std::tie(y.cls, y.name, y.descriptor);
  });
  std::sort(out.classes.begin(), out.classes.end(), [](const ClassChange& x, const ClassChange& y) { return x.cls < y.cls; });
  out.methods_total = out.methods.size();
  return out;
}

std::size_t codeSize(const Side& side, const MethodEntry& m) {
  try {
    const jvm::ClassFile* cf = side.classes->load(jvm::toInternalName(m.cls));
    const jvm::Method* mm = cf ? cf->findMethod(m.name, m.descriptor) : nullptr;
    return mm && mm->code ? mm->code->bytes.size() : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace pasda::release::detail
