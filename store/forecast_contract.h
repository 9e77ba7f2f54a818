#pragma once
// The behaviour every ForecastRepository promises, as test steps shared by
// the in-memory form's unit test and the PostgreSQL integration test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "store/forecast_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::forecast_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// 2026-03-02T06:00:00.123456789Z: the nanoseconds are dropped on store.
const absl::Time kComputedAt = absl::FromUnixNanos(1'772'431'200'123'456'789);
const absl::Time kForecastStart = absl::FromUnixSeconds(1'772'431'200);  // 2026-03-02T06:00:00Z
constexpr int kHistoryHours = 6;
constexpr int kHorizonHours = 48;

inline std::vector<int64_t> Ramp(int n, int64_t from, int64_t step) {
  std::vector<int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(from + step * i);
  return v;
}

inline ForecastSeriesRecord Series(const std::string& flavor, const std::string& team, const std::string& what) {
  ForecastSeriesRecord s;
  s.flavor = flavor;
  s.team = team;
  s.what = what;
  s.model = what == "capacity" ? "last_value" : "holt_winters";
  if (what != "capacity") s.fit = {{"alpha", 0.125}, {"mase", 0.8125}, {"sigma", 1234.5}};
  s.history = Ramp(kHistoryHours, 1000, 250);
  s.p50 = Ramp(kHorizonHours, 2500, 100);
  s.p90 = Ramp(kHorizonHours, 3000, 150);
  return s;
}

inline ForecastRunDraft Draft() {
  ForecastRunDraft d;
  d.header.computed_at = kComputedAt;
  d.header.forecast_start = kForecastStart;
  d.header.history_start = kForecastStart - absl::Hours(kHistoryHours);
  d.header.horizon_hours = kHorizonHours;
  d.series = {Series("h100", "", "held"), Series("h100", "", "capacity"), Series("h100", "team-a", "held"),
              Series("h100", "team-a", "pending"), Series("t4", "team-b", "held")};
  d.series[0].exhaustion_p50 = absl::FromUnixSeconds(1'772'582'400);  // 2026-03-04
  d.series[0].exhaustion_p90 = absl::FromUnixSeconds(1'772'496'000);  // 2026-03-03
  d.series[2].model = "seasonal_naive";
  d.series[2].fallback_reason = "6 hours of history, fewer than two weeks";
  d.series[2].fit.clear();
  return d;
}

inline ForecastRunHeader Header(int64_t run_id, const ForecastRunDraft& d) {
  ForecastRunHeader h = d.header;
  h.run_id = run_id;
  h.computed_at = ForecastRunTime(d.header.computed_at);
  return h;
}

inline void BeforeTheFirstRunThereIsNone(ForecastRepository& repo) {
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  EXPECT_FALSE(run->has_value());
}

inline void EverySeriesOfAStoredRunReadsBackWhole(ForecastRepository& repo) {
  const ForecastRunDraft draft = Draft();
  auto id = repo.StoreRun(draft);
  ASSERT_THAT(id, IsOk());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Header(*id, draft));
  EXPECT_EQ((*run)->computed_at, absl::FromUnixMicros(1'772'431'200'123'456));
  for (const ForecastSeriesRecord& want : draft.series) {
    auto got = repo.Series(*id, {want.flavor, want.team, want.what});
    ASSERT_THAT(got, IsOk());
    ASSERT_TRUE(got->has_value()) << want.flavor << "/" << want.team << "/" << want.what;
    EXPECT_EQ(**got, want) << want.flavor << "/" << want.team << "/" << want.what;
  }
}

inline void AMissingSeriesIsNone(ForecastRepository& repo) {
  auto id = repo.StoreRun(Draft());
  ASSERT_THAT(id, IsOk());
  for (const ForecastSeriesKey& key : std::vector<ForecastSeriesKey>{
           {"t4", "", "held"}, {"h100", "team-b", "held"}, {"h100", "team-a", "capacity"}, {"a100", "", "held"}}) {
    auto got = repo.Series(*id, key);
    ASSERT_THAT(got, IsOk());
    EXPECT_FALSE(got->has_value()) << key.flavor << "/" << key.team << "/" << key.what;
  }
  auto other_run = repo.Series(*id + 1, {"h100", "", "held"});
  ASSERT_THAT(other_run, IsOk());
  EXPECT_FALSE(other_run->has_value());
}

inline void IdsGrowAndTheNewestRunIsRead(ForecastRepository& repo) {
  auto first = repo.StoreRun(Draft());
  ASSERT_THAT(first, IsOk());
  ForecastRunDraft next = Draft();
  next.header.computed_at += absl::Hours(24);
  next.header.forecast_start += absl::Hours(24);
  next.header.history_start += absl::Hours(24);
  next.series = {Series("h100", "", "held")};
  next.series[0].p50[0] = 7;
  auto second = repo.StoreRun(next);
  ASSERT_THAT(second, IsOk());
  EXPECT_GT(*second, *first);
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Header(*second, next));
  auto newer = repo.Series(*second, {"h100", "", "held"});
  ASSERT_THAT(newer, IsOk());
  ASSERT_TRUE(newer->has_value());
  EXPECT_EQ((*newer)->p50[0], 7);
  auto older = repo.Series(*first, {"h100", "", "held"});
  ASSERT_THAT(older, IsOk());
  ASSERT_TRUE(older->has_value());
  EXPECT_EQ((*older)->p50[0], 2500);
}

// Empty history (a run at the first hour), a zero-length fit and a long
// horizon read back as stored.
inline void EmptyHistoryAndTheLongestHorizonReadBack(ForecastRepository& repo) {
  ForecastRunDraft d = Draft();
  d.header.history_start = d.header.forecast_start;
  d.header.horizon_hours = static_cast<int32_t>(kMaxForecastHours);
  d.series = {Series("h100", "", "held")};
  d.series[0].history.clear();
  d.series[0].p50 = Ramp(kMaxForecastHours, 0, 1);
  d.series[0].p90 = Ramp(kMaxForecastHours, 0, 2);
  d.series[0].fit.clear();
  auto id = repo.StoreRun(d);
  ASSERT_THAT(id, IsOk());
  auto got = repo.Series(*id, {"h100", "", "held"});
  ASSERT_THAT(got, IsOk());
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, d.series[0]);
}

inline void TextKeepsEveryByte(ForecastRepository& repo) {
  ForecastRunDraft d = Draft();
  d.series = {Series("fl\"av\tor\n", "t\\eam\t1 \xc3\xa9", "held")};
  d.series[0].fallback_reason = "tab\there, newline\nthere, backslash \\N, \\., quote ' \"";
  d.series[0].fit = {{"we\"ird\tname", -0.1}};
  auto id = repo.StoreRun(d);
  ASSERT_THAT(id, IsOk());
  auto got = repo.Series(*id, {d.series[0].flavor, d.series[0].team, "held"});
  ASSERT_THAT(got, IsOk());
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, d.series[0]);
}

inline void PruningKeepsTheNewestRuns(ForecastRepository& repo) {
  std::vector<int64_t> ids;
  for (int i = 0; i < 4; ++i) {
    auto id = repo.StoreRun(Draft());
    ASSERT_THAT(id, IsOk());
    ids.push_back(*id);
  }
  auto gone = repo.PruneRuns(2);
  ASSERT_THAT(gone, IsOk());
  EXPECT_EQ(*gone, 2);
  for (int i = 0; i < 4; ++i) {
    auto got = repo.Series(ids[i], {"h100", "", "held"});
    ASSERT_THAT(got, IsOk());
    EXPECT_EQ(got->has_value(), i >= 2) << "run " << ids[i];
  }
  auto again = repo.PruneRuns(2);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(*again, 0);
  auto latest = repo.LatestRun();
  ASSERT_THAT(latest, IsOk());
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->run_id, ids[3]);
  EXPECT_THAT(repo.PruneRuns(0), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("keep")));
}

// Each bad draft is refused naming its field, and stores nothing.
inline void BadRunsAreRefusedNamingTheFieldAndStoreNothing(ForecastRepository& repo) {
  const std::vector<std::pair<std::function<void(ForecastRunDraft&)>, std::string>> cases = {
      {[](ForecastRunDraft& d) { d.header.forecast_start += absl::Minutes(30); }, "forecast_start: "},
      {[](ForecastRunDraft& d) { d.header.history_start += absl::Seconds(1); }, "history_start: "},
      {[](ForecastRunDraft& d) { d.header.history_start = d.header.forecast_start + absl::Hours(1); },
       "forecast_start: before history_start"},
      {[](ForecastRunDraft& d) { d.header.history_start = d.header.forecast_start - absl::Hours(2161); },
       "history_start: 2161 hours of history, more than 2160"},
      {[](ForecastRunDraft& d) { d.header.horizon_hours = 0; }, "horizon_hours: 0 is out of range (1..2160)"},
      {[](ForecastRunDraft& d) { d.header.horizon_hours = 2161; }, "horizon_hours: 2161 is out of range"},
      {[](ForecastRunDraft& d) { d.header.computed_at = absl::InfiniteFuture(); }, "computed_at: "},
      {[](ForecastRunDraft& d) { d.series[1].flavor.clear(); }, "series[1].flavor: empty"},
      {[](ForecastRunDraft& d) { d.series[2].model.clear(); }, "series[2].model: empty"},
      {[](ForecastRunDraft& d) { d.series[2].team = std::string(300, 't'); }, "series[2].team: 300 bytes"},
      {[](ForecastRunDraft& d) { d.series[2].fallback_reason = std::string(2000, 'r'); },
       "series[2].fallback_reason: 2000 bytes, more than 1024"},
      {[](ForecastRunDraft& d) { d.series[3].what = "wanted"; },
       "series[3].what: \"wanted\" is not one of held, pending, capacity"},
      {[](ForecastRunDraft& d) { d.series[1].team = "team-a"; }, "series[1].team: \"team-a\" on a capacity series"},
      {[](ForecastRunDraft& d) { d.series[4] = d.series[2]; },
       "series[4]: flavor \"h100\", team \"team-a\" and what \"held\" repeated"},
      {[](ForecastRunDraft& d) { d.series[0].history.pop_back(); },
       "series[0].history: 5 points, the run's hours need 6"},
      {[](ForecastRunDraft& d) { d.series[0].p50.push_back(1); }, "series[0].p50: 49 points, the run's hours need 48"},
      {[](ForecastRunDraft& d) { d.series[0].p90.clear(); }, "series[0].p90: 0 points"},
      {[](ForecastRunDraft& d) { d.series[0].history[3] = -1; }, "series[0].history[3]: negative (-1)"},
      {[](ForecastRunDraft& d) { d.series[0].p90[5] = d.series[0].p50[5] - 1; },
       "series[0].p90[5]: 2999 is below its p50 (3000)"},
      {[](ForecastRunDraft& d) { d.series[0].fit["beta"] = std::nan(""); }, "series[0].fit[beta]: not a finite number"},
      {[](ForecastRunDraft& d) { d.series[0].exhaustion_p50 = kForecastStart; },
       "series[0].exhaustion_p50: 2026-03-02T06:00:00+00:00 is not a UTC midnight"},
  };
  for (const auto& [spoil, message] : cases) {
    ForecastRunDraft bad = Draft();
    spoil(bad);
    EXPECT_THAT(repo.StoreRun(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message))) << message;
  }
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  EXPECT_FALSE(run->has_value());
}

}  // namespace fleetcap::store::forecast_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository over an empty store per test.
#define FLEETCAP_FORECAST_CONTRACT_TESTS(Fixture)                                                               \
  TEST_F(Fixture, BeforeTheFirstRunThereIsNone) {                                                               \
    ::fleetcap::store::forecast_contract::BeforeTheFirstRunThereIsNone(repo());                                 \
  }                                                                                                             \
  TEST_F(Fixture, EverySeriesOfAStoredRunReadsBackWhole) {                                                      \
    ::fleetcap::store::forecast_contract::EverySeriesOfAStoredRunReadsBackWhole(repo());                        \
  }                                                                                                             \
  TEST_F(Fixture, AMissingSeriesIsNone) { ::fleetcap::store::forecast_contract::AMissingSeriesIsNone(repo()); } \
  TEST_F(Fixture, IdsGrowAndTheNewestRunIsRead) {                                                               \
    ::fleetcap::store::forecast_contract::IdsGrowAndTheNewestRunIsRead(repo());                                 \
  }                                                                                                             \
  TEST_F(Fixture, EmptyHistoryAndTheLongestHorizonReadBack) {                                                   \
    ::fleetcap::store::forecast_contract::EmptyHistoryAndTheLongestHorizonReadBack(repo());                     \
  }                                                                                                             \
  TEST_F(Fixture, TextKeepsEveryByte) { ::fleetcap::store::forecast_contract::TextKeepsEveryByte(repo()); }     \
  TEST_F(Fixture, PruningKeepsTheNewestRuns) {                                                                  \
    ::fleetcap::store::forecast_contract::PruningKeepsTheNewestRuns(repo());                                    \
  }                                                                                                             \
  TEST_F(Fixture, BadRunsAreRefusedNamingTheFieldAndStoreNothing) {                                             \
    ::fleetcap::store::forecast_contract::BadRunsAreRefusedNamingTheFieldAndStoreNothing(repo());               \
  }
