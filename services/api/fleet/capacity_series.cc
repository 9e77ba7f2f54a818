#include "services/api/fleet/capacity_series.h"

#include <algorithm>
#include <future>
#include <map>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/query_message.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

struct Grouping {
  bool model = false, cluster = false, team = false;
};

// A checked request in the stores' terms.
struct CheckedSeriesRequest {
  absl::Time start, end;
  v1::Resolution resolution = v1::HOUR;
  absl::Duration width;
  Grouping group_by;
  v1::CapacitySeriesLayout layout = v1::BUCKETS;
};

absl::Status CheckWindow(const v1::GetCapacitySeriesRequest& request, CheckedSeriesRequest* checked) {
  if (!request.has_start()) return absl::InvalidArgumentError("start: missing; give the window's first bucket");
  if (!request.has_end()) return absl::InvalidArgumentError("end: missing; give the end of the window's last bucket");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", request.start()));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", request.end()));
  checked->start = FromProtoTimestamp(request.start());
  checked->end = FromProtoTimestamp(request.end());
  if (checked->end <= checked->start) {
    return absl::InvalidArgumentError(
        absl::StrCat("end: ", FormatRfc3339(checked->end), " is not after start ", FormatRfc3339(checked->start)));
  }
  if (checked->end - checked->start > kMaxChargebackWindow) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(checked->end), " is more than ",
                                                   kMaxChargebackWindow / absl::Hours(24),
                                                   " days after start; ask for several windows"));
  }
  return absl::OkStatus();
}

absl::Status CheckResolution(const v1::GetCapacitySeriesRequest& request, CheckedSeriesRequest* checked) {
  switch (request.resolution()) {
    case v1::RESOLUTION_UNSPECIFIED:
    case v1::HOUR:
      checked->resolution = v1::HOUR;
      checked->width = absl::Hours(1);
      break;
    case v1::DAY:
      checked->resolution = v1::DAY;
      checked->width = absl::Hours(24);
      break;
    case v1::MINUTE:
      // Held device time is kept per hour (the chargeback's rollups); a
      // per-minute series would have to scan minute rows.
      return absl::InvalidArgumentError(
          "resolution: MINUTE is not served by the capacity series, whose held and used device time comes from "
          "the hourly rollups; ask for HOUR or DAY");
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("resolution: ", static_cast<int>(request.resolution()), " is not MINUTE, HOUR or DAY"));
  }
  const bool days = checked->resolution == v1::DAY;
  for (const auto& [field, t] : {std::pair<const char*, absl::Time>{"start", checked->start}, {"end", checked->end}}) {
    if (days ? !store::IsWholeDay(t) : !store::IsWholeHour(t)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": ", FormatRfc3339(t), " is not a whole ",
                                                     days ? "day" : "hour", " (UTC), as resolution ",
                                                     days ? "DAY" : "HOUR", " needs"));
    }
  }
  const int64_t buckets = (checked->end - checked->start) / checked->width;
  if (buckets > kMaxCapacityBuckets) {
    return absl::InvalidArgumentError(absl::StrCat("resolution: the window has ", buckets, " buckets, more than ",
                                                   kMaxCapacityBuckets, "; use a coarser resolution"));
  }
  return absl::OkStatus();
}

absl::Status CheckGroupBy(const v1::GetCapacitySeriesRequest& request, Grouping* group_by) {
  if (request.group_by_size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("group_by: ", request.group_by_size(), " fields; give at most model, cluster and team"));
  }
  for (const std::string& field : request.group_by()) {
    if (field == "model") {
      group_by->model = true;
    } else if (field == "cluster") {
      group_by->cluster = true;
    } else if (field == "team") {
      group_by->team = true;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("group_by: \"", field.substr(0, 64), "\" is not one of model, cluster, team"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFilter(const char* field, const std::string& value) {
  if (value.size() <= 253) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", value.size(), " bytes, more than a name (253)"));
}

absl::Status CheckLayout(const v1::GetCapacitySeriesRequest& request, CheckedSeriesRequest* checked) {
  switch (request.layout()) {
    case v1::CAPACITY_SERIES_LAYOUT_UNSPECIFIED:
    case v1::BUCKETS:
      checked->layout = v1::BUCKETS;
      return absl::OkStatus();
    case v1::COLUMNAR:
      checked->layout = v1::COLUMNAR;
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("layout: ", static_cast<int>(request.layout()), " is not BUCKETS or COLUMNAR"));
  }
}

absl::StatusOr<CheckedSeriesRequest> Check(const v1::GetCapacitySeriesRequest& request) {
  CheckedSeriesRequest checked;
  FLEETCAP_RETURN_IF_ERROR(CheckWindow(request, &checked));
  FLEETCAP_RETURN_IF_ERROR(CheckResolution(request, &checked));
  FLEETCAP_RETURN_IF_ERROR(CheckGroupBy(request, &checked.group_by));
  FLEETCAP_RETURN_IF_ERROR(CheckLayout(request, &checked));
  FLEETCAP_RETURN_IF_ERROR(CheckFilter("cluster", request.cluster()));
  FLEETCAP_RETURN_IF_ERROR(CheckFilter("model", request.model()));
  FLEETCAP_RETURN_IF_ERROR(CheckFilter("team", request.team()));
  return checked;
}

using GroupKey = std::tuple<std::string, std::string, std::string>;  // model, cluster, team
using Series = std::map<GroupKey, std::map<absl::Time, v1::CapacityBucket>>;

v1::CapacityBucket& BucketOf(Series& series, GroupKey key, absl::Time start) {
  v1::CapacityBucket& bucket = series[std::move(key)][start];
  if (!bucket.has_start()) *bucket.mutable_start() = ToProtoTimestamp(start);
  return bucket;
}

absl::Status Add(int64_t add, int64_t current, const char* field, int64_t* out) {
  if (__builtin_add_overflow(current, add, out)) {
    return absl::OutOfRangeError(absl::StrCat(field, ": the sum does not fit in a signed 64-bit integer"));
  }
  return absl::OkStatus();
}

// The points an answer carries: the buckets with data (BUCKETS), or every
// bucket of the axis for every group (COLUMNAR).
int64_t PointsOf(const Series& series, const CheckedSeriesRequest& checked) {
  if (checked.layout == v1::COLUMNAR) {
    return static_cast<int64_t>(series.size()) * ((checked.end - checked.start) / checked.width);
  }
  int64_t points = 0;
  for (const auto& [key, buckets] : series) points += static_cast<int64_t>(buckets.size());
  return points;
}

// The group's buckets as three arrays on the answer's axis (bucket i starts
// at start + i x width), 0 where the group has no bucket.
void FillColumns(const std::map<absl::Time, v1::CapacityBucket>& buckets, const CheckedSeriesRequest& checked,
                 v1::CapacitySeriesGroup* group) {
  const int64_t count = (checked.end - checked.start) / checked.width;
  for (auto* column : {group->mutable_capacity_milli_seconds(), group->mutable_held_milli_seconds(),
                       group->mutable_used_milli_seconds()}) {
    column->Resize(static_cast<int>(count), 0);
  }
  for (const auto& [start, bucket] : buckets) {
    const int index = static_cast<int>((start - checked.start) / checked.width);
    group->set_capacity_milli_seconds(index, bucket.capacity_milli_seconds());
    group->set_held_milli_seconds(index, bucket.held_milli_seconds());
    group->set_used_milli_seconds(index, bucket.used_milli_seconds());
  }
}

// The answer without its groups: the axis, the layout and the fields grouped by.
v1::CapacitySeries CapacityAnswerHead(const CheckedSeriesRequest& checked) {
  v1::CapacitySeries answer;
  *answer.mutable_start() = ToProtoTimestamp(checked.start);
  *answer.mutable_end() = ToProtoTimestamp(checked.end);
  answer.set_resolution(checked.resolution);
  answer.set_layout(checked.layout);
  answer.set_step_seconds(static_cast<int32_t>(absl::ToInt64Seconds(checked.width)));
  for (const char* key : {"model", "cluster", "team"}) {
    if ((std::string(key) == "model" && checked.group_by.model) ||
        (std::string(key) == "cluster" && checked.group_by.cluster) ||
        (std::string(key) == "team" && checked.group_by.team)) {
      answer.add_group_by(key);
    }
  }
  return answer;
}

store::CapacityFilter DeviceTimeFilter(const CheckedSeriesRequest& checked,
                                       const v1::GetCapacitySeriesRequest& request) {
  store::CapacityFilter devices;
  devices.start = checked.start;
  devices.end = checked.end;
  devices.width = checked.width;
  devices.cluster = request.cluster();
  devices.model = request.model();
  return devices;
}

store::ChargebackFilter HeldTimeFilter(const CheckedSeriesRequest& checked, const v1::GetCapacitySeriesRequest& request,
                                       const std::vector<std::string>& teams) {
  store::ChargebackFilter filter;
  filter.start = checked.start;
  filter.end = checked.end;
  filter.teams = teams;
  filter.cluster = request.cluster();
  filter.model = request.model();
  filter.device_time_only = true;
  return filter;
}

// The rollup's held and used time into the series.
absl::Status AddHeldAndUsed(const std::vector<store::ChargebackSum>& sums, Series& series) {
  for (const store::ChargebackSum& sum : sums) {
    // The idle and fixed lines hold nothing; a team token never sees their teams.
    if (sum.held_milli_seconds == 0 && sum.used_milli_seconds == 0) continue;
    v1::CapacityBucket& bucket = BucketOf(series, {sum.model, sum.cluster, sum.team}, sum.start);
    int64_t total = 0;
    FLEETCAP_RETURN_IF_ERROR(Add(sum.held_milli_seconds, bucket.held_milli_seconds(), "held_milli_seconds", &total));
    bucket.set_held_milli_seconds(total);
    FLEETCAP_RETURN_IF_ERROR(Add(sum.used_milli_seconds, bucket.used_milli_seconds(), "used_milli_seconds", &total));
    bucket.set_used_milli_seconds(total);
  }
  return absl::OkStatus();
}

// The devices' time in service into the series (no team).
absl::Status AddCapacity(const std::vector<store::CapacityPoint>& points, const CheckedSeriesRequest& checked,
                         Series& series) {
  for (const store::CapacityPoint& point : points) {
    v1::CapacityBucket& bucket =
        BucketOf(series, {checked.group_by.model ? point.model : "", checked.group_by.cluster ? point.cluster : "", ""},
                 point.start);
    int64_t total = 0;
    FLEETCAP_RETURN_IF_ERROR(
        Add(point.milli_seconds, bucket.capacity_milli_seconds(), "capacity_milli_seconds", &total));
    bucket.set_capacity_milli_seconds(total);
  }
  return absl::OkStatus();
}

// The series as the answer's groups, in its layout, unless it has more than
// `max_points` points.
absl::Status FillGroups(Series& series, const CheckedSeriesRequest& checked, int64_t max_points,
                        v1::CapacitySeries& answer) {
  const int64_t points = PointsOf(series, checked);
  if (points > max_points) {
    return absl::InvalidArgumentError(absl::StrCat("group_by: the answer has ", points,
                                                   " points (groups x buckets), more than ", max_points,
                                                   "; group by fewer fields, filter, or use a coarser resolution"));
  }
  for (auto& [key, buckets] : series) {
    v1::CapacitySeriesGroup* group = answer.add_groups();
    group->set_model(std::get<0>(key));
    group->set_cluster(std::get<1>(key));
    group->set_team(std::get<2>(key));
    if (checked.layout == v1::COLUMNAR) {
      FillColumns(buckets, checked, group);
    } else {
      for (auto& [start, bucket] : buckets) *group->add_buckets() = std::move(bucket);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::CapacitySeries> CapacitySeriesQuery::Run(const Scope& scope,
                                                            const v1::GetCapacitySeriesRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(const CheckedSeriesRequest checked, Check(request));
  const bool team_token = scope.role == Role::kTeam;
  // A team token reads teams' lines only: its subtree, grouped or named.
  if (team_token && !checked.group_by.team && request.team().empty()) return OutOfScope("group_by");
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> teams, ChargebackTeams(scope, request.team(), *policy));

  v1::CapacitySeries answer = CapacityAnswerHead(checked);
  // A team token left with no team it may read reads nothing (an empty
  // selector would select every team).
  if (team_token && teams.empty()) return answer;

  // Devices in service belong to no team. Their read runs beside the
  // rollup's: on a long window each takes hundreds of milliseconds, and the
  // answer waits only for the slower.
  const store::CapacityFilter devices = DeviceTimeFilter(checked, request);
  std::future<absl::StatusOr<std::vector<store::CapacityPoint>>> device_time;
  if (!checked.group_by.team && request.team().empty()) {
    device_time = std::async(std::launch::async, [this, &devices] { return capacity_->DeviceTime(devices); });
  }

  Series series;
  store::ChargebackGroupBy group_by;
  group_by.model = checked.group_by.model;
  group_by.cluster = checked.group_by.cluster;
  group_by.team = checked.group_by.team;
  FLEETCAP_ASSIGN_OR_RETURN(const auto sums,
                            lines_->Lines(HeldTimeFilter(checked, request, teams), group_by,
                                          checked.resolution == v1::DAY ? store::ChargebackResolution::kDay
                                                                        : store::ChargebackResolution::kHour));
  FLEETCAP_RETURN_IF_ERROR(AddHeldAndUsed(sums, series));
  if (device_time.valid()) {
    FLEETCAP_ASSIGN_OR_RETURN(const auto points, device_time.get());
    FLEETCAP_RETURN_IF_ERROR(AddCapacity(points, checked, series));
  }
  FLEETCAP_RETURN_IF_ERROR(FillGroups(series, checked, max_points_, answer));
  return answer;
}

absl::StatusOr<v1::GetCapacitySeriesRequest> CapacitySeriesRequestFromQuery(const HttpQuery& query) {
  v1::GetCapacitySeriesRequest request;
  QueryMapping mapping;
  mapping.required = {"start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  if (request.resolution() == v1::RESOLUTION_UNSPECIFIED) request.set_resolution(v1::HOUR);
  if (request.group_by_size() > 3) {
    return absl::InvalidArgumentError("group_by: more than 3 fields; give at most model, cluster and team");
  }
  if (request.layout() == v1::CAPACITY_SERIES_LAYOUT_UNSPECIFIED) request.set_layout(v1::BUCKETS);
  return request;
}

}  // namespace fleetcap::api
