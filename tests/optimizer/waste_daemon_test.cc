// Waste end to end on a real PostgreSQL: the real fleetcap-optimizer, after
// its chargeback pass, stores the idle runs and workload hours of a pod held
// idle for four hours and of a pod never read, as worked out here from the
// seeded facts; and the waste pass stores the same rows whatever its batch
// size.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "optimizer/waste_pass/waste_pass.h"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_insight_waste_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
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

// The waste pass reads a cluster's pods in batches of whole workloads: here
// four workloads in two namespaces, nine pods holding whole devices, halves
// and two devices at once, read with idle stretches, gaps and SM activity on
// some devices. Written in batches of one hold, of three and of all of them,
// every stored row is the same.
class WasteBatchTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    testing::MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    h0_ = WholeHourOf(RealClock::Instance()->Now()) - absl::Hours(12);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, h0_, std::nullopt}, ""}};
    for (int d = 0; d < 8; ++d) {
      c.devices.push_back({absl::StrCat("GPU-", d), "node-1", d, "H100", h0_, std::nullopt});
    }
    pods_ = {{"uid-1", "ml", "train", {{0, 1000}}, 0, 12},
             {"uid-2", "ml", "train", {{1, 1000}, {2, 1000}}, 0, 9},
             {"uid-3", "ml", "eval", {{3, 500}}, 1, 12},
             {"uid-4", "ml", "eval", {{3, 500}}, 0, 7},
             {"uid-5", "asr", "train", {{4, 1000}}, 2, 12},
             {"uid-6", "asr", "serve", {{5, 250}}, 0, 12},
             {"uid-7", "asr", "serve", {{5, 250}, {6, 1000}}, 3, 11},
             {"uid-8", "asr", "serve", {{7, 1000}}, 0, 12},
             {"uid-9", "ml", "train", {{2, 1000}}, 9, 12}};
    for (const WastePod& p : pods_) {
      const std::optional<absl::Time> to = p.to_hour < 12 ? std::optional(h0_ + absl::Hours(p.to_hour)) : std::nullopt;
      c.pods.push_back({{p.uid, p.ns, absl::StrCat(p.uid, "-pod"), "", "Job", p.workload, "Running",
                         h0_ + absl::Hours(p.from_hour), h0_ + absl::Hours(p.from_hour), to, 1000, false},
                        "node-1"});
      for (const auto& [device, milli] : p.holds) {
        c.holds.push_back({p.uid, absl::StrCat("GPU-", device), milli, h0_ + absl::Hours(p.from_hour), to});
      }
    }
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(c), IsOk());
    ASSERT_THAT(store::PgUsageRepository(pool()).WriteMinutes("c1", Readings(), "test"), IsOk());
    store::PolicyVersionRecord policy;
    policy.document = kWastePolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(store::PgPolicyRepository(pool()).Apply(policy, std::nullopt, audit), IsOk());
  }

  // Each pod's minutes on each device it holds: idle (1-4 %) for stretches
  // of 30 minutes to 4 hours, busy between, a minute in 40 missing (in 400
  // when idle), SM
  // activity read on the even devices; a fixed seed.
  std::vector<store::UsageMinuteRow> Readings() const {
    std::mt19937 random(33);
    std::vector<store::UsageMinuteRow> rows;
    for (const WastePod& p : pods_) {
      for (const auto& [device, milli] : p.holds) {
        absl::Time m = h0_ + absl::Hours(p.from_hour);
        const absl::Time to = h0_ + absl::Hours(p.to_hour);
        bool idle = random() % 2 == 0;
        while (m < to) {
          const absl::Time stretch_end = std::min(to, m + absl::Minutes(30 + random() % 211));
          for (; m < stretch_end; m += absl::Minutes(1)) {
            if (random() % (idle ? 400 : 40) == 0) continue;
            store::UsageMinuteRow row;
            row.device_id = absl::StrCat("GPU-", device);
            row.pod_uid = p.uid;
            row.minute_ms = absl::ToUnixMillis(m);
            // Of the whole device: a share reads its part of it.
            row.util_mean = (idle ? 0.01 * static_cast<double>(1 + random() % 4) : 0.6) * milli / 1000;
            if (device % 2 == 0) row.sm_active_mean = *row.util_mean / 2;
            row.samples = 4;
            row.namespace_ = p.ns;
            row.pod = absl::StrCat(p.uid, "-pod");
            rows.push_back(row);
          }
          idle = !idle;
        }
      }
    }
    return rows;
  }

  struct Stored {
    std::vector<store::IdlePieceRecord> pieces;
    std::vector<store::WorkloadHourRecord> hours;  // each hour's rows: a sum over one hour of one cluster
  };

  // The twelve hours written by a pass in batches of `batch_holds`, after
  // they were emptied, read back row by row.
  Stored WrittenInBatchesOf(int64_t batch_holds) {
    store::PgInsightWasteRepository waste(pool());
    const absl::Time end = h0_ + absl::Hours(12);
    EXPECT_THAT(waste.ReplaceHours("c1", h0_, end, {}, {}), IsOk());
    store::PgAttributionFactsRepository facts(pool());
    store::PgTeamFactsRepository teams(pool());
    policy::PolicyTimeline timeline(chargeback::PoliciesOf(&teams));
    store::PgUsageRepository usage(pool());
    store::PgChargebackRepository chargeback(pool());
    optimizer::WastePassOptions options;
    options.batch_holds = batch_holds;
    optimizer::WastePass pass({{&facts, &teams, &timeline}, &usage, &chargeback, &waste}, options);
    optimizer::WasteReport report;
    EXPECT_THAT(pass.Write("c1", h0_, end, &report), IsOk());
    Stored out;
    auto pieces = waste.Pieces({h0_, end, {}, "", "c1"});
    EXPECT_THAT(pieces, IsOk());
    if (pieces.ok()) out.pieces = *pieces;
    for (absl::Time h = h0_; h < end; h += absl::Hours(1)) {
      auto hours = waste.WorkloadSums({h, h + absl::Hours(1), {}, "", "c1"});
      EXPECT_THAT(hours, IsOk());
      if (hours.ok()) out.hours.insert(out.hours.end(), hours->begin(), hours->end());
    }
    return out;
  }

  struct WastePod {
    const char* uid;
    const char* ns;
    const char* workload;
    std::vector<std::pair<int, int32_t>> holds;  // device, milli
    int from_hour, to_hour;
  };
  std::vector<WastePod> pods_;
  absl::Time h0_;
};

TEST_F(WasteBatchTest, EveryStoredRowIsTheSameWhateverTheBatchSize) {
  const Stored all = WrittenInBatchesOf(std::numeric_limits<int64_t>::max());
  // Enough to compare: runs in several pods, every workload's hours.
  ASSERT_GE(all.pieces.size(), 20u);
  std::set<std::string> pods_with_runs;
  for (const auto& p : all.pieces) pods_with_runs.insert(p.pod_uid);
  EXPECT_GE(pods_with_runs.size(), 4u);
  ASSERT_GE(all.hours.size(), 40u);
  for (const int64_t batch_holds : {int64_t{1}, int64_t{3}}) {
    SCOPED_TRACE(batch_holds);
    const Stored batched = WrittenInBatchesOf(batch_holds);
    EXPECT_EQ(batched.pieces, all.pieces);
    EXPECT_EQ(batched.hours, all.hours);
  }
}

}  // namespace
}  // namespace fleetcap
