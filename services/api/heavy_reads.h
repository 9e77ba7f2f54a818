#pragma once
// Which reads are heavy, and how many of them run at once.
//
// A read the store expects to go through more than `rows` stored rows
// (months of hourly chargeback lines, say: seconds of the database's CPU and
// tens of MB of answer) must take one of a few places before it runs, in all
// and for any one token; without one it is refused at once with UNAVAILABLE
// and when to try again (HTTP 503 with Retry-After; gRPC with a retry
// pushback), never queued. Light reads take no place: however many heavy
// ones are asked for, the handler threads, the database's CPU and the
// memory they leave are the light reads' (docs/security.md, "Heavy reads").

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/api/request_admission.h"

namespace fleetcap::api {

struct HeavyReadLimits {
  // Past this many stored rows a read is heavy: on the machine of
  // docs/benchmarks.md about a tenth of a second of PostgreSQL's time.
  int64_t rows = 100'000;
  // Heavy reads running at once, in all and for any one token.
  int total = 2;
  int per_token = 1;
  absl::Duration retry_after = absl::Seconds(2);
};

class HeavyReads {
 public:
  explicit HeavyReads(HeavyReadLimits limits = {})
      : limits_(limits), places_({limits.per_token, limits.total, limits.retry_after}) {}
  HeavyReads(const HeavyReads&) = delete;
  HeavyReads& operator=(const HeavyReads&) = delete;

  // What a read holds while it runs: for a heavy one, its place, given back
  // with the memory the read freed (common/memory_return.h) when the Place
  // is destroyed; nothing for a light one.
  class Place {
   public:
    Place() = default;
    Place(Place&& other) noexcept : ticket_(std::move(other.ticket_)), heavy_(std::exchange(other.heavy_, false)) {}
    Place& operator=(Place&& other) = delete;
    ~Place();

   private:
    friend class HeavyReads;
    explicit Place(RequestAdmission::Ticket ticket) : ticket_(std::move(ticket)), heavy_(true) {}
    RequestAdmission::Ticket ticket_;
    bool heavy_ = false;
  };

  // The place of a read of `token_id` expected to go through `rows` stored
  // rows; UNAVAILABLE with a retry time when it is heavy and none is free.
  absl::StatusOr<Place> Admit(const std::string& token_id, int64_t rows);

  const HeavyReadLimits& limits() const { return limits_; }

 private:
  const HeavyReadLimits limits_;
  RequestAdmission places_;
};

}  // namespace fleetcap::api
