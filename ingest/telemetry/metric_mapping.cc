#include "ingest/telemetry/metric_mapping.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "common/file_read.h"
#include "common/status_macros.h"
#include "common/yaml_nesting.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::telemetry {

extern const char kDefaultMappingYaml[];  // generated from default_mapping.yaml

namespace {

absl::Status ReadLabelList(const YAML::Node& labels, const char* name, const std::string& source,
                           std::vector<std::string>* out) {
  const YAML::Node node = labels[name];
  if (!node) return absl::OkStatus();  // optional: an empty list matches nothing
  if (!node.IsSequence()) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": labels.", name, " must be a list of label names"));
  }
  out->clear();
  for (const auto& item : node) out->push_back(item.as<std::string>());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MetricMapping> ParseMetricMapping(const std::string& yaml, const std::string& source) {
  MetricMapping mapping;
  FLEETCAP_RETURN_IF_ERROR(NestingStatus(source, CheckYamlNesting(yaml)));
  try {
    const YAML::Node root = YAML::Load(yaml);
    if (!root.IsMap()) return absl::InvalidArgumentError(absl::StrCat(source, ": not a YAML mapping"));
    const YAML::Node metrics = root["metrics"];
    if (!metrics || !metrics.IsMap() || metrics.size() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": metrics: missing or empty"));
    }
    for (const auto& entry : metrics) {
      const std::string name = entry.first.as<std::string>();
      const YAML::Node rule_node = entry.second;
      if (!rule_node.IsMap() || !rule_node["field"]) {
        return absl::InvalidArgumentError(absl::StrCat(source, ": metrics.", name, ": needs a field"));
      }
      MetricRule rule;
      const std::string field = rule_node["field"].as<std::string>();
      if (!ParseField(field, &rule.field)) {
        return absl::InvalidArgumentError(
            absl::StrCat(source, ": metrics.", name, ".field: \"", field, "\" is not a canonical field"));
      }
      if (rule_node["scale"]) rule.scale = rule_node["scale"].as<double>();
      if (!std::isfinite(rule.scale) || rule.scale <= 0) {
        return absl::InvalidArgumentError(absl::StrCat(source, ": metrics.", name, ".scale: must be > 0"));
      }
      if (rule_node["counter"]) rule.counter = rule_node["counter"].as<bool>();
      mapping.metrics[name] = rule;
    }
    const YAML::Node labels = root["labels"];
    if (!labels || !labels.IsMap()) return absl::InvalidArgumentError(absl::StrCat(source, ": labels: missing"));
    const std::pair<const char*, std::vector<std::string>*> lists[] = {{"device", &mapping.device},
                                                                       {"device_index", &mapping.device_index},
                                                                       {"node", &mapping.node},
                                                                       {"model", &mapping.model},
                                                                       {"namespace", &mapping.namespace_},
                                                                       {"pod", &mapping.pod},
                                                                       {"mig_profile", &mapping.mig_profile},
                                                                       {"mig_instance", &mapping.mig_instance}};
    for (const auto& [name, target] : lists) {
      FLEETCAP_RETURN_IF_ERROR(ReadLabelList(labels, name, source, target));
    }
    if (mapping.device.empty() && mapping.device_index.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": labels.device: give at least one label name"));
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": ", e.what()));
  }
  return mapping;
}

// A mapping is a few dozen lines; a file past this is not one.
constexpr size_t kMaxMetricMappingBytes = 1024 * 1024;

absl::StatusOr<MetricMapping> LoadMetricMapping(const std::string& path) {
  FLEETCAP_ASSIGN_OR_RETURN(std::string text, ReadWholeFile("--mapping", path, kMaxMetricMappingBytes));
  return ParseMetricMapping(text, path);
}

const std::string& DefaultMappingYaml() {
  static const auto* yaml = new std::string(kDefaultMappingYaml);
  return *yaml;
}

const MetricMapping& DefaultMetricMapping() {
  static const auto* mapping = [] {
    auto parsed = ParseMetricMapping(DefaultMappingYaml(), "default_mapping.yaml");
    // The default is built in and covered by a unit test; failing here is a build defect.
    if (!parsed.ok()) std::abort();
    return new MetricMapping(std::move(*parsed));
  }();
  return *mapping;
}

}  // namespace fleetcap::telemetry
