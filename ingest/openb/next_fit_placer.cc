#include "ingest/openb/next_fit_placer.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

namespace fleetcap::openb {
namespace {

constexpr int32_t kMilliPerGpu = 1000;

// Per-node summary counters let the search reject a node in O(1); they are
// recomputed over the node's few GPUs only when the node changes.
struct NodeState {
  std::vector<int32_t> free;  // milli free per GPU
  int32_t whole_free = 0;     // GPUs with all 1000 milli free
  int32_t max_free = 0;       // most milli free on any one GPU

  void Refresh() {
    whole_free = static_cast<int32_t>(std::count(free.begin(), free.end(), kMilliPerGpu));
    max_free = free.empty() ? 0 : *std::max_element(free.begin(), free.end());
  }
};

struct Event {
  int64_t time_s = 0;
  bool release = false;
  size_t pod = 0;
};

class NextFit {
 public:
  NextFit(const OpenbTrace& trace, Placement& placement)
      : trace_(trace), placement_(placement), order_(trace.nodes.size()) {
    std::iota(order_.begin(), order_.end(), size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](size_t a, size_t b) { return trace_.nodes[a].name < trace_.nodes[b].name; });
    states_.resize(order_.size());
    for (size_t pos = 0; pos < order_.size(); ++pos) {
      const OpenbNode& node = trace_.nodes[order_[pos]];
      states_[pos].free.assign(static_cast<size_t>(std::max(node.gpus, 0)), kMilliPerGpu);
      states_[pos].Refresh();
    }
    position_.resize(order_.size());
    for (size_t pos = 0; pos < order_.size(); ++pos) position_[order_[pos]] = pos;
    first_hold_.assign(trace.pods.size(), 0);
    hold_count_.assign(trace.pods.size(), 0);
  }

  // Tries to place `pod`; on success records its holds and advances the
  // pointer past the node that took it.
  bool Place(size_t pod_index) {
    const OpenbPod& pod = trace_.pods[pod_index];
    const bool whole = ClassifyGpuRequest(pod) == GpuRequest::kWhole;
    for (size_t step = 0; step < states_.size(); ++step) {
      const size_t pos = (next_ + step) % states_.size();
      NodeState& state = states_[pos];
      if (whole ? state.whole_free < pod.num_gpu : state.max_free < pod.gpu_milli) continue;

      first_hold_[pod_index] = placement_.holds.size();
      int32_t wanted = whole ? pod.num_gpu : 1;
      for (size_t gpu = 0; gpu < state.free.size() && wanted > 0; ++gpu) {
        const bool fits = whole ? state.free[gpu] == kMilliPerGpu : state.free[gpu] >= pod.gpu_milli;
        if (!fits) continue;
        state.free[gpu] -= pod.gpu_milli;
        placement_.holds.push_back(GpuHold{pod_index, order_[pos], static_cast<int32_t>(gpu), pod.gpu_milli,
                                           *pod.scheduled_s, pod.deletion_s});
        --wanted;
      }
      hold_count_[pod_index] = placement_.holds.size() - first_hold_[pod_index];
      state.Refresh();
      next_ = (pos + 1) % states_.size();
      return true;
    }
    return false;
  }

  // Gives back exactly the holds `pod` took; they are contiguous because a
  // placement appends all of them at once, and all on one node.
  void Release(size_t pod_index) {
    const size_t first = first_hold_[pod_index];
    const size_t end = first + hold_count_[pod_index];
    if (first == end) return;
    NodeState& state = states_[position_[placement_.holds[first].node]];
    for (size_t h = first; h < end; ++h) {
      const GpuHold& hold = placement_.holds[h];
      state.free[static_cast<size_t>(hold.gpu)] += hold.milli;
    }
    state.Refresh();
  }

 private:
  const OpenbTrace& trace_;
  Placement& placement_;
  std::vector<size_t> order_;       // trace node index by search position
  std::vector<size_t> position_;    // search position by trace node index
  std::vector<NodeState> states_;   // by search position
  std::vector<size_t> first_hold_;  // by pod: its first entry in holds
  std::vector<size_t> hold_count_;  // by pod: how many entries it has
  size_t next_ = 0;                 // search position to start from
};

// What a pod is before any search: the outcome if it never reaches the
// placer, or nullopt if it is to be placed.
std::optional<PodOutcome> OutcomeWithoutSearch(const OpenbPod& pod) {
  switch (ClassifyGpuRequest(pod)) {
    case GpuRequest::kNone:
      return PodOutcome::kNoGpu;
    case GpuRequest::kInvalid:
      return PodOutcome::kInvalidRequest;
    case GpuRequest::kWhole:
    case GpuRequest::kShare:
      break;
  }
  if (!pod.scheduled_s.has_value()) return PodOutcome::kNeverScheduled;
  if (pod.deletion_s.has_value() && *pod.deletion_s <= *pod.scheduled_s) {
    return PodOutcome::kEmptyInterval;
  }
  return std::nullopt;
}

}  // namespace

bool IsUnplaced(PodOutcome outcome) { return outcome != PodOutcome::kPlaced && outcome != PodOutcome::kNoGpu; }

Placement PlaceNextFit(const OpenbTrace& trace) {
  Placement placement;
  placement.outcomes.resize(trace.pods.size(), PodOutcome::kNoRoom);

  std::vector<Event> events;
  for (size_t p = 0; p < trace.pods.size(); ++p) {
    const OpenbPod& pod = trace.pods[p];
    if (std::optional<PodOutcome> outcome = OutcomeWithoutSearch(pod)) {
      placement.outcomes[p] = *outcome;
      continue;
    }
    events.push_back(Event{*pod.scheduled_s, false, p});
    if (pod.deletion_s.has_value()) events.push_back(Event{*pod.deletion_s, true, p});
  }
  // Pod index last only to make the order total; the reader rejects
  // repeated names, so it matters only for hand-built traces.
  std::sort(events.begin(), events.end(), [&](const Event& a, const Event& b) {
    const std::string& a_name = trace.pods[a.pod].name;
    const std::string& b_name = trace.pods[b.pod].name;
    return std::tie(a.time_s, b.release, a_name, a.pod) < std::tie(b.time_s, a.release, b_name, b.pod);
  });

  NextFit next_fit(trace, placement);
  for (const Event& event : events) {
    if (event.release) {
      // A release always follows its placement in time, so the outcome is final.
      if (placement.outcomes[event.pod] == PodOutcome::kPlaced) next_fit.Release(event.pod);
    } else if (next_fit.Place(event.pod)) {
      placement.outcomes[event.pod] = PodOutcome::kPlaced;
    }
  }

  for (size_t p = 0; p < placement.outcomes.size(); ++p) {
    const PodOutcome outcome = placement.outcomes[p];
    if (outcome == PodOutcome::kPlaced) ++placement.placed_pods;
    if (outcome == PodOutcome::kNoGpu) ++placement.no_gpu_pods;
    if (IsUnplaced(outcome)) placement.unplaced.push_back(p);
  }
  return placement;
}

}  // namespace fleetcap::openb
