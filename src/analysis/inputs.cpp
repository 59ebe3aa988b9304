// Loading the two versions and choosing the method to compare.
#include <algorithm>
#include <filesystem>
#include <set>

#include "pasda/analysis/analysis.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::analysis {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string describe(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 20; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 20) out += ", ...";
  return out;
}

}  // namespace

Version loadVersion(const std::string& path, const std::string& className, const std::string& classpath) {
  Version v;
  v.path = path;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, "no such file or directory");
  try {
    auto cp = std::make_shared<jvm::ClassPath>();
    if (fs::is_directory(path, ec) || endsWith(path, ".jar")) {
      if (fs::is_directory(path, ec)) cp->addDirectory(path);
      else cp->addJar(path);
      std::string name = className;
      if (name.empty()) {
        std::vector<std::string> all = cp->list();
        if (all.size() != 1)
          throw InputError(path, all.empty() ? "holds no class files"
                                             : "holds " + std::to_string(all.size()) +
                                                   " classes; pick one with --class (" + describe(all) + ")");
        name = all.front();
      }
      std::string internal = jvm::toInternalName(name);
      const jvm::ClassFile* cf = cp->load(internal);
      if (!cf) throw InputError(path, "has no class " + jvm::toDottedName(internal));
      v.cls = *cf;
    } else {
      v.cls = jvm::loadClassFile(path);
      if (!className.empty() && jvm::toInternalName(className) != v.cls.name())
        throw InputError(path, "holds class " + jvm::toDottedName(v.cls.name()) + ", not " + className);
      cp->addDirectory(jvm::impliedClassPathRoot(fs::absolute(path).string(), v.cls));
    }
    if (!classpath.empty()) {
      jvm::ClassPath extra = jvm::ClassPath::parse(classpath);
      for (const std::string& e : extra.entries()) {
        if (fs::is_directory(e, ec)) cp->addDirectory(e);
        else cp->addJar(e);
      }
    }
    v.classpath = std::move(cp);
  } catch (const jvm::FormatError& e) {
    throw InputError(e.file().empty() ? path : e.file(),
                     e.reason() + " (at byte " + std::to_string(e.offset()) + ")");
  } catch (const jvm::LoadError& e) {
    throw InputError(e.file().empty() ? path : e.file(), e.reason());
  }
  return v;
}

namespace {

// Methods of `cf` called from inside `cf` (by name and descriptor, on the class itself).
std::set<std::string> calledWithin(const jvm::ClassFile& cf) {
  std::set<std::string> called;
  for (const jvm::Method& m : cf.methods) {
    if (!m.code) continue;
    std::vector<jvm::Instruction> insns;
    try {
      insns = jvm::decode(cf, *m.code, cf.source_file_path);
    } catch (const std::exception&) {
      continue;
    }
    for (const jvm::Instruction& in : insns) {
      if (in.member.name.empty() || in.member.owner != cf.name()) continue;
      if (in.member.name == m.name && in.member.descriptor == m.descriptor) continue;  // recursion
      called.insert(in.member.name + in.member.descriptor);
    }
  }
  return called;
}

}  // namespace

std::string selectMethod(const Version& oldV, const Version& newV, const std::string& wanted) {
  if (!wanted.empty()) {
    auto colon = wanted.find(':');
    std::string name = wanted.substr(0, colon);
    std::string desc = colon == std::string::npos ? "" : wanted.substr(colon + 1);
    auto pick = [&](const Version& v) -> std::vector<std::string> {
      std::vector<std::string> found;
      for (const jvm::Method& m : v.cls.methods)
        if (m.name == name && (desc.empty() || m.descriptor == desc)) found.push_back(m.name + ":" + m.descriptor);
      return found;
    };
    auto inOld = pick(oldV);
    auto inNew = pick(newV);
    if (inOld.empty())
      throw InputError(oldV.path, "class " + jvm::toDottedName(oldV.cls.name()) + " has no method " + wanted);
    if (inNew.empty())
      throw InputError(newV.path, "class " + jvm::toDottedName(newV.cls.name()) + " has no method " + wanted);
    if (name == "<clinit>")
      throw InputError(oldV.path, "<clinit> is the class initialiser of " + jvm::toDottedName(oldV.cls.name()) +
                                      ": it runs when the class is first used, not on its own; analyse the methods "
                                      "that use the class (their runs include it)");
    if (!desc.empty()) return wanted;
    // Overloads: prefer the descriptor both versions share; otherwise the names must be unique.
    std::vector<std::string> common;
    for (const auto& m : inOld)
      if (std::find(inNew.begin(), inNew.end(), m) != inNew.end()) common.push_back(m);
    if (common.size() == 1) return common.front();
    if (inOld.size() == 1 && inNew.size() == 1) return inOld.front();  // same name, different signature
    throw InputError(oldV.path, "method name " + name + " is overloaded; give NAME:DESCRIPTOR (" +
                                    describe(common.empty() ? inOld : common) + ")");
  }
  std::set<std::string> calledOld = calledWithin(oldV.cls), calledNew = calledWithin(newV.cls);
  std::vector<std::string> candidates;
  for (const jvm::Method& m : oldV.cls.methods) {
    if (m.name == "<init>" || m.name == "<clinit>" || !m.code) continue;
    if (!newV.cls.findMethod(m.name, m.descriptor)) continue;
    if (m.access_flags & jvm::acc::Synthetic) continue;
    std::string key = m.name + m.descriptor;
    if (calledOld.count(key) || calledNew.count(key)) continue;
    candidates.push_back(m.name + ":" + m.descriptor);
  }
  if (candidates.size() == 1) return candidates.front();
  if (candidates.empty())
    throw InputError(oldV.path, "no method to compare: the two classes share no method that the class does not call itself; use --method");
  throw InputError(oldV.path, "several methods could be compared; choose one with --method: " + describe(candidates));
}

}  // namespace pasda::analysis
