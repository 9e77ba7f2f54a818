#include "optimizer/insights/waste.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "optimizer/attribution/price_schedule.h"
#include "optimizer/insights/run_cost.h"

namespace fleetcap::insights {
namespace {

using attribution::ToSeconds;
constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 3600;

int64_t FloorTo(int64_t t, int64_t unit) { return t - ((t % unit) + unit) % unit; }

// The readings of one (cluster, pod, device), by minute from the first the
// engine reads (Finder::first_minute_).
using MinuteReadings = std::vector<const ActivityReading*>;

std::string SeriesKey(const std::string& cluster, const std::string& pod, const std::string& device) {
  return absl::StrCat(cluster, std::string(1, '\0'), pod, std::string(1, '\0'), device);
}

// A reading's activity, 0..1: SM activity where read, else the duty cycle;
// none (unknown) when neither is a number.
struct Activity {
  bool read = false;
  double value = 0;
  bool sm = false;
  std::optional<double> duty, sm_value;
};

std::optional<double> Fraction(const std::optional<double>& v) {
  if (!v || std::isnan(*v)) return std::nullopt;
  return std::clamp(*v, 0.0, 1.0);
}

Activity ActivityOf(const ActivityReading* r) {
  Activity a;
  if (r == nullptr) return a;
  a.duty = Fraction(r->duty_cycle);
  a.sm_value = Fraction(r->sm_active);
  a.read = a.duty || a.sm_value;
  a.sm = a.sm_value.has_value();
  a.value = a.sm ? *a.sm_value : a.duty.value_or(0);
  return a;
}

Activity OfShare(Activity a, int64_t milli) {
  const double of_share = 1000.0 / static_cast<double>(milli);
  a.value *= of_share;
  if (a.duty) *a.duty *= of_share;
  if (a.sm_value) *a.sm_value *= of_share;
  return a;
}

struct WorkloadAcc {
  int64_t held = 0, observed = 0, sm_observed = 0, both_minutes = 0, both_held = 0;
  double active = 0, both_duty = 0, both_sm = 0;
};
using WorkloadHourKey = std::tuple<std::string, std::string, std::string, std::string, int64_t>;

struct HeldDevice {
  const WasteHold* hold;
  int64_t from, to;
  const MinuteReadings* readings;  // nullptr: never read
  // The workload hour the hold's minutes add to, found once an hour.
  WorkloadAcc* workload = nullptr;
  int64_t workload_hour = -1;
};

struct HourAcc {
  int64_t max_milli = 0;
  double activity = 0;
  int64_t sm = 0;
};

struct OpenRun {
  int64_t start = 0, end = 0;
  std::map<int64_t, HourAcc> hours;
};

class Finder {
 public:
  explicit Finder(const WasteInput& in)
      : in_(in),
        start_(ToSeconds(in.start)),
        end_(ToSeconds(in.end)),
        history_(ToSeconds(in.history_from)),
        prices_(in.prices) {
    IndexReadings();
  }

  void Pod(const std::vector<const WasteHold*>& holds);
  WasteFacts Facts();

 private:
  struct Minute {
    int64_t held = 0, milli = 0, sm = 0;
    double activity = 0;
    bool unread = false, idle = true;
  };
  void IndexReadings();
  Minute Read(std::vector<HeldDevice>& devices, int64_t m);
  void Close(const std::vector<HeldDevice>& devices, OpenRun& run);

  const WasteInput& in_;
  const int64_t start_, end_, history_;
  int64_t first_minute_ = 0;  // of the readings indexed
  PriceBook prices_;
  std::unordered_map<std::string, MinuteReadings> readings_;
  std::vector<IdleRun> runs_;
  std::map<WorkloadHourKey, WorkloadAcc> workloads_;
};

// The pod's devices in minute `m`; the window's minutes also count toward
// the workload's hour.
// Each reading of [history, end) by its series and minute. Readings come
// mostly in series order, so a series' key is made once per run of them.
void Finder::IndexReadings() {
  // From the first reading read, not from `history_`: a history given from
  // long before the readings costs nothing.
  first_minute_ = end_;
  for (const ActivityReading& r : in_.readings) {
    const int64_t m = FloorTo(ToSeconds(r.minute), kMinute);
    if (m >= FloorTo(history_, kMinute) && m < first_minute_) first_minute_ = m;
  }
  const int64_t minutes = std::max<int64_t>(0, (end_ - first_minute_ + kMinute - 1) / kMinute);
  const ActivityReading* previous = nullptr;
  MinuteReadings* series = nullptr;
  for (const ActivityReading& r : in_.readings) {
    const int64_t i = (FloorTo(ToSeconds(r.minute), kMinute) - first_minute_) / kMinute;
    if (i < 0 || i >= minutes) continue;
    if (previous == nullptr || previous->device_id != r.device_id || previous->pod_uid != r.pod_uid ||
        previous->cluster != r.cluster) {
      series = &readings_[SeriesKey(r.cluster, r.pod_uid, r.device_id)];
      series->resize(static_cast<size_t>(minutes));
    }
    previous = &r;
    (*series)[static_cast<size_t>(i)] = &r;
  }
}

Finder::Minute Finder::Read(std::vector<HeldDevice>& devices, int64_t m) {
  Minute out;
  const bool in_window = start_ <= m && m < end_;
  for (HeldDevice& d : devices) {
    const int64_t seconds = std::min(d.to, m + kMinute) - std::max(d.from, m);
    if (seconds <= 0) continue;
    const int64_t held = d.hold->milli * seconds;
    const int64_t i = (m - first_minute_) / kMinute;
    const ActivityReading* r = d.readings != nullptr && i >= 0 && i < static_cast<int64_t>(d.readings->size())
                                   ? (*d.readings)[static_cast<size_t>(i)]
                                   : nullptr;
    // A reading is of the whole device (docs/telemetry.md), as the
    // chargeback reads it: a pod holding a share is idle below `idle_below`
    // of its share, and its share's activity is what it used of it.
    const Activity a = OfShare(ActivityOf(r), d.hold->milli);
    out.held += held;
    out.milli += d.hold->milli;
    if (!a.read) {
      out.unread = true;
    } else {
      if (a.value * 10000 >= static_cast<double>(in_.options.idle_below_basis_points)) out.idle = false;
      out.activity += static_cast<double>(held) * a.value;
      if (a.sm) out.sm += held;
    }
    if (!in_window) continue;
    if (d.workload_hour != FloorTo(m, kHour)) {
      const WasteHold& h = *d.hold;
      d.workload_hour = FloorTo(m, kHour);
      d.workload = &workloads_[{h.cluster, h.team, h.namespace_name, h.workload, d.workload_hour}];
    }
    WorkloadAcc& w = *d.workload;
    w.held += held;
    if (!a.read) continue;
    w.observed += held;
    w.active += static_cast<double>(held) * a.value;
    if (a.sm) w.sm_observed += held;
    if (a.sm && a.duty) {
      ++w.both_minutes;
      w.both_held += held;
      w.both_duty += static_cast<double>(held) * *a.duty;
      w.both_sm += static_cast<double>(held) * *a.sm_value;
    }
  }
  return out;
}

void Finder::Pod(const std::vector<const WasteHold*>& holds) {
  std::vector<HeldDevice> devices;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const WasteHold* h : holds) {
    const int64_t from = ToSeconds(h->from), to = ToSeconds(h->to);
    if (from >= to || h->milli <= 0) continue;
    auto it = readings_.find(SeriesKey(h->cluster, h->pod_uid, h->device_id));
    devices.push_back({h, from, to, it == readings_.end() ? nullptr : &it->second});
    lo = std::min(lo, FloorTo(from, kMinute));
    hi = std::max(hi, to);
  }
  lo = std::max(lo, FloorTo(history_, kMinute));
  hi = std::min(hi, end_);
  OpenRun run;
  for (int64_t m = lo; m < hi; m += kMinute) {
    const Minute minute = Read(devices, m);
    if (minute.held == 0 || minute.unread || !minute.idle) {
      Close(devices, run);
      continue;
    }
    if (run.end != m) Close(devices, run);
    if (run.hours.empty()) run.start = m;
    run.end = m + kMinute;
    HourAcc& acc = run.hours[FloorTo(m, kHour)];
    acc.max_milli = std::max(acc.max_milli, minute.milli);
    acc.activity += minute.activity;
    acc.sm += minute.sm;
  }
  Close(devices, run);
}

// Keeps `run` when it lasted `idle_for`: its hours priced, rounded once, and
// those inside the window kept. Leaves `run` empty.
void Finder::Close(const std::vector<HeldDevice>& devices, OpenRun& run) {
  if (run.hours.empty()) return;
  OpenRun done = std::move(run);
  run = OpenRun{};
  if (done.end - done.start < absl::ToInt64Seconds(in_.options.idle_for)) return;
  std::vector<RunPiece> pieces;
  std::vector<CostNumerator> costs;
  std::set<std::string> models;
  for (const auto& [hour, acc] : done.hours) {
    const int64_t from = std::max(done.start, hour), to = std::min(done.end, hour + kHour);
    RunPiece p;
    p.hour = absl::FromUnixSeconds(hour);
    p.start = absl::FromUnixSeconds(from);
    p.end = absl::FromUnixSeconds(to);
    p.devices_milli = acc.max_milli;
    p.activity_milli_seconds = std::llround(acc.activity);
    p.sm_milli_seconds = acc.sm;
    CostNumerator cost = 0;
    for (const HeldDevice& d : devices) {
      const int64_t lo = std::max(from, d.from), hi = std::min(to, d.to);
      if (lo >= hi) continue;
      p.wasted_milli_seconds += d.hold->milli * (hi - lo);
      cost += prices_.Cost(d.hold->cluster, d.hold->model, d.hold->milli, lo, hi);
      models.insert(d.hold->model);
    }
    pieces.push_back(p);
    costs.push_back(cost);
  }
  const std::vector<int64_t> micro = RoundRunOnce(costs);
  const WasteHold& first = *devices.front().hold;
  IdleRun r;
  r.cluster = first.cluster;
  r.pod_uid = first.pod_uid;
  r.namespace_name = first.namespace_name;
  r.team = first.team;
  r.workload = first.workload;
  r.model = absl::StrJoin(models, ",");
  r.run_start = absl::FromUnixSeconds(done.start);
  for (size_t i = 0; i < pieces.size(); ++i) {
    RunPiece& p = pieces[i];
    p.wasted_cost_micro = micro[i];
    if (p.hour < in_.start || p.hour >= in_.end) continue;
    if (r.pieces.empty()) r.start = p.start;
    r.end = p.end;
    r.devices_milli = std::max(r.devices_milli, p.devices_milli);
    r.wasted_milli_seconds += p.wasted_milli_seconds;
    r.wasted_cost_micro += p.wasted_cost_micro;
    r.activity_milli_seconds += p.activity_milli_seconds;
    r.sm_milli_seconds += p.sm_milli_seconds;
    r.pieces.push_back(p);
  }
  if (!r.pieces.empty()) runs_.push_back(std::move(r));
}

WasteFacts Finder::Facts() {
  WasteFacts out;
  out.runs = std::move(runs_);
  for (const auto& [key, w] : workloads_) {
    const auto& [cluster, team, ns, workload, hour] = key;
    out.workload_hours.push_back({cluster, team, ns, workload, absl::FromUnixSeconds(hour), w.held, w.observed,
                                  std::llround(w.active), w.sm_observed, w.both_minutes, w.both_held,
                                  std::llround(w.both_duty), std::llround(w.both_sm)});
  }
  return out;
}

}  // namespace

double IdleRun::MeanActivity() const {
  return wasted_milli_seconds == 0
             ? 0.0
             : static_cast<double>(activity_milli_seconds) / static_cast<double>(wasted_milli_seconds);
}

std::string IdleRun::Signal() const {
  if (sm_milli_seconds == 0) return kSignalDuty;
  return sm_milli_seconds >= wasted_milli_seconds ? kSignalSm : kSignalMixed;
}

absl::StatusOr<WasteFacts> FindWaste(const WasteInput& input) {
  const absl::Time hour_of_start = absl::FromUnixSeconds(FloorTo(ToSeconds(input.start), kHour));
  const absl::Time hour_of_end = absl::FromUnixSeconds(FloorTo(ToSeconds(input.end), kHour));
  if (input.start != hour_of_start || input.end != hour_of_end || input.start >= input.end) {
    return absl::InvalidArgumentError("the waste window must be whole UTC hours, start before end");
  }
  if (input.history_from > input.start) return absl::InvalidArgumentError("history must start at or before the window");
  std::map<std::pair<std::string, std::string>, std::vector<const WasteHold*>> pods;
  for (const WasteHold& h : input.holds) pods[{h.cluster, h.pod_uid}].push_back(&h);
  Finder finder(input);
  for (const auto& [pod, holds] : pods) finder.Pod(holds);
  return finder.Facts();
}

}  // namespace fleetcap::insights
