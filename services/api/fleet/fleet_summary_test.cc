#include "services/api/fleet/fleet_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "store/cluster_inventory_changes.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_live_inventory_repository.h"
#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

class FleetSummaryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(repo_.Apply(store::ChangesOf(store::TestInventory())), IsOk()); }
  store::MemoryLiveInventoryRepository repo_;
  SimulatedClock clock_{store::TestT0() + absl::Minutes(90)};
  FleetSummaryQuery query_{&repo_, &clock_};
};

TEST_F(FleetSummaryTest, DefaultsToNowAndTotalsTheModels) {
  v1::GetFleetSummaryRequest request;
  request.set_cluster("c1");
  auto summary = query_.Run(request);
  ASSERT_THAT(summary, IsOk());
  EXPECT_EQ(summary->at().seconds(), absl::ToUnixSeconds(clock_.Now()));
  ASSERT_EQ(summary->models_size(), 2);
  EXPECT_EQ(summary->models(0).model(), "A100");
  EXPECT_EQ(summary->models(1).model(), "T4");
  EXPECT_EQ(summary->models(1).held_milli(), 1250);
  EXPECT_EQ(summary->devices(), 3);
  EXPECT_EQ(summary->held_milli(), 2250);
}

TEST_F(FleetSummaryTest, UsedMilliIsTheLastClosedHoursUseOfEachModel) {
  // The clock is at 01:30: the last closed hour is 00:00-01:00.
  const absl::Time hour =
      absl::FromCivil(absl::ToCivilHour(clock_.Now(), absl::UTCTimeZone()), absl::UTCTimeZone()) - absl::Hours(1);
  auto line = [&](absl::Time at, const std::string& model, int64_t used) {
    store::ChargebackLineRecord l;
    l.hour = at;
    l.cluster = "c1";
    l.team = "vision";
    l.namespace_name = "ns";
    l.workload = "Job/" + model;
    l.model = model;
    l.line_kind = "workload";
    l.held_milli_seconds = 3'600'000;
    l.used_milli_seconds = used;
    return l;
  };
  store::MemoryChargebackRepository lines;
  // A100: half a device used on average; T4: the hour before does not count.
  ASSERT_THAT(lines.ReplaceHours("c1", hour - absl::Hours(1), hour + absl::Hours(1),
                                 {line(hour, "A100", 1'800'000), line(hour - absl::Hours(1), "T4", 3'600'000)}, {}),
              IsOk());
  FleetSummaryQuery with_use(&repo_, &clock_, nullptr, &lines);
  v1::GetFleetSummaryRequest request;
  request.set_cluster("c1");
  auto summary = with_use.Run(request);
  ASSERT_THAT(summary, IsOk());
  ASSERT_EQ(summary->models_size(), 2);
  EXPECT_EQ(summary->models(0).used_milli(), 500);
  EXPECT_EQ(summary->models(1).used_milli(), 0);
}

TEST_F(FleetSummaryTest, ExplicitInstantFromQueryString) {
  auto request = FleetSummaryRequestFromQuery({{"cluster", "c1"}, {"at", "2026-01-01T00:30:00Z"}});
  ASSERT_THAT(request, IsOk());
  auto summary = query_.Run(*request);
  ASSERT_THAT(summary, IsOk());
  EXPECT_EQ(summary->devices(), 2);
  EXPECT_EQ(summary->held_milli(), 1000);
}

TEST_F(FleetSummaryTest, BadInstantIsInvalidArgumentNamingTheField) {
  auto request = FleetSummaryRequestFromQuery({{"cluster", "c1"}, {"at", "noon"}});
  ASSERT_THAT(request, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at")));

  v1::GetFleetSummaryRequest bad_nanos;
  bad_nanos.mutable_at()->set_nanos(-1);
  auto result = query_.Run(bad_nanos);
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at.nanos")));

  v1::GetFleetSummaryRequest far_future;
  far_future.mutable_at()->set_seconds(int64_t{1} << 40);
  EXPECT_THAT(query_.Run(far_future), StatusIs(absl::StatusCode::kInvalidArgument));
}

// Stored counts as given, to reach totals no real inventory has yet.
class FixedCounts : public store::InventoryReader {
 public:
  explicit FixedCounts(std::vector<store::ModelCount> counts) : counts_(std::move(counts)) {}
  absl::StatusOr<std::vector<store::ModelCount>> SummarizeAt(const std::string&, absl::Time) override {
    return counts_;
  }
  absl::StatusOr<std::map<std::string, std::string>> SharedNodeLabels(const std::string&, const std::string&,
                                                                      const std::string&) override {
    return std::map<std::string, std::string>{};
  }

 private:
  std::vector<store::ModelCount> counts_;
};

TEST_F(FleetSummaryTest, TotalsPastInt64AreAnErrorNamingTheFieldNotAWrap) {
  constexpr int64_t kHalf = std::numeric_limits<int64_t>::max() / 2 + 1;
  FixedCounts counts({{"A100", 1, kHalf}, {"T4", 1, kHalf}});
  FleetSummaryQuery query(&counts, &clock_);
  auto summary = query.Run(v1::GetFleetSummaryRequest());
  ASSERT_THAT(summary, Not(IsOk())) << "held_milli total " << summary->held_milli();
  EXPECT_THAT(summary, StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("held_milli")));
}

TEST_F(FleetSummaryTest, UnknownClusterIsNotFound) {
  v1::GetFleetSummaryRequest request;
  request.set_cluster("elsewhere");
  EXPECT_THAT(query_.Run(request), StatusIs(absl::StatusCode::kNotFound));
}

}  // namespace
}  // namespace fleetcap::api
