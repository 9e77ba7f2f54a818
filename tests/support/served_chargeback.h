#pragma once
// A fleetcap-api serving a small bill: a migrated database holding a policy
// (an org tree and a currency) and eight hours of chargeback lines written
// through store::PgChargebackRepository, across a day and a month boundary,
// in two clusters plus fixed costs, with every line kind, an `idle` and an
// `unassigned` team. The API and CLI chargeback tests read it; they work out
// what to expect from `lines`, the lines as written.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "store/chargeback_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/http_get.h"
#include "tests/support/test_database.h"

namespace fleetcap::testing {

// The policy applied: research > vision > vision-detect, and ads; EUR.
extern const char* const kChargebackPolicy;

// The first hour of the lines (2026-01-31T20:00:00Z) and the hour after the last (2026-02-01T04:00:00Z).
inline const absl::Time kChargebackStart = absl::FromUnixSeconds(1'769'889'600);
inline const absl::Time kChargebackEnd = kChargebackStart + absl::Hours(8);

struct ServedChargeback {
  std::unique_ptr<TestDatabase> db;
  ApiProcess api;
  std::vector<store::ChargebackLineRecord> lines;
  // Secrets by role: admin, planner, scheduler, team:vision, team:ads.
  std::map<std::string, std::string> tokens;

  // GET `target` (a path and its query) from the API's HTTP listener with the token of `role`.
  absl::StatusOr<HttpResult> Get(const std::string& target, const std::string& role = "planner") const;
};

absl::StatusOr<std::unique_ptr<ServedChargeback>> ServeChargeback(const std::string& api_bin);

}  // namespace fleetcap::testing
