#include "ingest/telemetry/usage_writer.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <deque>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "common/logging.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_quarantine_repository.h"

namespace fleetcap::telemetry {
namespace {

// Shortest text that reads back as the same double.
std::string Num(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

// A minute as timestamptz text, for COPY.
std::string MinuteText(int64_t minute_ms) {
  const absl::CivilSecond t = absl::ToCivilSecond(absl::FromUnixMillis(minute_ms), absl::UTCTimeZone());
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d %02d:%02d:00+00", static_cast<long long>(t.year()), t.month(),
                t.day(), t.hour(), t.minute());
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

constexpr int64_t kDayMs = 86'400'000;
// 10000-01-01T00:00:00Z: partitions are named by YYYYMMDD.
constexpr int64_t kBeyondYear9999Ms = 253'402'300'800'000;

int64_t DayOf(int64_t ms) { return ms / kDayMs - (ms % kDayMs < 0 ? 1 : 0); }

// The store refused the data itself (SQLSTATE class 22, data exception, or
// 23, integrity constraint): writing the same rows again cannot succeed.
bool RefusesTheData(const pqxx::sql_error& e) {
  const std::string& state = e.sqlstate();
  return state.rfind("22", 0) == 0 || state.rfind("23", 0) == 0;
}

// A row for a day whose partition is gone (retention dropped it after this
// writer created or saw it).
bool NoPartition(const pqxx::sql_error& e) {
  return e.sqlstate() == "23514" && std::string(e.what()).find("no partition") != std::string::npos;
}

std::string MinuteRfc3339(int64_t minute_ms) {
  if (minute_ms < 0 || minute_ms >= kBeyondYear9999Ms) return absl::StrCat(minute_ms, " ms since the epoch");
  return FormatRfc3339(absl::FromUnixMillis(minute_ms));
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
  txn.exec("DELETE FROM minute_in");  // used again within one transaction when rows are written one by one
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

int64_t InsertMinuteRowsInTxn(pqxx::dbtransaction& txn, const std::string& cluster,
                              const std::vector<MinuteRow>& rows) {
  if (rows.empty()) return 0;
  static const std::vector<std::string> kColumns = {
      "cluster", "device_id", "pod_uid", "minute", "node", "model", "namespace", "pod", "util_mean", "util_max",
      "memory_used_bytes", "memory_total_bytes", "power_watts", "energy_joules", "sm_active_mean",
      "tensor_active_mean", "dram_active_mean", "samples"};
  try {
    pqxx::subtransaction savepoint(txn, "insert_minutes");
    {
      pqxx::stream_to copy(savepoint, "usage_minute", kColumns);
      NullableTexts texts;
      for (const MinuteRow& r : rows) {
        copy << std::make_tuple(cluster, r.device_id, r.pod_uid, MinuteText(r.minute_ms), r.node, r.model,
                                r.namespace_, r.pod, texts.Opt(r.util_mean), texts.Opt(r.util_max),
                                texts.Opt(r.memory_used_bytes), texts.Opt(r.memory_total_bytes),
                                texts.Opt(r.power_watts), texts.Opt(r.energy_joules), texts.Opt(r.sm_active_mean),
                                texts.Opt(r.tensor_active_mean), texts.Opt(r.dram_active_mean), r.samples);
        texts.Clear();
      }
      copy.complete();
    }
    savepoint.commit();
    return static_cast<int64_t>(rows.size());
  } catch (const pqxx::unique_violation&) {
    // Some minute is stored already (a lost log replayed, the pull path
    // writing the same cluster): the savepoint is gone, upsert instead.
    return UpsertMinuteRowsInTxn(txn, cluster, rows);
  }
}

// The devices' closed-through bounds, the counters' carried samples and the
// log checkpoint of a closed batch.
static void StoreProgressInTxn(pqxx::transaction_base& txn, const std::string& cluster, const ClosedBatch& batch,
                               const std::string& log_id) {
  if (!batch.progress.empty()) {
    QuietTempTables(txn);
    txn.exec("CREATE TEMP TABLE IF NOT EXISTS progress_in (device_id text, closed_through_ms bigint)"
             " ON COMMIT DELETE ROWS");
    txn.exec("CREATE TEMP TABLE IF NOT EXISTS carry_in (device_id text, namespace text, pod text, field text,"
             " ts_ms bigint, value float8) ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to progress(txn, "progress_in");
      for (const DeviceProgress& p : batch.progress) progress << std::make_tuple(p.device_id, p.closed_through_ms);
      progress.complete();
    }
    {
      pqxx::stream_to carry(txn, "carry_in");
      for (const DeviceProgress& p : batch.progress) {
        for (const CanonicalSeries& c : p.carried) {
          carry << std::make_tuple(p.device_id, c.key.namespace_, c.key.pod, std::string(FieldName(c.field)),
                                   c.points.back().ts_ms, Num(c.points.back().value));
        }
      }
      carry.complete();
    }
    txn.exec_params(
        "INSERT INTO telemetry_push_devices (cluster, device_id, closed_through_ms)"
        " SELECT $1, device_id, closed_through_ms FROM progress_in"
        " ON CONFLICT (cluster, device_id) DO UPDATE SET closed_through_ms = EXCLUDED.closed_through_ms",
        cluster);
    txn.exec_params(
        "INSERT INTO telemetry_push_counters (cluster, device_id, namespace, pod, field, ts_ms, value)"
        " SELECT $1, device_id, namespace, pod, field, ts_ms, value FROM carry_in"
        " ON CONFLICT (cluster, device_id, namespace, pod, field)"
        " DO UPDATE SET ts_ms = EXCLUDED.ts_ms, value = EXCLUDED.value",
        cluster);
    // Counters of series that are gone (minute_window.cc forgets them).
    txn.exec_params(
        "DELETE FROM telemetry_push_counters c USING progress_in p WHERE c.cluster = $1"
        " AND c.device_id = p.device_id AND c.ts_ms < p.closed_through_ms - $2",
        cluster, kCounterLookbackMs);
  }
  txn.exec_params(
      "INSERT INTO telemetry_push_checkpoints (cluster, log_id, position) VALUES ($1, $2, $3)"
      " ON CONFLICT (cluster) DO UPDATE SET log_id = EXCLUDED.log_id, position = EXCLUDED.position,"
      " updated_at = now()",
      cluster, log_id, batch.checkpoint);
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
  std::set<int64_t> days;
  for (int64_t m : minutes) {
    const int64_t day = DayOf(m);
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

UsageWriter::SetAsideRow UsageWriter::SetAside(const MinuteRow& row, const char* source, const char* label,
                                               std::string reason) const {
  store::QuarantineRecord record;
  record.source = source;
  record.cluster = cluster_;
  record.object_key = absl::StrCat("device ", row.device_id, row.pod_uid.empty() ? "" : " pod_uid ", row.pod_uid,
                                   " minute ", MinuteRfc3339(row.minute_ms));
  record.reason = std::move(reason);
  record.payload = absl::StrCat("usage_minute device_id=", row.device_id, " pod_uid=", row.pod_uid,
                                " minute_ms=", row.minute_ms, " namespace=", row.namespace_, " pod=", row.pod,
                                " samples=", row.samples);
  record.at = Now();
  return {std::move(record), label};
}

std::vector<MinuteRow> UsageWriter::WithoutUnstorable(std::vector<MinuteRow> rows, const char* source,
                                                      std::vector<SetAsideRow>* set_aside) const {
  // The first day the partition maintainer keeps (store/usage_partitions.h).
  const int64_t first_day = DayOf(absl::ToUnixMillis(Now())) - options_.retention_days;
  std::vector<MinuteRow> kept;
  kept.reserve(rows.size());
  for (MinuteRow& row : rows) {
    if (row.minute_ms >= kBeyondYear9999Ms) {
      set_aside->push_back(SetAside(row, source, "minute_out_of_range",
                                    absl::StrCat("minute: ", MinuteRfc3339(row.minute_ms),
                                                 " is past 9999-12-31, beyond what usage_minute holds")));
    } else if (DayOf(row.minute_ms) < first_day) {
      set_aside->push_back(SetAside(row, source, "minute_before_retention",
                                    absl::StrCat("minute: ", MinuteRfc3339(row.minute_ms),
                                                 " is before the retention horizon of ", options_.retention_days,
                                                 " days (its partition is dropped)")));
    } else {
      kept.push_back(std::move(row));
    }
  }
  return kept;
}

void UsageWriter::Count(const std::vector<SetAsideRow>& set_aside) const {
  auto logger = Logger("telemetry");
  for (const SetAsideRow& s : set_aside) {
    logger->warn("{} row set aside into the quarantine: {}: {}", s.record.source, s.record.object_key,
                 s.record.reason);
    if (options_.metrics != nullptr) options_.metrics->Quarantined(s.record.source, s.label).Increment();
  }
}

absl::StatusOr<int64_t> UsageWriter::WriteSettingAside(std::vector<MinuteRow> rows, const char* source,
                                                       const char* what, const RowsWriter& write_rows,
                                                       const std::function<void(pqxx::work&)>& also) {
  std::vector<SetAsideRow> set_aside;
  rows = WithoutUnstorable(std::move(rows), source, &set_aside);
  const size_t foreseen = set_aside.size();
  bool one_by_one = false, partitions_checked = false;
  for (;;) {
    auto lease = pool_->Acquire();
    if (!lease.ok()) return lease.status();
    std::vector<int64_t> minutes;
    for (const auto& r : rows) minutes.push_back(r.minute_ms);
    if (auto status = EnsurePartitions(**lease, minutes); !status.ok()) return status;
    set_aside.resize(foreseen);
    try {
      pqxx::work txn(**lease);
      LockCluster(txn, cluster_);
      int64_t n = 0;
      if (!one_by_one) {
        n = write_rows(txn, rows);
      } else {
        for (const MinuteRow& row : rows) {
          try {
            pqxx::subtransaction savepoint(txn, "one_row");
            n += write_rows(savepoint, {row});
            savepoint.commit();
          } catch (const pqxx::sql_error& e) {
            if (!RefusesTheData(e)) throw;
            set_aside.push_back(SetAside(row, source, "rejected_by_store",
                                         absl::StrCat("usage_minute row refused by the store: ", e.what())));
          }
        }
      }
      std::vector<store::QuarantineRecord> records;
      for (const SetAsideRow& s : set_aside) records.push_back(s.record);
      store::InsertQuarantine(txn, records);
      if (also) also(txn);
      txn.commit();
      Count(set_aside);
      return n;
    } catch (const pqxx::sql_error& e) {
      if (NoPartition(e) && !partitions_checked) {
        // Retention dropped a partition this writer remembered: look again.
        days_with_partition_.clear();
        partitions_checked = true;
        continue;
      }
      if (RefusesTheData(e) && !one_by_one) {
        one_by_one = true;  // find the rows it refuses
        continue;
      }
      return PgError(absl::StrCat("telemetry: ", what), e);
    } catch (const std::exception& e) {
      return PgError(absl::StrCat("telemetry: ", what), e);
    }
  }
}

absl::StatusOr<int64_t> UsageWriter::UpsertMinuteRows(const std::vector<MinuteRow>& rows) {
  return WriteSettingAside(rows, "pull", "writing minute rows",
                           [&](pqxx::dbtransaction& txn, const std::vector<MinuteRow>& some) {
                             return UpsertMinuteRowsInTxn(txn, cluster_, some);
                           });
}

absl::StatusOr<int64_t> UsageWriter::WriteMinuteRows(const std::vector<MinuteRow>& rows) {
  return WriteSettingAside(rows, "remote_write", "writing minute rows",
                           [&](pqxx::dbtransaction& txn, const std::vector<MinuteRow>& some) {
                             return InsertMinuteRowsInTxn(txn, cluster_, some);
                           });
}

absl::StatusOr<int64_t> UsageWriter::WriteClosed(const ClosedBatch& batch, const std::string& log_id) {
  std::vector<MinuteRow> rows;
  if (!batch.minutes.empty()) {
    auto identities = Identify(batch.series);
    if (!identities.ok()) return identities.status();
    for (size_t i = 0; i < identities->size(); ++i) (*identities)[i].points = batch.series[i].points;
    rows = AggregateMinutes(*identities, batch.minutes);
  }
  return WriteSettingAside(
      std::move(rows), "remote_write", "writing closed minutes",
      [&](pqxx::dbtransaction& txn, const std::vector<MinuteRow>& some) {
        return InsertMinuteRowsInTxn(txn, cluster_, some);
      },
      [&](pqxx::work& txn) { StoreProgressInTxn(txn, cluster_, batch, log_id); });
}

absl::StatusOr<PushState> UsageWriter::LoadPushState() {
  auto lease = pool_->Acquire();
  if (!lease.ok()) return lease.status();
  PushState state;
  try {
    pqxx::read_transaction txn(**lease);
    auto checkpoint = txn.exec_params(
        "SELECT log_id, position FROM telemetry_push_checkpoints WHERE cluster = $1", cluster_);
    if (!checkpoint.empty()) {
      state.log_id = checkpoint[0][0].as<std::string>();
      state.checkpoint = checkpoint[0][1].as<int64_t>();
    }
    std::map<std::string, size_t> index;
    for (const auto& row : txn.exec_params(
             "SELECT device_id, closed_through_ms FROM telemetry_push_devices WHERE cluster = $1", cluster_)) {
      index[row[0].as<std::string>()] = state.devices.size();
      state.devices.push_back({row[0].as<std::string>(), row[1].as<int64_t>(), {}});
    }
    for (const auto& row : txn.exec_params(
             "SELECT device_id, namespace, pod, field, ts_ms, value FROM telemetry_push_counters"
             " WHERE cluster = $1",
             cluster_)) {
      auto it = index.find(row[0].as<std::string>());
      CanonicalSeries c;
      if (it == index.end() || !ParseField(row[3].as<std::string>(), &c.field)) continue;
      c.key.device_id = row[0].as<std::string>();
      c.key.namespace_ = row[1].as<std::string>();
      c.key.pod = row[2].as<std::string>();
      c.points.push_back({row[4].as<int64_t>(), row[5].as<double>()});
      state.devices[it->second].carried.push_back(std::move(c));
    }
  } catch (const std::exception& e) {
    return PgError("telemetry: reading the remote_write progress", e);
  }
  return state;
}

}  // namespace fleetcap::telemetry
