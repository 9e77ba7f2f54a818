#include "services/ctl/fleet_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

v1::FleetSummary Sample() {
  v1::FleetSummary s;
  s.set_cluster("openb");
  s.mutable_at()->set_seconds(1767225600);
  auto* t4 = s.add_models();
  t4->set_model("T4");
  t4->set_devices(4);
  t4->set_held_milli(2460);
  s.set_devices(4);
  s.set_held_milli(2460);
  return s;
}

TEST(RenderFleetSummary, TableShowsHeldDevicesExactly) {
  EXPECT_EQ(RenderFleetSummary(Sample(), Format::kTable),
            "cluster openb at 2026-01-01T00:00:00Z\n"
            "MODEL  DEVICES   HELD  HELD%\n"
            "T4           4  2.460  61.5%\n"
            "TOTAL        4  2.460  61.5%\n");
}

TEST(RenderFleetSummary, TeamsFollowTheModelsWithTheirShareOfWhatIsHeld) {
  v1::FleetSummary s = Sample();
  auto* vision = s.add_teams();
  vision->set_team("vision");
  vision->set_held_milli(2000);
  auto* unassigned = s.add_teams();
  unassigned->set_team("unassigned");
  unassigned->set_held_milli(460);
  EXPECT_EQ(RenderFleetSummary(s, Format::kTable),
            "cluster openb at 2026-01-01T00:00:00Z\n"
            "MODEL  DEVICES   HELD  HELD%\n"
            "T4           4  2.460  61.5%\n"
            "TOTAL        4  2.460  61.5%\n"
            "\n"
            "TEAM         HELD  SHARE\n"
            "vision      2.000  81.3%\n"
            "unassigned  0.460  18.7%\n");
}

TEST(RenderFleetSummary, JsonIsTheCanonicalMapping) {
  std::string json = RenderFleetSummary(Sample(), Format::kJson);
  EXPECT_THAT(json, HasSubstr("\"heldMilli\": \"2460\"")) << json;
  EXPECT_THAT(json, HasSubstr("\"at\": \"2026-01-01T00:00:00Z\"")) << json;
}

TEST(FleetSummaryRequest, BadAtNamesTheFlag) {
  const absl::Time now = absl::FromUnixSeconds(1767225601);
  auto request = FleetSummaryRequest("", "tomorrow", now);
  ASSERT_THAT(request, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--at")));
  auto ok = FleetSummaryRequest("openb", "2026-01-01T00:00:01.5Z", now);
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->at().seconds(), 1767225601);
  EXPECT_EQ(ok->at().nanos(), 500000000);
  auto yesterday = FleetSummaryRequest("openb", "yesterday", now);
  ASSERT_THAT(yesterday, IsOk());
  EXPECT_EQ(yesterday->at().seconds(), 1767225600 - 86400);
}

TEST(ParseFormat, RejectsUnknown) {
  EXPECT_THAT(ParseFormat("yaml"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(*ParseFormat("json"), Format::kJson);
}

}  // namespace
}  // namespace fleetcap::ctl
