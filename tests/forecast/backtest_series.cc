#include "tests/forecast/backtest_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/status_macros.h"
#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_trace.h"
#include "ingest/openb/sampled_load.h"

namespace fleetcap::testing {
namespace {

constexpr int64_t kHour = 3600;

// The last second anything happens in the trace: pods without a deletion time
// hold to here.
int64_t TraceEnd(const openb::OpenbTrace& trace) {
  int64_t end = 0;
  for (const openb::OpenbPod& pod : trace.pods) {
    end = std::max(end, pod.creation_s);
    if (pod.deletion_s) end = std::max(end, *pod.deletion_s);
    if (pod.scheduled_s) end = std::max(end, *pod.scheduled_s);
  }
  return end;
}

int64_t FirstDeletion(const openb::OpenbTrace& trace) {
  int64_t first = TraceEnd(trace);
  for (const openb::OpenbPod& pod : trace.pods) {
    if (pod.deletion_s) first = std::min(first, *pod.deletion_s);
  }
  return first;
}

// Adds `gpus` held over [start, end) to the hours it overlaps, as the share of
// each hour it covers (device-hours per hour = mean devices held).
void AddHeld(std::vector<double>& hours, int64_t start, int64_t end, double gpus) {
  for (int64_t h = start / kHour; h * kHour < end && h < static_cast<int64_t>(hours.size()); ++h) {
    const int64_t from = std::max(start, h * kHour);
    const int64_t to = std::min(end, (h + 1) * kHour);
    if (to > from) hours[static_cast<size_t>(h)] += gpus * static_cast<double>(to - from) / kHour;
  }
}

absl::StatusOr<std::string> ReadTarGz(const std::string& path) {
  if (FILE* probe = std::fopen(path.c_str(), "rb")) {
    std::fclose(probe);
  } else {
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  }
  const std::string command = absl::StrCat("tar -xzOf '", path, "'");
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return absl::InternalError(absl::StrCat(path, ": cannot run tar"));
  std::string text;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0) text.append(buffer, n);
  return text;
}

}  // namespace

absl::StatusOr<std::vector<NamedSeries>> OpenbHeldGpusByModel(const std::string& openb_dir) {
  FLEETCAP_ASSIGN_OR_RETURN(openb::OpenbTrace trace, openb::ReadOpenbTrace(openb_dir));
  const openb::Placement placement = openb::PlaceNextFit(trace);
  const int64_t end = TraceEnd(trace);
  // Only whole hours are observations: the trace's last hour, cut off at its
  // end, is left out.
  const size_t hours = static_cast<size_t>(end / kHour);
  std::map<std::string, std::vector<double>> by_model;  // ordered: a stable output order
  for (const openb::OpenbNode& node : trace.nodes) {
    if (!node.model.empty()) by_model.emplace(node.model, std::vector<double>(hours, 0.0));
  }
  for (const openb::GpuHold& hold : placement.holds) {
    const std::string& model = trace.nodes[hold.node].model;
    AddHeld(by_model[model], hold.start_s, hold.end_s.value_or(end), hold.milli / 1000.0);
  }
  // The list holds only pods that ended inside the trace's last weeks (no
  // deletion time is earlier than the first one below), so before then the
  // held series lacks every pod that had already ended: only the hours from
  // the first deletion on are the cluster's real occupancy.
  const size_t window_start = static_cast<size_t>((FirstDeletion(trace) + kHour - 1) / kHour);
  std::vector<NamedSeries> out;
  for (auto& [model, values] : by_model) {
    out.push_back({absl::StrCat("openb/", model), std::vector<double>(values.begin() + window_start, values.end())});
  }
  return out;
}

absl::StatusOr<std::vector<NamedSeries>> DemoFleetHeldGpusByModel(const std::string& openb_dir, int days) {
  FLEETCAP_ASSIGN_OR_RETURN(openb::OpenbTrace trace, openb::ReadOpenbTrace(openb_dir));
  openb::LoadSampleOptions options;  // scripts/demo.sh's: seed 1, one node in 40
  options.seed = 1;
  options.node_stride = 40;
  options.targets = openb::DefaultDemoTargets();
  options.start_unix_s = 1'791'158'400;  // Monday 2026-10-05 00:00 UTC
  options.window_s = static_cast<int64_t>(days) * 86400;
  FLEETCAP_ASSIGN_OR_RETURN(openb::SampledLoad load, openb::SampleLoad(trace, options));
  const size_t hours = static_cast<size_t>(options.window_s / kHour);
  std::map<std::string, std::vector<double>> by_model;  // ordered: a stable output order
  for (const openb::OpenbNode& node : load.trace.nodes) {
    if (!node.model.empty()) by_model.emplace(node.model, std::vector<double>(hours, 0.0));
  }
  for (const openb::GpuHold& hold : load.placement.holds) {
    AddHeld(by_model[load.trace.nodes[hold.node].model], hold.start_s, hold.end_s.value_or(options.window_s),
            hold.milli / 1000.0);
  }
  std::vector<NamedSeries> out;
  for (auto& [model, values] : by_model) out.push_back({absl::StrCat("demo/", model), std::move(values)});
  return out;
}

absl::StatusOr<std::vector<NamedSeries>> GenaiDutyCycle(const std::string& tar_gz_path, double min_pod_hours) {
  FLEETCAP_ASSIGN_OR_RETURN(std::string text, ReadTarGz(tar_gz_path));
  struct Reading {
    double t;
    double value;
  };
  std::map<std::string, std::vector<Reading>> by_pod;
  double t0 = HUGE_VAL;
  double t1 = -HUGE_VAL;
  bool header = true;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    if (header) {
      if (line != "value,timestamp_anon,container_ip") {
        return absl::InvalidArgumentError(absl::StrCat(tar_gz_path, ": unexpected header ", line));
      }
      header = false;
      continue;
    }
    std::vector<absl::string_view> cells = absl::StrSplit(line, ',');
    Reading r;
    if (cells.size() != 3 || !absl::SimpleAtod(cells[0], &r.value) || !absl::SimpleAtod(cells[1], &r.t) ||
        !std::isfinite(r.value) || !std::isfinite(r.t) || r.value < 0 || r.value > 100) {
      continue;  // a bad row costs only itself
    }
    t0 = std::min(t0, r.t);
    t1 = std::max(t1, r.t);
    by_pod[std::string(cells[2])].push_back(r);
  }
  if (by_pod.empty()) return absl::InvalidArgumentError(absl::StrCat(tar_gz_path, ": no usable reading"));
  auto bucket_of = [&](double t) { return static_cast<size_t>((t - t0) / kGenaiBucketSeconds); };
  // Only whole buckets are observations: one whose last minute comes after
  // the readings end (the trace's last, or a pod's) is left out.
  auto whole_buckets_to = [&](double last) {
    return static_cast<size_t>((last - t0 + kGenaiReadingSeconds) / kGenaiBucketSeconds);
  };
  const size_t buckets = whole_buckets_to(t1);

  std::vector<double> fleet_sum(buckets, 0.0);
  std::vector<double> fleet_count(buckets, 0.0);
  std::vector<NamedSeries> pods;
  for (auto& [pod, readings] : by_pod) {
    std::vector<double> sum(buckets, 0.0);
    std::vector<double> count(buckets, 0.0);
    double first = HUGE_VAL;
    double last = -HUGE_VAL;
    for (const Reading& r : readings) {
      const size_t b = bucket_of(r.t);
      if (b >= buckets) continue;  // in the trace's partial last bucket
      sum[b] += r.value;
      count[b] += 1;
      fleet_sum[b] += r.value;
      fleet_count[b] += 1;
      first = std::min(first, r.t);
      last = std::max(last, r.t);
    }
    if ((last - first) / 3600.0 < min_pod_hours) continue;
    NamedSeries series{absl::StrCat("genai/pod-", pod.substr(0, 8)), {}};
    double previous = 0;
    for (size_t b = bucket_of(first); b < std::min(whole_buckets_to(last), buckets); ++b) {
      if (count[b] > 0) previous = sum[b] / count[b];
      series.values.push_back(previous);
    }
    pods.push_back(std::move(series));
  }
  std::vector<NamedSeries> out;
  NamedSeries fleet{"genai/fleet", {}};
  double previous = 0;
  for (size_t b = 0; b < buckets; ++b) {
    if (fleet_count[b] > 0) previous = fleet_sum[b] / fleet_count[b];
    fleet.values.push_back(previous);
  }
  out.push_back(std::move(fleet));
  for (NamedSeries& s : pods) out.push_back(std::move(s));
  return out;
}

}  // namespace fleetcap::testing
