#pragma once
// The gRPC side of authentication and authorisation: every method of every
// fleetcap service runs its body through Run(), which reads the bearer token
// from the call's metadata, checks the method against the access table, and
// only then calls the body with the caller's Scope. It also records the
// request metric, so a denied call is counted like any other.

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/clock.h"
#include "grpcpp/server_context.h"
#include "services/api/api_metrics.h"
#include "services/api/auth.h"

namespace fleetcap::api {

class GrpcGuard {
 public:
  GrpcGuard(const Authenticator* auth, ApiMetrics* metrics, const Clock* clock)
      : auth_(auth), metrics_(metrics), clock_(clock) {}

  // `method` is the full name, "/fleetcap.v1.PolicyService/GetPolicy".
  grpc::Status Run(grpc::ServerContext* context, const std::string& method,
                   const std::function<absl::Status(const Scope&)>& body) const;

  // The caller's scope, authenticated and authorised for `method` as Run
  // does it: for a stream, which checks again before each message it sends.
  absl::StatusOr<Scope> Authorize(grpc::ServerContext* context, const std::string& method) const;

 private:
  const Authenticator* auth_;
  ApiMetrics* metrics_;
  const Clock* clock_;  // times each call for the metric
};

}  // namespace fleetcap::api
