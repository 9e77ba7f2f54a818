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

absl::Status CheckAssetWindow(absl::Time start, absl::Time end) {
  if (end < start) return absl::InvalidArgumentError("assets: the window ends before it starts");
  return absl::OkStatus();
}

int64_t HeldMilliSeconds(int64_t milli, absl::Time from, absl::Time to) {
  return milli * (absl::ToUnixMillis(to) - absl::ToUnixMillis(from)) / 1000;
}

}  // namespace fleetcap::store
