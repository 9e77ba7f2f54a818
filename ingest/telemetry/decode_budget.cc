#include "ingest/telemetry/decode_budget.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::telemetry {

DecodeBudget::Lease::~Lease() {
  if (budget_ != nullptr) budget_->Give(bytes_);
}

absl::StatusOr<DecodeBudget::Lease> DecodeBudget::Take(size_t bytes) {
  if (bytes > total_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("decompresses to ", bytes, " bytes, more than the whole decompression budget of ", total_));
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes > total_ - in_use_) {
    return absl::UnavailableError(
        absl::StrCat("the decompression budget of ", total_, " bytes is taken by requests in flight; retry later"));
  }
  in_use_ += bytes;
  return Lease(this, bytes);
}

size_t DecodeBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

void DecodeBudget::Give(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  in_use_ -= bytes;
}

}  // namespace fleetcap::telemetry
