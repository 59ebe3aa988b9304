// The class-file model: a plain value that mirrors the class-file structure closely enough
// that parse-then-write reproduces the input byte for byte, and that can be edited.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pasda::jvm {

enum class CpTag : std::uint8_t {
  None = 0,  // index 0 and the second slot of a Long/Double
  Utf8 = 1, Integer = 3, Float = 4, Long = 5, Double = 6, Class = 7, String = 8,
  Fieldref = 9, Methodref = 10, InterfaceMethodref = 11, NameAndType = 12,
  MethodHandle = 15, MethodType = 16, Dynamic = 17, InvokeDynamic = 18, Module = 19, Package = 20,
};

struct CpEntry {
  CpTag tag = CpTag::None;
  std::string utf8;          // Utf8: the raw (modified UTF-8) bytes, validated on parse
  std::uint64_t value = 0;   // Integer/Float (low 32 bits, raw), Long/Double (raw 64 bits)
  std::uint16_t ref1 = 0;    // Class/String/MethodType/Module/Package: utf8 index; *ref: class;
                             // NameAndType: name; MethodHandle: reference; Dynamic/Indy: bootstrap index
  std::uint16_t ref2 = 0;    // *ref: name_and_type; NameAndType: descriptor; Dynamic/Indy: name_and_type
  std::uint8_t kind = 0;     // MethodHandle reference_kind
};

struct MemberRef {
  std::string owner;       // internal name, e.g. java/lang/Math
  std::string name;
  std::string descriptor;
  bool interface = false;  // InterfaceMethodref
};

class ConstantPool {
 public:
  std::vector<CpEntry> entries{1};  // entries[0] unused; size() is constant_pool_count

  std::size_t count() const { return entries.size(); }
  bool valid(std::uint16_t index) const;  // in range and not a None slot
  const CpEntry& at(std::uint16_t index) const;  // throws std::out_of_range
  const std::string& utf8(std::uint16_t index) const;  // throws std::out_of_range if not Utf8
  std::string className(std::uint16_t classIndex) const;
  MemberRef member(std::uint16_t refIndex) const;  // Fieldref/Methodref/InterfaceMethodref
  std::pair<std::string, std::string> nameAndType(std::uint16_t index) const;

  // Adders return the index of an existing equal entry when there is one.
  std::uint16_t addUtf8(std::string_view s);
  std::uint16_t addClass(std::string_view internalName);
  std::uint16_t addString(std::string_view s);
  std::uint16_t addInteger(std::int32_t v);
  std::uint16_t addFloat(float v);
  std::uint16_t addLong(std::int64_t v);
  std::uint16_t addDouble(double v);
  std::uint16_t addNameAndType(std::string_view name, std::string_view descriptor);
  std::uint16_t addFieldref(std::string_view owner, std::string_view name, std::string_view desc);
  std::uint16_t addMethodref(std::string_view owner, std::string_view name, std::string_view desc,
                             bool interface = false);
};

/// An attribute kept as raw bytes (name by constant-pool index, body as in the file).
struct Attribute {
  std::uint16_t name_index = 0;
  std::vector<std::uint8_t> data;
};

struct ExceptionHandler {
  std::uint16_t start_pc = 0, end_pc = 0, handler_pc = 0;
  std::uint16_t catch_type = 0;  // 0 = any (finally)
};

struct LineNumber {
  std::uint16_t start_pc = 0;
  std::uint16_t line = 0;
};

struct LocalVariable {
  std::uint16_t start_pc = 0, length = 0;
  std::string name, descriptor;
  std::uint16_t index = 0;
};

struct Code {
  std::uint16_t max_stack = 0, max_locals = 0;
  std::vector<std::uint8_t> bytes;
  std::vector<ExceptionHandler> handlers;
  std::vector<Attribute> attributes;  // raw sub-attributes, in file order (written as they are)
  // Decoded views of LineNumberTable / LocalVariableTable (filled on parse; not written back).
  std::vector<LineNumber> line_numbers;
  std::vector<LocalVariable> local_variables;
  /// Byte offset of the code array in the parsed file (0 if built in memory); decode errors
  /// report file_offset + pc.
  std::uint32_t file_offset = 0;
  /// Source line of the instruction at `pc` (0 if unknown).
  std::uint16_t lineAt(std::uint32_t pc) const;
};

struct Member {  // a field or a method
  std::uint16_t access_flags = 0;
  std::uint16_t name_index = 0, descriptor_index = 0;
  std::string name, descriptor;       // resolved copies of the two indices
  std::vector<Attribute> attributes;  // raw, in file order; the Code attribute's slot is re-written from `code`
  std::optional<Code> code;           // methods with a Code attribute
  bool isStatic() const { return access_flags & 0x0008; }
  bool isAbstract() const { return access_flags & 0x0400; }
  bool isNative() const { return access_flags & 0x0100; }
};
using Field = Member;
using Method = Member;

namespace acc {
inline constexpr std::uint16_t Public = 0x0001, Private = 0x0002, Protected = 0x0004, Static = 0x0008,
                               Final = 0x0010, Super = 0x0020, Synchronized = 0x0020, Volatile = 0x0040,
                               Bridge = 0x0040, Transient = 0x0080, Varargs = 0x0080, Native = 0x0100,
                               Interface = 0x0200, Abstract = 0x0400, Strict = 0x0800, Synthetic = 0x1000,
                               Annotation = 0x2000, Enum = 0x4000, Module = 0x8000;
}

struct ClassFile {
  std::uint16_t minor_version = 0, major_version = 0;
  ConstantPool pool;
  std::uint16_t access_flags = 0;
  std::uint16_t this_class = 0, super_class = 0;
  std::vector<std::uint16_t> interfaces;
  std::vector<Field> fields;
  std::vector<Method> methods;
  std::vector<Attribute> attributes;  // raw, in file order
  std::string source_file_path;       // where it was read from ("" if built in memory)

  std::string name() const;        // internal name of this_class, e.g. demo/Foo
  std::string superName() const;   // "" for java/lang/Object itself
  const Method* findMethod(std::string_view name, std::string_view descriptor) const;
  Method* findMethod(std::string_view name, std::string_view descriptor);
  const Field* findField(std::string_view name, std::string_view descriptor) const;
  std::string sourceFile() const;  // SourceFile attribute, "" if absent
};

/// Parse a class file; `file` names the input in errors. Throws FormatError.
ClassFile parseClass(const std::vector<std::uint8_t>& bytes, const std::string& file);
/// Serialise; parse-then-write is byte-identical. Throws std::logic_error on an inconsistent model.
std::vector<std::uint8_t> writeClass(const ClassFile& cf);

/// Rename a class everywhere in `cf`: this_class, Class entries, descriptors and signatures
/// that mention `from` (internal names). Edits the constant pool in place.
void renameClass(ClassFile& cf, std::string_view from, std::string_view to);

/// The first attribute called `name` in `attrs`, or nullptr.
const Attribute* findAttribute(const ConstantPool& pool, const std::vector<Attribute>& attrs, std::string_view name);

/// Append a method. With `code`, a "Code" attribute slot is added whose body writeClass
/// serialises from Method::code. Note: classes of major version >= 50 need a StackMapTable
/// for code with branches; code built in memory without one should be emitted as major 49.
Method& addMethod(ClassFile& cf, std::uint16_t access, std::string_view name, std::string_view descriptor,
                  std::optional<Code> code);

}  // namespace pasda::jvm
