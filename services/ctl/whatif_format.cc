#include "services/ctl/whatif_format.h"

#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "policy/text_rules.h"
#include "proto_time.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {

using exports::FinerThanHundredths;
using exports::FixedPoint;
using exports::Hundredths;
using exports::Table;

namespace {

std::string Devices(int64_t milli) { return policy::FormatDecimal(milli, 3); }

std::string SignedDevices(int64_t milli) { return milli > 0 ? "+" + Devices(milli) : Devices(milli); }

// Money to the hundredth, as every table shows it (the JSON keeps it exact).
std::string SignedMoney(int64_t micro) { return micro > 0 ? "+" + Hundredths(micro) : Hundredths(micro); }

// Parts per million as a percentage with two decimals: 772727 -> "77.27%".
std::string Percent(int64_t ppm) { return FixedPoint(ppm * 100, 2) + "%"; }

std::string Day(const v1::FlavorOutlook& f, bool p90) {
  const bool has = p90 ? f.has_exhausted_p90() : f.has_exhausted_p50();
  if (!has) return "-";
  return FormatRfc3339(FromProtoTimestamp(p90 ? f.exhausted_p90() : f.exhausted_p50())).substr(0, 10);
}

std::string PolicyName(int32_t version) { return version == 0 ? "patched" : absl::StrCat("v", version); }

template <typename T>
using Pair = std::pair<const T*, const T*>;  // (baseline, scenario); either may be absent

std::string RecommendationsTable(const v1::ScenarioComparison& c) {
  std::map<std::pair<std::string, std::string>, Pair<v1::Recommendation>> rows;
  for (const auto& r : c.baseline().recommendations()) rows[{r.team(), r.flavor()}].first = &r;
  for (const auto& r : c.scenario().recommendations()) rows[{r.team(), r.flavor()}].second = &r;
  if (rows.empty()) return "no recommendations\n";
  Table t({"TEAM", "FLAVOR", "DEMAND", "DEMAND'", "QUOTA", "QUOTA'", "CHANGE", "BOUND BY'"});
  for (const auto& [key, pair] : rows) {
    const int64_t before = pair.first ? pair.first->recommended_milli() : 0;
    const int64_t after = pair.second ? pair.second->recommended_milli() : 0;
    t.AddRow({key.first, key.second, pair.first ? Devices(pair.first->demand_milli()) : "-",
              pair.second ? Devices(pair.second->demand_milli()) : "-", pair.first ? Devices(before) : "-",
              pair.second ? Devices(after) : "-", SignedDevices(after - before),
              pair.second ? pair.second->bound_by() : "-"});
  }
  return t.Render();
}

std::string BillTable(const v1::ScenarioComparison& c) {
  std::map<std::string, Pair<v1::TeamBill>> rows;
  for (const auto& b : c.baseline().bills()) rows[b.team()].first = &b;
  for (const auto& b : c.scenario().bills()) rows[b.team()].second = &b;
  Table t({"TEAM", "BASELINE", "SCENARIO", "CHANGE"});
  bool rounded = false;
  const auto money = [&rounded](int64_t micro) {
    rounded = rounded || FinerThanHundredths(micro);
    return Hundredths(micro);
  };
  // A bill with a flavor no stored forecast covers is unknown, never its partial figure.
  const auto known = [](const v1::TeamBill* b) { return b == nullptr || b->unknown_flavors().empty(); };
  for (const auto& [team, pair] : rows) {
    const int64_t before = pair.first ? pair.first->micro() : 0;
    const int64_t after = pair.second ? pair.second->micro() : 0;
    t.AddRow({team, known(pair.first) ? money(before) : "unknown", known(pair.second) ? money(after) : "unknown",
              known(pair.first) && known(pair.second) ? SignedMoney(after - before) : "unknown"});
  }
  t.AddRow({"idle", money(c.baseline().idle_micro()), money(c.scenario().idle_micro()),
            SignedMoney(c.scenario().idle_micro() - c.baseline().idle_micro())});
  t.AddRow({"total", money(c.baseline().total_micro()), money(c.scenario().total_micro()),
            SignedMoney(c.scenario().total_micro() - c.baseline().total_micro())});
  // A change is rounded only where one of its sides is.
  return t.Render() + (rounded ? "money rounded to the hundredth; --format json gives it exactly\n" : "");
}

// Unknown where a series of the flavor has no stored forecast over the month.
std::string Utilisation(const v1::FlavorOutlook& f) {
  return f.held_unknown() ? "unknown" : Percent(f.utilisation_ppm());
}

std::string FlavorTable(const v1::ScenarioComparison& c) {
  std::map<std::string, Pair<v1::FlavorOutlook>> rows;
  for (const auto& f : c.baseline().flavors()) rows[f.flavor()].first = &f;
  for (const auto& f : c.scenario().flavors()) rows[f.flavor()].second = &f;
  if (rows.empty()) return "no flavors\n";
  Table t({"FLAVOR", "CAPACITY", "CAPACITY'", "UTILISATION", "UTILISATION'", "P50 RUNS OUT", "P50 RUNS OUT'",
           "P90 RUNS OUT", "P90 RUNS OUT'", "MODEL'"});
  for (const auto& [flavor, pair] : rows) {
    const auto* b = pair.first;
    const auto* s = pair.second;
    t.AddRow({flavor, b ? Devices(b->capacity_milli()) : "-", s ? Devices(s->capacity_milli()) : "-",
              b ? Utilisation(*b) : "-", s ? Utilisation(*s) : "-", b ? Day(*b, false) : "-", s ? Day(*s, false) : "-",
              b ? Day(*b, true) : "-", s ? Day(*s, true) : "-", s ? s->model() : "-"});
  }
  return t.Render();
}

}  // namespace

std::string WhatIfTable(const v1::ScenarioComparison& c) {
  const auto rfc3339 = [](const google::protobuf::Timestamp& t) { return FormatRfc3339(FromProtoTimestamp(t)); };
  std::string out = absl::StrCat(
      "baseline: policy ", PolicyName(c.baseline().policy_version()), "; scenario (columns marked '): policy ",
      PolicyName(c.scenario().policy_version()), "\n", "held history up to ", rfc3339(c.history_end()),
      "; recommendations with every change in force at ", rfc3339(c.recommendations_at()), "\n",
      c.baseline().forecast_run_id() != 0
          ? absl::StrCat("projected month: stored forecast run ", c.baseline().forecast_run_id())
          : std::string("projected month: no stored forecast, projected from the held history"),
      "\n\n");
  absl::StrAppend(&out, "Recommendations (devices)\n", RecommendationsTable(c), "\n");
  absl::StrAppend(&out, "Projected bill, ", rfc3339(c.month_start()), " to ", rfc3339(c.month_end()), " (",
                  c.currency(), ")\n", BillTable(c), "\n");
  absl::StrAppend(&out, "Flavors (utilisation over that month; capacity runs out before ", rfc3339(c.horizon_end()),
                  ")\n", FlavorTable(c));
  return out;
}

std::string WhatIfJson(const google::protobuf::Message& message) { return exports::ProtoJson(message); }

}  // namespace fleetcap::ctl
