#include "common/daemon.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/logging.h"
#include "common/signals.h"
#include "common/status_macros.h"

namespace fleetcap {

// Shared with the watcher thread, which never ends before the process does.
struct Daemon::StopWatch {
  std::atomic<bool> requested{false};
  std::mutex mu;
  std::condition_variable arrived;
  int signal = 0;  // guarded by mu
};

absl::StatusOr<std::unique_ptr<Daemon>> Daemon::Start(const DaemonOptions& options, const SchemaCheck& check_schema) {
  std::unique_ptr<Daemon> daemon(new Daemon());
  FLEETCAP_RETURN_IF_ERROR(InitLogging(options.log_level));
  if (options.stop_on_signal) daemon->WatchStopSignals();
  FLEETCAP_RETURN_IF_ERROR(RequireDb(options));
  {
    FLEETCAP_ASSIGN_OR_RETURN(auto conn, PgConnect(options.db));
    FLEETCAP_RETURN_IF_ERROR(check_schema(*conn, options.migrate));
  }
  FLEETCAP_ASSIGN_OR_RETURN(daemon->pool_, PgPool::Open(options.db, options.db_connections, options.db_limits));
  if (!options.metrics_listen.empty()) {
    daemon->readiness_ = std::make_unique<Readiness>(
        options.db, [check_schema](PgConnection& conn) { return check_schema(conn, /*migrate=*/false); },
        options.readiness_cache, options.db_limits.clock);
    FLEETCAP_ASSIGN_OR_RETURN(
        daemon->metrics_server_,
        MetricsServer::Start(
            options.metrics_listen, daemon->registry_,
            [readiness = daemon->readiness_.get()] { return readiness->Check(); }, options.db_limits.clock));
  }
  return daemon;
}

Daemon::~Daemon() = default;

void Daemon::WatchStopSignals() {
  BlockTerminationSignals();
  stop_ = std::make_shared<StopWatch>();
  // Detached: sigwait cannot be interrupted, and the state it writes is shared.
  std::thread([stop = stop_] {
    const int signal = WaitForTerminationSignal();
    std::lock_guard<std::mutex> lock(stop->mu);
    stop->signal = signal;
    stop->requested = true;
    stop->arrived.notify_all();
  }).detach();
}

std::atomic<bool>* Daemon::stop_requested() { return &stop_->requested; }

int Daemon::WaitForStop() {
  std::unique_lock<std::mutex> lock(stop_->mu);
  stop_->arrived.wait(lock, [this] { return stop_->signal != 0; });
  return stop_->signal;
}

}  // namespace fleetcap
