#pragma once
// Replays the openb pod list onto the node list with a fixed next-fit rule, to
// say which pod held which GPU when. The trace records when each pod was
// scheduled but not where, so the placement is a documented contract rather
// than a reconstruction:
//
//  - Nodes are visited in order of name, wrapping around. Each GPU starts with
//    1000 milli free.
//  - Events run in time order: a placement at scheduled_time, a release at
//    deletion_time. At equal times releases come first; within a kind, events
//    are ordered by pod name.
//  - Each search starts at the node after the one that took the last
//    successful placement (the first search at the first node).
//  - k whole GPUs (gpu_milli 1000): the k lowest-indexed entirely free GPUs of
//    the first node with k entirely free.
//  - A sharing pod (one GPU, gpu_milli < 1000): gpu_milli of the
//    lowest-indexed GPU with that much free, on the first node with one.
//  - A pod holds [scheduled_time, deletion_time); no deletion_time: to the end.
//    A release frees exactly what the pod took.
//  - gpu_spec is not consulted: the contract places on any model, and the
//    published lists leave it empty anyway.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ingest/openb/openb_trace.h"

namespace fleetcap::openb {

enum class PodOutcome {
  kPlaced,          // holds one GPU share or num_gpu whole GPUs
  kNoGpu,           // num_gpu == 0: takes part in no placement, not unplaced
  kNeverScheduled,  // no scheduled_time in the trace
  kEmptyInterval,   // deletion_time <= scheduled_time: nothing to hold
  kNoRoom,          // no node had room when it was scheduled
  kInvalidRequest,  // a request shape the contract has no rule for
};

// True for the outcomes of a pod that asked for GPUs but held none.
bool IsUnplaced(PodOutcome outcome);

// One GPU (or share of one) held by one pod. Indices refer to the trace's
// vectors as given, not to the name order used for the search.
struct GpuHold {
  size_t pod = 0;
  size_t node = 0;
  int32_t gpu = 0;    // 0..gpus-1 on that node
  int32_t milli = 0;  // 1..1000
  int64_t start_s = 0;
  std::optional<int64_t> end_s;  // absent: held to the end of the trace
};

struct Placement {
  // In placement order; a k-GPU pod contributes k consecutive holds in
  // ascending GPU index.
  std::vector<GpuHold> holds;
  std::vector<PodOutcome> outcomes;  // one per trace pod, same index
  std::vector<size_t> unplaced;      // pod indices with IsUnplaced(outcome), ascending
  int64_t placed_pods = 0;
  int64_t no_gpu_pods = 0;
};

Placement PlaceNextFit(const OpenbTrace& trace);

}  // namespace fleetcap::openb
