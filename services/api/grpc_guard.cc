#include "services/api/grpc_guard.h"

#include "services/api/access_table.h"
#include "services/api/edge_text.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

grpc::Status GrpcGuard::Run(grpc::ServerContext* context, const std::string& method,
                            const google::protobuf::Message& request,
                            const std::function<absl::Status(const Scope&)>& body) const {
  return Guard(context, method, request, true, body);
}

grpc::Status GrpcGuard::RunStream(grpc::ServerContext* context, const std::string& method,
                                  const google::protobuf::Message& request,
                                  const std::function<absl::Status(const Scope&)>& body) const {
  return Guard(context, method, request, false, body);
}

grpc::Status GrpcGuard::Guard(grpc::ServerContext* context, const std::string& method,
                              const google::protobuf::Message& request, bool admit,
                              const std::function<absl::Status(const Scope&)>& body) const {
  const absl::Duration start = clock_->Monotonic();
  // Authentication first, so a caller without a token learns nothing, not even which fields are checked.
  auto scope = Authorize(context, method);
  absl::Status status = scope.status();
  if (status.ok()) status = CheckEdgeMessage(request);
  RequestAdmission::Ticket ticket;
  if (status.ok() && admit && admission_ != nullptr) {
    auto admitted = admission_->Admit(scope->token_id);
    if (admitted.ok()) {
      ticket = *std::move(admitted);
    } else {
      status = admitted.status();
    }
  }
  if (status.ok()) status = body(*scope);
  if (const auto wait = RetryAfter(status)) {
    // gRPC's retry policy reads this trailer as how long to wait before the next attempt.
    context->AddTrailingMetadata("grpc-retry-pushback-ms", std::to_string(absl::ToInt64Milliseconds(*wait)));
  }
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
