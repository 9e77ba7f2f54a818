// PgPendingWaitsRepository keeps the same contract as the in-memory form, on
// a fresh database per test, and ends a wait with its pod's deletion.

#include "store/pg_pending_waits_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pending_waits_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class PgPendingWaitsTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgPendingWaitsRepository>(pool());
  }
  PendingWaitsRepository& repo() { return *repo_; }

  // The pod (created when its wait began, never deleted) and its wait.
  void AddWait(const PendingWaitRecord& wait) {
    const PendingPodRecord& pod = wait.pod;
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", pod.cluster);
    txn.exec_params(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at)"
        " VALUES ($1, $2, $3, $4, $5, 'Job', 'j', $6::timestamptz) ON CONFLICT DO NOTHING",
        pod.cluster, pod.pod_uid, pod.namespace_name, pod.pod_name, pod.team_label, FormatRfc3339(pod.pending_from));
    std::optional<std::string> until;
    if (wait.until) until = FormatRfc3339(*wait.until);
    txn.exec_params(
        "INSERT INTO pending_demand (cluster, pod_uid, resource_name, model, requested_milli, pending_from, pending_to)"
        " VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)",
        pod.cluster, pod.pod_uid, pod.resource_name, pod.model, pod.requested_milli, FormatRfc3339(pod.pending_from),
        until);
    txn.commit();
  }

  std::unique_ptr<PgPendingWaitsRepository> repo_;
};

FLEETCAP_PENDING_WAITS_CONTRACT_TESTS(PgPendingWaitsTest)

// Waits overlapping the window are read with their end (the earlier of the
// wait's end and the pod's deletion), oldest first; waits before or after
// the window are not.
TEST_F(PgPendingWaitsTest, WaitsOverlappingTheWindowAreReadWithTheirEnd) {
  {
    pqxx::work txn(*conn_);
    txn.exec("INSERT INTO clusters (cluster) VALUES ('c1')");
    txn.exec(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at, "
        "deleted_at)"
        " VALUES ('c1', 'p-deleted', 'ns-a', 'deleted', 'team-a', 'Job', 'j', '2026-03-01T00:00:00Z',"
        " '2026-03-01T03:30:00Z')");
    txn.exec(
        "INSERT INTO pending_demand (cluster, pod_uid, resource_name, model, requested_milli, pending_from, pending_to)"
        " VALUES ('c1', 'p-before', 'nvidia.com/gpu', 'H100', 1000, '2026-03-01T00:00:00Z', '2026-03-01T01:00:00Z'),"
        " ('c1', 'p-ended', 'nvidia.com/gpu', 'H100', 2000, '2026-03-01T01:30:00Z', '2026-03-01T02:30:00Z'),"
        " ('c1', 'p-deleted', 'nvidia.com/gpu', 'H100', 500, '2026-03-01T01:45:00Z', NULL),"
        " ('c1', 'p-open', 'nvidia.com/gpu', '', 4000, '2026-03-01T02:15:00Z', NULL),"
        " ('c1', 'p-after', 'nvidia.com/gpu', 'H100', 1000, '2026-03-01T05:00:00Z', NULL)");
    txn.commit();
  }
  PgPendingWaitsRepository repo(pool());
  const absl::Time start = absl::FromUnixSeconds(1'772'326'800);  // 2026-03-01T01:00:00Z
  auto waits = repo.Waits(start, start + absl::Hours(4), 100);
  ASSERT_THAT(waits, IsOk());
  ASSERT_EQ(waits->size(), 3u);
  EXPECT_EQ((*waits)[0].pod.pod_uid, "p-ended");
  EXPECT_EQ((*waits)[0].until, absl::FromUnixSeconds(1'772'332'200));  // 02:30
  EXPECT_EQ((*waits)[1].pod.pod_uid, "p-deleted");
  EXPECT_EQ((*waits)[1].pod.namespace_name, "ns-a");
  EXPECT_EQ((*waits)[1].pod.team_label, "team-a");
  EXPECT_EQ((*waits)[1].until, absl::FromUnixSeconds(1'772'335'800));  // the deletion, 03:30
  EXPECT_EQ((*waits)[2].pod.pod_uid, "p-open");
  EXPECT_EQ((*waits)[2].pod.requested_milli, 4000);
  EXPECT_FALSE((*waits)[2].until.has_value());
  auto limited = repo.Waits(start, start + absl::Hours(4), 1);
  ASSERT_THAT(limited, IsOk());
  ASSERT_EQ(limited->size(), 1u);
  EXPECT_EQ((*limited)[0].pod.pod_uid, "p-ended");
}

}  // namespace
}  // namespace fleetcap::store
