#include "ingest/k8s/metrics.h"

namespace fleetcap::k8s {
namespace {

prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& r, const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(r);
}

}  // namespace

K8sMetrics::K8sMetrics(prometheus::Registry& r)
    : objects(CounterFamily(r, "fleetcap_ingest_k8s_list_objects_total", "Objects read from list responses, by kind")),
      events(CounterFamily(r, "fleetcap_ingest_k8s_watch_events_total", "Watch events processed, by kind and type")),
      relists(
          CounterFamily(r, "fleetcap_ingest_k8s_relists_total", "Full lists (initial and after 410 Gone), by kind")),
      watch_restarts(
          CounterFamily(r, "fleetcap_ingest_k8s_watch_restarts_total", "Watches started again, by kind and reason")),
      decode_errors(CounterFamily(r, "fleetcap_ingest_k8s_decode_errors_total",
                                  "Objects or events that could not be decoded and were skipped, by kind")),
      quarantined(CounterFamily(r, "fleetcap_ingest_k8s_quarantined_total",
                                "Objects and inventory records set aside in the quarantine, by reason")),
      request_errors(CounterFamily(r, "fleetcap_ingest_k8s_request_errors_total",
                                   "API requests that failed (disconnect, timeout, 5xx) and were retried")
                         .Add({})),
      store_writes(CounterFamily(r, "fleetcap_ingest_k8s_store_writes_total", "Inventory batches written").Add({})),
      store_write_errors(CounterFamily(r, "fleetcap_ingest_k8s_store_write_errors_total",
                                       "Inventory batches that failed to write (kept and retried, or split "
                                       "to set aside the records the store refused)")
                             .Add({})),
      overcommitted(CounterFamily(r, "fleetcap_ingest_k8s_overcommitted_holds_total",
                                  "Holds placed on a device that had no room left")
                        .Add({})),
      unplaced_milli(CounterFamily(r, "fleetcap_ingest_k8s_unplaced_milli_total",
                                   "Milli-devices pods asked for beyond their node's devices")
                         .Add({})),
      pods_on_unknown_nodes(CounterFamily(r, "fleetcap_ingest_k8s_pods_on_unknown_nodes_total",
                                          "Pods bound to a node not (yet) seen; their holds wait for it")
                                .Add({})),
      token_reloads(CounterFamily(r, "fleetcap_ingest_k8s_token_reloads_total",
                                  "Times the bearer token file was read and had changed")
                        .Add({})),
      last_sync(prometheus::BuildGauge()
                    .Name("fleetcap_ingest_k8s_last_sync_timestamp_seconds")
                    .Help("When every kind was last completely listed and stored")
                    .Register(r)
                    .Add({})),
      pods_tracked(prometheus::BuildGauge()
                       .Name("fleetcap_ingest_k8s_pods_tracked")
                       .Help("Live pods asking for accelerators")
                       .Register(r)
                       .Add({})) {}

}  // namespace fleetcap::k8s
