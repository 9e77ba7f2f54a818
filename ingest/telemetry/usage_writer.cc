#include "ingest/telemetry/usage_writer.h"

#include <cinttypes>
#include <cstdio>
#include <deque>

#include "absl/strings/str_cat.h"
#include "pqxx/pqxx"

namespace fleetcap::telemetry {
namespace {

// Shortest text that reads back as the same double.
std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string Num(int64_t v) { return std::to_string(v); }

// COPY fields as nullable C strings: the texts live in `store`.
class NullableTexts {
 public:
  const char* Opt(const std::optional<double>& v) { return v ? Keep(Num(*v)) : nullptr; }
  const char* Opt(const std::optional<int64_t>& v) { return v ? Keep(Num(*v)) : nullptr; }
  const char* Keep(std::string s) {
    store_.push_back(std::move(s));
    return store_.back().c_str();
  }
  void Clear() { store_.clear(); }

 private:
  std::deque<std::string> store_;
};

void LockCluster(pqxx::transaction_base& txn, const std::string& cluster) {
  txn.exec_params("SELECT pg_advisory_xact_lock(hashtext('fleetcap.telemetry:' || $1))", cluster);
}

void QuietTempTables(pqxx::transaction_base& txn) {
  // CREATE TEMP TABLE IF NOT EXISTS says NOTICE when the table exists.
  txn.exec("SET LOCAL client_min_messages = warning");
}

}  // namespace

int64_t UpsertMinuteRowsInTxn(pqxx::transaction_base& txn, const std::string& cluster,
                              const std::vector<MinuteRow>& rows) {
  if (rows.empty()) return 0;
  QuietTempTables(txn);
  txn.exec(
      "CREATE TEMP TABLE IF NOT EXISTS minute_in ("
      " device_id text, pod_uid text, minute_ms bigint, node text, model text, namespace text, pod text,"
      " util_mean float8, util_max float8, memory_used_bytes bigint, memory_total_bytes bigint,"
      " power_watts float8, energy_joules float8, sm_active_mean float8, tensor_active_mean float8,"
      " dram_active_mean float8, samples integer) ON COMMIT DELETE ROWS");
  {
    pqxx::stream_to copy(txn, "minute_in");
    NullableTexts texts;
    for (const MinuteRow& r : rows) {
      copy << std::make_tuple(r.device_id, r.pod_uid, r.minute_ms, r.node, r.model, r.namespace_, r.pod,
                              texts.Opt(r.util_mean), texts.Opt(r.util_max), texts.Opt(r.memory_used_bytes),
                              texts.Opt(r.memory_total_bytes), texts.Opt(r.power_watts),
                              texts.Opt(r.energy_joules), texts.Opt(r.sm_active_mean),
                              texts.Opt(r.tensor_active_mean), texts.Opt(r.dram_active_mean), r.samples);
      texts.Clear();
    }
    copy.complete();
  }
  auto result = txn.exec_params(
      "INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod,"
      " util_mean, util_max, memory_used_bytes, memory_total_bytes, power_watts, energy_joules,"
      " sm_active_mean, tensor_active_mean, dram_active_mean, samples)"
      " SELECT $1, device_id, pod_uid, to_timestamp(minute_ms / 1000.0), node, model, namespace, pod,"
      " util_mean, util_max, memory_used_bytes, memory_total_bytes, power_watts, energy_joules,"
      " sm_active_mean, tensor_active_mean, dram_active_mean, samples FROM minute_in"
      " ON CONFLICT (cluster, device_id, pod_uid, minute) DO UPDATE SET"
      " node = EXCLUDED.node, model = EXCLUDED.model, namespace = EXCLUDED.namespace, pod = EXCLUDED.pod,"
      " util_mean = EXCLUDED.util_mean, util_max = EXCLUDED.util_max,"
      " memory_used_bytes = EXCLUDED.memory_used_bytes, memory_total_bytes = EXCLUDED.memory_total_bytes,"
      " power_watts = EXCLUDED.power_watts, energy_joules = EXCLUDED.energy_joules,"
      " sm_active_mean = EXCLUDED.sm_active_mean, tensor_active_mean = EXCLUDED.tensor_active_mean,"
      " dram_active_mean = EXCLUDED.dram_active_mean, samples = EXCLUDED.samples",
      cluster);
  return static_cast<int64_t>(result.affected_rows());
}

absl::Status UsageWriter::ResolveSeries(pqxx::connection& conn, const std::vector<CanonicalSeries>& batch) {
  std::vector<const CanonicalSeries*> missing;
  std::set<SeriesId> seen;
  for (const auto& s : batch) {
    SeriesId id{s.key.device_id, s.key.namespace_, s.key.pod, s.field};
    if (series_.count(id) == 0 && seen.insert(id).second) missing.push_back(&s);
  }
  if (missing.empty()) return absl::OkStatus();
  try {
    pqxx::work txn(conn);
    QuietTempTables(txn);
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS series_in (device_id text, namespace text, pod text, field text,"
        " node text, model text) ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to copy(txn, "series_in");
      for (const CanonicalSeries* s : missing) {
        copy << std::make_tuple(s->key.device_id, s->key.namespace_, s->key.pod,
                                std::string(FieldName(s->field)), s->key.node, s->key.model);
      }
      copy.complete();
    }
    // A series joins the inventory once, when first seen: the pod's uid by
    // namespace and name (else "namespace/pod"), and the device's node and
    // model when the exporter did not label them.
    txn.exec_params(
        "INSERT INTO telemetry_series (cluster, device_id, namespace, pod, field, pod_uid, node, model)"
        " SELECT DISTINCT ON (i.device_id, i.namespace, i.pod, i.field)"
        "  $1, i.device_id, i.namespace, i.pod, i.field,"
        "  CASE WHEN i.pod = '' THEN '' ELSE coalesce("
        "    (SELECT p.pod_uid FROM pods p WHERE p.cluster = $1 AND p.namespace = i.namespace"
        "      AND p.name = i.pod ORDER BY p.created_at DESC LIMIT 1), i.namespace || '/' || i.pod) END,"
        "  coalesce(nullif(i.node, ''), (SELECT d.node FROM devices d WHERE d.cluster = $1"
        "    AND d.device_id = i.device_id ORDER BY d.in_service_from DESC LIMIT 1), ''),"
        "  coalesce(nullif(i.model, ''), (SELECT d.model FROM devices d WHERE d.cluster = $1"
        "    AND d.device_id = i.device_id ORDER BY d.in_service_from DESC LIMIT 1), '')"
        " FROM series_in i ON CONFLICT (cluster, device_id, namespace, pod, field) DO NOTHING",
        cluster_);
    auto rows = txn.exec_params(
        "SELECT s.series_id, s.device_id, s.namespace, s.pod, s.field, s.pod_uid, s.node, s.model"
        " FROM telemetry_series s JOIN series_in i ON s.cluster = $1 AND s.device_id = i.device_id"
        "  AND s.namespace = i.namespace AND s.pod = i.pod AND s.field = i.field",
        cluster_);
    txn.commit();
    for (const auto& row : rows) {
      Field field;
      if (!ParseField(row[4].as<std::string>(), &field)) continue;
      series_[SeriesId{row[1].as<std::string>(), row[2].as<std::string>(), row[3].as<std::string>(), field}] =
          SeriesInfo{row[0].as<int64_t>(), row[5].as<std::string>(), row[6].as<std::string>(),
                     row[7].as<std::string>()};
    }
  } catch (const std::exception& e) {
    return PgError("telemetry: storing series", e);
  }
  return absl::OkStatus();
}

absl::Status UsageWriter::EnsurePartitions(pqxx::connection& conn, const std::vector<int64_t>& minutes) {
  constexpr int64_t kDayMs = 86'400'000;
  std::set<int64_t> days;
  for (int64_t m : minutes) {
    const int64_t day = m / kDayMs - (m % kDayMs < 0 ? 1 : 0);
    if (days_with_partition_.count(day) == 0) days.insert(day);
  }
  if (days.empty()) return absl::OkStatus();
  try {
    pqxx::work txn(conn);
    txn.exec("SELECT pg_advisory_xact_lock(1970496871)");  // the partition maintainer's lock
    for (int64_t day : days) {
      txn.exec_params("SELECT fleetcap_ensure_usage_partition(('1970-01-01'::date + $1::integer))", day);
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("telemetry: creating usage_minute partitions", e);
  }
  days_with_partition_.insert(days.begin(), days.end());
  return absl::OkStatus();
}

absl::StatusOr<WriteResult> UsageWriter::Write(const std::vector<CanonicalSeries>& batch) {
  WriteResult result;
  for (const auto& s : batch) result.samples_offered += static_cast<int64_t>(s.points.size());
  if (result.samples_offered == 0) return result;
  auto lease = pool_->Acquire();
  if (!lease.ok()) return lease.status();
  pqxx::connection& conn = **lease;
  if (auto status = ResolveSeries(conn, batch); !status.ok()) return status;

  // The device-minutes this batch touches, and the next minute of each (a
  // counter's first increase there depends on this minute's last sample).
  std::set<DeviceMinute> wanted;
  for (const auto& s : batch) {
    for (const Point& p : s.points) {
      const int64_t m = MinuteOf(p.ts_ms);
      wanted.insert({s.key.device_id, m});
      if (s.field == Field::kEnergy) wanted.insert({s.key.device_id, m + kMinuteMs});
    }
  }
  std::vector<int64_t> minutes;
  for (const auto& dm : wanted) minutes.push_back(dm.second);
  if (auto status = EnsurePartitions(conn, minutes); !status.ok()) return status;
  try {
    pqxx::work txn(conn);
    LockCluster(txn, cluster_);
    QuietTempTables(txn);
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS samples_in (series_id bigint, ts_ms bigint, value float8)"
        " ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to copy(txn, "samples_in");
      for (const auto& s : batch) {
        const auto& info = series_.at(SeriesId{s.key.device_id, s.key.namespace_, s.key.pod, s.field});
        for (const Point& p : s.points) copy << std::make_tuple(info.id, p.ts_ms, Num(p.value));
      }
      copy.complete();
    }
    // Within a batch the first value of a (series, timestamp) wins, as it
    // does across batches through ON CONFLICT DO NOTHING.
    result.samples_new = static_cast<int64_t>(
        txn.exec("INSERT INTO telemetry_samples (series_id, ts_ms, value)"
                 " SELECT DISTINCT ON (series_id, ts_ms) series_id, ts_ms, value FROM samples_in"
                 " ORDER BY series_id, ts_ms ON CONFLICT DO NOTHING")
            .affected_rows());
    if (result.samples_new == 0) {  // a replay: every row it would touch is already right
      txn.commit();
      return result;
    }
    // Every stored sample of the wanted devices over the wanted span.
    std::map<std::string, std::pair<int64_t, int64_t>> span;  // device -> [lo, hi)
    for (const auto& [device, minute] : wanted) {
      auto [it, inserted] = span.try_emplace(device, minute, minute + kMinuteMs);
      if (!inserted) {
        it->second.first = std::min(it->second.first, minute);
        it->second.second = std::max(it->second.second, minute + kMinuteMs);
      }
    }
    txn.exec("CREATE TEMP TABLE IF NOT EXISTS span_in (device_id text, lo bigint, hi bigint) ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to copy(txn, "span_in");
      for (const auto& [device, lo_hi] : span) {
        copy << std::make_tuple(device, lo_hi.first - kCounterLookbackMs, lo_hi.second);
      }
      copy.complete();
    }
    auto stored = txn.exec_params(
        "SELECT s.series_id, s.device_id, s.pod_uid, s.namespace, s.pod, s.node, s.model, s.field,"
        " t.ts_ms, t.value"
        // LATERAL: one index range scan per series. The temp tables have no
        // statistics, and a hash join would scan every stored sample.
        " FROM span_in w JOIN telemetry_series s ON s.cluster = $1 AND s.device_id = w.device_id"
        " CROSS JOIN LATERAL (SELECT ts_ms, value FROM telemetry_samples t WHERE t.series_id = s.series_id"
        "  AND t.ts_ms >= w.lo AND t.ts_ms < w.hi ORDER BY ts_ms) t"
        " ORDER BY s.series_id, t.ts_ms",
        cluster_);
    std::vector<StoredSeries> series;
    int64_t current = -1;
    for (const auto& row : stored) {
      const int64_t id = row[0].as<int64_t>();
      if (id != current) {
        current = id;
        StoredSeries s;
        s.device_id = row[1].as<std::string>();
        s.pod_uid = row[2].as<std::string>();
        s.namespace_ = row[3].as<std::string>();
        s.pod = row[4].as<std::string>();
        s.node = row[5].as<std::string>();
        s.model = row[6].as<std::string>();
        if (!ParseField(row[7].as<std::string>(), &s.field)) continue;
        series.push_back(std::move(s));
      }
      series.back().points.push_back({row[8].as<int64_t>(), row[9].as<double>()});
    }
    // Samples and the rows computed from them commit together: a batch
    // that failed midway leaves neither, and its retry recomputes all.
    result.rows_upserted = UpsertMinuteRowsInTxn(txn, cluster_, AggregateMinutes(series, wanted));
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("telemetry: writing samples", e);
  }
  return result;
}

absl::StatusOr<std::vector<StoredSeries>> UsageWriter::Identify(const std::vector<CanonicalSeries>& series) {
  {
    auto lease = pool_->Acquire();
    if (!lease.ok()) return lease.status();
    if (auto status = ResolveSeries(**lease, series); !status.ok()) return status;
  }
  std::vector<StoredSeries> out;
  out.reserve(series.size());
  for (const auto& s : series) {
    const auto& info = series_.at(SeriesId{s.key.device_id, s.key.namespace_, s.key.pod, s.field});
    StoredSeries stored;
    stored.device_id = s.key.device_id;
    stored.pod_uid = info.pod_uid;
    stored.namespace_ = s.key.namespace_;
    stored.pod = s.key.pod;
    stored.node = info.node;
    stored.model = info.model;
    stored.field = s.field;
    out.push_back(std::move(stored));
  }
  return out;
}

absl::StatusOr<int64_t> UsageWriter::UpsertMinuteRows(const std::vector<MinuteRow>& rows) {
  auto lease = pool_->Acquire();
  if (!lease.ok()) return lease.status();
  std::vector<int64_t> minutes;
  for (const auto& r : rows) minutes.push_back(r.minute_ms);
  if (auto status = EnsurePartitions(**lease, minutes); !status.ok()) return status;
  try {
    pqxx::work txn(**lease);
    LockCluster(txn, cluster_);
    const int64_t n = UpsertMinuteRowsInTxn(txn, cluster_, rows);
    txn.commit();
    return n;
  } catch (const std::exception& e) {
    return PgError("telemetry: writing minute rows", e);
  }
}

}  // namespace fleetcap::telemetry
