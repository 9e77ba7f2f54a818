#include "services/api/planning/forecast_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto_time.h"
#include "store/memory_forecast_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// 2026-01-01T18:00:00Z: the forecast starts six hours before a midnight.
const absl::Time kStart = absl::FromUnixSeconds(1'767'225'600 + 18 * 3600);
constexpr int kHorizon = 2160;

std::vector<int64_t> Ramp(int n, int64_t from) {
  std::vector<int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}

store::ForecastSeriesRecord Series(const std::string& team, const std::string& what) {
  store::ForecastSeriesRecord s;
  s.flavor = "h100";
  s.team = team;
  s.what = what;
  s.model = what == "capacity" ? "last_value" : "holt_winters_weekly";
  s.history = Ramp(kHorizon, 0);
  s.p50 = Ramp(kHorizon, 10'000);
  s.p90 = Ramp(kHorizon, 20'000);
  if (what == "capacity") s.p90 = s.p50;
  return s;
}

Scope ForecastPlanner() { return Scope{"p", Role::kPlanner, "", {}}; }
Scope TeamVision() { return Scope{"t", Role::kTeam, "vision", {"vision", "vision-detect"}}; }

v1::GetForecastRequest ForecastRequest(const std::string& team, int32_t horizon, const std::string& what = "") {
  v1::GetForecastRequest r;
  r.set_flavor("h100");
  r.set_team(team);
  r.set_horizon_hours(horizon);
  r.set_what(what);
  return r;
}

class ForecastQueryTest : public ::testing::Test {
 protected:
  void StoreRun() {
    store::ForecastRunDraft d;
    d.header.computed_at = kStart + absl::Minutes(5);
    d.header.history_start = kStart - absl::Hours(kHorizon);
    d.header.forecast_start = kStart;
    d.header.horizon_hours = kHorizon;
    d.series = {Series("", "held"), Series("", "capacity"), Series("vision-detect", "held"),
                Series("vision-detect", "pending"), Series("ads", "held")};
    d.series[0].exhaustion_p50 = absl::FromUnixSeconds(1'767'225'600 + 20 * 86400);
    d.series[0].exhaustion_p90 = absl::FromUnixSeconds(1'767'225'600 + 2 * 86400);
    d.series[0].fit = {{"alpha", 0.25}};
    d.series[2].fallback_reason = "short";
    ASSERT_THAT(repo_.StoreRun(d), IsOk());
  }

  store::MemoryForecastRepository repo_;
  ForecastQuery query_{&repo_};
};

TEST_F(ForecastQueryTest, BeforeTheFirstRunItIsNotFound) {
  EXPECT_THAT(query_.Run(ForecastPlanner(), ForecastRequest("", 24)),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no forecast yet")));
}

TEST_F(ForecastQueryTest, AShortHorizonIsHourlyWithTheHistoryTailCapacityAndExhaustion) {
  StoreRun();
  auto f = query_.Run(ForecastPlanner(), ForecastRequest("", 48));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->run_id(), 1);
  EXPECT_EQ(f->resolution(), v1::HOUR);
  EXPECT_EQ(f->horizon_hours(), 48);
  EXPECT_EQ(f->what(), "held");
  EXPECT_EQ(f->model(), "holt_winters_weekly");
  ASSERT_EQ(f->fit_size(), 1);
  EXPECT_EQ(f->fit(0).name(), "alpha");
  EXPECT_EQ(f->fit(0).value(), 0.25);
  ASSERT_EQ(f->history_size(), 48);
  EXPECT_EQ(FromProtoTimestamp(f->history(0).start()), kStart - absl::Hours(48));
  EXPECT_EQ(f->history(47).milli(), kHorizon - 1);  // the last hour before the forecast
  ASSERT_EQ(f->forecast_size(), 48);
  EXPECT_EQ(FromProtoTimestamp(f->forecast(0).start()), kStart);
  EXPECT_EQ(f->forecast(0).p50_milli(), 10'000);
  EXPECT_EQ(f->forecast(47).p90_milli(), 20'047);
  EXPECT_EQ(f->capacity_history_size(), 48);
  EXPECT_EQ(f->capacity_forecast_size(), 48);
  // The p90 runs out within two days of the horizon, the p50 not.
  EXPECT_FALSE(f->exhaustion().has_p50_day());
  ASSERT_TRUE(f->exhaustion().has_p90_day());
  EXPECT_EQ(FromProtoTimestamp(f->exhaustion().p90_day()), absl::FromUnixSeconds(1'767'225'600 + 2 * 86400));
}

TEST_F(ForecastQueryTest, ALongHorizonIsDailyPeaksOverWholeDays) {
  StoreRun();
  auto f = query_.Run(ForecastPlanner(), ForecastRequest("", 0));  // 0: the whole 90 days
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->resolution(), v1::DAY);
  EXPECT_EQ(f->horizon_hours(), kHorizon);
  // Six hours to the first midnight, then 89 whole days and 18 hours: 91 buckets.
  ASSERT_EQ(f->forecast_size(), 91);
  EXPECT_EQ(FromProtoTimestamp(f->forecast(0).start()), absl::FromUnixSeconds(1'767'225'600));
  EXPECT_EQ(f->forecast(0).p50_milli(), 10'005);  // the peak of the day's first six hours
  EXPECT_EQ(f->forecast(1).p50_milli(), 10'029);
  EXPECT_EQ(FromProtoTimestamp(f->history(0).start()), absl::FromUnixSeconds(1'767'225'600 - 90 * 86400));
  // The lowest hour of a day for capacity.
  EXPECT_EQ(f->capacity_forecast(1).milli(), 10'006);
  ASSERT_TRUE(f->exhaustion().has_p50_day());
}

TEST_F(ForecastQueryTest, PendingHasNoExhaustion) {
  StoreRun();
  auto f = query_.Run(ForecastPlanner(), ForecastRequest("vision-detect", 24, "pending"));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->what(), "pending");
  EXPECT_FALSE(f->has_exhaustion());
}

TEST_F(ForecastQueryTest, ATeamReadsItsSubtreeWithoutCapacity) {
  StoreRun();
  auto f = query_.Run(TeamVision(), ForecastRequest("vision-detect", 24));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->fallback_reason(), "short");
  EXPECT_EQ(f->capacity_history_size(), 0);
  EXPECT_EQ(f->capacity_forecast_size(), 0);
  EXPECT_FALSE(f->has_exhaustion());
  EXPECT_THAT(query_.Run(TeamVision(), ForecastRequest("", 24)),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("the total of flavor h100")));
  EXPECT_THAT(query_.Run(TeamVision(), ForecastRequest("ads", 24)), StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_THAT(query_.Run(TeamVision(), ForecastRequest("nobody", 24)), StatusIs(absl::StatusCode::kPermissionDenied));
}

TEST_F(ForecastQueryTest, AMissingSeriesIsNotFound) {
  StoreRun();
  EXPECT_THAT(
      query_.Run(ForecastPlanner(), ForecastRequest("ads", 24, "pending")),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("no pending series of flavor \"h100\" and team \"ads\"")));
}

TEST_F(ForecastQueryTest, BadRequestsNameTheField) {
  StoreRun();
  v1::GetForecastRequest no_flavor = ForecastRequest("", 24);
  no_flavor.clear_flavor();
  EXPECT_THAT(query_.Run(ForecastPlanner(), no_flavor),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor: missing")));
  EXPECT_THAT(query_.Run(ForecastPlanner(), ForecastRequest("", 2161)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("horizon_hours: 2161 is out of range")));
  EXPECT_THAT(query_.Run(ForecastPlanner(), ForecastRequest("", -1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("horizon_hours")));
  EXPECT_THAT(query_.Run(ForecastPlanner(), ForecastRequest("", 24, "wanted")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("what: \"wanted\" is not one of held, pending")));
  EXPECT_THAT(query_.Run(ForecastPlanner(), ForecastRequest(std::string(300, 't'), 24)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team: 300 bytes")));
}

TEST(ForecastRequestFromQueryTest, ReadsHoursAndDays) {
  auto hours = ForecastRequestFromQuery({{"flavor", "h100"}, {"horizon", "72h"}, {"team", "a"}, {"what", "pending"}});
  ASSERT_THAT(hours, IsOk());
  EXPECT_EQ(hours->horizon_hours(), 72);
  EXPECT_EQ(hours->team(), "a");
  EXPECT_EQ(hours->what(), "pending");
  auto days = ForecastRequestFromQuery({{"flavor", "h100"}, {"horizon", "90d"}});
  ASSERT_THAT(days, IsOk());
  EXPECT_EQ(days->horizon_hours(), 2160);
}

TEST(ForecastRequestFromQueryTest, BadHorizonsAndUnknownParametersNameTheParameter) {
  for (const char* bad : {"91d", "2161h", "0h", "-1d", "+2d", "7", "d", "1.5d", "1w", "99999999999h"}) {
    EXPECT_THAT(ForecastRequestFromQuery({{"flavor", "h100"}, {"horizon", bad}}),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("horizon: \"")))
        << bad;
  }
  EXPECT_THAT(ForecastRequestFromQuery({{"flavor", "h100"}, {"horizn", "1d"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("horizn")));
}

}  // namespace
}  // namespace fleetcap::api
