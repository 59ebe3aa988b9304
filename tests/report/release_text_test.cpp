// The release report's NEQ lines (src/report/release_text.cpp, release_json.cpp): a witness
// whose objects the replay builds field by field says so, in the text and in the JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "pasda/report/release_report.hpp"

using namespace pasda;

namespace {

TEST(FieldBuiltObjects, NamesEachObjectOnceAndNothingInsideLiterals) {
  using report::fieldBuiltObjects;
  EXPECT_EQ(fieldBuiltObjects("StopWatch{runningState = null}.getTime()"), std::vector<std::string>{"StopWatch"});
  EXPECT_EQ(fieldBuiltObjects("first(Box{next = Box{next = null}, items = new int[] {1, 2}}, Pair{a = 1})"),
            (std::vector<std::string>{"Box", "Pair"}));
  // Braces in string and char literals, array initialisers and the statics' pseudo-object are
  // not objects of the witness.
  EXPECT_TRUE(fieldBuiltObjects("join(\"a{b}\", '{', new int[] {3})").empty());
  EXPECT_TRUE(fieldBuiltObjects("f(\"x\\\"Y{\")").empty());
  EXPECT_TRUE(fieldBuiltObjects("static{count = 3}; f(1)").empty());
  EXPECT_TRUE(fieldBuiltObjects("").empty());
}

release::ReleaseResult oneNeq(const std::string& witnessCall) {
  analysis::PartitionResult p;
  p.result = classify::Verdict::NEQ;
  p.witness_call = witnessCall;
  analysis::IterationResult it;
  it.partitions.push_back(p);
  it.result = classify::Verdict::NEQ;
  analysis::RunResult run;
  run.iterations.push_back(it);
  run.result = classify::Verdict::NEQ;
  release::MethodEntry m;
  m.cls = "org.example.StopWatch";
  m.name = "getTime";
  m.descriptor = "()J";
  m.category = release::Category::Changed;
  m.run = run;
  m.verdict = classify::Verdict::NEQ;
  release::ReleaseResult r;
  r.methods.push_back(m);
  return r;
}

TEST(ReleaseText, AWitnessBuiltFieldByFieldIsMarked) {
  std::ostringstream out;
  report::printReleaseText(oneNeq("StopWatch{runningState = null}.getTime()"), out, 1);
  EXPECT_NE(out.str().find("inputs   StopWatch built field by field, no constructor run"), std::string::npos) << out.str();
  const report::Json j = report::releaseToJson(oneNeq("StopWatch{runningState = null}.getTime()"));
  EXPECT_EQ(j.at("methods").at(0).at("witness_built_by_fields").dump(), "[\"StopWatch\"]");
}

TEST(ReleaseText, AWitnessOfValuesOnlyIsNotMarked) {
  std::ostringstream out;
  report::printReleaseText(oneNeq("price(-3, \"{}\")"), out, 1);
  EXPECT_NE(out.str().find("witness  price("), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("built field by field"), std::string::npos) << out.str();
  const report::Json j = report::releaseToJson(oneNeq("price(-3, \"{}\")"));
  EXPECT_EQ(j.at("methods").at(0).at("witness_built_by_fields").dump(), "[]");
}

}  // namespace
