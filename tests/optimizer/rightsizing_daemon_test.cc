// Rightsizing end to end: the real fleetcap-optimizer on a real PostgreSQL
// turns a pod's holds and its per-minute readings into stored
// recommendations, once a UTC day per cluster.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_rightsizing_repository.h"
#include "store/pg_usage_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

// vision owns ml; a one-day lookback.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: vision
namespaces:
  - namespace: ml
    team: vision
prices:
  - model: H100-SXM5-80GB
    from: 2025-01-01T00:00:00Z
    per_device_hour: "4.00"
insights:
  rightsizing_lookback_days: 1
)";

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class RightsizingDaemonTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    testing::MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    // A training pod holds 8 H100s since the day before; over the last
    // three whole hours (the lookback's end is the current whole hour) g0..g2
    // are busy, the other five idle.
    end_ = HourOf(RealClock::Instance()->Now());
    const absl::Time since = end_ - absl::Hours(30);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100-SXM5-80GB", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, since, std::nullopt}, ""}};
    for (int i = 0; i < 8; ++i) {
      c.devices.push_back({absl::StrCat("GPU-", i), "node-1", i, "H100-SXM5-80GB", since, std::nullopt});
      c.holds.push_back({"uid-t", absl::StrCat("GPU-", i), 1000, since, std::nullopt});
    }
    c.pods = {
        {{"uid-t", "ml", "train-0", "", "Job", "train", "Running", since, since, std::nullopt, 8000, false}, "node-1"}};
    store::PgLiveInventoryRepository inventory(pool());
    ASSERT_THAT(inventory.Apply(c), IsOk());
    std::vector<store::UsageMinuteRow> rows;
    for (absl::Time m = end_ - absl::Hours(3); m < end_; m += absl::Minutes(1)) {
      for (int i = 0; i < 8; ++i) {
        store::UsageMinuteRow r;
        r.device_id = absl::StrCat("GPU-", i);
        r.pod_uid = "uid-t";
        r.minute_ms = absl::ToUnixMillis(m);
        r.namespace_ = "ml";
        r.pod = "train-0";
        r.util_mean = i < 3 ? 0.8 : 0.01;
        r.memory_used_bytes = 50'000'000'000;
        r.memory_total_bytes = 80'000'000'000;
        r.samples = 4;
        rows.push_back(r);
      }
    }
    store::PgUsageRepository usage(pool());
    ASSERT_THAT(usage.WriteMinutes("c1", rows, "pull"), IsOk());
    store::PgPolicyRepository policies(pool());
    store::PolicyVersionRecord policy;
    policy.document = kPolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(policies.Apply(policy, std::nullopt, audit), IsOk());
  }

  testing::RunResult Once() {
    return testing::Run({fleetcap::testing::kOptimizerBin, "--once", "--db", db_->uri(), "--close-delay", "0s"});
  }

  absl::Time end_;
};

TEST_F(RightsizingDaemonTest, StoresEachClustersRecommendationsOnceADay) {
  const testing::RunResult first = Once();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_THAT(first.out, HasSubstr("fleetcap-optimizer: rightsizing stored for 1 clusters, 1 recommendations"));
  const testing::RunResult second = Once();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, ::testing::Not(HasSubstr("rightsizing stored"))) << "once a UTC day";

  store::PgRightsizingRepository stored(pool());
  auto runs = stored.Latest({});
  ASSERT_THAT(runs, IsOk());
  ASSERT_EQ(runs->size(), 1u);
  const store::RightsizingRun& run = (*runs)[0];
  EXPECT_EQ(run.cluster, "c1");
  EXPECT_EQ(run.lookback_end, end_);
  EXPECT_EQ(run.lookback_start, end_ - absl::Hours(24));
  EXPECT_EQ(run.currency, "USD");
  // Held 8 devices for the whole day: 8000; 3 of 8 busy in every one of the
  // 180 observed minutes -> 3 devices, 3000; (8000 - 3000) x 4.00 x 720 /
  // 1000 = 14400.00 a month, low confidence (under a day of minutes).
  EXPECT_THAT(
      run.recommendations,
      ElementsAre(AllOf(
          Field(&store::RightsizingRecord::team, "vision"), Field(&store::RightsizingRecord::namespace_name, "ml"),
          Field(&store::RightsizingRecord::workload, "Job/train"),
          Field(&store::RightsizingRecord::kind, "fewer_devices"),
          Field(&store::RightsizingRecord::current, "8 x H100-SXM5-80GB"),
          Field(&store::RightsizingRecord::proposed, "3 x H100-SXM5-80GB"),
          Field(&store::RightsizingRecord::current_milli, 8000), Field(&store::RightsizingRecord::proposed_milli, 3000),
          Field(&store::RightsizingRecord::savings_micro_per_month, 14'400'000'000),
          Field(&store::RightsizingRecord::observed_minutes, 180),
          Field(&store::RightsizingRecord::confidence, "low"))));
}

}  // namespace
}  // namespace fleetcap
