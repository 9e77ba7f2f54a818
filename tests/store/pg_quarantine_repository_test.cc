// The quarantine on a real PostgreSQL: hostile payloads (binary, NUL bytes,
// broken UTF-8, oversized) are stored and read back, newest first, and the
// contract shared with the in-memory form.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "store/pg_quarantine_repository.h"
#include "store/quarantine_contract.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

using PgQuarantineRepositoryTest = testing::MigratedDatabaseTest;

// The contract shared with the in-memory form.
class PgQuarantineContractTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgQuarantineRepository>(pool());
  }
  QuarantineRepository& repo() { return *repo_; }

  std::unique_ptr<PgQuarantineRepository> repo_;
};

FLEETCAP_QUARANTINE_CONTRACT_TESTS(PgQuarantineContractTest)

TEST_F(PgQuarantineRepositoryTest, StoresHostilePayloadsAndListsThemNewestFirst) {
  PgQuarantineRepository repo(pool());
  const absl::Time at = absl::FromUnixSeconds(1767225600);
  ASSERT_THAT(repo.Add({{0, "remote_write", "c1", "request", "snappy: corrupt", std::string("\0\xff\xfe", 3), at},
                        {0, "k8s", "c1", "Pod a/x", "nvidia.com/gpu: overflow", std::string(200000, 'p'), at}}),
              IsOk());
  auto all = repo.List("", "c1", 10);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].source, "k8s");
  EXPECT_LE((*all)[0].payload.size(), kMaxQuarantinePayloadBytes);
  EXPECT_EQ((*all)[1].payload, "\\x00\\xff\\xfe");
  EXPECT_EQ((*all)[1].at, at);
  auto none = repo.List("pull", "", 10);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace fleetcap::store
