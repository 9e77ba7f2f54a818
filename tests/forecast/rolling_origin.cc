#include "tests/forecast/rolling_origin.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "optimizer/forecast/forecast.h"

namespace fleetcap::testing {
namespace {

// Mean absolute error of the naive forecast `season` points back, inside the
// history: the MASE scale (Hyndman and Koehler 2006).
double NaiveScale(const std::vector<double>& y, size_t end, size_t season) {
  if (end <= season) return 0;
  double sum = 0;
  for (size_t t = season; t < end; ++t) sum += std::abs(y[t] - y[t - season]);
  return sum / static_cast<double>(end - season);
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

SeriesScore BacktestSeries(const NamedSeries& series, const BacktestPlan& plan) {
  SeriesScore score;
  score.name = series.name;
  const std::vector<double>& y = series.values;
  forecast::ForecastOptions options;
  options.horizon_hours = plan.horizon;
  options.season_points = plan.season_points;
  // Any whole hour: the engine needs one, the scores do not depend on it.
  const absl::Time start = absl::FromUnixSeconds(0);
  int model_inside = 0;
  int naive_inside = 0;
  int model_inside_80 = 0;
  int naive_inside_80 = 0;
  int model_below_p90 = 0;
  int naive_below_p90 = 0;
  std::map<std::string, int> chosen;  // model name: origins
  for (size_t origin = static_cast<size_t>(plan.first_origin); origin + plan.horizon <= y.size();
       origin += static_cast<size_t>(plan.step)) {
    const double scale = NaiveScale(y, origin, static_cast<size_t>(plan.scale_season));
    if (scale <= 0) continue;
    const forecast::HourlySeries history{start, std::vector<double>(y.begin(), y.begin() + origin)};
    auto model = forecast::ForecastHourly(history, options);
    auto naive = forecast::ForecastSeasonalNaive(history, options);
    if (!model.ok() || !naive.ok()) continue;
    double model_error = 0;
    double naive_error = 0;
    for (int h = 0; h < plan.horizon; ++h) {
      const double actual = y[origin + h];
      model_error += std::abs(actual - model->p50[h]);
      naive_error += std::abs(actual - naive->p50[h]);
      model_inside += actual >= model->p05[h] && actual <= model->p95[h];
      naive_inside += actual >= naive->p05[h] && actual <= naive->p95[h];
      model_inside_80 += actual >= model->p10[h] && actual <= model->p90[h];
      naive_inside_80 += actual >= naive->p10[h] && actual <= naive->p90[h];
      model_below_p90 += actual <= model->p90[h];
      naive_below_p90 += actual <= naive->p90[h];
    }
    score.model_mase += model_error / plan.horizon / scale;
    score.naive_mase += naive_error / plan.horizon / scale;
    score.held_out_points += plan.horizon;
    score.origins += 1;
    score.model_name = model->model_name;
    score.scored_origins.push_back(static_cast<int>(origin));
    ++chosen[model->model_name];
  }
  std::vector<std::pair<int, std::string>> by_count;
  for (const auto& [name, count] : chosen) by_count.push_back({-count, name});
  std::sort(by_count.begin(), by_count.end());
  for (const auto& [count, name] : by_count) {
    absl::StrAppend(&score.models_chosen, score.models_chosen.empty() ? "" : ", ", name, " ", -count);
  }
  if (score.origins > 0) {
    score.model_mase /= score.origins;
    score.naive_mase /= score.origins;
    score.model_coverage = static_cast<double>(model_inside) / score.held_out_points;
    score.naive_coverage = static_cast<double>(naive_inside) / score.held_out_points;
    score.model_coverage_80 = static_cast<double>(model_inside_80) / score.held_out_points;
    score.naive_coverage_80 = static_cast<double>(naive_inside_80) / score.held_out_points;
    score.model_below_p90 = static_cast<double>(model_below_p90) / score.held_out_points;
    score.naive_below_p90 = static_cast<double>(naive_below_p90) / score.held_out_points;
  }
  return score;
}

BacktestSummary Summarise(const std::vector<SeriesScore>& scores) {
  BacktestSummary summary;
  std::vector<double> model;
  std::vector<double> naive;
  double model_inside = 0;
  double naive_inside = 0;
  double model_inside_80 = 0;
  double naive_inside_80 = 0;
  double model_below = 0;
  double naive_below = 0;
  double points = 0;
  summary.lowest_model_coverage = 1;
  for (const SeriesScore& s : scores) {
    if (s.origins == 0) continue;
    summary.series += 1;
    summary.lowest_model_coverage = std::min(summary.lowest_model_coverage, s.model_coverage);
    summary.model_wins += s.model_mase < s.naive_mase;
    model.push_back(s.model_mase);
    naive.push_back(s.naive_mase);
    model_inside += s.model_coverage * s.held_out_points;
    naive_inside += s.naive_coverage * s.held_out_points;
    model_inside_80 += s.model_coverage_80 * s.held_out_points;
    naive_inside_80 += s.naive_coverage_80 * s.held_out_points;
    model_below += s.model_below_p90 * s.held_out_points;
    naive_below += s.naive_below_p90 * s.held_out_points;
    points += s.held_out_points;
  }
  summary.median_model_mase = Median(model);
  summary.median_naive_mase = Median(naive);
  if (points > 0) {
    summary.model_coverage = model_inside / points;
    summary.naive_coverage = naive_inside / points;
    summary.model_coverage_80 = model_inside_80 / points;
    summary.naive_coverage_80 = naive_inside_80 / points;
    summary.model_below_p90 = model_below / points;
    summary.naive_below_p90 = naive_below / points;
  }
  return summary;
}

namespace {

// Appends `rows` to `path`, with `header` first when the file is new.
absl::Status AppendCsv(const std::string& path, const std::string& header, const std::string& rows) {
  FILE* probe = std::fopen(path.c_str(), "rb");
  const bool fresh = probe == nullptr;
  if (probe != nullptr) std::fclose(probe);
  FILE* out = std::fopen(path.c_str(), "ab");
  if (out == nullptr) return absl::NotFoundError(absl::StrCat(path, ": cannot be written"));
  const std::string text = (fresh ? header + "\n" : "") + rows;
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  return std::fclose(out) == 0 && ok ? absl::OkStatus() : absl::DataLossError(absl::StrCat(path, ": short write"));
}

}  // namespace

absl::Status WriteBacktestCsv(const std::string& dir, const std::string& set, const std::vector<NamedSeries>& series,
                              const BacktestPlan& plan, const std::vector<SeriesScore>& scores) {
  std::string values;
  std::string splits;
  std::string engine;
  for (size_t i = 0; i < series.size() && i < scores.size(); ++i) {
    const NamedSeries& s = series[i];
    for (size_t t = 0; t < s.values.size(); ++t)
      absl::StrAppend(&values, absl::StrFormat("%s,%s,%d,%.17g\n", set, s.name, t, s.values[t]));
    const SeriesScore& score = scores[i];
    for (int origin : score.scored_origins) {
      absl::StrAppend(&splits, set, ",", s.name, ",", origin, ",", plan.horizon, ",", plan.season_points, ",",
                      plan.scale_season, "\n");
    }
    if (score.origins == 0) continue;
    absl::StrAppend(&engine, absl::StrFormat("%s,%s,%s,\"%s\",%.6f,%.6f,%.6f,%.6f,%.6f\n", set, s.name,
                                             score.model_name, score.models_chosen, score.model_mase, score.naive_mase,
                                             score.model_coverage, score.model_coverage_80, score.model_below_p90));
  }
  const absl::Status a = AppendCsv(dir + "/series.csv", "set,series,t,value", values);
  const absl::Status b = AppendCsv(dir + "/splits.csv", "set,series,origin,horizon,season_points,scale_season", splits);
  const absl::Status c = AppendCsv(dir + "/fleetcap.csv",
                                   "set,series,model,models_chosen,mase_model,mase_naive,coverage_p05_p95,"
                                   "coverage_p10_p90,below_p90",
                                   engine);
  return !a.ok() ? a : !b.ok() ? b : c;
}

}  // namespace fleetcap::testing
