#pragma once
// ChargebackService.GetChargeback as a transport-free operation over the
// chargeback reader (store/chargeback_repository.h). The gRPC service and
// the HTTP route are thin adapters over it (docs/chargeback.md).
//
// What a caller sees follows from its scope: admins and planners every
// line; a team token the lines of its own team and the teams under it in the
// active policy's org tree (which already carry the idle and shared cost
// given to them), never the `idle` or `unassigned` lines nor another team's.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/chargeback.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/heavy_reads.h"
#include "services/api/query_message.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

// The longest window one request may read: a little over a year, so that a
// year-on-year comparison fits in one answer.
inline constexpr absl::Duration kMaxChargebackWindow = absl::Hours(24 * 400);
// The most lines one answer carries (about 20 MB of JSON); more is
// RESOURCE_EXHAUSTED, asking for a narrower window, fewer group_by fields or
// a coarser resolution.
inline constexpr int64_t kMaxChargebackLines = 100'000;

class ChargebackQuery {
 public:
  // All must outlive the query; `heavy_reads` bounds the heavy reads
  // running at once (nullptr: no bound). `max_lines` bounds an answer (tests
  // lower it).
  ChargebackQuery(const store::ChargebackReadRepository* lines, const ActivePolicyCache* policies,
                  HeavyReads* heavy_reads = nullptr, int64_t max_lines = kMaxChargebackLines)
      : lines_(lines), policies_(policies), heavy_reads_(heavy_reads), max_lines_(max_lines) {}

  // The report `request` asks for, as far as `scope` may see it.
  // INVALID_ARGUMENT naming the field for a bad request; PERMISSION_DENIED
  // when a team token names a team outside its subtree (the same answer
  // whether or not that team exists); RESOURCE_EXHAUSTED past
  // `max_lines`; OUT_OF_RANGE when the total passes int64; UNAVAILABLE (with
  // a retry time) when the read is heavy and no place for it is free.
  absl::StatusOr<v1::ChargebackReport> Run(const Scope& scope, const v1::GetChargebackRequest& request) const;

  // Run without holding the lines: each goes to `line` in the report's order
  // as it is made, and the report returned has none (its total and
  // currency), so that a large answer is held once, in its caller's form.
  absl::StatusOr<v1::ChargebackReport> Each(const Scope& scope, const v1::GetChargebackRequest& request,
                                            const std::function<void(v1::ChargebackLine&&)>& line) const;

 private:
  const store::ChargebackReadRepository* lines_;
  const ActivePolicyCache* policies_;
  HeavyReads* heavy_reads_;
  int64_t max_lines_;
};

// The teams whose chargeback lines `scope` reads when it asks for `team`:
// `team` and those under it in the active policy (just `team` when the policy
// does not know it), cut to what `scope` may read; never the `idle` or
// `unassigned` lines for a team token. Empty means every team; only callers
// that may read everything get that. PERMISSION_DENIED when a team token
// names a team outside its subtree.
absl::StatusOr<std::vector<std::string>> ChargebackTeams(const Scope& scope, const std::string& team,
                                                         const ActivePolicy& policy);

// The request of `GET /v1/chargeback?start=&end=&group_by=&resolution=&team=&cluster=&namespace=&workload=
// &model=&line_kind=`: GetChargebackRequest's fields (query_message.h), start and end required; `group_by` is a
// comma-separated list (the gateway joins repeated ones with commas), `resolution` hour, day, month or none
// (empty is none). `route_mapping` names the parameters a route reads itself (the export's format).
absl::StatusOr<v1::GetChargebackRequest> ChargebackRequestFromQuery(const HttpQuery& query,
                                                                    const QueryMapping& route_mapping = {});

}  // namespace fleetcap::api
