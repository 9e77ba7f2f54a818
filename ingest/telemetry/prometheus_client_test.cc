#include "ingest/telemetry/prometheus_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>

#include "tests/support/status_matchers.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ParseQueryRangeResponse, MatrixWithWarnings) {
  auto r = ParseQueryRangeResponse(200, R"({"status":"success","warnings":["w1"],"data":{"resultType":"matrix",
    "result":[{"metric":{"UUID":"GPU-1","pod":"p"},"values":[[1767225659.999,"4"],[1767225719.999,"NaN"]]}]}})");
  ASSERT_THAT(r.status, IsOk());
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].labels.size(), 2u);
  ASSERT_EQ(r.series[0].points.size(), 2u);
  EXPECT_EQ(r.series[0].points[0].ts_ms, 1767225659999);
  EXPECT_DOUBLE_EQ(r.series[0].points[0].value, 4);
  EXPECT_TRUE(std::isnan(r.series[0].points[1].value));
  EXPECT_EQ(r.warnings, std::vector<std::string>{"w1"});
}

// One malformed point or series failed the whole answer, and with it every
// pull cycle: now it is skipped and counted, the rest used.
TEST(ParseQueryRangeResponse, AMalformedPointOrSeriesCostsOnlyItself) {
  auto r = ParseQueryRangeResponse(200, R"({"status":"success","data":{"resultType":"matrix","result":[
    {"metric":{"UUID":"GPU-1"},"values":[[1767225659.999,"4"],[1767225719.999,"four"],[1e300,"1"],
                                         ["1767225779.999","1"],[1767225839.999,"+Inf"]]},
    {"metric":{"UUID":7},"values":[[1767225659.999,"4"],[1767225719.999,"5"]]}]}})");
  ASSERT_THAT(r.status, IsOk());
  ASSERT_EQ(r.series.size(), 1u);
  ASSERT_EQ(r.series[0].points.size(), 2u);
  EXPECT_EQ(r.series[0].points[0].ts_ms, 1767225659999);
  EXPECT_TRUE(std::isinf(r.series[0].points[1].value));
  EXPECT_EQ(r.skipped, 3 + 2);
}

TEST(ParseQueryRangeResponse, ErrorEnvelopeDecidesRetries) {
  auto bad = ParseQueryRangeResponse(400, R"({"status":"error","errorType":"bad_data","error":"parse error"})");
  EXPECT_THAT(bad.status, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("report")));
  EXPECT_FALSE(bad.retryable);
  auto timeout = ParseQueryRangeResponse(503, R"({"status":"error","errorType":"timeout","error":"query timed out"})");
  EXPECT_TRUE(timeout.retryable);
  EXPECT_EQ(timeout.status.code(), absl::StatusCode::kUnavailable);
  auto unavailable = ParseQueryRangeResponse(503, R"({"status":"error","errorType":"unavailable","error":"x"})");
  EXPECT_TRUE(unavailable.retryable);
  auto internal = ParseQueryRangeResponse(500, R"({"status":"error","errorType":"internal","error":"x"})");
  EXPECT_TRUE(internal.retryable);
  auto execution = ParseQueryRangeResponse(422, R"({"status":"error","errorType":"execution","error":"x"})");
  EXPECT_FALSE(execution.retryable);
  auto proxy = ParseQueryRangeResponse(502, "<html>bad gateway</html>");
  EXPECT_TRUE(proxy.retryable);
  auto not_json = ParseQueryRangeResponse(200, "{{");
  EXPECT_FALSE(not_json.retryable);
  EXPECT_THAT(not_json.status, Not(IsOk()));
}

TEST(ParseQueryRangeResponse, ABodyNestedTooDeepIsNotParsed) {
  const std::string deep = R"({"status":"success","data":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto parsed = ParseQueryRangeResponse(200, deep);
  EXPECT_FALSE(parsed.retryable);
  EXPECT_THAT(parsed.status, StatusIs(absl::StatusCode::kInternal, HasSubstr("line 1: nested deeper than 64 levels")));
}

TEST(PrometheusClient, RetriesWithBackoffThenGivesUp) {
  SimulatedClock clock(absl::FromUnixSeconds(1767225600));
  PrometheusClientOptions options;
  options.attempts = 3;
  options.timeout = absl::Milliseconds(200);
  // Port 1 on loopback refuses connections: a network error every time.
  PrometheusClient client("http://127.0.0.1:1", options, &clock);
  absl::StatusOr<std::vector<RangeSeries>> result;
  std::thread query(
      [&] { result = client.QueryRange("up", absl::FromUnixSeconds(0), absl::FromUnixSeconds(60), absl::Minutes(1)); });
  std::vector<absl::Duration> slept;
  for (int retry = 0; retry < 2; ++retry) {
    clock.AwaitSleepers(1);
    slept.push_back(clock.UntilNextDeadline());
    clock.Advance(slept.back());
  }
  query.join();
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_EQ(slept, (std::vector<absl::Duration>{absl::Milliseconds(500), absl::Seconds(1)}));
  EXPECT_EQ(client.retries(), 2);
  EXPECT_EQ(clock.sleepers(), 0);
}

}  // namespace
}  // namespace fleetcap::telemetry
