#pragma once
// `fleetcap-ingest k8s --cluster NAME ...`: keeps the store's inventory of one
// Kubernetes cluster exact, from its API (list then watch).

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "ingest/k8s/connection.h"
#include "ingest/k8s/k8s_ingest.h"

namespace fleetcap::ingest {

struct K8sOptions {
  DaemonOptions daemon;
  // How to reach the API server, as given; RunK8s resolves it (it reads files).
  k8s::ConnectionFlags connection;
  // Everything else the ingest needs; its `connection` is left to RunK8s.
  k8s::K8sIngestOptions ingest;
};

// The options in `args` (the arguments after the command's name), or
// INVALID_ARGUMENT naming the flag. Pure: `env` is the environment.
absl::StatusOr<K8sOptions> ParseK8sFlags(const std::vector<std::string>& args, const Environment& env);

// Follows the cluster until SIGTERM (or, with --exit-after-sync, its first sync).
absl::Status RunK8s(const K8sOptions& options);

// Parses and runs; returns the exit code.
int RunK8sCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest
