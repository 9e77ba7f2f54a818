#pragma once
// The `fixed` lines of an hour from the lines the clusters stored: rule 8 of
// docs/attribution.md ("Fixed monthly costs"), the one part of the
// chargeback that needs the whole fleet. When the optimizer shares work by
// cluster, each cluster's lines are computed on their own and the fleet's
// `fixed` lines afterwards from what every team was charged that hour on
// its `workload` lines, exactly as the engine spreads them in one fleet-wide
// run (attribution_engine.cc, Engine::Fixed): the hour's part of every fixed
// monthly cost, split by largest remainder over the teams charged, weighted
// by their charge or evenly, in team-name order; to `unassigned` when no team
// was charged. A test holds the two to the same lines.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "policy/policy_document.h"
#include "store/chargeback_repository.h"

namespace fleetcap::chargeback {

// The `fixed` lines of the hour starting at `hour` under `options` (the
// attribution section in force at the hour's start), given each team's
// charge that hour: the sum of its `workload` lines' totals over every
// cluster. No lines when the hour's fixed amount is zero.
std::vector<store::ChargebackLineRecord> FixedLines(absl::Time hour, const policy::Attribution& options,
                                                    const std::map<std::string, int64_t>& charged);

}  // namespace fleetcap::chargeback
