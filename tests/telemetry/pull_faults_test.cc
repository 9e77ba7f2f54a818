// The pull client against a Prometheus that fails: a fixture speaking the
// query_range API that answers 503 `unavailable`, then hangs past the
// client's timeout, then answers; one that answers `bad_data`; and one that
// answers a point far beyond any date the store can hold.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/http_server.h"
#include "pqxx/pqxx"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

// The rows of GPU-faults, the one device the flaky Prometheus reports.
std::vector<store::UsageMinuteRow> FaultsDeviceRows(pqxx::connection& conn) {
  return testing::RowsWhere(testing::StoredMinutes(conn, "c1"),
                            [](const store::UsageMinuteRow& r) { return r.device_id == "GPU-faults"; });
}

// The watermarks, and those of them at `through`.
size_t WatermarkCount(pqxx::connection& conn) { return testing::StoredWatermarks(conn).size(); }
size_t WatermarksAt(pqxx::connection& conn, absl::Time through) {
  return testing::RowsWhere(testing::StoredWatermarks(conn),
                            [&](const testing::StoredWatermark& w) { return w.through == through; })
      .size();
}

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// 2026-01-01T00:00:59.999Z, the evaluation time of minute 00:00.
constexpr const char* kMatrix = R"({"status":"success","warnings":["fixture warning"],"data":{"resultType":"matrix",
  "result":[{"metric":{"UUID":"GPU-faults","Hostname":"n1"},"values":[[1767225659.999,"%VALUE%"]]}]}})";

class FlakyPrometheus {
 public:
  enum class Mode { kFlaky, kBadData, kFarFuture };
  explicit FlakyPrometheus(Mode mode) : mode_(mode) {
    HttpServerOptions options;
    options.listen = "127.0.0.1:0";
    options.handler_threads = 4;
    HttpServer::Handlers handlers;
    handlers.handle = [this](const HttpServerRequest& request) { return Handle(request); };
    auto server = HttpServer::Start(options, std::move(handlers), RealClock::Instance());
    if (server.ok()) server_ = std::move(*server);
    port_ = server_ != nullptr ? server_->port() : 0;
  }
  ~FlakyPrometheus() {
    stop_ = true;
    server_.reset();
  }
  std::string url() const { return absl::StrCat("http://127.0.0.1:", port_); }
  int calls() const { return calls_.load(); }

 private:
  static HttpServerResponse Reply(int status, const std::string& body) {
    HttpServerResponse answer;
    answer.status = status;
    answer.content_type = "application/json";
    answer.body = body;
    return answer;
  }
  HttpServerResponse Handle(const HttpServerRequest& request) {
    FlakyPrometheus* self = this;
    if (request.path != "/api/v1/query_range") return Reply(404, "{}");
    const int call = self->calls_.fetch_add(1);
    if (self->mode_ == Mode::kBadData) {
      return Reply(400, R"({"status":"error","errorType":"bad_data","error":"1:1: parse error"})");
    }
    if (self->mode_ == Mode::kFlaky && call == 0)
      return Reply(503, R"({"status":"error","errorType":"unavailable","error":"overloaded"})");
    if (self->mode_ == Mode::kFlaky && call == 1) {  // hang past the client's timeout
      for (int i = 0; i < 30 && !self->stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      return Reply(503, R"({"status":"error","errorType":"timeout","error":"too late"})");
    }
    const std::string& query = request.query;
    // count_over_time answers 4 samples; sum 2.0 (percent); max and min 0.8 and 0.2.
    std::string value = "4";
    if (query.find("sum_over_time") != std::string::npos) value = "200";
    if (query.find("max_over_time") != std::string::npos) value = "80";
    if (query.find("min_over_time") != std::string::npos) value = "20";
    const bool util = query.find("DCGM_FI_DEV_GPU_UTIL") != std::string::npos;
    std::string body = util ? kMatrix : R"({"status":"success","data":{"resultType":"matrix","result":[]}})";
    if (util) body.replace(body.find("%VALUE%"), 7, value);
    if (util && self->mode_ == Mode::kFarFuture) {  // and the minute of year ~300000
      body.replace(body.find("]]}"), 0, absl::StrCat("],[9400000000059.999,\"", value, "\""));
    }
    return Reply(200, body);
  }
  Mode mode_;
  std::atomic<int> calls_{0};
  std::atomic<bool> stop_{false};
  std::unique_ptr<HttpServer> server_;  // after what its handler uses, so stopped first
  int port_ = 0;
};

std::vector<std::string> PullArgs(const std::string& db, const std::string& url) {
  return {fleetcap::testing::kIngestBin,
          "prometheus",
          "--db",
          db,
          "--cluster",
          "c1",
          "--prometheus-url",
          url,
          "--once",
          "--since",
          "2026-01-01T00:00:00Z",
          "--until",
          "2026-01-01T00:01:00Z",
          "--query-timeout",
          "500ms",
          "--query-attempts",
          "4",
          "--log-level",
          "warn",
          "--retention-days",
          "36500"};
}

TEST(PullFaults, UnavailableAndTimeoutAreRetried) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  FlakyPrometheus prom(FlakyPrometheus::Mode::kFlaky);
  auto run = testing::Run(PullArgs((*db)->uri(), prom.url()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("attempt 1 failed")) << run.err;  // the 503
  EXPECT_THAT(run.err, HasSubstr("attempt 2 failed")) << run.err;  // the timeout
  EXPECT_THAT(run.err, HasSubstr("fixture warning")) << run.err;   // warnings logged
  auto conn = (*db)->Connect();
  auto rows = FaultsDeviceRows(*conn);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].util_mean.value(), 0.5);
  EXPECT_DOUBLE_EQ(rows[0].util_max.value(), 0.8);
  EXPECT_EQ(rows[0].samples, 4);
  // The window is closed and outside the settle window: the watermark moved.
  EXPECT_EQ(WatermarksAt(*conn, absl::FromUnixSeconds(1'767'225'660)),  // 2026-01-01T00:01:00Z
            WatermarkCount(*conn));
}

TEST(PullFaults, BadDataIsReportedNotRetried) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  FlakyPrometheus prom(FlakyPrometheus::Mode::kBadData);
  auto run = testing::Run(PullArgs((*db)->uri(), prom.url()));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("bad_data")) << run.err;
  EXPECT_THAT(run.err, HasSubstr("please report")) << run.err;
  EXPECT_EQ(prom.calls(), 1);
  auto conn = (*db)->Connect();
  EXPECT_EQ(WatermarkCount(*conn), 0u);
}

// A point of year ~300000 in an answer: the chunk failed to write (no
// partition can hold it) and the pull was retried every cycle, its watermark
// never moving. Now the point is dropped as `future` and the rest stored.
TEST(PullFaults, APointFarAheadIsDroppedAndTheRestStored) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  FlakyPrometheus prom(FlakyPrometheus::Mode::kFarFuture);
  auto run = testing::Run(PullArgs((*db)->uri(), prom.url()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto conn = (*db)->Connect();
  auto rows = FaultsDeviceRows(*conn);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].minute_ms, 1'767'225'600'000);  // 2026-01-01T00:00:00Z
  EXPECT_EQ(rows[0].samples, 4);
  EXPECT_EQ(WatermarksAt(*conn, absl::FromUnixSeconds(1'767'225'660)),  // 2026-01-01T00:01:00Z
            WatermarkCount(*conn));
}

}  // namespace
}  // namespace fleetcap
