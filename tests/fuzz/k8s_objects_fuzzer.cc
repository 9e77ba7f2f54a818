// Fuzz target: one Kubernetes object as JSON, as a list page item or a watch
// event's object arrives from the API server. Tenants write most of a pod
// (labels, annotations, resources, names), so every decoder must turn any
// JSON into an object or an error, never an exception or a crash. The text is
// checked and parsed the way list_watch.cc does it (its nesting bounded, no
// exceptions); every kind's
// decoder then reads the same value. What is derived from a decoded object
// (its effective requests, its demand with and without a node, the node's
// devices) runs too: that is where quantities become milli-devices.

#include <cstdint>
#include <string>

#include "common/json_nesting.h"
#include "ingest/k8s/accelerators.h"
#include "ingest/k8s/objects.h"
#include "nlohmann/json.hpp"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using namespace fleetcap::k8s;
  // As list_watch.cc does: nothing deeper than the nesting limit reaches the parser.
  if (fleetcap::CheckJsonNesting(absl::string_view(reinterpret_cast<const char*>(data), size))) return 0;
  const nlohmann::json object = nlohmann::json::parse(data, data + size, nullptr, false);
  if (object.is_discarded()) return 0;
  // The keys fleetcap-ingest keeps by default (ingest/commands/k8s_command.cc).
  static const DecodeOptions options = [] {
    DecodeOptions o;
    o.pod_labels = {"fleetcap.io/team"};
    o.pod_annotations = {"alibabacloud.com/gpu-milli", "alibabacloud.com/gpu-count", "alibabacloud.com/gpu-index"};
    o.namespace_labels = {"fleetcap.io/team"};
    o.namespace_annotations = {"fleetcap.io/team"};
    return o;
  }();
  static const AcceleratorConfig accelerators;
  const auto pod = DecodePod(object, options);
  const auto node = DecodeNode(object);
  if (node.ok()) (void)DescribeNode(*node, accelerators);
  // Demand arithmetic is only promised for what CheckDemandArithmetic passes;
  // the ingest quarantines the rest.
  if (pod.ok() && CheckDemandArithmetic(*pod).ok()) {
    (void)EffectiveRequests(*pod);
    if (DemandUnbound(*pod, accelerators).TotalMilli() < 0) __builtin_trap();
    if (node.ok() && DemandOn(*pod, DescribeNode(*node, accelerators), accelerators).TotalMilli() < 0) {
      __builtin_trap();
    }
  }
  (void)DecodeNamespace(object, options);
  (void)DecodeController(object, "ReplicaSet");
  (void)ResourceVersionOf(object);
  return 0;
}
