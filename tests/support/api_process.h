#pragma once
// A real fleetcap-api process on free ports, for integration tests.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/status/statusor.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap::testing {

struct ApiProcess {
  std::unique_ptr<Subprocess> process;
  int grpc_port = 0;
  int http_port = 0;
  int metrics_port = 0;
  // A live admin token, minted in the API's database once it is up.
  std::string admin_token;

  std::string grpc_address() const { return "127.0.0.1:" + std::to_string(grpc_port); }
  std::string http_base() const { return "http://127.0.0.1:" + std::to_string(http_port); }
};

// Starts `api_bin` against `db_uri` on port 0 everywhere, plus `extra_flags`,
// waits for its ready line, and mints `admin_token`.
absl::StatusOr<ApiProcess> StartApi(const std::string& api_bin, const std::string& db_uri,
                                    const std::vector<std::string>& extra_flags = {});

// A migrated database holding store::TestInventory() and a fleetcap-api serving it.
struct ServedTestInventory {
  std::unique_ptr<TestDatabase> db;
  ApiProcess api;
};
absl::StatusOr<std::unique_ptr<ServedTestInventory>> ServeTestInventory(const std::string& api_bin);

// The fixture of suites that only read: one database with store::TestInventory()
// and one fleetcap-api (`kApiBin`) serving it, started once for the whole suite.
template <const char* kApiBin>
class ServedInventoryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = ServeTestInventory(kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
    api_ = &served_->api;
  }
  static void TearDownTestSuite() { served_.reset(); }

  static inline std::unique_ptr<ServedTestInventory> served_;
  static inline ApiProcess* api_ = nullptr;
};

// The fixture of tests that change what the API serves: a fresh migrated
// database and a fleetcap-api (`kApiBin`) on it, for each test.
template <const char* kApiBin>
class ApiOnMigratedDatabaseTest : public MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    auto api = StartApi(kApiBin, db_->uri());
    ASSERT_THAT(api, IsOk());
    api_ = std::make_unique<ApiProcess>(std::move(*api));
  }

  std::unique_ptr<ApiProcess> api_;
};

}  // namespace fleetcap::testing
