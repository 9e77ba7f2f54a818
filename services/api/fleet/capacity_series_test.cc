#include "services/api/fleet/capacity_series.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto_time.h"
#include "store/memory_capacity_repository.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kSeriesT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z
constexpr int64_t kHour = 3'600'000;                                // one device for an hour, in milli-device-seconds

constexpr const char* kSeriesPolicy = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: ads
    kind: org
)";

store::ChargebackLineRecord SeriesLine(absl::Time hour, const std::string& cluster, const std::string& model,
                                       const std::string& team, int64_t held, int64_t used,
                                       const std::string& kind = "workload") {
  store::ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = cluster;
  l.team = team;
  l.namespace_name = kind == "workload" ? team + "-ns" : "";
  l.workload = kind == "workload" ? "Job/" + team : "";
  l.model = model;
  l.line_kind = kind;
  l.held_milli_seconds = held;
  l.used_milli_seconds = used;
  l.direct_cost_micro = l.total_cost_micro = 1'000'000;
  return l;
}

Scope SeriesTeamScope(const std::string& team, std::vector<std::string> teams) {
  Scope scope;
  scope.role = Role::kTeam;
  scope.team = team;
  scope.teams = std::move(teams);
  return scope;
}

v1::GetCapacitySeriesRequest SeriesRequest(absl::Time start, absl::Time end, std::vector<std::string> group_by,
                                           v1::Resolution resolution = v1::HOUR) {
  v1::GetCapacitySeriesRequest r;
  *r.mutable_start() = ToProtoTimestamp(start);
  *r.mutable_end() = ToProtoTimestamp(end);
  r.set_resolution(resolution);
  for (auto& g : group_by) r.add_group_by(g);
  return r;
}

class CapacitySeriesQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = kSeriesPolicy;
    record.applied_at = kSeriesT0;
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
    // c1: two A100s all along, a third from 00:30; one T4. c2: one A100 until 01:00.
    devices_.AddDevice("c1", "A100", kSeriesT0 - absl::Hours(5));
    devices_.AddDevice("c1", "A100", kSeriesT0 - absl::Hours(5));
    devices_.AddDevice("c1", "A100", kSeriesT0 + absl::Minutes(30));
    devices_.AddDevice("c1", "T4", kSeriesT0 - absl::Hours(5));
    devices_.AddDevice("c2", "A100", kSeriesT0 - absl::Hours(5), kSeriesT0 + absl::Hours(1));
    ASSERT_THAT(lines_.ReplaceHours("c1", kSeriesT0, kSeriesT0 + absl::Hours(2),
                                    {SeriesLine(kSeriesT0, "c1", "A100", "vision", kHour, kHour / 2),
                                     SeriesLine(kSeriesT0, "c1", "A100", "ads", 2 * kHour, kHour),
                                     SeriesLine(kSeriesT0, "c1", "A100", "idle", 0, 0, "idle"),
                                     SeriesLine(kSeriesT0, "c1", "T4", "ads", kHour / 4, 0),
                                     SeriesLine(kSeriesT0 + absl::Hours(1), "c1", "A100", "vision", kHour, kHour)},
                                    {}),
                IsOk());
    ASSERT_THAT(lines_.ReplaceHours("c2", kSeriesT0, kSeriesT0 + absl::Hours(1),
                                    {SeriesLine(kSeriesT0, "c2", "A100", "vision", kHour, 0)}, {}),
                IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryChargebackRepository lines_;
  store::MemoryCapacityRepository devices_;
  CapacitySeriesQuery query_{&devices_, &lines_, &cache_};
};

TEST_F(CapacitySeriesQueryTest, ByModelHourlyHasCapacityHeldAndUsedPerBucket) {
  auto series = query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"model"}));
  ASSERT_THAT(series, IsOk());
  ASSERT_EQ(series->groups_size(), 2);
  const auto& a100 = series->groups(0);
  EXPECT_EQ(a100.model(), "A100");
  EXPECT_EQ(a100.cluster(), "");
  ASSERT_EQ(a100.buckets_size(), 2);
  // 00:00: c1 two devices + half an hour of the third, c2 one device.
  EXPECT_EQ(a100.buckets(0).capacity_milli_seconds(), 3 * kHour + kHour / 2);
  EXPECT_EQ(a100.buckets(0).held_milli_seconds(), 4 * kHour);
  EXPECT_EQ(a100.buckets(0).used_milli_seconds(), kHour + kHour / 2);
  EXPECT_EQ(FromProtoTimestamp(a100.buckets(1).start()), kSeriesT0 + absl::Hours(1));
  EXPECT_EQ(a100.buckets(1).capacity_milli_seconds(), 3 * kHour);
  EXPECT_EQ(a100.buckets(1).held_milli_seconds(), kHour);
  const auto& t4 = series->groups(1);
  EXPECT_EQ(t4.model(), "T4");
  ASSERT_EQ(t4.buckets_size(), 2);
  EXPECT_EQ(t4.buckets(0).capacity_milli_seconds(), kHour);
  EXPECT_EQ(t4.buckets(0).held_milli_seconds(), kHour / 4);
  // Capacity with nobody holding it is still a bucket.
  EXPECT_EQ(t4.buckets(1).capacity_milli_seconds(), kHour);
  EXPECT_EQ(t4.buckets(1).held_milli_seconds(), 0);
  EXPECT_EQ(series->resolution(), v1::HOUR);
  EXPECT_THAT(series->group_by(), ::testing::ElementsAre("model"));
}

TEST_F(CapacitySeriesQueryTest, GroupsAreOrderedByModelThenClusterAndFiltersApply) {
  auto series = query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {"cluster", "model"}));
  ASSERT_THAT(series, IsOk());
  std::vector<std::string> keys;
  for (const auto& g : series->groups()) keys.push_back(g.model() + "/" + g.cluster());
  EXPECT_THAT(keys, ::testing::ElementsAre("A100/c1", "A100/c2", "T4/c1"));
  auto request = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {"cluster"});
  request.set_cluster("c2");
  auto c2 = query_.Run(Scope{}, request);
  ASSERT_THAT(c2, IsOk());
  ASSERT_EQ(c2->groups_size(), 1);
  EXPECT_EQ(c2->groups(0).cluster(), "c2");
  EXPECT_EQ(c2->groups(0).buckets(0).capacity_milli_seconds(), kHour);
  EXPECT_EQ(c2->groups(0).buckets(0).held_milli_seconds(), kHour);
}

TEST_F(CapacitySeriesQueryTest, ByTeamHasNoCapacityAndLeavesOutTheIdleLine) {
  auto series = query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {"team"}));
  ASSERT_THAT(series, IsOk());
  std::vector<std::string> teams;
  for (const auto& g : series->groups()) {
    teams.push_back(g.team());
    for (const auto& b : g.buckets()) EXPECT_EQ(b.capacity_milli_seconds(), 0) << g.team();
  }
  EXPECT_THAT(teams, ::testing::ElementsAre("ads", "vision"));
  EXPECT_EQ(series->groups(1).buckets(0).held_milli_seconds(), 2 * kHour);
}

TEST_F(CapacitySeriesQueryTest, DailyBucketsSumTheirHours) {
  auto series = query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(24), {}, v1::DAY));
  ASSERT_THAT(series, IsOk());
  ASSERT_EQ(series->groups_size(), 1);
  ASSERT_EQ(series->groups(0).buckets_size(), 1);
  const auto& day = series->groups(0).buckets(0);
  // c1: 3 A100s (one from 00:30) and a T4 all day; c2's A100 for one hour.
  EXPECT_EQ(day.capacity_milli_seconds(), 24 * 3 * kHour - kHour / 2 + 24 * kHour + kHour);
  EXPECT_EQ(day.held_milli_seconds(), 4 * kHour + kHour / 4 + kHour);
}

TEST_F(CapacitySeriesQueryTest, ATeamTokenReadsOnlyItsSubtreeAndNeverTheFleetsCapacity) {
  const Scope vision = SeriesTeamScope("vision", {"vision"});
  auto own = query_.Run(vision, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"team"}));
  ASSERT_THAT(own, IsOk());
  ASSERT_EQ(own->groups_size(), 1);
  EXPECT_EQ(own->groups(0).team(), "vision");
  auto named = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"model"});
  named.set_team("vision");
  auto by_model = query_.Run(vision, named);
  ASSERT_THAT(by_model, IsOk());
  for (const auto& g : by_model->groups()) {
    for (const auto& b : g.buckets()) EXPECT_EQ(b.capacity_milli_seconds(), 0);
  }
  // The fleet by model, another team, a parent and a missing team: denied alike.
  EXPECT_THAT(query_.Run(vision, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"model"})),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("group_by")));
  std::vector<std::string> messages;
  for (const char* other : {"ads", "research", "no-such-team"}) {
    auto request = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"team"});
    request.set_team(other);
    auto denied = query_.Run(vision, request);
    EXPECT_THAT(denied, StatusIs(absl::StatusCode::kPermissionDenied)) << other;
    messages.push_back(std::string(denied.status().message()));
  }
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0], messages[2]);
}

TEST_F(CapacitySeriesQueryTest, BadInputNamesTheField) {
  EXPECT_THAT(query_.Run(Scope{}, v1::GetCapacitySeriesRequest{}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("start")));
  EXPECT_THAT(query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0, {})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("end")));
  EXPECT_THAT(query_.Run(Scope{}, SeriesRequest(kSeriesT0 + absl::Minutes(1), kSeriesT0 + absl::Hours(1), {})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("start")));
  EXPECT_THAT(query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {}, v1::DAY)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("end")));
  EXPECT_THAT(query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {"namespace"})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("group_by")));
  EXPECT_THAT(query_.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(24 * 401), {}, v1::DAY)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("end")));
  auto long_name = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(1), {});
  long_name.set_cluster(std::string(1000, 'c'));
  EXPECT_THAT(query_.Run(Scope{}, long_name), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cluster")));
}

TEST_F(CapacitySeriesQueryTest, ColumnarPutsEveryGroupOnOneTimeAxisWithZerosWhereItHasNoData) {
  // Three hours by cluster: c2 has data in the first hour only (its A100 left at 01:00).
  auto request = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(3), {"cluster"});
  request.set_layout(v1::COLUMNAR);
  auto series = query_.Run(Scope{}, request);
  ASSERT_THAT(series, IsOk());
  EXPECT_EQ(series->layout(), v1::COLUMNAR);
  EXPECT_EQ(series->step_seconds(), 3'600);
  ASSERT_EQ(series->groups_size(), 2);
  const auto& c1 = series->groups(0);
  const auto& c2 = series->groups(1);
  EXPECT_EQ(c1.cluster(), "c1");
  EXPECT_EQ(c1.buckets_size(), 0);
  // c1: 2 A100s + half an hour of the third + a T4, then 3 A100s + a T4.
  EXPECT_THAT(c1.capacity_milli_seconds(), ::testing::ElementsAre(3 * kHour + kHour / 2, 4 * kHour, 4 * kHour));
  EXPECT_THAT(c1.held_milli_seconds(), ::testing::ElementsAre(3 * kHour + kHour / 4, kHour, 0));
  EXPECT_THAT(c1.used_milli_seconds(), ::testing::ElementsAre(kHour + kHour / 2, kHour, 0));
  EXPECT_EQ(c2.cluster(), "c2");
  EXPECT_THAT(c2.capacity_milli_seconds(), ::testing::ElementsAre(kHour, 0, 0));
  EXPECT_THAT(c2.held_milli_seconds(), ::testing::ElementsAre(kHour, 0, 0));
  EXPECT_THAT(c2.used_milli_seconds(), ::testing::ElementsAre(0, 0, 0));

  // The same figures as the bucket layout, bucket by bucket.
  request.set_layout(v1::BUCKETS);
  auto buckets = query_.Run(Scope{}, request);
  ASSERT_THAT(buckets, IsOk());
  EXPECT_EQ(buckets->layout(), v1::BUCKETS);
  for (int g = 0; g < 2; ++g) {
    const auto& columns = series->groups(g);
    for (const auto& b : buckets->groups(g).buckets()) {
      const int i = static_cast<int>((FromProtoTimestamp(b.start()) - kSeriesT0) / absl::Hours(1));
      EXPECT_EQ(columns.capacity_milli_seconds(i), b.capacity_milli_seconds()) << g << "/" << i;
      EXPECT_EQ(columns.held_milli_seconds(i), b.held_milli_seconds()) << g << "/" << i;
      EXPECT_EQ(columns.used_milli_seconds(i), b.used_milli_seconds()) << g << "/" << i;
    }
  }
  // An unknown layout names the field.
  request.set_layout(static_cast<v1::CapacitySeriesLayout>(7));
  EXPECT_THAT(query_.Run(Scope{}, request), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("layout")));
}

TEST_F(CapacitySeriesQueryTest, AColumnarAnswerCountsEveryBucketOfItsAxisAgainstTheBound) {
  // By cluster over three hours: c1 has 3 buckets with data and c2 one
  // (four points), but the columnar answer carries 2 x 3.
  auto request = SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(3), {"cluster"});
  CapacitySeriesQuery four(&devices_, &lines_, &cache_, /*max_points=*/4);
  EXPECT_THAT(four.Run(Scope{}, request), IsOk());
  request.set_layout(v1::COLUMNAR);
  EXPECT_THAT(four.Run(Scope{}, request), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("group_by")));
  CapacitySeriesQuery six(&devices_, &lines_, &cache_, /*max_points=*/6);
  EXPECT_THAT(six.Run(Scope{}, request), IsOk());
}

TEST_F(CapacitySeriesQueryTest, AnAnswerPastTheBoundIsRefusedNamingGroupBy) {
  // Two models over two hours: four points.
  CapacitySeriesQuery four(&devices_, &lines_, &cache_, /*max_points=*/4);
  EXPECT_THAT(four.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"model"})), IsOk());
  CapacitySeriesQuery three(&devices_, &lines_, &cache_, /*max_points=*/3);
  EXPECT_THAT(three.Run(Scope{}, SeriesRequest(kSeriesT0, kSeriesT0 + absl::Hours(2), {"model"})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("group_by")));
}

TEST(CapacitySeriesRequestFromQueryTest, ParsesTheHttpParametersAndNamesBadOnes) {
  auto request = CapacitySeriesRequestFromQuery({{"start", "2026-01-01T00:00:00Z"},
                                                 {"end", "2026-01-02T00:00:00Z"},
                                                 {"resolution", "day"},
                                                 {"group_by", "cluster,model"},
                                                 {"team", "vision"}});
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->resolution(), v1::DAY);
  EXPECT_THAT(request->group_by(), ::testing::ElementsAre("cluster", "model"));
  EXPECT_EQ(request->team(), "vision");
  EXPECT_THAT(CapacitySeriesRequestFromQuery({{"end", "2026-01-02T00:00:00Z"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("start")));
  EXPECT_THAT(CapacitySeriesRequestFromQuery(
                  {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-01-02T00:00:00Z"}, {"resolution", "week"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("resolution")));
  EXPECT_THAT(CapacitySeriesRequestFromQuery(
                  {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-01-02T00:00:00Z"}, {"namespace", "x"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("namespace")));
  EXPECT_THAT(CapacitySeriesRequestFromQuery({{"start", "2026-01-01T00:00:00Z"},
                                              {"end", "2026-01-02T00:00:00Z"},
                                              {"group_by", "team,model,cluster,team"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("group_by")));
  auto columnar = CapacitySeriesRequestFromQuery(
      {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-01-02T00:00:00Z"}, {"layout", "columnar"}});
  ASSERT_THAT(columnar, IsOk());
  EXPECT_EQ(columnar->layout(), v1::COLUMNAR);
  EXPECT_EQ(request->layout(), v1::BUCKETS);
  EXPECT_THAT(CapacitySeriesRequestFromQuery(
                  {{"start", "2026-01-01T00:00:00Z"}, {"end", "2026-01-02T00:00:00Z"}, {"layout", "rows"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("layout")));
}

}  // namespace
}  // namespace fleetcap::api
