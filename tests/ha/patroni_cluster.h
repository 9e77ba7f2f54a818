#pragma once
// A two-node Patroni 3.0 cluster of PostgreSQL 15 with etcd 3.4 on loopback,
// for one test (tests/ha/patroni_cluster.sh does the work). Stopped, and its
// data removed, when destroyed, however the test ends.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tests/support/test_dir.h"

namespace fleetcap::testing {

class PatroniCluster {
 public:
  // Starts etcd and both nodes and waits for a primary with a streaming standby.
  static absl::StatusOr<std::unique_ptr<PatroniCluster>> Start();
  ~PatroniCluster();
  PatroniCluster(const PatroniCluster&) = delete;
  PatroniCluster& operator=(const PatroniCluster&) = delete;

  // The libpq multi-host URI of database `fleetcap` on both nodes with
  // target_session_attrs=read-write: clients find the primary themselves.
  const std::string& uri() const { return uri_; }
  // A URI of NODE alone (node1 or node2), plus `params` ("k=v&...").
  absl::StatusOr<std::string> NodeUri(const std::string& node, const std::string& params = "") const;

  // The primary's node name.
  absl::StatusOr<std::string> Primary() const;
  // SIGKILLs the primary's Patroni and postmaster; returns the node killed.
  absl::StatusOr<std::string> KillPrimary() const;
  // Waits until `node` is the primary and accepts writes.
  absl::Status WaitForPrimary(const std::string& node) const;
  // patronictl switchover to the standby; returns the new primary once it accepts writes.
  absl::StatusOr<std::string> Switchover() const;

 private:
  PatroniCluster() = default;
  absl::StatusOr<std::string> Script(const std::string& command, const std::string& node = "") const;

  TestDir dir_{"patroni"};  // the script's state; the data lives in a folder it names
  std::string uri_;
};

}  // namespace fleetcap::testing
