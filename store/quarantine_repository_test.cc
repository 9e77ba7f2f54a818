// The quarantine's payload bound and the in-memory repository's contract.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/memory_quarantine_repository.h"

#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

TEST(BoundedQuarantinePayload, KeepsPrintableTextAndEscapesBytesTextCannotHold) {
  EXPECT_EQ(BoundedQuarantinePayload("{\"a\": 1}\n"), "{\"a\": 1}\n");
  EXPECT_EQ(BoundedQuarantinePayload(std::string("a\0b\xff", 4)), "a\\x00b\\xff");
}

TEST(BoundedQuarantinePayload, CutsLongPayloadsToTheBoundWithAMarker) {
  std::string cut = BoundedQuarantinePayload(std::string(kMaxQuarantinePayloadBytes * 2, 'x'));
  EXPECT_LE(cut.size(), kMaxQuarantinePayloadBytes);
  EXPECT_EQ(cut.substr(cut.size() - 8), "...[cut]");
  std::string escaped = BoundedQuarantinePayload(std::string(kMaxQuarantinePayloadBytes, '\x01'));
  EXPECT_LE(escaped.size(), kMaxQuarantinePayloadBytes);
}

TEST(MemoryQuarantineRepository, ListsNewestFirstFilteredAndLimited) {
  MemoryQuarantineRepository repo;
  ASSERT_THAT(repo.Add({{0, "k8s", "c1", "Pod a/x", "too big", "{}", absl::UnixEpoch()},
                        {0, "remote_write", "c1", "device d", "future", "", absl::UnixEpoch()},
                        {0, "k8s", "c2", "Pod b/y", "bad quantity", "{}", absl::UnixEpoch()}}),
              IsOk());
  auto k8s = repo.List("k8s", "", 10);
  ASSERT_THAT(k8s, IsOk());
  ASSERT_EQ(k8s->size(), 2u);
  EXPECT_EQ((*k8s)[0].object_key, "Pod b/y");
  EXPECT_EQ((*k8s)[1].object_key, "Pod a/x");
  auto one = repo.List("", "c1", 1);
  ASSERT_THAT(one, IsOk());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].source, "remote_write");
}

}  // namespace
}  // namespace fleetcap::store
