#pragma once
// fleetcap-ingest k8s as a library: one ListWatcher per kind (namespaces, the
// five controller kinds, nodes, then pods once the rest are listed), each on
// its own thread, decoding what it reads and queueing it; one thread applies
// the queue to the Reconciler in order and writes a batch every
// flush_interval (or sooner when many changes wait). A write that fails for
// an outage is kept and tried again; nothing observed is dropped.
//
// An object that cannot be used (it does not decode, or its quantities
// overflow the milli-device arithmetic) is set aside in the quarantine with
// its reason and counted; what the store has of it stays as it was last
// stored: a list that shows it does not close it. Deleted, it ends when the
// deletion is seen.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "common/clock.h"
#include "ingest/k8s/connection.h"
#include "ingest/k8s/list_watch.h"
#include "ingest/k8s/metrics.h"
#include "ingest/k8s/reconciler.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::k8s {

struct K8sIngestOptions {
  KubeConnection connection;
  ReconcilerOptions reconciler;
  ListWatchOptions list_watch;
  absl::Duration token_reread = absl::Minutes(1);
  absl::Duration flush_interval = absl::Milliseconds(250);
  size_t flush_at = 50000;  // pending changes that force a write
  absl::Duration policy_refresh = absl::Minutes(1);
  bool exit_after_sync = false;  // stop once everything is listed and stored
  size_t queue_limit = 20000;    // decoded objects waiting; readers wait beyond it
  // Makes each watcher's HTTP client, which aborts once `cancel` is true;
  // unset: libcurl with connection.tls.
  std::function<std::unique_ptr<HttpClient>(const std::atomic<bool>* cancel)> new_http_client;
};

class K8sIngest : public ResourceSink {
 public:
  // `repo` and `clock` must outlive it; `metrics` may be null.
  K8sIngest(K8sIngestOptions options, store::LiveInventoryRepository* repo, K8sMetrics* metrics, const Clock* clock);

  // Runs until *stop is true (or, with exit_after_sync, the first complete
  // sync is stored). `on_synced` runs once, when the first complete sync is
  // stored. Errors: the store could not be read at start.
  absl::Status Run(std::atomic<bool>* stop, const std::function<void()>& on_synced);

 private:
  struct Item {
    enum Op { kListStarted, kObject, kDeleted, kListEnded, kUnusable };
    Item(Op o, std::string k, absl::Time at) : op(o), kind(std::move(k)), observed(at) {}

    Op op;
    std::string kind;
    std::variant<std::monostate, NamespaceObject, ControllerObject, NodeObject, PodObject> object;
    absl::Time observed;
    // kUnusable: the object's key ("" when it cannot be read), whether it
    // was deleted, the record to set aside and its reason label.
    std::string key;
    bool deleted = false;
    store::QuarantineRecord unusable;
    std::string reason;
  };

  // ResourceSink, called from watcher threads.
  void ListStarted(const std::string& kind) override;
  void Object(const std::string& kind, const nlohmann::json& object, bool deleted) override;
  void ListEnded(const std::string& kind) override;
  void Push(Item item);

  // Run's steps, on the consumer thread.
  void StartWatching(const WatchedResource& resource);
  std::deque<Item> TakeQueued();
  void StartPodsWhenReady();
  void FlushWhenDue(absl::Duration now, bool synced);
  bool RecordSynced(const std::function<void()>& on_synced);
  void RefreshPolicyWhenDue(absl::Duration now);
  void CountTokenReloads();
  absl::Status StopWatching();

  void Apply(Item& item);
  void ApplyUnusable(Item& item);
  bool FlushNow();

  K8sIngestOptions options_;
  store::LiveInventoryRepository* repo_;
  K8sMetrics* metrics_;
  const Clock* clock_;
  Reconciler reconciler_;
  DecodeOptions decode_;
  std::atomic<bool> stopping_{false};

  std::mutex mu_;
  std::condition_variable ready_, space_;
  std::deque<Item> queue_;  // guarded by mu_

  // The watchers, each on its thread, and what they share.
  std::unique_ptr<TokenSource> tokens_;
  std::vector<std::unique_ptr<HttpClient>> clients_;
  std::vector<std::unique_ptr<ListWatcher>> watchers_;
  std::vector<std::thread> threads_;
  uint64_t seed_ = 0;  // of the next watcher's jitter

  // Consumer-thread state.
  bool pods_started_ = false;
  absl::Duration nodes_known_at_ = absl::InfiniteDuration();  // on clock_->Monotonic()
  bool announced_ = false;                                    // the first complete sync
  absl::Duration last_flush_;
  absl::Duration next_flush_try_ = -absl::InfiniteDuration();
  absl::Duration next_policy_;
  int tokens_reloaded_ = 0;
  std::map<std::string, std::set<std::string>> listing_;  // kind -> keys of the list in progress
  std::set<std::string> synced_kinds_;
  // kind/key -> why the object was set aside, while it stays unusable: an
  // object is set aside once per reason, however often a relist or its
  // owner's updates show it again.
  std::map<std::string, std::string> set_aside_;
  bool flush_failing_ = false;
};

}  // namespace fleetcap::k8s
