#pragma once
// The Kubernetes ingest's own metrics (fleetcap_ingest_k8s_*), built once in
// the caller's registry and kept as references.

#include <memory>
#include <string>

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace fleetcap::k8s {

struct K8sMetrics {
  explicit K8sMetrics(prometheus::Registry& registry);

  // Objects read from lists, by kind.
  prometheus::Counter& Objects(const std::string& kind) { return objects.Add({{"kind", kind}}); }
  // Watch events, by kind and type (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR).
  prometheus::Counter& Events(const std::string& kind, const std::string& type) {
    return events.Add({{"kind", kind}, {"type", type}});
  }
  prometheus::Counter& Relists(const std::string& kind, const std::string& reason) {
    return relists.Add({{"kind", kind}, {"reason", reason}});
  }
  prometheus::Counter& WatchRestarts(const std::string& kind, const std::string& reason) {
    return watch_restarts.Add({{"kind", kind}, {"reason", reason}});
  }
  prometheus::Counter& DecodeErrors(const std::string& kind) { return decode_errors.Add({{"kind", kind}}); }
  // Objects and records set aside in the quarantine, by reason: undecodable,
  // overflow (quantity arithmetic), invalid (refused before writing),
  // refused (by the store).
  prometheus::Counter& Quarantined(const std::string& reason) { return quarantined.Add({{"reason", reason}}); }

  prometheus::Family<prometheus::Counter>& objects;
  prometheus::Family<prometheus::Counter>& events;
  prometheus::Family<prometheus::Counter>& relists;
  prometheus::Family<prometheus::Counter>& watch_restarts;
  prometheus::Family<prometheus::Counter>& decode_errors;
  prometheus::Family<prometheus::Counter>& quarantined;
  prometheus::Counter& request_errors;      // failed HTTP requests (retried)
  prometheus::Counter& store_writes;        // batches applied
  prometheus::Counter& store_write_errors;  // batches that failed (retried, or split when a record was refused)
  prometheus::Counter& overcommitted;       // holds placed on a device without room
  prometheus::Counter& unplaced_milli;      // milli-devices asked beyond a node's devices
  prometheus::Counter& pods_on_unknown_nodes;
  prometheus::Counter& token_reloads;
  prometheus::Gauge& last_sync;     // unix seconds of the last complete sync of every kind
  prometheus::Gauge& pods_tracked;  // accelerator pods alive
};

}  // namespace fleetcap::k8s
