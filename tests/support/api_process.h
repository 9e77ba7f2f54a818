#pragma once
// A real fleetcap-api process on free ports, for integration tests.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
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

}  // namespace fleetcap::testing
