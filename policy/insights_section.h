#pragma once
// The policy's `insights` options and `budgets` (docs/policy.md, docs/insights.md):
// read from YAML into the document, and checked against the org tree.

#include <vector>

#include "policy/policy_document.h"
#include "policy/policy_parser.h"
#include "policy/yaml_reader.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::policy {

void ReadInsights(YamlReader& r, const YAML::Node& node, PolicyDocument& doc);
void ReadBudgets(YamlReader& r, const YAML::Node& node, PolicyDocument& doc);

// Each budget's team is defined, and a team has one budget a month.
void CheckBudgets(const PolicyDocument& doc, std::vector<PolicyError>& errors);

}  // namespace fleetcap::policy
