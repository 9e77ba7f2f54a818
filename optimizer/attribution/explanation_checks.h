#pragma once
// For tests: explains every team's lines of every hour the engine wrote and
// checks that each explanation is of the very line written and adds up to it
// part by part, to the micro-unit.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "optimizer/attribution/attribution_engine.h"

namespace fleetcap::attribution {

inline std::string LineText(const ChargeLine& l) {
  return absl::StrCat(absl::FormatTime(l.hour, absl::UTCTimeZone()), " ", l.cluster, " ", l.team, " ", l.namespace_name,
                      " ", l.workload, " ", l.model, " ", l.line_kind, " ", l.held_milli_seconds, " ",
                      l.used_milli_seconds, " ", l.direct_cost_micro, " ", l.idle_cost_micro, " ", l.shared_cost_micro,
                      " ", l.total_cost_micro, l.no_telemetry ? " no_telemetry" : "");
}

// Checks one explanation part by part against its own line.
inline void ExpectAddsUp(const LineExplanation& e) {
  SCOPED_TRACE(LineText(e.line));
  const ChargeLine& l = e.line;
  int64_t direct = 0, held = 0, used = 0, idle = 0;
  Int128 hold_weight = 0, received = 0;
  for (const HoldExplanation& h : e.holds) {
    direct += h.direct_cost_micro;
    held += h.held_milli_seconds;
    used += h.used_milli_seconds;
    hold_weight += h.weight;
    EXPECT_EQ(h.held_milli_seconds, h.milli * h.held_seconds);
    EXPECT_LE(h.telemetry_seconds, h.held_seconds);
    EXPECT_GE(h.direct_cost_micro, 0);
    int64_t priced_seconds = 0;
    for (const PricedSeconds& p : h.prices) priced_seconds += p.seconds;
    EXPECT_EQ(priced_seconds, h.held_seconds) << h.pod_uid;
  }
  for (const IdleExplanation& s : e.idle) {
    idle += s.idle_cost_micro;
    received += s.received;
    EXPECT_LE(s.received, s.scope_idle);
    EXPECT_LE(s.line_weight, s.scope_weight);
  }
  EXPECT_EQ(direct, l.direct_cost_micro);
  EXPECT_EQ(held, l.held_milli_seconds);
  EXPECT_EQ(used, l.used_milli_seconds);
  EXPECT_EQ(idle, l.idle_cost_micro);
  if (e.shared && e.shared->given > 0) {
    // A shared line gave its charge and idle away to the other lines.
    EXPECT_TRUE(hold_weight + received == e.shared->given);
    EXPECT_TRUE(e.direct_weight == 0 && e.idle_weight == 0);
  } else {
    EXPECT_TRUE(hold_weight == e.direct_weight);
    EXPECT_TRUE(received == e.idle_weight);
  }
  if (e.shared) {
    EXPECT_TRUE(e.shared->received == e.shared_weight);
  }
  if (!e.shared && !e.fixed) {
    EXPECT_EQ(l.shared_cost_micro, 0);
  }
  if (e.fixed) {
    EXPECT_EQ(l.shared_cost_micro, l.total_cost_micro);
  }
  EXPECT_EQ(l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro, l.total_cost_micro);
  // The line's total is within a micro-unit of its exact share of the cell.
  if (!e.fixed && e.cell_weight > 0) {
    const Int128 exact = Int128{e.cell_cost_micro} * (e.direct_weight + e.idle_weight + e.shared_weight);
    const Int128 total = Int128{l.total_cost_micro} * e.cell_weight;
    EXPECT_LT(total > exact ? total - exact : exact - total, e.cell_weight);
  }
}

// Explains every (hour, team) of `lines`, the engine's lines of `input`.
inline void ExpectEveryLineExplained(const AttributionInput& input, const TeamSchedule& teams,
                                     const std::vector<ChargeLine>& lines) {
  std::map<std::pair<absl::Time, std::string>, std::vector<std::string>> written;
  for (const ChargeLine& l : lines) written[{l.hour, l.team}].push_back(LineText(l));
  for (const auto& [key, texts] : written) {
    SCOPED_TRACE(absl::StrCat(absl::FormatTime(key.first, absl::UTCTimeZone()), " ", key.second));
    absl::StatusOr<HourExplanation> e = Explain(input, teams, {key.first, key.second, "", ""});
    ASSERT_TRUE(e.ok()) << e.status();
    std::vector<std::string> explained;
    for (const LineExplanation& line : e->lines) {
      explained.push_back(LineText(line.line));
      ExpectAddsUp(line);
    }
    EXPECT_EQ(explained, texts);
    if (e->lines.empty()) continue;
    // One model of one cluster: only its lines.
    const ChargeLine& first = e->lines.front().line;
    if (first.model.empty()) continue;
    absl::StatusOr<HourExplanation> one = Explain(input, teams, {key.first, key.second, first.model, first.cluster});
    ASSERT_TRUE(one.ok()) << one.status();
    std::vector<std::string> expected;
    for (const LineExplanation& line : e->lines) {
      if (line.line.model == first.model && line.line.cluster == first.cluster) {
        expected.push_back(LineText(line.line));
      }
    }
    std::vector<std::string> got;
    for (const LineExplanation& line : one->lines) got.push_back(LineText(line.line));
    EXPECT_EQ(got, expected);
  }
}

}  // namespace fleetcap::attribution
