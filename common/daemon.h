#pragma once
// The start-up every fleetcap daemon shares, so that a command is only its
// flags, its components and its work. Start does, in order: logging at
// --log-level; SIGTERM and SIGINT blocked in every thread and watched
// (stop_on_signal); the schema check (migrating first with --migrate); the
// PostgreSQL pool; the process's metrics registry served at --metrics-listen,
// with the probes /healthz and /readyz on the same listener (ready while the
// store is reachable and its schema current: common/readiness.h).

#include <atomic>
#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/daemon_flags.h"
#include "common/metrics_server.h"
#include "common/pg_pool.h"
#include "common/readiness.h"
#include "prometheus/registry.h"

namespace fleetcap {

class Daemon {
 public:
  // OK when the database behind `conn` has this build's schema, after applying
  // pending migrations when `migrate` (store::CheckSchema). Given by the caller
  // because common/ does not know the schema.
  using SchemaCheck = std::function<absl::Status(PgConnection& conn, bool migrate)>;

  // Call before any thread starts: threads started later inherit the blocked
  // signals, so only the daemon's watcher receives them.
  static absl::StatusOr<std::unique_ptr<Daemon>> Start(const DaemonOptions& options, const SchemaCheck& check_schema);
  ~Daemon();

  PgPool* pool() const { return pool_.get(); }
  // Where components register their metric families.
  const std::shared_ptr<prometheus::Registry>& registry() const { return registry_; }
  int metrics_port() const { return metrics_server_ ? metrics_server_->port() : 0; }

  // Becomes true once SIGTERM or SIGINT arrives, for loops that poll it.
  // Only with stop_on_signal, as is WaitForStop.
  std::atomic<bool>* stop_requested();
  // Blocks until SIGTERM or SIGINT arrives; answers its number.
  int WaitForStop();

 private:
  struct StopWatch;

  Daemon() = default;
  void WatchStopSignals();

  std::shared_ptr<StopWatch> stop_;
  std::unique_ptr<PgPool> pool_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::unique_ptr<Readiness> readiness_;  // outlives the server that asks it
  std::unique_ptr<MetricsServer> metrics_server_;
};

}  // namespace fleetcap
