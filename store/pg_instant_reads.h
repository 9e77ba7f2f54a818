#pragma once
// The fleet summary at one instant, shared by the repositories that serve it
// (PgLiveInventoryRepository::SummarizeAt, PgTeamFactsRepository::HoldersAt)
// and the job that keeps its checkpoints (PgInstantCheckpoints). At or after
// the horizon, the kept "now"; before it, per cluster, a known summary nearby
// and the change from it (store/instant_sources.h), or the facts
// current then when none is near. Each runs in the caller's transaction
// (one snapshot); libpqxx's exceptions pass through.

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "store/instant_sources.h"
#include "store/inventory_reader.h"
#include "store/team_facts_repository.h"

namespace fleetcap::store {

// Per model, the devices in service at `at` and the milli-devices held on
// them, in model order; `cluster` "" for every cluster.
std::vector<ModelCount> SummaryAtInstant(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at);

// Per (cluster, namespace, team label), the milli-devices held at `at` on
// devices in service, none at zero (in no particular order).
std::vector<PodTeamEvidence> HoldersAtInstant(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at);

// The statement that sums `sql` (kSummaryFromSourcesSql or
// kHoldersFromSourcesSql) over the bases of `sources` and the changes from
// them; "" when every source is the facts'.
std::string FromSourcesSql(pqxx::transaction_base& txn, const std::vector<InstantSource>& sources, const char* sql);

}  // namespace fleetcap::store
