#include "services/ctl/insights_waste_commands.h"

#include <gtest/gtest.h>

#include "proto_time.h"

namespace fleetcap::ctl {
namespace {

const absl::Time kCtlNow = absl::FromUnixSeconds(1767225600 + 5 * 3600 + 1234);  // 2026-01-01T05:20:34Z

TEST(InsightsWasteCommand, TheWindowIsCutToWholeHoursAndTheFiltersAreSent) {
  WasteFlags f;
  f.last = "2h";
  f.team = "vision";
  f.cluster = "c1";
  f.namespace_ = "ml";
  f.limit = 7;
  auto request = WasteRequest(f, kCtlNow);
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(FromProtoTimestamp(request->end()), absl::FromUnixSeconds(1767225600 + 5 * 3600));
  EXPECT_EQ(FromProtoTimestamp(request->start()), absl::FromUnixSeconds(1767225600 + 3 * 3600));
  EXPECT_EQ(request->team(), "vision");
  EXPECT_EQ(request->cluster(), "c1");
  EXPECT_EQ(request->namespace_(), "ml");
  EXPECT_EQ(request->limit(), 7);
}

TEST(InsightsWasteCommand, ABadLimitOrWindowIsRefusedNamingTheFlag) {
  WasteFlags f;
  f.from = "-1d";
  f.limit = 1001;
  auto request = WasteRequest(f, kCtlNow);
  ASSERT_FALSE(request.ok());
  EXPECT_NE(request.status().message().find("--limit"), std::string::npos);
  WasteFlags none;
  EXPECT_NE(WasteRequest(none, kCtlNow).status().message().find("--from"), std::string::npos);
}

}  // namespace
}  // namespace fleetcap::ctl
