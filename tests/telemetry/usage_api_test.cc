// UsageService end to end: rows stored by the telemetry writer, read back
// through a real fleetcap-api over HTTP/JSON and through fleetcapctl (gRPC).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "common/pg_pool.h"
#include "ingest/telemetry/usage_writer.h"
#include "nlohmann/json.hpp"
#include "store/pg_usage_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using telemetry::CanonicalSeries;
using telemetry::Field;
using ::testing::HasSubstr;

constexpr int64_t kApiT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

// Two hours: GPU-A used by pod p1 (ml) at 1 + (i % 5) / 10, GPU-B at 0.25;
// a sample every 30 s.
std::vector<CanonicalSeries> TwoHours() {
  CanonicalSeries a, b, power;
  a.key = {"GPU-A", "ml", "p1", "node-1", "H100"};
  b.key = {"GPU-B", "", "", "node-2", "T4"};
  power.key = b.key;
  a.field = b.field = Field::kUtil;
  power.field = Field::kPower;
  for (int i = 0; i < 240; ++i) {
    a.points.push_back({kApiT0 + i * 30'000, 0.1 * (1 + i % 5)});
    b.points.push_back({kApiT0 + i * 30'000, 0.25});
    power.points.push_back({kApiT0 + i * 30'000, 70.0 + (i % 2)});
  }
  return {a, b, power};
}

class UsageApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = db->release();
    auto pool = PgPool::Open(db_->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    store::PgUsageRepository usage(pool->get());
    telemetry::UsageWriter writer(&usage, "c1");
    telemetry::MinuteWindow window(absl::ZeroDuration());
    window.Add(0, 1, TwoHours(), absl::Now());
    auto written = writer.WriteClosed(window.Close(absl::Now(), true), "test-log");
    ASSERT_THAT(written, IsOk());
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_->uri());
    ASSERT_THAT(api, IsOk());
    api_ = new testing::ApiProcess(std::move(*api));
  }
  static void TearDownTestSuite() {
    delete api_;
    delete db_;
  }
  static nlohmann::json Get(const std::string& query, long want_status = 200) {
    auto r = testing::HttpGet(api_->http_base() + "/v1/usage?" + query, api_->admin_token);
    EXPECT_THAT(r, IsOk());
    EXPECT_EQ(r->status, want_status) << r->body;
    return nlohmann::json::parse(r->body);
  }
  static testing::TestDatabase* db_;
  static testing::ApiProcess* api_;
};
testing::TestDatabase* UsageApiTest::db_ = nullptr;
testing::ApiProcess* UsageApiTest::api_ = nullptr;

TEST_F(UsageApiTest, HourlyDevicesOverHttp) {
  auto j = Get("cluster=c1&start=2026-01-01T00:00:00Z&end=2026-01-01T02:00:00Z&resolution=hour");
  ASSERT_EQ(j["buckets"].size(), 2u) << j.dump();
  // Per hour: 120 samples of GPU-A (mean 0.3) and 120 of GPU-B (0.25).
  EXPECT_NEAR(j["buckets"][0]["utilMean"].get<double>(), (0.3 + 0.25) / 2, 1e-12);
  EXPECT_DOUBLE_EQ(j["buckets"][0]["utilMax"].get<double>(), 0.5);
  EXPECT_EQ(j["buckets"][0]["samples"], "240");
  EXPECT_EQ(j["buckets"][0]["series"], "2");
  EXPECT_EQ(j["buckets"][1]["start"], "2026-01-01T01:00:00Z");
  EXPECT_EQ(j["resolution"], "HOUR");
}

TEST_F(UsageApiTest, SelectorsAndResolutions) {
  auto node = Get("cluster=c1&node=node-2&start=2026-01-01T00:00:00Z&end=2026-01-01T02:00:00Z&resolution=day");
  ASSERT_EQ(node["buckets"].size(), 1u);
  EXPECT_DOUBLE_EQ(node["buckets"][0]["utilMean"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(node["buckets"][0]["powerWatts"].get<double>(), 70.5);
  auto pod =
      Get("cluster=c1&pod=p1&namespace=ml&start=2026-01-01T00:00:00Z&end=2026-01-01T00:05:00Z&resolution=minute");
  ASSERT_EQ(pod["buckets"].size(), 5u);
  // Minute 0 holds samples 0 and 1: 0.1 and 0.2.
  EXPECT_NEAR(pod["buckets"][0]["utilMean"].get<double>(), 0.15, 1e-12);
  EXPECT_EQ(pod["buckets"][0]["samples"], "2");
  auto model = Get("cluster=c1&model=H100&start=2026-01-01T00:00:00Z&end=2026-01-01T02:00:00Z");
  ASSERT_EQ(model["buckets"].size(), 2u);
  EXPECT_NEAR(model["buckets"][0]["utilMean"].get<double>(), 0.3, 1e-12);
  auto none = Get("cluster=other&start=2026-01-01T00:00:00Z&end=2026-01-01T02:00:00Z");
  EXPECT_FALSE(none.contains("buckets") && !none["buckets"].empty());
}

TEST_F(UsageApiTest, BadRequestsNameTheField) {
  auto no_end = Get("cluster=c1&start=2026-01-01T00:00:00Z", 400);
  EXPECT_THAT(no_end["message"].get<std::string>(), HasSubstr("end"));
  auto bad_res = Get("cluster=c1&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z&resolution=week", 400);
  EXPECT_THAT(bad_res["message"].get<std::string>(), HasSubstr("resolution"));
  auto two = Get("cluster=c1&device=GPU-A&node=node-1&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z", 400);
  EXPECT_THAT(two["message"].get<std::string>(), HasSubstr("at most one"));
  auto huge = Get("cluster=c1&start=2000-01-01T00:00:00Z&end=2026-01-02T00:00:00Z&resolution=minute", 400);
  EXPECT_THAT(huge["message"].get<std::string>(), HasSubstr("buckets"));
}

TEST_F(UsageApiTest, FleetcapctlOverGrpc) {
  auto json =
      testing::Run({fleetcap::testing::kCtlBin, "usage", "--server", api_->grpc_address(), "--token", api_->admin_token,
                    "--cluster", "c1", "--device", "GPU-B", "--start", "2026-01-01T00:00:00Z", "--end",
                    "2026-01-01T00:10:00Z", "--resolution", "minute", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["buckets"].size(), 10u);
  EXPECT_DOUBLE_EQ(j["buckets"][9]["utilMean"].get<double>(), 0.25);
  auto table =
      testing::Run({fleetcap::testing::kCtlBin, "usage", "--server", api_->grpc_address(), "--token", api_->admin_token,
                    "--cluster", "c1", "--start", "2026-01-01T00:00:00Z", "--end", "2026-01-01T02:00:00Z"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("27.5%")) << table.out;  // (0.3 + 0.25) / 2
  EXPECT_THAT(table.out, HasSubstr("2026-01-01T01:00:00Z")) << table.out;
  auto bad = testing::Run({fleetcap::testing::kCtlBin, "usage", "--server", api_->grpc_address(), "--token",
                           api_->admin_token, "--cluster", "c1", "--resolution", "fortnight"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--resolution")) << bad.err;
}

}  // namespace
}  // namespace fleetcap
