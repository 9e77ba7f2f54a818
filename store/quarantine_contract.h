#pragma once
// The behaviour every QuarantineRepository promises, as test steps shared by
// the in-memory form's unit test and the PostgreSQL integration test. The
// fixture's `repo()` is a fresh repository over an empty store.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/quarantine_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::quarantine_contract {

using ::fleetcap::testing::IsOk;

const absl::Time kQuarantineAt = absl::FromUnixMicros(1'772'326'800'123'456);  // 2026-03-01T01:00:00.123456Z

inline QuarantineRecord Record(const std::string& source, const std::string& cluster, const std::string& key,
                               std::string payload = "{}") {
  return {0, source, cluster, key, "bad " + key, std::move(payload), kQuarantineAt};
}

inline void ListsNewestFirstFilteredAndLimited(QuarantineRepository& repo) {
  ASSERT_THAT(repo.Add({Record("k8s", "c1", "Pod a/x"), Record("remote_write", "c1", "device d")}), IsOk());
  ASSERT_THAT(repo.Add({Record("k8s", "c2", "Pod b/y")}), IsOk());
  auto k8s = repo.List("k8s", "", 10);
  ASSERT_THAT(k8s, IsOk());
  ASSERT_EQ(k8s->size(), 2u);
  EXPECT_EQ((*k8s)[0].object_key, "Pod b/y");
  EXPECT_EQ((*k8s)[1].object_key, "Pod a/x");
  auto c1 = repo.List("", "c1", 10);
  ASSERT_THAT(c1, IsOk());
  ASSERT_EQ(c1->size(), 2u);
  EXPECT_EQ((*c1)[0].object_key, "device d");
  auto one = repo.List("", "c1", 1);
  ASSERT_THAT(one, IsOk());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].source, "remote_write");
  auto both = repo.List("k8s", "c2", 10);
  ASSERT_THAT(both, IsOk());
  ASSERT_EQ(both->size(), 1u);
  EXPECT_EQ((*both)[0].object_key, "Pod b/y");
  auto none = repo.List("", "", 0);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

// Every field reads back, the time to the microsecond; payloads are kept as
// BoundedQuarantinePayload leaves them; ids grow with each record added.
inline void EveryFieldReadsBackWithItsPayloadBounded(QuarantineRepository& repo) {
  const std::string hostile("a\0b\xff\n", 5);
  const std::string huge(kMaxQuarantinePayloadBytes * 2, 'x');
  ASSERT_THAT(repo.Add({Record("pull", "c1", "series s", hostile), Record("replay", "c1", "trace t", huge)}), IsOk());
  auto all = repo.List("", "", 10);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 2u);
  const QuarantineRecord& cut = (*all)[0];
  const QuarantineRecord& escaped = (*all)[1];
  EXPECT_GT(cut.id, escaped.id);
  EXPECT_GT(escaped.id, 0);
  EXPECT_EQ(escaped.source, "pull");
  EXPECT_EQ(escaped.cluster, "c1");
  EXPECT_EQ(escaped.object_key, "series s");
  EXPECT_EQ(escaped.reason, "bad series s");
  EXPECT_EQ(escaped.payload, BoundedQuarantinePayload(hostile));
  EXPECT_EQ(escaped.at, kQuarantineAt);
  EXPECT_EQ(cut.payload, BoundedQuarantinePayload(huge));
  EXPECT_LE(cut.payload.size(), kMaxQuarantinePayloadBytes);
}

inline void AnEmptyAddStoresNothing(QuarantineRepository& repo) {
  ASSERT_THAT(repo.Add({}), IsOk());
  auto all = repo.List("", "", 10);
  ASSERT_THAT(all, IsOk());
  EXPECT_TRUE(all->empty());
}

}  // namespace fleetcap::store::quarantine_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository over an empty store per test.
#define FLEETCAP_QUARANTINE_CONTRACT_TESTS(Fixture)                                           \
  TEST_F(Fixture, ListsNewestFirstFilteredAndLimited) {                                       \
    ::fleetcap::store::quarantine_contract::ListsNewestFirstFilteredAndLimited(repo());       \
  }                                                                                           \
  TEST_F(Fixture, EveryFieldReadsBackWithItsPayloadBounded) {                                 \
    ::fleetcap::store::quarantine_contract::EveryFieldReadsBackWithItsPayloadBounded(repo()); \
  }                                                                                           \
  TEST_F(Fixture, AnEmptyAddStoresNothing) { ::fleetcap::store::quarantine_contract::AnEmptyAddStoresNothing(repo()); }
