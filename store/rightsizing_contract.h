#pragma once
// The behaviour every RightsizingRepository promises, as test steps shared by
// the in-memory form's unit test and the PostgreSQL integration test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "store/rightsizing_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::rightsizing_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

// 2026-03-15T00:00:00Z, and the computation a little after, to the nanosecond
// (the nanoseconds are dropped on storing).
const absl::Time kEnd = absl::FromUnixSeconds(1'773'532'800);
const absl::Time kComputed = kEnd + absl::Nanoseconds(90'000'123'456'789);

inline RightsizingRecord Record(const std::string& team, const std::string& ns, const std::string& workload,
                                const std::string& kind, int64_t savings) {
  return {ns,
          workload,
          "A100-SXM4-80GB",
          kind,
          team,
          "8 x A100-SXM4-80GB",
          "6 x A100-SXM4-80GB",
          8000,
          6000,
          savings,
          "p95 5.2",
          10077,
          "medium",
          5.2,
          0.85,
          70'000'000'000};
}

inline RightsizingRun Run(const std::string& cluster, std::vector<RightsizingRecord> recommendations) {
  return {cluster, kEnd - absl::Hours(24 * 14), kEnd, kComputed, "USD", std::move(recommendations)};
}

inline void ReplacesAClustersRunWhole(RightsizingRepository& repo) {
  ASSERT_THAT(repo.Replace(Run("c2", {Record("vision", "cv", "Job/a", "fewer_devices", 5)})), IsOk());
  ASSERT_THAT(repo.Replace(Run("c1", {Record("vision", "cv", "Job/a", "fewer_devices", 10),
                                      Record("vision", "cv", "Job/a", "smaller_slice", 30),
                                      Record("search", "rank", "Job/b", "fewer_devices", 30)})),
              IsOk());
  auto all = repo.Latest({});
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 2u);
  const RightsizingRun& c1 = (*all)[0];
  EXPECT_EQ(c1.cluster, "c1");
  EXPECT_EQ(c1.lookback_start, kEnd - absl::Hours(24 * 14));
  EXPECT_EQ(c1.computed_at, absl::FromUnixMicros(absl::ToUnixMicros(kComputed)));
  EXPECT_EQ(c1.currency, "USD");
  // The largest saving first, then by namespace, workload, model and kind.
  EXPECT_THAT(c1.recommendations, ElementsAre(Record("vision", "cv", "Job/a", "smaller_slice", 30),
                                              Record("search", "rank", "Job/b", "fewer_devices", 30),
                                              Record("vision", "cv", "Job/a", "fewer_devices", 10)));
  EXPECT_EQ((*all)[1].cluster, "c2");

  // Computed again: the run and every recommendation of it replaced.
  RightsizingRun again = Run("c1", {Record("search", "rank", "Job/b", "cheaper_flavor", 7)});
  again.lookback_start = kEnd - absl::Hours(24);
  ASSERT_THAT(repo.Replace(again), IsOk());
  auto c1_again = repo.Latest({"c1", "", std::nullopt});
  ASSERT_THAT(c1_again, IsOk());
  ASSERT_EQ(c1_again->size(), 1u);
  EXPECT_EQ((*c1_again)[0].lookback_start, kEnd - absl::Hours(24));
  EXPECT_THAT((*c1_again)[0].recommendations, ElementsAre(Record("search", "rank", "Job/b", "cheaper_flavor", 7)));
  // Nothing to recommend is stored as such: the run with none.
  ASSERT_THAT(repo.Replace(Run("c2", {})), IsOk());
  auto c2 = repo.Latest({"c2", "", std::nullopt});
  ASSERT_THAT(c2, IsOk());
  ASSERT_EQ(c2->size(), 1u);
  EXPECT_TRUE((*c2)[0].recommendations.empty());
}

inline void SelectsByClusterNamespaceAndTeams(RightsizingRepository& repo) {
  ASSERT_THAT(repo.Replace(Run("c1", {Record("vision", "cv", "Job/a", "fewer_devices", 10),
                                      Record("vision-detect", "det", "Job/d", "fewer_devices", 20),
                                      Record("search", "rank", "Job/b", "fewer_devices", 30)})),
              IsOk());
  ASSERT_THAT(repo.Replace(Run("c2", {Record("vision", "cv", "Job/a", "fewer_devices", 40)})), IsOk());
  auto teams = repo.Latest({"", "", std::set<std::string>{"vision", "vision-detect"}});
  ASSERT_THAT(teams, IsOk());
  ASSERT_EQ(teams->size(), 2u);
  EXPECT_THAT((*teams)[0].recommendations,
              ElementsAre(Field(&RightsizingRecord::team, "vision-detect"), Field(&RightsizingRecord::team, "vision")));
  EXPECT_THAT((*teams)[1].recommendations, ElementsAre(Field(&RightsizingRecord::savings_micro_per_month, 40)));
  auto ns = repo.Latest({"c1", "rank", std::nullopt});
  ASSERT_THAT(ns, IsOk());
  ASSERT_EQ(ns->size(), 1u);
  EXPECT_THAT((*ns)[0].recommendations, ElementsAre(Field(&RightsizingRecord::workload, "Job/b")));
  // No team at all selects no recommendation (never every one).
  auto none = repo.Latest({"", "", std::set<std::string>{}});
  ASSERT_THAT(none, IsOk());
  ASSERT_EQ(none->size(), 2u);
  EXPECT_TRUE((*none)[0].recommendations.empty());
  EXPECT_TRUE((*none)[1].recommendations.empty());
  auto quoted = repo.Latest({"", "", std::set<std::string>{"a\"b", "c\\d", "vision"}});
  ASSERT_THAT(quoted, IsOk());
  EXPECT_THAT((*quoted)[1].recommendations, ElementsAre(Field(&RightsizingRecord::team, "vision")));
}

inline void RefusesBadRunsNamingTheField(RightsizingRepository& repo) {
  RightsizingRun bad = Run("c1", {Record("vision", "cv", "Job/a", "more_devices", 10)});
  EXPECT_THAT(repo.Replace(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("recommendations[0].kind")));
  bad = Run("c1", {Record("vision", "cv", "Job/a", "fewer_devices", 0)});
  EXPECT_THAT(repo.Replace(bad),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("recommendations[0].savings_micro_per_month")));
  bad =
      Run("c1", {Record("vision", "cv", "Job/a", "fewer_devices", 1), Record("x", "cv", "Job/a", "fewer_devices", 2)});
  EXPECT_THAT(repo.Replace(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("recommendations[1].kind")));
  bad = Run("", {});
  EXPECT_THAT(repo.Replace(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cluster")));
  bad = Run("c1", {});
  bad.lookback_end = bad.lookback_start;
  EXPECT_THAT(repo.Replace(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lookback_end")));
  auto all = repo.Latest({});
  ASSERT_THAT(all, IsOk());
  EXPECT_TRUE(all->empty());
}

}  // namespace fleetcap::store::rightsizing_contract
