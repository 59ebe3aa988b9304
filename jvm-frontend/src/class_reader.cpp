// Class-file parser (JVMS 4.1-4.7). Everything is bounds-checked; every defect ends in a
// FormatError carrying the file, the absolute byte offset and the reason.
#include <stdexcept>
#include <string>

#include "bytes.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/instruction.hpp"

namespace pasda::jvm {

namespace detail {

std::ptrdiff_t invalidModifiedUtf8(const std::uint8_t* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    std::uint8_t b = p[i];
    if (b == 0 || b >= 0xf0) return static_cast<std::ptrdiff_t>(i);
    if (b < 0x80) {
      ++i;
    } else if ((b & 0xe0) == 0xc0) {
      if (i + 1 >= n || (p[i + 1] & 0xc0) != 0x80) return static_cast<std::ptrdiff_t>(i);
      i += 2;
    } else if ((b & 0xf0) == 0xe0) {
      if (i + 2 >= n || (p[i + 1] & 0xc0) != 0x80 || (p[i + 2] & 0xc0) != 0x80) return static_cast<std::ptrdiff_t>(i);
      i += 3;
    } else {
      return static_cast<std::ptrdiff_t>(i);  // stray continuation byte
    }
  }
  return -1;
}

}  // namespace detail

namespace {

using detail::Reader;

const char* tagName(CpTag t) {
  switch (t) {
    case CpTag::Utf8: return "Utf8";
    case CpTag::Integer: return "Integer";
    case CpTag::Float: return "Float";
    case CpTag::Long: return "Long";
    case CpTag::Double: return "Double";
    case CpTag::Class: return "Class";
    case CpTag::String: return "String";
    case CpTag::Fieldref: return "Fieldref";
    case CpTag::Methodref: return "Methodref";
    case CpTag::InterfaceMethodref: return "InterfaceMethodref";
    case CpTag::NameAndType: return "NameAndType";
    case CpTag::MethodHandle: return "MethodHandle";
    case CpTag::MethodType: return "MethodType";
    case CpTag::Dynamic: return "Dynamic";
    case CpTag::InvokeDynamic: return "InvokeDynamic";
    case CpTag::Module: return "Module";
    case CpTag::Package: return "Package";
    case CpTag::None: break;
  }
  return "unusable";
}

class Parser {
 public:
  Parser(const std::vector<std::uint8_t>& bytes, const std::string& file)
      : file_(file), in_(bytes.data(), bytes.size(), file) {}

  ClassFile run() {
    ClassFile cf;
    cf.source_file_path = file_;
    if (in_.u4("magic") != 0xCAFEBABEu) in_.failAt(0, "bad magic number (not a class file)");
    cf.minor_version = in_.u2("minor_version");
    std::size_t majorAt = in_.offset();
    cf.major_version = in_.u2("major_version");
    if (cf.major_version < 45 || cf.major_version > 69)
      in_.failAt(majorAt, "unsupported class-file version " + std::to_string(cf.major_version) + "." +
                              std::to_string(cf.minor_version) + " (supported: 45 to 69)");
    readPool(cf.pool);
    pool_ = &cf.pool;
    cf.access_flags = in_.u2("access_flags");
    std::size_t at = in_.offset();
    cf.this_class = classRef(in_.u2("this_class"), at, false);
    at = in_.offset();
    cf.super_class = classRef(in_.u2("super_class"), at, true);
    std::uint16_t ni = in_.u2("interfaces_count");
    for (std::uint16_t i = 0; i < ni; ++i) {
      at = in_.offset();
      cf.interfaces.push_back(classRef(in_.u2("interface"), at, false));
    }
    std::uint16_t nf = in_.u2("fields_count");
    for (std::uint16_t i = 0; i < nf; ++i) cf.fields.push_back(readMember(false));
    std::uint16_t nm = in_.u2("methods_count");
    for (std::uint16_t i = 0; i < nm; ++i) cf.methods.push_back(readMember(true));
    cf.attributes = readAttributes(in_);
    if (!in_.atEnd()) in_.fail("extra bytes after the end of the class file");
    // Decode every method body so that bad opcodes, operands and branch targets surface here.
    for (const Method& m : cf.methods)
      if (m.code) (void)decode(cf, *m.code, file_);
    return cf;
  }

 private:
  void readPool(ConstantPool& pool) {
    std::uint16_t count = in_.u2("constant_pool_count");
    if (count == 0) in_.failAt(in_.offset() - 2, "constant_pool_count is 0");
    pool.entries.assign(1, CpEntry{});
    pool.entries.reserve(count);
    std::vector<std::size_t> offsets(count, 0);
    for (std::uint32_t i = 1; i < count; ++i) {
      offsets[i] = in_.offset();
      CpEntry e;
      std::uint8_t tag = in_.u1("constant-pool tag");
      switch (tag) {
        case 1: {
          std::uint16_t len = in_.u2("Utf8 length");
          std::size_t at = in_.offset();
          const std::uint8_t* p = in_.bytes(len, "Utf8 bytes");
          std::ptrdiff_t bad = detail::invalidModifiedUtf8(p, len);
          if (bad >= 0) in_.failAt(at + static_cast<std::size_t>(bad), "malformed modified UTF-8 in constant " + std::to_string(i));
          e.utf8.assign(reinterpret_cast<const char*>(p), len);
          break;
        }
        case 3: case 4: e.value = in_.u4("constant value"); break;
        case 5: case 6: {
          std::uint64_t hi = in_.u4("constant value");
          e.value = (hi << 32) | in_.u4("constant value");
          if (i + 1 >= count) in_.failAt(offsets[i], "Long/Double constant in the last constant-pool slot");
          break;
        }
        case 7: case 8: case 16: case 19: case 20: e.ref1 = in_.u2("constant reference"); break;
        case 9: case 10: case 11: case 12: case 17: case 18:
          e.ref1 = in_.u2("constant reference");
          e.ref2 = in_.u2("constant reference");
          break;
        case 15:
          e.kind = in_.u1("MethodHandle kind");
          e.ref1 = in_.u2("MethodHandle reference");
          if (e.kind < 1 || e.kind > 9) in_.failAt(offsets[i] + 1, "bad MethodHandle reference kind " + std::to_string(e.kind));
          break;
        default:
          in_.failAt(offsets[i], "bad constant-pool tag " + std::to_string(tag) + " at index " + std::to_string(i));
      }
      e.tag = static_cast<CpTag>(tag);
      pool.entries.push_back(std::move(e));
      if (tag == 5 || tag == 6) {
        pool.entries.push_back(CpEntry{});
        ++i;
      }
    }
    // Cross-references: every index must name an entry of the right kind.
    for (std::uint32_t i = 1; i < count; ++i) {
      const CpEntry& e = pool.entries[i];
      auto want = [&](std::uint16_t ref, std::initializer_list<CpTag> tags) {
        if (pool.valid(ref))
          for (CpTag t : tags)
            if (pool.entries[ref].tag == t) return;
        in_.failAt(offsets[i], std::string(tagName(e.tag)) + " constant " + std::to_string(i) +
                                   " has bad constant-pool reference " + std::to_string(ref));
      };
      switch (e.tag) {
        case CpTag::Class: case CpTag::String: case CpTag::MethodType: case CpTag::Module: case CpTag::Package:
          want(e.ref1, {CpTag::Utf8});
          break;
        case CpTag::Fieldref: case CpTag::Methodref: case CpTag::InterfaceMethodref:
          want(e.ref1, {CpTag::Class});
          want(e.ref2, {CpTag::NameAndType});
          break;
        case CpTag::NameAndType:
          want(e.ref1, {CpTag::Utf8});
          want(e.ref2, {CpTag::Utf8});
          break;
        case CpTag::MethodHandle:
          if (e.kind <= 4) want(e.ref1, {CpTag::Fieldref});
          else want(e.ref1, {CpTag::Methodref, CpTag::InterfaceMethodref});
          break;
        case CpTag::Dynamic: case CpTag::InvokeDynamic: want(e.ref2, {CpTag::NameAndType}); break;
        default: break;
      }
    }
  }

  std::uint16_t classRef(std::uint16_t index, std::size_t at, bool zeroOk) const {
    if (index == 0 && zeroOk) return 0;
    if (!pool_->valid(index) || pool_->entries[index].tag != CpTag::Class)
      in_.failAt(at, "constant-pool index " + std::to_string(index) + " is not a Class entry");
    return index;
  }

  const std::string& utf8At(std::uint16_t index, std::size_t at, const char* what) const {
    if (!pool_->valid(index) || pool_->entries[index].tag != CpTag::Utf8)
      in_.failAt(at, std::string(what) + ": constant-pool index " + std::to_string(index) + " is not a Utf8 entry");
    return pool_->entries[index].utf8;
  }

  std::vector<Attribute> readAttributes(Reader& r) {
    std::vector<Attribute> out;
    std::uint16_t n = r.u2("attributes_count");
    for (std::uint16_t i = 0; i < n; ++i) {
      Attribute a;
      std::size_t at = r.offset();
      a.name_index = r.u2("attribute name");
      utf8At(a.name_index, at, "attribute name");
      std::uint32_t len = r.u4("attribute length");
      const std::uint8_t* p = r.bytes(len, "attribute body");
      a.data.assign(p, p + len);
      out.push_back(std::move(a));
    }
    return out;
  }

  Member readMember(bool method) {
    Member m;
    m.access_flags = in_.u2("access_flags");
    std::size_t at = in_.offset();
    m.name_index = in_.u2("member name");
    m.name = utf8At(m.name_index, at, "member name");
    at = in_.offset();
    m.descriptor_index = in_.u2("member descriptor");
    m.descriptor = utf8At(m.descriptor_index, at, "member descriptor");
    try {
      if (method) (void)parseMethodDescriptor(m.descriptor);
      else (void)parseFieldDescriptor(m.descriptor);
    } catch (const std::invalid_argument& e) {
      in_.failAt(at, std::string("bad ") + (method ? "method" : "field") + " descriptor: " + e.what());
    }
    std::size_t attrsAt = in_.offset();
    m.attributes = readAttributes(in_);
    if (method) {
      // Re-walk the attribute headers to find each body's absolute offset.
      std::size_t off = attrsAt + 2;
      for (const Attribute& a : m.attributes) {
        std::size_t body = off + 6;
        if (pool_->entries[a.name_index].utf8 == "Code") {
          if (m.code) in_.failAt(off, "method " + m.name + " has two Code attributes");
          m.code = readCode(a, body);
        }
        off = body + a.data.size();
      }
    }
    return m;
  }

  Code readCode(const Attribute& a, std::size_t base) {
    Reader r(a.data.data(), a.data.size(), file_, base);
    Code c;
    c.max_stack = r.u2("max_stack");
    c.max_locals = r.u2("max_locals");
    std::size_t lenAt = r.offset();
    std::uint32_t len = r.u4("code_length");
    if (len == 0 || len > 0xffff) r.failAt(lenAt, "code_length " + std::to_string(len) + " out of range (1 to 65535)");
    c.file_offset = static_cast<std::uint32_t>(r.offset());
    const std::uint8_t* p = r.bytes(len, "code");
    c.bytes.assign(p, p + len);
    std::uint16_t nh = r.u2("exception_table_length");
    for (std::uint16_t i = 0; i < nh; ++i) {
      std::size_t at = r.offset();
      ExceptionHandler h;
      h.start_pc = r.u2("exception table");
      h.end_pc = r.u2("exception table");
      h.handler_pc = r.u2("exception table");
      h.catch_type = r.u2("exception table");
      if (h.start_pc >= h.end_pc || h.end_pc > len || h.handler_pc >= len)
        r.failAt(at, "exception-table entry out of range");
      if (h.catch_type != 0) classRef(h.catch_type, at + 6, false);
      c.handlers.push_back(h);
    }
    std::size_t subAt = r.offset();
    c.attributes = readAttributes(r);
    if (!r.atEnd()) r.fail("Code attribute length does not match its contents");
    std::size_t off = subAt + 2;
    for (const Attribute& s : c.attributes) {
      std::size_t body = off + 6;
      const std::string& name = pool_->entries[s.name_index].utf8;
      if (name == "LineNumberTable") readLines(s, body, len, c);
      else if (name == "LocalVariableTable") readLocals(s, body, len, c);
      off = body + s.data.size();
    }
    return c;
  }

  void readLines(const Attribute& s, std::size_t base, std::uint32_t codeLen, Code& c) {
    Reader r(s.data.data(), s.data.size(), file_, base);
    std::uint16_t n = r.u2("line_number_table_length");
    for (std::uint16_t i = 0; i < n; ++i) {
      LineNumber ln;
      ln.start_pc = r.u2("line number entry");
      ln.line = r.u2("line number entry");
      if (ln.start_pc >= codeLen) r.failAt(r.offset() - 4, "line-number start_pc out of range");
      c.line_numbers.push_back(ln);
    }
    if (!r.atEnd()) r.fail("LineNumberTable length does not match its contents");
  }

  void readLocals(const Attribute& s, std::size_t base, std::uint32_t codeLen, Code& c) {
    Reader r(s.data.data(), s.data.size(), file_, base);
    std::uint16_t n = r.u2("local_variable_table_length");
    for (std::uint16_t i = 0; i < n; ++i) {
      std::size_t at = r.offset();
      LocalVariable v;
      v.start_pc = r.u2("local variable entry");
      v.length = r.u2("local variable entry");
      std::uint16_t ni = r.u2("local variable entry");
      std::uint16_t di = r.u2("local variable entry");
      v.index = r.u2("local variable entry");
      if (std::uint32_t{v.start_pc} + v.length > codeLen) r.failAt(at, "local-variable range out of code");
      v.name = utf8At(ni, at + 4, "local variable name");
      v.descriptor = utf8At(di, at + 6, "local variable descriptor");
      c.local_variables.push_back(std::move(v));
    }
    if (!r.atEnd()) r.fail("LocalVariableTable length does not match its contents");
  }

  const std::string& file_;
  Reader in_;
  const ConstantPool* pool_ = nullptr;
};

}  // namespace

ClassFile parseClass(const std::vector<std::uint8_t>& bytes, const std::string& file) {
  return Parser(bytes, file).run();
}

}  // namespace pasda::jvm
