#pragma once
// Checks a manifest against a CustomResourceDefinition's openAPIV3Schema, as
// the Kubernetes API server would before storing it, for the subset of
// OpenAPI v3 that CRD schemas use: type (with x-kubernetes-int-or-string and
// anyOf), properties, required, additionalProperties, enum, pattern,
// min/maxLength, min/maxItems, maxProperties, minimum, and the uniqueness of
// x-kubernetes-list-type map and set lists. A field the schema does not
// declare is a problem here (the API server would silently drop it).
// Not checked: x-kubernetes-validations (CEL rules; the exports check the
// ones that concern them themselves, e.g. CheckKueueRules), format, and
// metadata (the schemas leave it to the API server: names are checked by the
// tests).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::testing {

// The openAPIV3Schema of `version` in the CRD file `path`; NOT_FOUND when the
// file does not serve that version.
absl::StatusOr<YAML::Node> CrdSchema(const std::string& path, const std::string& version);

// Every problem of `value` against `schema`, each "path: what is wrong"
// (empty: it validates).
std::vector<std::string> SchemaProblems(const YAML::Node& schema, const YAML::Node& value);

}  // namespace fleetcap::testing
