#include "optimizer/chargeback/window_loader.h"

#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/chargeback/hours.h"
#include "optimizer/teams/team_directory.h"

namespace fleetcap::chargeback {

bool SameAttribution(const policy::Attribution& a, const policy::Attribution& b) {
  if (std::tie(a.basis, a.idle, a.idle_scope, a.shared_spread, a.shared_namespaces) !=
      std::tie(b.basis, b.idle, b.idle_scope, b.shared_spread, b.shared_namespaces)) {
    return false;
  }
  if (a.fixed_monthly_costs.size() != b.fixed_monthly_costs.size()) return false;
  for (size_t i = 0; i < a.fixed_monthly_costs.size(); ++i) {
    if (a.fixed_monthly_costs[i].name != b.fixed_monthly_costs[i].name ||
        a.fixed_monthly_costs[i].micro_per_month != b.fixed_monthly_costs[i].micro_per_month) {
      return false;
    }
  }
  return true;
}

void AppendFacts(const std::string& cluster, const store::AttributionFactsRecord& record,
                 attribution::AttributionInput* input) {
  for (const auto& d : record.devices) input->devices.push_back({cluster, d.node, d.device_id, d.model, d.from, d.to});
  for (const auto& h : record.holds) {
    input->holds.push_back(
        {cluster, h.pod_uid, h.namespace_name, h.team_label, h.workload, h.device_id, h.milli, h.from, h.to});
  }
  for (const auto& u : record.usage) input->usage.push_back({cluster, u.pod_uid, u.device_id, u.minute, u.used_milli});
}

FactsSources::FactsSources(const store::AttributionFactsRepository* stored_facts,
                           store::TeamFactsRepository* team_facts, policy::PolicyTimeline* policies)
    : facts(stored_facts), own_directory_(std::make_shared<teams::TeamDirectory>(team_facts, policies)) {
  directory = own_directory_.get();
}

namespace {

// `only` (when set) limits the window to that cluster.
absl::StatusOr<LoadedWindow> Load(const FactsSources& sources, const std::string* only, absl::Time start,
                                  absl::Time end) {
  if (!IsHour(start) || !IsHour(end) || !(start < end)) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback window [", FormatRfc3339(start), ", ",
                                                   FormatRfc3339(end), "): must be whole hours, start before end"));
  }
  FLEETCAP_RETURN_IF_ERROR(sources.directory->Refresh());
  const policy::PolicyTimeline& policies = sources.directory->timeline();
  LoadedWindow window;

  // Facts of the whole fleet (or of the one cluster), in one input.
  attribution::AttributionInput facts;
  facts.start = start;
  facts.end = end;
  std::vector<std::string> names;
  if (only != nullptr) {
    names.push_back(*only);
  } else {
    FLEETCAP_ASSIGN_OR_RETURN(auto clusters, sources.facts->Clusters());
    for (const auto& c : clusters) names.push_back(c.cluster);
  }
  for (const auto& name : names) {
    window.clusters.push_back(name);
    FLEETCAP_ASSIGN_OR_RETURN(auto record, sources.facts->Facts(name, start, end));
    AppendFacts(name, record, &facts);
  }
  facts.prices = policies.At(absl::InfiniteFuture(), sources.up_to).teams->policy().prices;

  FLEETCAP_ASSIGN_OR_RETURN(window.teams, sources.directory->Schedule(sources.up_to));

  // The version whose options apply from each hour: the one in force at its start.
  std::vector<std::pair<absl::Time, policy::PolicyInForce>> starts = {{start, policies.At(start, sources.up_to)}};
  for (auto& v : policies.During(start, end, sources.up_to)) {
    const absl::Time hour = HourAtOrAfter(v.from);  // InfinitePast for the first version
    if (hour <= start || hour >= end) continue;
    if (starts.back().first == hour) {
      starts.back().second = std::move(v);
    } else {
      starts.emplace_back(hour, std::move(v));
    }
  }
  for (size_t i = 0; i < starts.size(); ++i) {
    const policy::Attribution& options = starts[i].second.teams->policy().attribution;
    const absl::Time piece_end = i + 1 < starts.size() ? starts[i + 1].first : end;
    if (!window.pieces.empty() && SameAttribution(window.pieces.back().input.options, options)) {
      window.pieces.back().input.end = piece_end;
      continue;
    }
    WindowPiece piece;
    piece.options_version = starts[i].second.version;
    piece.input.options = options;
    piece.input.start = starts[i].first;
    piece.input.end = piece_end;
    window.pieces.push_back(std::move(piece));
  }
  // The engine clips facts to its window; the first piece takes them by move.
  for (size_t i = window.pieces.size(); i-- > 0;) {
    auto& input = window.pieces[i].input;
    input.prices = facts.prices;
    if (i == 0) {
      input.devices = std::move(facts.devices);
      input.holds = std::move(facts.holds);
      input.usage = std::move(facts.usage);
    } else {
      input.devices = facts.devices;
      input.holds = facts.holds;
      input.usage = facts.usage;
    }
  }
  return window;
}

}  // namespace

absl::StatusOr<LoadedWindow> LoadWindow(const FactsSources& sources, absl::Time start, absl::Time end) {
  return Load(sources, nullptr, start, end);
}

absl::StatusOr<LoadedWindow> LoadClusterWindow(const FactsSources& sources, const std::string& cluster,
                                               absl::Time start, absl::Time end) {
  return Load(sources, &cluster, start, end);
}

}  // namespace fleetcap::chargeback
