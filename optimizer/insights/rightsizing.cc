#include "optimizer/insights/rightsizing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

#include "absl/numeric/int128.h"
#include "absl/strings/str_format.h"
#include "common/glob.h"
#include "optimizer/attribution/price_schedule.h"
#include "optimizer/insights/mig_profiles.h"
#include "optimizer/insights/percentile.h"
#include "optimizer/insights/workload_observation.h"

namespace fleetcap::insights {
namespace {

using Wide = absl::int128;
const Wide kInt64Max = std::numeric_limits<int64_t>::max();

Wide Magnitude(Wide v) { return v < 0 ? -v : v; }

// a x b, or none past 2^126 (far beyond any figure that fits int64 once divided).
std::optional<Wide> Times(std::optional<Wide> a, Wide b) {
  const Wide limit = Wide(1) << 126;
  if (!a) return std::nullopt;
  if (*a != 0 && Magnitude(b) > limit / Magnitude(*a)) return std::nullopt;
  return *a * b;
}

// num / den rounded half up (num >= 0, den > 0), or none when it does not fit int64.
std::optional<int64_t> RoundedQuotient(std::optional<Wide> num, Wide den) {
  if (!num || *num < 0 || den <= 0) return std::nullopt;
  const Wide q = (*num * 2 + den) / (den * 2);
  if (q > kInt64Max) return std::nullopt;
  return static_cast<int64_t>(q);
}

// The price of a device-hour of `model` in `cluster` in force at the
// lookback's last second (a cluster's own price wins over the fleet's).
std::optional<int64_t> PriceAtEnd(const policy::PolicyDocument& policy, const std::string& model,
                                  const std::string& cluster, absl::Time end) {
  const int64_t t = attribution::ToSeconds(end) - 1;
  for (const attribution::PricePeriod& p : attribution::PriceTimeline(policy.prices, model, cluster)) {
    if (p.from <= t && t < p.to) return p.micro_per_device_hour;
  }
  return std::nullopt;
}

std::string Money(int64_t micro) { return absl::StrFormat("%d.%06d", micro / 1000000, micro % 1000000); }
std::string Gigabytes(double bytes) { return absl::StrFormat("%.2f GB", bytes / 1e9); }
std::string Percent(double fraction) { return absl::StrFormat("%.1f%%", fraction * 100); }

std::string LookbackWords(absl::Duration d) {
  const int64_t hours = absl::ToInt64Hours(d);
  if (hours % 24 == 0) return absl::StrFormat("%d-day", hours / 24);
  return absl::StrFormat("%d-hour", hours);
}

// What every rule knows of a workload.
struct Subject {
  const WorkloadFacts& facts;
  const WorkloadObservation& seen;
  int64_t current_milli;
  std::optional<int64_t> price;  // of its model in its cluster
  const policy::PolicyDocument& policy;
  absl::Time end;        // of the lookback
  std::string lookback;  // "14-day", for the evidence
};

Recommendation Base(const Subject& s, const char* kind) {
  Recommendation r;
  r.cluster = s.facts.cluster;
  r.team = s.facts.team;
  r.namespace_name = s.facts.namespace_name;
  r.workload = s.facts.workload;
  r.model = s.facts.model;
  r.kind = kind;
  r.current_milli = s.current_milli;
  r.observed_minutes = s.seen.observed_minutes;
  r.confidence = ConfidenceOf(s.seen.observed_minutes);
  r.p95_active_devices = Percentile(s.seen.active_devices, 95).value_or(0);
  r.p95_activity = Percentile(s.seen.activity, 95).value_or(0);
  const std::optional<double> p99 = Percentile(s.seen.memory_used_bytes, 99);
  r.p99_memory_bytes = p99 ? static_cast<int64_t>(std::ceil(*p99)) : 0;
  return r;
}

// Saving a month of holding `proposed_milli` instead of the current, at the
// same price; none when it saves nothing.
std::optional<Recommendation> WithSameBasisSaving(Recommendation r, const Subject& s, int64_t proposed_milli) {
  r.proposed_milli = proposed_milli;
  const std::optional<int64_t> saving =
      RoundedQuotient(Times(Times(Wide(s.current_milli - proposed_milli), *s.price), kHoursPerMonth), 1000);
  if (!saving || *saving <= 0) return std::nullopt;
  r.savings_micro_per_month = *saving;
  return r;
}

std::optional<Recommendation> FewerDevices(const Subject& s) {
  const WorkloadObservation& o = s.seen;
  if (!s.price || !o.whole_devices || o.max_devices_held < 2) return std::nullopt;
  const double p95 = *Percentile(o.active_devices, 95);
  const int proposed = std::max(1, static_cast<int>(std::ceil(p95)));
  if (proposed >= o.max_devices_held) return std::nullopt;
  Recommendation r = Base(s, "fewer_devices");
  r.current = absl::StrFormat("%d x %s", o.max_devices_held, s.facts.model);
  r.proposed = absl::StrFormat("%d x %s", proposed, s.facts.model);
  r.evidence = absl::StrFormat(
      "p95 of devices active at once (activity at or above %s by %s) %.2f of the %d held, over %d observed "
      "minutes of the %s lookback: %d %s it",
      Percent(static_cast<double>(s.policy.insights.idle_below_basis_points) / 10000), o.Signal(), p95,
      o.max_devices_held, o.observed_minutes, s.lookback, proposed, proposed == 1 ? "device covers" : "devices cover");
  const std::optional<int64_t> milli = RoundedQuotient(Wide(s.current_milli) * proposed, o.max_devices_held);
  if (!milli) return std::nullopt;
  return WithSameBasisSaving(std::move(r), s, *milli);
}

// A share a workload could hold instead: a MIG profile or a time-slice.
struct Slice {
  std::string words;
  int64_t milli;
  double compute;  // of a device
  int64_t memory_bytes;
};

// The candidates in the order tried: the model's MIG profiles smallest
// first, which isolate memory and compute, then the time-slices smallest
// first, which share them.
std::vector<Slice> SmallerSlices(const Subject& s, int64_t share_milli) {
  std::vector<Slice> mig, shared;
  for (const MigProfile& p : MigProfilesOf(s.facts.model)) {
    if (p.Milli() < share_milli) {
      mig.push_back({"MIG " + p.name, p.Milli(), p.compute_slices / 7.0, p.memory_bytes});
    }
  }
  if (share_milli == 1000 && s.seen.device_memory_bytes) {
    for (int k : {8, 4, 2}) {
      shared.push_back({absl::StrFormat("time-slice 1/%d of %s", k, s.facts.model), 1000 / k, 1.0 / k,
                        *s.seen.device_memory_bytes / k});
    }
  }
  mig.insert(mig.end(), shared.begin(), shared.end());
  return mig;
}

std::string ShareWords(const Subject& s, int64_t share_milli) {
  if (share_milli == 1000) return "1 x " + s.facts.model;
  const int slices = MigSlicesOfMilli(s.facts.model, share_milli);
  if (slices > 0) return absl::StrFormat("MIG %dg slice of %s", slices, s.facts.model);
  return absl::StrFormat("%d milli of %s", share_milli, s.facts.model);
}

std::optional<Recommendation> SmallerSlice(const Subject& s) {
  const WorkloadObservation& o = s.seen;
  if (!s.price || !o.share_milli || !o.one_device_per_pod || o.memory_used_bytes.empty()) return std::nullopt;
  const int64_t share = *o.share_milli;
  Recommendation r = Base(s, "smaller_slice");
  const double compute = r.p95_activity * static_cast<double>(share) / 1000;
  const double headroom = static_cast<double>(s.policy.insights.memory_headroom_percent);
  const double memory = std::ceil(static_cast<double>(r.p99_memory_bytes) * (100 + headroom) / 100);
  for (const Slice& c : SmallerSlices(s, share)) {
    if (c.compute < compute || static_cast<double>(c.memory_bytes) < memory) continue;
    r.current = ShareWords(s, share);
    r.proposed = c.words;
    r.evidence = absl::StrFormat(
        "p95 activity by %s %s of its %s (%s of a device), p99 memory used %s + %d%% headroom = %s, over %d "
        "observed minutes of the %s lookback: %s has %s of a device and %s",
        o.Signal(), Percent(r.p95_activity), r.current, Percent(compute), Gigabytes(r.p99_memory_bytes),
        s.policy.insights.memory_headroom_percent, Gigabytes(memory), o.observed_minutes, s.lookback, c.words,
        Percent(c.compute), Gigabytes(static_cast<double>(c.memory_bytes)));
    const std::optional<int64_t> milli = RoundedQuotient(Wide(s.current_milli) * c.milli, share);
    if (!milli) return std::nullopt;
    return WithSameBasisSaving(std::move(r), s, *milli);
  }
  return std::nullopt;
}

const policy::Team* TeamOf(const policy::PolicyDocument& policy, const std::string& name) {
  for (const policy::Team& t : policy.teams) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

int64_t ThroughputOf(const policy::PolicyDocument& policy, const std::string& workload_class,
                     const std::string& flavor) {
  for (const policy::Throughput& t : policy.throughput) {
    if (t.workload_class == workload_class && t.flavor == flavor) return t.micro;
  }
  return 0;  // not listed: it does not run there
}

// A flavor the work could run on, with what it costs and does there.
struct Venue {
  const policy::Flavor* flavor = nullptr;
  int64_t price = 0;       // a device-hour
  int64_t throughput = 0;  // x 10^6, of the class
  // Whether it costs less per unit of work than `o`: price / throughput below.
  bool CheaperThan(const Venue& o) const { return Wide(price) * o.throughput < Wide(o.price) * throughput; }
};

// `flavor` for the workload's class: its price is its model's in the
// workload's cluster when the flavor's clusters hold it, else the fleet's.
std::optional<Venue> VenueOf(const Subject& s, const policy::Flavor& flavor, const std::string& workload_class) {
  const int64_t throughput = ThroughputOf(s.policy, workload_class, flavor.name);
  const std::string cluster = GlobMatch(flavor.cluster, s.facts.cluster) ? s.facts.cluster : "";
  const std::optional<int64_t> price = PriceAtEnd(s.policy, flavor.model, cluster, s.end);
  if (throughput <= 0 || !price) return std::nullopt;
  return Venue{&flavor, *price, throughput};
}

// The workload's own flavor: the first of the policy's of its model whose
// clusters hold its cluster.
const policy::Flavor* CurrentFlavor(const Subject& s) {
  for (const policy::Flavor& f : s.policy.flavors) {
    if (f.model == s.facts.model && GlobMatch(f.cluster, s.facts.cluster)) return &f;
  }
  return nullptr;
}

std::string PerUnit(const Venue& v) {
  return absl::StrFormat("%s on %s at %s a device-hour (%.6f per unit)", Money(v.throughput), v.flavor->name,
                         Money(v.price), static_cast<double>(v.price) / static_cast<double>(v.throughput));
}

std::optional<Recommendation> CheaperFlavor(const Subject& s) {
  const policy::Team* team = TeamOf(s.policy, s.facts.team);
  const policy::Flavor* own = CurrentFlavor(s);
  if (!team || team->workload_class.empty() || !own) return std::nullopt;
  const std::optional<Venue> now = VenueOf(s, *own, team->workload_class);
  if (!now) return std::nullopt;
  std::optional<Venue> best;
  for (const policy::Flavor& f : s.policy.flavors) {
    const std::optional<Venue> v = VenueOf(s, f, team->workload_class);
    if (v && v->CheaperThan(best.value_or(*now))) best = v;
  }
  if (!best) return std::nullopt;
  Recommendation r = Base(s, "cheaper_flavor");
  r.current = "flavor " + own->name;
  r.proposed = "flavor " + best->flavor->name;
  r.evidence = absl::StrFormat(
      "workload class %s runs %s, and %s; the same work there costs less, over %d observed "
      "minutes of the %s lookback",
      team->workload_class, PerUnit(*now), PerUnit(*best), s.seen.observed_minutes, s.lookback);
  // The same work: current x its throughput / theirs, milli-devices there.
  const std::optional<int64_t> milli = RoundedQuotient(Wide(s.current_milli) * now->throughput, best->throughput);
  // current cost - that work's cost there = current x 720 x (p_now t_best - p_best t_now) / (1000 t_best).
  const Wide per_unit_gap = Wide(now->price) * best->throughput - Wide(best->price) * now->throughput;
  const std::optional<int64_t> saving =
      RoundedQuotient(Times(Wide(s.current_milli) * kHoursPerMonth, per_unit_gap), Wide(1000) * best->throughput);
  if (!milli || !saving || *saving <= 0) return std::nullopt;
  r.proposed_milli = *milli;
  r.savings_micro_per_month = *saving;
  return r;
}

std::vector<Recommendation> ForWorkload(const WorkloadFacts& w, const RightsizingInput& in,
                                        const policy::PolicyDocument& policy) {
  const double idle_below = static_cast<double>(policy.insights.idle_below_basis_points) / 10000;
  const WorkloadObservation seen = Observe(w, in.start, in.end, idle_below);
  const int64_t lookback_seconds = absl::ToInt64Seconds(in.end - in.start);
  if (seen.observed_minutes == 0 || lookback_seconds <= 0) return {};
  const std::optional<int64_t> current = RoundedQuotient(Wide(seen.held_milli_seconds), lookback_seconds);
  if (!current || *current <= 0) return {};
  const Subject s{w,
                  seen,
                  *current,
                  PriceAtEnd(policy, w.model, w.cluster, in.end),
                  policy,
                  in.end,
                  LookbackWords(in.end - in.start)};
  std::vector<Recommendation> out;
  for (auto rule : {FewerDevices, SmallerSlice, CheaperFlavor}) {
    if (std::optional<Recommendation> r = rule(s)) out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace

const char* ConfidenceOf(int64_t observed_minutes) {
  if (observed_minutes >= kHighConfidenceMinutes) return "high";
  return observed_minutes >= kMediumConfidenceMinutes ? "medium" : "low";
}

std::vector<Recommendation> Rightsize(const RightsizingInput& input, const policy::PolicyDocument& policy) {
  std::vector<Recommendation> out;
  for (const WorkloadFacts& w : input.workloads) {
    for (Recommendation& r : ForWorkload(w, input, policy)) out.push_back(std::move(r));
  }
  SortRecommendations(&out);
  return out;
}

void SortRecommendations(std::vector<Recommendation>* recommendations) {
  std::sort(recommendations->begin(), recommendations->end(), [](const Recommendation& a, const Recommendation& b) {
    if (a.savings_micro_per_month != b.savings_micro_per_month) {
      return a.savings_micro_per_month > b.savings_micro_per_month;
    }
    return std::tie(a.cluster, a.namespace_name, a.workload, a.model, a.kind) <
           std::tie(b.cluster, b.namespace_name, b.workload, b.model, b.kind);
  });
}

}  // namespace fleetcap::insights
