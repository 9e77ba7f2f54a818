#include "ingest/k8s/holds.h"

#include <algorithm>
#include <map>

namespace fleetcap::k8s {

PodTimes TimesOf(const PodObject& pod, absl::Time observed) {
  PodTimes t;
  t.bound = !pod.node_name.empty();
  if (!t.bound) return t;
  const bool finished = pod.phase == "Succeeded" || pod.phase == "Failed";
  const bool running = pod.phase == "Running";
  if (pod.first_started.has_value()) {
    t.hold_from = pod.first_started;
  } else if (running || (finished && pod.last_finished.has_value())) {
    t.hold_from = pod.start_time.has_value()     ? pod.start_time
                  : pod.scheduled_at.has_value() ? pod.scheduled_at
                                                 : std::optional<absl::Time>(pod.created);
  }
  t.scheduled = pod.scheduled_at.has_value() ? pod.scheduled_at : t.hold_from;
  if (finished && t.hold_from.has_value()) {
    t.hold_to = std::max(*t.hold_from, pod.last_finished.value_or(observed));
  }
  return t;
}

absl::Time DeletionTime(const PodObject& pod, absl::Time observed) {
  const bool all_terminated =
      !pod.containers.empty() && pod.containers_terminated >= static_cast<int>(pod.containers.size());
  if (all_terminated && pod.last_finished.has_value()) return *pod.last_finished;
  if (pod.deletion.has_value()) return std::min(*pod.deletion, observed);
  return observed;
}

Assignment AssignDevices(const std::vector<int32_t>& initial_load, const PodDemand& demand) {
  Assignment out;
  std::vector<int32_t> load = initial_load;
  std::map<int, int32_t> mine;  // this pod's share per device
  const int devices = static_cast<int>(load.size());
  auto take = [&](int index, int32_t milli) {
    load[index] += milli;
    mine[index] += milli;
  };
  // The least-loaded device where this pod's own share stays within one device.
  auto least_loaded = [&](int32_t milli) {
    int best = -1;
    for (int i = 0; i < devices; ++i) {
      if (mine[i] + milli > 1000) continue;
      if (best < 0 || load[i] < load[best]) best = i;
    }
    return best;
  };

  std::vector<int> pinned;
  for (int index : demand.device_indices) {
    if (index >= devices) {
      pinned.clear();
      break;
    }
    pinned.push_back(index);
  }
  int unit_number = 0;
  for (const auto& group : demand.units) {
    for (int64_t k = 0; k < group.count; ++k, ++unit_number) {
      const int32_t milli = group.unit.milli;
      int chosen = -1;
      if (!pinned.empty()) {
        const int index = pinned[static_cast<size_t>(unit_number) % pinned.size()];
        if (mine[index] + milli <= 1000 && (!group.unit.whole || load[index] == 0)) chosen = index;
        if (chosen >= 0 && load[chosen] + milli > 1000) out.overcommitted = true;
      }
      if (chosen < 0 && group.unit.whole) {
        for (int i = 0; i < devices && chosen < 0; ++i) {
          if (load[i] == 0) chosen = i;
        }
      } else if (chosen < 0) {
        for (int i = 0; i < devices && chosen < 0; ++i) {
          if (load[i] + milli <= 1000) chosen = i;
        }
      }
      if (chosen < 0 && !group.unit.whole) {
        chosen = least_loaded(milli);
        if (chosen >= 0) out.overcommitted = true;
      }
      if (chosen < 0) {
        // Nothing changed, so no later unit of the group fits either: a pod
        // asking for billions of devices costs one pass over the node's.
        const int64_t rest = group.count - k;
        int64_t unplaced = 0;
        if (__builtin_mul_overflow(rest, int64_t{milli}, &unplaced) ||
            __builtin_add_overflow(out.unplaced_milli, unplaced, &out.unplaced_milli)) {
          out.unplaced_milli = INT64_MAX;
        }
        unit_number += static_cast<int>(std::min<int64_t>(rest, 1 << 20));
        break;
      }
      take(chosen, milli);
    }
  }
  for (const auto& [index, milli] : mine) {
    if (milli > 0) out.shares.push_back({index, milli});
  }
  return out;
}

}  // namespace fleetcap::k8s
