#pragma once
// The gRPC side of authentication and authorisation: every method of every
// fleetcap service runs its body through Run(), which reads the bearer token
// from the call's metadata, checks the method against the access table, and
// checks every text field of the request (edge_text.h), and only then calls
// the body with the caller's Scope. It also records the
// request metric, so a denied call is counted like any other.

#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/clock.h"
#include "google/protobuf/message.h"
#include "grpcpp/server_context.h"
#include "services/api/api_metrics.h"
#include "services/api/auth.h"
#include "services/api/request_admission.h"

namespace fleetcap::api {

// What a method's body does with its answer: moves `result`'s value into
// `*response`, or returns its error.
template <typename Result>
absl::Status Into(absl::StatusOr<Result> result, Result* response) {
  if (!result.ok()) return result.status();
  *response = *std::move(result);
  return absl::OkStatus();
}

class GrpcGuard {
 public:
  // `admission` (not owned; nullptr: no bound) bounds the calls running at once.
  GrpcGuard(const Authenticator* auth, ApiMetrics* metrics, const Clock* clock, RequestAdmission* admission = nullptr)
      : auth_(auth), metrics_(metrics), clock_(clock), admission_(admission) {}

  // `method` is the full name, "/fleetcap.v1.PolicyService/GetPolicy". Every
  // string field of `request` passes the edge's checks (edge_text.h) before
  // `body` runs, so the body only ever sees clean text.
  // The call holds a place in the admission bound while `body` runs
  // (RESOURCE_EXHAUSTED with a retry pushback when there is none).
  grpc::Status Run(grpc::ServerContext* context, const std::string& method, const google::protobuf::Message& request,
                   const std::function<absl::Status(const Scope&)>& body) const;
  // The same for a stream, which runs as long as its client keeps it and so
  // holds no place in the admission bound: streams have bounds of their own
  // (recommendation_watchers.h).
  grpc::Status RunStream(grpc::ServerContext* context, const std::string& method,
                         const google::protobuf::Message& request,
                         const std::function<absl::Status(const Scope&)>& body) const;

  // The caller's scope, authenticated and authorised for `method` as Run
  // does it: for a stream, which checks again before each message it sends.
  absl::StatusOr<Scope> Authorize(grpc::ServerContext* context, const std::string& method) const;

 private:
  grpc::Status Guard(grpc::ServerContext* context, const std::string& method, const google::protobuf::Message& request,
                     bool admit, const std::function<absl::Status(const Scope&)>& body) const;

  const Authenticator* auth_;
  ApiMetrics* metrics_;
  const Clock* clock_;  // times each call for the metric
  RequestAdmission* admission_;
};

}  // namespace fleetcap::api
