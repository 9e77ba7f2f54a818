#pragma once
// InsightsService.GetSpendChange as a transport-free operation: the two
// windows' chargeback sums read through the chargeback reader, split by the
// engine (optimizer/insights/spend_change.h) into drivers that add up to the
// change (docs/insights.md, "Why spend changed"). The gRPC method and
// `GET /v1/insights/changes` are thin adapters over it.
//
// The scope follows GetChargeback's: admins and planners read the fleet, a
// team (its subtree) or a namespace; a team token its own subtree only, never
// the `idle` or `unassigned` lines, and a namespace only within it.

#include <cstdint>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/heavy_reads.h"
#include "services/api/query_message.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

class SpendChangeQuery {
 public:
  // All must outlive the query; `heavy_reads` bounds the heavy reads running
  // at once (nullptr: no bound); `max_lines` bounds the sums read for each
  // window (tests lower it).
  SpendChangeQuery(const store::ChargebackReadRepository* lines, const ActivePolicyCache* policies,
                   HeavyReads* heavy_reads = nullptr, int64_t max_lines = kMaxChargebackLines)
      : lines_(lines), policies_(policies), heavy_reads_(heavy_reads), max_lines_(max_lines) {}

  // The change from the window of the same length before [start, end) to
  // [start, end). INVALID_ARGUMENT naming the field for a bad window (not
  // whole hours, not after start, longer than 400 days, or a previous window
  // before the API's range) or `top` outside 0..100; PERMISSION_DENIED when a
  // team token names a team outside its subtree; RESOURCE_EXHAUSTED when a
  // window has more than `max_lines` sums; OUT_OF_RANGE when a cost passes
  // int64; UNAVAILABLE when the read is heavy and no place for it is free.
  absl::StatusOr<v1::SpendChangeReport> Run(const Scope& scope, const v1::GetSpendChangeRequest& request) const;

 private:
  const store::ChargebackReadRepository* lines_;
  const ActivePolicyCache* policies_;
  HeavyReads* heavy_reads_;
  int64_t max_lines_;
};

// The request of `GET /v1/insights/changes?start=&end=&team=&namespace=&top=`: start and end required.
absl::StatusOr<v1::GetSpendChangeRequest> SpendChangeRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api
