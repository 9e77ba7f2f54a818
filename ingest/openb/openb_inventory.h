#pragma once
// The openb trace and its next-fit placement in the store's inventory model,
// with every trace second counted from a chosen start instant.

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_trace.h"
#include "store/inventory.h"

namespace fleetcap::openb {

// The resource every model of the trace is requested as: the trace names
// none, and one name for every model, the undisclosed G codes included,
// keeps them all requestable the same way.
inline constexpr char kOpenbResourceName[] = "nvidia.com/gpu";

// "nvidia" for the public NVIDIA models in the trace; "unknown" for the
// undisclosed internal codes (G1, G2, G3) and anything else.
absl::string_view OpenbVendor(absl::string_view model);

// `<node>-gpu<index>`: the trace has no GPU ids, and this is unique because
// node names are.
std::string OpenbDeviceId(absl::string_view node, int index);

// One AcceleratorType per model (by model name), one Node per node (pool =
// model), one Device per GPU, one Pod per pod (team from TeamForOpenbPod), one
// Hold per held GPU. Nodes and devices are in service from `start`,
// open-ended. `placement` must come from PlaceNextFit(trace).
store::ClusterInventory BuildOpenbInventory(const OpenbTrace& trace, const Placement& placement,
                                            const std::string& cluster, absl::Time start);

}  // namespace fleetcap::openb
