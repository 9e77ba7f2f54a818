// The minutes at rest (migration 0037, store/pg_usage_compaction.h) read
// back bit for bit: random minutes of random devices and pods (gaps, pods
// that come mid-hour, a pod's minute that is or is not its device's, a
// device that moves node, values of every kind: decimals of 0 to 15 places
// and means of them beside values as large as 1.5e300, integers, large and
// tiny, -0, subnormals, NaN, infinities, random bits), written by the
// store's writer, written again late (once their hour is at rest too), and
// moved to rest at random steps. After every step every minute read through
// PgUsageRepository::Minutes equals the last one written, each float by its
// bits, some hours' fields kept in decimals and others as floats (migration
// 0043), and moving them marked no hour for its rollups again. And a store
// populated before migration 0037 is migrated with its minutes where they
// were, read the same, and moved to rest an hour at a time; one whose
// minutes went to rest as floats before migration 0043 is converted to
// decimals an hour at a time, read the same meanwhile.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/migrations.h"
#include "store/migrator.h"
#include "store/pg_usage_compaction.h"
#include "store/pg_usage_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

using WrittenKey = std::tuple<std::string, std::string, int64_t>;  // device, pod uid, minute
using WrittenMinutes = std::map<WrittenKey, UsageMinuteRow>;

// 2026-01-01T00:00Z: far enough back to be moved to rest, within retention.
constexpr int64_t kFirstHourMs = 1767225600000;
constexpr int64_t kOneMinuteMs = 60000;

// A float that is equal only to itself, bit for bit, or none.
std::optional<uint64_t> Bits(std::optional<double> v) {
  if (!v) return std::nullopt;
  return absl::bit_cast<uint64_t>(*v);
}

// Every field, the floats as their bits.
auto Fields(const UsageMinuteRow& r) {
  return std::make_tuple(r.device_id, r.pod_uid, r.minute_ms, r.node, r.model, r.namespace_, r.pod, Bits(r.util_mean),
                         Bits(r.util_max), r.memory_used_bytes, r.memory_total_bytes, Bits(r.power_watts),
                         Bits(r.energy_joules), Bits(r.sm_active_mean), Bits(r.tensor_active_mean),
                         Bits(r.dram_active_mean), r.samples);
}

constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

// A decimal of `places` places (0 to 15) as a writer parses it: the float
// nearest to n / 10^places.
double Decimal(std::mt19937_64& random, int places) {
  const int64_t n = static_cast<int64_t>(random() % 4000000000000000) >> (random() % 40);
  return static_cast<double>(random() % 2 == 0 ? n : -n) / kPowersOfTen[places];
}

// A value of one of the kinds the store may hold, as `kind` says: 0, a
// decimal with as many places as the device reports (`places`); 1, the mean
// of four such (the last bits a float sum leaves); 2, a decimal of 0 to 15
// places; 3, an integer, large or tiny; 4, anything: -0, a subnormal, NaN,
// an infinity, random bits (a NaN's as the canonical NaN: the writer's text
// keeps no payload), 9.2e16. An hour of kinds 0 and 1 is kept in decimals,
// one with an odd value as floats (migration 0043).
std::optional<double> AnyValue(std::mt19937_64& random, int kind, int places) {
  if (random() % 16 == 0) return std::nullopt;
  switch (kind) {
    case 0:
      return Decimal(random, places);
    case 1: {
      const double level = Decimal(random, places);
      double sum = level;
      for (int i = 0; i < 3; ++i) sum += level + Decimal(random, places) / 1000;
      return sum / 4;
    }
    case 2:  // now and then a value so large that its decimals would overflow
      return random() % 50 == 0 ? 1.5e300 : Decimal(random, static_cast<int>(random() % 16));
    case 3: {
      const double n = static_cast<double>(random() % 1000000);
      return random() % 2 == 0 ? n * 1e12 : n * 1e-20;
    }
    default:
      switch (random() % 8) {
        case 0:
          return -0.0;
        case 1:
          return 4.9e-320;  // subnormal
        case 2:
          return std::numeric_limits<double>::quiet_NaN();
        case 3:
          return random() % 2 == 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        case 4: {
          const double bits = absl::bit_cast<double>(static_cast<uint64_t>(random()));
          return std::isnan(bits) ? std::numeric_limits<double>::quiet_NaN() : bits;
        }
        case 5:
          return 9.2e16;
        default:
          return Decimal(random, places);
      }
  }
}

// A device's minute, or a pod's share of it (equal to it, or not).
class RandomMinutes {
 public:
  explicit RandomMinutes(uint32_t seed) : random_(seed), values_(seed) {
    for (int d = 0; d < 5; ++d) places_[d] = static_cast<int>(random_() % 10);
  }

  std::vector<UsageMinuteRow> Batch(const WrittenMinutes& written) {
    std::vector<UsageMinuteRow> rows;
    std::map<WrittenKey, size_t> in_batch;  // a batch holds a minute once
    const int n = 1 + static_cast<int>(random_() % 60);
    for (int i = 0; i < n; ++i) {
      UsageMinuteRow device = Device();
      Add(device, rows, in_batch);
      if (random_() % 2 == 0) {
        UsageMinuteRow pod = device;
        const int p = static_cast<int>(random_() % 3);
        pod.pod_uid = absl::StrCat("uid-", device.device_id, "-", p);
        pod.namespace_ = absl::StrCat("ns", p);
        pod.pod = absl::StrCat("pod-", p);
        if (random_() % 4 == 0) {  // a pod's minute that is not its device's
          pod.util_mean = Plain();
          pod.samples = 1 + static_cast<int>(random_() % 4);
        }
        Add(pod, rows, in_batch);
      }
    }
    // A minute written before, written again (late, or corrected).
    if (!written.empty() && random_() % 2 == 0) {
      auto it = written.begin();
      std::advance(it, random_() % written.size());
      UsageMinuteRow again = it->second;
      again.power_watts = Plain();
      again.samples = 1 + static_cast<int>(random_() % 4);
      Add(again, rows, in_batch);
    }
    return rows;
  }

 private:
  double Plain() { return static_cast<double>(random_() % 1000000) / 1000.0; }

  // Device d's values are of kind d (AnyValue), with a number of places of its own.
  std::optional<double> Value(int device) { return AnyValue(values_, device, places_[device]); }

  UsageMinuteRow Device() {
    UsageMinuteRow r;
    const int d = static_cast<int>(random_() % 5);
    r.device_id = absl::StrCat("GPU-", d, "-7f3c9a2e-1b4d-4c8e-9a6f-0d2e4b6c8a1", d);
    // Six hours of minutes, more of some than others (gaps).
    r.minute_ms = kFirstHourMs + static_cast<int64_t>(random_() % (6 * 60)) * kOneMinuteMs;
    r.node = random_() % 10 == 0 ? "node-b" : "node-a";  // now and then on another node
    r.model = "A100";
    r.util_mean = Value(d);
    r.util_max = Value(d);
    if (random_() % 3 != 0) r.memory_used_bytes = static_cast<int64_t>(random_() % 80000) * 1048576;
    r.memory_total_bytes = int64_t{85899345920};
    r.power_watts = Value(d);
    r.energy_joules = Value(d);
    if (d != 4) {  // one device without the profiling fields
      r.sm_active_mean = Value(d);
      r.tensor_active_mean = Value(d);
      r.dram_active_mean = Value(d);
    }
    r.samples = 1 + static_cast<int>(random_() % 4);
    return r;
  }

  static void Add(const UsageMinuteRow& r, std::vector<UsageMinuteRow>& rows, std::map<WrittenKey, size_t>& in_batch) {
    const WrittenKey key{r.device_id, r.pod_uid, r.minute_ms};
    auto [it, fresh] = in_batch.emplace(key, rows.size());
    if (fresh) {
      rows.push_back(r);
    } else {
      rows[it->second] = r;
    }
  }

  std::mt19937 random_;
  std::mt19937_64 values_;
  int places_[5] = {};
};

class UsageAtRestTest : public testing::MigratedDatabaseTest {
 protected:
  std::string Scalar(const std::string& sql) {
    return pqxx::nontransaction(*conn_).exec(sql)[0][0].as<std::string>("NULL");
  }

  // Every minute of `cluster` read back, pods' and devices', against `want`.
  // The minutes read are those of [start, end), the first day's by default.
  void ExpectReadBack(const PgUsageRepository& repo, const std::string& cluster, const WrittenMinutes& want,
                      const std::string& where, absl::Time start = absl::FromUnixMillis(kFirstHourMs - 3600000),
                      absl::Time end = absl::FromUnixMillis(kFirstHourMs + 86400000)) {
    WrittenMinutes got;
    for (const bool pods : {false, true}) {
      UsageFilter f;
      f.cluster = cluster;
      f.start = start;
      f.end = end;
      f.pods = pods;
      auto rows = repo.Minutes(f);
      ASSERT_THAT(rows, IsOk());
      for (const UsageMinuteRow& r : *rows) {
        EXPECT_TRUE(got.emplace(WrittenKey{r.device_id, r.pod_uid, r.minute_ms}, r).second)
            << where << ": a minute read twice";
      }
    }
    ASSERT_EQ(got.size(), want.size()) << where;
    for (const auto& [key, row] : want) {
      auto it = got.find(key);
      ASSERT_NE(it, got.end()) << where << ": " << std::get<0>(key) << "/" << std::get<1>(key) << " at "
                               << std::get<2>(key);
      EXPECT_EQ(Fields(it->second), Fields(row))
          << where << ": " << std::get<0>(key) << "/" << std::get<1>(key) << " at " << std::get<2>(key);
    }
  }
};

TEST_F(UsageAtRestTest, RandomMinutesReadBackBitForBitWhereverTheyAre) {
  UsageStoreOptions options;
  options.retention_days = 36500;
  PgUsageRepository repo(pool(), options);
  PgUsageCompaction compaction(pool());
  const SimulatedClock clock(absl::FromUnixMillis(kFirstHourMs));
  RandomMinutes random_minutes(20260102);
  std::mt19937 steps(7);
  std::map<std::string, WrittenMinutes> written;
  int64_t moved = 0;
  for (int step = 0; step < 60; ++step) {
    const std::string cluster = steps() % 3 == 0 ? "k1" : "k0";
    const std::vector<UsageMinuteRow> batch = random_minutes.Batch(written[cluster]);
    auto result = repo.WriteMinutes(cluster, batch, "pull");
    ASSERT_THAT(result, IsOk());
    ASSERT_TRUE(result->set_aside.empty()) << "step " << step;
    for (const UsageMinuteRow& r : batch) written[cluster][{r.device_id, r.pod_uid, r.minute_ms}] = r;
    if (steps() % 4 == 0) {
      const std::string marked = Scalar(
          "SELECT (SELECT count(*) FROM usage_hour_changes) + (SELECT count(*) FROM usage_cluster_hour_changes)"
          " + (SELECT count(*) FROM chargeback_recompute)");
      auto done = compaction.Compact(clock, absl::Hours(1));
      ASSERT_THAT(done, IsOk());
      EXPECT_TRUE(done->complete);
      moved += done->minutes;
      EXPECT_EQ(Scalar("SELECT count(*) FROM usage_hours_to_compact"), "0") << "step " << step;
      EXPECT_EQ(Scalar("SELECT count(*) FROM usage_minute"), "0") << "step " << step;
      // The day moved gives its pages back, each of its hours (migration 0044).
      EXPECT_EQ(Scalar("SELECT relkind FROM pg_class WHERE relname = 'usage_minute_20260101'"), "p");
      EXPECT_EQ(Scalar("SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree('usage_minute_20260101')"), "0")
          << "step " << step;
      EXPECT_EQ(Scalar("SELECT (SELECT count(*) FROM usage_hour_changes) + (SELECT count(*) FROM"
                       " usage_cluster_hour_changes) + (SELECT count(*) FROM chargeback_recompute)"),
                marked)
          << "step " << step << ": moving minutes marked hours for their rollups";
    }
    for (const std::string c : {"k0", "k1"}) ExpectReadBack(repo, c, written[c], absl::StrCat("step ", step, " ", c));
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(moved, 0);
  // Some pods' hours keep only their device's series id, some their own arrays.
  EXPECT_NE(Scalar("SELECT count(*) FROM usage_series_hour WHERE values_series IS NOT NULL"), "0");
  EXPECT_NE(Scalar("SELECT count(*) FROM usage_series_hour h JOIN usage_series s USING (cluster, series_id)"
                   " WHERE s.pod_uid <> '' AND h.values_series IS NULL"),
            "0");
  // Some float fields' hours in decimals, others as floats (migration 0043).
  for (const std::string field : {"util_mean", "power_watts", "sm_active_mean"}) {
    EXPECT_NE(Scalar(absl::StrCat("SELECT count(*) FROM usage_series_hour WHERE ", field, "_form IS NOT NULL")), "0")
        << field;
    EXPECT_NE(Scalar(absl::StrCat("SELECT count(*) FROM usage_series_hour WHERE ", field, " IS NOT NULL")), "0")
        << field;
  }
}

// An hour moved gives its pages back while its day goes on (migration
// 0044): once it ended three hours ago its partition is emptied, the hours
// not moved yet keep theirs, and a minute written late to the hour given
// back is read back, moved and given back again.
TEST_F(UsageAtRestTest, AnHourMovedGivesItsPagesBackWhileTheDayGoesOn) {
  UsageStoreOptions options;
  options.retention_days = 36500;
  PgUsageRepository repo(pool(), options);
  PgUsageCompaction compaction(pool());
  const SimulatedClock clock(absl::FromUnixMillis(kFirstHourMs));
  // The hour that ended three hours ago, and the hour now.
  const int64_t now_hour_ms =
      std::stoll(Scalar("SELECT extract(epoch FROM date_trunc('hour', now(), 'UTC'))::bigint")) * 1000;
  const int64_t moved_hour_ms = now_hour_ms - 4 * 3600000;
  const std::string hour_part = absl::StrCat(
      "usage_minute_", absl::FormatTime("%Y%m%d_%H", absl::FromUnixMillis(moved_hour_ms), absl::UTCTimeZone()));
  const std::string now_part = absl::StrCat(
      "usage_minute_", absl::FormatTime("%Y%m%d_%H", absl::FromUnixMillis(now_hour_ms), absl::UTCTimeZone()));
  const auto minute = [](int64_t minute_ms, int device, double util) {
    UsageMinuteRow r;
    r.device_id = absl::StrCat("GPU-", device);
    r.minute_ms = minute_ms;
    r.node = "node-a";
    r.model = "H100";
    r.util_mean = util;
    r.power_watts = 300.125 + device;
    r.samples = 4;
    return r;
  };
  WrittenMinutes written;
  const auto write = [&](const std::vector<UsageMinuteRow>& rows) {
    auto result = repo.WriteMinutes("k0", rows, "pull");
    ASSERT_THAT(result, IsOk());
    ASSERT_TRUE(result->set_aside.empty());
    for (const UsageMinuteRow& r : rows) written[{r.device_id, r.pod_uid, r.minute_ms}] = r;
  };
  std::vector<UsageMinuteRow> rows;
  for (int d = 0; d < 4; ++d) {
    for (int m = 0; m < 60; ++m) rows.push_back(minute(moved_hour_ms + m * kOneMinuteMs, d, (d * 60 + m) / 1000.0));
    rows.push_back(minute(now_hour_ms, d, 0.5));
  }
  write(rows);
  if (HasFatalFailure()) return;
  const absl::Time from = absl::FromUnixMillis(moved_hour_ms - 3600000);
  const absl::Time to = absl::FromUnixMillis(now_hour_ms + 3600000);
  EXPECT_EQ(Scalar(absl::StrCat("SELECT pg_relation_size('", hour_part, "') > 0")), "t");

  auto done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->minutes, 240);
  EXPECT_EQ(Scalar(absl::StrCat("SELECT pg_relation_size('", hour_part, "')")), "0") << hour_part;
  EXPECT_EQ(Scalar(absl::StrCat("SELECT pg_relation_size('", now_part, "') > 0")), "t") << now_part;
  EXPECT_EQ(Scalar("SELECT count(*) FROM usage_minute"), "4");
  ExpectReadBack(repo, "k0", written, "the hour moved and given back", from, to);

  // Late: a minute written again, and one new, to the hour given back.
  write({minute(moved_hour_ms + 7 * kOneMinuteMs, 1, 0.875), minute(moved_hour_ms + 30 * kOneMinuteMs, 4, 0.25)});
  if (HasFatalFailure()) return;
  EXPECT_EQ(Scalar(absl::StrCat("SELECT count(*) FROM ", hour_part)), "2");
  ExpectReadBack(repo, "k0", written, "late minutes in the hour given back", from, to);
  done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->minutes, 2);
  EXPECT_EQ(Scalar(absl::StrCat("SELECT pg_relation_size('", hour_part, "')")), "0") << hour_part;
  EXPECT_EQ(Scalar("SELECT count(*) FROM usage_hours_to_compact WHERE hour <= now() - interval '3 hours'"), "0");
  ExpectReadBack(repo, "k0", written, "late minutes moved and given back", from, to);
}

// A cluster whose hours another process is moving is left for the next
// call, whatever its name; the others' hours are moved meanwhile.
TEST_F(UsageAtRestTest, AClusterBusyElsewhereIsLeftForTheNextCall) {
  UsageStoreOptions options;
  options.retention_days = 36500;
  PgUsageRepository repo(pool(), options);
  RandomMinutes random_minutes(3);
  const std::string odd = "k\"0\\x";  // a quote and a backslash, as a text[] element
  for (const std::string& cluster : {odd, std::string("k1")}) {
    auto written = repo.WriteMinutes(cluster, random_minutes.Batch({}), "pull");
    ASSERT_THAT(written, IsOk());
  }
  const SimulatedClock clock(absl::FromUnixMillis(kFirstHourMs));
  PgUsageCompaction compaction(pool());
  pqxx::work other(*conn_);
  other.exec_params("SELECT pg_advisory_xact_lock(hashtext('usage_compaction'), hashtext($1))", odd);
  auto done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->busy_clusters, 1);
  EXPECT_GT(done->hours, 0);
  EXPECT_EQ(other.exec1("SELECT count(*) FROM usage_minute WHERE cluster = 'k1'")[0].as<int>(), 0);
  EXPECT_GT(other.exec_params1("SELECT count(*) FROM usage_minute WHERE cluster = $1", odd)[0].as<int>(), 0);
  other.commit();
  done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->busy_clusters, 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM usage_minute"), "0");
}

// An ended day's indexes at rest are rebuilt once every hour of it is moved
// (migration 0046): the moves, an hour at a time as a live store makes
// them, leave the day's indexes grown, and the next call rebuilds them as
// compact as a REINDEX, reads answering the same. A day not ended keeps its
// marks; a minute written late to the ended day is moved and its day rebuilt
// again, an index a failed rebuild left invalid dropped first.
TEST_F(UsageAtRestTest, AnEndedDaysIndexesAtRestAreRebuiltOnceEveryHourIsMoved) {
  const auto write = [&](const std::string& from, const std::string& to, int devices) {
    pqxx::nontransaction(*conn_).exec(absl::StrCat(
        "INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod, util_mean, "
        "samples)"
        " SELECT 'k' || (d % 2), 'GPU-' || d, '', t, 'node-' || (d / 8), 'H100', '', '', (d % 100) / 100.0, 4"
        " FROM generate_series(0, ",
        devices - 1, ") d, generate_series(", from, ", ", to,
        ", interval '30 minutes') t ON CONFLICT (cluster, device_id, pod_uid, minute) DO UPDATE SET util_mean = 0.5"));
  };
  const std::string recent = "(date_trunc('hour', now(), 'UTC') - interval '3 hours')";
  pqxx::nontransaction(*conn_).exec(
      absl::StrCat("SELECT fleetcap_ensure_usage_partition('2026-01-01'),"
                   " fleetcap_ensure_usage_partition((",
                   recent, " AT TIME ZONE 'UTC')::date)"));
  write("'2026-01-01T00:00:00Z'::timestamptz", "'2026-01-01T23:59:00Z'", 200);
  write(recent, recent, 4);
  const auto read_back = [&] {
    return pqxx::nontransaction(*conn_).exec(
        "SELECT cluster, device_id, minute, float8send(util_mean), samples FROM ("
        "SELECT * FROM fleetcap_usage_minutes('k0', '-infinity', 'infinity')"
        " UNION ALL SELECT * FROM fleetcap_usage_minutes('k1', '-infinity', 'infinity')) m ORDER BY 1, 2, 3");
  };
  const auto before = read_back();
  ASSERT_EQ(before.size(), 200u * 48 + 4);
  const auto indexes = [&] { return std::stoll(Scalar("SELECT pg_indexes_size('usage_series_hour_20260101')")); };
  const auto marks = [&](const std::string& day) {
    return Scalar(absl::StrCat("SELECT count(*) FROM usage_series_days_to_reindex WHERE day = ", day));
  };
  const std::string recent_day = absl::StrCat("(", recent, " AT TIME ZONE 'UTC')::date");

  // Moved as a live store moves them, each hour once it is due: the oldest first.
  pqxx::nontransaction(*conn_).exec(
      "SELECT fleetcap_compact_usage_hour(cluster, hour) FROM usage_hours_to_compact ORDER BY hour, cluster");
  const int64_t grown = indexes();
  EXPECT_EQ(marks("'2026-01-01'"), "2");
  EXPECT_EQ(marks(recent_day), "2") << "both clusters' minutes of the recent hour";
  const SimulatedClock clock(absl::FromUnixMillis(kFirstHourMs));
  PgUsageCompaction compaction(pool());
  auto done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->hours, 0);
  EXPECT_EQ(done->days_reindexed, 1);
  const int64_t rebuilt = indexes();
  EXPECT_LT(rebuilt * 10, grown * 9) << "as grown " << grown << " bytes, rebuilt " << rebuilt;
  pqxx::nontransaction(*conn_).exec("REINDEX TABLE usage_series_hour_20260101");
  EXPECT_EQ(indexes(), rebuilt);
  EXPECT_EQ(marks("'2026-01-01'"), "0");
  EXPECT_EQ(marks(recent_day), "2") << "a day not ended is not rebuilt";
  EXPECT_EQ(read_back(), before);

  // A rebuild that failed left an invalid index behind; then a late minute.
  EXPECT_ANY_THROW(
      pqxx::nontransaction(*conn_).exec("CREATE UNIQUE INDEX CONCURRENTLY usage_series_hour_20260101_by_cluster_ccnew"
                                        " ON usage_series_hour_20260101 (cluster)"));
  EXPECT_EQ(Scalar("SELECT count(*) FROM pg_index WHERE indrelid = 'usage_series_hour_20260101'::regclass"
                   " AND NOT indisvalid"),
            "1");
  write("'2026-01-01T05:07:00Z'::timestamptz", "'2026-01-01T05:07:00Z'", 1);
  done = compaction.Compact(clock, absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(done->minutes, 1);
  EXPECT_EQ(done->days_reindexed, 1);
  EXPECT_EQ(marks("'2026-01-01'"), "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM pg_index WHERE indrelid = 'usage_series_hour_20260101'::regclass"), "2")
      << "the primary key and the series' index, nothing left invalid";
  EXPECT_EQ(read_back().size(), before.size() + 1);
}

// A clock whose budget lets one hour be moved a call.
struct OneHourABudget : Clock {
  absl::Time Now() const override { return absl::UnixEpoch(); }
  absl::Duration Monotonic() const override { return absl::Seconds(ticks_++ < 2 ? 0 : 1); }
  void SleepFor(absl::Duration) const override {}
  bool SleepUnlessStopped(absl::Duration, const std::atomic<bool>& stop) const override { return stop; }
  bool WaitFor(std::unique_lock<std::mutex>&, std::condition_variable&, absl::Duration,
               const std::function<bool()>& done) const override {
    return done();
  }
  mutable int ticks_ = 0;
};

// The schema as it was before the minutes went to rest: the migrations before `version`.
std::vector<Migration> MigrationsBefore(int version) {
  std::vector<Migration> out;
  for (const Migration& m : BuiltinMigrations()) {
    if (m.version < version) out.push_back(m);
  }
  return out;
}

TEST(UsageAtRestMigrationTest, AStoreWithMinutesIsMigratedAndMovedToRestAnHourAtATime) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(MigrationsBefore(37)).Apply(*conn), IsOk());
  // Two clusters' minutes over five hours, as the writers of then wrote them.
  pqxx::nontransaction(*conn).exec(R"sql(
    SELECT fleetcap_ensure_usage_partition('2026-01-01');
    INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod, util_mean, util_max,
                              memory_used_bytes, power_watts, energy_joules, samples)
    SELECT 'k' || (d % 2), 'GPU-' || d, p.uid, t, 'node-' || (d / 4), 'H100', p.ns, p.pod,
           ((d * 7 + extract(epoch FROM t)::bigint / 60) % 100) / 100.0, 1.0, d * 1048576, 300.5 + d, -0.0, 4
      FROM generate_series(0, 7) d,
           generate_series('2026-01-01T00:00:00Z'::timestamptz, '2026-01-01T04:59:00Z', interval '1 minute') t,
           LATERAL (VALUES ('', '', ''), ('uid-' || d, 'ns', 'pod-' || d)) p(uid, ns, pod)
     WHERE (d + extract(minute FROM t)::int) % 7 <> 0)sql");
  auto before = pqxx::nontransaction(*conn).exec(
      "SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), memory_used_bytes, float8send(power_watts),"
      " float8send(energy_joules), samples, node, pod FROM usage_minute ORDER BY 1, 2, 3, 4");
  ASSERT_GT(before.size(), 0u);

  ASSERT_THAT(Migrator().Apply(*conn), IsOk());
  EXPECT_EQ(pqxx::nontransaction(*conn).exec("SELECT count(*) FROM usage_hours_to_compact")[0][0].as<int>(), 10);
  const auto read_back = [&] {
    return pqxx::nontransaction(*conn).exec(
        "SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), memory_used_bytes,"
        " float8send(power_watts), float8send(energy_joules), samples, node, pod FROM ("
        "SELECT * FROM fleetcap_usage_minutes('k0', '-infinity', 'infinity')"
        " UNION ALL SELECT * FROM fleetcap_usage_minutes('k1', '-infinity', 'infinity')) m ORDER BY 1, 2, 3, 4");
  };
  EXPECT_EQ(read_back(), before);
  // An hour at a time, newest first; read the same after each.
  auto pool = PgPool::Open((*db)->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  PgUsageCompaction compaction(pool->get());
  for (int hours = 1; hours <= 10; ++hours) {
    auto done = compaction.Compact(OneHourABudget(), absl::Seconds(1));
    ASSERT_THAT(done, IsOk());
    EXPECT_EQ(done->hours, 1);
    EXPECT_EQ(read_back(), before) << hours << " hours moved";
  }
  EXPECT_EQ(pqxx::nontransaction(*conn).exec("SELECT count(*) FROM usage_minute")[0][0].as<int>(), 0);
  EXPECT_EQ(pqxx::nontransaction(*conn).exec("SELECT count(*) FROM usage_hours_to_compact")[0][0].as<int>(), 0);
}

// A store whose minutes went to rest as floats before migration 0043 is
// migrated with its hours read the same, and converted to decimals an hour
// at a time as the hours are moved, read the same after each.
TEST(UsageAtRestMigrationTest, HoursAtRestAsFloatsAreConvertedToDecimalsAnHourAtATime) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(MigrationsBefore(43)).Apply(*conn), IsOk());
  // Two clusters' minutes over five hours, moved to rest as the store of then moved them; one device's
  // power an odd value now and then (-0: its hours stay floats).
  pqxx::nontransaction(*conn).exec(R"sql(
    SELECT fleetcap_ensure_usage_partition('2026-01-01');
    INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod, util_mean, util_max,
                              memory_used_bytes, power_watts, energy_joules, samples, sm_active_mean)
    SELECT 'k' || (d % 2), 'GPU-' || d, p.uid, t, 'node-' || (d / 4), 'H100', p.ns, p.pod,
           ((d * 7 + extract(epoch FROM t)::bigint / 60) % 100) / 100.0, 1.0, d * 1048576,
           CASE WHEN d = 3 AND extract(minute FROM t)::int % 13 = 0 THEN '-0'::float8 ELSE 300.5 + d END,
           (extract(epoch FROM t)::bigint % 7919) * 0.001, 4,
           ((d + extract(minute FROM t)::int) % 50 + 0.123456::float8 + 0.2 + 0.3 + 0.1) / 4
      FROM generate_series(0, 7) d,
           generate_series('2026-01-01T00:00:00Z'::timestamptz, '2026-01-01T04:59:00Z', interval '1 minute') t,
           LATERAL (VALUES ('', '', ''), ('uid-' || d, 'ns', 'pod-' || d)) p(uid, ns, pod)
     WHERE (d + extract(minute FROM t)::int) % 7 <> 0;
    SELECT fleetcap_compact_usage_hour(cluster, hour) FROM usage_hours_to_compact)sql");
  const auto scalar = [&](const std::string& sql) { return pqxx::nontransaction(*conn).exec(sql)[0][0].as<int>(); };
  ASSERT_EQ(scalar("SELECT count(*) FROM usage_minute"), 0);
  const auto read_back = [&] {
    return pqxx::nontransaction(*conn).exec(
        "SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,"
        " float8send(power_watts), float8send(energy_joules), float8send(sm_active_mean), samples, node, pod FROM ("
        "SELECT * FROM fleetcap_usage_minutes('k0', '-infinity', 'infinity')"
        " UNION ALL SELECT * FROM fleetcap_usage_minutes('k1', '-infinity', 'infinity')) m ORDER BY 1, 2, 3, 4");
  };
  const auto before = read_back();
  ASSERT_GT(before.size(), 0u);

  ASSERT_THAT(Migrator().Apply(*conn), IsOk());
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_hours_to_compact"), 10);
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_series_hour WHERE util_mean_form IS NOT NULL"), 0);
  EXPECT_EQ(read_back(), before);
  auto pool = PgPool::Open((*db)->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  PgUsageCompaction compaction(pool->get());
  for (int hours = 1; hours <= 10; ++hours) {
    auto done = compaction.Compact(OneHourABudget(), absl::Seconds(1));
    ASSERT_THAT(done, IsOk());
    EXPECT_EQ(done->hours, 1);
    EXPECT_EQ(read_back(), before) << hours << " hours converted";
  }
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_hours_to_compact"), 0);
  // Every float field in decimals but the power of the hours with a -0.
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_series_hour WHERE util_mean IS NOT NULL OR util_max IS NOT NULL"
                   " OR energy_joules IS NOT NULL OR sm_active_mean IS NOT NULL"),
            0);
  EXPECT_GT(scalar("SELECT count(*) FROM usage_series_hour WHERE sm_active_mean_form IS NOT NULL"), 0);
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_series_hour h JOIN usage_series s USING (cluster, series_id)"
                   " WHERE h.power_watts IS NOT NULL AND s.device_id <> 'GPU-3'"),
            0);
  EXPECT_GT(scalar("SELECT count(*) FROM usage_series_hour WHERE power_watts IS NOT NULL"), 0);
}

// A store migrated from 0043 keeps its days' flat partitions: written to,
// read, moved to rest and given back by the day as before, beside a day
// created since, partitioned by hour and given back by the hour.
TEST(UsageAtRestMigrationTest, FlatDaysFromBeforeHourPartitionsKeepWorking) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(MigrationsBefore(44)).Apply(*conn), IsOk());
  const auto write = [&](const std::string& from, const std::string& to) {
    pqxx::nontransaction(*conn).exec(absl::StrCat(R"sql(
      INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod, util_mean, util_max,
                                memory_used_bytes, power_watts, energy_joules, samples)
      SELECT 'k' || (d % 2), 'GPU-' || d, p.uid, t, 'node-' || (d / 4), 'H100', p.ns, p.pod,
             ((d * 7 + extract(epoch FROM t)::bigint / 60) % 100) / 100.0, 1.0, d * 1048576, 300.5 + d, 0.25, 4
        FROM generate_series(0, 7) d, generate_series()sql",
                                                  from, ", ", to, R"sql(, interval '1 minute') t,
             LATERAL (VALUES ('', '', ''), ('uid-' || d, 'ns', 'pod-' || d)) p(uid, ns, pod)
       WHERE (d + extract(minute FROM t)::int) % 7 <> 0
      ON CONFLICT (cluster, device_id, pod_uid, minute) DO UPDATE SET util_max = 0.5)sql"));
  };
  const auto scalar = [&](const std::string& sql) {
    return pqxx::nontransaction(*conn).exec(sql)[0][0].as<std::string>("NULL");
  };
  // Two hours of 2026-01-01, and the hour four hours back (today's, or yesterday's early on).
  const std::string recent = "(date_trunc('hour', now(), 'UTC') - interval '4 hours')";
  const std::string recent_day = absl::StrCat("(", recent, " AT TIME ZONE 'UTC')::date");
  pqxx::nontransaction(*conn).exec(absl::StrCat(
      "SELECT fleetcap_ensure_usage_partition('2026-01-01'), fleetcap_ensure_usage_partition(", recent_day, ")"));
  write("'2026-01-01T00:00:00Z'::timestamptz", "'2026-01-01T01:59:00Z'");
  write(recent, absl::StrCat(recent, " + interval '59 minutes'"));

  ASSERT_THAT(Migrator().Apply(*conn), IsOk());
  const std::string recent_name =
      scalar(absl::StrCat("SELECT 'usage_minute_' || to_char(", recent_day, ", 'YYYYMMDD')"));
  EXPECT_EQ(scalar("SELECT relkind FROM pg_class WHERE relname = 'usage_minute_20260101'"), "r");
  EXPECT_EQ(scalar(absl::StrCat("SELECT relkind FROM pg_class WHERE relname = '", recent_name, "'")), "r");
  // Written to after the migration: late minutes to the flat days, and a day created since, by the hour.
  write("'2026-01-01T01:00:00Z'::timestamptz", "'2026-01-01T02:59:00Z'");
  write(recent, absl::StrCat(recent, " + interval '9 minutes'"));
  pqxx::nontransaction(*conn).exec("SELECT fleetcap_ensure_usage_partition('2026-01-02')");
  EXPECT_EQ(scalar("SELECT relkind FROM pg_class WHERE relname = 'usage_minute_20260102'"), "p");
  EXPECT_EQ(scalar("SELECT count(*) FROM pg_partition_tree('usage_minute_20260102') WHERE isleaf"), "24");
  write("'2026-01-02T05:00:00Z'::timestamptz", "'2026-01-02T06:59:00Z'");
  const auto read_back = [&] {
    return pqxx::nontransaction(*conn).exec(
        "SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,"
        " float8send(power_watts), float8send(energy_joules), samples, node, pod FROM ("
        "SELECT * FROM fleetcap_usage_minutes('k0', '-infinity', 'infinity')"
        " UNION ALL SELECT * FROM fleetcap_usage_minutes('k1', '-infinity', 'infinity')) m ORDER BY 1, 2, 3, 4");
  };
  const auto before = read_back();
  ASSERT_GT(before.size(), 0u);

  auto pool = PgPool::Open((*db)->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  PgUsageCompaction compaction(pool->get());
  auto done = compaction.Compact(SimulatedClock(absl::FromUnixMillis(kFirstHourMs)), absl::Hours(1));
  ASSERT_THAT(done, IsOk());
  EXPECT_TRUE(done->complete);
  EXPECT_EQ(scalar("SELECT count(*) FROM usage_minute"), "0");
  EXPECT_EQ(read_back(), before);
  // The flat day that ended is given back whole, the day by the hour each of its hours.
  EXPECT_EQ(scalar("SELECT pg_relation_size('usage_minute_20260101')"), "0");
  EXPECT_EQ(scalar("SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree('usage_minute_20260102')"), "0");
}

}  // namespace
}  // namespace fleetcap::store
