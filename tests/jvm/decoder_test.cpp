// Hand-assembled code for opcodes javac does not emit (nop, swap, jsr/ret, goto_w, jsr_w, wide),
// switch padding at every alignment, descriptor parsing and the --dump listings.
#include <gtest/gtest.h>

#include <sstream>

#include "pasda/jvm/cfg.hpp"
#include "pasda/jvm/descriptor.hpp"
#include "pasda/jvm/dump.hpp"
#include "pasda/jvm/errors.hpp"
#include "pasda/jvm/instruction.hpp"
#include "support.hpp"

namespace pasda::jvm::test {
namespace {

ClassFile emptyClass() {
  ClassFile cf;
  cf.major_version = 49;
  cf.this_class = cf.pool.addClass("T");
  cf.super_class = cf.pool.addClass("java/lang/Object");
  return cf;
}

Code codeOf(std::vector<std::uint8_t> bytes) {
  Code c;
  c.bytes = std::move(bytes);
  return c;
}

TEST(Decoder, OpcodesJavacDoesNotEmit) {
  ClassFile cf = emptyClass();
  std::vector<std::uint8_t> b = {0x00, 0x5f, 0xa8, 0x00, 0x08, 0xc8, 0x00, 0x00, 0x00, 0x0b,
                                 0x4c, 0xc4, 0x15, 0x01, 0x2c, 0xc4, 0x84, 0x01, 0x2c, 0xff, 0x38,
                                 0xc9, 0xff, 0xff, 0xff, 0xf5, 0xa9, 0x01, 0xc4, 0xa9, 0x01, 0x00};
  // pcs: 0 nop, 1 swap, 2 jsr->10, 5 goto_w->16, 10 astore_1, 11 wide iload 300, 15 wide iinc 300 -200,
  // 21 jsr_w -11 (->10), 26 ret 1, 28 wide ret 256
  b[9] = 0x0a;  // goto_w +10 -> 15
  Code c = codeOf(b);
  auto insns = decode(cf, c, "T");
  std::vector<std::string> names;
  for (const auto& i : insns) names.push_back(javapMnemonic(i) + "@" + std::to_string(i.pc));
  EXPECT_EQ(names, (std::vector<std::string>{"nop@0", "swap@1", "jsr@2", "goto_w@5", "astore_1@10", "iload_w@11",
                                             "iinc_w@15", "jsr_w@21", "ret@26", "ret_w@28"}));
  EXPECT_EQ(insns[2].target, 10);
  EXPECT_EQ(insns[3].target, 15);
  EXPECT_EQ(insns[5].local, 300);
  EXPECT_EQ(insns[6].local, 300);
  EXPECT_EQ(insns[6].imm, -200);
  EXPECT_EQ(insns[6].length, 6u);
  EXPECT_EQ(insns[7].target, 10);
  EXPECT_EQ(insns[8].local, 1);
  EXPECT_EQ(insns[9].local, 256);
  Cfg g = buildCfg(cf, c, "T");
  EXPECT_FALSE(g.blocks.empty());
}

TEST(Decoder, SwitchPaddingAtEveryAlignment) {
  ClassFile cf = emptyClass();
  for (int pre = 0; pre < 4; ++pre) {
    std::vector<std::uint8_t> b(static_cast<std::size_t>(pre), 0x00);  // nops
    std::size_t pc = b.size();
    b.push_back(0xaa);  // tableswitch
    while (b.size() % 4) b.push_back(0);
    auto s4 = [&](std::int32_t v) {
      for (int k = 3; k >= 0; --k) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> (8 * k)));
    };
    std::size_t end = b.size() + 12 + 8;  // default, low, high, 2 offsets
    std::int32_t rel = static_cast<std::int32_t>(end - pc);
    s4(rel);
    s4(-1);
    s4(0);
    s4(rel);
    s4(rel);
    b.push_back(0xb1);  // return at `end`
    // lookupswitch after it
    std::size_t lpc = b.size();
    b.push_back(0xab);
    while (b.size() % 4) b.push_back(0);
    s4(static_cast<std::int32_t>(end) - static_cast<std::int32_t>(lpc));
    s4(2);
    s4(-5);
    s4(static_cast<std::int32_t>(end) - static_cast<std::int32_t>(lpc));
    s4(9);
    s4(static_cast<std::int32_t>(end) - static_cast<std::int32_t>(lpc));
    Code c = codeOf(b);
    auto insns = decode(cf, c, "T");
    ASSERT_EQ(insns.size(), static_cast<std::size_t>(pre) + 3) << pre;
    const Instruction& t = insns[static_cast<std::size_t>(pre)];
    EXPECT_EQ(t.op, Opcode::tableswitch);
    EXPECT_EQ(t.sw.low, -1);
    EXPECT_EQ(t.sw.high, 0);
    EXPECT_EQ(t.sw.default_target, static_cast<std::int32_t>(end));
    EXPECT_EQ(t.pc + t.length, end);
    const Instruction& l = insns.back();
    EXPECT_EQ(l.op, Opcode::lookupswitch);
    ASSERT_EQ(l.sw.cases.size(), 2u);
    EXPECT_EQ(l.sw.cases[1].first, 9);
    EXPECT_EQ(l.sw.cases[1].second, static_cast<std::int32_t>(end));
    // Cut the lookupswitch short: a FormatError, not an overread.
    Code cut = codeOf(std::vector<std::uint8_t>(b.begin(), b.end() - 3));
    EXPECT_THROW(decode(cf, cut, "T"), FormatError);
  }
}

TEST(Decoder, MalformedHandAssembledCode) {
  ClassFile cf = emptyClass();
  auto bad = [&](std::vector<std::uint8_t> b) { EXPECT_THROW(decode(cf, codeOf(std::move(b)), "T"), FormatError); };
  bad({});                                  // empty code
  bad({0xc4, 0x60, 0x00, 0x01});            // wide iadd
  bad({0xa7, 0x00, 0x01, 0x00});            // goto into itself's operand... target 1 is mid-instruction
  bad({0xa7, 0xff, 0xff});                  // goto -1
  bad({0xc8, 0x7f, 0xff, 0xff, 0xff});      // goto_w far away
  bad({0xaa, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});  // tableswitch low 1 > high 0
  bad({0x12, 0x00});                        // ldc #0
  bad({0x12, 0x01});                        // ldc of a Class's Utf8 entry (tag Utf8 is not loadable)
  bad({0xb2, 0x00, 0x02});                  // getstatic of a Class entry
  bad({0xbc, 0x03});                        // newarray with atype 3
  bad({0xc5, 0x00, 0x02, 0x00});            // multianewarray with 0 dimensions
  bad({0xb9, 0x00, 0x02, 0x01, 0x00});      // invokeinterface of a Class entry
  Code h = codeOf({0x00, 0x00, 0xb1});
  h.handlers.push_back({0, 5, 1, 0});      // end beyond code
  EXPECT_THROW(decode(cf, h, "T"), FormatError);
}

TEST(Descriptor, ParseAndReject) {
  MethodDesc m = parseMethodDescriptor("(IJ[[Ljava/lang/String;D)V");
  ASSERT_EQ(m.params.size(), 4u);
  EXPECT_EQ(m.paramSlots(), 1 + 2 + 1 + 2);
  EXPECT_EQ(m.params[2].kind, '[');
  EXPECT_EQ(m.params[2].elementDescriptor(), "[Ljava/lang/String;");
  EXPECT_EQ(m.params[2].javaName(), "java.lang.String[][]");
  EXPECT_EQ(m.ret.kind, 'V');
  EXPECT_EQ(parseFieldDescriptor("Ljava/lang/Object;").className(), "java/lang/Object");
  for (const char* badDesc : {"", "(", "(I", "(V)V", "()", "(I)VV", "L;", "Ljava/lang/Object", "[", "X", "V"})
    EXPECT_THROW(parseFieldDescriptor(badDesc), std::invalid_argument) << badDesc;
  for (const char* badDesc : {"", "I", "(", "(I", "(V)V", "()", "(I)VV", "(L;)V"})
    EXPECT_THROW(parseMethodDescriptor(badDesc), std::invalid_argument) << badDesc;
}

TEST(Dump, TextAndJson) {
  ClassFile cf = loadClassFile(fixtureClass("Flow"));
  std::ostringstream text, json;
  dumpText(cf, "Flow.class", text);
  dumpJson(cf, "Flow.class", json);
  std::string t = text.str(), j = json.str();
  EXPECT_EQ(t.rfind("class Flow\n", 0), 0u);
  EXPECT_NE(t.find("method table (I)I\n0: iload_0\n1: tableswitch { 1: "), std::string::npos) << t;
  EXPECT_NE(t.find("invokevirtual java/lang/String.hashCode:()I"), std::string::npos);
  EXPECT_NE(j.find("{\"class\": \"Flow\", \"methods\": [{\"name\": \"<init>\", \"descriptor\": \"()V\""), std::string::npos) << j;
  EXPECT_NE(j.find("{\"pc\": 0, \"op\": \"iload_0\", \"local\": 0"), std::string::npos);
  EXPECT_NE(j.find("\"op\": \"tableswitch\""), std::string::npos);
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < j.size(); ++i) {
    char ch = j[i];
    if (inString) {
      if (ch == '\\') ++i;
      else if (ch == '"') inString = false;
      else EXPECT_GE(static_cast<unsigned char>(ch), 0x20);
    } else if (ch == '"') {
      inString = true;
    } else if (ch == '{' || ch == '[') {
      ++depth;
    } else if (ch == '}' || ch == ']') {
      --depth;
      EXPECT_GE(depth, 0);
    }
  }
  EXPECT_EQ(depth, 0);
  EXPECT_FALSE(inString);
  // Modified UTF-8: "\0" is C0 80, U+1F600 is a surrogate pair of 3-byte units.
  std::string mutf8 = std::string("a\"b\\c\n") + "\xc0\x80" + "\xed\xa0\xbd\xed\xb8\x80";
  EXPECT_EQ(jsonString(mutf8), "\"a\\\"b\\\\c\\n\\u0000\\ud83d\\ude00\"");
}

}  // namespace
}  // namespace pasda::jvm::test
