// Rolling-origin backtest of the forecast engine on the published traces,
// against the seasonal-naive baseline: per series and in summary, the figures
// docs/forecast.md reports.
//
//   forecast_backtest [--data DIR] [--csv OUT]
//
// DIR: ../shared/data (exit 77 without it). With --csv, the series, the
// origins scored and the engine's scores go to OUT/series.csv, splits.csv and
// fleetcap.csv, for scripts/forecast_statsmodels.py to score the same splits.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/forecast/backtest_series.h"
#include "tests/forecast/rolling_origin.h"
#include "tests/support/build_paths.h"

namespace {

using fleetcap::testing::BacktestPlan;
using fleetcap::testing::NamedSeries;
using fleetcap::testing::SeriesScore;

// The --csv folder, "" without it.
std::string csv_dir;

void Report(const char* title, const char* set, const std::vector<NamedSeries>& series, const BacktestPlan& plan) {
  std::printf("\n%s: first origin %d points, horizon %d, step %d, MASE scaled by the %d-point seasonal naive\n", title,
              plan.first_origin, plan.horizon, plan.step, plan.scale_season);
  std::printf("%-22s %6s %7s %-30s %10s %10s %9s %9s %9s %9s %9s %9s\n", "series", "points", "origins", "model",
              "MASE model", "MASE naive", "90 model", "90 naive", "80 model", "80 naive", "<=p90 mod", "<=p90 nai");
  std::vector<SeriesScore> scores;
  for (const NamedSeries& s : series) {
    SeriesScore score = fleetcap::testing::BacktestSeries(s, plan);
    if (score.origins == 0) {
      std::printf("%-22s %6zu %7s (constant history: no scale, skipped)\n", s.name.c_str(), s.values.size(), "0");
    } else {
      std::printf("%-22s %6zu %7d %-30s %10.3f %10.3f %8.1f%% %8.1f%% %8.1f%% %8.1f%% %8.1f%% %8.1f%%\n",
                  s.name.c_str(), s.values.size(), score.origins, score.model_name.c_str(), score.model_mase,
                  score.naive_mase, 100 * score.model_coverage, 100 * score.naive_coverage,
                  100 * score.model_coverage_80, 100 * score.naive_coverage_80, 100 * score.model_below_p90,
                  100 * score.naive_below_p90);
    }
    scores.push_back(std::move(score));
  }
  if (!csv_dir.empty()) {
    const absl::Status written = fleetcap::testing::WriteBacktestCsv(csv_dir, set, series, plan, scores);
    if (!written.ok()) std::fprintf(stderr, "forecast_backtest: %s\n", written.ToString().c_str());
  }
  const auto summary = fleetcap::testing::Summarise(scores);
  std::printf(
      "%s summary: %d series, model beats seasonal naive on %d; median MASE %.3f (naive %.3f); "
      "[p05, p95] coverage %.1f%% (naive %.1f%%), lowest series %.1f%%; [p10, p90] coverage %.1f%% (naive "
      "%.1f%%); at or below p90 %.1f%% (naive %.1f%%)\n",
      title, summary.series, summary.model_wins, summary.median_model_mase, summary.median_naive_mase,
      100 * summary.model_coverage, 100 * summary.naive_coverage, 100 * summary.lowest_model_coverage,
      100 * summary.model_coverage_80, 100 * summary.naive_coverage_80, 100 * summary.model_below_p90,
      100 * summary.naive_below_p90);
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = fleetcap::testing::kSharedDataDir;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
      data = argv[++i];
    } else if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv_dir = argv[++i];
    } else {
      std::fprintf(stderr, "usage: forecast_backtest [--data DIR] [--csv OUT]\n");
      return 2;
    }
  }
  auto openb = fleetcap::testing::OpenbHeldGpusByModel(data + "/openb");
  auto genai = fleetcap::testing::GenaiDutyCycle(data + "/genai/pod_gpu_duty_cycle_anon.tar.gz",
                                                 fleetcap::testing::kGenaiMinPodHours);
  auto demo = fleetcap::testing::DemoFleetHeldGpusByModel(data + "/openb", fleetcap::testing::kDemoBacktestDays);
  if (!openb.ok() || !genai.ok() || !demo.ok()) {
    std::fprintf(stderr, "forecast_backtest: data not available (%s; %s; %s): skipped\n",
                 openb.status().ToString().c_str(), genai.status().ToString().c_str(),
                 demo.status().ToString().c_str());
    return 77;
  }
  if (!csv_dir.empty()) {
    std::filesystem::create_directories(csv_dir);
    for (const char* file : {"series.csv", "splits.csv", "fleetcap.csv"}) std::filesystem::remove(csv_dir + "/" + file);
  }
  Report("openb held GPUs per model (hourly)", "openb_24h", *openb, fleetcap::testing::OpenbPlan());
  Report("genai duty cycle (5-minute means), 30 minutes ahead", "genai_30min", *genai, fleetcap::testing::GenaiPlan());
  Report("genai duty cycle (5-minute means), 1 hour ahead", "genai_1h", *genai, fleetcap::testing::GenaiHourPlan());
  Report("demo fleet held GPUs per model (hourly)", "demo_24h", *demo, fleetcap::testing::OpenbPlan());
  return 0;
}
