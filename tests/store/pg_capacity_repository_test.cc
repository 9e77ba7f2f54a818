// PgCapacityRepository keeps the same contract as the in-memory form, on a
// fresh database per test.

#include "store/pg_capacity_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/capacity_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgCapacityTest : public testing::MigratedDatabaseTest {
 public:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgCapacityRepository>(pool());
  }
  const CapacityReadRepository& repo() { return *repo_; }

  // Each interval a device of its own.
  void AddDevice(const std::string& cluster, const std::string& model, absl::Time from, std::optional<absl::Time> to) {
    std::optional<std::string> until;
    if (to) until = FormatRfc3339(*to);
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params(
        "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, 'nvidia', 'nvidia.com/gpu')"
        " ON CONFLICT DO NOTHING",
        model);
    txn.exec_params(
        "INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)"
        " VALUES ($1, $2, 'n1', 0, $3, $4::timestamptz, $5::timestamptz)",
        cluster, absl::StrCat("dev-", ++devices_), model, FormatRfc3339(from), until);
    txn.commit();
  }

 private:
  std::unique_ptr<PgCapacityRepository> repo_;
  int devices_ = 0;
};

FLEETCAP_CAPACITY_CONTRACT_TESTS(PgCapacityTest)

}  // namespace
}  // namespace fleetcap::store
