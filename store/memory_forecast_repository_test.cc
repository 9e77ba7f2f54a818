// MemoryForecastRepository keeps the contract the PostgreSQL form keeps
// (tests/store/pg_forecast_repository_test.cc).

#include <gtest/gtest.h>

#include "store/forecast_contract.h"
#include "store/memory_forecast_repository.h"

namespace fleetcap::store {
namespace {

class MemoryForecastTest : public ::testing::Test {
 protected:
  ForecastRepository& repo() { return repo_; }

  MemoryForecastRepository repo_;
};

FLEETCAP_FORECAST_CONTRACT_TESTS(MemoryForecastTest)

}  // namespace
}  // namespace fleetcap::store
