#include "services/exports/recommendation_set.h"

#include <optional>

#include "google/protobuf/util/json_util.h"
#include "proto_time.h"
#include "services/exports/kueue_manifests.h"

namespace fleetcap::exports {

v1::Recommendation RecommendationMessage(const allocation::Recommendation& recommendation) {
  v1::Recommendation out;
  out.set_team(recommendation.team);
  out.set_flavor(recommendation.flavor);
  out.set_demand_milli(recommendation.demand_milli);
  out.set_guarantee_milli(recommendation.guarantee_milli);
  out.set_recommended_milli(recommendation.recommended_milli);
  if (recommendation.borrowing_limit_milli) out.set_borrowing_limit_milli(*recommendation.borrowing_limit_milli);
  out.set_lending_limit_milli(recommendation.lending_limit_milli);
  out.set_bound_by(recommendation.bound_by);
  out.set_explanation(recommendation.explanation);
  if (recommendation.measured_demand_milli) out.set_measured_demand_milli(*recommendation.measured_demand_milli);
  SetKueueLimits(out);
  return out;
}

void SetKueueLimits(v1::Recommendation& message) {
  const KueueLimits limits = KueueLimitsOf(RecommendationOf(message));
  if (limits.borrowing_limit) {
    message.set_kueue_borrowing_limit(*limits.borrowing_limit);
  } else {
    message.clear_kueue_borrowing_limit();
  }
  if (limits.lending_limit) {
    message.set_kueue_lending_limit(*limits.lending_limit);
  } else {
    message.clear_kueue_lending_limit();
  }
}

allocation::Recommendation RecommendationOf(const v1::Recommendation& message) {
  std::optional<int64_t> borrowing;
  if (message.has_borrowing_limit_milli()) borrowing = message.borrowing_limit_milli();
  std::optional<int64_t> measured;
  if (message.has_measured_demand_milli()) measured = message.measured_demand_milli();
  return {message.team(),
          message.flavor(),
          message.demand_milli(),
          message.guarantee_milli(),
          message.recommended_milli(),
          borrowing,
          message.lending_limit_milli(),
          message.bound_by(),
          message.explanation(),
          measured};
}

v1::RecommendationSet RecommendationSetMessage(const RecommendationSetHeader& header,
                                               const std::vector<allocation::Recommendation>& recommendations) {
  v1::RecommendationSet set;
  set.set_run_id(header.run_id);
  *set.mutable_computed_at() = ToProtoTimestamp(header.computed_at);
  set.set_policy_version(header.policy_version);
  set.set_previous_run_id(header.previous_run_id);
  for (const allocation::Recommendation& r : recommendations) *set.add_recommendations() = RecommendationMessage(r);
  return set;
}

std::string RecommendationSetJson(const v1::RecommendationSet& set) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(set, &json, options);
  return json;  // with whitespace, protobuf ends it with a newline
}

std::string RecommendationSetJson(const RecommendationSetHeader& header,
                                  const std::vector<allocation::Recommendation>& recommendations) {
  return RecommendationSetJson(RecommendationSetMessage(header, recommendations));
}

}  // namespace fleetcap::exports
