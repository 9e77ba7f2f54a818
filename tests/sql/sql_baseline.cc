#include "tests/sql/sql_baseline.h"

#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "policy/team_resolution.h"
#include "tests/support/build_paths.h"

namespace fleetcap::sql_baseline {
namespace {

// COPY writes NULL for a null `const char*`; the text stays alive here.
struct OptionalTime {
  explicit OptionalTime(absl::Time t) : present(t != absl::InfiniteFuture()), text(present ? FormatRfc3339(t) : "") {}
  const char* get() const { return present ? text.c_str() : nullptr; }
  bool present;
  std::string text;
};

auto Key(const Line& l) {
  return std::tie(l.hour, l.cluster, l.model, l.team, l.namespace_name, l.workload, l.line_kind);
}

}  // namespace

std::vector<attribution::TeamSpan> MappedTeams::TeamsDuring(const policy::PodEvidence& pod, absl::Time from,
                                                            absl::Time to) const {
  auto it = teams_.find({pod.cluster, pod.namespace_name});
  return {{from, to, it == teams_.end() ? std::string(policy::kUnassignedTeam) : it->second}};
}

absl::Status LoadFacts(pqxx::work& txn, const attribution::AttributionInput& input) {
  std::set<std::string> clusters, models;
  for (const auto& d : input.devices) {
    clusters.insert(d.cluster);
    models.insert(d.model);
  }
  for (const auto& h : input.holds) clusters.insert(h.cluster);
  try {
    for (const std::string& c : clusters) {
      txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", c);
    }
    for (const std::string& m : models) {
      txn.exec_params(
          "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, 'nvidia', 'nvidia.com/gpu')"
          " ON CONFLICT DO NOTHING",
          m);
    }
    {
      pqxx::stream_to out(txn, "devices",
                          std::vector<std::string>{"cluster", "device_id", "node", "device_index", "model",
                                                   "in_service_from", "in_service_to"});
      for (const auto& d : input.devices) {
        OptionalTime to(d.to);
        out << std::make_tuple(d.cluster, d.device_id, d.node, 0, d.model, FormatRfc3339(d.from), to.get());
      }
      out.complete();
    }
    {
      std::set<std::pair<std::string, std::string>> seen;
      pqxx::stream_to out(txn, "pods",
                          std::vector<std::string>{"cluster", "pod_uid", "namespace", "name", "team", "workload_kind",
                                                   "workload_name", "created_at"});
      for (const auto& h : input.holds) {
        if (h.namespace_name.empty() && h.workload.empty()) continue;  // unknown to the inventory
        if (!seen.emplace(h.cluster, h.pod_uid).second) continue;
        const size_t slash = h.workload.find('/');
        if (slash == std::string::npos) {
          return absl::InvalidArgumentError(
              absl::StrCat("hold of pod ", h.pod_uid, ": workload \"", h.workload, "\" is not Kind/name"));
        }
        out << std::make_tuple(h.cluster, h.pod_uid, h.namespace_name, h.pod_uid, h.team_label,
                               h.workload.substr(0, slash), h.workload.substr(slash + 1), FormatRfc3339(input.start));
      }
      out.complete();
    }
    {
      pqxx::stream_to out(txn, "holds",
                          std::vector<std::string>{"cluster", "pod_uid", "device_id", "milli", "held_from", "held_to"});
      for (const auto& h : input.holds) {
        OptionalTime to(h.to);
        out << std::make_tuple(h.cluster, h.pod_uid, h.device_id, h.milli, FormatRfc3339(h.from), to.get());
      }
      out.complete();
    }
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("loading attribution facts into the inventory tables: ", e.what()));
  }
  return absl::OkStatus();
}

absl::Status LoadPricesAndTeams(pqxx::work& txn, const std::vector<policy::Price>& prices,
                                const NamespaceTeams& teams) {
  try {
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS baseline_prices (cluster text NOT NULL, model text NOT NULL,"
        " price_from timestamptz NOT NULL, price_to timestamptz, micro_per_device_hour bigint NOT NULL)");
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS baseline_teams (cluster text NOT NULL, namespace text NOT NULL,"
        " team text NOT NULL, PRIMARY KEY (cluster, namespace))");
    txn.exec("TRUNCATE baseline_prices, baseline_teams");
    for (const policy::Price& p : prices) {
      txn.exec_params(
          "INSERT INTO baseline_prices (cluster, model, price_from, price_to, micro_per_device_hour)"
          " VALUES ($1, $2, $3, nullif($4, '')::timestamptz, $5)",
          p.cluster, p.model, FormatRfc3339(p.from), p.to ? FormatRfc3339(*p.to) : std::string(),
          p.micro_per_device_hour);
    }
    for (const auto& [key, team] : teams) {
      txn.exec_params("INSERT INTO baseline_teams (cluster, namespace, team) VALUES ($1, $2, $3)", key.first,
                      key.second, team);
    }
    txn.exec("ANALYZE baseline_prices");
    txn.exec("ANALYZE baseline_teams");
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("filling baseline_prices and baseline_teams: ", e.what()));
  }
  return absl::OkStatus();
}

bool Line::operator==(const Line& o) const {
  return Key(*this) == Key(o) && held_milli_seconds == o.held_milli_seconds &&
         direct_cost_micro == o.direct_cost_micro && idle_cost_micro == o.idle_cost_micro &&
         total_cost_micro == o.total_cost_micro;
}

bool Line::operator<(const Line& o) const { return Key(*this) < Key(o); }

std::ostream& operator<<(std::ostream& os, const Line& l) {
  return os << FormatRfc3339(l.hour) << " " << l.cluster << " " << l.model << " " << l.team << " " << l.namespace_name
            << " " << l.workload << " " << l.line_kind << ": held " << l.held_milli_seconds << ", direct "
            << l.direct_cost_micro << ", idle " << l.idle_cost_micro << ", total " << l.total_cost_micro;
}

Line FromChargeLine(const attribution::ChargeLine& l) {
  return {l.hour,
          l.cluster,
          l.model,
          l.team,
          l.namespace_name,
          l.workload,
          l.line_kind,
          l.held_milli_seconds,
          l.direct_cost_micro,
          l.idle_cost_micro,
          l.total_cost_micro};
}

absl::StatusOr<std::string> RequestAttributionSql() {
  std::ifstream in(fleetcap::testing::SourcePath("tests/sql/request_attribution.sql"));
  if (!in)
    return absl::NotFoundError(
        absl::StrCat("cannot read ", fleetcap::testing::SourcePath("tests/sql/request_attribution.sql")));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<std::vector<Line>> RunRequestAttribution(pqxx::transaction_base& txn, absl::Time start, absl::Time end,
                                                        const std::string& idle) {
  absl::StatusOr<std::string> sql = RequestAttributionSql();
  if (!sql.ok()) return sql.status();
  std::vector<Line> lines;
  try {
    const pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT extract(epoch FROM hour)::bigint, cluster, model, team, namespace, workload, line_kind,"
                     " held_milli_seconds, direct_cost_micro, idle_cost_micro, total_cost_micro FROM (\n",
                     *sql, "\n) lines"),
        FormatRfc3339(start), FormatRfc3339(end), idle);
    lines.reserve(rows.size());
    for (const auto& r : rows) {
      lines.push_back({absl::FromUnixSeconds(r[0].as<int64_t>()), r[1].as<std::string>(), r[2].as<std::string>(),
                       r[3].as<std::string>(), r[4].as<std::string>(), r[5].as<std::string>(), r[6].as<std::string>(),
                       r[7].as<int64_t>(), r[8].as<int64_t>(), r[9].as<int64_t>(), r[10].as<int64_t>()});
    }
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("request_attribution.sql: ", e.what()));
  }
  return lines;
}

absl::StatusOr<Totals> CountRequestAttribution(pqxx::transaction_base& txn, absl::Time start, absl::Time end,
                                               const std::string& idle) {
  absl::StatusOr<std::string> sql = RequestAttributionSql();
  if (!sql.ok()) return sql.status();
  try {
    const pqxx::row r = txn.exec_params1(
        absl::StrCat("SELECT count(*), coalesce(sum(total_cost_micro), 0)::bigint FROM (\n", *sql, "\n) lines"),
        FormatRfc3339(start), FormatRfc3339(end), idle);
    return Totals{r[0].as<int64_t>(), r[1].as<int64_t>()};
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("request_attribution.sql: ", e.what()));
  }
}

std::string FleetCostMicro(pqxx::transaction_base& txn, absl::Time start, absl::Time end) {
  return txn
      .exec_params(R"(
    WITH dev AS (
      SELECT cluster, model, count(*) AS n,
             greatest(in_service_from, $1::timestamptz) AS f,
             least(coalesce(in_service_to, $2::timestamptz), $2::timestamptz) AS t
      FROM devices GROUP BY 1, 2, 4, 5),
    piece AS (
      SELECT d.cluster, d.model, d.n, p.micro_per_device_hour AS micro,
             greatest(d.f, p.price_from) AS f, least(d.t, coalesce(p.price_to, d.t)) AS t
      FROM dev d JOIN baseline_prices p ON p.model = d.model),
    hourly AS (
      SELECT cluster, model, h,
             sum(n::numeric * micro *
                 extract(epoch FROM least(t, h + interval '1 hour') - greatest(f, h))::numeric) AS exact
      FROM piece, generate_series(date_trunc('hour', f, 'UTC'), t - interval '1 microsecond', interval '1 hour') h
      WHERE f < t GROUP BY 1, 2, 3)
    SELECT coalesce(sum(floor((exact + 1800) / 3600)), 0)::bigint::text FROM hourly)",
                   FormatRfc3339(start), FormatRfc3339(end))[0][0]
      .as<std::string>();
}

}  // namespace fleetcap::sql_baseline
