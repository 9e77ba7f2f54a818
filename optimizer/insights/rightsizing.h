#pragma once
// Rightsizing (docs/insights.md, "Rightsizing"): per workload over a
// lookback, what it could hold instead and what that would save a month,
// with the evidence and a confidence. Pure code: facts and policy in,
// recommendations out; no store, no clock.
//
// Three rules, each on its own (they are alternatives, not a sum):
// - fewer devices: the p95 over observed minutes of its devices active at
//   once is below the devices it holds: ceil(p95), at least 1;
// - a smaller slice: the smallest MIG profile of its model (else a
//   time-slice share of 1/2, 1/4 or 1/8 of a whole device) whose memory
//   covers the p99 memory used plus the policy's headroom and whose compute
//   covers the p95 activity;
// - a cheaper flavor: of the policy's flavors, the one with the lowest
//   price per unit of the team's workload class's work (`throughput[]`),
//   when below the current one's.
// Savings a month = the current cost less the proposed, a month being 720
// hours (30 days), at the price in force at the lookback's last second, in
// integer micro-units rounded once, half up; a rule that saves nothing
// recommends nothing. A workload with no observed minute gets nothing:
// unknown is never unused.

#include <cstdint>
#include <string>
#include <vector>

#include "optimizer/insights/rightsizing_facts.h"
#include "policy/policy_document.h"

namespace fleetcap::insights {

inline constexpr int64_t kHoursPerMonth = 720;  // a 30-day month
// The confidence of a recommendation by its observed minutes: "high" from
// 7 days of them, "medium" from 1 day, else "low".
inline constexpr int64_t kHighConfidenceMinutes = 7 * 24 * 60;
inline constexpr int64_t kMediumConfidenceMinutes = 24 * 60;

// As RightsizingRecommendation in proto/fleetcap/v1/insights.proto.
struct Recommendation {
  std::string cluster, team, namespace_name, workload, model;
  std::string kind;               // "fewer_devices", "smaller_slice" or "cheaper_flavor"
  std::string current, proposed;  // in words: "8 x A100-SXM4-80GB", "MIG 1g.10gb", "flavor p100"
  // Mean milli-devices held over the lookback, and proposed (on the
  // proposed flavor's devices for a cheaper flavor: the same work there).
  int64_t current_milli = 0;
  int64_t proposed_milli = 0;
  int64_t savings_micro_per_month = 0;  // > 0
  std::string evidence;
  int64_t observed_minutes = 0;
  std::string confidence;  // "high", "medium" or "low"
  double p95_active_devices = 0;
  double p95_activity = 0;
  int64_t p99_memory_bytes = 0;
};

// Every recommendation for `input`'s workloads under `policy` (its prices,
// flavors, throughput, teams' workload classes and insights options), the
// largest saving first.
std::vector<Recommendation> Rightsize(const RightsizingInput& input, const policy::PolicyDocument& policy);

// `recommendations` the largest saving first, then by cluster, namespace,
// workload, model and kind: one order whatever order they came in, so a
// caller that rightsizes workloads a part at a time orders the whole as one
// call would.
void SortRecommendations(std::vector<Recommendation>* recommendations);

// "high", "medium" or "low" for `observed_minutes`.
const char* ConfidenceOf(int64_t observed_minutes);

}  // namespace fleetcap::insights
