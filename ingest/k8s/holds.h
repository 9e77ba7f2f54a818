#pragma once
// When a pod holds its accelerators, and which devices of its node it holds.
//
// A hold starts when the pod is bound and its containers start: the earliest
// container startedAt (init containers included, since devices are allocated
// when the pod is admitted), not the time fleetcap saw it. A running pod whose
// status lacks container times falls back to status.startTime, then the
// PodScheduled time, then creation. The hold ends when the pod terminates
// (phase Succeeded or Failed: the latest container finishedAt) or is deleted.
//
// The Kubernetes API does not say which device of a node a pod got, so
// devices are assigned by a fixed rule (or from a GPU-sharing scheduler's
// device-index annotation when present): whole units take the
// lowest-indexed entirely free devices, shared units the lowest-indexed
// device with room. When no device has room for a share (the node is
// over-committed, which fractional annotations allow), the least-loaded
// device takes it and the assignment says so. A whole device is never given
// twice: a whole unit without an entirely free device is unplaced.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "ingest/k8s/accelerators.h"
#include "ingest/k8s/objects.h"

namespace fleetcap::k8s {

struct PodTimes {
  bool bound = false;                   // spec.nodeName is set
  std::optional<absl::Time> scheduled;  // when it was bound, if known
  std::optional<absl::Time> hold_from;  // containers started
  std::optional<absl::Time> hold_to;    // terminated (Succeeded / Failed)
};

// `observed` stands in for a finish time a terminated pod's status lacks.
PodTimes TimesOf(const PodObject& pod, absl::Time observed);

// When a pod deleted (or found gone) at `observed` stopped holding: its
// containers' latest finishedAt if they all terminated, else the earlier of
// its deletionTimestamp and `observed`.
absl::Time DeletionTime(const PodObject& pod, absl::Time observed);

struct DeviceShare {
  int index = 0;
  int32_t milli = 0;  // 1..1000

  friend bool operator==(const DeviceShare& a, const DeviceShare& b) {
    return a.index == b.index && a.milli == b.milli;
  }
};

struct Assignment {
  std::vector<DeviceShare> shares;  // by device index
  int64_t unplaced_milli = 0;       // asked for but beyond the node's devices
  bool overcommitted = false;       // some share went where there was no room
};

// `load[i]` is the milli already held on device i (its size is the device count).
Assignment AssignDevices(const std::vector<int32_t>& load, const PodDemand& demand);

}  // namespace fleetcap::k8s
