#pragma once
// The behaviour every ViewRepository promises, as test steps shared by the
// in-memory form's unit test and the PostgreSQL integration test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "store/view_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::view_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

// 2026-03-01T12:00:00.123456789Z: the nanoseconds are dropped on save.
const absl::Time kSavedAt = absl::FromUnixNanos(1'772'366'400'123'456'789);

inline SavedView View(const std::string& owner, const std::string& name, const std::string& query = "range=30d") {
  return {owner, name, "/chargeback", query, kSavedAt};
}

inline void SavedViewsReadBackByNamePerOwner(ViewRepository& repo) {
  ASSERT_THAT(repo.Save(View("token:a", "team costs, 30 days")), IsOk());
  ASSERT_THAT(repo.Save(View("token:a", "Idle by model", "range=month&stack=model&idle=kept")), IsOk());
  ASSERT_THAT(repo.Save(View("token:b", "mine")), IsOk());
  auto a = repo.List("token:a");
  ASSERT_THAT(a, IsOk());
  // By name, bytewise.
  EXPECT_THAT(*a,
              ElementsAre(Field(&SavedView::name, "Idle by model"), Field(&SavedView::name, "team costs, 30 days")));
  EXPECT_EQ((*a)[0], (SavedView{"token:a", "Idle by model", "/chargeback", "range=month&stack=model&idle=kept",
                                absl::FromUnixMicros(1'772'366'400'123'456)}));
  auto b = repo.List("token:b");
  ASSERT_THAT(b, IsOk());
  EXPECT_THAT(*b, ElementsAre(Field(&SavedView::name, "mine")));
  auto none = repo.List("token:c");
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

inline void SavingANameAgainReplacesItsView(ViewRepository& repo) {
  ASSERT_THAT(repo.Save(View("token:a", "x", "range=7d")), IsOk());
  SavedView again = View("token:a", "x", "range=90d&res=day");
  again.path = "/efficiency";
  ASSERT_THAT(repo.Save(again), IsOk());
  auto a = repo.List("token:a");
  ASSERT_THAT(a, IsOk());
  ASSERT_EQ(a->size(), 1u);
  EXPECT_EQ((*a)[0].path, "/efficiency");
  EXPECT_EQ((*a)[0].query, "range=90d&res=day");
}

inline void RemovesOnlyTheOwnersView(ViewRepository& repo) {
  ASSERT_THAT(repo.Save(View("token:a", "x")), IsOk());
  ASSERT_THAT(repo.Save(View("token:b", "x")), IsOk());
  EXPECT_THAT(repo.Remove("token:c", "x"), StatusIs(absl::StatusCode::kNotFound));
  ASSERT_THAT(repo.Remove("token:a", "x"), IsOk());
  EXPECT_THAT(repo.Remove("token:a", "x"), StatusIs(absl::StatusCode::kNotFound, HasSubstr("no saved view")));
  auto b = repo.List("token:b");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->size(), 1u);
}

inline void KeepsAtMostTheLimitPerOwner(ViewRepository& repo) {
  for (size_t i = 0; i < kMaxViewsPerOwner; ++i) ASSERT_THAT(repo.Save(View("token:a", absl::StrCat("v", i))), IsOk());
  EXPECT_THAT(repo.Save(View("token:a", "one more")), StatusIs(absl::StatusCode::kResourceExhausted));
  // Replacing one is not one more; another owner has room of its own.
  EXPECT_THAT(repo.Save(View("token:a", "v0", "range=24h")), IsOk());
  EXPECT_THAT(repo.Save(View("token:b", "one more")), IsOk());
}

inline void RefusesBadViewsNamingTheField(ViewRepository& repo) {
  const auto refused = [&](SavedView v, const char* field) {
    EXPECT_THAT(repo.Save(v), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(field))) << v.name << v.path;
  };
  refused(View("token:a", ""), "view name");
  refused(View("token:a", std::string(kMaxViewNameBytes + 1, 'n')), "view name");
  refused(View("token:a", std::string("a\0b", 3)), "view name");
  refused(View("token:a", "tab\there"), "view name");
  refused(View("", "x"), "view owner");
  for (const char* path :
       {"", "/", "chargeback", "/Chargeback", "/charge/back", "/../etc", "//x", "/abcdefghijklmnopqrstuvwxyzabcdefg"}) {
    SavedView v = View("token:a", "x");
    v.path = path;
    refused(v, "view path");
  }
  for (std::string query : {std::string(kMaxViewQueryBytes + 1, 'q'), std::string("a=b c"), std::string("a=b#c"),
                            std::string("a=\xc3\xa9"), std::string("a=\n"), std::string("a\0=b", 4)}) {
    refused(View("token:a", "x", query), "view query");
  }
  auto a = repo.List("token:a");
  ASSERT_THAT(a, IsOk());
  EXPECT_TRUE(a->empty());
}

}  // namespace fleetcap::store::view_contract
