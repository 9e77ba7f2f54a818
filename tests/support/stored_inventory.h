#pragma once
// The inventory rows a test finds stored (nodes, devices, pods, holds,
// pending demand, namespace labels), as typed rows. What InventoryReader
// answers (per model at an instant) is asked there, and a test writes its
// inventory through LiveInventoryRepository::Apply; these are for the
// questions no interface answers: which pod, which hold, when it ended.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "tests/support/rows_where.h"

namespace fleetcap::testing {

struct StoredNode {
  std::string cluster, node, pool;
  std::string accelerator_topology;
  absl::Time in_service_from;
  std::optional<absl::Time> in_service_to;
};

struct StoredDevice {
  std::string cluster, device_id, node;
  int device_index = 0;
  std::string model;
  absl::Time in_service_from;
  std::optional<absl::Time> in_service_to;
};

struct StoredPod {
  std::string cluster, pod_uid, namespace_, name, team, workload_kind, workload_name;
  std::string phase;
  absl::Time created_at;
  std::optional<absl::Time> scheduled_at, deleted_at;
  int64_t requested_milli = 0;
  bool unplaced = false;
  std::string node;
};

struct StoredHold {
  std::string cluster, pod_uid, device_id;
  int milli = 0;
  absl::Time held_from;
  std::optional<absl::Time> held_to;
};

struct StoredPendingDemand {
  std::string cluster, pod_uid, resource_name, model;
  int64_t requested_milli = 0;
  absl::Time pending_from;
  std::optional<absl::Time> pending_to;
};

struct StoredWorkload {
  std::string cluster, namespace_, kind, name, team;
};

struct StoredNamespaceLabel {
  std::string cluster, namespace_, source, key, value;
};

// Every cluster's rows of each table, ordered by the table's key.
std::vector<StoredNode> StoredNodes(pqxx::connection& conn);
std::vector<StoredDevice> StoredDevices(pqxx::connection& conn);
std::vector<StoredPod> StoredPods(pqxx::connection& conn);
std::vector<StoredHold> StoredHolds(pqxx::connection& conn);
std::vector<StoredPendingDemand> StoredPendingDemands(pqxx::connection& conn);
std::vector<StoredNamespaceLabel> StoredNamespaceLabels(pqxx::connection& conn);
std::vector<StoredWorkload> StoredWorkloads(pqxx::connection& conn);
// The clusters the store knows, ordered.
std::vector<std::string> StoredClusters(pqxx::connection& conn);

}  // namespace fleetcap::testing
