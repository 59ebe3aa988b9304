// Class loading from .class files, class-path directories and jars (libzip).
#include "pasda/jvm/loader.hpp"

#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>

#include "pasda/jvm/errors.hpp"
#include "read_file.hpp"

namespace fs = std::filesystem;

namespace pasda::jvm {

ClassFile loadClassFile(const std::string& path) { return parseClass(readFile(path), path); }

std::string toInternalName(const std::string& dotted) {
  std::string s = dotted;
  std::replace(s.begin(), s.end(), '.', '/');
  return s;
}

std::string toDottedName(const std::string& internal) {
  std::string s = internal;
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

std::string impliedClassPathRoot(const std::string& classFilePath, const ClassFile& cf) {
  fs::path p = fs::absolute(fs::path(classFilePath)).lexically_normal();
  fs::path dir = p.parent_path();
  std::string name = cf.name();
  std::size_t depth = static_cast<std::size_t>(std::count(name.begin(), name.end(), '/'));
  // Only strip the package folders if the path really ends with them.
  fs::path probe = dir;
  std::string pkg = depth ? name.substr(0, name.rfind('/')) : std::string();
  fs::path rel(pkg);
  std::vector<std::string> parts;
  for (const auto& part : rel) parts.push_back(part.string());
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (probe.filename().string() != *it) return dir.string();
    probe = probe.parent_path();
  }
  return probe.string();
}

namespace {

struct Jar {
  std::string path;
  zip_t* zip = nullptr;
  ~Jar() {
    if (zip) zip_discard(zip);
  }
};

}  // namespace

struct ClassPath::Impl {
  struct Entry {
    std::string path;
    std::unique_ptr<Jar> jar;  // null for a directory
  };
  std::vector<Entry> entries;
  std::vector<std::string> names;
  mutable std::mutex mu;  // guards the cache and libzip handles
  mutable std::map<std::string, ClassFile> cache;
};

ClassPath::ClassPath() : impl_(std::make_unique<Impl>()) {}
ClassPath::~ClassPath() = default;
ClassPath::ClassPath(ClassPath&&) noexcept = default;
ClassPath& ClassPath::operator=(ClassPath&&) noexcept = default;

ClassPath ClassPath::parse(const std::string& spec) {
  ClassPath cp;
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t end = spec.find(':', start);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(start, end - start);
    if (!item.empty()) {
      std::error_code ec;
      if (fs::is_directory(item, ec)) cp.addDirectory(item);
      else if (fs::exists(item, ec)) cp.addJar(item);  // checks that it is a regular file
      else throw LoadError(item, "class-path entry does not exist");
    }
    start = end + 1;
  }
  return cp;
}

void ClassPath::addDirectory(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw LoadError(dir, "not a directory");
  impl_->entries.push_back({dir, nullptr});
  impl_->names.push_back(dir);
}

void ClassPath::addJar(const std::string& jarPath) {
  // libzip reads through our descriptor, opened only after checking that it is a regular file
  // (zip_open on a FIFO would block, and a device would be read without end).
  const int fd = detail::openRegularFile(jarPath, kMaxJarBytes, "a jar");
  FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    throw LoadError(jarPath, "cannot open jar");
  }
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_filep_create(file, 0, -1, &err);
  if (!src) {
    std::fclose(file);
    std::string why = zip_error_strerror(&err);
    zip_error_fini(&err);
    throw LoadError(jarPath, "cannot open jar: " + why);
  }
  zip_t* z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!z) {
    zip_source_free(src);  // also closes the file
    std::string why = zip_error_strerror(&err);
    zip_error_fini(&err);
    throw LoadError(jarPath, "cannot open jar: " + why);
  }
  zip_error_fini(&err);
  auto jar = std::make_unique<Jar>();
  jar->path = jarPath;
  jar->zip = z;
  impl_->entries.push_back({jarPath, std::move(jar)});
  impl_->names.push_back(jarPath);
}

const std::vector<std::string>& ClassPath::entries() const { return impl_->names; }

namespace {

std::optional<std::vector<std::uint8_t>> readJarEntry(Jar& jar, const std::string& entry) {
  zip_int64_t idx = zip_name_locate(jar.zip, entry.c_str(), 0);
  if (idx < 0) return std::nullopt;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(jar.zip, static_cast<zip_uint64_t>(idx), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw LoadError(jar.path, "cannot stat entry " + entry + ": " + zip_strerror(jar.zip));
  // The size the directory claims is checked before anything is inflated (a zip bomb is refused
  // at once); zip_fread never returns more than the buffer, so a lying size cannot overrun it.
  if (st.size > kMaxClassFileBytes)
    throw LoadError(jar.path, "entry " + entry + " is " + std::to_string(st.size) +
                                  " bytes uncompressed, above the limit of " + std::to_string(kMaxClassFileBytes) +
                                  " bytes for a class file");
  zip_file_t* f = zip_fopen_index(jar.zip, static_cast<zip_uint64_t>(idx), 0);
  if (!f) throw LoadError(jar.path, "cannot open entry " + entry + ": " + zip_strerror(jar.zip));
  std::vector<std::uint8_t> data(static_cast<std::size_t>(st.size));
  zip_int64_t got = data.empty() ? 0 : zip_fread(f, data.data(), data.size());
  std::string ferr = got < 0 ? zip_file_strerror(f) : "";
  zip_fclose(f);
  if (got < 0) throw LoadError(jar.path, "cannot read entry " + entry + ": " + ferr);
  if (static_cast<zip_uint64_t>(got) != st.size) throw LoadError(jar.path, "short read of entry " + entry);
  return data;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> ClassPath::find(const std::string& name, std::string* where) const {
  std::string internal = toInternalName(name);
  if (internal.size() > 6 && internal.compare(internal.size() - 6, 6, "/class") == 0)
    internal = internal.substr(0, internal.size() - 6);  // "a.b.C.class" given dotted
  // A name from a class file or the command line must not reach outside the class-path roots
  // ("../../etc/x", "/abs"): such a class is simply not on the class path.
  if (!classPathNameProblem(internal).empty()) return std::nullopt;
  std::string rel = internal + ".class";
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (const Impl::Entry& e : impl_->entries) {
    if (e.jar) {
      auto data = readJarEntry(*e.jar, rel);
      if (data) {
        if (where) *where = e.path + "!/" + rel;
        return data;
      }
    } else {
      fs::path p = fs::path(e.path) / rel;
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) {
        if (where) *where = p.string();
        return readFile(p.string());
      }
    }
  }
  return std::nullopt;
}

const ClassFile* ClassPath::load(const std::string& name) const {
  std::string internal = toInternalName(name);
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    auto it = impl_->cache.find(internal);
    if (it != impl_->cache.end()) return &it->second;
  }
  std::string where;
  auto data = find(internal, &where);
  if (!data) return nullptr;
  ClassFile cf = parseClass(*data, where);
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto [it, inserted] = impl_->cache.emplace(internal, std::move(cf));
  return &it->second;
}

std::vector<std::string> ClassPath::list() const {
  std::set<std::string> out;
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (const Impl::Entry& e : impl_->entries) {
    if (e.jar) {
      zip_int64_t n = zip_get_num_entries(e.jar->zip, 0);
      for (zip_int64_t i = 0; i < n; ++i) {
        const char* nm = zip_get_name(e.jar->zip, static_cast<zip_uint64_t>(i), 0);
        if (!nm) throw LoadError(e.path, std::string("cannot read entry name: ") + zip_strerror(e.jar->zip));
        std::string s = nm;
        if (s.size() <= 6 || s.compare(s.size() - 6, 6, ".class") != 0) continue;
        std::string cls = s.substr(0, s.size() - 6);
        if (std::string why = classPathNameProblem(cls); !why.empty())
          throw LoadError(e.path, "entry '" + s + "' is not a class-path name: " + why);
        out.insert(cls);
      }
    } else {
      std::error_code ec;
      fs::recursive_directory_iterator it(e.path, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) throw LoadError(e.path, "cannot list directory: " + ec.message());
      std::size_t visited = 0;
      for (; it != end; it.increment(ec)) {
        if (ec) throw LoadError(e.path, "cannot list directory: " + ec.message());
        // A directory given by mistake ("/", a home directory) is not walked to its end.
        if (++visited > kMaxListedFiles)
          throw LoadError(e.path, "holds more than " + std::to_string(kMaxListedFiles) +
                                      " files; not a class-path root to search (name the class with --class)");
        if (!it->is_regular_file(ec) || it->path().extension() != ".class") continue;
        std::string rel = fs::relative(it->path(), e.path, ec).generic_string();
        out.insert(rel.substr(0, rel.size() - 6));
      }
    }
  }
  return {out.begin(), out.end()};
}

}  // namespace pasda::jvm
