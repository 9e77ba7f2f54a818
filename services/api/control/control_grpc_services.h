#pragma once
// gRPC PolicyService, TokenService and AuditService: thin adapters. Each
// method runs through GrpcGuard (authentication + the access table) and then
// the transport-independent operations.

#include "fleetcap/v1/audit.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "services/api/control/policy_operations.h"
#include "services/api/control/token_operations.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class PolicyGrpcService final : public v1::PolicyService::Service {
 public:
  PolicyGrpcService(const GrpcGuard* guard, const PolicyOperations* ops) : guard_(guard), ops_(ops) {}
  grpc::Status GetPolicy(grpc::ServerContext* c, const v1::GetPolicyRequest* q, v1::PolicyVersion* r) override;
  grpc::Status ListPolicyVersions(grpc::ServerContext* c, const v1::ListPolicyVersionsRequest* q,
                                  v1::ListPolicyVersionsResponse* r) override;
  grpc::Status ApplyPolicy(grpc::ServerContext* c, const v1::ApplyPolicyRequest* q,
                           v1::ApplyPolicyResponse* r) override;
  grpc::Status RollbackPolicy(grpc::ServerContext* c, const v1::RollbackPolicyRequest* q,
                              v1::ApplyPolicyResponse* r) override;
  grpc::Status GetTeam(grpc::ServerContext* c, const v1::GetTeamRequest* q, v1::PolicyTeam* r) override;

 private:
  const GrpcGuard* guard_;
  const PolicyOperations* ops_;
};

class TokenGrpcService final : public v1::TokenService::Service {
 public:
  TokenGrpcService(const GrpcGuard* guard, const TokenOperations* ops) : guard_(guard), ops_(ops) {}
  grpc::Status CreateToken(grpc::ServerContext* c, const v1::CreateTokenRequest* q,
                           v1::CreateTokenResponse* r) override;
  grpc::Status ListTokens(grpc::ServerContext* c, const v1::ListTokensRequest* q, v1::ListTokensResponse* r) override;
  grpc::Status RevokeToken(grpc::ServerContext* c, const v1::RevokeTokenRequest* q, v1::TokenInfo* r) override;
  grpc::Status WhoAmI(grpc::ServerContext* c, const v1::WhoAmIRequest* q, v1::WhoAmIResponse* r) override;

 private:
  const GrpcGuard* guard_;
  const TokenOperations* ops_;
};

class AuditGrpcService final : public v1::AuditService::Service {
 public:
  AuditGrpcService(const GrpcGuard* guard, const AuditOperations* ops) : guard_(guard), ops_(ops) {}
  grpc::Status ListAuditEvents(grpc::ServerContext* c, const v1::ListAuditEventsRequest* q,
                               v1::ListAuditEventsResponse* r) override;

 private:
  const GrpcGuard* guard_;
  const AuditOperations* ops_;
};

}  // namespace fleetcap::api
