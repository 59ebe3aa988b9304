// Editing and writing: renameClass, addMethod, a class built in memory; the results load and
// run in a real JVM with -Xverify:all.
#include <gtest/gtest.h>

#include "pasda/jvm/instruction.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

void putU2(std::vector<std::uint8_t>& c, std::uint16_t v) {
  c.push_back(static_cast<std::uint8_t>(v >> 8));
  c.push_back(static_cast<std::uint8_t>(v));
}

CommandResult runJava(const std::string& cp, const std::string& mainClass) {
  return runCommand(shellQuote(PASDA_JAVA) + " -Xverify:all -Xshare:off -cp " + shellQuote(cp) + " " + mainClass +
                    " 2>&1");
}

/// main(String[]) printing each `static int name(int, int)` call's result with println(I).
Code printCalls(ConstantPool& pool, const std::string& owner, const std::string& name, const std::string& desc,
                const std::vector<std::pair<int, int>>& args) {
  Code c;
  c.max_stack = 3;
  c.max_locals = 1;
  std::uint16_t out = pool.addFieldref("java/lang/System", "out", "Ljava/io/PrintStream;");
  std::uint16_t callee = pool.addMethodref(owner, name, desc);
  std::uint16_t println = pool.addMethodref("java/io/PrintStream", "println", "(I)V");
  for (auto [a, b] : args) {
    c.bytes.push_back(0xb2);  // getstatic
    putU2(c.bytes, out);
    c.bytes.push_back(0x10);  // bipush a
    c.bytes.push_back(static_cast<std::uint8_t>(a));
    if (desc == "(II)I") {
      c.bytes.push_back(0x10);  // bipush b
      c.bytes.push_back(static_cast<std::uint8_t>(b));
    }
    c.bytes.push_back(0xb8);  // invokestatic
    putU2(c.bytes, callee);
    c.bytes.push_back(0xb6);  // invokevirtual println
    putU2(c.bytes, println);
  }
  c.bytes.push_back(0xb1);  // return
  return c;
}

TEST(Writer, ClassBuiltInMemoryWithBranchLoadsAsVersion49) {
  ClassFile cf;
  cf.major_version = 49;  // no StackMapTable needed for code with branches
  cf.access_flags = acc::Public | acc::Super;
  cf.this_class = cf.pool.addClass("GenMax");
  cf.super_class = cf.pool.addClass("java/lang/Object");
  Code max;
  max.max_stack = 2;
  max.max_locals = 2;
  // iload_0 iload_1 if_icmplt +5 iload_0 ireturn iload_1 ireturn
  max.bytes = {0x1a, 0x1b, 0xa1, 0x00, 0x05, 0x1a, 0xac, 0x1b, 0xac};
  addMethod(cf, acc::Public | acc::Static, "max", "(II)I", max);
  addMethod(cf, acc::Public | acc::Static, "main", "([Ljava/lang/String;)V",
            printCalls(cf.pool, "GenMax", "max", "(II)I", {{3, 7}, {9, 2}, {-4, -5}}));
  auto bytes = writeClass(cf);
  ClassFile back = parseClass(bytes, "GenMax.class");
  EXPECT_EQ(writeClass(back), bytes);
  auto insns = decode(back, *back.findMethod("max", "(II)I")->code, "GenMax.class");
  ASSERT_EQ(insns.size(), 7u);
  EXPECT_EQ(insns[2].op, Opcode::if_icmplt);
  EXPECT_EQ(insns[2].target, 7);

  TempDir dir("gen");
  writeBytes(dir.file("GenMax.class"), bytes);
  CommandResult r = runJava(dir.path(), "GenMax");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("7\n9\n-4\n"), std::string::npos) << r.output;
}

TEST(Writer, RenameAndAddMethodLoadsUnderVerifier) {
  ClassFile cf = loadClassFile(fixtureClass("Renamable"));
  renameClass(cf, "Renamable", "pkg/Renamed");
  EXPECT_EQ(cf.name(), "pkg/Renamed");
  for (std::uint16_t i = 1; i < cf.pool.count(); ++i)
    if (cf.pool.entries[i].tag == CpTag::Class) {
      EXPECT_NE(cf.pool.className(i), "Renamable");
    }
  ASSERT_NE(cf.findMethod("make", "(I)Lpkg/Renamed;"), nullptr);
  ASSERT_NE(cf.findField("instance", "Lpkg/Renamed;"), nullptr);
  for (const Method& m : cf.methods) {
    if (!m.code) continue;
    for (const Instruction& i : decode(cf, *m.code, "x"))
      if (!i.member.owner.empty()) {
        EXPECT_NE(i.member.owner, "Renamable");
      }
    for (const LocalVariable& v : m.code->local_variables) EXPECT_EQ(v.descriptor.find("LRenamable;"), std::string::npos);
  }
  // Straight-line code needs no StackMapTable, so the class keeps its javac version.
  addMethod(cf, acc::Public | acc::Static, "main", "([Ljava/lang/String;)V",
            printCalls(cf.pool, "pkg/Renamed", "viaInstance", "(I)I", {{4, 0}, {10, 0}}));
  auto bytes = writeClass(cf);
  ClassFile back = parseClass(bytes, "Renamed.class");
  EXPECT_EQ(writeClass(back), bytes);

  TempDir dir("rename");
  writeBytes(dir.file("pkg/Renamed.class"), bytes);
  CommandResult r = runJava(dir.path(), "pkg.Renamed");
  EXPECT_EQ(r.status, 0) << r.output;
  // viaInstance(x) = (x + 1) * 2 + x + 3
  EXPECT_NE(r.output.find("17\n35\n"), std::string::npos) << r.output;
}

TEST(Writer, InconsistentModelIsALogicError) {
  ClassFile cf = loadClassFile(fixtureClass("Slots"));
  Method m = cf.methods.front();
  m.attributes.clear();  // code but no Code slot
  cf.methods.push_back(m);
  EXPECT_THROW(writeClass(cf), std::logic_error);
  ClassFile cf2 = loadClassFile(fixtureClass("Arith"));
  cf2.pool.entries.push_back(CpEntry{});  // a None slot not after a Long/Double
  EXPECT_THROW(writeClass(cf2), std::logic_error);
}

TEST(Writer, PoolAddersReuseEqualEntries) {
  ConstantPool p;
  std::uint16_t a = p.addMethodref("a/B", "m", "()V");
  EXPECT_EQ(p.addMethodref("a/B", "m", "()V"), a);
  std::uint16_t l = p.addLong(5);
  EXPECT_EQ(p.entries[l + 1].tag, CpTag::None);
  EXPECT_EQ(p.addLong(5), l);
  EXPECT_NE(p.addDouble(5.0), l);
  EXPECT_EQ(p.member(a).owner, "a/B");
  EXPECT_THROW(p.utf8(a), std::out_of_range);
  EXPECT_THROW(p.at(static_cast<std::uint16_t>(l + 1)), std::out_of_range);
}

}  // namespace
}  // namespace pasda::jvm::test
