#include "store/pg_chargeback_devices.h"

#include <string>
#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "store/pg_devices_held_sql.h"

namespace fleetcap::store::pg_chargeback_devices {
namespace {

// The clusters ($3, '' for any) with an hour of [$1, $2) computed before
// devices were kept (migration 0041).
constexpr const char* kNotKeptSql = R"sql(
SELECT DISTINCT cluster COLLATE "C" FROM chargeback_device_hours_missing
WHERE hour >= $1::timestamptz AND hour < $2::timestamptz AND ($3::text = '' OR cluster = $3::text)
ORDER BY 1
)sql";

absl::StatusOr<int64_t> SumOf(const pqxx::field& f, const char* what) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(f.c_str(), &v)) {
    return absl::OutOfRangeError(absl::StrCat("chargeback: the devices' sum of ", what, " is past int64"));
  }
  return v;
}

}  // namespace

void Replace(pqxx::transaction_base& txn, const std::string& cluster, absl::Time start, absl::Time end,
             const std::vector<DeviceHourRecord>& devices) {
  txn.exec_params(
      "DELETE FROM chargeback_device_hourly WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < "
      "$3::timestamptz",
      cluster, FormatRfc3339(start), FormatRfc3339(end));
  txn.exec_params(
      "DELETE FROM chargeback_device_hours_missing WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < "
      "$3::timestamptz",
      cluster, FormatRfc3339(start), FormatRfc3339(end));
  if (!devices.empty()) {
    pqxx::stream_to copy(txn, "chargeback_device_hourly",
                         std::vector<std::string>{"cluster", "hour", "device_id", "model", "node", "held_milli_seconds",
                                                  "used_milli_seconds", "observed_milli_seconds"});
    for (const DeviceHourRecord& d : devices) {
      copy << std::make_tuple(d.cluster, FormatRfc3339(d.hour), d.device_id, d.model, d.node, d.held_milli_seconds,
                              d.used_milli_seconds, d.observed_milli_seconds);
    }
    copy.complete();
  }
  // The days the hours touch, rebuilt whole, a day's rows together.
  const absl::Time days_start = DayStart(start);
  const absl::Time days_end = DayStart(end - absl::Hours(1)) + absl::Hours(24);
  txn.exec_params(
      "DELETE FROM chargeback_device_daily WHERE cluster = $1 AND day >= $2::timestamptz AND day < $3::timestamptz",
      cluster, FormatRfc3339(days_start), FormatRfc3339(days_end));
  txn.exec_params(
      "INSERT INTO chargeback_device_daily (cluster, day, device_id, model, node, held_milli_seconds,"
      " used_milli_seconds, observed_milli_seconds)"
      " SELECT cluster, date_trunc('day', hour, 'UTC'), device_id, model, node,"
      " fleetcap_sum_int64(held_milli_seconds), fleetcap_sum_int64(used_milli_seconds),"
      " fleetcap_sum_int64(observed_milli_seconds)"
      " FROM chargeback_device_hourly WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz"
      " GROUP BY cluster, 2, device_id, model, node ORDER BY 2",
      cluster, FormatRfc3339(days_start), FormatRfc3339(days_end));
}

absl::StatusOr<DeviceUse> Read(pqxx::transaction_base& txn, const DeviceUseFilter& f) {
  // Whole days inside the window, or none: then every hour is ragged.
  absl::Time days_start = DayStart(f.start) == f.start ? f.start : DayStart(f.start) + absl::Hours(24);
  absl::Time days_end = DayStart(f.end);
  if (days_start >= days_end) days_start = days_end = f.end;
  const pqxx::result rows = txn.exec_params(kDevicesHeldSql, FormatRfc3339(days_start), FormatRfc3339(days_end),
                                            FormatRfc3339(f.start), FormatRfc3339(days_start), FormatRfc3339(days_end),
                                            FormatRfc3339(f.end), f.cluster, f.model, f.node, f.by_device);
  DeviceUse out;
  out.sums.reserve(rows.size());
  for (const auto& row : rows) {
    DeviceUseSum& s = out.sums.emplace_back();
    s.cluster = row[0].as<std::string>();
    s.model = row[1].as<std::string>();
    s.node = row[2].as<std::string>();
    s.device_id = row[3].as<std::string>();
    FLEETCAP_ASSIGN_OR_RETURN(s.held_milli_seconds, SumOf(row[4], "held_milli_seconds"));
    FLEETCAP_ASSIGN_OR_RETURN(s.used_milli_seconds, SumOf(row[5], "used_milli_seconds"));
    FLEETCAP_ASSIGN_OR_RETURN(s.observed_milli_seconds, SumOf(row[6], "observed_milli_seconds"));
  }
  for (const auto& row : txn.exec_params(kNotKeptSql, FormatRfc3339(f.start), FormatRfc3339(f.end), f.cluster)) {
    out.clusters_not_kept.push_back(row[0].as<std::string>());
  }
  return out;
}

}  // namespace fleetcap::store::pg_chargeback_devices
