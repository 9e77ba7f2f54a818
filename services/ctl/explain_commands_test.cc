#include "services/ctl/explain_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

TEST(ExplainRequest, CarriesTheTeamHourModelAndCluster) {
  auto r = ExplainRequest({"vision", "2026-01-05T10:00:00Z", "A100", "c1"});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->team(), "vision");
  EXPECT_EQ(r->hour().seconds(), 1767607200);
  EXPECT_EQ(r->model(), "A100");
  EXPECT_EQ(r->cluster(), "c1");
}

TEST(ExplainRequest, ABadOrMissingFlagIsNamed) {
  EXPECT_THAT(ExplainRequest({"", "2026-01-05T10:00:00Z", "", ""}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--team")));
  EXPECT_THAT(ExplainRequest({"vision", "", "", ""}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--hour")));
  EXPECT_THAT(ExplainRequest({"vision", "yesterday", "", ""}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--hour")));
  EXPECT_THAT(ExplainRequest({"vision", "2026-01-05T10:30:00Z", "", ""}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not the start of an hour")));
}

}  // namespace
}  // namespace fleetcap::ctl
