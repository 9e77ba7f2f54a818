#include "tests/support/stored_usage.h"

#include <cstdio>
#include <optional>

#include "absl/strings/str_cat.h"

namespace fleetcap::testing {
namespace {

template <typename T>
std::optional<T> NullableUsageField(const pqxx::field& f) {
  return f.is_null() ? std::nullopt : std::optional<T>(f.as<T>());
}

void AppendUsageField(std::string* line, const std::optional<double>& v) {
  if (!v) {
    absl::StrAppend(line, "|-");
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", *v);  // exactly
  absl::StrAppend(line, "|", buf);
}

void AppendUsageField(std::string* line, const std::optional<int64_t>& v) {
  absl::StrAppend(line, "|", v ? std::to_string(*v) : "-");
}

}  // namespace

std::vector<store::UsageMinuteRow> StoredMinutes(pqxx::connection& conn, const std::string& cluster) {
  pqxx::nontransaction txn(conn);
  std::vector<store::UsageMinuteRow> out;
  for (const auto& r :
       txn.exec_params("SELECT device_id, pod_uid, (extract(epoch FROM minute) * 1000)::bigint, node, model, namespace,"
                       " pod, util_mean, util_max, memory_used_bytes, memory_total_bytes, power_watts, energy_joules,"
                       " sm_active_mean, tensor_active_mean, dram_active_mean, samples"
                       " FROM fleetcap_usage_minutes($1, '-infinity', 'infinity') ORDER BY device_id, pod_uid, minute",
                       cluster)) {
    store::UsageMinuteRow row;
    row.device_id = r[0].as<std::string>();
    row.pod_uid = r[1].as<std::string>();
    row.minute_ms = r[2].as<int64_t>();
    row.node = r[3].as<std::string>();
    row.model = r[4].as<std::string>();
    row.namespace_ = r[5].as<std::string>();
    row.pod = r[6].as<std::string>();
    row.util_mean = NullableUsageField<double>(r[7]);
    row.util_max = NullableUsageField<double>(r[8]);
    row.memory_used_bytes = NullableUsageField<int64_t>(r[9]);
    row.memory_total_bytes = NullableUsageField<int64_t>(r[10]);
    row.power_watts = NullableUsageField<double>(r[11]);
    row.energy_joules = NullableUsageField<double>(r[12]);
    row.sm_active_mean = NullableUsageField<double>(r[13]);
    row.tensor_active_mean = NullableUsageField<double>(r[14]);
    row.dram_active_mean = NullableUsageField<double>(r[15]);
    row.samples = r[16].as<int>();
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::string> UsageRows(pqxx::connection& conn, const std::string& cluster) {
  std::vector<std::string> lines;
  for (const store::UsageMinuteRow& r : StoredMinutes(conn, cluster)) {
    std::string line = absl::StrCat(r.device_id, "|", r.pod_uid, "|", r.minute_ms / 1000, "|", r.node, "|", r.model,
                                    "|", r.namespace_, "|", r.pod);
    AppendUsageField(&line, r.util_mean);
    AppendUsageField(&line, r.util_max);
    AppendUsageField(&line, r.memory_used_bytes);
    AppendUsageField(&line, r.memory_total_bytes);
    AppendUsageField(&line, r.power_watts);
    AppendUsageField(&line, r.energy_joules);
    AppendUsageField(&line, r.sm_active_mean);
    AppendUsageField(&line, r.tensor_active_mean);
    AppendUsageField(&line, r.dram_active_mean);
    absl::StrAppend(&line, "|", r.samples);
    lines.push_back(std::move(line));
  }
  return lines;
}

int64_t TotalSamples(const std::vector<store::UsageMinuteRow>& rows) {
  int64_t total = 0;
  for (const auto& r : rows) total += r.samples;
  return total;
}

bool HasUsagePartition(pqxx::connection& conn, const std::string& day) {
  return !pqxx::nontransaction(conn)
              .exec_params1("SELECT to_regclass($1) IS NULL", absl::StrCat("usage_minute_", day))[0]
              .as<bool>();
}

std::vector<std::pair<std::string, absl::Time>> HoursAwaitingRollup(pqxx::connection& conn, const std::string& table) {
  std::vector<std::pair<std::string, absl::Time>> out;
  pqxx::nontransaction txn(conn);
  for (const auto& r :
       txn.exec(absl::StrCat("SELECT DISTINCT cluster, (extract(epoch FROM hour) * 1000000)::bigint FROM ",
                             txn.quote_name(table), " ORDER BY 1, 2"))) {
    out.emplace_back(r[0].as<std::string>(), absl::FromUnixMicros(r[1].as<int64_t>()));
  }
  return out;
}

std::vector<StoredSeries> StoredTelemetrySeries(pqxx::connection& conn, const std::string& cluster) {
  std::vector<StoredSeries> out;
  for (const auto& r : pqxx::nontransaction(conn).exec_params(
           "SELECT device_id, namespace, pod, field, pod_uid, node, model,"
           " (extract(epoch FROM last_seen) * 1000000)::bigint FROM telemetry_series WHERE cluster = $1"
           " ORDER BY pod, field, device_id",
           cluster)) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                   r[4].as<std::string>(), r[5].as<std::string>(), r[6].as<std::string>(),
                   absl::FromUnixMicros(r[7].as<int64_t>())});
  }
  return out;
}

std::vector<StoredWatermark> StoredWatermarks(pqxx::connection& conn) {
  std::vector<StoredWatermark> out;
  for (const auto& r : pqxx::nontransaction(conn).exec(
           "SELECT cluster, metric, (extract(epoch FROM through) * 1000000)::bigint FROM telemetry_watermarks"
           " ORDER BY cluster, metric")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), absl::FromUnixMicros(r[2].as<int64_t>())});
  }
  return out;
}

}  // namespace fleetcap::testing
