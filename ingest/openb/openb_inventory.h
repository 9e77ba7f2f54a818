#pragma once
// The openb trace and its next-fit placement in the store's inventory model,
// with every trace second counted from a chosen start instant.

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_trace.h"
#include "store/inventory.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::openb {

// The resource every model of the trace is requested as: the trace names
// none, and one name for every model, the undisclosed G codes included,
// keeps them all requestable the same way.
inline constexpr char kOpenbResourceName[] = "nvidia.com/gpu";

// The node label NVIDIA's GPU feature discovery sets to a node's GPU product
// (e.g. NVIDIA-A100-SXM4-80GB on a real cluster). A replayed node carries it
// with its GPUs' model as the trace names it ("T4", "G2"): the undisclosed G
// codes are requested as nvidia.com/gpu too, so their nodes are labelled alike.
inline constexpr char kOpenbModelLabel[] = "nvidia.com/gpu.product";

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

// The changes that store `inventory` (store::ChangesOf), each node with GPUs
// labelled as a real NVIDIA cluster's is: kOpenbModelLabel with its GPUs'
// model, in the columns the Kubernetes ingest fills (LiveNode's
// model_label_key and model_label_value), so that the API's Kueue
// ResourceFlavors select a replayed model's nodes. No pool label: the trace
// names no node pools (a replayed node's pool is its model, which the model
// label already selects). A node without GPUs, or whose model is no valid
// Kubernetes label value (at most 63 of A-Z a-z 0-9 - _ . , beginning and
// ending with a letter or digit), carries no label.
store::InventoryChanges OpenbInventoryChanges(const store::ClusterInventory& inventory);

}  // namespace fleetcap::openb
