#pragma once
// List then watch one kind of object, the way client-go's reflector does:
//
//   * list in pages (limit/continue); a 410 on a continue token (expired)
//     starts the list again;
//   * watch from the list's resourceVersion with allowWatchBookmarks=true and
//     a randomised timeoutSeconds, following the resourceVersion of every
//     event and bookmark;
//   * a 410 Gone, as the watch's HTTP status or as an ERROR event in the
//     stream, leads to a new list (which reconciles: the sink learns what the
//     list no longer has);
//   * disconnects, timeouts, 5xx and refused tokens are retried with
//     exponential backoff and jitter; a watch that ends at once also waits,
//     so a misbehaving server never gets a tight loop;
//   * a line that is not JSON is counted and logged once; the rest of the
//     stream is still used.
//
// Run() returns when *stop becomes true.

#include <atomic>
#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/k8s/connection.h"
#include "ingest/k8s/http_client.h"
#include "ingest/k8s/metrics.h"
#include "nlohmann/json.hpp"

namespace fleetcap::k8s {

struct WatchedResource {
  std::string kind;  // "Pod", "Node", "ReplicaSet", ...
  std::string path;  // the collection: "/api/v1/pods", "/apis/apps/v1/replicasets"
};

// Receives what a ListWatcher reads. Called from the watcher's thread.
class ResourceSink {
 public:
  virtual ~ResourceSink() = default;
  virtual void ListStarted(const std::string& kind) = 0;
  // A list item, or an ADDED / MODIFIED (deleted = false) or DELETED event.
  virtual void Object(const std::string& kind, const nlohmann::json& object, bool deleted) = 0;
  // The list begun by the last ListStarted was delivered completely.
  virtual void ListEnded(const std::string& kind) = 0;
};

struct ListWatchOptions {
  int64_t page_size = 500;
  absl::Duration min_watch_timeout = absl::Minutes(5);   // timeoutSeconds is drawn from [min, 2 min)
  absl::Duration watch_idle_timeout = absl::Minutes(3);  // no byte for this long: reconnect
  absl::Duration list_timeout = absl::Minutes(2);        // one page
  absl::Duration initial_backoff = absl::Milliseconds(200);
  absl::Duration max_backoff = absl::Seconds(30);
  absl::Duration min_healthy_watch = absl::Seconds(2);  // a watch shorter than this backs off
};

class ListWatcher {
 public:
  ListWatcher(WatchedResource resource, ListWatchOptions options, std::string server, HttpClient* http,
              TokenSource* tokens, ResourceSink* sink, K8sMetrics* metrics, const std::atomic<bool>* stop,
              uint64_t seed, const Clock* clock);
  void Run();

 private:
  enum class Outcome { kOk, kGone, kError, kUnauthorized, kStopped };
  Outcome List();
  Outcome Watch();
  // One line of the watch stream: false ends the watch, with `outcome` saying why.
  bool HandleWatchLine(absl::string_view line, Outcome& outcome);
  void Backoff();
  std::vector<std::string> Headers();

  WatchedResource resource_;
  ListWatchOptions options_;
  std::string server_;
  HttpClient* http_;
  TokenSource* tokens_;
  ResourceSink* sink_;
  K8sMetrics* metrics_;
  const std::atomic<bool>* stop_;
  const Clock* clock_;
  std::mt19937_64 rng_;
  std::string resource_version_;
  int failures_ = 0;
  bool logged_malformed_ = false;
};

}  // namespace fleetcap::k8s
