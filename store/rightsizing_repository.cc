#include "store/rightsizing_repository.h"

#include <cmath>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {
namespace {

absl::Status Bad(size_t i, const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("rightsizing: recommendations[", i, "].", field, ": ", why));
}

absl::Status ValidateRecord(size_t i, const RightsizingRecord& r) {
  if (r.kind != "fewer_devices" && r.kind != "smaller_slice" && r.kind != "cheaper_flavor") {
    return Bad(i, "kind", absl::StrCat("\"", r.kind, "\" is not fewer_devices, smaller_slice or cheaper_flavor"));
  }
  if (r.confidence != "high" && r.confidence != "medium" && r.confidence != "low") {
    return Bad(i, "confidence", absl::StrCat("\"", r.confidence, "\" is not high, medium or low"));
  }
  if (r.current_milli <= 0) return Bad(i, "current_milli", "not above 0");
  if (r.proposed_milli < 0) return Bad(i, "proposed_milli", "negative");
  if (r.savings_micro_per_month <= 0) return Bad(i, "savings_micro_per_month", "not above 0");
  if (r.observed_minutes <= 0) return Bad(i, "observed_minutes", "not above 0");
  if (r.p99_memory_bytes < 0) return Bad(i, "p99_memory_bytes", "negative");
  if (!std::isfinite(r.p95_active_devices) || !std::isfinite(r.p95_activity)) {
    return Bad(i, "p95_activity", "not a finite number");
  }
  return absl::OkStatus();
}

auto Key(const RightsizingRecord& r) { return std::tie(r.namespace_name, r.workload, r.model, r.kind); }

}  // namespace

bool RightsizingRecord::operator==(const RightsizingRecord& o) const {
  return std::tie(namespace_name, workload, model, kind, team, current, proposed, current_milli, proposed_milli,
                  savings_micro_per_month, evidence, observed_minutes, confidence, p95_active_devices, p95_activity,
                  p99_memory_bytes) == std::tie(o.namespace_name, o.workload, o.model, o.kind, o.team, o.current,
                                                o.proposed, o.current_milli, o.proposed_milli,
                                                o.savings_micro_per_month, o.evidence, o.observed_minutes, o.confidence,
                                                o.p95_active_devices, o.p95_activity, o.p99_memory_bytes);
}

bool RightsizingRun::operator==(const RightsizingRun& o) const {
  return std::tie(cluster, lookback_start, lookback_end, computed_at, currency, recommendations) ==
         std::tie(o.cluster, o.lookback_start, o.lookback_end, o.computed_at, o.currency, o.recommendations);
}

absl::Status ValidateRightsizingRun(const RightsizingRun& run) {
  if (run.cluster.empty()) return absl::InvalidArgumentError("rightsizing: cluster: empty");
  if (run.lookback_end <= run.lookback_start) {
    return absl::InvalidArgumentError("rightsizing: lookback_end: not after lookback_start");
  }
  if (run.currency.size() != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("rightsizing: currency: \"", run.currency, "\" is no ISO 4217 code"));
  }
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  for (size_t i = 0; i < run.recommendations.size(); ++i) {
    const RightsizingRecord& r = run.recommendations[i];
    if (absl::Status s = ValidateRecord(i, r); !s.ok()) return s;
    if (!seen.insert(Key(r)).second) {
      return Bad(i, "kind", "a second recommendation of this kind for the workload and model");
    }
  }
  return absl::OkStatus();
}

bool Selects(const RightsizingFilter& filter, const std::string& cluster, const RightsizingRecord& r) {
  return (filter.cluster.empty() || filter.cluster == cluster) &&
         (filter.namespace_name.empty() || filter.namespace_name == r.namespace_name) &&
         (!filter.teams || filter.teams->count(r.team) > 0);
}

bool LargestSavingFirst(const RightsizingRecord& a, const RightsizingRecord& b) {
  if (a.savings_micro_per_month != b.savings_micro_per_month) {
    return a.savings_micro_per_month > b.savings_micro_per_month;
  }
  return Key(a) < Key(b);
}

}  // namespace fleetcap::store
