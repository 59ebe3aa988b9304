// runFromJson is the inverse of runToJson: a run that uses every field survives the round
// trip (the worker processes of a release diff and --merge depend on it); malformed objects
// are a JsonError naming what is wrong.
#include <gtest/gtest.h>

#include "pasda/report/json.hpp"
#include "store/sample_run.hpp"

namespace pasda::report {
namespace {

TEST(RunJson, RoundTripKeepsEveryField) {
  const analysis::RunResult run = testing::sampleRun();
  const Json first = runToJson(run);
  const analysis::RunResult back = runFromJson(parseJson(dumpJson(first)));
  // Serialising the run read back gives the same text: no field was dropped or altered
  // (the sample run sets every field to a value other than its default).
  EXPECT_EQ(dumpJson(runToJson(back)), dumpJson(first));
  EXPECT_EQ(back.reported_iteration, run.reported_iteration);
  EXPECT_EQ(back.iterations.at(0).partitions.at(1).witness.at(1).exact, "1/3");
  // The explanation: the smallest set as "cause", the other one as an alternative.
  ASSERT_EQ(back.iterations.at(0).partitions.at(1).causes.size(), 2u);
  EXPECT_EQ(back.iterations[0].partitions[1].causes[1].lines.at(1).kind, "deleted");
  EXPECT_EQ(first["iterations"][0]["partitions"][1]["cause"][0]["new_code"], "x * 10");
  EXPECT_EQ(back.iterations.at(0).partitions.at(0).new_effect.state, run.iterations.at(0).partitions.at(0).new_effect.state);
  EXPECT_EQ(back.steps.refinement, run.steps.refinement);
  EXPECT_EQ(back.depth_limit_used, 40);
  EXPECT_EQ(back.deepening_rounds, 4);
  EXPECT_EQ(back.deepening_note, run.deepening_note);
  EXPECT_EQ(back.decided_by, run.decided_by);
  EXPECT_EQ(back.induction_note, run.induction_note);
  EXPECT_TRUE(back.settings.deepen);
}

TEST(RunJson, ReportedIterationIsFoundByItsIndex) {
  analysis::RunResult run = testing::sampleRun();
  run.reported_iteration = 1;
  EXPECT_EQ(runFromJson(runToJson(run)).reported_iteration, 1u);
}

TEST(RunJson, MalformedObjectsAreJsonErrors) {
  Json j = runToJson(testing::sampleRun());
  Json missing = j;
  missing.erase("settings");
  EXPECT_THROW(runFromJson(missing), JsonError);
  Json wrongType = j;
  wrongType["timed_out"] = "yes";
  EXPECT_THROW(runFromJson(wrongType), JsonError);
  Json badVerdict = j;
  badVerdict["result"] = "PROBABLY";
  EXPECT_THROW(runFromJson(badVerdict), JsonError);
  Json badStatus = j;
  badStatus["iterations"][0]["partitions"][0]["pc_status"] = "MAYBE";
  EXPECT_THROW(runFromJson(badStatus), JsonError);
  EXPECT_THROW(parseJson("{\"result\": "), JsonError);
  EXPECT_THROW(runFromJson(Json::array()), JsonError);
}

}  // namespace
}  // namespace pasda::report
