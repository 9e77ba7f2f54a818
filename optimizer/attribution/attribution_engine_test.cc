#include "optimizer/attribution/attribution_engine.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::attribution {
namespace {

using ::testing::HasSubstr;

const absl::Time kHour = absl::FromUnixSeconds(1767607200);  // 2026-01-05T10:00:00Z

class EveryoneIsVision : public TeamSchedule {
 public:
  std::vector<TeamSpan> TeamsDuring(const policy::PodEvidence&, absl::Time from, absl::Time to) const override {
    return {{from, to, "vision"}};
  }
};

AttributionInput OneGpuHour() {
  AttributionInput in;
  in.start = kHour;
  in.end = kHour + absl::Hours(1);
  in.devices.push_back({"c1", "n1", "g0", "A100", kHour - absl::Hours(1)});
  policy::Price price;
  price.model = "A100";
  price.from = kHour - absl::Hours(1);
  price.micro_per_device_hour = 3600000;
  in.prices.push_back(price);
  in.holds.push_back({"c1", "p1", "cv", "", "Job/a", "g0", 500, kHour, kHour + absl::Hours(1)});
  in.options.idle = "keep";
  return in;
}

absl::StatusOr<AttributionReport> Attributed(const AttributionInput& in, std::vector<ChargeLine>* lines) {
  return Attribute(in, EveryoneIsVision(), [&](HourLines&& hour) {
    for (auto& l : hour.lines) lines->push_back(std::move(l));
  });
}

TEST(Attribute, AnOptionItDoesNotKnowIsAnErrorNamingTheField) {
  AttributionInput in = OneGpuHour();
  in.options.basis = "cheapest";
  std::vector<ChargeLine> lines;
  absl::StatusOr<AttributionReport> report = Attributed(in, &lines);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("attribution.basis"));
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("cheapest"));
  in = OneGpuHour();
  in.options.idle_scope = "rack";
  EXPECT_THAT(std::string(Attributed(in, &lines).status().message()), HasSubstr("attribution.idle_scope"));
  EXPECT_TRUE(lines.empty());
}

TEST(Attribute, AWindowNotOnWholeHoursIsAnError) {
  AttributionInput in = OneGpuHour();
  in.start += absl::Minutes(1);
  std::vector<ChargeLine> lines;
  EXPECT_THAT(std::string(Attributed(in, &lines).status().message()), HasSubstr("whole hours"));
  in = OneGpuHour();
  in.end = in.start;
  EXPECT_FALSE(Attributed(in, &lines).ok());
}

TEST(Attribute, AFactItCannotUseCostsOnlyItselfAndIsReportedWithItsReason) {
  AttributionInput in = OneGpuHour();
  in.holds.push_back({"c1", "p2", "cv", "", "Job/b", "g0", 0, kHour, kHour + absl::Hours(1)});
  in.holds.push_back({"c1", "p3", "cv", "", "Job/c", "no-such-gpu", 500, kHour, kHour + absl::Hours(1)});
  in.usage.push_back({"c1", "p1", "g0", kHour, 1001});
  std::vector<ChargeLine> lines;
  absl::StatusOr<AttributionReport> report = Attributed(in, &lines);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->rejected.size(), 3u);
  EXPECT_THAT(report->rejected[0].fact, HasSubstr("pod p2"));
  EXPECT_THAT(report->rejected[0].reason, HasSubstr("milli 0"));
  EXPECT_THAT(report->rejected[1].fact, HasSubstr("pod p3"));
  EXPECT_THAT(report->rejected[1].reason, HasSubstr("not in the inventory"));
  EXPECT_THAT(report->rejected[2].reason, HasSubstr("used_milli 1001"));
  // p1 is charged as if the others were not there: half the GPU-hour.
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].workload, "Job/a");
  EXPECT_EQ(lines[1].total_cost_micro, 1800000);
  EXPECT_EQ(report->total_cost_micro, 3600000);
}

TEST(Attribute, LinesComeHourByHourInTimeOrder) {
  AttributionInput in = OneGpuHour();
  in.end = in.start + absl::Hours(3);
  std::vector<absl::Time> hours;
  ASSERT_TRUE(Attribute(in, EveryoneIsVision(), [&](HourLines&& hour) { hours.push_back(hour.hour); }).ok());
  EXPECT_THAT(hours, ::testing::ElementsAre(kHour, kHour + absl::Hours(1), kHour + absl::Hours(2)));
}

TEST(Attribute, HeldTimeWithoutAReadingIsUnknownNotUnused) {
  AttributionInput in = OneGpuHour();
  for (int minute = 0; minute < 15; ++minute) {
    in.usage.push_back({"c1", "p1", "g0", kHour + absl::Minutes(minute), 200});
  }
  std::vector<ChargeLine> lines;
  ASSERT_TRUE(Attributed(in, &lines).ok());
  auto held = std::find_if(lines.begin(), lines.end(), [](const ChargeLine& l) { return l.team == "vision"; });
  ASSERT_NE(held, lines.end());
  const ChargeLine& l = *held;
  EXPECT_EQ(l.held_milli_seconds, 500 * 3600);
  EXPECT_EQ(l.observed_milli_seconds, 500 * 15 * 60);  // a quarter of the hour had readings
  EXPECT_EQ(l.used_milli_seconds, 200 * 15 * 60);
}

}  // namespace
}  // namespace fleetcap::attribution
