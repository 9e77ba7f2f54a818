#include "services/api/grpc_guard.h"

#include "services/api/access_table.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

grpc::Status GrpcGuard::Run(grpc::ServerContext* context, const std::string& method,
                            const std::function<absl::Status(const Scope&)>& body) const {
  const absl::Duration start = clock_->Monotonic();
  auto scope = Authorize(context, method);
  const absl::Status status = scope.ok() ? body(*scope) : scope.status();
  metrics_->Observe("grpc", method.substr(method.rfind('/') + 1), absl::StatusCodeToString(status.code()),
                    absl::ToDoubleSeconds(clock_->Monotonic() - start));
  return ToGrpcStatus(status);
}

absl::StatusOr<Scope> GrpcGuard::Authorize(grpc::ServerContext* context, const std::string& method) const {
  const auto& metadata = context->client_metadata();
  auto header = metadata.find("authorization");
  const std::string authorization =
      header == metadata.end() ? "" : std::string(header->second.data(), header->second.size());
  auto scope = auth_->Authenticate(authorization);
  if (!scope.ok()) return scope.status();
  absl::Status allowed = Authenticator::Authorize(*scope, AccessFor(method), method.substr(method.rfind('/') + 1));
  if (!allowed.ok()) return allowed;
  return scope;
}

}  // namespace fleetcap::api
