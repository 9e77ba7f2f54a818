#pragma once
// The policy document (schema version 1), as parsed from YAML: the org tree,
// namespace-to-team mapping, team label keys, the pod metadata it trusts,
// accelerator flavors,
// effective-dated prices, attribution options and allocation settings.
// Pure data; docs/policy.md describes every field. `line` fields remember
// where each entry was written, so later checks and diffs can point at it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace fleetcap::policy {

inline constexpr int kSchemaVersion = 1;

struct Team {
  std::string name;
  std::string parent;         // empty: a root of the tree
  std::string kind = "team";  // org, team or project
  int64_t weight = 1;
  std::string cost_centre;
  std::string workload_class;  // a class of `throughput`; empty: none
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

// Maps namespaces to a team: one exact `namespace`, or a glob `pattern`
// (`*` any run of characters, `?` one), in clusters matching `cluster` (a glob).
struct NamespaceRule {
  std::string cluster = "*";
  std::string namespace_name;  // exact name, or empty when `pattern` is set
  std::string pattern;
  std::string team;
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

// Pod metadata a tenant writes that the policy trusts, for pods in namespaces
// matching `namespace_pattern` of clusters matching `cluster` (both globs).
// Untrusted by default: the namespace mapping decides the team, the device
// request decides the size of a hold.
struct PodTrust {
  std::string cluster = "*";
  std::string namespace_pattern = "*";
  bool team_label = false;  // the pod's team label names its team
  bool gpu_share = false;   // GPU-sharing annotations (e.g. gpu-milli) size its holds
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

struct Flavor {
  std::string name;
  std::string model;
  std::string pool;            // empty: any pool
  std::string cluster = "*";   // cluster selector (a glob)
  int64_t capacity_milli = 0;  // devices available to allocate, in milli-devices
  // How its devices are handed out: "whole" (a pod takes entire devices, so
  // quotas are whole devices), "mig" or "time-slicing" (shares of a device).
  std::string sharing = "whole";
  int line = 0;

  bool WholeDevices() const { return sharing == "whole"; }
  std::map<std::string, int> field_lines;  // key -> line of its value
};

// Price of one device-hour of `model` in `cluster` (empty: every cluster),
// over [from, to) (no `to`: open-ended).
struct Price {
  std::string model;
  std::string cluster;
  absl::Time from;
  std::optional<absl::Time> to;
  int64_t micro_per_device_hour = 0;
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

struct FixedCost {
  std::string name;
  int64_t micro_per_month = 0;
};

struct Attribution {
  std::string basis = "request";           // request, usage or max
  std::string idle = "share";              // share, even or keep
  std::string idle_scope = "cluster";      // cluster or node
  std::string shared_spread = "weighted";  // weighted or even
  std::vector<std::string> shared_namespaces;
  std::vector<FixedCost> fixed_monthly_costs;
};

struct AllocationRule {
  std::string team;
  std::string flavor;
  int64_t guarantee_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: unlimited
  std::optional<int64_t> lending_limit_milli;    // none: may lend everything
  int64_t weight = 1;
  // Declared demand: replaces the demand the optimizer measures from history
  // (docs/allocation.md, "Measured demand"); none: measured.
  std::optional<int64_t> demand_milli;
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

// How fast a workload class runs on a flavor (heterogeneity-aware
// allocation, docs/allocation.md): any unit, the same for one class; only
// ratios along a class matter. Decimals with up to 6 digits, stored x 10^6.
struct Throughput {
  std::string workload_class;
  std::string flavor;
  int64_t micro = 0;
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

// How insights find waste and size workloads (docs/insights.md).
struct InsightOptions {
  // A pod's devices whose activity is below this, in basis points (500: 5 %),
  // for at least `idle_for` are held idle: waste.
  int64_t idle_below_basis_points = 500;
  absl::Duration idle_for = absl::Hours(4);
  // The days of telemetry a rightsizing recommendation stands on.
  int rightsizing_lookback_days = 14;
  // Memory kept free above the p99 used when a smaller slice is proposed.
  int64_t memory_headroom_percent = 20;
};

// A team's (and its subtree's) spend allowed in one calendar month, UTC.
struct Budget {
  std::string team;
  int year = 0;
  int month = 0;  // 1..12
  int64_t micro_amount = 0;
  int line = 0;
  std::map<std::string, int> field_lines;  // key -> line of its value
};

inline constexpr int64_t kDefaultDemandHeadroomPercent = 20;
inline constexpr int64_t kMaxDemandHeadroomPercent = 1000;

struct PolicyDocument {
  int version = kSchemaVersion;
  std::string currency = "USD";
  std::vector<Team> teams;
  std::vector<NamespaceRule> namespaces;
  std::vector<std::string> team_label_keys;
  std::vector<PodTrust> trusted_pods;
  std::vector<Flavor> flavors;
  std::vector<Price> prices;
  Attribution attribution;
  std::vector<AllocationRule> allocation;
  std::vector<Throughput> throughput;  // a class on a flavor not listed: 0, it does not run there
  // Percent added to each measured demand for growth and queueing before it is
  // allocated (docs/allocation.md, "Measured demand"); 0..kMaxDemandHeadroomPercent.
  int64_t demand_headroom_percent = kDefaultDemandHeadroomPercent;
  InsightOptions insights;
  std::vector<Budget> budgets;
};

// The line of `field` in `entry`, or the entry's own line.
template <typename Entry>
int LineOf(const Entry& entry, const std::string& field) {
  auto it = entry.field_lines.find(field);
  return it == entry.field_lines.end() ? entry.line : it->second;
}

// `team` and every team below it in the tree (empty if `team` is unknown).
std::vector<std::string> Subtree(const PolicyDocument& policy, const std::string& team);

}  // namespace fleetcap::policy
