#include "optimizer/insights_pass/rightsizing_pass.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "absl/strings/str_cat.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "optimizer/insights_pass/rightsizing_workloads.h"
#include "store/memory_rightsizing_repository.h"
#include "store/memory_team_facts_repository.h"
#include "store/memory_usage_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::optimizer {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

const absl::Time kDay = absl::FromUnixSeconds(1'796'083'200);  // 2026-12-01T00:00:00Z

// vision owns ml; a one-day lookback.
constexpr const char* kPolicy = R"(version: 1
teams: [{name: vision}]
namespaces: [{namespace: ml, team: vision}]
prices: [{model: H100-SXM5-80GB, from: 2026-01-01T00:00:00Z, per_device_hour: "4.00"}]
insights: {rightsizing_lookback_days: 1}
)";

// The inventory's facts, as given: a stand-in for this test only.
class GivenFacts : public store::AttributionFactsRepository {
 public:
  absl::StatusOr<store::AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                                      absl::Time end) const override {
    asked.push_back(absl::StrCat(cluster, " ", absl::FormatTime(start), " ", absl::FormatTime(end)));
    return cluster == "c1" ? record : store::AttributionFactsRecord{};
  }
  absl::StatusOr<store::AttributionFactsRecord> HoldFacts(const std::string& cluster, absl::Time start,
                                                          absl::Time end) const override {
    return Facts(cluster, start, end);
  }
  absl::StatusOr<std::vector<store::ClusterHistoryRecord>> Clusters() const override {
    return std::vector<store::ClusterHistoryRecord>{{"c1", kDay - absl::Hours(48)}, {"c2", kDay - absl::Hours(48)}};
  }
  store::AttributionFactsRecord record;
  mutable std::vector<std::string> asked;
};

class RightsizingPassTest : public ::testing::Test {
 protected:
  RightsizingPassTest()
      : clock_(kDay + absl::Hours(24) + absl::Minutes(30)),
        usage_(store::UsageStoreOptions{400, &clock_}),
        policies_(chargeback::PoliciesOf(&teams_)),
        directory_(&teams_, &policies_),
        pass_({&facts_, &usage_, &directory_, &stored_}, {}, &clock_) {
    // One training pod holds 4 H100s from the day before; only g0 and g1
    // are busy, every minute of the lookback (2026-12-01, the day before the clock's).
    for (int d = 0; d < 4; ++d) {
      const std::string device = absl::StrCat("g", d);
      facts_.record.devices.push_back({device, "n1", "H100-SXM5-80GB", kDay - absl::Hours(24), kDay + absl::Hours(48)});
      facts_.record.holds.push_back(
          {"uid-t", "ml", "", "Job/train", device, 1000, kDay - absl::Hours(24), kDay + absl::Hours(48)});
    }
    std::vector<store::UsageMinuteRow> rows;
    for (int64_t m = 0; m < 24 * 60; ++m) {
      for (int d = 0; d < 4; ++d) {
        store::UsageMinuteRow r;
        r.device_id = absl::StrCat("g", d);
        r.pod_uid = "uid-t";
        r.minute_ms = absl::ToUnixMillis(kDay + absl::Minutes(m));
        r.namespace_ = "ml";
        r.pod = "train-0";
        r.util_mean = d < 2 ? 0.9 : 0.0;
        r.memory_used_bytes = 60'000'000'000;
        r.memory_total_bytes = 80'000'000'000;
        r.samples = 4;
        rows.push_back(r);
      }
    }
    EXPECT_THAT(usage_.WriteMinutes("c1", rows, "pull"), IsOk());
  }

  SimulatedClock clock_;
  GivenFacts facts_;
  store::MemoryUsageRepository usage_;
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline policies_;
  teams::TeamDirectory directory_;
  store::MemoryRightsizingRepository stored_;
  RightsizingPass pass_;
};

TEST_F(RightsizingPassTest, StoresEachClustersRecommendationsOncePerInterval) {
  teams_.Apply(kPolicy, kDay - absl::Hours(48));
  auto report = pass_.Run();
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->clusters, 2);
  EXPECT_EQ(report->recommendations, 1);
  // The lookback is the policy's one day, to the current whole hour.
  EXPECT_THAT(facts_.asked, ElementsAre("c1 2026-12-01T00:00:00+00:00 2026-12-02T00:00:00+00:00",
                                        "c2 2026-12-01T00:00:00+00:00 2026-12-02T00:00:00+00:00"));
  auto runs = stored_.Latest({});
  ASSERT_THAT(runs, IsOk());
  ASSERT_EQ(runs->size(), 2u);
  const store::RightsizingRun& c1 = (*runs)[0];
  EXPECT_EQ(c1.lookback_end, kDay + absl::Hours(24));
  EXPECT_EQ(c1.computed_at, clock_.Now());
  EXPECT_EQ(c1.currency, "USD");
  // Every minute of the day read: medium. 2 of 4 busy -> 2 devices;
  // (4000 - 2000) x 4.00 x 720 / 1000 = 5760.
  EXPECT_THAT(c1.recommendations,
              ElementsAre(AllOf(Field(&store::RightsizingRecord::team, "vision"),
                                Field(&store::RightsizingRecord::kind, "fewer_devices"),
                                Field(&store::RightsizingRecord::proposed, "2 x H100-SXM5-80GB"),
                                Field(&store::RightsizingRecord::observed_minutes, 24 * 60),
                                Field(&store::RightsizingRecord::savings_micro_per_month, 5'760'000'000))));
  EXPECT_EQ(report->savings_micro_per_month, 5'760'000'000);
  // A cluster with nothing to recommend keeps a run of none.
  EXPECT_TRUE((*runs)[1].recommendations.empty());

  // Later the same UTC day: nothing computed again.
  clock_.Advance(absl::Hours(20));
  report = pass_.Run();
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->clusters, 0);
  EXPECT_EQ(report->current, 2);
  // The next day: computed again, over the day the readings no longer cover.
  clock_.Advance(absl::Hours(4));
  report = pass_.Run();
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->clusters, 2);
  runs = stored_.Latest({"c1", "", std::nullopt});
  ASSERT_THAT(runs, IsOk());
  EXPECT_TRUE((*runs)[0].recommendations.empty()) << "no reading in the lookback is no evidence";
}

TEST_F(RightsizingPassTest, TheRecommendationsAreTheSameWhateverTheBatchSize) {
  teams_.Apply(kPolicy, kDay - absl::Hours(48));
  // Besides train (4 devices, 2 busy): eval's two pods of 3 devices each,
  // one busy each; serve's pod of 2 devices, 1 busy and its memory a tenth.
  std::vector<store::UsageMinuteRow> rows;
  const auto hold = [&](const std::string& pod, const std::string& workload, const std::string& device, bool busy,
                        int64_t memory) {
    facts_.record.devices.push_back({device, "n1", "H100-SXM5-80GB", kDay - absl::Hours(24), kDay + absl::Hours(48)});
    facts_.record.holds.push_back(
        {pod, "ml", "", workload, device, 1000, kDay - absl::Hours(24), kDay + absl::Hours(48)});
    for (int64_t m = 0; m < 24 * 60; ++m) {
      store::UsageMinuteRow r;
      r.device_id = device;
      r.pod_uid = pod;
      r.minute_ms = absl::ToUnixMillis(kDay + absl::Minutes(m));
      r.util_mean = busy ? 0.8 : 0.0;
      r.memory_used_bytes = memory;
      r.memory_total_bytes = 80'000'000'000;
      r.samples = 4;
      rows.push_back(r);
    }
  };
  for (int d = 0; d < 3; ++d) hold("uid-e1", "Job/eval", absl::StrCat("e", d), d == 0, 40'000'000'000);
  for (int d = 0; d < 3; ++d) hold("uid-e2", "Job/eval", absl::StrCat("f", d), d == 0, 40'000'000'000);
  for (int d = 0; d < 2; ++d) hold("uid-s", "Deployment/serve", absl::StrCat("s", d), d == 0, 8'000'000'000);
  ASSERT_THAT(usage_.WriteMinutes("c1", rows, "pull"), IsOk());
  const auto stored_in_batches_of = [&](int64_t batch_holds) {
    store::MemoryRightsizingRepository stored;
    RightsizingPassOptions options;
    options.batch_holds = batch_holds;
    RightsizingPass pass({&facts_, &usage_, &directory_, &stored}, options, &clock_);
    EXPECT_THAT(pass.Run(), IsOk());
    auto runs = stored.Latest({"c1", "", std::nullopt});
    EXPECT_THAT(runs, IsOk());
    return runs.ok() && !runs->empty() ? (*runs)[0].recommendations : std::vector<store::RightsizingRecord>{};
  };
  const std::vector<store::RightsizingRecord> whole = stored_in_batches_of(std::numeric_limits<int64_t>::max());
  ASSERT_GE(whole.size(), 3u);
  EXPECT_EQ(stored_in_batches_of(1), whole);
  EXPECT_EQ(stored_in_batches_of(4), whole);
}

TEST_F(RightsizingPassTest, WithoutPolicyNothingIsStored) {
  auto report = pass_.Run();
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->skipped, "no policy");
  auto runs = stored_.Latest({});
  ASSERT_THAT(runs, IsOk());
  EXPECT_TRUE(runs->empty());
}

TEST(RightsizingWorkloadsTest, GroupsHoldsByControllerAndModelAndJoinsTheirReadings) {
  store::AttributionFactsRecord facts;
  facts.devices = {{"g0", "n1", "A100-SXM4-80GB", kDay, kDay + absl::Hours(1)},
                   {"g1", "n1", "A100-SXM4-80GB", kDay, kDay + absl::Hours(1)},
                   {"t0", "n2", "T4", kDay, kDay + absl::Hours(1)}};
  facts.holds = {{"uid-a", "ml", "", "Job/train", "g0", 1000, kDay, kDay + absl::Hours(1)},
                 {"uid-b", "ml", "", "Job/train", "g1", 1000, kDay, kDay + absl::Hours(1)},
                 {"uid-b", "ml", "", "Job/train", "t0", 1000, kDay, kDay + absl::Hours(1)},
                 {"uid-c", "ml", "vision", "", "t0", 500, kDay, kDay + absl::Hours(1)},
                 {"uid-x", "", "", "", "g0", 1000, kDay, kDay + absl::Hours(1)}};  // a pod nobody knows
  store::UsageMinuteRow reading;
  reading.device_id = "g1";
  reading.pod_uid = "uid-b";
  reading.minute_ms = absl::ToUnixMillis(kDay);
  reading.util_mean = 0.5;
  store::UsageMinuteRow device_level = reading;
  device_level.pod_uid = "";
  store::UsageMinuteRow stranger = reading;
  stranger.pod_uid = "uid-z";
  std::vector<std::string> asked;
  const auto workloads =
      RightsizingWorkloads("c1", facts, {reading, device_level, stranger}, [&](const policy::PodEvidence& pod) {
        asked.push_back(pod.team_label);
        return pod.team_label.empty() ? "ml-team" : pod.team_label;
      });
  ASSERT_EQ(workloads.size(), 3u);
  EXPECT_EQ(workloads[0].workload, "Job/train");
  EXPECT_EQ(workloads[0].model, "A100-SXM4-80GB");
  EXPECT_EQ(workloads[0].team, "ml-team");
  EXPECT_EQ(workloads[0].holds.size(), 2u);
  ASSERT_EQ(workloads[0].minutes.size(), 1u);
  EXPECT_EQ(workloads[0].minutes[0].util_mean, 0.5);
  EXPECT_EQ(workloads[1].model, "T4");
  EXPECT_TRUE(workloads[1].minutes.empty());
  EXPECT_EQ(workloads[2].workload, "Pod/uid-c");
  EXPECT_EQ(workloads[2].team, "vision");
}

TEST(RightsizingPassOptionsTest, AnIntervalOutOfRangeNamesItsFlag) {
  EXPECT_THAT(ValidateRightsizingPassOptions({absl::Minutes(30)}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--insights-interval")));
  EXPECT_THAT(ValidateRightsizingPassOptions({absl::Hours(24 * 32)}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--insights-interval")));
  EXPECT_THAT(ValidateRightsizingPassOptions({absl::Hours(24)}), IsOk());
}

}  // namespace
}  // namespace fleetcap::optimizer
