// The hourly usage read from the cluster's rollup (migration 0034,
// usage_cluster_hourly), and every other read from the minutes in buckets
// cut by date_bin (kUsageBucketsBinnedSelectSql), answer exactly what the
// minutes answered as one statement before (kUsageBucketsSelectSql): random
// minutes of devices and pods (models, namespaces, gaps, readings missing),
// compared with the per-minute statement (kUsageBucketsSelectSql) for every
// filter and resolution GET /v1/usage allows, before the hours are rolled up,
// after, and after late samples made some of them stale again. The means
// are compared to 1e-12 of their size (a sum of floats in another order);
// everything else exactly.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_usage_repository.h"
#include "store/pg_usage_rollup_repository.h"
#include "store/pg_usage_sql.h"
#include "store/usage_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using usage_contract::kHour;
using usage_contract::kMinute;
using usage_contract::kT0;

std::optional<double> OptDouble(const pqxx::field& f) {
  return f.is_null() ? std::nullopt : std::optional<double>(f.as<double>());
}

class UsageRollupReadTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    usage_ = std::make_unique<PgUsageRepository>(pool(), usage_contract::AtT0());
    rollups_ = std::make_unique<PgUsageRollupRepository>(pool());
  }

  // Random minutes of 8 devices on 2 nodes, 3 models ('' one of them), each
  // device's pods in 3 namespaces, over `hours` hours from kT0 + `from_hour`;
  // each row present with probability `density`.
  std::vector<UsageMinuteRow> RandomMinutes(int from_hour, int hours, double density, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::vector<std::string> models = {"H100", "A100", ""};
    const std::vector<std::string> namespaces = {"ml", "web", "batch"};
    std::vector<UsageMinuteRow> rows;
    for (int64_t m = 0; m < hours * 60; ++m) {
      const int64_t minute_ms = kT0 + from_hour * kHour + m * kMinute;
      for (int d = 0; d < 8; ++d) {
        for (int p = -1; p < 2; ++p) {  // -1: the device's own row
          if (unit(rng) >= density) continue;
          UsageMinuteRow r;
          r.device_id = absl::StrCat("gpu-", d);
          r.minute_ms = minute_ms;
          r.node = absl::StrCat("node-", d / 4);
          r.model = models[d % 3];
          if (p >= 0) {
            // Pods come and go: the uid changes every 20 minutes.
            r.pod_uid = absl::StrCat("uid-", d, "-", p, "-", m / 20);
            r.pod = absl::StrCat("pod-", d, "-", p);
            r.namespace_ = namespaces[(d + p) % 3];
          }
          if (unit(rng) < 0.9) r.util_mean = std::floor(unit(rng) * 1e6) / 1e6 * 1.3;
          if (unit(rng) < 0.9) r.util_max = unit(rng);
          if (unit(rng) < 0.85) r.memory_used_bytes = static_cast<int64_t>(unit(rng) * 8e10);
          if (unit(rng) < 0.85) r.power_watts = 100 + unit(rng) * 600;
          r.samples = 1 + static_cast<int>(unit(rng) * 6);
          rows.push_back(r);
        }
      }
    }
    return rows;
  }

  void Write(const std::vector<UsageMinuteRow>& rows) {
    auto written = usage_->WriteMinutes("c1", rows, "pull");
    ASSERT_TRUE(written.ok()) << written.status();
  }

  // What the minutes answer (the statement Buckets ran for every read before
  // migration 0034).
  std::vector<UsageBucket> FromMinutes(const UsageFilter& f, const char* unit) {
    std::vector<UsageBucket> out;
    pqxx::nontransaction txn(*conn_);
    for (const auto& row :
         txn.exec_params(absl::StrCat(kUsageBucketsSelectSql, kUsageFilterWhereSql, kUsageBucketsGroupSql), f.cluster,
                         FormatRfc3339(f.start), FormatRfc3339(f.end), f.pods, f.device, f.node, f.model, f.pod,
                         f.namespace_, unit)) {
      UsageBucket b;
      b.start = absl::FromUnixMillis(row[0].as<int64_t>());
      b.util_mean = OptDouble(row[1]);
      b.util_max = OptDouble(row[2]);
      b.memory_used_bytes = OptDouble(row[3]);
      b.power_watts = OptDouble(row[4]);
      if (!row[5].is_null()) b.samples = row[5].as<int64_t>();
      b.series = row[6].as<int64_t>();
      out.push_back(b);
    }
    return out;
  }

  static void ExpectNear(const std::optional<double>& got, const std::optional<double>& want, const std::string& what) {
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (!want) return;
    EXPECT_NEAR(*got, *want, std::abs(*want) * 1e-12) << what;
  }

  // Every filter and resolution the API allows, over windows aligned on the
  // hour and not, compared with the minutes. Returns the reads compared.
  int CompareAll(int hours, const std::string& stage) {
    std::vector<UsageFilter> filters;
    const auto add = [&](bool pods, const std::string& device, const std::string& node, const std::string& model,
                         const std::string& pod, const std::string& ns) {
      UsageFilter f;
      f.cluster = "c1";
      f.pods = pods;
      f.device = device;
      f.node = node;
      f.model = model;
      f.pod = pod;
      f.namespace_ = ns;
      filters.push_back(f);
    };
    add(false, "", "", "", "", "");
    add(true, "", "", "", "", "");
    for (const char* model : {"H100", "A100", "B200"}) add(false, "", "", model, "", "");
    for (const char* ns : {"ml", "web", "batch", "none"}) add(true, "", "", "", "", ns);
    add(false, "gpu-3", "", "", "", "");
    add(false, "", "node-1", "", "", "");
    add(true, "", "", "", "pod-2-1", "");
    add(true, "", "", "", "pod-5-0", "web");
    add(true, "", "", "", "", "");
    // Not the API's (pods with a model, a model and a namespace), the repository's all the same.
    add(true, "", "", "H100", "", "");
    add(true, "", "", "A100", "", "ml");
    const std::vector<std::pair<int64_t, int64_t>> windows = {
        {kT0, kT0 + hours * kHour},
        {kT0 - 3 * kHour, kT0 + (hours + 2) * kHour},
        {kT0 + 17 * kMinute, kT0 + (hours - 1) * kHour + 41 * kMinute},
        {kT0 + kHour + 5 * kMinute, kT0 + kHour + 50 * kMinute},
        {kT0 + 2 * kHour, kT0 + 3 * kHour},
        {kT0 + 90 * kMinute, kT0 + 3 * kHour + 1}};
    int compared = 0;
    for (const UsageFilter& base : filters) {
      for (const auto& [from, to] : windows) {
        for (const auto& [width, unit] : {std::pair{BucketWidth::kMinute, "minute"},
                                          std::pair{BucketWidth::kHour, "hour"}, std::pair{BucketWidth::kDay, "day"}}) {
          UsageFilter f = base;
          f.start = absl::FromUnixMillis(from);
          f.end = absl::FromUnixMillis(to);
          const std::string what = absl::StrCat(
              stage, ": ", unit, " [", FormatRfc3339(f.start), ", ", FormatRfc3339(f.end), ") pods ", f.pods,
              " device ", f.device, " node ", f.node, " model ", f.model, " pod ", f.pod, " namespace ", f.namespace_);
          const std::vector<UsageBucket> want = FromMinutes(f, unit);
          auto got = usage_->Buckets(f, width);
          EXPECT_TRUE(got.ok()) << what << ": " << got.status();
          if (!got.ok()) continue;
          EXPECT_EQ(got->size(), want.size()) << what;
          if (got->size() != want.size()) continue;
          for (size_t i = 0; i < want.size(); ++i) {
            const std::string at = absl::StrCat(what, " bucket ", FormatRfc3339(want[i].start));
            EXPECT_EQ((*got)[i].start, want[i].start) << at;
            EXPECT_EQ((*got)[i].series, want[i].series) << at;
            EXPECT_EQ((*got)[i].samples, want[i].samples) << at;
            EXPECT_EQ((*got)[i].util_max, want[i].util_max) << at;
            ExpectNear((*got)[i].util_mean, want[i].util_mean, at + " util_mean");
            ExpectNear((*got)[i].memory_used_bytes, want[i].memory_used_bytes, at + " memory");
            ExpectNear((*got)[i].power_watts, want[i].power_watts, at + " power");
          }
          ++compared;
        }
      }
    }
    return compared;
  }

  int64_t Count(const std::string& sql) { return pqxx::nontransaction(*conn_).exec(sql)[0][0].as<int64_t>(); }

  std::unique_ptr<PgUsageRepository> usage_;
  std::unique_ptr<PgUsageRollupRepository> rollups_;
};

TEST_F(UsageRollupReadTest, HoursFromTheRollupEqualTheMinutes) {
  constexpr int kHours = 5;
  // Hour 2 has no minute at all (a gap), hour 3 few.
  std::vector<UsageMinuteRow> rows = RandomMinutes(0, 2, 0.7, 1);
  for (auto& r : RandomMinutes(3, 1, 0.05, 2)) rows.push_back(r);
  for (auto& r : RandomMinutes(4, 1, 0.6, 3)) rows.push_back(r);
  Write(rows);

  // Nothing rolled up: every hour is stale, read from the minutes.
  EXPECT_EQ(Count("SELECT count(*) FROM usage_cluster_hourly"), 0);
  EXPECT_GT(CompareAll(kHours, "not rolled up"), 0);

  ASSERT_TRUE(rollups_->RollUp("c1", absl::FromUnixMillis(kT0), absl::FromUnixMillis(kT0 + kHours * kHour)).ok());
  EXPECT_EQ(Count("SELECT count(*) FROM usage_cluster_hour_changes"), 0);
  EXPECT_GT(Count("SELECT count(*) FROM usage_cluster_hourly WHERE model = '' AND namespace = ''"), 0);
  CompareAll(kHours, "rolled up");

  // Late samples: new rows in hour 1 (device rows only) and hour 3, and rows
  // of hour 4 written again with other readings.
  std::vector<UsageMinuteRow> late;
  for (auto& r : RandomMinutes(1, 1, 0.2, 4)) {
    if (r.pod_uid.empty()) late.push_back(r);
  }
  for (auto& r : RandomMinutes(3, 1, 0.3, 5)) late.push_back(r);
  for (auto& r : RandomMinutes(4, 1, 0.6, 3)) {
    if (r.util_mean) *r.util_mean /= 2;
    r.samples = 6;
    late.push_back(r);
  }
  Write(late);
  EXPECT_EQ(Count("SELECT count(DISTINCT hour) FROM usage_cluster_hour_changes"), 3);
  CompareAll(kHours, "late samples, stale hours");

  ASSERT_TRUE(rollups_->RollUp("c1", absl::FromUnixMillis(kT0), absl::FromUnixMillis(kT0 + kHours * kHour)).ok());
  EXPECT_EQ(Count("SELECT count(*) FROM usage_cluster_hour_changes"), 0);
  CompareAll(kHours, "rolled up again");

  // Minutes deleted make their hour stale too, and the rollup of an hour
  // without minutes keeps no row.
  pqxx::nontransaction(*conn_).exec_params("DELETE FROM usage_minute WHERE minute >= $1::timestamptz",
                                           FormatRfc3339(absl::FromUnixMillis(kT0 + 3 * kHour)));
  CompareAll(kHours, "deleted, stale");
  ASSERT_TRUE(rollups_->RollUp("c1", absl::FromUnixMillis(kT0), absl::FromUnixMillis(kT0 + kHours * kHour)).ok());
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM usage_cluster_hourly WHERE hour >= '",
                               FormatRfc3339(absl::FromUnixMillis(kT0 + 3 * kHour)), "'")),
            0);
  CompareAll(kHours, "deleted, rolled up");
}

// The parts of a window: its whole hours (the rolled-up ones), and the
// ranges read from the minutes (part-hours at either end, stale hours).
TEST(UsageRolledHoursTest, SplitsAWindowIntoRolledHoursAndMinuteRanges) {
  const absl::Time t0 = absl::FromUnixMillis(kT0);
  const auto h = [&](int n) { return t0 + absl::Hours(n); };
  auto parts = UsageRolledHoursOf(h(0) + absl::Minutes(10), h(5) + absl::Minutes(5), {h(2), h(3), h(2), h(0), h(7)});
  EXPECT_EQ(parts.from, h(1));
  EXPECT_EQ(parts.to, h(5));
  EXPECT_EQ(parts.stale, "{\"2026-01-01T02:00:00Z\",\"2026-01-01T03:00:00Z\"}");
  ASSERT_EQ(parts.minutes.size(), 3u);
  EXPECT_EQ(parts.minutes[0], std::make_pair(h(0) + absl::Minutes(10), h(1)));
  EXPECT_EQ(parts.minutes[1], std::make_pair(h(2), h(4)));
  EXPECT_EQ(parts.minutes[2], std::make_pair(h(5), h(5) + absl::Minutes(5)));

  parts = UsageRolledHoursOf(h(0), h(30 * 24), {});
  EXPECT_EQ(parts.from, h(0));
  EXPECT_EQ(parts.to, h(30 * 24));
  EXPECT_EQ(parts.stale, "{}");
  EXPECT_TRUE(parts.minutes.empty());

  // Within one hour: minutes only.
  parts = UsageRolledHoursOf(h(1) + absl::Minutes(1), h(1) + absl::Minutes(59), {h(1)});
  EXPECT_EQ(parts.from, parts.to);
  ASSERT_EQ(parts.minutes.size(), 1u);
  EXPECT_EQ(parts.minutes[0], std::make_pair(h(1) + absl::Minutes(1), h(1) + absl::Minutes(59)));
}

}  // namespace
}  // namespace fleetcap::store
