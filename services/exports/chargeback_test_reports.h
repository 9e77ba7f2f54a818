#pragma once
// Reports the chargeback format tests share: docs/attribution.md's worked
// example (two A100s at 7.00 per device-hour, idle shared 2 : 1), a report
// that costs nothing, a team name with a comma and quotes, and no lines.

#include "absl/time/time.h"
#include "fleetcap/v1/chargeback.pb.h"
#include "proto_time.h"

namespace fleetcap::exports::testing {

// 2026-11-30T23:00:00Z, the last hour of a billing month.
inline absl::Time LastHourOfNovember() { return absl::FromUnixSeconds(1796079600); }

// One hour, grouped by team and model, hourly.
inline v1::GetChargebackRequest HourRequest() {
  v1::GetChargebackRequest request;
  *request.mutable_start() = ToProtoTimestamp(LastHourOfNovember());
  *request.mutable_end() = ToProtoTimestamp(LastHourOfNovember() + absl::Hours(1));
  request.add_group_by("team");
  request.add_group_by("model");
  request.set_resolution(v1::CHARGEBACK_RESOLUTION_HOUR);
  return request;
}

// `observed`: the held time with a usage reading.
inline v1::ChargebackLine* AddLine(v1::ChargebackReport& report, const std::string& team, int64_t held,
                                   int64_t observed, int64_t used, int64_t direct, int64_t idle, double efficiency) {
  auto* line = report.add_lines();
  *line->mutable_start() = ToProtoTimestamp(LastHourOfNovember());
  line->set_team(team);
  line->set_model("A100");
  line->set_held_milli_seconds(held);
  line->set_observed_milli_seconds(observed);
  line->set_used_milli_seconds(used);
  line->set_direct_cost_micro(direct);
  line->set_idle_cost_micro(idle);
  line->set_total_cost_micro(direct + idle);
  line->set_efficiency(efficiency);
  return line;
}

// vision held all of g0 and used two thirds of it; speech held half of g1
// and has no telemetry. The 14.00 splits into 9.333333 and 4.666667.
inline v1::ChargebackReport WorkedExample() {
  v1::ChargebackReport report;
  report.set_currency("USD");
  AddLine(report, "speech", 1800000, 0, 0, 3500000, 1166667, 0);
  AddLine(report, "vision", 3600000, 3600000, 2400000, 7000000, 2333333, 2.0 / 3);
  report.set_total_cost_micro(14000000);
  return report;
}

// The same holds at a price of 0.
inline v1::ChargebackReport FreeOfCharge() {
  v1::ChargebackReport report;
  report.set_currency("EUR");
  AddLine(report, "speech", 1800000, 0, 0, 0, 0, 0);
  report.set_total_cost_micro(0);
  return report;
}

// A team whose name needs quoting in CSV.
inline v1::ChargebackReport QuotedTeam() {
  v1::ChargebackReport report;
  report.set_currency("USD");
  AddLine(report, "ads, \"east\"", 900000, 900000, 450000, 1750000, 0, 0.5);
  report.set_total_cost_micro(1750000);
  return report;
}

inline v1::ChargebackReport Empty() {
  v1::ChargebackReport report;
  report.set_currency("USD");
  return report;
}

}  // namespace fleetcap::exports::testing
