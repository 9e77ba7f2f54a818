#include "store/pg_usage_repository.h"

#include <charconv>
#include <cstdio>
#include <deque>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_quarantine_repository.h"
#include "store/pg_usage_sql.h"
#include "store/refused_records.h"

namespace fleetcap::store {
namespace {

// Shortest text that reads back as the same double.
std::string Num(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

std::string Num(int64_t v) { return std::to_string(v); }

// A minute as timestamptz text, for COPY.
std::string MinuteText(int64_t minute_ms) {
  const absl::CivilSecond t = absl::ToCivilSecond(absl::FromUnixMillis(minute_ms), absl::UTCTimeZone());
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d %02d:%02d:00+00", static_cast<long long>(t.year()), t.month(),
                t.day(), t.hour(), t.minute());
  return buf;
}

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

constexpr int64_t kMsPerDay = 86'400'000;

int64_t DayOf(int64_t ms) { return ms / kMsPerDay - (ms % kMsPerDay < 0 ? 1 : 0); }

// The store refused the data itself (SQLSTATE class 22, data exception, or
// 23, integrity constraint): writing the same rows again cannot succeed.
bool RefusesTheData(const pqxx::sql_error& e) {
  const std::string& state = e.sqlstate();
  return state.rfind("22", 0) == 0 || state.rfind("23", 0) == 0;
}

// A row for a day whose partition is gone (retention dropped it after this
// repository created or saw it).
bool NoPartition(const pqxx::sql_error& e) {
  return e.sqlstate() == "23514" && std::string(e.what()).find("no partition") != std::string::npos;
}

// Upserts `rows` inside `txn` (COPY into a staging table + INSERT .. ON CONFLICT).
int64_t UpsertMinuteRows(pqxx::transaction_base& txn, const std::string& cluster,
                         const std::vector<UsageMinuteRow>& rows) {
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
    for (const UsageMinuteRow& r : rows) {
      copy << std::make_tuple(r.device_id, r.pod_uid, r.minute_ms, r.node, r.model, r.namespace_, r.pod,
                              texts.Opt(r.util_mean), texts.Opt(r.util_max), texts.Opt(r.memory_used_bytes),
                              texts.Opt(r.memory_total_bytes), texts.Opt(r.power_watts), texts.Opt(r.energy_joules),
                              texts.Opt(r.sm_active_mean), texts.Opt(r.tensor_active_mean),
                              texts.Opt(r.dram_active_mean), r.samples);
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

// COPY straight into usage_minute inside a savepoint; the upsert above when
// a row exists already.
int64_t InsertMinuteRows(pqxx::dbtransaction& txn, const std::string& cluster,
                         const std::vector<UsageMinuteRow>& rows) {
  if (rows.empty()) return 0;
  static const std::vector<std::string> kColumns = {"cluster",
                                                    "device_id",
                                                    "pod_uid",
                                                    "minute",
                                                    "node",
                                                    "model",
                                                    "namespace",
                                                    "pod",
                                                    "util_mean",
                                                    "util_max",
                                                    "memory_used_bytes",
                                                    "memory_total_bytes",
                                                    "power_watts",
                                                    "energy_joules",
                                                    "sm_active_mean",
                                                    "tensor_active_mean",
                                                    "dram_active_mean",
                                                    "samples"};
  try {
    pqxx::subtransaction savepoint(txn, "insert_minutes");
    {
      pqxx::stream_to copy(savepoint, "usage_minute", kColumns);
      NullableTexts texts;
      for (const UsageMinuteRow& r : rows) {
        copy << std::make_tuple(cluster, r.device_id, r.pod_uid, MinuteText(r.minute_ms), r.node, r.model, r.namespace_,
                                r.pod, texts.Opt(r.util_mean), texts.Opt(r.util_max), texts.Opt(r.memory_used_bytes),
                                texts.Opt(r.memory_total_bytes), texts.Opt(r.power_watts), texts.Opt(r.energy_joules),
                                texts.Opt(r.sm_active_mean), texts.Opt(r.tensor_active_mean),
                                texts.Opt(r.dram_active_mean), r.samples);
        texts.Clear();
      }
      copy.complete();
    }
    savepoint.commit();
    return static_cast<int64_t>(rows.size());
  } catch (const pqxx::unique_violation&) {
    // Some minute is stored already (a lost log replayed, the pull path
    // fetching its settle window again): the savepoint is gone, upsert instead.
    return UpsertMinuteRows(txn, cluster, rows);
  }
}

// The devices' closed-through bounds, the counters' carried samples and the
// log checkpoint of a closed batch.
void StoreProgress(pqxx::transaction_base& txn, const std::string& cluster, const PushProgress& progress) {
  if (!progress.devices.empty()) {
    QuietTempTables(txn);
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS progress_in (device_id text, closed_through_ms bigint)"
        " ON COMMIT DELETE ROWS");
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS carry_in (device_id text, namespace text, pod text, field text,"
        " ts_ms bigint, value float8) ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to devices(txn, "progress_in");
      for (const DeviceClosedThrough& d : progress.devices)
        devices << std::make_tuple(d.device_id, d.closed_through_ms);
      devices.complete();
    }
    {
      pqxx::stream_to carry(txn, "carry_in");
      for (const CarriedCounter& c : progress.carried) {
        carry << std::make_tuple(c.device_id, c.namespace_, c.pod, c.field, c.ts_ms, Num(c.value));
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
    // Counters of series that are gone (the minute window forgets them).
    txn.exec_params(
        "DELETE FROM telemetry_push_counters c USING progress_in p WHERE c.cluster = $1"
        " AND c.device_id = p.device_id AND c.ts_ms < p.closed_through_ms - $2",
        cluster, progress.counter_lookback_ms);
  }
  txn.exec_params(
      "INSERT INTO telemetry_push_checkpoints (cluster, log_id, position) VALUES ($1, $2, $3)"
      " ON CONFLICT (cluster) DO UPDATE SET log_id = EXCLUDED.log_id, position = EXCLUDED.position,"
      " updated_at = now()",
      cluster, progress.log_id, progress.checkpoint);
}

const char* TruncUnit(BucketWidth width) {
  switch (width) {
    case BucketWidth::kMinute:
      return "minute";
    case BucketWidth::kDay:
      return "day";
    default:
      return "hour";
  }
}

template <typename T>
std::optional<T> Opt(const pqxx::field& f) {
  return f.is_null() ? std::nullopt : std::optional<T>(f.as<T>());
}

// Inserts `rows` in one transaction, the whole having been refused: parts
// of it under savepoints, so that each row the store refuses alone is set
// aside and the others are written (store/refused_records.h). Minute rows
// are independent of each other, so any split stores what the whole would.
int64_t InsertAroundRefusals(pqxx::dbtransaction& txn, const std::string& cluster,
                             const std::vector<UsageMinuteRow>& rows, const std::string& source, absl::Time now,
                             std::vector<SetAsideMinute>& set_aside) {
  int64_t inserted = 0;
  const RefusedRecords how{
      [&](size_t begin, size_t end) {
        try {
          pqxx::subtransaction savepoint(txn, "some_rows");
          inserted += InsertMinuteRows(savepoint, cluster, {rows.begin() + begin, rows.begin() + end});
          savepoint.commit();
          return absl::OkStatus();
        } catch (const pqxx::sql_error& e) {
          if (!RefusesTheData(e)) throw;
          return absl::InvalidArgumentError(absl::StrCat("usage_minute row refused by the store: ", e.what()));
        }
      },
      [](const absl::Status& status) { return absl::IsInvalidArgument(status); },
      [&](size_t i, const absl::Status& refusal) {
        set_aside.push_back(
            SetAside(cluster, rows[i], source, "rejected_by_store", std::string(refusal.message()), now));
      }};
  size_t written = 0;
  // Every failure that is not a refusal was thrown above, so this is OK.
  (void)WriteAroundRefusals(rows.size(), absl::InvalidArgumentError("the whole batch"), how, written);
  return inserted;
}

// The columns of a minute row, as MinuteRowsOf reads them.
constexpr const char* kUsageMinuteColumnsSql =
    "SELECT device_id, pod_uid, (extract(epoch FROM minute) * 1000)::bigint, node, model,"
    " namespace, pod, util_mean, util_max, memory_used_bytes, memory_total_bytes, power_watts,"
    " energy_joules, sm_active_mean, tensor_active_mean, dram_active_mean, samples";

std::vector<UsageMinuteRow> MinuteRowsOf(const pqxx::result& rows) {
  std::vector<UsageMinuteRow> out;
  out.reserve(rows.size());
  for (const auto& row : rows) {
    UsageMinuteRow r;
    r.device_id = row[0].as<std::string>();
    r.pod_uid = row[1].as<std::string>();
    r.minute_ms = row[2].as<int64_t>();
    r.node = row[3].as<std::string>();
    r.model = row[4].as<std::string>();
    r.namespace_ = row[5].as<std::string>();
    r.pod = row[6].as<std::string>();
    r.util_mean = Opt<double>(row[7]);
    r.util_max = Opt<double>(row[8]);
    r.memory_used_bytes = Opt<int64_t>(row[9]);
    r.memory_total_bytes = Opt<int64_t>(row[10]);
    r.power_watts = Opt<double>(row[11]);
    r.energy_joules = Opt<double>(row[12]);
    r.sm_active_mean = Opt<double>(row[13]);
    r.tensor_active_mean = Opt<double>(row[14]);
    r.dram_active_mean = Opt<double>(row[15]);
    r.samples = row[16].as<int>();
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<SeriesIdentity>> PgUsageRepository::IdentifySeries(const std::string& cluster,
                                                                              const std::vector<SeriesName>& series) {
  if (series.empty()) return std::vector<SeriesIdentity>{};
  using Key = std::tuple<std::string, std::string, std::string, std::string>;  // device, ns, pod, field
  std::map<Key, SeriesIdentity> found;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    QuietTempTables(txn);
    txn.exec(
        "CREATE TEMP TABLE IF NOT EXISTS series_in (device_id text, namespace text, pod text, field text,"
        " node text, model text) ON COMMIT DELETE ROWS");
    {
      pqxx::stream_to copy(txn, "series_in");
      for (const SeriesName& s : series) {
        copy << std::make_tuple(s.device_id, s.namespace_, s.pod, s.field, s.node, s.model);
      }
      copy.complete();
    }
    // A series joins the inventory once, when first seen: the pod's uid by
    // namespace and name (else "namespace/pod"), and the device's node and
    // model when the exporter did not label them. A series seen again moves
    // its last_seen (what retention prunes by) only when that advances it by
    // more than an hour: a write per series an hour at most, however often
    // it is seen.
    txn.exec_params(
        "INSERT INTO telemetry_series (cluster, device_id, namespace, pod, field, pod_uid, node, model, last_seen)"
        " SELECT DISTINCT ON (i.device_id, i.namespace, i.pod, i.field)"
        "  $1, i.device_id, i.namespace, i.pod, i.field,"
        "  CASE WHEN i.pod = '' THEN '' ELSE coalesce("
        "    (SELECT p.pod_uid FROM pods p WHERE p.cluster = $1 AND p.namespace = i.namespace"
        "      AND p.name = i.pod ORDER BY p.created_at DESC LIMIT 1), i.namespace || '/' || i.pod) END,"
        "  coalesce(nullif(i.node, ''), (SELECT d.node FROM devices d WHERE d.cluster = $1"
        "    AND d.device_id = i.device_id ORDER BY d.in_service_from DESC LIMIT 1), ''),"
        "  coalesce(nullif(i.model, ''), (SELECT d.model FROM devices d WHERE d.cluster = $1"
        "    AND d.device_id = i.device_id ORDER BY d.in_service_from DESC LIMIT 1), ''),"
        "  $2::timestamptz"
        " FROM series_in i ON CONFLICT (cluster, device_id, namespace, pod, field) DO UPDATE"
        " SET last_seen = EXCLUDED.last_seen"
        " WHERE telemetry_series.last_seen < EXCLUDED.last_seen - interval '1 hour'",
        cluster, FormatRfc3339(ClockOf(options_).Now()));
    auto rows = txn.exec_params(
        "SELECT DISTINCT s.device_id, s.namespace, s.pod, s.field, s.pod_uid, s.node, s.model"
        " FROM telemetry_series s JOIN series_in i ON s.cluster = $1 AND s.device_id = i.device_id"
        "  AND s.namespace = i.namespace AND s.pod = i.pod AND s.field = i.field",
        cluster);
    txn.commit();
    for (const auto& row : rows) {
      found[Key{row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                row[3].as<std::string>()}] =
          SeriesIdentity{row[4].as<std::string>(), row[5].as<std::string>(), row[6].as<std::string>()};
    }
  } catch (const std::exception& e) {
    return PgError("usage: storing series", e);
  }
  std::vector<SeriesIdentity> out;
  out.reserve(series.size());
  for (const SeriesName& s : series) {
    auto it = found.find(Key{s.device_id, s.namespace_, s.pod, s.field});
    if (it == found.end()) {
      return absl::InternalError(
          absl::StrCat("usage: series of device ", s.device_id, " field ", s.field, " was not stored"));
    }
    out.push_back(it->second);
  }
  return out;
}

absl::Status PgUsageRepository::EnsurePartitions(pqxx::connection& conn, const std::vector<UsageMinuteRow>& rows) {
  std::set<int64_t> days;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const UsageMinuteRow& r : rows) {
      const int64_t day = DayOf(r.minute_ms);
      if (days_with_partition_.count(day) == 0) days.insert(day);
    }
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
    return PgError("usage: creating usage_minute partitions", e);
  }
  std::lock_guard<std::mutex> lock(mu_);
  days_with_partition_.insert(days.begin(), days.end());
  return absl::OkStatus();
}

absl::StatusOr<MinuteWriteResult> PgUsageRepository::Write(const std::string& cluster, std::vector<UsageMinuteRow> rows,
                                                           const std::string& source, const PushProgress* progress) {
  const absl::Time now = ClockOf(options_).Now();
  MinuteWriteResult result;
  rows = WithoutUnstorable(cluster, std::move(rows), source, now, options_.retention_days, &result.set_aside);
  const size_t foreseen = result.set_aside.size();
  const char* what = progress != nullptr ? "writing closed minutes" : "writing minute rows";
  bool one_by_one = false, partitions_checked = false;
  for (;;) {
    FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
    FLEETCAP_RETURN_IF_ERROR(EnsurePartitions(*lease, rows));
    result.set_aside.resize(foreseen);
    try {
      pqxx::work txn(*lease);
      LockCluster(txn, cluster);
      int64_t n = 0;
      if (!one_by_one) {
        n = InsertMinuteRows(txn, cluster, rows);
      } else {
        n = InsertAroundRefusals(txn, cluster, rows, source, now, result.set_aside);
      }
      std::vector<QuarantineRecord> records;
      for (const SetAsideMinute& s : result.set_aside) records.push_back(s.record);
      InsertQuarantine(txn, records);
      if (progress != nullptr) StoreProgress(txn, cluster, *progress);
      txn.commit();
      result.written = n;
      return result;
    } catch (const pqxx::sql_error& e) {
      if (NoPartition(e) && !partitions_checked) {
        // Retention dropped a partition this repository remembered: look again.
        std::lock_guard<std::mutex> lock(mu_);
        days_with_partition_.clear();
        partitions_checked = true;
        continue;
      }
      if (RefusesTheData(e) && !one_by_one) {
        one_by_one = true;  // find the rows it refuses
        continue;
      }
      return PgError(absl::StrCat("usage: ", what), e);
    } catch (const std::exception& e) {
      return PgError(absl::StrCat("usage: ", what), e);
    }
  }
}

absl::StatusOr<MinuteWriteResult> PgUsageRepository::WriteMinutes(const std::string& cluster,
                                                                  const std::vector<UsageMinuteRow>& rows,
                                                                  const std::string& source) {
  return Write(cluster, rows, source, nullptr);
}

absl::StatusOr<MinuteWriteResult> PgUsageRepository::WriteClosedMinutes(const std::string& cluster,
                                                                        const std::vector<UsageMinuteRow>& rows,
                                                                        const PushProgress& progress) {
  return Write(cluster, rows, "remote_write", &progress);
}

absl::StatusOr<PushState> PgUsageRepository::LoadPushState(const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  PushState state;
  try {
    pqxx::read_transaction txn(*lease);
    auto checkpoint =
        txn.exec_params("SELECT log_id, position FROM telemetry_push_checkpoints WHERE cluster = $1", cluster);
    if (!checkpoint.empty()) {
      state.log_id = checkpoint[0][0].as<std::string>();
      state.checkpoint = checkpoint[0][1].as<int64_t>();
    }
    for (const auto& row : txn.exec_params(
             "SELECT device_id, closed_through_ms FROM telemetry_push_devices WHERE cluster = $1", cluster)) {
      state.devices.push_back({row[0].as<std::string>(), row[1].as<int64_t>()});
    }
    for (const auto& row : txn.exec_params(
             "SELECT c.device_id, c.namespace, c.pod, c.field, c.ts_ms, c.value FROM telemetry_push_counters c"
             " JOIN telemetry_push_devices d ON d.cluster = c.cluster AND d.device_id = c.device_id"
             " WHERE c.cluster = $1",
             cluster)) {
      state.carried.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                               row[3].as<std::string>(), row[4].as<int64_t>(), row[5].as<double>()});
    }
  } catch (const std::exception& e) {
    return PgError("usage: reading the remote_write progress", e);
  }
  return state;
}

absl::StatusOr<std::map<std::string, absl::Time>> PgUsageRepository::Watermarks(const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    std::map<std::string, absl::Time> through;
    for (const auto& row : txn.exec_params(
             "SELECT metric, (extract(epoch FROM through) * 1000)::bigint FROM telemetry_watermarks WHERE cluster = $1",
             cluster)) {
      through[row[0].as<std::string>()] = absl::FromUnixMillis(row[1].as<int64_t>());
    }
    return through;
  } catch (const std::exception& e) {
    return PgError("usage: reading watermarks", e);
  }
}

absl::Status PgUsageRepository::AdvanceWatermarks(const std::string& cluster, const std::vector<std::string>& metrics,
                                                  absl::Time through) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    for (const auto& name : metrics) {
      // Never backwards: a backfill behind the watermark leaves it alone.
      txn.exec_params(
          "INSERT INTO telemetry_watermarks (cluster, metric, through) VALUES ($1, $2, $3::timestamptz)"
          " ON CONFLICT (cluster, metric) DO UPDATE SET through = greatest(telemetry_watermarks.through,"
          " EXCLUDED.through), updated_at = now()",
          cluster, name, FormatRfc3339(through));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("usage: writing watermarks", e);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<UsageBucket>> PgUsageRepository::Buckets(const UsageFilter& f, BucketWidth width) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<UsageBucket> out;
  try {
    // Hours of a cluster, a model or a namespace: the closed hours from the
    // cluster's hourly rollup (migration 0034), in one snapshot with the stale
    // hours that are read from the minutes instead.
    const bool rolled = width == BucketWidth::kHour && f.device.empty() && f.node.empty() && f.pod.empty() &&
                        (f.model.empty() || f.namespace_.empty());
    pqxx::result rows;
    if (rolled) {
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(*lease);
      std::vector<absl::Time> stale;
      for (const auto& row :
           txn.exec_params(kUsageStaleHoursSql, f.cluster, FormatRfc3339(f.start), FormatRfc3339(f.end))) {
        stale.push_back(absl::FromUnixSeconds(row[0].as<int64_t>()));
      }
      const UsageRolledHours parts = UsageRolledHoursOf(f.start, f.end, std::move(stale));
      rows = txn.exec_params(UsageRolledHoursSql(parts), f.cluster, f.pods, f.model, f.namespace_,
                             FormatRfc3339(parts.from), FormatRfc3339(parts.to), parts.stale);
      txn.commit();
    } else {
      pqxx::nontransaction txn(*lease);
      rows =
          txn.exec_params(absl::StrCat(kUsageBucketsBinnedSelectSql, kUsageFilterWhereSql, kUsageBucketsBinnedGroupSql),
                          f.cluster, FormatRfc3339(f.start), FormatRfc3339(f.end), f.pods, f.device, f.node, f.model,
                          f.pod, f.namespace_, absl::StrCat("1 ", TruncUnit(width)));
    }
    for (const auto& row : rows) {
      UsageBucket b;
      b.start = absl::FromUnixMillis(row[0].as<int64_t>());
      b.util_mean = Opt<double>(row[1]);
      b.util_max = Opt<double>(row[2]);
      b.memory_used_bytes = Opt<double>(row[3]);
      b.power_watts = Opt<double>(row[4]);
      b.samples = Opt<int64_t>(row[5]);
      b.series = row[6].as<int64_t>();
      out.push_back(b);
    }
  } catch (const std::exception& e) {
    return PgError("usage query", e);
  }
  return out;
}

absl::StatusOr<std::vector<UsageMinuteRow>> PgUsageRepository::Minutes(const UsageFilter& f) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    return MinuteRowsOf(txn.exec_params(
        absl::StrCat(kUsageMinuteColumnsSql, kUsageFilterWhereSql, " ORDER BY device_id, pod_uid, minute"), f.cluster,
        FormatRfc3339(f.start), FormatRfc3339(f.end), f.pods, f.device, f.node, f.model, f.pod, f.namespace_));
  } catch (const std::exception& e) {
    return PgError("usage: reading minutes", e);
  }
}

absl::StatusOr<std::vector<UsageMinuteRow>> PgUsageRepository::PodMinutes(const PodSeriesFilter& f) const {
  if (f.devices.empty() || f.pod_uids.empty()) return std::vector<UsageMinuteRow>{};
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    // Lists, not arrays: the planner reads each device's rows by the key
    // (cluster, device_id, pod_uid, minute) in both places minutes are kept.
    const auto quoted = [&txn](const std::vector<std::string>& items) {
      std::vector<std::string> out;
      out.reserve(items.size());
      for (const std::string& item : items) out.push_back(txn.quote(item));
      return absl::StrJoin(out, ",");
    };
    return MinuteRowsOf(txn.exec_params(
        absl::StrCat(kUsageMinuteColumnsSql,
                     " FROM fleetcap_usage_minutes($1, $2::timestamptz, $3::timestamptz) WHERE pod_uid <> ''"
                     " AND device_id IN (",
                     quoted(f.devices), ") AND pod_uid IN (", quoted(f.pod_uids),
                     ") ORDER BY device_id, pod_uid, minute"),
        f.cluster, FormatRfc3339(f.start), FormatRfc3339(f.end)));
  } catch (const std::exception& e) {
    return PgError("usage: reading the minutes of pods", e);
  }
}

}  // namespace fleetcap::store
