#pragma once
// One cluster's workloads as the rightsizing engine reads them
// (optimizer/insights/rightsizing_facts.h), from what the store keeps: the
// holds with their pod's namespace, team label and top controller, the
// devices' models, and the pods' per-minute readings. Pure code.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "optimizer/insights/rightsizing_facts.h"
#include "policy/team_resolution.h"
#include "store/attribution_facts_repository.h"
#include "store/usage_repository.h"

namespace fleetcap::optimizer {

// The team of a pod, as the policy in force decides it.
using TeamOfPod = std::function<std::string(const policy::PodEvidence&)>;

// A workload is a (namespace, top controller, model): the pods of one
// controller on one model, a bare pod its own ("Pod/<uid>"). Holds of a pod
// the inventory does not know (no namespace) are left out: there is nothing
// to resize. A workload's team is its first hold's pod's. Each reading joins
// the workload holding its pod and device's model; readings of no hold are
// left out.
std::vector<insights::WorkloadFacts> RightsizingWorkloads(const std::string& cluster,
                                                          const store::AttributionFactsRecord& facts,
                                                          const std::vector<store::UsageMinuteRow>& minutes,
                                                          const TeamOfPod& team_of);

// `facts`' holds cut into parts of whole workloads (as RightsizingWorkloads
// groups them, in the order it finds them), each closed once it has
// `batch_holds` holds or more, with the devices its holds are on: what
// RightsizingWorkloads reads a part at a time, each part's workloads as they
// are read whole. Holds it leaves out are in no part.
std::vector<store::AttributionFactsRecord> WorkloadParts(const store::AttributionFactsRecord& facts,
                                                         size_t batch_holds);

}  // namespace fleetcap::optimizer
