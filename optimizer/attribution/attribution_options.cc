#include "optimizer/attribution/attribution_options.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::attribution {

absl::StatusOr<Options> ParseOptions(const policy::Attribution& a) {
  Options o;
  if (a.basis == "request") {
    o.basis = Basis::kRequest;
  } else if (a.basis == "usage") {
    o.basis = Basis::kUsage;
  } else if (a.basis == "max") {
    o.basis = Basis::kMax;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("attribution.basis: \"", a.basis, "\" is not request, usage or max"));
  }
  if (a.idle == "share") {
    o.idle = IdleRule::kShare;
  } else if (a.idle == "even") {
    o.idle = IdleRule::kEven;
  } else if (a.idle == "keep") {
    o.idle = IdleRule::kKeep;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("attribution.idle: \"", a.idle, "\" is not share, even or keep"));
  }
  if (a.idle_scope != "cluster" && a.idle_scope != "node") {
    return absl::InvalidArgumentError(
        absl::StrCat("attribution.idle_scope: \"", a.idle_scope, "\" is not cluster or node"));
  }
  o.idle_per_node = a.idle_scope == "node";
  if (a.shared_spread != "weighted" && a.shared_spread != "even") {
    return absl::InvalidArgumentError(
        absl::StrCat("attribution.shared_spread: \"", a.shared_spread, "\" is not weighted or even"));
  }
  o.shared_even = a.shared_spread == "even";
  for (const policy::FixedCost& f : a.fixed_monthly_costs) {
    if (f.micro_per_month < 0) {
      return absl::InvalidArgumentError(absl::StrCat("attribution.fixed_monthly_costs: \"", f.name, "\" is negative"));
    }
  }
  return o;
}

}  // namespace fleetcap::attribution
