#include "services/api/usage/usage_query.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/api/query_message.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

constexpr int64_t kMaxBuckets = 50'000;

absl::Duration BucketWidth(v1::Resolution r) {
  switch (r) {
    case v1::MINUTE:
      return absl::Minutes(1);
    case v1::DAY:
      return absl::Hours(24);
    default:
      return absl::Hours(1);
  }
}

store::BucketWidth WidthOf(v1::Resolution r) {
  switch (r) {
    case v1::MINUTE:
      return store::BucketWidth::kMinute;
    case v1::DAY:
      return store::BucketWidth::kDay;
    default:
      return store::BucketWidth::kHour;
  }
}

const char* TruncUnit(v1::Resolution r) {
  switch (r) {
    case v1::MINUTE:
      return "minute";
    case v1::DAY:
      return "day";
    default:
      return "hour";
  }
}

}  // namespace

absl::Status UsageQuery::Authorize(const Scope& scope, const v1::GetUsageRequest& request) const {
  if (scope.role != Role::kTeam) return absl::OkStatus();
  if (request.namespace_().empty()) {
    return absl::PermissionDeniedError("namespace: a team token reads usage by namespace; give one of its own");
  }
  if (!request.has_start() || !request.has_end()) return absl::InvalidArgumentError("start, end: both are required");
  const absl::Time start = FromProtoTimestamp(request.start()), end = FromProtoTimestamp(request.end());
  if (end <= start) return absl::InvalidArgumentError("end: must be after start");
  FLEETCAP_ASSIGN_OR_RETURN(const auto teams, teams_->TeamsOfNamespace(request.cluster(), request.namespace_(), start,
                                                                       end, PolicyVersionOf(scope)));
  for (const auto& team : teams) {
    if (!scope.Covers(team)) return OutOfScope("namespace");
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::GetUsageRequest> UsageRequestFromQuery(const HttpQuery& query) {
  v1::GetUsageRequest request;
  QueryMapping mapping;
  mapping.required = {"start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  if (request.resolution() == v1::RESOLUTION_UNSPECIFIED) request.set_resolution(v1::HOUR);
  return request;
}

absl::StatusOr<v1::UsageReport> UsageQuery::Run(const v1::GetUsageRequest& request) const {
  if (request.cluster().empty()) return absl::InvalidArgumentError("cluster: empty; usage is kept per cluster");
  if (!request.has_start() || !request.has_end()) return absl::InvalidArgumentError("start, end: both are required");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", request.start()));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", request.end()));
  const absl::Time start = FromProtoTimestamp(request.start()), end = FromProtoTimestamp(request.end());
  if (end <= start) return absl::InvalidArgumentError("end: must be after start");
  const v1::Resolution resolution =
      request.resolution() == v1::RESOLUTION_UNSPECIFIED ? v1::HOUR : request.resolution();
  if (!v1::Resolution_IsValid(resolution)) return absl::InvalidArgumentError("resolution: unknown value");
  if ((end - start) / BucketWidth(resolution) > kMaxBuckets) {
    return absl::InvalidArgumentError(
        absl::StrCat("start, end: more than ", kMaxBuckets, " ", TruncUnit(resolution), " buckets; narrow the window"));
  }
  int selectors = 0;
  for (const std::string* s : {&request.device(), &request.node(), &request.model(), &request.pod()}) {
    selectors += s->empty() ? 0 : 1;
  }
  if (selectors > 1) return absl::InvalidArgumentError("device, node, model, pod: give at most one");
  const bool pods = !request.pod().empty() || !request.namespace_().empty();
  if (pods && (!request.device().empty() || !request.node().empty() || !request.model().empty())) {
    return absl::InvalidArgumentError("pod/namespace select pods' shares; device, node and model whole devices");
  }

  store::UsageFilter filter;
  filter.cluster = request.cluster();
  filter.start = start;
  filter.end = end;
  filter.pods = pods;
  filter.device = request.device();
  filter.node = request.node();
  filter.model = request.model();
  filter.pod = request.pod();
  filter.namespace_ = request.namespace_();
  FLEETCAP_ASSIGN_OR_RETURN(const auto buckets, usage_->Buckets(filter, WidthOf(resolution)));
  v1::UsageReport report;
  report.set_cluster(request.cluster());
  *report.mutable_start() = request.start();
  *report.mutable_end() = request.end();
  report.set_resolution(resolution);
  for (const store::UsageBucket& bucket : buckets) {
    auto* b = report.add_buckets();
    *b->mutable_start() = ToProtoTimestamp(bucket.start);
    if (bucket.util_mean) b->set_util_mean(*bucket.util_mean);
    if (bucket.util_max) b->set_util_max(*bucket.util_max);
    if (bucket.memory_used_bytes)
      b->set_memory_used_bytes(static_cast<int64_t>(std::llround(*bucket.memory_used_bytes)));
    if (bucket.power_watts) b->set_power_watts(*bucket.power_watts);
    if (bucket.samples) b->set_samples(*bucket.samples);
    b->set_series(bucket.series);
  }
  return report;
}

}  // namespace fleetcap::api
