#pragma once
// How many requests the API runs at once: in all, and for any one token.
// Past either bound a request is refused at once with RESOURCE_EXHAUSTED
// (HTTP 429 with Retry-After; gRPC with a retry pushback), never queued: a
// queued request would still hold its connection and, once it ran, as much
// memory as any other, so a burst from one client would become everyone's
// wait. Each admitted request holds a Ticket until its answer is written.
//
// The per-token bound is what keeps one client (32 heavy chargebacks at
// once) from taking every worker and the memory their answers need; the
// total bounds the memory of the whole API (docs/security.md, "Limits").

#include <map>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::api {

struct AdmissionLimits {
  // A dashboard page asks up to about six things at once with one token.
  int per_token = 8;
  int total = 24;
  // What a refused client is told to wait before trying again.
  absl::Duration retry_after = absl::Seconds(1);
};

class RequestAdmission {
 public:
  explicit RequestAdmission(AdmissionLimits limits = {}) : limits_(limits) {}
  RequestAdmission(const RequestAdmission&) = delete;
  RequestAdmission& operator=(const RequestAdmission&) = delete;

  // One admitted request; releases its place when destroyed.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept : owner_(other.owner_), token_id_(std::move(other.token_id_)) {
      other.owner_ = nullptr;
    }
    Ticket& operator=(Ticket&& other) noexcept;
    ~Ticket();

   private:
    friend class RequestAdmission;
    Ticket(RequestAdmission* owner, std::string token_id) : owner_(owner), token_id_(std::move(token_id)) {}
    RequestAdmission* owner_ = nullptr;
    std::string token_id_;
  };

  // A place for a request of `token_id`, or RESOURCE_EXHAUSTED saying which bound was reached.
  absl::StatusOr<Ticket> Admit(const std::string& token_id);

  const AdmissionLimits& limits() const { return limits_; }

 private:
  void Release(const std::string& token_id);

  const AdmissionLimits limits_;
  std::mutex mu_;
  int running_ = 0;                       // guarded by mu_
  std::map<std::string, int> per_token_;  // guarded by mu_; only tokens with a request running
};

}  // namespace fleetcap::api
