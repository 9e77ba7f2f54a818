#pragma once
// The nodes of a PostgreSQL plan, for the tests that hold a read's plan to
// its indexes (tests/store/*_plans_test.cc).

#include <set>
#include <string>

#include "nlohmann/json.hpp"

namespace fleetcap::testing {

namespace query_plan_internal {
inline void Collect(const nlohmann::json& node, std::multiset<std::string>* out) {
  std::string line = node.value("Node Type", "");
  if (node.contains("Relation Name")) line += " on " + node["Relation Name"].get<std::string>();
  if (node.contains("Index Name")) line += " (" + node["Index Name"].get<std::string>() + ")";
  out->insert(line);
  if (node.contains("Plans")) {
    for (const auto& child : node["Plans"]) Collect(child, out);
  }
}
}  // namespace query_plan_internal

// Each node of the plan `explain_json` (the one value EXPLAIN (FORMAT JSON)
// returns) as "Node Type on relation (index)", e.g.
// "Index Scan on holds (holds_open)".
inline std::multiset<std::string> PlanNodes(const std::string& explain_json) {
  std::multiset<std::string> nodes;
  query_plan_internal::Collect(nlohmann::json::parse(explain_json)[0]["Plan"], &nodes);
  return nodes;
}

}  // namespace fleetcap::testing
