#include "services/exports/assets_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kDeviceHour = 3600 * 1000;

absl::Time AssetTime(const char* text) {
  absl::Time t;
  std::string error;
  EXPECT_TRUE(absl::ParseTime(absl::RFC3339_full, text, &t, &error)) << error;
  return t;
}

v1::AssetRow Row(const std::string& model, int64_t devices, int64_t capacity, int64_t held, int64_t idle) {
  v1::AssetRow row;
  row.set_model(model);
  row.set_devices(devices);
  row.set_capacity_milli_seconds(capacity);
  row.set_held_milli_seconds(held);
  row.set_idle_milli_seconds(idle);
  return row;
}

// Two models over a day: the H100s' used time and idle cost known, the T4s'
// not (the chargeback has no line for them yet). Figures with thirds of a
// device-hour and micro-units, so that the table rounds them.
v1::Assets ByModel() {
  v1::Assets assets;
  *assets.mutable_start() = ToProtoTimestamp(AssetTime("2026-12-01T00:00:00Z"));
  *assets.mutable_end() = ToProtoTimestamp(AssetTime("2026-12-02T00:00:00Z"));
  assets.set_group_by("model");
  assets.set_currency("USD");
  v1::AssetRow h100 = Row("H100-SXM5-80GB", 8, 192 * kDeviceHour, 100 * kDeviceHour + kDeviceHour / 3,
                          91 * kDeviceHour + 2 * kDeviceHour / 3);
  h100.set_used_milli_seconds(50 * kDeviceHour);
  h100.set_observed_milli_seconds(90 * kDeviceHour);
  h100.set_idle_cost_micro(123456789);
  *assets.add_rows() = h100;
  *assets.add_rows() = Row("T4", 1, 24 * kDeviceHour, 0, 24 * kDeviceHour);
  v1::AssetRow totals =
      Row("", 9, 216 * kDeviceHour, 100 * kDeviceHour + kDeviceHour / 3, 115 * kDeviceHour + 2 * kDeviceHour / 3);
  *assets.mutable_totals() = totals;
  assets.set_groups(2);
  return assets;
}

TEST(AssetsFormatParse, KnowsTableJsonAndCsvAndNamesTheFlag) {
  EXPECT_EQ(*ParseReportFormat("table"), ReportFormat::kTable);
  EXPECT_EQ(*ParseReportFormat("JSON"), ReportFormat::kJson);
  EXPECT_EQ(*ParseReportFormat("csv"), ReportFormat::kCsv);
  EXPECT_THAT(ParseReportFormat("focus"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--format")));
}

TEST(AssetsTable, RoundsToTheHundredthShowsUnknownAsUnknownAndTotalsEveryGroup) {
  EXPECT_EQ(
      AssetsTable(ByModel()),
      "assets by model from 2026-12-01T00:00:00Z to 2026-12-02T00:00:00Z in USD\n"
      "MODEL           DEVICES  CAPACITY_DEVICE_H  HELD_DEVICE_H  USED_DEVICE_H  IDLE_DEVICE_H  HELD%  IDLE_COST\n"
      "H100-SXM5-80GB        8             192.00         100.33          50.00          91.67  52.3%     123.46\n"
      "T4                    1              24.00           0.00              -          24.00   0.0%          -\n"
      "TOTAL                 9             216.00         100.33              -         115.67  46.5%          -\n"
      "figures rounded to the hundredth; --format csv or json gives them exactly\n"
      "- unknown, not 0: the chargeback has not computed the group's model and cluster in the window yet\n");
}

TEST(AssetsTable, SaysWhenTheLimitLeftGroupsOut) {
  v1::Assets assets = ByModel();
  assets.mutable_rows()->RemoveLast();
  assets.set_groups(2);
  EXPECT_THAT(AssetsTable(assets), HasSubstr("1 of 2 groups shown, the most idle first"));
  EXPECT_THAT(AssetsTable(ByModel()), Not(HasSubstr("groups shown")));
}

TEST(AssetsTable, ANodeRowShowsItsClusterNodeAndModel) {
  v1::Assets assets = ByModel();
  assets.set_group_by("node");
  assets.mutable_rows()->RemoveLast();
  assets.mutable_rows(0)->set_cluster("east");
  assets.mutable_rows(0)->set_node("gpu-node-1");
  assets.mutable_rows(0)->set_used_milli_seconds(0);
  assets.mutable_rows(0)->clear_used_milli_seconds();
  EXPECT_THAT(AssetsTable(assets), HasSubstr("CLUSTER        NODE           MODEL  DEVICES"));
  EXPECT_THAT(AssetsTable(assets), HasSubstr("east     gpu-node-1  H100-SXM5-80GB        8"));
}

TEST(AssetsTable, NoRowsSaysSo) {
  v1::Assets assets = ByModel();
  assets.clear_rows();
  EXPECT_THAT(AssetsTable(assets), HasSubstr("no devices in service in this window"));
}

TEST(AssetsCsv, EveryFigureExactAndUnknownLeftEmpty) {
  EXPECT_EQ(AssetsCsv(ByModel()),
            "model,cluster,node,device,devices,capacity_device_hours,held_device_hours,used_device_hours,"
            "observed_device_hours,idle_device_hours,idle_cost,currency\r\n"
            "H100-SXM5-80GB,,,,8,192.00,100.333333,50.00,90.00,91.666667,123.456789,USD\r\n"
            "T4,,,,1,24.00,0.00,,,24.00,,USD\r\n");
}

TEST(AssetsJson, IsTheAnswersProto3JsonWithoutTheUnknownFigures) {
  const auto json = nlohmann::json::parse(RenderAssets(ByModel(), ReportFormat::kJson));
  EXPECT_EQ(json["rows"][0]["idleCostMicro"], "123456789");
  EXPECT_EQ(json["rows"][1]["idleMilliSeconds"], std::to_string(24 * kDeviceHour));
  EXPECT_FALSE(json["rows"][1].contains("idleCostMicro"));
  EXPECT_FALSE(json["rows"][1].contains("usedMilliSeconds"));
  EXPECT_EQ(json["groups"], "2");
}

v1::DeviceHolds TwoHolds() {
  v1::DeviceHolds holds;
  holds.set_cluster("east");
  holds.set_device("GPU-1, \"a\"");
  auto* first = holds.add_holds();
  first->set_pod("trainer-0");
  first->set_namespace_("ml");
  first->set_workload("Job/trainer");
  first->set_team("ml-research");
  first->set_milli(500);
  *first->mutable_held_from() = ToProtoTimestamp(AssetTime("2026-12-01T00:00:00Z"));
  *first->mutable_held_to() = ToProtoTimestamp(AssetTime("2026-12-01T00:00:07Z"));
  first->set_held_seconds(7);
  first->set_held_milli_seconds(3500);
  auto* second = holds.add_holds();
  second->set_pod("notebook");
  second->set_namespace_("ml");
  second->set_team("ml-research");
  second->set_milli(1000);
  *second->mutable_held_from() = ToProtoTimestamp(AssetTime("2026-12-01T01:00:00Z"));
  *second->mutable_held_to() = ToProtoTimestamp(AssetTime("2026-12-01T03:00:00Z"));
  second->set_held_seconds(7200);
  second->set_held_milli_seconds(2 * kDeviceHour);
  return holds;
}

TEST(DeviceHoldsTable, ListsEachPodWithItsDeviceHoursAndTheirTotal) {
  EXPECT_EQ(DeviceHoldsTable(TwoHolds()),
            "pods that held device GPU-1, \"a\" in cluster east\n"
            "POD        NAMESPACE     WORKLOAD         TEAM  DEVICES                  FROM                    TO  "
            "HELD_DEVICE_H\n"
            "trainer-0  ml         Job/trainer  ml-research    0.500  2026-12-01T00:00:00Z  2026-12-01T00:00:07Z  "
            "         0.00\n"
            "notebook   ml                      ml-research    1.000  2026-12-01T01:00:00Z  2026-12-01T03:00:00Z  "
            "         2.00\n"
            "TOTAL                                                                                                  "
            "       2.00\n"
            "figures rounded to the hundredth; --format csv or json gives them exactly\n");
}

TEST(DeviceHoldsTable, SaysWhenTheAnswerWasTruncated) {
  v1::DeviceHolds holds = TwoHolds();
  holds.set_truncated(true);
  EXPECT_THAT(DeviceHoldsTable(holds), HasSubstr("more holds than these"));
}

TEST(DeviceHoldsCsv, KeepsSecondsAndDeviceHoursExactAndQuotesTheDevice) {
  EXPECT_EQ(DeviceHoldsCsv(TwoHolds()),
            "cluster,device,pod,namespace,workload,team,devices,held_from,held_to,held_seconds,held_device_hours\r\n"
            "east,\"GPU-1, \"\"a\"\"\",trainer-0,ml,Job/trainer,ml-research,0.500,2026-12-01T00:00:00Z,"
            "2026-12-01T00:00:07Z,7,0.000972\r\n"
            "east,\"GPU-1, \"\"a\"\"\",notebook,ml,,ml-research,1.000,2026-12-01T01:00:00Z,2026-12-01T03:00:00Z,7200,"
            "2.00\r\n");
}

}  // namespace
}  // namespace fleetcap::exports
