#include "services/api/control/control_grpc_services.h"

namespace fleetcap::api {
grpc::Status PolicyGrpcService::GetPolicy(grpc::ServerContext* c, const v1::GetPolicyRequest* q, v1::PolicyVersion* r) {
  return guard_->Run(c, "/fleetcap.v1.PolicyService/GetPolicy", *q,
                     [&](const Scope& s) { return Into(ops_->Get(s, *q), r); });
}

grpc::Status PolicyGrpcService::ListPolicyVersions(grpc::ServerContext* c, const v1::ListPolicyVersionsRequest* q,
                                                   v1::ListPolicyVersionsResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.PolicyService/ListPolicyVersions", *q,
                     [&](const Scope& s) { return Into(ops_->History(s), r); });
}

grpc::Status PolicyGrpcService::ApplyPolicy(grpc::ServerContext* c, const v1::ApplyPolicyRequest* q,
                                            v1::ApplyPolicyResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.PolicyService/ApplyPolicy", *q,
                     [&](const Scope& s) { return Into(ops_->Apply(s, *q), r); });
}

grpc::Status PolicyGrpcService::RollbackPolicy(grpc::ServerContext* c, const v1::RollbackPolicyRequest* q,
                                               v1::ApplyPolicyResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.PolicyService/RollbackPolicy", *q,
                     [&](const Scope& s) { return Into(ops_->Rollback(s, *q), r); });
}

grpc::Status PolicyGrpcService::GetTeam(grpc::ServerContext* c, const v1::GetTeamRequest* q, v1::PolicyTeam* r) {
  return guard_->Run(c, "/fleetcap.v1.PolicyService/GetTeam", *q,
                     [&](const Scope& s) { return Into(ops_->GetTeam(s, *q), r); });
}

grpc::Status TokenGrpcService::CreateToken(grpc::ServerContext* c, const v1::CreateTokenRequest* q,
                                           v1::CreateTokenResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.TokenService/CreateToken", *q,
                     [&](const Scope& s) { return Into(ops_->Create(s, *q), r); });
}

grpc::Status TokenGrpcService::ListTokens(grpc::ServerContext* c, const v1::ListTokensRequest* q,
                                          v1::ListTokensResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.TokenService/ListTokens", *q,
                     [&](const Scope& s) { return Into(ops_->List(s), r); });
}

grpc::Status TokenGrpcService::RevokeToken(grpc::ServerContext* c, const v1::RevokeTokenRequest* q, v1::TokenInfo* r) {
  return guard_->Run(c, "/fleetcap.v1.TokenService/RevokeToken", *q,
                     [&](const Scope& s) { return Into(ops_->Revoke(s, *q), r); });
}

grpc::Status TokenGrpcService::WhoAmI(grpc::ServerContext* c, const v1::WhoAmIRequest* q, v1::WhoAmIResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.TokenService/WhoAmI", *q, [&](const Scope& s) {
    *r = TokenOperations::WhoAmI(s);
    return absl::OkStatus();
  });
}

grpc::Status AuditGrpcService::ListAuditEvents(grpc::ServerContext* c, const v1::ListAuditEventsRequest* q,
                                               v1::ListAuditEventsResponse* r) {
  return guard_->Run(c, "/fleetcap.v1.AuditService/ListAuditEvents", *q,
                     [&](const Scope& s) { return Into(ops_->List(s, *q), r); });
}

}  // namespace fleetcap::api
