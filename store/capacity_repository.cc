#include "store/capacity_repository.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

absl::Status CheckCapacityFilter(const CapacityFilter& filter) {
  if (filter.width <= absl::ZeroDuration())
    return absl::InvalidArgumentError("capacity: bucket width must be positive");
  if (filter.end < filter.start) return absl::InvalidArgumentError("capacity: the window ends before it starts");
  if ((filter.end - filter.start) % filter.width != absl::ZeroDuration()) {
    return absl::InvalidArgumentError("capacity: the window is not a whole number of buckets");
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::store
