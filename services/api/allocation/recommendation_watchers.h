#pragma once
// AllocationService.WatchRecommendations without the transport: each watcher
// polls the newest run's id on the injected clock and sends the set the
// caller may read as soon as there is a run, then again for each newer run
// that changes what the caller sees. Polling one small indexed read per
// watcher per interval keeps the store free of notifications and the
// optimizer free of knowing who listens.
//
// Each watch holds one gRPC server thread while it runs, so the number at a
// time is bounded, in all and per token: past `max_watchers`, or past
// `max_watchers_per_token` of the caller's token, a new watch is refused at
// once with RESOURCE_EXHAUSTED (the client retries later, the running ones
// are not disturbed), so that one token cannot take every thread. Stop() ends every watch, present and future, with OK;
// the server calls it before it shuts gRPC down, so a shutdown never waits for a stream.

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "fleetcap/v1/allocation.pb.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"
#include "services/api/allocation/recommendations_query.h"
#include "services/api/auth.h"

namespace fleetcap::api {

struct WatchLimits {
  // How often a watcher asks the store for the newest run's id (and notices
  // that its client went away).
  absl::Duration poll_interval = absl::Seconds(1);
  // Watches served at once.
  int max_watchers = 64;
  // Watches one token may hold at once (--max-watches-per-token): a
  // dashboard, a CLI and a scheduler's controller need a few each.
  int max_watchers_per_token = 8;
};

class RecommendationWatchers {
 public:
  // `query`, `clock` and `registry` must outlive this. Registers
  // fleetcap_api_recommendation_watchers (running now) and
  // fleetcap_api_recommendation_watchers_refused_total{limit} (past
  // max_watchers: "server"; past max_watchers_per_token: "token").
  RecommendationWatchers(const RecommendationsQuery* query, const Clock* clock, prometheus::Registry& registry,
                         WatchLimits limits = {});

  // What one watch needs from its transport.
  struct Stream {
    // The caller's scope now: authenticated again before each set is sent,
    // so a token revoked or a subtree changed by a new policy applies to a
    // running stream too. An error ends the watch with it.
    std::function<absl::StatusOr<Scope>()> scope;
    // Sends one set; false when the client is gone (the watch ends with OK).
    std::function<bool(const v1::RecommendationSet&)> send;
    // Whether the client cancelled.
    std::function<bool()> cancelled;
    // Called once the watch has its place, before it first looks for a run:
    // the transport tells the client the stream is open.
    std::function<void()> opened;
  };

  // Runs one watch of `team` ("" for every team the caller may read) until
  // the client cancels or goes away or Stop() (OK), or the scope or the
  // store fails (that error). INVALID_ARGUMENT or PERMISSION_DENIED at once
  // for a team the caller may not ask for (RecommendationsQuery::Select);
  // RESOURCE_EXHAUSTED at once past max_watchers or, for the caller's token
  // (Scope::token_id), past max_watchers_per_token.
  absl::Status Watch(const Scope& scope, const std::string& team, const Stream& stream);

  // Ends every watch with OK and refuses new ones the same way.
  void Stop();

  // Watches running now.
  int active() const;

 private:
  // Until the next poll; true once stopped.
  bool WaitForNextPoll();

  const RecommendationsQuery* query_;
  const Clock* clock_;
  const WatchLimits limits_;
  prometheus::Gauge& active_gauge_;
  prometheus::Family<prometheus::Counter>& refused_family_;
  prometheus::Counter& refused_;
  prometheus::Counter& refused_for_token_;
  mutable std::mutex mu_;
  std::condition_variable stopped_cv_;
  bool stopped_ = false;                  // guarded by mu_
  int active_ = 0;                        // guarded by mu_
  std::map<std::string, int> per_token_;  // token id -> its watches running; guarded by mu_
};

}  // namespace fleetcap::api
