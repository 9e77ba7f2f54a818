// PgForecastRepository keeps the same contract as the in-memory form, on a fresh database per test, and the schema
// (migration 0021) refuses what the validation refuses even from a writer
// that skips it.

#include "store/pg_forecast_repository.h"

#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/forecast_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class PgForecastTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgForecastRepository>(pool());
  }
  ForecastRepository& repo() { return *repo_; }

  std::unique_ptr<PgForecastRepository> repo_;
};

FLEETCAP_FORECAST_CONTRACT_TESTS(PgForecastTest)

TEST_F(PgForecastTest, TheSchemaRefusesATeamOnACapacitySeries) {
  auto id = repo_->StoreRun(forecast_contract::Draft());
  ASSERT_THAT(id, IsOk());
  pqxx::work txn(*conn_);
  EXPECT_THROW(txn.exec_params("UPDATE forecast_series SET team = 'x' WHERE run_id = $1 AND what = 'capacity'", *id),
               pqxx::check_violation);
}

TEST_F(PgForecastTest, TheSchemaRefusesAHorizonPastNinetyDays) {
  auto id = repo_->StoreRun(forecast_contract::Draft());
  ASSERT_THAT(id, IsOk());
  pqxx::work txn(*conn_);
  EXPECT_THROW(txn.exec_params("UPDATE forecast_runs SET horizon_hours = 2161 WHERE run_id = $1", *id),
               pqxx::check_violation);
}

}  // namespace
}  // namespace fleetcap::store
