#include "optimizer/commands/optimizer_command.h"

#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap::optimizer {
namespace {

const absl::Time kHour = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

absl::StatusOr<OptimizerOptions> Parse(const std::vector<std::string>& args) {
  return ParseOptimizerFlags(args, testing::NoEnvironment());
}

TEST(ParseOptimizerFlags, DefaultsAreTheDocumentedOnes) {
  auto options = Parse({"--db", "postgresql:///f"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_FALSE(options->once);
  EXPECT_EQ(options->interval, absl::Seconds(60));
  EXPECT_EQ(options->run.close_delay, absl::Minutes(10));
  EXPECT_EQ(options->run.batch_hours, 24);
  EXPECT_EQ(options->run.settle_window, absl::Hours(72));
  EXPECT_EQ(options->run.recompute_lease, absl::Minutes(15));
  EXPECT_FALSE(options->recompute.has_value());
  EXPECT_TRUE(options->daemon.stop_on_signal);
  EXPECT_EQ(options->allocation.demand.lookback, absl::Hours(168));
  EXPECT_EQ(options->allocation.demand.percentile, 95);
  EXPECT_EQ(options->allocation.demand.trend_horizon, absl::Hours(24));
  EXPECT_EQ(options->allocation.demand.pending_full_weight, absl::Hours(1));
  EXPECT_EQ(options->allocation.interval, absl::Hours(1));
  EXPECT_EQ(options->usage_to_rest_budget, absl::Seconds(30));
}

TEST(ParseOptimizerFlags, ReadsTheAllocationFlags) {
  auto options =
      Parse({"--db", "postgresql:///f", "--allocation-lookback", "48h", "--allocation-percentile", "90",
             "--allocation-trend-horizon", "0h", "--allocation-pending-weight", "30m", "--allocation-interval", "15m"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->allocation.demand.lookback, absl::Hours(48));
  EXPECT_EQ(options->allocation.demand.percentile, 90);
  EXPECT_EQ(options->allocation.demand.trend_horizon, absl::ZeroDuration());
  EXPECT_EQ(options->allocation.demand.pending_full_weight, absl::Minutes(30));
  EXPECT_EQ(options->allocation.interval, absl::Minutes(15));
}

TEST(ParseOptimizerFlags, ForecastsDailyOverNinetyDaysByDefaultAndReadsItsFlags) {
  auto defaults = Parse({"--db", "postgresql:///f"});
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(defaults->forecast.interval, absl::Hours(24));
  EXPECT_EQ(defaults->forecast.lookback, absl::Hours(2160));
  EXPECT_EQ(defaults->forecast.horizon_hours, 2160);
  EXPECT_EQ(defaults->forecast.keep_runs, 7);
  auto options = Parse({"--db", "postgresql:///f", "--forecast-interval", "6h", "--forecast-lookback", "336h",
                        "--forecast-horizon", "48h", "--forecast-keep-runs", "3"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->forecast.interval, absl::Hours(6));
  EXPECT_EQ(options->forecast.lookback, absl::Hours(336));
  EXPECT_EQ(options->forecast.horizon_hours, 48);
  EXPECT_EQ(options->forecast.keep_runs, 3);
}

TEST(ParseOptimizerFlags, ComputesRightsizingDailyByDefaultAndReadsItsInterval) {
  auto defaults = Parse({"--db", "postgresql:///f"});
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(defaults->rightsizing.interval, absl::Hours(24));
  auto options = Parse({"--db", "postgresql:///f", "--insights-interval", "12h"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->rightsizing.interval, absl::Hours(12));
}

TEST(ParseOptimizerFlags, ReadsTheInsightsBatchSizes) {
  auto defaults = Parse({"--db", "postgresql:///f"});
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(defaults->waste_batch_holds, 200);
  EXPECT_EQ(defaults->rightsizing.batch_holds, 32);
  auto options = Parse({"--db", "postgresql:///f", "--waste-batch-holds", "1000", "--rightsizing-batch-holds", "8"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->waste_batch_holds, 1000);
  EXPECT_EQ(options->rightsizing.batch_holds, 8);
}

TEST(ParseOptimizerFlags, ReadsEveryFlag) {
  auto options = Parse({"--db", "postgresql:///f", "--once", "--interval", "5s", "--close-delay", "0s", "--batch-hours",
                        "6", "--settle-window", "1h", "--recompute-lease", "2m", "--usage-to-rest-budget", "0s"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->usage_to_rest_budget, absl::ZeroDuration());
  EXPECT_TRUE(options->once);
  EXPECT_EQ(options->interval, absl::Seconds(5));
  EXPECT_EQ(options->run.close_delay, absl::ZeroDuration());
  EXPECT_EQ(options->run.batch_hours, 6);
  EXPECT_EQ(options->run.settle_window, absl::Hours(1));
  EXPECT_EQ(options->run.recompute_lease, absl::Minutes(2));
}

TEST(ParseOptimizerFlags, RecomputeTakesWholeHours) {
  auto options =
      Parse({"recompute", "--db", "postgresql:///f", "--from", "2026-01-01T00:00:00Z", "--to", "2026-01-01T03:00:00Z"});
  ASSERT_TRUE(options.ok()) << options.status();
  ASSERT_TRUE(options->recompute.has_value());
  EXPECT_EQ(options->recompute->from, kHour);
  EXPECT_EQ(options->recompute->to, kHour + absl::Hours(3));
}

TEST(ParseOptimizerFlags, HelpIsKeptNotRun) {
  auto options = Parse({"--help"});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_NE(options->daemon.help.find("fleetcap-optimizer recompute"), std::string::npos);
}

TEST(ParseOptimizerFlags, RefusesWhatItCannotUse) {
  const std::string db = "postgresql:///f";
  testing::ExpectFlagErrors(
      Parse, {
                 {{}, "--db"},
                 {{"--db", db, "--interval", "soon"}, "--interval: \"soon\" is not a duration"},
                 {{"--db", db, "--interval", "0s"}, "--interval: 0s must be longer than zero"},
                 {{"--db", db, "--close-delay", "-1m"}, "--close-delay: -1m must not be negative"},
                 {{"--db", db, "--usage-to-rest-budget", "-1s"}, "--usage-to-rest-budget: -1s must not be negative"},
                 {{"--db", db, "--settle-window", "3d"}, "--settle-window: \"3d\" is not a duration"},
                 {{"--db", db, "--recompute-lease", "0s"}, "--recompute-lease: 0s must be longer than zero"},
                 {{"--db", db, "--batch-hours", "0"}, "--batch-hours: 0 is out of range"},
                 {{"--db", db, "--batch-hours", "745"}, "--batch-hours: 745 is out of range"},
                 {{"--db", db, "--from", "2026-01-01T00:00:00Z"}, "unknown flag"},
                 {{"recompute", "--db", db, "--to", "2026-01-01T01:00:00Z"}, "--from: missing"},
                 {{"recompute", "--db", db, "--from", "2026-01-01T00:00:00Z"}, "--to: missing"},
                 {{"recompute", "--db", db, "--from", "yesterday", "--to", "2026-01-01T01:00:00Z"}, "--from"},
                 {{"recompute", "--db", db, "--from", "2026-01-01T00:30:00Z", "--to", "2026-01-01T01:00:00Z"},
                  "--from: 2026-01-01T00:30:00Z is not a whole hour"},
                 {{"recompute", "--db", db, "--from", "2026-01-01T01:00:00Z", "--to", "2026-01-01T01:00:00Z"},
                  "--to: 2026-01-01T01:00:00Z is not after --from"},
                 {{"recompute", "--db", db, "--once"}, "unknown flag"},
                 {{"--db", db, "extra"}, "unexpected argument \"extra\""},
                 {{"--db", db, "--allocation-lookback", "90m"}, "--allocation-lookback: 90m is not whole hours"},
                 {{"--db", db, "--allocation-lookback", "0h"}, "--allocation-lookback: 0h must be longer than zero"},
                 {{"--db", db, "--allocation-lookback", "2161h"}, "--allocation-lookback: 2161h is not whole hours"},
                 {{"--db", db, "--allocation-percentile", "0"}, "--allocation-percentile: 0 is out of range"},
                 {{"--db", db, "--allocation-percentile", "101"}, "--allocation-percentile: 101 is out of range"},
                 {{"--db", db, "--allocation-trend-horizon", "-1h"}, "--allocation-trend-horizon: -1h must not be"},
                 {{"--db", db, "--allocation-pending-weight", "0s"}, "--allocation-pending-weight: 0s must be longer"},
                 {{"--db", db, "--allocation-interval", "often"}, "--allocation-interval: \"often\" is not a duration"},
                 {{"--db", db, "--forecast-interval", "30m"}, "--forecast-interval: 30m is not whole hours"},
                 {{"--db", db, "--forecast-interval", "745h"}, "--forecast-interval: 745h is not whole hours from 1h"},
                 {{"--db", db, "--forecast-lookback", "2161h"}, "--forecast-lookback: 2161h is not whole hours"},
                 {{"--db", db, "--forecast-horizon", "0h"}, "--forecast-horizon: 0h must be longer than zero"},
                 {{"--db", db, "--forecast-horizon", "91d"}, "--forecast-horizon: \"91d\" is not a duration"},
                 {{"--db", db, "--forecast-keep-runs", "1"}, "--forecast-keep-runs: 1 is out of range (2..1000)"},
                 {{"--db", db, "--insights-interval", "90m"}, "--insights-interval: 90m is not whole hours"},
                 {{"--db", db, "--insights-interval", "745h"}, "--insights-interval: 745h is not whole hours from 1h"},
                 {{"--db", db, "--waste-batch-holds", "0"}, "--waste-batch-holds: 0 is out of range (1..1000000)"},
                 {{"--db", db, "--waste-batch-holds", "1000001"}, "--waste-batch-holds: 1000001 is out of range"},
                 {{"--db", db, "--rightsizing-batch-holds", "0"}, "--rightsizing-batch-holds: 0 is out of range"},
             });
}

}  // namespace
}  // namespace fleetcap::optimizer
