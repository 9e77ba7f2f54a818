// The forecast pass's metrics as a scrape shows them: a run stored, one not
// run and one failed, each counted by result; the series and failures added
// up; the duration and last success those of the runs that did work.

#include "optimizer/commands/optimizer_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "prometheus/registry.h"
#include "prometheus/text_serializer.h"
#include "store/memory_chargeback_repository.h"

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

// The budgets' gauges after a budget pass over a stored chargeback: each
// budget's amount, spend and projection in the currency's units, labelled by
// team, month and currency; a budget gone from the month is removed, a failed
// run keeps the last figures, and an instance that no longer does the fleet's
// work exports none.
namespace fleetcap::optimizer {
namespace {

const absl::Time kBudgetDec1 = absl::FromUnixSeconds(1'796'083'200);  // 2026-12-01T00:00:00Z

constexpr const char* kBudgetPolicy = R"(version: 1
currency: EUR
teams: [{name: vision}, {name: ads}]
budgets:
  - {team: vision, month: 2026-12, amount: "50.25"}
  - {team: ads, month: 2026-12, amount: "1000"}
)";

// The value of `name`'s gauge labelled `team`, or nullopt when there is none.
std::optional<double> GaugeOf(prometheus::Registry& registry, const std::string& name, const std::string& team) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      std::map<std::string, std::string> labels;
      for (const auto& l : metric.label) labels[l.name] = l.value;
      if (labels["team"] == team) {
        EXPECT_EQ(labels["month"], "2026-12");
        EXPECT_EQ(labels["currency"], "EUR");
        return metric.gauge.value;
      }
    }
  }
  return std::nullopt;
}

class BudgetMetricsTest : public ::testing::Test {
 protected:
  // vision spends 0.123456 an hour from 2026-11-24 to 2026-12-02T06:00.
  void SetUp() override {
    std::vector<store::ChargebackLineRecord> lines;
    const absl::Time start = kBudgetDec1 - absl::Hours(7 * 24), end = kBudgetDec1 + absl::Hours(30);
    for (absl::Time h = start; h < end; h += absl::Hours(1)) {
      store::ChargebackLineRecord l;
      l.hour = h;
      l.cluster = "c1";
      l.team = "vision";
      l.namespace_name = "vision-ns";
      l.workload = "Job/train";
      l.model = "A100";
      l.line_kind = "workload";
      l.direct_cost_micro = l.total_cost_micro = 123'456;
      lines.push_back(l);
    }
    ASSERT_TRUE(lines_.ReplaceHours("c1", start, end, lines, {}).ok());
  }

  absl::StatusOr<budgets::BudgetPassReport> Pass(const std::string& document) {
    // Each document a new version, in force from its application on.
    const int32_t version = static_cast<int32_t>(stored_.size()) + 1;
    stored_.push_back({version, kBudgetDec1 - absl::Hours(24) + absl::Minutes(version), document});
    return pass_.Run(kBudgetDec1 + absl::Hours(30));
  }

  prometheus::Registry registry_;
  OptimizerMetrics metrics_{registry_};
  std::vector<policy::StoredPolicy> stored_;
  policy::PolicyTimeline timeline_{[this](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
    std::vector<policy::StoredPolicy> out;
    for (const auto& p : stored_) {
      if (p.version > after) out.push_back(p);
    }
    return out;
  }};
  store::MemoryChargebackRepository lines_;
  SimulatedClock clock_{kBudgetDec1 + absl::Hours(31)};
  budgets::BudgetPass pass_{&lines_, &timeline_, &clock_};
};

TEST_F(BudgetMetricsTest, EachBudgetsAmountSpentAndProjectedInTheCurrencysUnits) {
  auto report = Pass(kBudgetPolicy);
  ASSERT_TRUE(report.ok()) << report.status();
  metrics_.RecordBudgets(report);
  // Spent: the 30 hours to the watermark, 3.703680. Rest: 2.962944 a day
  // (the 7 days before 2026-12-02) over the 29 days 18 hours left: 88.147584.
  EXPECT_DOUBLE_EQ(GaugeOf(registry_, "fleetcap_budget_amount", "vision").value_or(-1), 50.25);
  EXPECT_DOUBLE_EQ(GaugeOf(registry_, "fleetcap_budget_spent", "vision").value_or(-1), 3.70368);
  EXPECT_DOUBLE_EQ(GaugeOf(registry_, "fleetcap_budget_projected", "vision").value_or(-1), 91.851264);
  EXPECT_DOUBLE_EQ(GaugeOf(registry_, "fleetcap_budget_amount", "ads").value_or(-1), 1000.0);
  EXPECT_DOUBLE_EQ(GaugeOf(registry_, "fleetcap_budget_spent", "ads").value_or(-1), 0.0);
  const std::string scrape = prometheus::TextSerializer().Serialize(registry_.Collect());
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_budget_runs_total{result=\"computed\"} 1"));
}

TEST_F(BudgetMetricsTest, ABudgetGoneIsRemovedAFailureKeepsTheLastFigures) {
  metrics_.RecordBudgets(Pass(kBudgetPolicy));
  metrics_.RecordBudgets(absl::UnavailableError("database away"));
  EXPECT_EQ(GaugeOf(registry_, "fleetcap_budget_amount", "ads"), 1000.0);
  const std::string without_ads = R"(version: 1
currency: EUR
teams: [{name: vision}, {name: ads}]
budgets: [{team: vision, month: 2026-12, amount: "50.25"}]
)";
  metrics_.RecordBudgets(Pass(without_ads));
  EXPECT_EQ(GaugeOf(registry_, "fleetcap_budget_amount", "ads"), std::nullopt);
  EXPECT_EQ(GaugeOf(registry_, "fleetcap_budget_projected", "ads"), std::nullopt);
  EXPECT_EQ(GaugeOf(registry_, "fleetcap_budget_amount", "vision"), 50.25);
  const std::string scrape = prometheus::TextSerializer().Serialize(registry_.Collect());
  EXPECT_THAT(scrape, HasSubstr("fleetcap_optimizer_budget_runs_total{result=\"failed\"} 1"));
  metrics_.ClearBudgets();
  EXPECT_EQ(GaugeOf(registry_, "fleetcap_budget_spent", "vision"), std::nullopt);
}

}  // namespace
}  // namespace fleetcap::optimizer
