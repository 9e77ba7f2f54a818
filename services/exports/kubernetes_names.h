#pragma once
// What the scheduler exports need from Kubernetes' conventions: object names
// (DNS-1123 labels), resource quantities, and the extended resource a
// flavor's accelerators are requested by.

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "policy/policy_document.h"

namespace fleetcap::exports {

// `name` as a DNS-1123 label: lower case, every character other than a-z and
// 0-9 becomes '-', and leading or trailing '-' are dropped ("Team_A." ->
// "team-a"). Policy names are 1-63 characters starting with a letter or
// digit, so the result is never empty nor longer than 63.
std::string DnsLabel(const std::string& name);

// Hands out the DNS label of each source name of one kind of object, and
// refuses a second source name that lands on a label already given out
// ("team_a" after "team-a"): two teams must never share a queue.
class DnsNames {
 public:
  explicit DnsNames(std::string kind) : kind_(std::move(kind)) {}
  // The label of `source`; INVALID_ARGUMENT naming both sources on a collision.
  absl::StatusOr<std::string> Claim(const std::string& source);
  // Keeps `label` from every source (a name the scheduler itself uses).
  void Reserve(const std::string& label, const std::string& why);

 private:
  std::string kind_;
  std::map<std::string, std::string> owner_;  // label -> source name or reason
};

// A milli-device count as an exact Kubernetes quantity: 2000 -> "2",
// 1500 -> "1500m", 0 -> "0". `milli` must not be negative.
std::string KubernetesQuantity(int64_t milli);

// The extended resource a flavor's devices are requested by, from its model:
// `tpu...` -> google.com/tpu, AMD Instinct and Radeon models (MI..., ...) ->
// amd.com/gpu, anything else nvidia.com/gpu. `overrides` (flavor name ->
// resource) wins; an override that is not a Kubernetes resource name is
// INVALID_ARGUMENT naming the flavor.
absl::StatusOr<std::string> AcceleratorResource(const policy::Flavor& flavor,
                                                const std::map<std::string, std::string>& overrides);

}  // namespace fleetcap::exports
