#pragma once
// The SQL baseline of the attribution engine (request_attribution.sql): load
// attribution facts into the inventory tables, fill the price and team tables
// the SQL reads, run it, and compare its lines with the engine's. Used by the
// equality tests here and by tests/bench/attribution_sql_bench.cc.

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/attribution/attribution_facts.h"
#include "optimizer/attribution/attribution_lines.h"
#include "optimizer/attribution/team_schedule.h"
#include "pqxx/pqxx"

namespace fleetcap::sql_baseline {

// (cluster, namespace) -> team. A namespace not here is `unassigned`.
using NamespaceTeams = std::map<std::pair<std::string, std::string>, std::string>;

// The same mapping as a TeamSchedule for the engine: one team for the whole window.
class MappedTeams : public attribution::TeamSchedule {
 public:
  explicit MappedTeams(NamespaceTeams teams) : teams_(std::move(teams)) {}
  std::vector<attribution::TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from,
                                                 absl::Time to) const override;

 private:
  NamespaceTeams teams_;
};

// Writes the facts' clusters, models, devices, pods and holds into the
// inventory tables by COPY, in `txn`. Each hold's pod becomes a pods row with
// its namespace and workload ("Kind/name"), except a hold with neither: a pod
// the inventory does not know. Usage is not written (request basis only).
absl::Status LoadFacts(pqxx::work& txn, const attribution::AttributionInput& input);

// Creates the temporary tables baseline_prices and baseline_teams the SQL
// reads (if this connection has none yet) and fills them, replacing their rows.
absl::Status LoadPricesAndTeams(pqxx::work& txn, const std::vector<policy::Price>& prices, const NamespaceTeams& teams);

// One line, as both sides give it.
struct Line {
  absl::Time hour;
  std::string cluster, model, team, namespace_name, workload, line_kind;
  int64_t held_milli_seconds = 0;
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t total_cost_micro = 0;

  bool operator==(const Line& o) const;
  bool operator<(const Line& o) const;  // by hour, cluster, model, team, namespace, workload, kind
};
std::ostream& operator<<(std::ostream& os, const Line& l);

Line FromChargeLine(const attribution::ChargeLine& l);

// The text of request_attribution.sql.
absl::StatusOr<std::string> RequestAttributionSql();

// Runs request_attribution.sql over [start, end), idle `share` or `keep`.
absl::StatusOr<std::vector<Line>> RunRequestAttribution(pqxx::transaction_base& txn, absl::Time start, absl::Time end,
                                                        const std::string& idle);

// The fleet cost over [start, end) without the engine, from the devices and
// baseline_prices (LoadPricesAndTeams): every device-in-service interval
// times every price in force, exact seconds x price / 3600, summed per
// (cluster, model, hour) and rounded half up once there; as decimal text.
std::string FleetCostMicro(pqxx::transaction_base& txn, absl::Time start, absl::Time end);

// The same, counted in the server: how many lines and their total cost (for
// the benchmark, which needs no lines in memory).
struct Totals {
  int64_t lines = 0;
  int64_t total_cost_micro = 0;
};
absl::StatusOr<Totals> CountRequestAttribution(pqxx::transaction_base& txn, absl::Time start, absl::Time end,
                                               const std::string& idle);

}  // namespace fleetcap::sql_baseline
