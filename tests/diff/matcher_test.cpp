// Unchanged-block matcher on hand-written fixture pairs (tests/fixtures/diff/<case>/{old,new}/C.java).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "pasda/diff/diff.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using pasda::diff::MatchResult;
using pasda::diff::Region;
using pasda::diff::RegionVar;

struct Pair {
  pasda::jvm::ClassFile cls[2];
};

Pair load(const std::string& name) {
  Pair p;
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/diff/" + name;
  p.cls[0] = pasda::jvm::loadClassFile(base + "/old/C.class");
  p.cls[1] = pasda::jvm::loadClassFile(base + "/new/C.class");
  return p;
}

// Source line of the statement marked "//@marker" in the fixture's old or new source.
int lineOf(const std::string& name, int version, const std::string& marker) {
  std::ifstream in(std::string(PASDA_FIXTURE_SRC) + "/diff/" + name + (version == 0 ? "/old" : "/new") + "/C.java");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto pos = line.find("//@" + marker);
    if (pos != std::string::npos && pos + 3 + marker.size() == line.size()) return n;
  }
  ADD_FAILURE() << "marker " << marker << " not found in " << name;
  return -1;
}

bool covers(const Region& r, int version, int line) {
  return std::find(r.lines[version].begin(), r.lines[version].end(), line) != r.lines[version].end();
}

const Region* regionAt(const MatchResult& m, int version, int line) {
  for (const auto& r : m.regions) {
    if (covers(r, version, line)) return &r;
  }
  return nullptr;
}

std::string names(const std::vector<RegionVar>& vars) {
  std::string s;
  for (const auto& v : vars) s += (s.empty() ? "" : ",") + v.name + ":" + v.type;
  return s;
}

std::string dump(const MatchResult& m) {
  std::ostringstream os;
  pasda::diff::printRegions(m, os, true);
  return os.str();
}

TEST(Matcher, RenamedLocalsMatchThroughTheSlotRenaming) {
  Pair p = load("renamed");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 1u);
  const Region& r = m.regions[0];
  EXPECT_EQ(r.id, 1);
  EXPECT_TRUE(covers(r, 0, lineOf("renamed", 0, "a")) && covers(r, 0, lineOf("renamed", 0, "b")));
  EXPECT_TRUE(covers(r, 1, lineOf("renamed", 1, "a")) && covers(r, 1, lineOf("renamed", 1, "b")));
  EXPECT_EQ(names(r.inputs), "x:I,y:I");
  ASSERT_EQ(r.outputs.size(), 2u);
  // old a (slot 2) is new p (slot 3); old b (slot 3) is new q (slot 2).
  EXPECT_EQ(r.outputs[0].name, "a");
  EXPECT_EQ(r.outputs[0].slot[0], 2);
  EXPECT_EQ(r.outputs[0].slot[1], 3);
  EXPECT_EQ(r.outputs[1].name, "b");
  EXPECT_EQ(r.outputs[1].slot[0], 3);
  EXPECT_EQ(r.outputs[1].slot[1], 2);
  EXPECT_EQ(r.start_pc[0], 0u);
  EXPECT_EQ(r.start_pc[1], 0u);
  EXPECT_EQ(r.nonlinear, 1);
  EXPECT_FALSE(r.whole_loop);
}

TEST(Matcher, InsertedStatementShiftsSlotsButLaterStatementsStillMatch) {
  Pair p = load("inserted");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 2u);
  const Region& r1 = m.regions[0];
  EXPECT_TRUE(covers(r1, 0, lineOf("inserted", 0, "a")));
  EXPECT_EQ(names(r1.inputs), "x:I");
  EXPECT_EQ(names(r1.outputs), "a:I");
  const Region& r2 = m.regions[1];
  EXPECT_EQ(r2.id, 2);
  EXPECT_EQ(r2.lines[0], (std::vector<int>{lineOf("inserted", 0, "b"), lineOf("inserted", 0, "c")}));
  EXPECT_EQ(r2.lines[1], (std::vector<int>{lineOf("inserted", 1, "b"), lineOf("inserted", 1, "c")}));
  EXPECT_EQ(names(r2.inputs), "a:I");
  // b is dead after the region in both versions; c moved from slot 3 to slot 4.
  ASSERT_EQ(names(r2.outputs), "c:I");
  EXPECT_EQ(r2.outputs[0].slot[0], 3);
  EXPECT_EQ(r2.outputs[0].slot[1], 4);
  EXPECT_FALSE(regionAt(m, 1, lineOf("inserted", 1, "t")));
  EXPECT_LT(r1.start_pc[0], r2.start_pc[0]);
  EXPECT_GT(r2.start_pc[1], r2.start_pc[0]);  // the new version's code is shifted by the insertion
}

TEST(Matcher, ChangedConstantIsNotMatched) {
  Pair p = load("constant");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(regionAt(m, 0, lineOf("constant", 0, "a")), nullptr);
  const Region* r = regionAt(m, 0, lineOf("constant", 0, "b"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->lines[0].size(), 1u);
  EXPECT_EQ(names(r->inputs), "a:I");
  EXPECT_EQ(names(r->outputs), "b:I");
  EXPECT_EQ(m.regions.size(), 1u);
}

TEST(Matcher, UnchangedLoopIsOneRegion) {
  Pair p = load("loop_same");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 1u);
  const Region& r = m.regions[0];
  EXPECT_TRUE(r.whole_loop);
  EXPECT_EQ(r.loop_depth, 1);
  EXPECT_TRUE(covers(r, 0, lineOf("loop_same", 0, "s")));
  EXPECT_TRUE(covers(r, 0, lineOf("loop_same", 0, "for")));
  EXPECT_FALSE(covers(r, 0, lineOf("loop_same", 0, "r")));
  EXPECT_EQ(names(r.inputs), "n:I,k:I");
  EXPECT_EQ(names(r.outputs), "s:I");  // i is dead after the loop
  EXPECT_GE(r.nonlinear, 1);
}

TEST(Matcher, ChangedLoopStaysConcreteButItsUnchangedStatementsAreRegions) {
  Pair p = load("loop_changed");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
  SCOPED_TRACE(dump(m));
  for (const auto& r : m.regions) EXPECT_FALSE(r.whole_loop);
  const Region* t = regionAt(m, 0, lineOf("loop_changed", 0, "t"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->lines[0], std::vector<int>{lineOf("loop_changed", 0, "t")});
  EXPECT_EQ(names(t->inputs), "k:I");
  EXPECT_EQ(names(t->outputs), "t:I");
  EXPECT_EQ(t->loop_depth, 0);
  EXPECT_EQ(regionAt(m, 0, lineOf("loop_changed", 0, "change")), nullptr);
  // The initialisations before the loop form a region; the loop's condition and update do not.
  const Region* s = regionAt(m, 0, lineOf("loop_changed", 0, "s"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(names(s->outputs), "s:I,i:I");
  EXPECT_EQ(m.regions.size(), 2u);
}

TEST(Matcher, IdenticalAndChangedHelpers) {
  Pair p = load("helpers");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(m.identical_helpers, std::vector<std::string>{"same:(I)I"});
  EXPECT_EQ(m.pure_helpers, std::vector<std::string>{"same:(I)I"});
  const Region* r = regionAt(m, 0, lineOf("helpers", 0, "p"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(names(r->outputs), "p:I");
  EXPECT_GE(r->nonlinear, 1);  // the call
  EXPECT_EQ(regionAt(m, 0, lineOf("helpers", 0, "q")), nullptr);
  EXPECT_EQ(regionAt(m, 0, lineOf("helpers", 0, "r")), nullptr);
}

TEST(Matcher, RegionsWithEffectsOrPossibleExceptionsAreRejected) {
  Pair p = load("effects");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(ILC;)I");
  SCOPED_TRACE(dump(m));
  for (const char* bad : {"put", "call", "putfield", "div"}) {
    EXPECT_EQ(regionAt(m, 0, lineOf("effects", 0, bad)), nullptr) << bad;
  }
  for (const char* good : {"a", "c", "div4"}) {
    const Region* r = regionAt(m, 0, lineOf("effects", 0, good));
    ASSERT_NE(r, nullptr) << good;
    EXPECT_EQ(r->lines[0].size(), 1u) << good;
  }
  EXPECT_EQ(m.regions.size(), 3u);
  EXPECT_TRUE(m.identical_helpers == std::vector<std::string>{"log:(I)I"});
  EXPECT_TRUE(m.pure_helpers.empty());
  std::string notes;
  for (const auto& n : m.notes) notes += n + "\n";
  EXPECT_NE(notes.find("field write counter"), std::string::npos) << notes;
  EXPECT_NE(notes.find("call of C.log"), std::string::npos) << notes;
  EXPECT_NE(notes.find("division"), std::string::npos) << notes;
}

TEST(Matcher, InputsAndOutputsOnAHandCheckedExample) {
  Pair p = load("io");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 2u);
  const Region& r1 = m.regions[0];
  EXPECT_EQ(r1.lines[0], (std::vector<int>{lineOf("io", 0, "a"), lineOf("io", 0, "b")}));
  EXPECT_EQ(names(r1.inputs), "x:I,y:I");
  // b is dead after region 1 in the old version, live in the new one: an output of both.
  EXPECT_EQ(names(r1.outputs), "a:I,b:I");
  const Region& r2 = m.regions[1];
  EXPECT_TRUE(covers(r2, 0, lineOf("io", 0, "if")));
  EXPECT_TRUE(covers(r2, 0, lineOf("io", 0, "c")));
  EXPECT_FALSE(covers(r2, 0, lineOf("io", 0, "w")));
  // b is written on one path only: its incoming value is an input too.
  EXPECT_EQ(names(r2.inputs), "y:I,a:I,b:I");
  EXPECT_EQ(names(r2.outputs), "b:I,c:I");
  for (const auto& v : r2.inputs) EXPECT_EQ(v.slot[0], v.slot[1]);
  EXPECT_FALSE(r2.whole_loop);
  EXPECT_EQ(r2.nonlinear, 1);
}

TEST(Matcher, PrintListsRegionsAndHelpers) {
  Pair p = load("helpers");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
  std::ostringstream os;
  pasda::diff::printRegions(m, os, false);
  std::string s = os.str();
  EXPECT_NE(s.find("region 1 in m:(I)I"), std::string::npos) << s;
  EXPECT_NE(s.find("outputs: p:I"), std::string::npos) << s;
  EXPECT_NE(s.find("identical helpers: same:(I)I [pure]"), std::string::npos) << s;
  EXPECT_EQ(s.find("notes:"), std::string::npos) << s;
  std::ostringstream verbose;
  pasda::diff::printRegions(m, verbose, true);
  EXPECT_NE(verbose.str().find("notes:"), std::string::npos);
}

TEST(Matcher, MissingMethodIsATypedError) {
  Pair p = load("renamed");
  EXPECT_THROW(pasda::diff::match(p.cls[0], p.cls[1], "nope:()V"), std::invalid_argument);
  EXPECT_THROW(pasda::diff::match(p.cls[0], p.cls[1], "m"), std::invalid_argument);
}

}  // namespace

namespace {

TEST(Matcher, RegionsDoNotStraddleATryBlock) {
  Pair p = load("tryblock");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
  SCOPED_TRACE(dump(m));
  const Region* a = regionAt(m, 0, lineOf("tryblock", 0, "a"));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->lines[0], std::vector<int>{lineOf("tryblock", 0, "a")});
  // The try body as a whole is covered by its handler and cannot throw: one region.
  const Region* body = regionAt(m, 0, lineOf("tryblock", 0, "b"));
  ASSERT_NE(body, nullptr);
  EXPECT_TRUE(covers(*body, 0, lineOf("tryblock", 0, "a2")));
  EXPECT_EQ(names(body->inputs), "x:I,a:I");
  EXPECT_EQ(names(body->outputs), "a:I");
  // Adjacent but not merged: a region from line @a into the try body would be covered only in
  // part by the handler's range.
  EXPECT_EQ(a->exit_pc[0], body->start_pc[0]);
  EXPECT_EQ(a->exit_pc[1], body->start_pc[1]);
  // The handler's own entry (storing the exception) is not a region, the statement after it is.
  const Region* c = regionAt(m, 0, lineOf("tryblock", 0, "catch"));
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->inputs.empty());
  EXPECT_EQ(names(c->outputs), "a:I");
  EXPECT_GT(c->start_pc[0], p.cls[0].findMethod("m", "(I)I")->code->handlers.at(0).handler_pc);
  EXPECT_EQ(m.regions.size(), 3u);
}

}  // namespace

namespace {

TEST(Matcher, ParametersAreNotRenamed) {
  // `a - b` and `b - a` are the same bytecode up to swapping the two parameter slots; a
  // renaming that swapped them would abstract both as UIF(a, b) and UIF(b, a). Parameter
  // slots hold the same input in both versions, so the statement is a change.
  Pair p = load("swapped");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(regionAt(m, 0, lineOf("swapped", 0, "c")), nullptr);
  const Region* r = regionAt(m, 0, lineOf("swapped", 0, "d"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(names(r->inputs), "c:I");
  for (const auto& reg : m.regions)
    for (const auto& v : reg.inputs)
      if (v.slot[0] < 2 || v.slot[1] < 2) {
        EXPECT_EQ(v.slot[0], v.slot[1]) << v.name;
      }
}

TEST(Matcher, OnlyRegionsThatForkComputeNonlinearlyOrCallAreWorthAbstracting) {
  {
    Pair p = load("constant");  // b = a * 2: nonlinear by the opcode count
    MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
    ASSERT_EQ(m.regions.size(), 1u);
    EXPECT_FALSE(m.regions[0].branches);
    EXPECT_TRUE(pasda::diff::worthAbstracting(m.regions[0]));
  }
  {
    Pair p = load("linear");  // a = x + 1; b = a - 2 (linear, straight-line)
    MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(I)I");
    ASSERT_EQ(m.regions.size(), 1u);
    EXPECT_TRUE(covers(m.regions[0], 0, lineOf("linear", 0, "b")));
    EXPECT_EQ(m.regions[0].nonlinear, 0);
    EXPECT_FALSE(pasda::diff::worthAbstracting(m.regions[0]));
    std::string text = dump(m);
    EXPECT_NE(text.find("kept concrete"), std::string::npos) << text;
  }
  {
    Pair p = load("loop_same");
    MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "m:(II)I");
    ASSERT_EQ(m.regions.size(), 1u);
    EXPECT_TRUE(m.regions[0].branches);
    EXPECT_TRUE(pasda::diff::worthAbstracting(m.regions[0]));
  }
  Region plain;
  plain.inputs.push_back(RegionVar{});
  EXPECT_FALSE(pasda::diff::worthAbstracting(plain));
  plain.branches = true;
  EXPECT_TRUE(pasda::diff::worthAbstracting(plain));
  // A region without inputs computes constants, nonlinear or branching as it may be: its
  // outputs fold to literals, and a UIF of nothing would only lose them (Ell/rc's constants
  // block, whose TINY * BIG made the abstracted iteration MAYBE_NEQ).
  plain.inputs.clear();
  plain.nonlinear = 3;
  EXPECT_FALSE(pasda::diff::worthAbstracting(plain));
}

}  // namespace

namespace {

TEST(Matcher, ChangedHelpersHaveRegionsToo) {
  Pair p = load("helper_region");
  MatchResult m = pasda::diff::match(p.cls[0], p.cls[1], "entry:(II)I");
  SCOPED_TRACE(dump(m));
  EXPECT_TRUE(m.identical_helpers.empty());
  const Region* loop = regionAt(m, 0, lineOf("helper_region", 0, "for"));
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->method, "weighted:(II)I");
  EXPECT_TRUE(loop->whole_loop);
  EXPECT_EQ(names(loop->inputs), "n:I,k:I");
  EXPECT_EQ(names(loop->outputs), "s:I");
  // ids are unique and numbered 1.. across the entry method and the helpers
  for (std::size_t i = 0; i < m.regions.size(); ++i) EXPECT_EQ(m.regions[i].id, static_cast<int>(i) + 1);
}

}  // namespace
