#include "optimizer/commands/allocate_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/exit.h"
#include "optimizer/allocation/offline_solver.h"
#include "optimizer/commands/optimizer_command.h"
#include "services/exports/recommendation_set.h"
#include "tests/support/build_paths.h"

namespace fleetcap::optimizer {
namespace {

using ::testing::HasSubstr;

const std::string kCase = std::string(fleetcap::testing::SourcePath("tests/allocation/cases")) + "/three_level_tree";
const absl::Time kNow = absl::FromUnixSeconds(1'772'366'400);  // 2026-03-01T12:00:00Z

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ParseAllocateFlags, ReadsEveryFlagAndDefaultsToATable) {
  auto options = ParseAllocateFlags({"--policy", "p.yaml", "--demand", "d.yaml"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->policy_path, "p.yaml");
  EXPECT_EQ(options->demand_path, "d.yaml");
  EXPECT_EQ(options->format, "table");
  EXPECT_EQ(ParseAllocateFlags({"--policy=p", "--demand=d", "--format=json"})->format, "json");
  EXPECT_THAT(ParseAllocateFlags({"--help"})->help, HasSubstr("--demand"));
}

TEST(ParseAllocateFlags, HeterogeneityIsOffUnlessAsked) {
  EXPECT_FALSE(ParseAllocateFlags({"--policy", "p", "--demand", "d"})->heterogeneity);
  EXPECT_TRUE(ParseAllocateFlags({"--policy", "p", "--demand", "d", "--heterogeneity"})->heterogeneity);
}

TEST(ParseAllocateFlags, RefusesMissingAndBadFlags) {
  EXPECT_THAT(ParseAllocateFlags({"--demand", "d"}).status().message(), HasSubstr("--policy: missing"));
  EXPECT_THAT(ParseAllocateFlags({"--policy", "p"}).status().message(), HasSubstr("--demand: missing"));
  EXPECT_THAT(ParseAllocateFlags({"--policy", "p", "--demand", "d", "--format", "csv"}).status().message(),
              HasSubstr("--format: \"csv\" is not table or json"));
  EXPECT_THAT(ParseAllocateFlags({"--policy", "p", "--demand", "d", "extra"}).status().message(),
              HasSubstr("unexpected argument \"extra\""));
}

TEST(RunAllocate, WritesWhatTheOfflineSolverGivesAsARecommendationSetOfNow) {
  const SimulatedClock clock(kNow);
  std::ostringstream out;
  ASSERT_TRUE(RunAllocate({kCase + "/policy.yaml", kCase + "/demand.yaml", "json", ""}, out, clock).ok());
  auto solved = allocation::SolveOffline({"p", Read(kCase + "/policy.yaml"), "d", Read(kCase + "/demand.yaml")});
  ASSERT_TRUE(solved.ok()) << solved.status();
  exports::RecommendationSetHeader header;
  header.computed_at = kNow;
  EXPECT_EQ(out.str(), exports::RecommendationSetJson(header, *solved));
  EXPECT_THAT(out.str(), HasSubstr("\"runId\": \"0\""));
  EXPECT_THAT(out.str(), HasSubstr("\"computedAt\": \"2026-03-01T12:00:00Z\""));
  std::ostringstream table;
  ASSERT_TRUE(RunAllocate({kCase + "/policy.yaml", kCase + "/demand.yaml", "table", ""}, table, clock).ok());
  EXPECT_THAT(table.str(), HasSubstr("vision  gpu"));
}

TEST(RunAllocate, UnreadableOrInvalidFilesAreTheCommandLinesFault) {
  std::ostringstream out, err;
  const SimulatedClock clock(kNow);
  const absl::Status missing =
      RunAllocate({kCase + "/policy.yaml", "/nonexistent/demand.yaml", "json", ""}, out, clock);
  EXPECT_THAT(missing.message(), HasSubstr("--demand: /nonexistent/demand.yaml: cannot read"));
  EXPECT_EQ(ExitCode("allocate", missing, kExitFailed, err), kExitUsage);
  // The policy given as the demand: every problem, with the file's name.
  const absl::Status invalid = RunAllocate({kCase + "/policy.yaml", kCase + "/policy.yaml", "json", ""}, out, clock);
  EXPECT_THAT(invalid.message(), HasSubstr(kCase + "/policy.yaml:1:1: version: unknown key \"version\""));
  EXPECT_EQ(ExitCode("allocate", invalid, kExitFailed, err), kExitUsage);
  EXPECT_EQ(out.str(), "");
}

TEST(RunOptimizerCommand, AllocateNeedsNoDatabase) {
  // Without --db the daemon would refuse; `allocate` goes to its own parser.
  EXPECT_EQ(RunOptimizerCommand({"allocate", "--policy", kCase + "/policy.yaml"}), kExitUsage);
  EXPECT_EQ(RunOptimizerCommand({"allocate", "--policy", kCase + "/policy.yaml", "--demand", kCase + "/demand.yaml"}),
            kExitOk);
}

}  // namespace
}  // namespace fleetcap::optimizer
