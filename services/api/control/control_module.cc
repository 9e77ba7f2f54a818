#include "services/api/control/control_module.h"

#include "services/api/control/control_grpc_services.h"
#include "services/api/control/control_http_routes.h"
#include "services/api/control/policy_operations.h"
#include "services/api/control/token_operations.h"

namespace fleetcap::api {
namespace {

class ControlModule final : public ApiModule {
 public:
  explicit ControlModule(const ApiDependencies& deps)
      : audit_(deps.pool),
        policy_ops_(deps.policies, deps.clock),
        token_ops_(deps.tokens, deps.clock),
        audit_ops_(&audit_),
        policy_service_(deps.guard, &policy_ops_),
        token_service_(deps.guard, &token_ops_),
        audit_service_(deps.guard, &audit_ops_) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&policy_service_);
    grpc.RegisterService(&token_service_);
    grpc.RegisterService(&audit_service_);
    AddControlRoutes(http, &policy_ops_, &token_ops_, &audit_ops_);
  }

 private:
  store::PgAuditRepository audit_;
  PolicyOperations policy_ops_;
  TokenOperations token_ops_;
  AuditOperations audit_ops_;
  PolicyGrpcService policy_service_;
  TokenGrpcService token_service_;
  AuditGrpcService audit_service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterControl(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<ControlModule>(deps, grpc, http);
}

}  // namespace fleetcap::api
