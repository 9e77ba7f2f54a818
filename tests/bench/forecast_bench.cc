// Forecasts every team x flavor series of a synthetic fleet (10,000 teams x 16
// flavors, 90 days of hourly history: 160,000 series x 2,160 points) 90 days
// ahead, and the seasonal-naive baseline over the same series in the same
// run; prints wall time, series per second and peak RSS (docs/benchmarks.md,
// "Forecasts (issue 16)").
//
//   forecast_bench [--teams N] [--flavors N] [--days N] [--horizon-days N] [--threads N]
//
// Each series is generated from its (team, flavor) index when a worker takes
// it and dropped once forecast, so memory stays one series and one forecast
// per thread. Results are kept as one checksum per series, so the totals are
// the same whatever the number of threads.

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "optimizer/forecast/forecast.h"

namespace {

namespace fc = fleetcap::forecast;

struct Options {
  int teams = 10000;
  int flavors = 16;
  int days = 90;
  int horizon_days = 90;
  int threads = 2;
};

// splitmix64: a fixed, portable stream of numbers from a seed.
uint64_t Mix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
double Uniform(uint64_t& state) { return static_cast<double>(Mix(state) >> 11) * 0x1.0p-53; }

// Devices a team holds of a flavor each hour: a level, a trend, a working-day
// cycle, a quieter weekend and noise, all drawn from the series' index; one
// series in eight is a sparse team that holds nothing most hours.
fc::HourlySeries MakeSeries(uint64_t index, int hours) {
  uint64_t state = index * 0x2545F4914F6CDD1DULL + 1;
  const double level = 1 + 60 * Uniform(state);
  const double trend = (Uniform(state) - 0.4) * level / (90.0 * 24);
  const double daily = level * 0.4 * Uniform(state);
  const double weekend = level * 0.3 * Uniform(state);
  const double noise = level * 0.15 * Uniform(state);
  const bool sparse = Mix(state) % 8 == 0;
  fc::HourlySeries s{absl::FromUnixSeconds(1'767'225'600), std::vector<double>(static_cast<size_t>(hours))};
  for (int t = 0; t < hours; ++t) {
    double v;
    if (sparse) {
      v = Uniform(state) < 0.1 ? level * Uniform(state) : 0.0;
    } else {
      const bool is_weekend = (t / 24) % 7 >= 5;
      v = level + trend * t + daily * std::sin(2 * M_PI * (t % 24 - 8) / 24.0) - (is_weekend ? weekend : 0.0) +
          noise * (Uniform(state) - 0.5) * 2;
    }
    s.values[static_cast<size_t>(t)] = std::max(0.0, v);
  }
  return s;
}

// CPU seconds of the whole process so far (user + system, every thread): on a
// shared machine wall time depends on the neighbours, CPU time much less.
double CpuSeconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct PassResult {
  double seconds = 0;
  double cpu_seconds = 0;
  double checksum = 0;  // sum over series of the p50's and p90's last hour
  int64_t failures = 0;
  // One count per fc::ModelKind (the last enumerator is kSeasonalExponentialSmoothing).
  std::vector<int64_t> by_model =
      std::vector<int64_t>(static_cast<size_t>(fc::ModelKind::kSeasonalExponentialSmoothing) + 1, 0);
};

template <typename ForecastFn>
PassResult RunPass(const Options& o, ForecastFn forecast) {
  const int64_t total = int64_t{o.teams} * o.flavors;
  const int hours = o.days * 24;
  fc::ForecastOptions options;
  options.horizon_hours = o.horizon_days * 24;
  std::vector<double> per_series(static_cast<size_t>(total), 0.0);
  std::vector<int8_t> model(static_cast<size_t>(total), -1);
  std::atomic<int64_t> next{0};
  const auto begin = std::chrono::steady_clock::now();
  const double cpu_begin = CpuSeconds();
  auto worker = [&] {
    for (int64_t i = next.fetch_add(1); i < total; i = next.fetch_add(1)) {
      const fc::HourlySeries series = MakeSeries(static_cast<uint64_t>(i), hours);
      absl::StatusOr<fc::Forecast> f = forecast(series, options);
      if (!f.ok()) continue;
      per_series[static_cast<size_t>(i)] = f->p50.back() + f->p90.back();
      model[static_cast<size_t>(i)] = static_cast<int8_t>(f->model);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  PassResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  r.cpu_seconds = CpuSeconds() - cpu_begin;
  // Summed in index order: the same figure for any number of threads.
  for (size_t i = 0; i < per_series.size(); ++i) {
    r.checksum += per_series[i];
    if (model[i] < 0) {
      ++r.failures;
    } else {
      ++r.by_model[static_cast<size_t>(model[i])];
    }
  }
  return r;
}

double PeakRssMiB() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

bool ParseInt(int argc, char** argv, int& i, const char* flag, int& out) {
  if (std::strcmp(argv[i], flag) != 0 || i + 1 >= argc) return false;
  out = std::atoi(argv[++i]);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (!ParseInt(argc, argv, i, "--teams", o.teams) && !ParseInt(argc, argv, i, "--flavors", o.flavors) &&
        !ParseInt(argc, argv, i, "--days", o.days) && !ParseInt(argc, argv, i, "--horizon-days", o.horizon_days) &&
        !ParseInt(argc, argv, i, "--threads", o.threads)) {
      std::fprintf(stderr,
                   "usage: forecast_bench [--teams N] [--flavors N] [--days N] [--horizon-days N] "
                   "[--threads N]\n");
      return 2;
    }
  }
  if (o.teams < 1 || o.flavors < 1 || o.days < 1 || o.horizon_days < 1 || o.threads < 1 || o.threads > 64) {
    std::fprintf(stderr, "forecast_bench: every count must be positive (threads at most 64)\n");
    return 2;
  }
  const int64_t total = int64_t{o.teams} * o.flavors;
  std::printf("forecast_bench: %d teams x %d flavors = %lld series x %d hourly points, horizon %d days, %d threads\n",
              o.teams, o.flavors, static_cast<long long>(total), o.days * 24, o.horizon_days, o.threads);

  const PassResult naive = RunPass(o, fc::ForecastSeasonalNaive);
  std::printf("baseline seasonal naive: %.2f s wall, %.2f s CPU, %.0f series/s, checksum %.17g, failures %lld\n",
              naive.seconds, naive.cpu_seconds, total / naive.seconds, naive.checksum,
              static_cast<long long>(naive.failures));
  const PassResult engine = RunPass(o, fc::ForecastHourly);
  std::printf("engine (ForecastHourly): %.2f s wall, %.2f s CPU, %.0f series/s, checksum %.17g, failures %lld\n",
              engine.seconds, engine.cpu_seconds, total / engine.seconds, engine.checksum,
              static_cast<long long>(engine.failures));
  std::printf("engine models:");
  for (size_t k = 0; k < engine.by_model.size(); ++k) {
    if (engine.by_model[k] > 0) {
      std::printf(" %s=%lld", std::string(fc::ModelName(static_cast<fc::ModelKind>(k))).c_str(),
                  static_cast<long long>(engine.by_model[k]));
    }
  }
  std::printf("\npeak RSS: %.1f MiB\n", PeakRssMiB());
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) std::printf("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return engine.failures == 0 && naive.failures == 0 ? 0 : 1;
}
