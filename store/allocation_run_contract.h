#pragma once
// The behaviour every AllocationRunRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "store/allocation_run_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::allocation_run_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// 2026-03-01T12:00:00.123456789Z: the nanoseconds are dropped on store.
const absl::Time kComputedAt = absl::FromUnixNanos(1'772'366'400'123'456'789);

inline AllocationRecommendationRecord Recommendation(const std::string& team, const std::string& flavor,
                                                     int64_t recommended, const std::string& bound_by) {
  AllocationRecommendationRecord r;
  r.team = team;
  r.flavor = flavor;
  r.demand_milli = recommended + 500;
  r.guarantee_milli = recommended / 2;
  r.recommended_milli = recommended;
  r.borrowing_limit_milli = recommended;
  r.lending_limit_milli = recommended / 4;
  r.bound_by = bound_by;
  r.explanation = "demand " + std::to_string(recommended + 500) + " measured over 7d";
  return r;
}

// Teams and flavors in their byte order (upper case before lower case, "a"
// before "a-b" before "a/b"), one borrowing limit unlimited and one zero.
inline AllocationRunDraft Draft() {
  AllocationRunDraft d;
  d.computed_at = kComputedAt;
  d.policy_version = 7;
  d.inputs_json = R"({"lookback": "7d", "chargeback_through": {"c2": "2026-03-01T11:00:00Z", "c1": 17}})";
  d.recommendations = {Recommendation("Zeta", "h100", 4000, "guarantee"), Recommendation("a", "H100", 1000, "demand"),
                       Recommendation("a", "h100", 2000, "fair_share"),
                       Recommendation("a-b", "t4", 3000, "borrowing_limit"),
                       Recommendation("a/b", "t4", 0, "lending_limit")};
  d.recommendations[1].borrowing_limit_milli.reset();
  d.recommendations[2].borrowing_limit_milli = 0;
  // The measured demand before headroom: none (nothing measured), zero, some.
  d.recommendations[0].measured_demand_milli = 3500;
  d.recommendations[2].measured_demand_milli = 0;
  return d;
}

inline AllocationRunRecord Stored(int64_t run_id, const AllocationRunDraft& d) {
  AllocationRunRecord r;
  r.run_id = run_id;
  r.computed_at = AllocationRunTime(d.computed_at);
  r.policy_version = d.policy_version;
  r.inputs_json = CanonicalAllocationInputs(d.inputs_json);
  r.recommendations = d.recommendations;
  return r;
}

inline void BeforeTheFirstRunThereIsNone(AllocationRunRepository& repo) {
  auto id = repo.LatestRunId();
  ASSERT_THAT(id, IsOk());
  EXPECT_FALSE(id->has_value());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  EXPECT_FALSE(run->has_value());
}

inline void AStoredRunReadsBackWhole(AllocationRunRepository& repo) {
  const AllocationRunDraft draft = Draft();
  auto id = repo.StoreRun(draft);
  ASSERT_THAT(id, IsOk());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Stored(*id, draft));
  EXPECT_EQ((*run)->computed_at, absl::FromUnixMicros(1'772'366'400'123'456));
  EXPECT_EQ((*run)->inputs_json, R"({"chargeback_through":{"c1":17,"c2":"2026-03-01T11:00:00Z"},"lookback":"7d"})");
  ASSERT_EQ((*run)->recommendations.size(), 5u);
  EXPECT_FALSE((*run)->recommendations[1].borrowing_limit_milli.has_value());  // unlimited stays unlimited
  EXPECT_EQ((*run)->recommendations[2].borrowing_limit_milli, 0);              // and zero stays zero
}

inline void RecommendationsReadBackInTeamThenFlavorByteOrder(AllocationRunRepository& repo) {
  AllocationRunDraft draft = Draft();
  std::vector<AllocationRecommendationRecord> shuffled(draft.recommendations.rbegin(), draft.recommendations.rend());
  std::swap(shuffled[1], shuffled[3]);
  AllocationRunDraft stored = draft;
  stored.recommendations = shuffled;
  ASSERT_THAT(repo.StoreRun(stored), IsOk());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ((*run)->recommendations, draft.recommendations);
}

inline void IdsGrowAndTheNewestRunIsRead(AllocationRunRepository& repo) {
  AllocationRunDraft first = Draft();
  auto first_id = repo.StoreRun(first);
  ASSERT_THAT(first_id, IsOk());
  AllocationRunDraft second = Draft();
  second.computed_at = kComputedAt + absl::Hours(1);
  second.policy_version = 8;
  second.inputs_json = "{}";
  second.recommendations = {Recommendation("b", "t4", 9000, "fair_share")};
  auto second_id = repo.StoreRun(second);
  ASSERT_THAT(second_id, IsOk());
  EXPECT_GT(*second_id, *first_id);
  auto latest_id = repo.LatestRunId();
  ASSERT_THAT(latest_id, IsOk());
  EXPECT_EQ(*latest_id, *second_id);
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Stored(*second_id, second));
}

inline void ARunWithoutRecommendationsIsARun(AllocationRunRepository& repo) {
  AllocationRunDraft empty = Draft();
  empty.recommendations.clear();
  auto id = repo.StoreRun(empty);
  ASSERT_THAT(id, IsOk());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Stored(*id, empty));
}

// Text the optimizer copies from the policy (team names, explanations) keeps
// every byte, whatever COPY would otherwise make of it.
inline void TextKeepsEveryByte(AllocationRunRepository& repo) {
  AllocationRunDraft draft = Draft();
  draft.recommendations = {Recommendation("t\\eam\t1", "fl\"avor\n", 1, "demand")};
  draft.recommendations[0].explanation = "tab\there, newline\nthere, backslash \\N, \\., quote ' \" and \xc3\xa9";
  draft.inputs_json = R"({"note": "tab\t \u00e9 \\N"})";
  auto id = repo.StoreRun(draft);
  ASSERT_THAT(id, IsOk());
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Stored(*id, draft));
}

// Each bad draft is refused naming its field, and stores nothing: the run
// stored before stays the newest.
inline void BadRunsAreRefusedNamingTheFieldAndStoreNothing(AllocationRunRepository& repo) {
  auto good = repo.StoreRun(Draft());
  ASSERT_THAT(good, IsOk());
  const std::vector<std::pair<std::function<void(AllocationRunDraft&)>, std::string>> cases = {
      {[](AllocationRunDraft& d) { d.recommendations[0].team.clear(); }, "recommendations[0].team: empty"},
      {[](AllocationRunDraft& d) { d.recommendations[1].flavor.clear(); }, "recommendations[1].flavor: empty"},
      {[](AllocationRunDraft& d) { d.recommendations[2].demand_milli = -1; },
       "recommendations[2].demand_milli: negative"},
      {[](AllocationRunDraft& d) { d.recommendations[3].measured_demand_milli = -1; },
       "recommendations[3].measured_demand_milli: negative"},
      {[](AllocationRunDraft& d) { d.recommendations[2].guarantee_milli = -1; },
       "recommendations[2].guarantee_milli: negative"},
      {[](AllocationRunDraft& d) { d.recommendations[3].recommended_milli = -5; },
       "recommendations[3].recommended_milli: negative (-5)"},
      {[](AllocationRunDraft& d) { d.recommendations[3].borrowing_limit_milli = -1; },
       "recommendations[3].borrowing_limit_milli: negative"},
      {[](AllocationRunDraft& d) { d.recommendations[4].lending_limit_milli = -1; },
       "recommendations[4].lending_limit_milli: negative"},
      {[](AllocationRunDraft& d) { d.recommendations[4].bound_by = "luck"; },
       "recommendations[4].bound_by: \"luck\" is not one of demand, guarantee"},
      {[](AllocationRunDraft& d) { d.recommendations[4] = d.recommendations[2]; },
       "recommendations[4]: team \"a\" and flavor \"h100\" repeated"},
      {[](AllocationRunDraft& d) { d.policy_version = -1; }, "policy_version: negative (-1)"},
      {[](AllocationRunDraft& d) { d.inputs_json = "{"; }, "inputs_json: not valid JSON"},
      {[](AllocationRunDraft& d) { d.inputs_json = "[1]"; }, "inputs_json: not a JSON object"},
      {[](AllocationRunDraft& d) { d.inputs_json = "{\"a\":\"" + std::string(kMaxAllocationInputsBytes, 'x') + "\"}"; },
       "inputs_json: 65544 bytes, more than 65536"},
      {[](AllocationRunDraft& d) { d.computed_at = absl::InfiniteFuture(); }, "computed_at: "},
      {[](AllocationRunDraft& d) {
         d.computed_at = absl::FromCivil(absl::CivilSecond(10000, 1, 1, 0, 0, 0), absl::UTCTimeZone());
       },
       "is outside the years 1-9999"},
  };
  for (const auto& [spoil, message] : cases) {
    AllocationRunDraft bad = Draft();
    bad.computed_at = kComputedAt + absl::Hours(5);
    spoil(bad);
    EXPECT_THAT(repo.StoreRun(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message))) << message;
  }
  auto latest = repo.LatestRunId();
  ASSERT_THAT(latest, IsOk());
  EXPECT_EQ(*latest, *good);
  auto run = repo.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ(**run, Stored(*good, Draft()));
}

}  // namespace fleetcap::store::allocation_run_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository over an empty store per test.
#define FLEETCAP_ALLOCATION_RUN_CONTRACT_TESTS(Fixture)                                                           \
  TEST_F(Fixture, BeforeTheFirstRunThereIsNone) {                                                                 \
    ::fleetcap::store::allocation_run_contract::BeforeTheFirstRunThereIsNone(repo());                             \
  }                                                                                                               \
  TEST_F(Fixture, AStoredRunReadsBackWhole) {                                                                     \
    ::fleetcap::store::allocation_run_contract::AStoredRunReadsBackWhole(repo());                                 \
  }                                                                                                               \
  TEST_F(Fixture, RecommendationsReadBackInTeamThenFlavorByteOrder) {                                             \
    ::fleetcap::store::allocation_run_contract::RecommendationsReadBackInTeamThenFlavorByteOrder(repo());         \
  }                                                                                                               \
  TEST_F(Fixture, IdsGrowAndTheNewestRunIsRead) {                                                                 \
    ::fleetcap::store::allocation_run_contract::IdsGrowAndTheNewestRunIsRead(repo());                             \
  }                                                                                                               \
  TEST_F(Fixture, ARunWithoutRecommendationsIsARun) {                                                             \
    ::fleetcap::store::allocation_run_contract::ARunWithoutRecommendationsIsARun(repo());                         \
  }                                                                                                               \
  TEST_F(Fixture, TextKeepsEveryByte) { ::fleetcap::store::allocation_run_contract::TextKeepsEveryByte(repo()); } \
  TEST_F(Fixture, BadRunsAreRefusedNamingTheFieldAndStoreNothing) {                                               \
    ::fleetcap::store::allocation_run_contract::BadRunsAreRefusedNamingTheFieldAndStoreNothing(repo());           \
  }
