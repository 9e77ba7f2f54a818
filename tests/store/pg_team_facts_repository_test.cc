// PgTeamFactsRepository keeps the same contract as the in-memory form, on a
// fresh database per test; the facts are written as the ingest leaves them.

#include "store/pg_team_facts_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/team_facts_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

std::optional<std::string> TeamFactsTime(const std::optional<absl::Time>& t) {
  if (!t) return std::nullopt;
  return FormatRfc3339(*t);
}

class PgTeamFactsTest : public testing::MigratedDatabaseTest {
 public:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgTeamFactsRepository>(pool());
  }
  TeamFactsRepository& repo() { return *repo_; }

  void AddPod(const MemoryTeamFactsRepository::Pod& pod) {
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", pod.cluster);
    txn.exec_params(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at,"
        " deleted_at) VALUES ($1, $2, $3, $2, $4, 'Job', 'j', $5::timestamptz, $6::timestamptz)",
        pod.cluster, pod.pod_uid, pod.namespace_name, pod.team_label, FormatRfc3339(pod.created_at),
        TeamFactsTime(pod.deleted_at));
    txn.commit();
  }
  // Each hold on a device of its own.
  void AddHold(const MemoryTeamFactsRepository::Hold& hold) {
    const std::string device = absl::StrCat("dev-", ++devices_);
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", hold.cluster);
    txn.exec(
        "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ('H100', 'nvidia', 'nvidia.com/gpu')"
        " ON CONFLICT DO NOTHING");
    txn.exec_params(
        "INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)"
        " VALUES ($1, $2, 'n1', 0, 'H100', $3::timestamptz, $4::timestamptz)",
        hold.cluster, device, FormatRfc3339(hold.device_in_service_from), TeamFactsTime(hold.device_in_service_to));
    txn.exec_params(
        "INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from, held_to)"
        " VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz)",
        hold.cluster, hold.pod_uid, device, hold.milli, FormatRfc3339(hold.held_from), TeamFactsTime(hold.held_to));
    txn.commit();
  }
  void AddNamespace(const std::string& cluster, const NamespaceLabels& ns) {
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params("DELETE FROM namespace_labels WHERE cluster = $1 AND namespace = $2", cluster, ns.name);
    for (const auto& [source, pairs] : {std::pair{"label", &ns.labels}, std::pair{"annotation", &ns.annotations}}) {
      for (const auto& [key, value] : *pairs) {
        txn.exec_params(
            "INSERT INTO namespace_labels (cluster, namespace, source, key, value) VALUES ($1, $2, $3, $4, $5)",
            cluster, ns.name, source, key, value);
      }
    }
    txn.commit();
  }
  int32_t Apply(const std::string& document, absl::Time applied_at) {
    pqxx::work txn(*conn_);
    const auto version = txn.exec1("SELECT coalesce(max(version), 0) + 1 FROM policies")[0].as<int32_t>();
    txn.exec_params(
        "INSERT INTO policies (version, document, applied_at, applied_by) VALUES ($1, $2, $3::timestamptz, 'test')",
        version, document, FormatRfc3339(applied_at));
    txn.commit();
    return version;
  }

 private:
  std::unique_ptr<PgTeamFactsRepository> repo_;
  int devices_ = 0;
};

FLEETCAP_TEAM_FACTS_CONTRACT_TESTS(PgTeamFactsTest)

}  // namespace
}  // namespace fleetcap::store
