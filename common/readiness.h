#pragma once
// A daemon's readiness (/readyz, common/metrics_server.h): its store is
// reachable and its schema is this build's. The answer is kept for a few
// seconds, so however often an orchestrator probes, the database sees at most
// one small query per interval, on one connection of the probe's own (never
// one the daemon's work is waiting for).

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/pg_pool.h"

namespace fleetcap {

class Readiness {
 public:
  // OK when the database behind `conn` has this build's schema (never migrates).
  using SchemaCheck = std::function<absl::Status(PgConnection& conn)>;

  Readiness(std::string db, SchemaCheck check_schema, absl::Duration cache_for, const Clock* clock)
      : db_(std::move(db)), check_schema_(std::move(check_schema)), cache_for_(cache_for), clock_(clock) {}

  // OK, or UNAVAILABLE / FAILED_PRECONDITION with the reason. Answered from the
  // last check while it is younger than `cache_for`, and while another caller
  // is checking (a hung database holds one caller, not every probe) unless that
  // check has run longer than kStuckAfter: then the store is not answering.
  absl::Status Check();

  static constexpr absl::Duration kStuckAfter = absl::Seconds(10);

 private:
  absl::Status CheckNow();  // holds check_mu_

  const std::string db_;
  const SchemaCheck check_schema_;
  const absl::Duration cache_for_;
  const Clock* clock_;

  std::mutex check_mu_;                 // one check at a time
  std::unique_ptr<PgConnection> conn_;  // guarded by check_mu_

  std::mutex answer_mu_;
  bool answered_ = false;         // guarded by answer_mu_
  absl::Status answer_;           // guarded by answer_mu_
  absl::Duration answered_at_;    // guarded by answer_mu_; clock_->Monotonic()
  absl::Duration check_started_;  // guarded by answer_mu_; of the check running, if any
};

}  // namespace fleetcap
