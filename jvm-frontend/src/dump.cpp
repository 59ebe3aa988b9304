// --dump listings in text and JSON.
#include "pasda/jvm/dump.hpp"

#include <cmath>
#include <cstdio>

#include "pasda/jvm/instruction.hpp"

namespace pasda::jvm {

std::string formatFloat(double v, bool single);  // opcodes.cpp

namespace {

std::string escapeControls(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

void hex4(std::string& out, unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", v & 0xffff);
  out += buf;
}

std::string num(double v, bool single) {
  if (!std::isfinite(v)) return "\"" + formatFloat(v, single) + "\"";
  return formatFloat(v, single);
}

const char* kindName(ConstValue::Kind k) {
  switch (k) {
    case ConstValue::Kind::Int: return "int";
    case ConstValue::Kind::Long: return "long";
    case ConstValue::Kind::Float: return "float";
    case ConstValue::Kind::Double: return "double";
    case ConstValue::Kind::String: return "String";
    case ConstValue::Kind::Class: return "class";
    case ConstValue::Kind::MethodType: return "MethodType";
    case ConstValue::Kind::MethodHandle: return "MethodHandle";
    case ConstValue::Kind::Dynamic: return "Dynamic";
  }
  return "?";
}

void jsonInsn(const Instruction& in, const Code& code, std::ostream& o) {
  o << "{\"pc\": " << in.pc << ", \"op\": " << jsonString(javapMnemonic(in));
  if (in.local >= 0) o << ", \"local\": " << in.local;
  switch (in.op) {
    case Opcode::bipush: case Opcode::sipush: case Opcode::iinc: o << ", \"value\": " << in.imm; break;
    case Opcode::newarray: o << ", \"type\": " << jsonString(std::string(newarrayTypeName(in.imm))); break;
    case Opcode::multianewarray: o << ", \"dimensions\": " << in.imm; break;
    case Opcode::invokeinterface: o << ", \"count\": " << in.imm; break;
    case Opcode::invokedynamic: o << ", \"bootstrap\": " << in.imm; break;
    default: break;
  }
  if (in.op == Opcode::ldc || in.op == Opcode::ldc_w || in.op == Opcode::ldc2_w) {
    const ConstValue& c = in.constant;
    o << ", \"constant\": {\"kind\": \"" << kindName(c.kind) << "\", \"value\": ";
    switch (c.kind) {
      case ConstValue::Kind::Int: case ConstValue::Kind::Long: o << c.i; break;
      case ConstValue::Kind::Float: o << num(c.d, true) << ", \"bits\": " << c.bits; break;
      case ConstValue::Kind::Double: o << num(c.d, false) << ", \"bits\": " << c.bits; break;
      default: o << jsonString(c.text); break;
    }
    o << "}";
  }
  if (!in.member.name.empty()) {
    if (!in.member.owner.empty()) o << ", \"owner\": " << jsonString(in.member.owner);
    o << ", \"name\": " << jsonString(in.member.name) << ", \"descriptor\": " << jsonString(in.member.descriptor);
    if (in.member.interface) o << ", \"interface\": true";
  }
  if (!in.type.empty()) o << ", \"class\": " << jsonString(in.type);
  if (in.op == Opcode::tableswitch || in.op == Opcode::lookupswitch) {
    o << ", \"default\": " << in.sw.default_target << ", \"cases\": [";
    for (std::size_t k = 0; k < in.sw.cases.size(); ++k)
      o << (k ? ", " : "") << "[" << in.sw.cases[k].first << ", " << in.sw.cases[k].second << "]";
    o << "]";
  } else if (in.isBranch()) {
    o << ", \"target\": " << in.target;
  }
  if (std::uint16_t line = code.lineAt(in.pc)) o << ", \"line\": " << line;
  o << "}";
}

}  // namespace

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  while (i < s.size()) {
    unsigned char b = at(i);
    unsigned cu;  // one UTF-16 code unit (modified UTF-8 encodes each unit separately)
    if (b < 0x80) {
      cu = b;
      i += 1;
    } else if ((b & 0xe0) == 0xc0 && i + 1 < s.size()) {
      cu = ((b & 0x1fu) << 6) | (at(i + 1) & 0x3fu);
      i += 2;
    } else if ((b & 0xf0) == 0xe0 && i + 2 < s.size()) {
      cu = ((b & 0x0fu) << 12) | ((at(i + 1) & 0x3fu) << 6) | (at(i + 2) & 0x3fu);
      i += 3;
    } else if ((b & 0xf8) == 0xf0 && i + 3 < s.size()) {  // standard UTF-8 (not from class files)
      unsigned cp = ((b & 0x07u) << 18) | ((at(i + 1) & 0x3fu) << 12) | ((at(i + 2) & 0x3fu) << 6) | (at(i + 3) & 0x3fu);
      i += 4;
      cp -= 0x10000;
      hex4(out, 0xd800 + (cp >> 10));
      cu = 0xdc00 + (cp & 0x3ff);
    } else {
      cu = 0xfffd;
      i += 1;
    }
    if (cu == '"') out += "\\\"";
    else if (cu == '\\') out += "\\\\";
    else if (cu == '\n') out += "\\n";
    else if (cu == '\t') out += "\\t";
    else if (cu == '\r') out += "\\r";
    else if (cu < 0x20 || cu >= 0x7f) hex4(out, cu);
    else out += static_cast<char>(cu);
  }
  return out + "\"";
}

void dumpText(const ClassFile& cf, const std::string& file, std::ostream& out) {
  out << "class " << cf.name() << "\n";
  for (const Method& m : cf.methods) {
    out << "method " << m.name << " " << m.descriptor << "\n";
    if (!m.code) continue;
    for (const Instruction& in : decode(cf, *m.code, file)) {
      out << in.pc << ": " << javapMnemonic(in);
      std::string ops = in.operandText();
      if (!ops.empty()) out << " " << escapeControls(ops);
      out << "\n";
    }
  }
}

void dumpJson(const ClassFile& cf, const std::string& file, std::ostream& out) {
  out << "{\"class\": " << jsonString(cf.name()) << ", \"methods\": [";
  bool firstMethod = true;
  for (const Method& m : cf.methods) {
    out << (firstMethod ? "" : ", ") << "{\"name\": " << jsonString(m.name)
        << ", \"descriptor\": " << jsonString(m.descriptor) << ", \"access\": " << m.access_flags << ", \"code\": ";
    firstMethod = false;
    if (!m.code) {
      out << "null}";
      continue;
    }
    out << "[";
    bool first = true;
    for (const Instruction& in : decode(cf, *m.code, file)) {
      out << (first ? "" : ", ");
      first = false;
      jsonInsn(in, *m.code, out);
    }
    out << "]}";
  }
  out << "]}\n";
}

}  // namespace pasda::jvm
