// PgCapacityRepository keeps the same contract as the in-memory form, on a
// fresh database per test.

#include "store/pg_capacity_repository.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/capacity_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgCapacityTest : public testing::MigratedDatabaseTest {
 public:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgCapacityRepository>(pool());
  }
  const CapacityReadRepository& repo() { return *repo_; }

  // Each interval a device of its own.
  void AddDevice(const std::string& cluster, const std::string& model, absl::Time from, std::optional<absl::Time> to) {
    std::optional<std::string> until;
    if (to) until = FormatRfc3339(*to);
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params(
        "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, 'nvidia', 'nvidia.com/gpu')"
        " ON CONFLICT DO NOTHING",
        model);
    txn.exec_params(
        "INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)"
        " VALUES ($1, $2, 'n1', 0, $3, $4::timestamptz, $5::timestamptz)",
        cluster, absl::StrCat("dev-", ++devices_), model, FormatRfc3339(from), until);
    txn.commit();
  }

  void AddAssetDevice(const std::string& cluster, const Device& d) {
    std::optional<std::string> until;
    if (d.in_service_to) until = FormatRfc3339(*d.in_service_to);
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params(
        "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, 'nvidia', 'nvidia.com/gpu')"
        " ON CONFLICT DO NOTHING",
        d.model);
    txn.exec_params(
        "INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)"
        " VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)",
        cluster, d.device_id, d.node, d.index, d.model, FormatRfc3339(d.in_service_from), until);
    txn.commit();
  }

  void AddHold(const std::string& cluster, const Hold& h) {
    std::optional<std::string> until;
    if (h.to) until = FormatRfc3339(*h.to);
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params(
        "INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from, held_to)"
        " VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz)",
        cluster, h.pod_uid, h.device_id, h.milli, FormatRfc3339(h.from), until);
    txn.commit();
  }

  void AddPod(const std::string& cluster, const Pod& p) {
    pqxx::work txn(*conn_);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", cluster);
    txn.exec_params(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz)",
        cluster, p.uid, p.namespace_name, p.name, p.team, p.workload_kind, p.workload_name, FormatRfc3339(p.created));
    txn.commit();
  }

 private:
  std::unique_ptr<PgCapacityRepository> repo_;
  int devices_ = 0;
};

FLEETCAP_CAPACITY_CONTRACT_TESTS(PgCapacityTest)

// DeviceTime reads the segments between the fleet's capacity steps and
// spreads them over the buckets itself: the same points as each device's
// time in service summed per bucket, over random service periods (open or
// closed, starting before, in and after the windows, several on one
// instant) and random windows, widths and filters.
TEST_F(PgCapacityTest, DeviceTimeEqualsEachDevicesTimeSummedPerBucket) {
  struct Interval {
    std::string cluster, model;
    absl::Time from;
    std::optional<absl::Time> to;
  };
  const absl::Time t0 = absl::FromUnixSeconds(1'772'323'200);  // 2026-03-01T00:00:00Z
  std::mt19937_64 random(31);
  auto minutes = [&](int64_t lo, int64_t hi) {
    return absl::Minutes(std::uniform_int_distribution<int64_t>(lo, hi)(random));
  };
  std::vector<Interval> devices;
  for (int i = 0; i < 60; ++i) {
    Interval d{absl::StrCat("c", i % 3), i % 2 == 0 ? "A100" : "H100", t0 + minutes(-600, 3000), std::nullopt};
    // Some start on the same instant as another.
    if (i % 7 == 3) d.from = devices.back().from;
    if (i % 4 != 0) d.to = d.from + minutes(1, 2000);
    AddDevice(d.cluster, d.model, d.from, d.to);
    devices.push_back(d);
  }
  for (int trial = 0; trial < 40; ++trial) {
    CapacityFilter f;
    f.width = trial % 2 == 0 ? absl::Hours(1) : absl::Hours(24);
    f.start = t0 + f.width * std::uniform_int_distribution<int64_t>(-2, 2)(random);
    f.end = f.start + f.width * std::uniform_int_distribution<int64_t>(1, trial % 2 == 0 ? 60 : 4)(random);
    if (trial % 5 == 1) f.cluster = "c1";
    if (trial % 5 == 2) f.model = "H100";
    std::map<std::tuple<std::string, std::string, absl::Time>, int64_t> want;
    for (const Interval& d : devices) {
      if ((!f.cluster.empty() && d.cluster != f.cluster) || (!f.model.empty() && d.model != f.model)) continue;
      for (absl::Time bucket = f.start; bucket < f.end; bucket += f.width) {
        const absl::Time from = std::max(d.from, bucket);
        const absl::Time to = std::min(d.to.value_or(absl::InfiniteFuture()), bucket + f.width);
        if (to > from) want[{d.cluster, d.model, bucket}] += absl::ToInt64Milliseconds(to - from);
      }
    }
    std::vector<CapacityPoint> expected;
    for (const auto& [key, milli] : want) {
      expected.push_back({std::get<2>(key), std::get<0>(key), std::get<1>(key), milli});
    }
    auto got = repo().DeviceTime(f);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, expected) << "trial " << trial;
  }
  // Buckets under a millisecond are refused, as the query's division by zero was.
  CapacityFilter tiny;
  tiny.start = t0 + absl::Hours(51);  // after every device began: the open ones are in service
  tiny.end = tiny.start + absl::Milliseconds(1);
  tiny.width = absl::Microseconds(500);
  EXPECT_EQ(repo().DeviceTime(tiny).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::store
