// Unchanged-block matcher on hand-written fixture pairs (tests/fixtures/diff/<case>/{old,new}/C.java).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "pasda/diff/diff.hpp"
#include "pasda/jvm/loader.hpp"

namespace {

using pasda::PerVersion;
using pasda::Version;
using pasda::diff::MatchResult;
using pasda::diff::Region;
using pasda::diff::RegionVar;

constexpr Version kOld = Version::kOld;
constexpr Version kNew = Version::kNew;

struct Pair {
  PerVersion<pasda::jvm::ClassFile> cls;
};

Pair load(const std::string& name) {
  Pair p;
  const std::string base = std::string(PASDA_FIXTURE_CLASSES) + "/diff/" + name;
  for (Version v : pasda::kBothVersions)
    p.cls[v] = pasda::jvm::loadClassFile(base + "/" + std::string(pasda::versionName(v)) + "/C.class");
  return p;
}

// Source line of the statement marked "//@marker" in the fixture's old or new source.
int lineOf(const std::string& name, Version version, const std::string& marker) {
  std::ifstream in(std::string(PASDA_FIXTURE_SRC) + "/diff/" + name + "/" + std::string(pasda::versionName(version)) +
                   "/C.java");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto pos = line.find("//@" + marker);
    if (pos != std::string::npos && pos + 3 + marker.size() == line.size()) return n;
  }
  ADD_FAILURE() << "marker " << marker << " not found in " << name;
  return -1;
}

bool covers(const Region& r, Version version, int line) {
  return std::find(r.lines[version].begin(), r.lines[version].end(), line) != r.lines[version].end();
}

const Region* regionAt(const MatchResult& m, Version version, int line) {
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
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 1u);
  const Region& r = m.regions[0];
  EXPECT_EQ(r.id, 1);
  EXPECT_TRUE(covers(r, kOld, lineOf("renamed", kOld, "a")) && covers(r, kOld, lineOf("renamed", kOld, "b")));
  EXPECT_TRUE(covers(r, kNew, lineOf("renamed", kNew, "a")) && covers(r, kNew, lineOf("renamed", kNew, "b")));
  EXPECT_EQ(names(r.inputs), "x:I,y:I");
  ASSERT_EQ(r.outputs.size(), 2u);
  // old a (slot 2) is new p (slot 3); old b (slot 3) is new q (slot 2).
  EXPECT_EQ(r.outputs[0].name, "a");
  EXPECT_EQ(r.outputs[0].slot[kOld], 2);
  EXPECT_EQ(r.outputs[0].slot[kNew], 3);
  EXPECT_EQ(r.outputs[1].name, "b");
  EXPECT_EQ(r.outputs[1].slot[kOld], 3);
  EXPECT_EQ(r.outputs[1].slot[kNew], 2);
  EXPECT_EQ(r.start_pc[kOld], 0u);
  EXPECT_EQ(r.start_pc[kNew], 0u);
  EXPECT_EQ(r.nonlinear, 1);
  EXPECT_FALSE(r.whole_loop);
}

TEST(Matcher, InsertedStatementShiftsSlotsButLaterStatementsStillMatch) {
  Pair p = load("inserted");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 2u);
  const Region& r1 = m.regions[0];
  EXPECT_TRUE(covers(r1, kOld, lineOf("inserted", kOld, "a")));
  EXPECT_EQ(names(r1.inputs), "x:I");
  EXPECT_EQ(names(r1.outputs), "a:I");
  const Region& r2 = m.regions[1];
  EXPECT_EQ(r2.id, 2);
  EXPECT_EQ(r2.lines[kOld], (std::vector<int>{lineOf("inserted", kOld, "b"), lineOf("inserted", kOld, "c")}));
  EXPECT_EQ(r2.lines[kNew], (std::vector<int>{lineOf("inserted", kNew, "b"), lineOf("inserted", kNew, "c")}));
  EXPECT_EQ(names(r2.inputs), "a:I");
  // b is dead after the region in both versions; c moved from slot 3 to slot 4.
  ASSERT_EQ(names(r2.outputs), "c:I");
  EXPECT_EQ(r2.outputs[0].slot[kOld], 3);
  EXPECT_EQ(r2.outputs[0].slot[kNew], 4);
  EXPECT_FALSE(regionAt(m, kNew, lineOf("inserted", kNew, "t")));
  EXPECT_LT(r1.start_pc[kOld], r2.start_pc[kOld]);
  EXPECT_GT(r2.start_pc[kNew], r2.start_pc[kOld]);  // the new version's code is shifted by the insertion
}

TEST(Matcher, ChangedConstantIsNotMatched) {
  Pair p = load("constant");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(regionAt(m, kOld, lineOf("constant", kOld, "a")), nullptr);
  const Region* r = regionAt(m, kOld, lineOf("constant", kOld, "b"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->lines[kOld].size(), 1u);
  EXPECT_EQ(names(r->inputs), "a:I");
  EXPECT_EQ(names(r->outputs), "b:I");
  EXPECT_EQ(m.regions.size(), 1u);
}

TEST(Matcher, UnchangedLoopIsOneRegion) {
  Pair p = load("loop_same");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 1u);
  const Region& r = m.regions[0];
  EXPECT_TRUE(r.whole_loop);
  EXPECT_EQ(r.loop_depth, 1);
  EXPECT_TRUE(covers(r, kOld, lineOf("loop_same", kOld, "s")));
  EXPECT_TRUE(covers(r, kOld, lineOf("loop_same", kOld, "for")));
  EXPECT_FALSE(covers(r, kOld, lineOf("loop_same", kOld, "r")));
  EXPECT_EQ(names(r.inputs), "n:I,k:I");
  EXPECT_EQ(names(r.outputs), "s:I");  // i is dead after the loop
  EXPECT_GE(r.nonlinear, 1);
}

TEST(Matcher, ChangedLoopStaysConcreteButItsUnchangedStatementsAreRegions) {
  Pair p = load("loop_changed");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
  SCOPED_TRACE(dump(m));
  for (const auto& r : m.regions) EXPECT_FALSE(r.whole_loop);
  const Region* t = regionAt(m, kOld, lineOf("loop_changed", kOld, "t"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->lines[kOld], std::vector<int>{lineOf("loop_changed", kOld, "t")});
  EXPECT_EQ(names(t->inputs), "k:I");
  EXPECT_EQ(names(t->outputs), "t:I");
  EXPECT_EQ(t->loop_depth, 0);
  EXPECT_EQ(regionAt(m, kOld, lineOf("loop_changed", kOld, "change")), nullptr);
  // The initialisations before the loop form a region; the loop's condition and update do not.
  const Region* s = regionAt(m, kOld, lineOf("loop_changed", kOld, "s"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(names(s->outputs), "s:I,i:I");
  EXPECT_EQ(m.regions.size(), 2u);
}

TEST(Matcher, IdenticalAndChangedHelpers) {
  Pair p = load("helpers");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(m.identical_helpers, std::vector<std::string>{"same:(I)I"});
  EXPECT_EQ(m.pure_helpers, std::vector<std::string>{"same:(I)I"});
  const Region* r = regionAt(m, kOld, lineOf("helpers", kOld, "p"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(names(r->outputs), "p:I");
  EXPECT_GE(r->nonlinear, 1);  // the call
  EXPECT_EQ(regionAt(m, kOld, lineOf("helpers", kOld, "q")), nullptr);
  EXPECT_EQ(regionAt(m, kOld, lineOf("helpers", kOld, "r")), nullptr);
}

TEST(Matcher, RegionsWithEffectsOrPossibleExceptionsAreRejected) {
  Pair p = load("effects");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(ILC;)I");
  SCOPED_TRACE(dump(m));
  for (const char* bad : {"put", "call", "putfield", "div"}) {
    EXPECT_EQ(regionAt(m, kOld, lineOf("effects", kOld, bad)), nullptr) << bad;
  }
  for (const char* good : {"a", "c", "div4"}) {
    const Region* r = regionAt(m, kOld, lineOf("effects", kOld, good));
    ASSERT_NE(r, nullptr) << good;
    EXPECT_EQ(r->lines[kOld].size(), 1u) << good;
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
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
  SCOPED_TRACE(dump(m));
  ASSERT_EQ(m.regions.size(), 2u);
  const Region& r1 = m.regions[0];
  EXPECT_EQ(r1.lines[kOld], (std::vector<int>{lineOf("io", kOld, "a"), lineOf("io", kOld, "b")}));
  EXPECT_EQ(names(r1.inputs), "x:I,y:I");
  // b is dead after region 1 in the old version, live in the new one: an output of both.
  EXPECT_EQ(names(r1.outputs), "a:I,b:I");
  const Region& r2 = m.regions[1];
  EXPECT_TRUE(covers(r2, kOld, lineOf("io", kOld, "if")));
  EXPECT_TRUE(covers(r2, kOld, lineOf("io", kOld, "c")));
  EXPECT_FALSE(covers(r2, kOld, lineOf("io", kOld, "w")));
  // b is written on one path only: its incoming value is an input too.
  EXPECT_EQ(names(r2.inputs), "y:I,a:I,b:I");
  EXPECT_EQ(names(r2.outputs), "b:I,c:I");
  for (const auto& v : r2.inputs) EXPECT_EQ(v.slot[kOld], v.slot[kNew]);
  EXPECT_FALSE(r2.whole_loop);
  EXPECT_EQ(r2.nonlinear, 1);
}

TEST(Matcher, PrintListsRegionsAndHelpers) {
  Pair p = load("helpers");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
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
  EXPECT_THROW(pasda::diff::match(p.cls[kOld], p.cls[kNew], "nope:()V"), std::invalid_argument);
  EXPECT_THROW(pasda::diff::match(p.cls[kOld], p.cls[kNew], "m"), std::invalid_argument);
}

}  // namespace

namespace {

TEST(Matcher, RegionsDoNotStraddleATryBlock) {
  Pair p = load("tryblock");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
  SCOPED_TRACE(dump(m));
  const Region* a = regionAt(m, kOld, lineOf("tryblock", kOld, "a"));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->lines[kOld], std::vector<int>{lineOf("tryblock", kOld, "a")});
  // The try body as a whole is covered by its handler and cannot throw: one region.
  const Region* body = regionAt(m, kOld, lineOf("tryblock", kOld, "b"));
  ASSERT_NE(body, nullptr);
  EXPECT_TRUE(covers(*body, kOld, lineOf("tryblock", kOld, "a2")));
  EXPECT_EQ(names(body->inputs), "x:I,a:I");
  EXPECT_EQ(names(body->outputs), "a:I");
  // Adjacent but not merged: a region from line @a into the try body would be covered only in
  // part by the handler's range.
  EXPECT_EQ(a->exit_pc[kOld], body->start_pc[kOld]);
  EXPECT_EQ(a->exit_pc[kNew], body->start_pc[kNew]);
  // The handler's own entry (storing the exception) is not a region, the statement after it is.
  const Region* c = regionAt(m, kOld, lineOf("tryblock", kOld, "catch"));
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->inputs.empty());
  EXPECT_EQ(names(c->outputs), "a:I");
  EXPECT_GT(c->start_pc[kOld], p.cls[kOld].findMethod("m", "(I)I")->code->handlers.at(0).handler_pc);
  EXPECT_EQ(m.regions.size(), 3u);
}

}  // namespace

namespace {

TEST(Matcher, ParametersAreNotRenamed) {
  // `a - b` and `b - a` are the same bytecode up to swapping the two parameter slots; a
  // renaming that swapped them would abstract both as UIF(a, b) and UIF(b, a). Parameter
  // slots hold the same input in both versions, so the statement is a change.
  Pair p = load("swapped");
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
  SCOPED_TRACE(dump(m));
  EXPECT_EQ(regionAt(m, kOld, lineOf("swapped", kOld, "c")), nullptr);
  const Region* r = regionAt(m, kOld, lineOf("swapped", kOld, "d"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(names(r->inputs), "c:I");
  for (const auto& reg : m.regions)
    for (const auto& v : reg.inputs)
      if (v.slot[kOld] < 2 || v.slot[kNew] < 2) {
        EXPECT_EQ(v.slot[kOld], v.slot[kNew]) << v.name;
      }
}

TEST(Matcher, OnlyRegionsThatForkComputeNonlinearlyOrCallAreWorthAbstracting) {
  {
    Pair p = load("constant");  // b = a * 2: nonlinear by the opcode count
    MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
    ASSERT_EQ(m.regions.size(), 1u);
    EXPECT_FALSE(m.regions[0].branches);
    EXPECT_TRUE(pasda::diff::worthAbstracting(m.regions[0]));
  }
  {
    Pair p = load("linear");  // a = x + 1; b = a - 2 (linear, straight-line)
    MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(I)I");
    ASSERT_EQ(m.regions.size(), 1u);
    EXPECT_TRUE(covers(m.regions[0], kOld, lineOf("linear", kOld, "b")));
    EXPECT_EQ(m.regions[0].nonlinear, 0);
    EXPECT_FALSE(pasda::diff::worthAbstracting(m.regions[0]));
    std::string text = dump(m);
    EXPECT_NE(text.find("kept concrete"), std::string::npos) << text;
  }
  {
    Pair p = load("loop_same");
    MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "m:(II)I");
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
  MatchResult m = pasda::diff::match(p.cls[kOld], p.cls[kNew], "entry:(II)I");
  SCOPED_TRACE(dump(m));
  EXPECT_TRUE(m.identical_helpers.empty());
  const Region* loop = regionAt(m, kOld, lineOf("helper_region", kOld, "for"));
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->method, "weighted:(II)I");
  EXPECT_TRUE(loop->whole_loop);
  EXPECT_EQ(names(loop->inputs), "n:I,k:I");
  EXPECT_EQ(names(loop->outputs), "s:I");
  // ids are unique and numbered 1.. across the entry method and the helpers
  for (std::size_t i = 0; i < m.regions.size(); ++i) EXPECT_EQ(m.regions[i].id, static_cast<int>(i) + 1);
}

}  // namespace
