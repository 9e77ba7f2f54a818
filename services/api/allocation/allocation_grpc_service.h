#pragma once
// gRPC AllocationService: a thin adapter over RecommendationsQuery and
// RecommendationWatchers.

#include "fleetcap/v1/allocation.grpc.pb.h"
#include "services/api/allocation/recommendation_watchers.h"
#include "services/api/allocation/recommendations_query.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class AllocationGrpcService final : public v1::AllocationService::Service {
 public:
  // All must outlive the service.
  AllocationGrpcService(const RecommendationsQuery* query, RecommendationWatchers* watchers, const GrpcGuard* guard)
      : query_(query), watchers_(watchers), guard_(guard) {}

  grpc::Status GetRecommendations(grpc::ServerContext* context, const v1::GetRecommendationsRequest* request,
                                  v1::RecommendationSet* response) override;
  grpc::Status WatchRecommendations(grpc::ServerContext* context, const v1::WatchRecommendationsRequest* request,
                                    grpc::ServerWriter<v1::RecommendationSet>* writer) override;

 private:
  const RecommendationsQuery* query_;
  RecommendationWatchers* watchers_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api
