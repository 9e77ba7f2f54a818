// PgDemandHistoryRepository on a fresh database per test: held hours come
// from the chargeback's workload lines (written by the chargeback
// repository), waits from the live inventory (written by its repository),
// each with the rules the in-memory form keeps.

#include "store/pg_demand_history_repository.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/demand_history_contract.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kDemandT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

ChargebackLineRecord Line(absl::Time hour, const std::string& team, const std::string& ns, const std::string& model,
                          const std::string& kind, int64_t held) {
  ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = "c1";
  l.team = team;
  l.namespace_name = ns;
  l.workload = ns + "-job";
  l.model = model;
  l.line_kind = kind;
  l.held_milli_seconds = held;
  l.total_cost_micro = 1;
  l.direct_cost_micro = 1;
  return l;
}

class PgDemandHistoryTest : public testing::MigratedDatabaseTest {};

// The contract shared with the in-memory form: held hours written as the
// chargeback's workload lines, waits as the ingest leaves them.
class PgDemandHistoryContractTest : public testing::MigratedDatabaseTest {
 public:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgDemandHistoryRepository>(pool());
    chargeback_ = std::make_unique<PgChargebackRepository>(pool());
  }
  DemandHistoryRepository& repo() { return *repo_; }

  // One workload line of a namespace of its own; the hour is written again
  // with every line added to it.
  void AddHeld(const HeldHourRecord& held) {
    ChargebackLineRecord l =
        Line(held.hour, held.team, absl::StrCat("ns-", ++namespaces_), held.model, "workload", held.held_milli_seconds);
    l.cluster = held.cluster;
    auto& hour = lines_[{held.cluster, held.hour}];
    hour.push_back(l);
    ASSERT_THAT(chargeback_->ReplaceHours(held.cluster, held.hour, held.hour + absl::Hours(1), hour, {}), IsOk());
  }
  // The pod (deleted at `deleted_at`) and its wait.
  void AddPending(const PendingPodRecord& pod, std::optional<absl::Time> pending_to,
                  std::optional<absl::Time> deleted_at) {
    auto text = [](std::optional<absl::Time> t) -> std::optional<std::string> {
      if (!t) return std::nullopt;
      return FormatRfc3339(*t);
    };
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", pod.cluster);
    txn.exec_params(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at,"
        " deleted_at) VALUES ($1, $2, $3, $4, $5, 'Job', 'j', $6::timestamptz, $7::timestamptz)",
        pod.cluster, pod.pod_uid, pod.namespace_name, pod.pod_name, pod.team_label, FormatRfc3339(pod.pending_from),
        text(deleted_at));
    txn.exec_params(
        "INSERT INTO pending_demand (cluster, pod_uid, resource_name, model, requested_milli, pending_from, pending_to)"
        " VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)",
        pod.cluster, pod.pod_uid, pod.resource_name, pod.model, pod.requested_milli, FormatRfc3339(pod.pending_from),
        text(pending_to));
    txn.commit();
  }

 private:
  std::unique_ptr<PgDemandHistoryRepository> repo_;
  std::unique_ptr<PgChargebackRepository> chargeback_;
  std::map<std::pair<std::string, absl::Time>, std::vector<ChargebackLineRecord>> lines_;
  int namespaces_ = 0;
};

FLEETCAP_DEMAND_HISTORY_CONTRACT_TESTS(PgDemandHistoryContractTest)

TEST_F(PgDemandHistoryTest, HeldHoursAreTheWorkloadLinesSummedPerTeamModelAndHour) {
  PgChargebackRepository chargeback(pool());
  const std::vector<ChargebackLineRecord> lines = {
      Line(kDemandT0, "vision", "ml", "H100", "workload", 1000 * 3600),
      Line(kDemandT0, "vision", "cv", "H100", "workload", 500 * 3600),  // another namespace: summed
      Line(kDemandT0, "vision", "ml", "T4", "workload", 2000 * 3600),
      Line(kDemandT0, "idle", "", "H100", "idle", 3000 * 3600),  // not a team's holding
      Line(kDemandT0, "speech", "asr", "H100", "shared", 0),
      Line(kDemandT0 + absl::Hours(1), "speech", "asr", "H100", "workload", 250 * 3600),
      Line(kDemandT0 + absl::Hours(2), "speech", "asr", "H100", "workload", 750 * 3600),  // outside the window read
  };
  ASSERT_THAT(chargeback.ReplaceHours("c1", kDemandT0, kDemandT0 + absl::Hours(3), lines, {}), IsOk());

  PgDemandHistoryRepository history(pool());
  auto held = history.HeldHours(kDemandT0, kDemandT0 + absl::Hours(2));
  ASSERT_THAT(held, IsOk());
  const std::vector<HeldHourRecord> expected = {
      {"c1", "H100", "speech", kDemandT0 + absl::Hours(1), 250 * 3600},
      {"c1", "H100", "vision", kDemandT0, 1500 * 3600},
      {"c1", "T4", "vision", kDemandT0, 2000 * 3600},
  };
  EXPECT_EQ(*held, expected);
  auto none = history.HeldHours(kDemandT0 + absl::Hours(5), kDemandT0 + absl::Hours(6));
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

TEST_F(PgDemandHistoryTest, PendingAtIsTheWaitsOpenThenOldestFirstWithTheTeamEvidence) {
  const absl::Time at = kDemandT0 + absl::Hours(2);
  InventoryChanges c;
  c.cluster = "c1";
  auto pod = [&](const std::string& uid, const std::string& ns, const std::string& label,
                 std::optional<absl::Time> deleted) {
    return LivePod{{uid, ns, uid + "-pod", label, "Job", uid, "Pending", kDemandT0, std::nullopt, deleted, 1000, true},
                   ""};
  };
  c.pods = {pod("waiting", "ml", "vision", std::nullopt), pod("older", "asr", "", std::nullopt),
            pod("bound", "ml", "", std::nullopt), pod("later", "ml", "", std::nullopt),
            pod("deleted", "ml", "", kDemandT0 + absl::Hours(1))};
  c.demands = {{"waiting", "nvidia.com/gpu", "H100", 2000, kDemandT0 + absl::Minutes(90), std::nullopt},
               {"older", "nvidia.com/gpu", "", 1000, kDemandT0 + absl::Minutes(30), std::nullopt},
               {"bound", "nvidia.com/gpu", "H100", 1000, kDemandT0, kDemandT0 + absl::Hours(1)},  // ended before
               {"later", "nvidia.com/gpu", "H100", 1000, at + absl::Minutes(1), std::nullopt},    // not yet
               {"deleted", "nvidia.com/gpu", "H100", 1000, kDemandT0, std::nullopt}};             // pod gone
  PgLiveInventoryRepository inventory(pool());
  ASSERT_THAT(inventory.Apply(c), IsOk());

  PgDemandHistoryRepository history(pool());
  auto pending = history.PendingAt(at, 10);
  ASSERT_THAT(pending, IsOk());
  const std::vector<PendingPodRecord> expected = {
      {"c1", "older", "asr", "", "nvidia.com/gpu", "", 1000, kDemandT0 + absl::Minutes(30), "older-pod"},
      {"c1", "waiting", "ml", "vision", "nvidia.com/gpu", "H100", 2000, kDemandT0 + absl::Minutes(90), "waiting-pod"},
  };
  EXPECT_EQ(*pending, expected);
  auto bounded = history.PendingAt(at, 1);
  ASSERT_THAT(bounded, IsOk());
  ASSERT_EQ(bounded->size(), 1u);
  EXPECT_EQ((*bounded)[0].pod_uid, "older");
  // A second before the bound pod's wait ended and the deleted pod went, both still waited.
  auto before = history.PendingAt(kDemandT0 + absl::Hours(1) - absl::Seconds(1), 10);
  ASSERT_THAT(before, IsOk());
  std::vector<std::string> uids;
  for (const auto& p : *before) uids.push_back(p.pod_uid);
  EXPECT_EQ(uids, (std::vector<std::string>{"bound", "deleted", "older"}));
}

}  // namespace
}  // namespace fleetcap::store
