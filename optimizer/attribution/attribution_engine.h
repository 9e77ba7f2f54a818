#pragma once
// The attribution engine: facts, prices and the policy's attribution options
// in, hourly chargeback lines out (DESIGN.md "Attribution";
// docs/attribution.md gives every rule). Pure code: no clock, no files, no
// store. Hours are computed one at a time and handed to `sink`, so memory
// grows with the facts, not with the lines of a month.

#include <functional>

#include "absl/status/statusor.h"
#include "optimizer/attribution/attribution_facts.h"
#include "optimizer/attribution/attribution_lines.h"
#include "optimizer/attribution/explanation.h"
#include "optimizer/attribution/team_schedule.h"

namespace fleetcap::attribution {

using HourSink = std::function<void(HourLines&&)>;

// Attributes every hour of [input.start, input.end). An error only for
// options or a window it cannot work with (or lines that would not add up,
// which the arithmetic rules out); facts it cannot use are left out and
// listed in the report, each costing only itself.
absl::StatusOr<AttributionReport> Attribute(const AttributionInput& input, const TeamSchedule& teams,
                                            const HourSink& sink);

// Attributes the hour of `request` exactly as Attribute does and says how
// each of the team's lines of it was made (explanation.h), checking that
// every explanation adds up to its line. A team with no line that hour gets
// none. INVALID_ARGUMENT when the hour is not a whole hour.
absl::StatusOr<HourExplanation> Explain(const AttributionInput& input, const TeamSchedule& teams,
                                        const ExplainRequest& request);

}  // namespace fleetcap::attribution
