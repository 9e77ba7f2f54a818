// PushPipeline on simulated time, with a real sample log and a real
// PostgreSQL: a device's minute closes once no sample came for `settle`,
// but only at the apply thread's next close (every `close_every`), and is
// then written.

#include "ingest/telemetry/push_pipeline.h"

#include <gtest/gtest.h>

#include <thread>

#include "absl/strings/match.h"
#include "common/clock.h"
#include "common/pg_pool.h"
#include "ingest/telemetry/metric_mapping.h"
#include "prometheus/registry.h"
#include "store/pg_usage_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

// GPU-0's utilisation at 10, 20, ..., 50 s into the minute starting at kT0.
DecodedWrite OneMinuteOfOneGpu() {
  CanonicalSeries s;
  s.key.device_id = "GPU-0";
  s.key.node = "node-1";
  s.key.model = "H100";
  s.field = Field::kUtil;
  for (int i = 1; i <= 5; ++i) s.points.push_back({absl::ToUnixMillis(kT0) + i * 10'000, 0.5});
  DecodedWrite decoded;
  decoded.samples_received = decoded.samples_usable = static_cast<int64_t>(s.points.size());
  decoded.series.push_back(std::move(s));
  return decoded;
}

class PushPipelineTest : public testing::MigratedDatabaseTest {
 protected:
  PushPipelineTest() : MigratedDatabaseTest(1) {}

  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    auto log = SampleLog::Open({wal_.path(), 4 << 20});
    ASSERT_THAT(log, IsOk());
    log_ = std::move(*log);
    store::UsageStoreOptions store_options;
    store_options.clock = &clock_;
    usage_ = std::make_unique<store::PgUsageRepository>(pool(), store_options);
    writer_ = std::make_unique<UsageWriter>(usage_.get(), "c1");
  }

  std::unique_ptr<PushPipeline> Start(PushPipelineOptions options) {
    auto pipeline = PushPipeline::Start(log_.get(), writer_.get(), &normaliser_, &metrics_, &clock_, options);
    EXPECT_THAT(pipeline, IsOk());
    return pipeline.ok() ? std::move(*pipeline) : nullptr;
  }
  // Accepts `decoded` and waits until the apply thread took it in (at the
  // clock's present time) and sleeps again.
  void Accept(PushPipeline& pipeline, DecodedWrite decoded) {
    const double before = metrics_.Accepted("remote_write").Value();
    const int64_t samples = decoded.samples_usable;
    ASSERT_THAT(pipeline.Accept("body", std::move(decoded)), IsOk());
    while (metrics_.Accepted("remote_write").Value() < before + static_cast<double>(samples)) {
      std::this_thread::yield();
    }
    clock_.AwaitSleepers(1);
  }
  // Moves the clock to `at` after kT0 and waits until the apply thread has
  // done what is due by then.
  void AdvanceTo(absl::Duration at) {
    clock_.Advance(kT0 + at - clock_.Now());
    clock_.AwaitSleepers(1);
  }
  double OpenMinutes() { return metrics_.OpenMinutes().Value(); }
  // The rows of c1, once the writer thread has written `n`.
  std::vector<std::string> RowsOnce(size_t n) {
    for (;;) {
      auto rows = testing::UsageRows(*conn_, "c1");
      if (rows.size() >= n) return rows;
      std::this_thread::yield();
    }
  }

  SimulatedClock clock_{kT0};
  std::unique_ptr<store::PgUsageRepository> usage_;
  testing::TestDir wal_{"wal"};
  std::unique_ptr<SampleLog> log_;
  Normaliser normaliser_{&DefaultMetricMapping()};
  prometheus::Registry registry_;
  TelemetryMetrics metrics_{registry_};
  std::unique_ptr<UsageWriter> writer_;
};

TEST_F(PushPipelineTest, AMinuteClosesAtTheFirstCloseAfterItsSettleTimeThenIsWritten) {
  PushPipelineOptions options;
  options.settle = absl::Seconds(55);
  options.close_every = absl::Seconds(10);
  auto pipeline = Start(options);
  ASSERT_NE(pipeline, nullptr);
  Accept(*pipeline, OneMinuteOfOneGpu());
  EXPECT_EQ(OpenMinutes(), 1);
  for (int s = 10; s <= 50; s += 10) {
    AdvanceTo(absl::Seconds(s));
    EXPECT_EQ(OpenMinutes(), 1) << "at " << s << " s";
  }
  // Settled at 55 s, but the next close is at 60 s.
  AdvanceTo(absl::Seconds(59));
  EXPECT_EQ(OpenMinutes(), 1);
  AdvanceTo(absl::Seconds(60));
  EXPECT_EQ(OpenMinutes(), 0);
  const auto rows = RowsOnce(1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(rows[0], "GPU-0||1767225600|")) << rows[0];  // its minute, kT0
}

TEST_F(PushPipelineTest, ASettledMinuteWaitsForTheNextClose) {
  PushPipelineOptions options;
  options.settle = absl::ZeroDuration();
  options.close_every = absl::Seconds(1);
  auto pipeline = Start(options);
  ASSERT_NE(pipeline, nullptr);
  Accept(*pipeline, OneMinuteOfOneGpu());
  // Settled at once, yet closes wait for the close cadence.
  EXPECT_EQ(OpenMinutes(), 1);
  AdvanceTo(absl::Seconds(1));
  EXPECT_EQ(OpenMinutes(), 0);
  EXPECT_EQ(RowsOnce(1).size(), 1u);
}

}  // namespace
}  // namespace fleetcap::telemetry
