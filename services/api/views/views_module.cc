#include "services/api/views/views_module.h"

#include "fleetcap/v1/views.grpc.pb.h"
#include "services/api/query_message.h"
#include "services/api/views/view_operations.h"
#include "store/pg_view_repository.h"

namespace fleetcap::api {
namespace {

// A saved view's request is three short strings.
constexpr size_t kMaxViewRequestBytes = 8 * 1024;

// gRPC ViewService: a thin adapter over ViewOperations, behind GrpcGuard.
class ViewGrpcService final : public v1::ViewService::Service {
 public:
  ViewGrpcService(const ViewOperations* ops, const GrpcGuard* guard) : ops_(ops), guard_(guard) {}

  grpc::Status SaveView(grpc::ServerContext* c, const v1::SaveViewRequest* q, v1::SavedView* r) override {
    return guard_->Run(c, "/fleetcap.v1.ViewService/SaveView", *q,
                       [&](const Scope& s) { return Into(ops_->Save(s, *q), r); });
  }
  grpc::Status ListViews(grpc::ServerContext* c, const v1::ListViewsRequest* q, v1::ViewList* r) override {
    return guard_->Run(c, "/fleetcap.v1.ViewService/ListViews", *q,
                       [&](const Scope& s) { return Into(ops_->List(s, *q), r); });
  }
  grpc::Status RemoveView(grpc::ServerContext* c, const v1::RemoveViewRequest* q, v1::RemoveViewResponse* r) override {
    return guard_->Run(c, "/fleetcap.v1.ViewService/RemoveView", *q,
                       [&](const Scope& s) { return Into(ops_->Remove(s, *q), r); });
  }

 private:
  const ViewOperations* ops_;
  const GrpcGuard* guard_;
};

void AddViewRoutes(HttpGateway& http, const ViewOperations* ops) {
  http.AddRoute("POST", "/v1/views", [ops](const Scope& scope, const HttpQuery& q, const std::string& body) {
    auto request = RequestFromBody<v1::SaveViewRequest>(q, body, kMaxViewRequestBytes);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(ops->Save(scope, *request));
  });
  http.AddRoute("GET", "/v1/views", [ops](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::ListViewsRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(ops->List(scope, *request));
  });
  http.AddRoute("POST", "/v1/views/remove", [ops](const Scope& scope, const HttpQuery& q, const std::string& body) {
    auto request = RequestFromBody<v1::RemoveViewRequest>(q, body, kMaxViewRequestBytes);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(ops->Remove(scope, *request));
  });
}

class ViewsModule final : public ApiModule {
 public:
  explicit ViewsModule(const ApiDependencies& deps)
      : views_(deps.pool), ops_(&views_, deps.clock), service_(&ops_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddViewRoutes(http, &ops_);
  }

 private:
  store::PgViewRepository views_;
  ViewOperations ops_;
  ViewGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterViews(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<ViewsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api
