// The library-model registry (lookup by owner, name, descriptor and the receiver's dynamic
// class), the context models run with, and the registry of every JDK model (src/symexec/lib/).
#include "library.hpp"

#include "interpreter.hpp"
#include "lib/models.hpp"

namespace pasda::symexec {

// --- the registry ---------------------------------------------------------------------------

void LibraryRegistry::add(const std::string& owner, const std::string& name, const std::string& descriptor,
                          Model m) {
  classes_[owner].by_name[name].by_descriptor[descriptor] = std::move(m);
}

void LibraryRegistry::addOverloads(const std::string& owner, const std::string& name, Model m) {
  classes_[owner].by_name[name].any_descriptor = std::move(m);
}

void LibraryRegistry::addClass(const std::string& owner, Model m) { classes_[owner].any_method = std::move(m); }

std::size_t LibraryRegistry::size() const {
  std::size_t n = 0;
  for (const auto& [owner, c] : classes_) {
    n += c.any_method ? 1 : 0;
    for (const auto& [name, ms] : c.by_name) n += ms.by_descriptor.size() + (ms.any_descriptor ? 1 : 0);
  }
  return n;
}

const Model* LibraryRegistry::method(const std::string& owner, const std::string& name,
                                     const std::string& descriptor) const {
  auto c = classes_.find(owner);
  if (c == classes_.end()) return nullptr;
  auto ms = c->second.by_name.find(name);
  if (ms == c->second.by_name.end()) return nullptr;
  if (auto d = ms->second.by_descriptor.find(descriptor); d != ms->second.by_descriptor.end()) return &d->second;
  return ms->second.any_descriptor ? &*ms->second.any_descriptor : nullptr;
}

const Model& LibraryRegistry::find(const std::string& owner, const std::string& name, const std::string& descriptor,
                                   const std::string& dynamicClass) const {
  auto isArray = [](const std::string& cls) { return !cls.empty() && cls[0] == '['; };
  if (!dynamicClass.empty() && dynamicClass != owner) {
    if (const Model* m = method(dynamicClass, name, descriptor)) return *m;
    if (isArray(dynamicClass))
      if (const Model* m = method(kAnyArray, name, descriptor)) return *m;
  }
  if (const Model* m = method(owner, name, descriptor)) return *m;
  if (isArray(owner))
    if (const Model* m = method(kAnyArray, name, descriptor)) return *m;
  if (auto c = classes_.find(owner); c != classes_.end() && c->second.any_method) return *c->second.any_method;
  if (const Model* m = method(kAnyOwner, name, descriptor)) return *m;
  return fallback_;
}

const LibraryRegistry& jdkModels() {
  static const LibraryRegistry registry = [] {
    LibraryRegistry r;
    lib::registerMathModels(r);
    lib::registerBoxModels(r);
    lib::registerObjectModels(r);
    lib::registerIoModels(r);
    lib::registerArrayModels(r);
    lib::registerEnumModels(r);
    lib::registerStringModels(r);
    lib::registerCharacterModels(r);
    lib::registerReflectionModels(r);
    lib::registerUnknownCallModels(r);
    return r;
  }();
  return registry;
}

// --- the context of one call ----------------------------------------------------------------

Side ModelCall::side() const { return s_.frames.back().side; }
int ModelCall::nextCallNumber(const std::string& call) { return ++s_.call_numbers[side()][call]; }
Side ModelCall::codeSide() const {
  const Side caller = side();
  if (caller != kProduct) return caller;
  const ExecOptions& opt = host_.options();
  for (Side v : {kOld, kNew})
    if (!opt.main_class[v].empty() && ref_.owner == opt.main_class[v]) return v;
  return caller;
}
terms::TermManager& ModelCall::tm() { return host_.tm(); }
bool ModelCall::javaArith() { return host_.tm().arith() == terms::Arith::Java; }
Term ModelCall::defaultValue(const jvm::TypeDesc& t) { return host_.defaultValue(t); }

Term ModelCall::allocate(Object o) { return host_.allocate(s_, std::move(o)); }
Object& ModelCall::object(Term ref) { return host_.deref(s_, ref); }
bool ModelCall::isNull(Term ref) const { return host_.tm().node(ref).bits == 0; }

Term ModelCall::classObject(const std::string& name) { return host_.classObject(s_, name); }

std::optional<Term> ModelCall::settle(Term ref) { return host_.settle(s_, ref); }
Term ModelCall::longArrayElement(Term ref, Term idx) { return host_.longArrayElement(s_, ref, idx); }
void ModelCall::storeLongArrayElement(Term ref, Term idx, Term v) { host_.storeLongArrayElement(s_, ref, idx, v); }

Term ModelCall::newArray(const std::string& elemDesc, std::vector<Term> elems) {
  Object o;
  o.cls = "[" + elemDesc;
  o.is_array = true;
  o.elem_kind = elemDesc.at(0);
  o.elem_sort = sortOfDescriptor(elemDesc[0]);
  o.elems = std::move(elems);
  return allocate(std::move(o));
}

std::optional<Term> ModelCall::field(Term ref, const std::string& name, const std::string& desc) {
  return host_.readField(s_, ref, name, desc);
}

void ModelCall::setField(Term ref, const std::string& name, Term v) {
  Object& o = object(ref);
  o.fields[name] = v;
  o.dirty = true;
}

std::optional<Term> ModelCall::staticWrites() {
  const Side side = codeSide();
  const std::string prefix = std::to_string(side.index()) + "#";
  std::string names;
  std::vector<Term> values;
  for (const std::string& key : s_.written_statics) {
    if (key.rfind(prefix, 0) != 0) continue;
    auto it = s_.statics.find(key);
    if (it == s_.statics.end()) continue;
    const std::string field = key.substr(prefix.size());
    const std::size_t dot = field.rfind('.');
    names += host_.inputs().originalName(field.substr(0, dot)) + field.substr(dot) + ",";
    values.push_back(host_.inputs().identityOf(s_, it->second, side));
  }
  if (values.empty()) return std::nullopt;
  return tm().apply("statics:" + names, terms::FunKind::Library, Sort::Int, values);
}

Term ModelCall::identity(Term value) { return host_.inputs().identityOf(s_, value, side()); }

bool ModelCall::isProgramClass(const std::string& cls) const {
  return host_.program().find(codeSide(), cls) != nullptr;
}

void ModelCall::print(const std::string& stream, const std::vector<Term>& text) {
  auto& out = s_.printed[side()][stream];
  out.insert(out.end(), text.begin(), text.end());
}
bool ModelCall::compareOutput() const {
  // Only a product run compares the versions' output; a plain run has nothing to compare it with.
  return host_.options().compare_output && !host_.options().product_class.empty();
}
bool ModelCall::fillOpaqueArray(Term ref) { return host_.fillOpaqueArray(s_, ref); }

int ModelCall::stringChars(Term ref, std::vector<Term>& out) {
  std::uint64_t id = host_.tm().node(ref).bits;
  const Object& o = object(ref);
  if (!o.chars) {
    if (o.input < 0 || o.cls != "java/lang/String") return 0;
    if (const int got = host_.inputs().materializeString(s_, id); got <= 0) return got;
  }
  out = s_.heap[id].elems;
  return 1;
}
int ModelCall::maxArrayLength() const { return host_.options().max_array_length; }
std::size_t ModelCall::maxArrayElements() const { return host_.options().max_array_elements; }
void ModelCall::assume(Term fact) { s_.pc.push_back(fact); }
bool ModelCall::withinPathBudget(std::size_t more) const {
  std::size_t held = 0;
  for (const Object& o : s_.heap) held += o.elems.size();
  return held + more <= host_.options().max_path_elements;
}
std::optional<bool> ModelCall::assignable(const std::string& from, const std::string& to) const {
  return host_.program().assignable(s_.frames.back().side, from, to);
}

namespace {

/// One constant of a bootstrap method's static arguments, as text.
std::string constantText(const jvm::ConstantPool& pool, std::uint16_t index) {
  const jvm::CpEntry& e = pool.at(index);
  switch (e.tag) {
    case jvm::CpTag::String: return "S:" + pool.utf8(e.ref1);
    case jvm::CpTag::Class: return "C:" + pool.utf8(e.ref1);
    case jvm::CpTag::MethodType: return "T:" + pool.utf8(e.ref1);
    case jvm::CpTag::Integer: case jvm::CpTag::Float: case jvm::CpTag::Long: case jvm::CpTag::Double:
      return "N" + std::to_string(static_cast<int>(e.tag)) + ":" + std::to_string(e.value);
    case jvm::CpTag::MethodHandle: {
      const jvm::CpEntry& m = pool.at(e.ref1);
      const jvm::CpEntry& nt = pool.at(m.ref2);
      return "H" + std::to_string(e.kind) + ":" + pool.className(m.ref1) + "." + pool.utf8(nt.ref1) + pool.utf8(nt.ref2);
    }
    default: return "?" + std::to_string(static_cast<int>(e.tag));
  }
}

}  // namespace

bool ModelCall::resultDiscarded() const {
  const Frame& f = s_.frames.back();
  const std::size_t next = static_cast<std::size_t>(f.ip) + 1;
  return next < f.m->insns.size() && f.m->insns[next].op == jvm::Opcode::pop;
}

std::string ModelCall::bootstrapKey() const {
  const Frame& f = s_.frames.back();
  const jvm::Instruction& in = f.m->insns.at(static_cast<std::size_t>(f.ip));
  const jvm::ClassFile& cf = f.m->owner->cf;
  try {
    const jvm::Attribute* attr = jvm::findAttribute(cf.pool, cf.attributes, "BootstrapMethods");
    if (!attr) return "";
    const std::vector<std::uint8_t>& b = attr->data;
    auto u2 = [&](std::size_t at) -> std::uint16_t {
      if (at + 2 > b.size()) throw std::out_of_range("truncated BootstrapMethods attribute");
      return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
    };
    const std::uint16_t wanted = cf.pool.at(in.cp_index).ref1;
    std::size_t at = 2;
    for (std::uint16_t i = 0, n = u2(0); i < n; ++i) {
      std::uint16_t handle = u2(at), nargs = u2(at + 2);
      if (i == wanted) {
        std::string key = constantText(cf.pool, handle);
        // (NUL separates the parts: modified UTF-8 never holds a zero byte)
        for (std::uint16_t k = 0; k < nargs; ++k) key += std::string(1, '\0') + constantText(cf.pool, u2(at + 4 + 2u * k));
        return key;
      }
      at += 4 + 2u * nargs;
    }
  } catch (const std::exception&) {
    return "";
  }
  return "";
}

std::optional<ModelCall::LambdaSite> ModelCall::lambdaSite() const {
  const std::string key = bootstrapKey();
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    std::size_t end = key.find('\0', at);
    parts.push_back(key.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  // LambdaMetafactory.metafactory / altMetafactory: (sam type, implementation handle, instantiated type, ...)
  if (parts.size() < 4 || parts[0].find(":java/lang/invoke/LambdaMetafactory.") == std::string::npos) return std::nullopt;
  const std::string& impl = parts[2];  // "H<kind>:owner.name(descriptor)"
  const std::size_t colon = impl.find(':'), paren = impl.find('(');
  if (impl.size() < 2 || impl[0] != 'H' || colon == std::string::npos || paren == std::string::npos) return std::nullopt;
  const std::size_t dot = impl.rfind('.', paren);
  if (dot == std::string::npos || dot < colon) return std::nullopt;
  LambdaSite l;
  l.kind = impl[1];
  l.owner = impl.substr(colon + 1, dot - colon - 1);
  l.name = impl.substr(dot + 1, paren - dot - 1);
  l.descriptor = impl.substr(paren);
  l.handle = impl.substr(colon + 1);
  l.instantiated = parts[3];
  return l;
}

std::string ModelCall::sharedLambdaSite() const {
  const ExecOptions& opt = host_.options();
  if (!opt.shared_lambda) return "";
  const std::optional<LambdaSite> l = lambdaSite();
  if (!l) return "";
  const Side side = s_.frames.back().side;
  const std::size_t open = l->instantiated.find('(');
  const std::vector<std::string> types{open == std::string::npos ? std::string() : l->instantiated.substr(open),
                                       ref_.descriptor};
  if (!opt.shared_lambda(side, l->owner, l->name, l->descriptor, types)) return "";
  std::string site = "lambda:" + l->handle + "|" + ref_.name + ref_.descriptor + "|" + l->instantiated;
  const std::string& mine = opt.main_class[side];
  for (std::size_t p = 0; !mine.empty() && (p = site.find(mine, p)) != std::string::npos;) {
    site.replace(p, mine.size(), "<analysed>");
    p += 10;
  }
  return site;
}

std::string ModelCall::sharedProgramCall() const {
  const ExecOptions& opt = host_.options();
  const Side side = codeSide();
  if (!opt.shared_call || !opt.shared_call(side, ref_.owner, ref_.name, ref_.descriptor, dispatches())) return "";
  // owner.name(params): the parameters tell overloads apart; the analysed class has one name
  // in both versions.
  const std::size_t close = ref_.descriptor.find(')');
  std::string call = ref_.owner + "." + ref_.name + ref_.descriptor.substr(0, close == std::string::npos ? 0 : close + 1);
  const std::string& mine = opt.main_class[side];
  if (!mine.empty()) {
    if (ref_.owner == mine) call = "<analysed>." + call.substr(mine.size() + 1);
    for (std::size_t p = 0; (p = call.find("L" + mine + ";", p)) != std::string::npos;) {
      call.replace(p + 1, mine.size(), "<analysed>");
      p += 12;
    }
  }
  for (char& ch : call)
    if (ch == '/') ch = '.';
  return call;
}

bool ModelCall::sharedCallOf(const std::string& owner, const std::string& name, const std::string& descriptor,
                             bool dispatches) const {
  const ExecOptions& opt = host_.options();
  return opt.shared_call && opt.shared_call(codeSide(), owner, name, descriptor, dispatches);
}

std::optional<bool> ModelCall::branch(Term cond) { return host_.explorer().branch(s_, cond, false); }
std::optional<bool> ModelCall::loopBranch(Term cond) { return host_.explorer().branch(s_, cond, inCountedCode(s_)); }
ModelResult ModelCall::delegate(const jvm::MemberRef& ref, const std::vector<Term>& args, bool hasReceiver) {
  const jvm::MethodDesc md = jvm::parseMethodDescriptor(ref.descriptor);
  const std::string dynamic = hasReceiver && !isNull(args.at(0)) ? object(args.at(0)).cls : "";
  const Model& model = host_.library().find(ref.owner, ref.name, ref.descriptor, dynamic);
  if (&model == &host_.library().fallback()) return ModelResult::declined();
  ModelCall inner(host_, s_, ref, md, args, hasReceiver);
  return model(inner);
}

int ModelCall::choose(int n) { return host_.explorer().choose(s_, n); }

ModelResult ModelCall::throwNew(const std::string& cls) { return ModelResult::stopped(host_.throwNew(s_, cls)); }

ModelResult ModelCall::cut(const std::string& reason) {
  host_.explorer().note(s_, reason + " (path cut)");
  host_.explorer().cutPath(s_, Explorer::Cut::Depth);
  return ended();
}

void ModelCall::warn(const std::string& message) { host_.explorer().note(s_, message); }

}  // namespace pasda::symexec
