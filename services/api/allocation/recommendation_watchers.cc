#include "services/api/allocation/recommendation_watchers.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "google/protobuf/util/message_differencer.h"

namespace fleetcap::api {
namespace {

// What a caller sees of a run besides its id and time (its recommendations
// and its flavors' node labels), and the comparison with the run before it
// (which changes with every run): a newer run that
// leaves this unchanged is not sent again.
bool SameContent(const v1::RecommendationSet& a, const v1::RecommendationSet& b) {
  if (a.policy_version() != b.policy_version()) return false;
  if (a.recommendations_size() != b.recommendations_size()) return false;
  for (int i = 0; i < a.recommendations_size(); ++i) {
    v1::Recommendation x = a.recommendations(i), y = b.recommendations(i);
    x.clear_previous_recommended_milli();
    y.clear_previous_recommended_milli();
    if (!google::protobuf::util::MessageDifferencer::Equals(x, y)) return false;
  }
  if (a.flavor_node_labels_size() != b.flavor_node_labels_size()) return false;
  for (int i = 0; i < a.flavor_node_labels_size(); ++i) {
    if (!google::protobuf::util::MessageDifferencer::Equals(a.flavor_node_labels(i), b.flavor_node_labels(i))) {
      return false;
    }
  }
  return true;
}

prometheus::Family<prometheus::Counter>& RefusedWatchers(prometheus::Registry& registry) {
  return prometheus::BuildCounter()
      .Name("fleetcap_api_recommendation_watchers_refused_total")
      .Help(
          "WatchRecommendations streams refused: the server's (limit=server) or the token's (limit=token) most "
          "were running")
      .Register(registry);
}

}  // namespace

RecommendationWatchers::RecommendationWatchers(const RecommendationsQuery* query, const Clock* clock,
                                               prometheus::Registry& registry, WatchLimits limits)
    : query_(query),
      clock_(clock),
      limits_(limits),
      active_gauge_(prometheus::BuildGauge()
                        .Name("fleetcap_api_recommendation_watchers")
                        .Help("WatchRecommendations streams running now")
                        .Register(registry)
                        .Add({})),
      refused_family_(RefusedWatchers(registry)),
      refused_(refused_family_.Add({{"limit", "server"}})),
      refused_for_token_(refused_family_.Add({{"limit", "token"}})) {}

absl::Status RecommendationWatchers::Watch(const Scope& scope, const std::string& team, const Stream& stream) {
  // A bad team is refused before the watch takes a place.
  FLEETCAP_RETURN_IF_ERROR(query_->Select(scope, team).status());
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) return absl::OkStatus();
    if (active_ >= limits_.max_watchers) {
      refused_.Increment();
      return absl::ResourceExhaustedError(absl::StrCat("WatchRecommendations: already ", active_,
                                                       " watchers, the most this server serves; retry later"));
    }
    int& mine = per_token_[scope.token_id];
    if (mine >= limits_.max_watchers_per_token) {
      refused_for_token_.Increment();
      return absl::ResourceExhaustedError(absl::StrCat("WatchRecommendations: this token already holds ", mine,
                                                       " watches, the most one token may; retry later"));
    }
    ++mine;
    ++active_;
    active_gauge_.Increment();
  }
  struct Release {
    RecommendationWatchers* self;
    const std::string& token_id;
    ~Release() {
      std::lock_guard<std::mutex> lock(self->mu_);
      --self->active_;
      // Tokens come and go: an entry lives only while it counts watches.
      if (--self->per_token_[token_id] == 0) self->per_token_.erase(token_id);
      self->active_gauge_.Decrement();
    }
  } release{this, scope.token_id};
  if (stream.opened) stream.opened();

  std::optional<int64_t> seen_id;             // the newest run looked at
  std::optional<v1::RecommendationSet> sent;  // the last set sent
  while (!stream.cancelled()) {
    FLEETCAP_ASSIGN_OR_RETURN(const std::optional<int64_t> latest, query_->LatestRunId());
    if (latest.has_value() && latest != seen_id) {
      FLEETCAP_ASSIGN_OR_RETURN(const Scope now, stream.scope());
      FLEETCAP_ASSIGN_OR_RETURN(const TeamSelection teams, query_->Select(now, team));
      auto set = query_->Latest(teams);
      if (set.ok()) {
        FLEETCAP_RETURN_IF_ERROR(query_->AddNodeLabels(now, *set));
      }
      if (set.ok()) {
        seen_id = set->run_id();
        if (!sent.has_value() || !SameContent(*sent, *set)) {
          if (!stream.send(*set)) return absl::OkStatus();
          sent = std::move(*set);
        }
      } else if (!absl::IsNotFound(set.status())) {
        return set.status();
      }
    }
    if (WaitForNextPoll()) break;
  }
  return absl::OkStatus();
}

bool RecommendationWatchers::WaitForNextPoll() {
  std::unique_lock<std::mutex> lock(mu_);
  return clock_->WaitFor(lock, stopped_cv_, limits_.poll_interval, [this] { return stopped_; });
}

void RecommendationWatchers::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  stopped_cv_.notify_all();
}

int RecommendationWatchers::active() const {
  std::lock_guard<std::mutex> lock(mu_);
  return active_;
}

}  // namespace fleetcap::api
