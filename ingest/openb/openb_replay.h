#pragma once
// `fleetcap-ingest replay --trace openb`: reads the published trace, places its
// pods by the next-fit contract, and writes the result as one batch of
// inventory changes (store/cluster_inventory_changes.h), like every writer of
// the inventory: a replay repeated stores nothing new. A malformed row costs
// only itself: it is set aside in the quarantine (source "replay", keyed
// `file:line`), in the same transaction, and the rest is replayed.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/openb/openb_trace.h"
#include "ingest/openb/sampled_load.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::ingest {

struct OpenbReplayOptions {
  std::string data_dir;  // holds openb_node_list_gpu_node.csv and the pod list
  std::string pod_file = "openb_pod_list_default.csv";
  std::string cluster = "openb";
  absl::Time start;  // the instant trace second 0 maps to
};

struct ReplayReport {
  int64_t nodes = 0;
  int64_t devices = 0;
  int64_t pods = 0;
  int64_t placed_pods = 0;
  int64_t unplaced_pods = 0;
  int64_t no_gpu_pods = 0;
  int64_t holds = 0;
  int64_t set_aside_rows = 0;
};

// Rows set aside are stamped with `clock`'s time.
absl::StatusOr<ReplayReport> ReplayOpenb(const OpenbReplayOptions& options, store::LiveInventoryRepository& inventory,
                                         const Clock& clock);

// The same for a trace already in memory (a synthetic one, ingest/synthetic).
absl::StatusOr<ReplayReport> ReplayTrace(const openb::OpenbTrace& trace, const std::string& cluster, absl::Time start,
                                         store::LiveInventoryRepository& inventory, const Clock& clock);

// What a sampled replay stored besides the facts: the window and, per
// flavor, the load reached.
struct SampledReplayReport {
  ReplayReport replay;
  int64_t waits = 0;  // pods that found no room, stored as pending demand
  absl::Time start;   // trace second 0: the window's first whole hour
  absl::Time end;     // now
  std::vector<openb::FlavorOutcome> flavors;
};

// `fleetcap-ingest replay --trace openb --sample`: the trace's pods sampled
// at a realistic load (ingest/openb/sampled_load.h) over the `sample.window_s`
// seconds before now (`clock`), from the whole hour that starts them (so the
// window is up to an hour longer), and stored as the cluster's inventory like
// the literal replay; each pod that found no room is stored as a wait for
// accelerators (the pending demand a live cluster's ingest records). The
// options' start is not used.
absl::StatusOr<SampledReplayReport> ReplaySampledOpenb(const OpenbReplayOptions& options,
                                                       openb::LoadSampleOptions sample,
                                                       store::LiveInventoryRepository& inventory, const Clock& clock);

}  // namespace fleetcap::ingest
