#pragma once
// Clusters of any size with the openb trace's shapes, for benchmarks and for
// demos where the published data is absent: node models and GPUs per node,
// pod GPU counts and sharing fractions, scheduling waits and lifetimes are
// drawn from the empirical distributions of the published trace (embedded
// here, so no data is needed), deterministically from a seed. The result is
// an OpenbTrace, so the replay's next-fit contract and the fixture's live
// cluster take it like the real one. Pods arrive over one hour (trace
// seconds 0..3600); those whose lifetime ends within it have a deletion time.

#include <cstdint>

#include "ingest/openb/openb_trace.h"

namespace fleetcap::synthetic {

struct SyntheticOptions {
  int nodes = 100;
  int pods = 1000;
  uint64_t seed = 1;
};

// Nodes are named synthetic-node-NNNNN, pods synthetic-pod-NNNNNN.
openb::OpenbTrace SyntheticTrace(const SyntheticOptions& options);

}  // namespace fleetcap::synthetic
