#include "services/api/allocation/allocation_grpc_service.h"

#include "common/status_macros.h"

namespace fleetcap::api {

grpc::Status AllocationGrpcService::GetRecommendations(grpc::ServerContext* context,
                                                       const v1::GetRecommendationsRequest* request,
                                                       v1::RecommendationSet* response) {
  return guard_->Run(context, "/fleetcap.v1.AllocationService/GetRecommendations", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, query_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status AllocationGrpcService::WatchRecommendations(grpc::ServerContext* context,
                                                         const v1::WatchRecommendationsRequest* request,
                                                         grpc::ServerWriter<v1::RecommendationSet>* writer) {
  static const std::string kMethod = "/fleetcap.v1.AllocationService/WatchRecommendations";
  return guard_->RunStream(context, kMethod, *request, [&](const Scope& scope) {
    RecommendationWatchers::Stream stream;
    stream.scope = [&] { return guard_->Authorize(context, kMethod); };
    stream.send = [&](const v1::RecommendationSet& set) { return writer->Write(set); };
    stream.cancelled = [&] { return context->IsCancelled(); };
    stream.opened = [&] { writer->SendInitialMetadata(); };
    return watchers_->Watch(scope, request->team(), stream);
  });
}

}  // namespace fleetcap::api
