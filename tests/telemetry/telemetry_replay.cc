#include "tests/telemetry/telemetry_replay.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::testing {
namespace {

int64_t MinuteStart(int64_t ts_ms) {
  int64_t m = ts_ms / kReplayMinuteMs;
  if (ts_ms % kReplayMinuteMs < 0) --m;
  return m * kReplayMinuteMs;
}

bool Retryable(long status) { return status == 429 || status >= 500; }

// Posts `body` until it is accepted, waiting out backpressure.
absl::Status PostUntilAccepted(const std::string& body, const RemoteWritePost& post, const Clock& clock,
                               const ReplayOptions& options, ReplayReport& report) {
  const absl::Duration began = clock.Monotonic();
  absl::Duration backoff = absl::Milliseconds(100);
  for (;;) {
    ++report.requests;
    absl::StatusOr<HttpResult> result = post(body);
    std::string refusal;
    if (!result.ok()) {
      refusal = std::string(result.status().message());
    } else if (result->status >= 200 && result->status < 300) {
      return absl::OkStatus();
    } else if (Retryable(result->status)) {
      refusal = absl::StrCat("HTTP ", result->status, " ", result->body.substr(0, 200));
    } else {
      return absl::FailedPreconditionError(
          absl::StrCat("remote_write refused a request: HTTP ", result->status, " ", result->body.substr(0, 500)));
    }
    if (clock.Monotonic() - began > options.patience) {
      return absl::DeadlineExceededError(absl::StrCat("remote_write kept refusing a request for ",
                                                      absl::FormatDuration(options.patience), "; last: ", refusal));
    }
    ++report.resent;
    clock.SleepFor(backoff);
    backoff = std::min(backoff * 2, options.max_backoff);
  }
}

}  // namespace

size_t SeriesForPod(const std::string& pod_uid, size_t series_count) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : pod_uid) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return series_count == 0 ? 0 : static_cast<size_t>(h % series_count);
}

double ReplayedUtilPercent(const DutyCycleSeries& series, int64_t held_from_ms, int64_t minute_ms, int milli) {
  const int64_t offset = (minute_ms - MinuteStart(held_from_ms)) / kReplayMinuteMs;
  const int64_t n = static_cast<int64_t>(series.values.size());
  const double value = series.values[static_cast<size_t>(((offset % n) + n) % n)];
  return value * milli / 1000.0;
}

telemetry::Labels DcgmLabels(const DeviceHold& hold) {
  return {{"__name__", "DCGM_FI_DEV_GPU_UTIL"},
          {"UUID", hold.device_id},
          {"gpu", std::to_string(hold.device_index)},
          {"Hostname", hold.node},
          {"modelName", hold.model},
          {"namespace", hold.namespace_},
          {"pod", hold.pod}};
}

absl::StatusOr<ReplayReport> ReplayHolds(const std::vector<DeviceHold>& holds, const DutyCycleData& data,
                                         const RemoteWritePost& post, const Clock& clock,
                                         const ReplayOptions& options) {
  ReplayReport report;
  if (data.series.empty()) return absl::InvalidArgumentError("no duty-cycle series to replay");
  if (!std::is_sorted(holds.begin(), holds.end(),
                      [](const DeviceHold& a, const DeviceHold& b) { return a.from_ms < b.from_ms; })) {
    return absl::InvalidArgumentError("holds must be ordered by their start");
  }
  report.holds = static_cast<int64_t>(holds.size());
  {
    std::set<std::string> pods, devices;
    for (const DeviceHold& h : holds) {
      pods.insert(h.pod_uid);
      devices.insert(h.device_id);
    }
    report.pods = static_cast<int64_t>(pods.size());
    report.devices = static_cast<int64_t>(devices.size());
  }
  if (holds.empty()) return report;
  int64_t last_ms = 0;
  for (const DeviceHold& h : holds) last_ms = std::max(last_ms, h.to_ms);

  // Minute by minute, in time order: a request holds whole minutes, so each
  // device's samples reach the ingest in time order, as from Prometheus.
  std::map<std::pair<std::string, std::string>, telemetry::RawSeries> request;  // (pod_uid, device) -> series
  int64_t request_samples = 0;
  auto flush = [&]() -> absl::Status {
    if (request_samples == 0) return absl::OkStatus();
    std::vector<telemetry::RawSeries> series;
    series.reserve(request.size());
    for (auto& [key, s] : request) series.push_back(std::move(s));
    request.clear();
    report.samples += request_samples;
    request_samples = 0;
    return PostUntilAccepted(telemetry::EncodeRemoteWrite(series), post, clock, options, report);
  };

  std::vector<const DeviceHold*> active;
  size_t next = 0;
  for (int64_t minute = MinuteStart(holds.front().from_ms); minute < last_ms; minute += kReplayMinuteMs) {
    const int64_t minute_end = minute + kReplayMinuteMs;
    while (next < holds.size() && holds[next].from_ms < minute_end) active.push_back(&holds[next++]);
    active.erase(
        std::remove_if(active.begin(), active.end(), [minute](const DeviceHold* h) { return h->to_ms <= minute; }),
        active.end());
    if (active.empty() && next < holds.size()) {  // a gap nobody held anything in
      minute = MinuteStart(holds[next].from_ms) - kReplayMinuteMs;
      continue;
    }
    // One sample per pod on a device per minute, even where two holds of
    // the pod on that device meet within the minute.
    std::set<std::pair<std::string, std::string>> sampled;
    for (const DeviceHold* h : active) {
      if (!sampled.emplace(h->pod_uid, h->device_id).second) continue;
      const DutyCycleSeries& genai = data.series[SeriesForPod(h->pod_uid, data.series.size())];
      telemetry::RawSeries& s = request[{h->pod_uid, h->device_id}];
      if (s.labels.empty()) s.labels = DcgmLabels(*h);
      // Stamped within both the minute and the hold.
      s.points.push_back({std::max(minute, h->from_ms), ReplayedUtilPercent(genai, h->held_from_ms, minute, h->milli)});
      ++request_samples;
    }
    if (request_samples >= options.batch_samples) {
      if (absl::Status s = flush(); !s.ok()) return s;
    }
  }
  if (absl::Status s = flush(); !s.ok()) return s;
  return report;
}

}  // namespace fleetcap::testing
