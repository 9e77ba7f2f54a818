#include "services/api/fleet/assets_query.h"

#include <algorithm>
#include <future>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/api/fleet/asset_window.h"
#include "services/api/fleet/idle_cost_spread.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// A checked request in the stores' terms.
struct CheckedAssetsRequest {
  AssetWindow window;
  store::AssetLevel level = store::AssetLevel::kModel;
  std::string level_name = "model";
  int64_t limit = kDefaultAssetRows;
};

absl::StatusOr<CheckedAssetsRequest> Check(const v1::GetAssetsRequest& request) {
  CheckedAssetsRequest checked;
  FLEETCAP_ASSIGN_OR_RETURN(checked.window,
                            CheckAssetWindow(request.has_start(), request.start(), request.has_end(), request.end()));
  const std::string level = absl::AsciiStrToLower(request.group_by());
  if (level.empty() || level == "model") {
    checked.level = store::AssetLevel::kModel;
  } else if (level == "cluster") {
    checked.level = store::AssetLevel::kCluster;
  } else if (level == "node") {
    checked.level = store::AssetLevel::kNode;
  } else if (level == "device") {
    checked.level = store::AssetLevel::kDevice;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("group_by: \"", request.group_by().substr(0, 64),
                                                   "\" is not one of model, cluster, node, device"));
  }
  if (!level.empty()) checked.level_name = level;
  if (request.limit() < 0 || request.limit() > kMaxAssetRows) {
    return absl::InvalidArgumentError(absl::StrCat("limit: ", request.limit(), " is not between 1 and ", kMaxAssetRows,
                                                   " (0 or none is ", kDefaultAssetRows, ")"));
  }
  if (request.limit() > 0) checked.limit = request.limit();
  FLEETCAP_RETURN_IF_ERROR(CheckAssetFilter("cluster", request.cluster()));
  FLEETCAP_RETURN_IF_ERROR(CheckAssetFilter("model", request.model()));
  FLEETCAP_RETURN_IF_ERROR(CheckAssetFilter("node", request.node()));
  return checked;
}

// What the chargeback says of each model and cluster over the window: its
// used and observed device time and its idle cost (every line's
// idle_cost_micro: a team's share of idle, or on an `idle` line the idle
// kept). A model and cluster with no line is not computed yet.
struct ChargebackFigures {
  std::map<std::pair<std::string, std::string>, int64_t> used, observed, idle_cost;
};

absl::StatusOr<ChargebackFigures> ChargebackFiguresOf(const std::vector<store::ChargebackSum>& sums) {
  ChargebackFigures figures;
  for (const store::ChargebackSum& sum : sums) {
    if (sum.model.empty()) continue;  // fixed lines belong to no model
    const std::pair<std::string, std::string> key{sum.model, sum.cluster};
    int64_t& used = figures.used[key];
    int64_t& observed = figures.observed[key];
    int64_t& idle = figures.idle_cost[key];
    if (__builtin_add_overflow(used, sum.used_milli_seconds, &used) ||
        __builtin_add_overflow(observed, sum.observed_milli_seconds, &observed) ||
        __builtin_add_overflow(idle, sum.idle_cost_micro, &idle)) {
      return absl::OutOfRangeError("assets: a model's chargeback sum does not fit in a signed 64-bit integer");
    }
  }
  return figures;
}

v1::AssetRow RowOf(const store::AssetTime& group) {
  v1::AssetRow row;
  row.set_model(group.model);
  row.set_cluster(group.cluster);
  row.set_node(group.node);
  row.set_device(group.device);
  row.set_devices(group.devices);
  row.set_capacity_milli_seconds(group.capacity_milli_seconds);
  row.set_held_milli_seconds(group.held_milli_seconds);
  row.set_idle_milli_seconds(group.idle_milli_seconds);
  return row;
}

// The model or cluster rows' used and observed device time and idle cost:
// the sums of the chargeback's model-and-cluster figures that are theirs,
// set only where the chargeback has a line for the group.
void AddModelOrClusterFigures(const ChargebackFigures& figures, bool by_model, std::vector<v1::AssetRow>& rows) {
  struct Sums {
    int64_t used = 0, observed = 0, idle_cost = 0;
  };
  std::map<std::string, Sums> sums;
  for (const auto& [key, used] : figures.used) {
    Sums& sum = sums[by_model ? key.first : key.second];
    sum.used += used;
    sum.observed += figures.observed.at(key);
    sum.idle_cost += figures.idle_cost.at(key);
  }
  for (v1::AssetRow& row : rows) {
    const auto sum = sums.find(by_model ? row.model() : row.cluster());
    if (sum == sums.end()) continue;
    row.set_used_milli_seconds(sum->second.used);
    row.set_observed_milli_seconds(sum->second.observed);
    row.set_idle_cost_micro(sum->second.idle_cost);
  }
}

// The node or device rows' used and observed device time: what the holds on
// their devices came to, set where their model and cluster is computed and
// their cluster kept its devices over the whole window (a device nobody held
// there used nothing: 0).
void AddNodeOrDeviceUse(const ChargebackFigures& figures, const store::DeviceUse& held,
                        std::vector<v1::AssetRow>& rows) {
  using Key = std::tuple<std::string, std::string, std::string, std::string>;  // model, cluster, node, device
  std::map<Key, const store::DeviceUseSum*> by_key;
  for (const store::DeviceUseSum& use : held.sums) {
    by_key[Key{use.model, use.cluster, use.node, use.device_id}] = &use;
  }
  const std::set<std::string> not_kept(held.clusters_not_kept.begin(), held.clusters_not_kept.end());
  for (v1::AssetRow& row : rows) {
    if (figures.used.count({row.model(), row.cluster()}) == 0 || not_kept.count(row.cluster()) > 0) continue;
    const auto use = by_key.find(Key{row.model(), row.cluster(), row.node(), row.device()});
    row.set_used_milli_seconds(use == by_key.end() ? 0 : use->second->used_milli_seconds);
    row.set_observed_milli_seconds(use == by_key.end() ? 0 : use->second->observed_milli_seconds);
  }
}

// The totals over every row; used and idle cost only when every row knows them.
absl::StatusOr<v1::AssetRow> TotalsOf(const std::vector<v1::AssetRow>& rows) {
  v1::AssetRow totals;
  bool used_known = true, cost_known = true;
  int64_t devices = 0, capacity = 0, held = 0, idle = 0, used = 0, observed = 0, cost = 0;
  for (const v1::AssetRow& row : rows) {
    used_known = used_known && row.has_used_milli_seconds();
    cost_known = cost_known && row.has_idle_cost_micro();
    if (__builtin_add_overflow(devices, row.devices(), &devices) ||
        __builtin_add_overflow(capacity, row.capacity_milli_seconds(), &capacity) ||
        __builtin_add_overflow(held, row.held_milli_seconds(), &held) ||
        __builtin_add_overflow(idle, row.idle_milli_seconds(), &idle) ||
        __builtin_add_overflow(used, row.used_milli_seconds(), &used) ||
        __builtin_add_overflow(observed, row.observed_milli_seconds(), &observed) ||
        __builtin_add_overflow(cost, row.idle_cost_micro(), &cost)) {
      return absl::OutOfRangeError("assets: a total does not fit in a signed 64-bit integer");
    }
  }
  totals.set_devices(devices);
  totals.set_capacity_milli_seconds(capacity);
  totals.set_held_milli_seconds(held);
  totals.set_idle_milli_seconds(idle);
  if (used_known && !rows.empty()) {
    totals.set_used_milli_seconds(used);
    totals.set_observed_milli_seconds(observed);
  }
  if (cost_known && !rows.empty()) totals.set_idle_cost_micro(cost);
  return totals;
}

// Largest idle first; ties by key, so a page is the same on every call.
bool IdlesMore(const v1::AssetRow& a, const v1::AssetRow& b) {
  if (a.idle_milli_seconds() != b.idle_milli_seconds()) return a.idle_milli_seconds() > b.idle_milli_seconds();
  return std::tie(a.model(), a.cluster(), a.node(), a.device()) <
         std::tie(b.model(), b.cluster(), b.node(), b.device());
}

store::ChargebackFilter ChargebackFilterOf(const CheckedAssetsRequest& checked, const v1::GetAssetsRequest& request) {
  store::ChargebackFilter filter;
  filter.start = checked.window.start;
  filter.end = checked.window.end;
  filter.cluster = request.cluster();
  filter.model = request.model();
  return filter;
}

}  // namespace

absl::StatusOr<v1::Assets> AssetsQuery::Run(const Scope& scope, const v1::GetAssetsRequest& request) const {
  if (scope.role == Role::kTeam) return OutOfScope("assets");
  FLEETCAP_ASSIGN_OR_RETURN(const CheckedAssetsRequest checked, Check(request));
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));

  // A node's idle cost is a share of its model and cluster's, so every node
  // of them is read, whatever the node filter; the filter is applied after.
  store::AssetFilter assets;
  assets.start = checked.window.start;
  assets.end = checked.window.end;
  assets.level = checked.level;
  assets.cluster = request.cluster();
  assets.model = request.model();
  const bool spread = checked.level == store::AssetLevel::kNode || checked.level == store::AssetLevel::kDevice;
  if (!spread) assets.node = request.node();
  // The reads run at once (the devices held only for nodes and devices);
  // the answer waits for the slowest.
  auto times = std::async(std::launch::async, [this, &assets] { return capacity_->AssetTimes(assets); });
  store::ChargebackGroupBy group_by;
  group_by.model = true;
  group_by.cluster = true;
  std::future<absl::StatusOr<store::DeviceUse>> uses;
  if (spread) {
    const store::DeviceUseFilter filter{checked.window.start, checked.window.end,
                                        request.cluster(),    request.model(),
                                        request.node(),       checked.level == store::AssetLevel::kDevice};
    uses = std::async(std::launch::async, [this, filter] { return lines_->DevicesHeld(filter); });
  }
  auto sums = lines_->Lines(ChargebackFilterOf(checked, request), group_by, store::ChargebackResolution::kNone);
  FLEETCAP_ASSIGN_OR_RETURN(const auto groups, times.get());
  absl::StatusOr<store::DeviceUse> device_uses = store::DeviceUse{};
  if (spread) device_uses = uses.get();
  if (!sums.ok()) return sums.status();
  if (!device_uses.ok()) return device_uses.status();
  FLEETCAP_ASSIGN_OR_RETURN(const ChargebackFigures figures, ChargebackFiguresOf(*sums));

  std::vector<v1::AssetRow> rows;
  rows.reserve(groups.size());
  for (const store::AssetTime& group : groups) rows.push_back(RowOf(group));
  if (spread) {
    SpreadIdleCost(figures.idle_cost, rows);
    AddNodeOrDeviceUse(figures, *device_uses, rows);
    if (!request.node().empty()) {
      rows.erase(std::remove_if(rows.begin(), rows.end(),
                                [&](const v1::AssetRow& row) { return row.node() != request.node(); }),
                 rows.end());
    }
  } else {
    AddModelOrClusterFigures(figures, checked.level == store::AssetLevel::kModel, rows);
  }

  v1::Assets answer;
  *answer.mutable_start() = ToProtoTimestamp(checked.window.start);
  *answer.mutable_end() = ToProtoTimestamp(checked.window.end);
  answer.set_group_by(checked.level_name);
  answer.set_currency(policy->valid ? policy->document.currency : policy::PolicyDocument{}.currency);
  FLEETCAP_ASSIGN_OR_RETURN(*answer.mutable_totals(), TotalsOf(rows));
  answer.set_groups(static_cast<int64_t>(rows.size()));
  const size_t shown = std::min(rows.size(), static_cast<size_t>(checked.limit));
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(shown), rows.end(), IdlesMore);
  for (size_t i = 0; i < shown; ++i) *answer.add_rows() = std::move(rows[i]);
  return answer;
}

absl::StatusOr<v1::GetAssetsRequest> AssetsRequestFromQuery(const HttpQuery& query, const QueryMapping& route_mapping) {
  v1::GetAssetsRequest request;
  QueryMapping mapping = route_mapping;
  mapping.required = {"start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  return request;
}

}  // namespace fleetcap::api
