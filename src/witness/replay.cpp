// Concrete replay of witness inputs in the interpreter (Java semantics), and the rendering of
// concrete values shared by all replays.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "pasda/jvm/errors.hpp"
#include "pasda/symexec/concrete.hpp"
#include "pasda/terms/java_semantics.hpp"
#include "pasda/witness/witness.hpp"
#include "render.hpp"

namespace pasda::witness {

namespace detail {

namespace {

// Shortest round-trip digits in Java's literal syntax: "1.0E10", "0.1", "-0.0".
template <class F>
std::string javaDigits(F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  std::string mant = s, exp;
  auto e = s.find('e');
  if (e != std::string::npos) {
    mant = s.substr(0, e);
    exp = "E" + std::to_string(std::stoi(s.substr(e + 1)));
  }
  if (mant.find('.') == std::string::npos) mant += ".0";
  return mant + exp;
}

}  // namespace

std::string literal(char kind, std::uint64_t bits) {
  const auto i = static_cast<std::int64_t>(bits);
  switch (kind) {
    case 'Z': return bits ? "true" : "false";
    case 'C': {
      auto c = static_cast<std::uint16_t>(bits);
      if (c >= 32 && c < 127 && c != '\'' && c != '\\') return std::string("'") + static_cast<char>(c) + "'";
      return "(char) " + std::to_string(c);
    }
    case 'B': return "(byte) " + std::to_string(static_cast<std::int8_t>(bits));
    case 'S': return "(short) " + std::to_string(static_cast<std::int16_t>(bits));
    case 'I': return std::to_string(static_cast<std::int32_t>(bits));
    case 'J': return std::to_string(i) + "L";
    case 'F': {
      float f = terms::semantics::floatOfBits(static_cast<std::uint32_t>(bits));
      if (std::isnan(f)) return "Float.NaN";
      if (std::isinf(f)) return f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
      return javaDigits(f) + "f";
    }
    case 'D': {
      double d = terms::semantics::doubleOfBits(bits);
      if (std::isnan(d)) return "Double.NaN";
      if (std::isinf(d)) return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
      return javaDigits(d);
    }
    case 'V': return voidText();
    default: return bits == 0 ? "null" : "<object>";
  }
}

std::string stringLiteral(const std::vector<std::uint64_t>& units) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (std::uint64_t u : units) {
    auto c = static_cast<std::uint16_t>(u);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 32 && c < 127) {
      out += static_cast<char>(c);
    } else if (c == '\n' || c == '\r') {  // a \\u000a escape would end the literal in javac
      out += c == '\n' ? "\\n" : "\\r";
    } else {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(c >> shift) & 0xF];
    }
  }
  return out + "\"";
}

bool javaEqual(char kind, std::uint64_t a, std::uint64_t b) {
  switch (kind) {
    case 'F': return terms::semantics::javaSameFloating(terms::Sort::Float, a, b);
    case 'D': return terms::semantics::javaSameFloating(terms::Sort::Double, a, b);
    case 'Z': return (a != 0) == (b != 0);
    case 'B': case 'C': case 'S': case 'I':
      return static_cast<std::uint32_t>(a) == static_cast<std::uint32_t>(b);
    default: return a == b;
  }
}

}  // namespace detail

namespace {
void appendKey(const InputValue& v, std::string& out) {
  out += std::to_string(static_cast<int>(v.sort)) + ":" + std::to_string(v.bits) + ":" +
         std::to_string(static_cast<int>(v.ref)) + ":" + v.elem + ":" + v.cls + "[";
  for (std::uint64_t e : v.elems) out += std::to_string(e) + ",";
  out += "]{";
  for (std::size_t i = 0; i < v.field_names.size(); ++i) {
    out += v.field_names[i] + "/" + (i < v.field_descs.size() ? v.field_descs[i] : std::string()) + "=";
    if (i < v.field_values.size()) appendKey(v.field_values[i], out);
    out += ";";
  }
  out += "}";
}
}  // namespace

std::string callKey(const std::vector<InputValue>& args, const CallContext& context) {
  std::string out;
  for (const InputValue& v : args) {
    appendKey(v, out);
    out += "|";
  }
  out += "this=";
  appendKey(context.receiver, out);
  out += "|statics=";
  appendKey(context.statics, out);
  return out;
}

std::string javaLiteral(const jvm::TypeDesc& type, const InputValue& v, const std::string& mainClass) {
  if (v.sort != terms::Sort::Ref) return detail::literal(type.kind, v.bits);
  auto named = [&](std::string text) {  // "<main>" as the analysed class, dotted
    std::string main = mainClass;
    for (char& c : main)
      if (c == '/') c = '.';
    for (std::size_t at = text.find("<main>"); !main.empty() && at != std::string::npos; at = text.find("<main>", at))
      text.replace(at, 6, main);
    return text;
  };
  switch (v.ref) {
    case InputValue::Ref::Null: return "null";
    case InputValue::Ref::String: return detail::stringLiteral(v.elems);
    case InputValue::Ref::Array: {
      jvm::TypeDesc et;
      try {
        et = jvm::parseFieldDescriptor(v.elem);
      } catch (const std::exception&) {
        return "?";
      }
      if (et.kind == 'L' || et.kind == '[') return "new " + named(et.javaName()) + "[" + std::to_string(v.elems.size()) + "]";
      std::string out = "new " + et.javaName() + "[] {";
      for (std::size_t i = 0; i < v.elems.size(); ++i) out += (i ? ", " : "") + detail::literal(et.kind, v.elems[i]);
      return out + "}";
    }
    case InputValue::Ref::Object: {  // readable, not Java: Box{count = 3, items = new int[] {1}}
      std::string cls = v.cls == "<main>" && mainClass.empty() ? type.javaName() : named(v.cls);
      if (cls == "<statics>") cls = "static";
      for (char& c : cls)
        if (c == '/') c = '.';
      std::string out = cls.substr(cls.rfind('.') == std::string::npos ? 0 : cls.rfind('.') + 1) + "{";
      for (std::size_t i = 0; i < v.field_names.size(); ++i) {
        jvm::TypeDesc ft;
        try {
          ft = jvm::parseFieldDescriptor(v.field_descs[i]);
        } catch (const std::exception&) {
          return "?";
        }
        std::string field = v.field_names[i];  // (another class's static: "org/x/Registry.count")
        if (v.cls == "<statics>") std::replace(field.begin(), field.end(), '/', '.');
        out += (i ? ", " : "") + field + " = " + javaLiteral(ft, v.field_values[i], mainClass);
      }
      return out + "}";
    }
    case InputValue::Ref::None: break;
  }
  return "?";
}

namespace {

struct Rendered {
  std::string text;
  bool concrete = true;  // a literal value (or no value at all)
  enum { Value, Void, Throw, None } kind = None;
  std::uint64_t bits = 0;
  std::string exception;
};

Rendered render(terms::TermManager& tm, const symexec::ExecEffect& e, const jvm::TypeDesc& ret) {
  Rendered r;
  switch (e.kind) {
    case symexec::ExecEffect::Kind::Return:
      r.kind = Rendered::Value;
      if (e.value && tm.isLit(e.value)) {
        r.bits = tm.node(e.value).bits;
        r.text = detail::literal(ret.kind, r.bits);
      } else {
        r.concrete = false;
        r.text = e.value ? tm.toString(e.value) : "?";
      }
      break;
    case symexec::ExecEffect::Kind::Void:
      r.kind = Rendered::Void;
      r.text = detail::voidText();
      break;
    case symexec::ExecEffect::Kind::Throw:
      r.kind = Rendered::Throw;
      r.exception = jvm::toDottedName(e.exception);
      r.text = detail::throwsText(r.exception);
      break;
    case symexec::ExecEffect::Kind::None:
      r.text = "no effect";
      break;
  }
  return r;
}

// The method of version v that the product calls: it calls the versions' methods in the order
// of kBothVersions (the old one first).
const symexec::MethodInfo* versionMethod(const ReplayEnv& env, Version v) {
  std::size_t seen = 0;  // calls of a version's method so far
  for (const jvm::Instruction& in : env.product_run->insns) {
    if (in.op != jvm::Opcode::invokestatic || in.member.owner == env.product_class) continue;
    const std::size_t call = seen++;
    if (call >= kBothVersions.size() || kBothVersions[call] != v) continue;
    const symexec::LoadedClass* c = env.program->find(symexec::Side(v), in.member.owner);
    return c ? c->method(in.member.name, in.member.descriptor) : nullptr;
  }
  return nullptr;
}

}  // namespace

Replay replayInterp(const ReplayEnv& env, const std::vector<InputValue>& inputs) {
  Replay out;
  out.engine = "interp";
  if (!env.program || !env.product_run) {
    out.note = "no product program to replay on";
    return out;
  }
  terms::TermManager tm(terms::Arith::Java);
  std::vector<terms::Term> args;
  for (const InputValue& v : inputs) args.push_back(v.sort == terms::Sort::Ref ? tm.nullRef() : tm.lit(v.sort, v.bits));
  symexec::ExecOptions o;
  o.product_class = env.product_class;
  // The versions' classes are one class under two names; their static fields start from
  // what <clinit> puts there (a concrete state both versions share).
  o.main_class = env.main_class;
  o.static_inputs = false;
  o.deadline = symexec::Clock::now() +
               std::chrono::microseconds(static_cast<long long>(std::max(0.01, env.interp_timeout_s) * 1e6));
  symexec::ConcreteRun run;
  try {
    run = symexec::runConcrete(*env.program, tm, *env.product_run, args, o);
  } catch (const std::exception& e) {
    out.note = std::string("replay failed: ") + e.what();
    return out;
  }
  if (!run.completed) {
    out.note = "replay incomplete: " + run.error;
    return out;
  }
  const symexec::RawPartition& p = run.partition;
  if (!p.product_compare) {
    out.note = "replay did not reach the product's comparison";
    return out;
  }
  const jvm::TypeDesc& ret = env.product_run->desc.ret;
  Rendered a = render(tm, p.old_effect, ret), b = render(tm, p.new_effect, ret);
  // When the versions' exception behaviour differs the product stops at sameErrors, before
  // the returning version's value is compared: run that version on its own for its value.
  for (Version v : kBothVersions) {
    Rendered& x = v == Version::kOld ? a : b;
    if (x.kind != Rendered::Value || x.concrete) continue;
    if (const symexec::MethodInfo* m = versionMethod(env, v)) {
      try {
        symexec::ExecOptions vo;
        vo.deadline = o.deadline;
        vo.main_class = o.main_class;
        vo.static_inputs = false;
        symexec::ConcreteRun vr = symexec::runConcrete(*env.program, tm, *m, args, vo);
        if (vr.completed) x = render(tm, vr.partition.entry, ret);
      } catch (const std::exception&) {
        // keep the non-concrete rendering
      }
    }
  }
  out.old_out = a.text;
  out.new_out = b.text;
  if (a.kind != b.kind) {
    out.differs = true;
  } else if (a.kind == Rendered::Throw) {
    out.differs = a.exception != b.exception;
  } else if (a.kind == Rendered::Value) {
    if (a.concrete && b.concrete) {
      out.differs = !detail::javaEqual(ret.kind, a.bits, b.bits);
    } else if (p.old_effect.value != p.new_effect.value) {
      out.note = "outputs are not concrete values; not compared";
    }
  }
  // Extra observed state (issue 7): literal values compared like return values.
  if (!out.differs && p.old_effect.state.size() == p.new_effect.state.size()) {
    for (std::size_t i = 0; i < p.old_effect.state.size(); ++i) {
      terms::Term x = p.old_effect.state[i].second, y = p.new_effect.state[i].second;
      if (x == y || !x || !y) continue;
      if (tm.isLit(x) && tm.isLit(y) && tm.sort(x) == tm.sort(y)) {
        char k = tm.sort(x) == terms::Sort::Double ? 'D' : tm.sort(x) == terms::Sort::Float ? 'F' : 'J';
        if (!detail::javaEqual(k, tm.node(x).bits, tm.node(y).bits)) {
          out.differs = true;
          out.note = "state " + p.old_effect.state[i].first + " differs";
        }
      }
    }
  }
  return out;
}

}  // namespace pasda::witness
