#pragma once
// ExplainChargeback: one team's lines of one hour computed again from that
// hour's stored facts and policy (optimizer/chargeback/window_loader.h) with
// the attribution engine's explanation (docs/attribution.md "Explaining a
// line"), and compared with the lines stored for that hour. Teams are
// resolved by the process's one team directory (TeamAttribution), under the
// policy version the request was authorised under.

#include "absl/status/statusor.h"
#include "fleetcap/v1/chargeback.pb.h"
#include "optimizer/attribution/explanation.h"
#include "services/api/auth.h"
#include "services/api/team_attribution.h"
#include "store/attribution_facts_repository.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

class ChargebackExplainQuery {
 public:
  // All must outlive this.
  ChargebackExplainQuery(const store::AttributionFactsRepository* facts, TeamAttribution* teams,
                         const store::ChargebackReadRepository* stored);

  // Admins and planners explain any team; a team token its own subtree.
  absl::Status Authorize(const Scope& scope, const v1::ExplainChargebackRequest& request) const;

  // INVALID_ARGUMENT naming the field: no team, a team no policy version in
  // force during the hour knows (besides "idle" and "unassigned"), an hour
  // that is not a whole hour. Resolved as if no policy version numbered
  // above PolicyVersionOf(scope) had been applied.
  absl::StatusOr<v1::ChargebackExplanation> Run(const Scope& scope, const v1::ExplainChargebackRequest& request) const;

 private:
  const store::AttributionFactsRepository* facts_;
  TeamAttribution* teams_;
  const store::ChargebackReadRepository* stored_;
};

// The engine's explanation as the API's message (lines not yet compared
// with the stored ones).
v1::ChargebackExplanation ExplanationToProto(const attribution::HourExplanation& explanation);

// Fills each line's matches_stored / stored, the stored_only lines, and the
// explanation's matches_stored and note, from the stored lines of the
// team's hour.
void CompareWithStored(const std::vector<store::ChargebackSum>& stored, v1::ChargebackExplanation* explanation);

}  // namespace fleetcap::api
