#pragma once
// The behaviour every ScenarioRepository promises, as test steps shared by
// the in-memory form's unit test and the PostgreSQL integration test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "store/scenario_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::scenario_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// 2026-03-01T12:00:00.123456789Z: the nanoseconds are dropped on save.
const absl::Time kSavedAt = absl::FromUnixNanos(1'772'366'400'123'456'789);

inline ScenarioDraft Draft(const std::string& name) {
  ScenarioDraft d;
  d.name = name;
  d.document = "version: 1\ndemand:\n  - team: vision\n    factor: 2\n";
  d.result_json = R"({"scenario": {"totalMicro": "12"}, "baseline": {"totalMicro": "10"}})";
  d.policy_version = 3;
  d.saved_at = kSavedAt;
  d.saved_by = "token:planner";
  return d;
}

inline void SavedScenarioReadsBackCanonically(ScenarioRepository& repo) {
  auto id = repo.Save(Draft("double vision"));
  ASSERT_THAT(id, IsOk());
  auto got = repo.Get(*id);
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(got->scenario_id, *id);
  EXPECT_EQ(got->saved.name, "double vision");
  EXPECT_EQ(got->saved.document, Draft("x").document);
  EXPECT_EQ(got->saved.result_json, R"({"baseline":{"totalMicro":"10"},"scenario":{"totalMicro":"12"}})");
  EXPECT_EQ(got->saved.policy_version, 3);
  EXPECT_EQ(got->saved.saved_at, absl::FromUnixMicros(1'772'366'400'123'456));
  EXPECT_EQ(got->saved.saved_by, "token:planner");
}

inline void ListIsNewestFirstAndPages(ScenarioRepository& repo) {
  auto a = repo.Save(Draft("a"));
  auto b = repo.Save(Draft("b"));
  auto c = repo.Save(Draft("c"));
  ASSERT_THAT(c, IsOk());
  EXPECT_LT(*a, *b);
  EXPECT_LT(*b, *c);
  auto all = repo.List(0, 10);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].name, "c");
  EXPECT_EQ((*all)[2].name, "a");
  EXPECT_EQ((*all)[0].saved_by, "token:planner");
  auto page = repo.List(*c, 1);
  ASSERT_THAT(page, IsOk());
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].scenario_id, *b);
  EXPECT_THAT(repo.List(0, 0), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("limit")));
}

inline void UnknownIdIsNotFound(ScenarioRepository& repo) {
  EXPECT_THAT(repo.Get(42), StatusIs(absl::StatusCode::kNotFound, HasSubstr("scenario 42")));
}

inline void RefusesBadDraftsNamingTheField(ScenarioRepository& repo) {
  ScenarioDraft d = Draft("");
  EXPECT_THAT(repo.Save(d), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario name")));
  d = Draft(std::string(kMaxScenarioNameBytes + 1, 'n'));
  EXPECT_THAT(repo.Save(d), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario name")));
  d = Draft("x");
  d.document = std::string(kMaxScenarioDocumentBytes + 1, 'y');
  EXPECT_THAT(repo.Save(d), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario document")));
  d = Draft("x");
  d.result_json = "[1, 2]";
  EXPECT_THAT(repo.Save(d), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario result")));
  d = Draft("x");
  d.policy_version = -1;
  EXPECT_THAT(repo.Save(d), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario policy_version")));
  auto none = repo.List(0, 10);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

}  // namespace fleetcap::store::scenario_contract
