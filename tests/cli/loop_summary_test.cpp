// Summarised loops (issue 13; tests/fixtures/realcode/loops): a loop of code identical in both
// versions is replaced by functions both versions share. Identical code over arrays of any
// length is EQ without unrolling; different arguments or different array contents before the
// shared loop are never EQ (a real JVM then shows the difference).
#include "cli/support.hpp"

#include <functional>

namespace cli_test {
namespace {

/// `method` of the fixture class `cls` in tests/fixtures/realcode/<dir>, old against new.
JsonRun analyse(const std::string& dir, const std::string& cls, const std::string& method,
                const std::vector<std::string>& extra) {
  std::vector<std::string> a = {"--method", method, "--stop-at-neq", "no", "--timeout", "30", "--shortcut", "off",
                                "--arith", "java"};
  a.insert(a.end(), extra.begin(), extra.end());
  a.push_back(fixtureClass("realcode/" + dir, "old", "realcode." + dir, cls));
  a.push_back(fixtureClass("realcode/" + dir, "new", "realcode." + dir, cls));
  return runJson(a);
}

JsonRun scan(const std::string& method, const std::vector<std::string>& extra = {}) {
  return analyse("loops", "Scan", method, extra);
}

bool warned(const Json& j, const std::string& what) {
  for (const Json& w : j["warnings"].array)
    if (w.string.find(what) != std::string::npos) return true;
  return false;
}

TEST(LoopSummaries, AnIdenticalLoopOverArraysOfAnyLengthIsEqWithoutUnrolling) {
  JsonRun j = scan("firstOf");
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "EQ") << j.run.out;
  EXPECT_TRUE(warned(j.json, "summarised by shared functions")) << j.run.out;
  for (const Json& it : j.json["iterations"].array)
    for (const Json& p : it["partitions"].array) EXPECT_EQ(p["result"].string, "EQ") << p["path_condition"].string;
  // Without the summaries the arrays past --max-array-length leave the loop cut.
  JsonRun off = scan("firstOf", {"--loop-summaries", "off"});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_EQ(off.json["result"].string, "MAYBE_EQ") << off.run.out;
}

/// Every partition `pick` selects is not EQ, and there is at least one.
void expectNeverEqWhere(const JsonRun& j, const std::function<bool(const Json&)>& pick) {
  int picked = 0;
  for (const Json& p : j.json["partitions"].array) {
    if (!pick(p)) continue;
    ++picked;
    EXPECT_NE(p["result"].string, "EQ") << p["path_condition"].string;
  }
  EXPECT_GE(picked, 1) << j.run.out;
}

/// A partition where both versions return and a summarised loop decided how it ended.
bool returnsAfterASummary(const Json& p) {
  return p["effect_old"]["kind"].string == "return" && p["effect_new"]["kind"].string == "return" &&
         p["path_condition"].string.find(":outcome(") != std::string::npos;
}

/// A partition where both versions return and the sequence or generator `c` is not null.
bool returnsOnANonNullCounter(const Json& p) {
  return p["effect_old"]["kind"].string == "return" && p["effect_new"]["kind"].string == "return" &&
         p["path_condition"].string.find("c != null") != std::string::npos;
}

/// A partition whose path went through a summarised loop.
bool throughASummary(const Json& p) { return p["path_condition"].string.find("loop:") != std::string::npos; }

/// NEQ, never EQ; some NEQ partition's witness differs in a real JVM.
void expectRealDifference(const JsonRun& j) {
  ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
  EXPECT_EQ(j.json["result"].string, "NEQ") << j.run.out;
  bool replayed = false;
  for (const Json& it : j.json["iterations"].array)
    for (const Json& p : it["partitions"].array) {
      if (p["result"].string != "NEQ") continue;
      for (const Json& r : p["replays"].array) replayed = replayed || (r["engine"].string == "jvm" && r["differs"].boolean);
    }
  EXPECT_TRUE(replayed) << j.run.out;
}

TEST(LoopSummaries, ASharedLoopGivenDifferentArgumentsIsNotEq) {
  // find(a, v + 1) against find(a, v): the shared functions get different arguments.
  REQUIRE_JAVA();
  expectRealDifference(scan("shifted"));
}

TEST(LoopSummaries, ALocalTheLoopOnlyWritesIsAnArgumentOfItsFunctions) {
  // keep(a, n) against keep(a + 1, n): x = a before a loop that only writes x. With n <= 0 the
  // loop writes nothing and the versions return a and a + 1; the loop's functions once took
  // only what it reads (i, n) and proved this EQ.
  REQUIRE_JAVA();
  expectRealDifference(scan("kept"));
}

TEST(LoopSummaries, AnArrayWrittenDifferentlyBeforeASharedLoopIsNotEq) {
  // a[0] = 1 against a[0] = 2, then the identical sum(a): the array's content differs.
  REQUIRE_JAVA();
  expectRealDifference(scan("afterWrite"));
}

JsonRun text(const std::string& method, const std::vector<std::string>& extra = {}) {
  return analyse("loopobjects", "Text", method, extra);
}

TEST(LoopSummaries, LoopsOverStringsBoxesAndArrayFieldsAreSharedFunctionsOfTheirContents) {
  // spaces: charAt/length of a String; unbox: an Integer[]'s elements (null tests, intValue);
  // last: a char[] held in a field. Identical in both versions: EQ for contents of any length,
  // where the loops once could not be summarised (StringUtils.deleteWhitespace ran out of time
  // on 511 paths, ArrayUtils.toPrimitive and StrBuilder.lastIndexOf were cut past the bound).
  for (const char* method : {"spaces", "unbox", "last"}) {
    JsonRun j = text(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
    EXPECT_TRUE(warned(j.json, "summarised by shared functions")) << method << "\n" << j.run.out;
  }
  JsonRun off = text("unbox", {"--loop-summaries", "off"});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_NE(off.json["result"].string, "EQ") << off.run.out;
}

TEST(LoopSummaries, DifferentContentsBeforeASharedLoopOverObjectsAreNotEq) {
  // A different string, a different box stored into the array, a different character written
  // into the field's array before the identical loop: NEQ, and a real JVM shows it.
  REQUIRE_JAVA();
  for (const char* method : {"afterConcat", "afterStore", "afterBufferWrite"}) {
    SCOPED_TRACE(method);
    expectRealDifference(text(method));
  }
  // An array of arrays whose inner array may be the row written before the identical loop
  // (a row the input heap does not tie to the array's elements): never EQ.
  JsonRun rows = text("afterRow");
  ASSERT_TRUE(rows.ok) << rows.run.out << rows.run.err;
  EXPECT_NE(rows.json["result"].string, "EQ") << rows.run.out;
}

TEST(LoopSummaries, LoopsChangingABitSetOrAStringBuilderBuiltHereAreShared) {
  // evens (BitSet.set) and stars (StringBuilder.append), identical: EQ for any length; the
  // object's content after the loop is a function of the loop's arguments.
  for (const char* method : {"evens", "stars"}) {
    JsonRun j = text(method);
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["result"].string, "EQ") << method << "\n" << j.run.out;
    EXPECT_TRUE(warned(j.json, "summarised by shared functions")) << method << "\n" << j.run.out;
  }
  // marks(100, a) against marks(101, a): the identical loop starts from different bit sets.
  JsonRun differ = text("evensAfter");
  ASSERT_TRUE(differ.ok) << differ.run.out << differ.run.err;
  EXPECT_NE(differ.json["result"].string, "EQ") << differ.run.out;
  // A BitSet it is given may be of a subclass whose set runs program code: the loop is not
  // summarised there (it is cut by the depth limit instead), only where the set is null.
  JsonRun given = text("setAll");
  ASSERT_TRUE(given.ok) << given.run.out << given.run.err;
  EXPECT_EQ(given.json["result"].string, "MAYBE_EQ") << given.run.out;
  bool cut = false;
  for (const Json& it : given.json["iterations"].array)
    for (const Json& p : it["partitions"].array) cut = cut || p["result"].string == "DEPTH_LIMITED";
  EXPECT_TRUE(cut) << given.run.out;
}

TEST(LoopSummaries, LoopsOverACharSequenceAreSharedAndMayChangeIt) {
  // digits: an identical loop of CharSequence.charAt/length (StringUtils.isNumeric and kin,
  // MAYBE_EQ at their time limit before): EQ for sequences of any length and class.
  JsonRun same = analyse("loopseq", "Seq", "digits", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  // The identical loop from another start: NEQ, and a real JVM shows it.
  REQUIRE_JAVA();
  expectRealDifference(analyse("loopseq", "Seq", "tail", {}));
  // A Counting sequence counts its reads: the old version runs the loop, the new one does
  // not. The summary changes what the sequence holds, so this is never EQ (it was, had the
  // loop been a function of the sequence that left it as it was).
  JsonRun reads = analyse("loopseq", "Seq", "reads", {});
  ASSERT_TRUE(reads.ok) << reads.run.out << reads.run.err;
  EXPECT_NE(reads.json["result"].string, "EQ") << reads.run.out;
  EXPECT_TRUE(warned(reads.json, "summarised by shared functions")) << reads.run.out;
  // In particular where the old version's loop ended normally on a Counting and both return
  // c.reads (the one partition that was EQ when the summary left the sequence as it was).
  expectNeverEqWhere(reads, returnsOnANonNullCounter);
}

TEST(LoopSummaries, LoopsDrawingFromARandomAreSharedAndMayChangeIt) {
  // total: an identical loop of Random.nextInt (ArrayUtils.shuffle): EQ for any generator.
  JsonRun same = analyse("loopseq", "Draws", "total", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  // A Counter counts its draws and only the old version draws: never EQ, and in particular not
  // where both versions return c.draws after the old version's loop ended normally.
  JsonRun draws = analyse("loopseq", "Draws", "draws", {});
  ASSERT_TRUE(draws.ok) << draws.run.out << draws.run.err;
  EXPECT_NE(draws.json["result"].string, "EQ") << draws.run.out;
  expectNeverEqWhere(draws, returnsOnANonNullCounter);
}

TEST(LoopSummaries, LoopsWritingFieldsOfTheirObjectAreSharedAndChangeThem) {
  // hash and equal: identical loops calling instance helpers that write fields of `this`
  // (HashCodeBuilder.append(int[]), EqualsBuilder.append(int[], int[])): EQ for arrays of any
  // length, which the depth limit leaves undecided without the summaries.
  for (const char* m : {"hash", "equal"}) {
    JsonRun same = analyse("loopseq", "Tally", m, {});
    ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
    EXPECT_EQ(same.json["result"].string, "EQ") << m << "\n" << same.run.out;
    EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
    JsonRun off = analyse("loopseq", "Tally", m, {"--loop-summaries", "off"});
    ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
    EXPECT_EQ(off.json["result"].string, "MAYBE_EQ") << m << "\n" << off.run.out;
  }
  // after: the old version returns the field after the loop, the new one the value before.
  // Where the loop is summarised (arrays past the bound) and returns, the field is a function
  // of the loop's arguments, not its old value: that partition is never EQ.
  JsonRun after = analyse("loopseq", "Tally", "after", {});
  ASSERT_TRUE(after.ok) << after.run.out << after.run.err;
  EXPECT_EQ(after.json["result"].string, "NEQ") << after.run.out;
  expectNeverEqWhere(after, returnsAfterASummary);
}

TEST(LoopSummaries, LoopsCallingCharSequencesInAnArrayPastTheBoundChangeItsContent) {
  // any: an identical loop over a CharSequence[] whose static helper calls length() on each
  // element (StringUtils.isAnyEmpty): EQ for arrays of any length.
  JsonRun same = analyse("loopseq", "Blanks", "any", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  // touched: only the old version runs the loop, then both return the array. An element may be
  // a CharSequence whose length() changes it, so where the old loop was summarised (past the
  // bound) and returned, the array's content is a function of the loop, never EQ to the input.
  JsonRun touched = analyse("loopseq", "Blanks", "touched", {});
  ASSERT_TRUE(touched.ok) << touched.run.out << touched.run.err;
  EXPECT_NE(touched.json["result"].string, "EQ") << touched.run.out;
  expectNeverEqWhere(touched, returnsAfterASummary);
}

TEST(LoopSummaries, ExceptionsHelpersBuildAndThrowAreOutcomesOfTheLoop) {
  // value: an identical loop whose helpers throw exceptions they build, with a message made by
  // string concatenation (digit) and by a StringBuilder (check): summarised, EQ.
  JsonRun same = analyse("loopseq", "Hex", "value", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  // lenient: the new version catches IllegalArgumentException. Where the summarised loop
  // throws it, the old version throws and the new one returns: never EQ. Both exceptions the
  // helpers build are among the loop's outcomes.
  JsonRun lenient = analyse("loopseq", "Hex", "lenient", {});
  ASSERT_TRUE(lenient.ok) << lenient.run.out << lenient.run.err;
  EXPECT_NE(lenient.json["result"].string, "EQ") << lenient.run.out;
  int caught = 0, state = 0;
  for (const Json& p : lenient.json["partitions"].array) {
    if (p["path_condition"].string.find(":outcome(") == std::string::npos) continue;
    const std::string thrown = p["effect_old"]["kind"].string == "throw" ? p["effect_old"]["exception"].string : "";
    if (thrown == "java.lang.IllegalStateException") ++state;
    if (thrown != "java.lang.IllegalArgumentException") continue;
    ++caught;
    EXPECT_EQ(p["effect_new"]["kind"].string, "return") << p["path_condition"].string;
    EXPECT_NE(p["result"].string, "EQ") << p["path_condition"].string;
  }
  EXPECT_GE(caught, 1) << lenient.run.out;
  EXPECT_GE(state, 1) << lenient.run.out;
}

TEST(LoopSummaries, WithoutSummariesExceptionsOfUnmodelledCallsUnwindFromTheFrameThatThrew) {
  // lenient unrolled: String.charAt's exception (unmodelled) leaves digit and parse; whether
  // lenient's handler takes it is a fork, and the copy taking the other direction must restart
  // the throwing instruction in the frame that threw it, not in a caller whose frames were
  // already popped (it used to meet charAt's int operand in parse's String local: ERROR).
  JsonRun off = analyse("loopseq", "Hex", "lenient", {"--loop-summaries", "off"});
  ASSERT_TRUE(off.ok) << off.run.out << off.run.err;
  EXPECT_NE(off.json["result"].string, "ERROR") << off.run.out;
  for (const Json& it : off.json["iterations"].array) EXPECT_NE(it["result"].string, "ERROR") << off.run.out;
  REQUIRE_JAVA();
  expectRealDifference(off);
}

TEST(LoopSummaries, ALoopLeavingThroughABreakThatCallsAStoringHelperIsOneSummary) {
  // Rotate.rotated (ArrayUtils.shift's shape): the loop's `else { swap(...); break; }` tail is
  // summarised with the loop, so no path runs swap over the array after a summary at offsets
  // that are the summary's functions. Unrolling those instead gives hundreds of partitions.
  JsonRun same = analyse("loopseq", "Rotate", "rotated", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  EXPECT_LT(same.json["partitions"].array.size(), 100u) << same.run.out;
  // moved: the new version shifts one place further; the shared summary gets other arguments.
  JsonRun moved = analyse("loopseq", "Rotate", "moved", {});
  ASSERT_TRUE(moved.ok) << moved.run.out << moved.run.err;
  EXPECT_NE(moved.json["result"].string, "EQ") << moved.run.out;
  expectNeverEqWhere(moved, throughASummary);
}

TEST(LoopSummaries, ALoopAppendingToABufferItIsGivenIsOneSummary) {
  // Style.detail (ToStringStyle.appendDetail's shape): the loop appends a String field of its
  // object to the StringBuffer parameter and calls an instance helper that appends to it. The
  // buffer (a final class: exactly a StringBuffer) becomes a shared function of the loop's
  // arguments, the field's string one of them. Its three string fields and the String
  // parameter are not cut by the heap bound (strings start no chain of objects).
  JsonRun same = analyse("loopseq", "Style", "detail:(Ljava/lang/StringBuffer;Ljava/lang/String;[I)V", {});
  ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
  EXPECT_EQ(same.json["result"].string, "EQ") << same.run.out;
  EXPECT_TRUE(warned(same.json, "summarised by shared functions")) << same.run.out;
  EXPECT_FALSE(warned(same.json, "heap bound")) << same.run.out;
  // listed: the new version appends a separator before calling detail, whose loop is
  // summarised in both: never EQ where it is.
  JsonRun listed = analyse("loopseq", "Style", "listed", {"--max-array-length", "2"});
  ASSERT_TRUE(listed.ok) << listed.run.out << listed.run.err;
  EXPECT_NE(listed.json["result"].string, "EQ") << listed.run.out;
  expectNeverEqWhere(listed, throughASummary);
}

TEST(LoopSummaries, TheOptionIsCheckedAndDocumented) {
  CliRun bad = runCli({"--loop-summaries", "yes", fixtureClass("realcode/loops", "old", "realcode.loops", "Scan"),
                       fixtureClass("realcode/loops", "new", "realcode.loops", "Scan")});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--loop-summaries: must be on or off, not 'yes'"), std::string::npos) << bad.err;
  CliRun help = runCli({"--help"});
  EXPECT_NE(help.out.find("--loop-summaries"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace cli_test
