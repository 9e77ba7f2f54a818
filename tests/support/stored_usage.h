#pragma once
// The telemetry a test finds stored: the per-minute usage rows, the series
// the ingest identified and the pull path's watermarks. No store interface
// reads these whole (UsageReadRepository reads one side, devices or pods, of
// a window), so the tests that check what was written ask here, one reader a
// question, and compare the values.

#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "store/usage_repository.h"
#include "tests/support/rows_where.h"

namespace fleetcap::testing {

// Every usage_minute row of `cluster`, the whole devices' and the pods'
// shares alike, ordered by (device, pod_uid, minute).
std::vector<store::UsageMinuteRow> StoredMinutes(pqxx::connection& conn, const std::string& cluster);

// The rows of StoredMinutes as comparable text, one line each in the order of
// the columns (the minute in Unix seconds); floats printed exactly (%.17g),
// NULL as "-".
std::vector<std::string> UsageRows(pqxx::connection& conn, const std::string& cluster);

// The sum of `samples` over `rows`.
int64_t TotalSamples(const std::vector<store::UsageMinuteRow>& rows);

// Whether the daily partition of usage_minute for `day` ("20251231") exists.
bool HasUsagePartition(pqxx::connection& conn, const std::string& day);

// The (cluster, hour) pairs usage_hour_changes (or `table`, e.g.
// usage_cluster_hour_changes) holds, each once and ordered: the hours whose
// minutes changed since their last rollup.
std::vector<std::pair<std::string, absl::Time>> HoursAwaitingRollup(pqxx::connection& conn,
                                                                    const std::string& table = "usage_hour_changes");

// One row of telemetry_series: a series as the exporter named it, when it
// was last seen.
struct StoredSeries {
  std::string device_id, namespace_, pod, field;
  std::string pod_uid, node, model;
  absl::Time last_seen;
};

// The series of `cluster`, ordered by (pod, field, device).
std::vector<StoredSeries> StoredTelemetrySeries(pqxx::connection& conn, const std::string& cluster);

// One row of telemetry_watermarks: the pull path's progress of a metric.
struct StoredWatermark {
  std::string cluster, metric;
  absl::Time through;
};

// Every cluster's watermarks, ordered by (cluster, metric).
std::vector<StoredWatermark> StoredWatermarks(pqxx::connection& conn);

}  // namespace fleetcap::testing
