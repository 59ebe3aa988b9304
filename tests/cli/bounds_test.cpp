// Inputs past the engine's bounds on real code, end to end through the CLI: arrays and strings
// longer than --max-array-length (elements and characters not held, functions of the identity),
// loops of identical code summarised over them, and an abstracted region of a method whose
// descriptor names its own class (tests/fixtures/realcode/{longarray,longstring,looparray,
// loopfield,selfdesc}).
#include "cli/support.hpp"

namespace cli_test {
namespace {

TEST(LongArrays, ElementsOfArraysPastTheBoundAreFunctionsOfTheArrayAndTheIndex) {
  // An element read or written in an array of primitives longer than --max-array-length cut the
  // path before (MAYBE_EQ on identical code); now a function of the array and the index.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/longarray/";
  for (const char* arith : {"java", "math"}) {
    for (const char* method : {"ends", "put", "sorted", "sortedThen", "grow", "growReflect"}) {
      JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.longarray.Arr", "--method", method,
                           "--shortcut", "off", "--arith", arith});
      ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
      EXPECT_EQ(j.json["result"].string, "EQ") << method << " " << arith << "\n" << j.run.out;
    }
    // A different index or stored place, a loop through a changed arithmetic leaf: never EQ.
    // (A partition where both versions throw alike from the same call is EQ, rightly.)
    for (const char* method : {"second", "place", "sorted2", "growBy"}) {
      JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.longarray.Arr", "--method", method,
                           "--shortcut", "off", "--arith", arith, "--timeout", "10"});
      ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
      EXPECT_NE(j.json["result"].string, "EQ") << method << " " << arith << "\n" << j.run.out;
      for (const Json& part : j.json["partitions"].array) {
        if (part["path_condition"].string.find("a.length > ") != std::string::npos && std::string(method) != "sorted2" &&
            part["path_condition"].string.find("throws:") == std::string::npos) {
          EXPECT_NE(part["result"].string, "EQ") << method << " " << arith << ": " << part["path_condition"].string;
        }
      }
    }
  }
}

TEST(LongStrings, InputStringsPastTheBoundAreKnownByTheirIdentity) {
  // An input string longer than --max-array-length cut the path (MAYBE_EQ on identical code):
  // now it holds no characters and what library code makes of it is a function of the string.
  // clean: identical, EQ. cut (trim -> strip) and longer (> 10 -> > 11): never EQ; the loop over
  // the characters of firstDigit: never NEQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/longstring/";
  for (const char* arith : {"java", "math"}) {
    auto run = [&](const char* method) {
      JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.longstring.Str", "--method", method,
                           "--shortcut", "off", "--arith", arith, "--timeout", "10", "--stop-at-neq", "no"});
      EXPECT_TRUE(j.ok) << j.run.out << j.run.err;
      return j;
    };
    JsonRun clean = run("clean");
    EXPECT_EQ(clean.json["result"].string, "EQ") << arith << "\n" << clean.run.out;
    for (const char* method : {"cut", "longer"}) {
      JsonRun j = run(method);
      EXPECT_NE(j.json["result"].string, "EQ") << method << " " << arith << "\n" << j.run.out;
      int past = 0;
      for (const Json& part : j.json["partitions"].array)
        if (part["path_condition"].string.find("s.length() > 8") != std::string::npos) {
          ++past;
          EXPECT_NE(part["result"].string, "NEQ") << "no NEQ rests on a string's unknown characters: "
                                                   << part["path_condition"].string;
        }
      EXPECT_GE(past, 1) << method << " " << arith << ": no partition of a string past the bound\n" << j.run.out;
    }
    JsonRun loop = run("firstDigit");
    EXPECT_NE(loop.json["result"].string, "NEQ") << arith << "\n" << loop.run.out;
  }
}

TEST(Regions, AMethodWhoseDescriptorNamesItsOwnClassIsAbstracted) {
  // The product renames the analysed class in its own descriptors too: an abstracted region of
  // add(Buf, int) was looked up under the original descriptor, "region in unknown method" (an
  // ERROR on StrBuilder.deleteAll(C) of commons-lang3 at PASDA's second iteration).
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/selfdesc/";
  // z = 9x^2 + 5x + 1 is never 11 over the integers (EQ), but is under 32-bit overflow (NEQ).
  for (const char* arith : {"math", "java"}) {
    JsonRun j = runJson({root + "old", root + "new", "--class", "realcode.selfdesc.Buf", "--method", "add", "--mode",
                         "ardiff", "--shortcut", "off", "--timeout", "10", "--arith", arith});
    ASSERT_TRUE(j.ok) << j.run.out << j.run.err;
    EXPECT_EQ(j.json["errors"].string, "") << arith;
    EXPECT_EQ(j.json["result"].string, std::string(arith) == "math" ? "EQ" : "NEQ") << arith << "\n" << j.run.out;
    ASSERT_FALSE(j.json["iterations"].array.empty());
    EXPECT_FALSE(j.json["iterations"].array[0]["uifs"].array.empty()) << "no region was abstracted: the test is void";
  }
}

TEST(LongArrays, LoopsOfIdenticalCodeThatReadAPrimitiveFieldAreSummarised) {
  // find: "for (i = 0; i < size; i++)" over this.size, identical: EQ (was MAYBE_EQ, the loop
  // was unrolled to the depth limit). sized: the same loop reached with another size: never EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/loopfield/";
  for (const char* arith : {"java", "math"}) {
    JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.loopfield.Buf", "--method", "find",
                            "--shortcut", "off", "--arith", arith, "--timeout", "10"});
    ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
    EXPECT_EQ(same.json["result"].string, "EQ") << arith << "\n" << same.run.out;
    JsonRun other = runJson({root + "old", root + "new", "--class", "realcode.loopfield.Buf", "--method", "sized",
                             "--shortcut", "off", "--arith", arith, "--timeout", "10"});
    ASSERT_TRUE(other.ok) << other.run.out << other.run.err;
    EXPECT_NE(other.json["result"].string, "EQ") << arith << "\n" << other.run.out;
  }
}

TEST(LongArrays, LoopsOfIdenticalCodeThatStoreIntoArraysAreSummarised) {
  // reverse: the same in both versions, EQ for every length (before: MAYBE_EQ, the loop over an
  // array past the bound never ends). spread: the versions call the same summarised loop on
  // aliased and on distinct arrays of equal contents; the aliasing is part of the summary's
  // function, so the difference is never EQ.
  const std::string root = std::string(PASDA_FIXTURE_CLASSES) + "/realcode/looparray/";
  for (const char* arith : {"java", "math"}) {
    JsonRun same = runJson({root + "old", root + "new", "--class", "realcode.looparray.Rev", "--method", "reverse",
                            "--shortcut", "off", "--arith", arith});
    ASSERT_TRUE(same.ok) << same.run.out << same.run.err;
    EXPECT_EQ(same.json["result"].string, "EQ") << arith << "\n" << same.run.out;
    JsonRun alias = runJson({root + "old", root + "new", "--class", "realcode.looparray.Rev", "--method", "spread",
                             "--shortcut", "off", "--arith", arith});
    ASSERT_TRUE(alias.ok) << alias.run.out << alias.run.err;
    EXPECT_NE(alias.json["result"].string, "EQ") << arith << "\n" << alias.run.out;
  }
}

}  // namespace
}  // namespace cli_test
