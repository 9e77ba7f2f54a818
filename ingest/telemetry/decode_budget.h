#pragma once
// A global budget for the bytes remote_write bodies decompress to while they
// are being decoded. Each request's claim is small next to what one hostile
// client can make many workers allocate at once (a few bytes of snappy
// header can claim hundreds of MiB), so the receiver takes a lease for the
// claimed size before allocating and gives it back when the decoded bytes
// are freed: whatever the number of workers, decompression holds at most
// `total` bytes.

#include <cstddef>
#include <mutex>

#include "absl/status/statusor.h"

namespace fleetcap::telemetry {

class DecodeBudget {
 public:
  // Gives its bytes back to the budget when destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();

   private:
    friend class DecodeBudget;
    Lease(DecodeBudget* budget, size_t bytes) : budget_(budget), bytes_(bytes) {}
    DecodeBudget* budget_;
    size_t bytes_;
  };

  explicit DecodeBudget(size_t total) : total_(total) {}

  // A lease of `bytes`; UNAVAILABLE while other leases hold too much of the
  // budget (worth retrying), RESOURCE_EXHAUSTED when `bytes` is more than the
  // whole budget (never worth retrying). It does not wait: a worker thread
  // is better given back than held by a client that sends more than fits.
  absl::StatusOr<Lease> Take(size_t bytes);

  size_t total() const { return total_; }
  size_t in_use() const;

 private:
  void Give(size_t bytes);

  const size_t total_;
  mutable std::mutex mu_;
  size_t in_use_ = 0;
};

}  // namespace fleetcap::telemetry
