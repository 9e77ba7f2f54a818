#include "services/ctl/explain_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// 2026-01-05T11:20:00Z.
const absl::Time kExplainNow = absl::FromUnixSeconds(1767612000);

TEST(ExplainRequest, CarriesTheTeamHourModelAndCluster) {
  auto r = ExplainRequest({"vision", "2026-01-05T10:00:00Z", "A100", "c1"}, kExplainNow);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->team(), "vision");
  EXPECT_EQ(r->hour().seconds(), 1767607200);
  EXPECT_EQ(r->model(), "A100");
  EXPECT_EQ(r->cluster(), "c1");
}

TEST(ExplainRequest, ARelativeHourIsTheStartOfItsHour) {
  auto r = ExplainRequest({"vision", "-1h", "", ""}, kExplainNow);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->hour().seconds(), 1767607200);  // 10:00, the hour before 11:20
}

TEST(ExplainRequest, ABadOrMissingFlagIsNamed) {
  EXPECT_THAT(ExplainRequest({"", "2026-01-05T10:00:00Z", "", ""}, kExplainNow),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--team")));
  EXPECT_THAT(ExplainRequest({"vision", "", "", ""}, kExplainNow),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--hour")));
  EXPECT_THAT(ExplainRequest({"vision", "last hour", "", ""}, kExplainNow),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--hour")));
  EXPECT_THAT(ExplainRequest({"vision", "2026-01-05T10:30:00Z", "", ""}, kExplainNow),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not the start of an hour")));
}

}  // namespace
}  // namespace fleetcap::ctl
