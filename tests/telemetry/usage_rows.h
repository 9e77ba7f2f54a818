#pragma once
// Reads usage_minute back as comparable text rows, for telemetry tests.

#include <string>
#include <vector>

#include "pqxx/pqxx"

namespace fleetcap::testing {

// Every usage_minute row of `cluster`, one line each, ordered by key; floats
// printed exactly (%.17g), NULL as "-".
inline std::vector<std::string> UsageRows(pqxx::connection& conn, const std::string& cluster) {
  pqxx::nontransaction txn(conn);
  std::vector<std::string> rows;
  for (const auto& r :
       txn.exec_params("SELECT device_id, pod_uid, extract(epoch FROM minute)::bigint, node, model, namespace, pod,"
                       " util_mean, util_max, memory_used_bytes, memory_total_bytes, power_watts, energy_joules,"
                       " sm_active_mean, tensor_active_mean, dram_active_mean, samples"
                       " FROM usage_minute WHERE cluster = $1 ORDER BY device_id, pod_uid, minute",
                       cluster)) {
    std::string line;
    for (const auto& field : r) {
      if (!line.empty()) line += "|";
      if (field.is_null()) {
        line += "-";
      } else if (field.type() == 701) {  // float8: exactly
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", field.as<double>());
        line += buf;
      } else {
        line += field.c_str();
      }
    }
    rows.push_back(line);
  }
  return rows;
}

}  // namespace fleetcap::testing
