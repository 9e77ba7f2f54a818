// Waste end to end on a real PostgreSQL: the real fleetcap-optimizer, after
// its chargeback pass, stores the idle runs and workload hours of a pod held
// idle for four hours and of a pod never read, as worked out here from the
// seeded facts.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "store/pg_control_repositories.h"
#include "store/pg_insight_waste_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_usage_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;

// An H100 at 3.60 a device-hour (0.06 a minute); waste after 2 h below 5 %.
constexpr const char* kWastePolicy = R"(version: 1
teams: [{name: vision}, {name: speech}]
namespaces: [{namespace: ml, team: vision}, {namespace: asr, team: speech}]
prices: [{model: H100, from: 2025-01-01T00:00:00Z, per_device_hour: "3.60"}]
insights: {idle_below: 5%, idle_for: 2h}
)";

absl::Time WholeHourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class WasteDaemonTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    testing::MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    // Six whole hours: vision's pod holds GPU-0 and reads 1 % for four hours,
    // then 90 %; speech's pod holds half of GPU-1 and is never read.
    h0_ = WholeHourOf(RealClock::Instance()->Now()) - absl::Hours(6);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, h0_, std::nullopt}, ""}};
    c.devices = {{"GPU-0", "node-1", 0, "H100", h0_, std::nullopt}, {"GPU-1", "node-1", 1, "H100", h0_, std::nullopt}};
    c.pods = {
        {{"uid-v", "ml", "train-0", "", "Job", "train", "Running", h0_, h0_, std::nullopt, 1000, false}, "node-1"},
        {{"uid-s", "asr", "asr-0", "", "Job", "asr", "Running", h0_, h0_, std::nullopt, 500, false}, "node-1"}};
    c.holds = {{"uid-v", "GPU-0", 1000, h0_, std::nullopt}, {"uid-s", "GPU-1", 500, h0_, std::nullopt}};
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(c), IsOk());
    std::vector<store::UsageMinuteRow> minutes;
    for (absl::Time m = h0_; m < h0_ + absl::Hours(6); m += absl::Minutes(1)) {
      store::UsageMinuteRow row;
      row.device_id = "GPU-0";
      row.pod_uid = "uid-v";
      row.minute_ms = absl::ToUnixMillis(m);
      row.util_mean = m < h0_ + absl::Hours(4) ? 0.01 : 0.9;
      row.samples = 4;
      row.namespace_ = "ml";
      row.pod = "train-0";
      minutes.push_back(row);
    }
    auto written = store::PgUsageRepository(pool()).WriteMinutes("c1", minutes, "test");
    ASSERT_THAT(written, IsOk());
    ASSERT_EQ(written->written, 360);
    store::PolicyVersionRecord policy;
    policy.document = kWastePolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(store::PgPolicyRepository(pool()).Apply(policy, std::nullopt, audit), IsOk());
  }

  absl::Time h0_;
};

TEST_F(WasteDaemonTest, APassStoresTheIdleRunsAndWorkloadHoursOfTheClosedHours) {
  const testing::RunResult once = testing::Run(
      {fleetcap::testing::kOptimizerBin, "--once", "--db", db_->uri(), "--close-delay", "0s", "--batch-hours", "3"});
  ASSERT_EQ(once.exit_code, 0) << once.err;
  store::PgInsightWasteRepository waste(pool());
  const store::WasteFilter six_hours{h0_, h0_ + absl::Hours(6), {}, "", ""};
  auto pieces = waste.Pieces(six_hours);
  ASSERT_THAT(pieces, IsOk());
  // One run of four hours, in batches of three: a piece an hour, 3.60 each.
  ASSERT_EQ(pieces->size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const store::IdlePieceRecord& p = (*pieces)[static_cast<size_t>(i)];
    EXPECT_EQ(p.pod_uid, "uid-v");
    EXPECT_EQ(p.team, "vision");
    EXPECT_EQ(p.workload, "Job/train");
    EXPECT_EQ(p.model, "H100");
    EXPECT_EQ(p.start, h0_ + absl::Hours(i));
    EXPECT_EQ(p.end, h0_ + absl::Hours(i + 1));
    EXPECT_EQ(p.wasted_milli_seconds, 3'600'000);
    EXPECT_EQ(p.wasted_cost_micro, 3'600'000);
    EXPECT_EQ(p.activity_milli_seconds, 36'000);  // 1 %
  }
  auto sums = waste.WorkloadSums(six_hours);
  ASSERT_THAT(sums, IsOk());
  ASSERT_EQ(sums->size(), 2u);
  // By team: speech first. Half a device for six hours, never read.
  EXPECT_EQ((*sums)[0].team, "speech");
  EXPECT_EQ((*sums)[0].held_milli_seconds, 500 * 6 * 3600);
  EXPECT_EQ((*sums)[0].observed_milli_seconds, 0);
  EXPECT_EQ((*sums)[1].team, "vision");
  EXPECT_EQ((*sums)[1].held_milli_seconds, 1000 * 6 * 3600);
  EXPECT_EQ((*sums)[1].observed_milli_seconds, 1000 * 6 * 3600);
  EXPECT_EQ((*sums)[1].active_milli_seconds, 4 * 36'000 + 2 * 3'240'000);
  auto watermark = waste.Watermark("c1");
  ASSERT_THAT(watermark, IsOk());
  ASSERT_TRUE(watermark->has_value());
  EXPECT_GE(**watermark, h0_ + absl::Hours(6));
}

}  // namespace
}  // namespace fleetcap
