// Summarisable loops (src/diff/loops.cpp) on tests/fixtures/realcode/loops: what each loop reads,
// writes, where it exits and what it may throw; loops with heap effects or field reads have none.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <tuple>
#include <string>

#include "pasda/diff/loops.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using pasda::diff::LoopSummary;
using pasda::diff::summarisableLoops;

class Loops : public ::testing::Test {
 protected:
  void SetUp() override {
    cp_.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loops/old");
    cls_ = cp_.load("realcode/loops/Scan");
    ASSERT_NE(cls_, nullptr);
  }
  std::vector<LoopSummary> of(const char* name, const char* desc, std::vector<std::string>* why = nullptr) {
    const pasda::jvm::Method* m = cls_->findMethod(name, desc);
    EXPECT_NE(m, nullptr) << name;
    return m ? summarisableLoops(*cls_, *m, why) : std::vector<LoopSummary>{};
  }
  pasda::jvm::ClassPath cp_;
  const pasda::jvm::ClassFile* cls_ = nullptr;
};

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST_F(Loops, ASearchLoopReadsItsArrayAndReturnsFromInside) {
  auto loops = of("find", "([II)I");
  ASSERT_EQ(loops.size(), 1u);
  const LoopSummary& l = loops[0];
  EXPECT_EQ(l.ref_reads, std::vector<int>{0});                          // the array a
  EXPECT_NE(std::find(l.reads.begin(), l.reads.end(), std::make_pair(1, 'I')), l.reads.end());  // v
  EXPECT_NE(std::find(l.writes.begin(), l.writes.end(), std::make_pair(2, 'I')), l.writes.end());  // i
  // `return i` is no part of the natural loop (it never reaches the back edge): an exit, like
  // the one on to `return -1`.
  EXPECT_TRUE(l.returns.empty());
  EXPECT_EQ(l.exits.size(), 2u);
  EXPECT_TRUE(has(l.exceptions, "java/lang/ArrayIndexOutOfBoundsException"));
  EXPECT_TRUE(has(l.exceptions, "java/lang/NullPointerException"));
  EXPECT_FALSE(has(l.exceptions, "java/lang/ArithmeticException"));
}

TEST_F(Loops, AnEnhancedForOverAnArrayIsSummarisable) {
  auto loops = of("sum", "([I)I");
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(loops[0].returns.empty());
  EXPECT_EQ(loops[0].exits.size(), 1u);
}

TEST_F(Loops, ArithmeticThatMayThrowIsAnOutcome) {
  auto loops = of("counted", "(I)I");
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(has(loops[0].exceptions, "java/lang/ArithmeticException"));  // i % 7 (irem)
}

TEST_F(Loops, LoopsThatReadFieldsOrStoreIntoArraysAreNotSummarised) {
  std::vector<std::string> why;
  EXPECT_TRUE(of("fieldSum", "()I", &why).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("getfield"), std::string::npos) << why[0];
  why.clear();
  EXPECT_TRUE(of("fill", "([I)V", &why).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("iastore"), std::string::npos) << why[0];
}

TEST(LoopsWithFields, PrimitiveAndPrimitiveArrayFieldsOfALocalAreReadAtTheHeaderOtherReferencesAreNot) {
  // For the summaries of identical code (arrayStores): realcode/loopfield's find reads this.size
  // (primitive: an argument), realcode/loops' fieldSum reads this.items (an int[]: its content
  // an argument), nulls reads this.things (an Object[]: still rejected). Without arrayStores
  // (coupled loops) none is summarisable.
  pasda::jvm::ClassPath cp;
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopfield/old");
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loops/old");
  const pasda::jvm::ClassFile* buf = cp.load("realcode/loopfield/Buf");
  const pasda::jvm::ClassFile* scan = cp.load("realcode/loops/Scan");
  ASSERT_NE(buf, nullptr);
  ASSERT_NE(scan, nullptr);
  const pasda::jvm::Method* find = buf->findMethod("find", "(C)I");
  const pasda::jvm::Method* fieldSum = scan->findMethod("fieldSum", "()I");
  const pasda::jvm::Method* nulls = scan->findMethod("nulls", "()I");
  ASSERT_NE(find, nullptr);
  ASSERT_NE(fieldSum, nullptr);
  ASSERT_NE(nulls, nullptr);
  auto loops = summarisableLoops(*buf, *find, nullptr, nullptr, {}, true);
  ASSERT_EQ(loops.size(), 1u);
  ASSERT_EQ(loops[0].field_reads.size(), 1u);
  EXPECT_EQ(std::get<0>(loops[0].field_reads[0]), 0);  // this
  EXPECT_EQ(std::get<1>(loops[0].field_reads[0]), "size");
  EXPECT_TRUE(has(loops[0].exceptions, "java/lang/NullPointerException"));
  EXPECT_TRUE(summarisableLoops(*buf, *find).empty());
  auto sum = summarisableLoops(*scan, *fieldSum, nullptr, nullptr, {}, true);
  ASSERT_EQ(sum.size(), 1u);
  ASSERT_EQ(sum[0].field_reads.size(), 1u);
  EXPECT_EQ(std::get<1>(sum[0].field_reads[0]), "items");
  EXPECT_EQ(std::get<2>(sum[0].field_reads[0]), "[I");
  EXPECT_TRUE(summarisableLoops(*scan, *fieldSum).empty());
  std::vector<std::string> why;
  EXPECT_TRUE(summarisableLoops(*scan, *nulls, &why, nullptr, {}, true).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("a reference"), std::string::npos) << why[0];
}

TEST(LoopsWithFields, InstanceHelpersOnALocalWriteItsFieldsWhenNoOverrideCanRun) {
  // realcode/loopseq's Tally.feed calls add(int) on this in its loop, which writes this.total
  // from this.total and this.factor; equal's loop tests this.open, which its helper writes.
  // Tally and add are not final: summarisable only when the caller says no override runs.
  pasda::jvm::ClassPath cp;
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopseq/old");
  const pasda::jvm::ClassFile* tally = cp.load("realcode/loopseq/Tally");
  ASSERT_NE(tally, nullptr);
  const pasda::jvm::Method* feed = tally->findMethod("feed", "([I)Lrealcode/loopseq/Tally;");
  const pasda::jvm::Method* equal = tally->findMethod("equal", "([I[I)Z");
  ASSERT_NE(feed, nullptr);
  ASSERT_NE(equal, nullptr);
  auto never = [](const pasda::jvm::MemberRef&) { return false; };
  auto always = [](const pasda::jvm::MemberRef&) { return true; };
  auto loops = summarisableLoops(*tally, *feed, nullptr, nullptr, {}, true, never);
  ASSERT_EQ(loops.size(), 1u);
  using F = std::tuple<int, std::string, std::string>;
  EXPECT_EQ(loops[0].field_writes, (std::vector<F>{{0, "total", "I"}}));
  EXPECT_EQ(loops[0].field_reads, (std::vector<F>{{0, "factor", "I"}, {0, "total", "I"}}));
  EXPECT_TRUE(has(loops[0].exceptions, "java/lang/NullPointerException"));
  auto eq = summarisableLoops(*tally, *equal, nullptr, nullptr, {}, true, never);
  ASSERT_EQ(eq.size(), 1u);
  EXPECT_EQ(eq[0].field_writes, (std::vector<F>{{0, "open", "Z"}}));
  for (const auto& overridable : {std::function<bool(const pasda::jvm::MemberRef&)>(always),
                                  std::function<bool(const pasda::jvm::MemberRef&)>()}) {
    std::vector<std::string> why;
    EXPECT_TRUE(summarisableLoops(*tally, *feed, &why, nullptr, {}, true, overridable).empty());
    ASSERT_EQ(why.size(), 1u);
    EXPECT_NE(why[0].find("an override may run"), std::string::npos) << why[0];
  }
  // Without arrayStores (coupled loops) no field is written by a summary.
  EXPECT_TRUE(summarisableLoops(*tally, *feed, nullptr, nullptr, {}, false, never).empty());
}

TEST(LoopsWithBreaks, ABreaksTailIsPartOfTheSummarisedLoop) {
  // realcode/loopseq's Rotate.shift: `else { swap(a, ...); break; }` is no part of the natural
  // loop (it never reaches the back edge), but only the loop enters it and it goes on where the
  // loop's condition leaves: with it the summary leaves at one place, its call of swap (a helper
  // storing into the array) among the summary's effects.
  pasda::jvm::ClassPath cp;
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopseq/old");
  const pasda::jvm::ClassFile* rotate = cp.load("realcode/loopseq/Rotate");
  ASSERT_NE(rotate, nullptr);
  const pasda::jvm::Method* shift = rotate->findMethod("shift", "([IIII)V");
  ASSERT_NE(shift, nullptr);
  auto loops = summarisableLoops(*rotate, *shift, nullptr, nullptr, {}, true, {});
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].exits.size(), 1u);
  EXPECT_TRUE(loops[0].returns.empty());
  EXPECT_TRUE(loops[0].calls_helpers);
  EXPECT_TRUE(loops[0].stores_arrays);
  // The search loop of Scan.find returns from its tail `return i`: with the tail, the return is
  // the loop's and the loop leaves only to `return -1`.
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loops/old");
  const pasda::jvm::ClassFile* scan = cp.load("realcode/loops/Scan");
  ASSERT_NE(scan, nullptr);
  auto find = summarisableLoops(*scan, *scan->findMethod("find", "([II)I"), nullptr, nullptr, {}, true, {});
  ASSERT_EQ(find.size(), 1u);
  EXPECT_EQ(find[0].exits.size(), 1u);
  ASSERT_EQ(find[0].returns.size(), 1u);
  EXPECT_EQ(find[0].returns[0].second, 'I');
}

TEST(LoopsWithBuilders, ABufferParameterAStringFieldAndAnAppendingHelperAreSummarisable) {
  // realcode/loopseq's Style.detail appends this.separator to its StringBuffer parameter and
  // calls detail(buffer, name, int) on this, which appends to the buffer it is given. The
  // helper is protected: summarisable only when no override can run. No BitSet is called, so
  // program objects the loop reaches need not be of a final class.
  pasda::jvm::ClassPath cp;
  cp.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopseq/old");
  const pasda::jvm::ClassFile* style = cp.load("realcode/loopseq/Style");
  ASSERT_NE(style, nullptr);
  const pasda::jvm::Method* detail = style->findMethod("detail", "(Ljava/lang/StringBuffer;Ljava/lang/String;[I)V");
  ASSERT_NE(detail, nullptr);
  auto never = [](const pasda::jvm::MemberRef&) { return false; };
  auto always = [](const pasda::jvm::MemberRef&) { return true; };
  auto loops = summarisableLoops(*style, *detail, nullptr, nullptr, {}, true, never);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(loops[0].changes_library_objects);
  EXPECT_FALSE(loops[0].calls_bitsets);
  using F = std::tuple<int, std::string, std::string>;
  EXPECT_EQ(loops[0].field_reads, (std::vector<F>{{0, "separator", "Ljava/lang/String;"}}));
  EXPECT_TRUE(loops[0].field_writes.empty());
  std::vector<std::string> why;
  EXPECT_TRUE(summarisableLoops(*style, *detail, &why, nullptr, {}, true, always).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("an override may run"), std::string::npos) << why[0];
}

}  // namespace

namespace {

// Loops over immutable objects (tests/fixtures/realcode/loopobjects): summarisable only where the
// caller makes arrays and objects functions too (arrayStores), then marked reads_objects.
class ObjectLoops : public ::testing::Test {
 protected:
  void SetUp() override {
    cp_.addDirectory(std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopobjects/old");
    cls_ = cp_.load("realcode/loopobjects/Text");
    ASSERT_NE(cls_, nullptr);
  }
  std::vector<LoopSummary> of(const char* name, const char* desc, bool objects, std::vector<std::string>* why) {
    const pasda::jvm::Method* m = cls_->findMethod(name, desc);
    EXPECT_NE(m, nullptr) << name;
    return m ? summarisableLoops(*cls_, *m, why, nullptr, {}, objects) : std::vector<LoopSummary>{};
  }
  pasda::jvm::ClassPath cp_;
  const pasda::jvm::ClassFile* cls_ = nullptr;
};

TEST_F(ObjectLoops, AStringsCharactersAreReadThroughItsPureCalls) {
  std::vector<std::string> why;
  EXPECT_TRUE(of("spaces", "(Ljava/lang/String;)I", false, &why).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("calls java/lang/String.length"), std::string::npos) << why[0];
  auto loops = of("spaces", "(Ljava/lang/String;)I", true, nullptr);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(loops[0].reads_objects);
  EXPECT_FALSE(loops[0].stores_arrays);
  EXPECT_TRUE(has(loops[0].exceptions, "java/lang/StringIndexOutOfBoundsException"));
  EXPECT_TRUE(has(loops[0].exceptions, "java/lang/NullPointerException"));
}

TEST_F(ObjectLoops, ABoxArraysElementsAndAnArrayFieldAreReadable) {
  auto unbox = of("unbox", "([Ljava/lang/Integer;I)[I", true, nullptr);
  ASSERT_EQ(unbox.size(), 1u);
  EXPECT_TRUE(unbox[0].reads_objects);
  EXPECT_TRUE(unbox[0].stores_arrays);  // out[i] = ...
  std::vector<std::string> why;
  auto last = of("last", "(C)I", true, &why);
  ASSERT_EQ(last.size(), 1u) << (why.empty() ? "" : why[0]);
  bool bufRead = false;
  for (const auto& [slot, name, desc] : last[0].field_reads) bufRead = bufRead || (slot == 0 && name == "buf" && desc == "[C");
  EXPECT_TRUE(bufRead);
}

TEST_F(ObjectLoops, AReferenceLocalWrittenInTheLoopMustBeATemporary) {
  // unbox's `Integer v = a[i]` is dead at the header and after the loop: no argument. lastNonNull's
  // r is read after the loop: the summary would give it no value there.
  auto unbox = of("unbox", "([Ljava/lang/Integer;I)[I", true, nullptr);
  ASSERT_EQ(unbox.size(), 1u);
  EXPECT_EQ(std::find(unbox[0].ref_reads.begin(), unbox[0].ref_reads.end(), 3), unbox[0].ref_reads.end());
  std::vector<std::string> why;
  EXPECT_TRUE(of("lastNonNull", "([Ljava/lang/String;)Ljava/lang/String;", true, &why).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("writes reference local 1 live"), std::string::npos) << why[0];  // (at the header too)
}

TEST_F(ObjectLoops, ABitSetOrAStringBuilderTheLoopChangesIsMarked) {
  for (const auto& [name, desc] : {std::pair{"evens", "([I)Ljava/util/BitSet;"}, std::pair{"stars", "(I)Ljava/lang/String;"}}) {
    auto loops = of(name, desc, true, nullptr);
    ASSERT_EQ(loops.size(), 1u) << name;
    EXPECT_TRUE(loops[0].changes_library_objects) << name;
    EXPECT_FALSE(loops[0].stores_arrays) << name;
  }
  EXPECT_TRUE(of("evens", "([I)Ljava/util/BitSet;", false, nullptr).empty());  // (not for coupled loops)
}

TEST_F(ObjectLoops, CallsOfMutableObjectsAreNotSummarised) {
  std::vector<std::string> why;
  EXPECT_TRUE(of("appendAll", "(Ljava/lang/StringBuilder;I)I", true, &why).empty());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("calls java/lang/StringBuilder.insert"), std::string::npos) << why[0];
}

}  // namespace
