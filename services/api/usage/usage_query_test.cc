// UsageQuery on the in-memory usage store: the request checked field by
// field, then the store's buckets as the report's.

#include "services/api/usage/usage_query.h"

#include <gtest/gtest.h>

#include <string>

#include "proto_time.h"
#include "store/memory_usage_repository.h"
#include "store/usage_contract.h"

namespace fleetcap::api {
namespace {

constexpr int64_t kUsageT0 = store::usage_contract::kT0;

constexpr int64_t kMinute = 60'000;
constexpr int64_t kHour = 3'600'000;

v1::GetUsageRequest Request(int64_t start_ms, int64_t end_ms) {
  v1::GetUsageRequest request;
  request.set_cluster("c1");
  *request.mutable_start() = ToProtoTimestamp(absl::FromUnixMillis(start_ms));
  *request.mutable_end() = ToProtoTimestamp(absl::FromUnixMillis(end_ms));
  return request;
}

class UsageQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::UsageMinuteRow a = store::usage_contract::Row("GPU-0", kUsageT0, 0.25);
    a.memory_used_bytes = 1001;
    store::UsageMinuteRow b = store::usage_contract::Row("GPU-0", kUsageT0 + kMinute, 0.75);
    b.memory_used_bytes = 1002;
    store::UsageMinuteRow later = store::usage_contract::Row("GPU-0", kUsageT0 + kHour, 0.5);
    store::UsageMinuteRow pod = store::usage_contract::PodRow("GPU-0", "uid-a", "train-0", kUsageT0, 0.25);
    auto written = usage_.WriteMinutes("c1", {a, b, later, pod}, "pull");
    ASSERT_TRUE(written.ok()) << written.status();
  }

  store::MemoryUsageRepository usage_{store::usage_contract::AtT0()};
  UsageQuery query_{&usage_, nullptr};  // Run reads no teams
};

TEST_F(UsageQueryTest, HourlyByDefaultWithTheStoresFigures) {
  auto report = query_.Run(Request(kUsageT0, kUsageT0 + 2 * kHour));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->cluster(), "c1");
  EXPECT_EQ(report->resolution(), v1::HOUR);
  ASSERT_EQ(report->buckets_size(), 2);
  const auto& first = report->buckets(0);
  EXPECT_EQ(FromProtoTimestamp(first.start()), absl::FromUnixMillis(kUsageT0));
  EXPECT_DOUBLE_EQ(first.util_mean(), 0.5);
  EXPECT_DOUBLE_EQ(first.util_max(), 0.85);
  EXPECT_EQ(first.memory_used_bytes(), 1002);  // 1001.5, rounded half away from zero
  EXPECT_DOUBLE_EQ(first.power_watts(), 200);
  EXPECT_EQ(first.samples(), 12);
  EXPECT_EQ(first.series(), 1);
  EXPECT_EQ(FromProtoTimestamp(report->buckets(1).start()), absl::FromUnixMillis(kUsageT0 + kHour));
}

TEST_F(UsageQueryTest, MinuteResolutionAndPodSelection) {
  v1::GetUsageRequest request = Request(kUsageT0, kUsageT0 + kHour);
  request.set_resolution(v1::MINUTE);
  auto minutes = query_.Run(request);
  ASSERT_TRUE(minutes.ok()) << minutes.status();
  EXPECT_EQ(minutes->buckets_size(), 2);
  // A namespace selects the pods' shares, not the whole devices.
  request.set_namespace_("ml");
  auto pods = query_.Run(request);
  ASSERT_TRUE(pods.ok()) << pods.status();
  ASSERT_EQ(pods->buckets_size(), 1);
  EXPECT_DOUBLE_EQ(pods->buckets(0).util_mean(), 0.25);
  request.set_namespace_("");
  request.set_pod("uid-a");
  EXPECT_EQ(query_.Run(request)->buckets_size(), 1);
}

TEST_F(UsageQueryTest, ABadRequestNamesTheField) {
  struct Case {
    std::string name;
    v1::GetUsageRequest request;
    std::string message;
  };
  std::vector<Case> cases;
  cases.push_back({"no cluster", Request(kUsageT0, kUsageT0 + kHour), "cluster: empty"});
  cases.back().request.clear_cluster();
  cases.push_back({"no end", Request(kUsageT0, kUsageT0 + kHour), "start, end: both are required"});
  cases.back().request.clear_end();
  cases.push_back({"end before start", Request(kUsageT0, kUsageT0 - kHour), "end: must be after start"});
  cases.push_back(
      {"too many buckets", Request(kUsageT0, kUsageT0 + 50'001 * kMinute), "more than 50000 minute buckets"});
  cases.back().request.set_resolution(v1::MINUTE);
  cases.push_back({"two selectors", Request(kUsageT0, kUsageT0 + kHour), "device, node, model, pod: give at most one"});
  cases.back().request.set_device("GPU-0");
  cases.back().request.set_node("node-1");
  cases.push_back({"pods and devices", Request(kUsageT0, kUsageT0 + kHour), "pod/namespace select pods' shares"});
  cases.back().request.set_namespace_("ml");
  cases.back().request.set_model("H100");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto report = query_.Run(c.request);
    EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(report.status().message().find(c.message), std::string::npos) << report.status();
  }
}

TEST_F(UsageQueryTest, TheStoresFailureIsReturned) {
  // A reader that is away: the same status, not an empty report.
  class AwayReader : public store::UsageReadRepository {
   public:
    absl::StatusOr<std::vector<store::UsageBucket>> Buckets(const store::UsageFilter&,
                                                            store::BucketWidth) const override {
      return absl::UnavailableError("usage query: database connection lost");
    }
    absl::StatusOr<std::vector<store::UsageMinuteRow>> Minutes(const store::UsageFilter&) const override {
      return absl::UnavailableError("usage query: database connection lost");
    }
    absl::StatusOr<std::vector<store::UsageMinuteRow>> PodMinutes(const store::PodSeriesFilter&) const override {
      return absl::UnavailableError("usage query: database connection lost");
    }
  } away;
  UsageQuery query(&away, nullptr);
  EXPECT_EQ(query.Run(Request(kUsageT0, kUsageT0 + kHour)).status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace fleetcap::api
