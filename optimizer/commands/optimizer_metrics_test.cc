// The forecast pass's metrics as a scrape shows them: a run stored, one not
// run and one failed, each counted by result; the series and failures added
// up; the duration and last success those of the runs that did work.

#include "optimizer/commands/optimizer_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "prometheus/registry.h"
#include "prometheus/text_serializer.h"

namespace fleetcap::optimizer {
namespace {

using ::testing::HasSubstr;

const absl::Time kT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

class ForecastMetricsTest : public ::testing::Test {
 protected:
  std::string Scrape() { return prometheus::TextSerializer().Serialize(registry_.Collect()); }

  prometheus::Registry registry_;
  OptimizerMetrics metrics_{registry_};
};

TEST_F(ForecastMetricsTest, EveryFamilyIsThereAtZeroBeforeTheFirstRun) {
  const std::string scrape = Scrape();
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"stored\"} 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"not_run\"} 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"failed\"} 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_seconds 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_series_total 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_series_failed_total 0"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_last_success_timestamp_seconds 0"));
}

TEST_F(ForecastMetricsTest, RunsAreCountedByResultWithTheirSeriesDurationAndLastSuccess) {
  ForecastReport stored;
  stored.run_id = 7;
  stored.series = 12;
  stored.failed = 2;
  metrics_.RecordForecast(stored, kT0, absl::Milliseconds(1500));
  ForecastReport skipped;
  skipped.skipped = "done this interval";
  metrics_.RecordForecast(skipped, kT0 + absl::Hours(1), absl::Milliseconds(3));
  const std::string after_skip = Scrape();
  EXPECT_THAT(after_skip, HasSubstr("fleetcap_optimizer_forecast_seconds 1.5"));  // a skip is not a run's duration
  metrics_.RecordForecast(absl::UnavailableError("database away"), kT0 + absl::Hours(2), absl::Seconds(4));

  const std::string scrape = Scrape();
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"stored\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"not_run\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_runs_total{result=\"failed\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_seconds 4"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_series_total 12"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_series_failed_total 2"));
  // The failure does not move the last success.
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_forecast_last_success_timestamp_seconds 1767225600"));
}

// The rightsizing runs' metrics, counted alike.
using RightsizingMetricsTest = ForecastMetricsTest;

TEST_F(RightsizingMetricsTest, RunsAreCountedByResultWithTheirClustersAndRecommendations) {
  const std::string before = Scrape();
  EXPECT_THAT(before, HasSubstr("fleetcap_optimizer_rightsizing_runs_total{result=\"stored\"} 0"));
  EXPECT_THAT(before, HasSubstr("fleetcap_optimizer_rightsizing_last_success_timestamp_seconds 0"));
  RightsizingPassReport stored;
  stored.clusters = 2;
  stored.current = 1;
  stored.recommendations = 5;
  metrics_.RecordRightsizing(stored, kT0, absl::Milliseconds(2500));
  RightsizingPassReport current;
  current.current = 3;
  metrics_.RecordRightsizing(current, kT0 + absl::Hours(1), absl::Milliseconds(2));
  EXPECT_THAT(Scrape(), HasSubstr("fleetcap_optimizer_rightsizing_seconds 2.5"));  // nothing computed is no run
  metrics_.RecordRightsizing(absl::UnavailableError("database away"), kT0 + absl::Hours(2), absl::Seconds(3));

  const std::string scrape = Scrape();
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_runs_total{result=\"stored\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_runs_total{result=\"not_run\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_runs_total{result=\"failed\"} 1"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_seconds 3"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_clusters_total 2"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_recommendations_total 5"));
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_rightsizing_last_success_timestamp_seconds 1767225600"));
}

}  // namespace
}  // namespace fleetcap::optimizer
