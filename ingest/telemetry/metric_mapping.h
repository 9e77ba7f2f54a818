#pragma once
// The mapping from exporters' metric and label names to canonical fields
// (canonical.h), read from YAML. The built-in default (default_mapping.yaml)
// knows dcgm-exporter, GKE's TPU metrics and AMD's device-metrics-exporter.

#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "ingest/telemetry/canonical.h"

namespace fleetcap::telemetry {

struct MetricRule {
  Field field = Field::kUtil;
  double scale = 1;
  bool counter = false;
};

struct MetricMapping {
  std::unordered_map<std::string, MetricRule> metrics;
  // Canonical label -> exporter label names in order of preference.
  std::vector<std::string> device, device_index, node, model, namespace_, pod, mig_profile, mig_instance;

  const MetricRule* Find(const std::string& metric) const {
    auto it = metrics.find(metric);
    return it == metrics.end() ? nullptr : &it->second;
  }
};

// Parses mapping YAML; errors name `source` and the offending key.
absl::StatusOr<MetricMapping> ParseMetricMapping(const std::string& yaml, const std::string& source);
absl::StatusOr<MetricMapping> LoadMetricMapping(const std::string& path);

// The built-in default_mapping.yaml.
const std::string& DefaultMappingYaml();
const MetricMapping& DefaultMetricMapping();

}  // namespace fleetcap::telemetry
