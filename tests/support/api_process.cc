#include "tests/support/api_process.h"

#include <cstdio>

#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "store/cluster_inventory_changes.h"
#include "store/pg_live_inventory_repository.h"
#include "store/test_inventory.h"
#include "tests/support/tokens.h"

namespace fleetcap::testing {

absl::StatusOr<ApiProcess> StartApi(const std::string& api_bin, const std::string& db_uri,
                                    const std::vector<std::string>& extra_flags) {
  std::vector<std::string> argv = {api_bin,       "--db",          db_uri,        "--grpc-listen",
                                   "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--metrics-listen",
                                   "127.0.0.1:0", "--log-level",   "warn"};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  FLEETCAP_ASSIGN_OR_RETURN(auto process, Subprocess::Start(argv));
  FLEETCAP_ASSIGN_OR_RETURN(auto line, process->WaitForLine("fleetcap-api ready", absl::Seconds(60)));
  ApiProcess api;
  if (std::sscanf(line.c_str(), "fleetcap-api ready grpc=%d http=%d metrics=%d", &api.grpc_port, &api.http_port,
                  &api.metrics_port) != 3) {
    return absl::InternalError("unreadable ready line: " + line);
  }
  api.process = std::move(process);
  FLEETCAP_ASSIGN_OR_RETURN(auto token, MintToken(db_uri, "admin"));
  api.admin_token = token;
  return api;
}

absl::StatusOr<std::unique_ptr<ServedTestInventory>> ServeTestInventory(const std::string& api_bin) {
  auto served = std::make_unique<ServedTestInventory>();
  FLEETCAP_ASSIGN_OR_RETURN(auto db, TestDatabase::Migrated());
  served->db = std::move(db);
  {
    FLEETCAP_ASSIGN_OR_RETURN(auto pool, PgPool::Open(served->db->uri(), 1));
    FLEETCAP_RETURN_IF_ERROR(
        store::PgLiveInventoryRepository(pool.get()).Apply(store::ChangesOf(store::TestInventory())));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto api, StartApi(api_bin, served->db->uri()));
  served->api = std::move(api);
  return served;
}

}  // namespace fleetcap::testing
