#include "optimizer/attribution/attribution_engine.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_observer.h"
#include "optimizer/attribution/attribution_options.h"
#include "optimizer/attribution/cell_attribution.h"
#include "optimizer/attribution/explaining_observer.h"
#include "optimizer/attribution/fixed_costs.h"
#include "optimizer/attribution/hour_line_set.h"
#include "optimizer/attribution/hour_segmentation.h"
#include "optimizer/attribution/input_index.h"

namespace fleetcap::attribution {
namespace {

using internal::AttributionObserver;
using internal::InputIndex;
using internal::kSecondsPerHour;

// Attributes the hours of a window, one at a time: the input indexed once
// (input_index.h), then each hour segmented and charged
// (hour_segmentation.h), split cell by cell (cell_attribution.h), and its
// fixed costs spread. The observer is told each step.
class Engine {
 public:
  Engine(const AttributionInput& input, const Options& options, absl::Time start, absl::Time end,
         AttributionObserver* observer)
      : input_(input), options_(options), window_start_(start), window_end_(end), observer_(observer) {}

  // `keep_names`: index the names of pods too.
  void Prepare(const TeamSchedule& teams, bool keep_names) {
    index_ = internal::IndexInput(input_, teams, window_start_, window_end_, keep_names, &report_);
    work_.device_slot.assign(index_.device_keys.size(), -1);
    observer_->Indexed(index_);
  }
  absl::Status Run(const HourSink& sink);
  AttributionReport TakeReport() { return std::move(report_); }

 private:
  absl::StatusOr<HourLines> Hour(int64_t hour, const std::vector<size_t>& devices, const std::vector<size_t>& pieces);
  // The lines of each (cluster, model) of the hour.
  absl::Status Cells(int64_t hour);
  // What the hour's charges came to on each device held.
  std::vector<DeviceHourUse> DevicesHeld() const;
  void Fixed(int64_t hour);

  const AttributionInput& input_;
  const Options options_;
  const absl::Time window_start_, window_end_;
  AttributionObserver* observer_;
  InputIndex index_;
  internal::HourWork work_;      // kept between hours to reuse its memory
  internal::HourLineSet lines_;  // the hour's
  AttributionReport report_;
};

absl::Status Engine::Run(const HourSink& sink) {
  const std::vector<internal::Device>& all_devices = index_.devices;
  const std::vector<internal::Piece>& all_pieces = index_.pieces;
  std::vector<size_t> devices, pieces, arriving, merged;  // devices: ascending, so in work order
  size_t next_device = 0, next_piece = 0;
  for (int64_t hour = index_.start; hour < index_.end; hour += kSecondsPerHour) {
    const int64_t hour_end = hour + kSecondsPerHour;
    arriving.clear();
    for (; next_device < index_.device_starts.size() && all_devices[index_.device_starts[next_device]].from < hour_end;
         ++next_device) {
      arriving.push_back(index_.device_starts[next_device]);
    }
    if (!arriving.empty()) {
      std::sort(arriving.begin(), arriving.end());
      merged.clear();
      std::merge(devices.begin(), devices.end(), arriving.begin(), arriving.end(), std::back_inserter(merged));
      devices.swap(merged);
    }
    for (; next_piece < all_pieces.size() && all_pieces[next_piece].from < hour_end; ++next_piece) {
      pieces.push_back(next_piece);
    }
    devices.erase(std::remove_if(devices.begin(), devices.end(), [&](size_t d) { return all_devices[d].to <= hour; }),
                  devices.end());
    pieces.erase(std::remove_if(pieces.begin(), pieces.end(), [&](size_t p) { return all_pieces[p].to <= hour; }),
                 pieces.end());
    absl::StatusOr<HourLines> lines = Hour(hour, devices, pieces);
    if (!lines.ok()) return lines.status();
    for (const ChargeLine& l : lines->lines) report_.total_cost_micro += l.total_cost_micro;
    sink(*std::move(lines));
  }
  return absl::OkStatus();
}

absl::StatusOr<HourLines> Engine::Hour(int64_t hour, const std::vector<size_t>& devices,
                                       const std::vector<size_t>& pieces) {
  internal::SegmentHour(index_, hour, devices, &work_, &report_);
  internal::ChargeHour(index_, options_, hour, pieces, &work_);
  lines_.Clear();
  observer_->HourStarted(hour);
  FLEETCAP_RETURN_IF_ERROR(Cells(hour));
  Fixed(hour);
  lines_.Sort();
  observer_->HourOrdered(hour, lines_.order());
  HourLines out;
  out.hour = absl::FromUnixSeconds(hour);
  out.lines = lines_.Take();
  out.devices = DevicesHeld();
  return out;
}

std::vector<DeviceHourUse> Engine::DevicesHeld() const {
  const std::vector<internal::DeviceHour>& device_hours = work_.device_hours;
  std::vector<DeviceHourUse> sums(device_hours.size());
  std::vector<bool> held(device_hours.size(), false);
  for (const internal::Charge& c : work_.charges) {
    DeviceHourUse& sum = sums[c.device_hour];
    sum.held_milli_seconds += c.held;
    sum.used_milli_seconds += c.used;
    sum.observed_milli_seconds += c.observed;
    held[c.device_hour] = true;
  }
  std::vector<DeviceHourUse> devices;
  for (size_t d = 0; d < device_hours.size(); ++d) {  // by (cluster, model)
    if (!held[d]) continue;
    const internal::DeviceHour& dh = device_hours[d];
    DeviceHourUse& device = devices.emplace_back(std::move(sums[d]));
    device.cluster = index_.clusters.Name(dh.cluster);
    device.model = index_.models.Name(dh.model);
    device.node = index_.node_names[dh.node];
    device.device_id = index_.device_names[dh.key];
  }
  return devices;
}

absl::Status Engine::Cells(int64_t hour) {
  const std::vector<internal::DeviceHour>& device_hours = work_.device_hours;
  const std::vector<internal::Charge>& charges = work_.charges;
  size_t c = 0;
  for (size_t d = 0; d < device_hours.size();) {
    size_t e = d;
    while (e < device_hours.size() && device_hours[e].cell == device_hours[d].cell) ++e;
    const size_t c_begin = c;
    while (c < charges.size() && device_hours[charges[c].device_hour].cell == device_hours[d].cell) ++c;
    FLEETCAP_RETURN_IF_ERROR(
        internal::AttributeCell(index_, options_, hour, work_, {d, e, c_begin, c}, observer_, &lines_));
    d = e;
  }
  return absl::OkStatus();
}

void Engine::Fixed(int64_t hour) {
  int64_t amount = 0;
  for (const policy::FixedCost& f : input_.options.fixed_monthly_costs) {
    amount += MonthlyCostForHour(f.micro_per_month, absl::FromUnixSeconds(hour));
  }
  if (amount == 0) return;
  // The teams charged this hour, by what they were charged.
  std::map<uint32_t, int64_t> charged;
  for (const internal::OrderedLine& o : lines_.order()) {
    if (o.key[5] == internal::kWorkloadKindOrder) charged[o.key[2]] += lines_.line(o.line).total_cost_micro;
  }
  int64_t team_weight = 0, weight_sum = 0;  // for an observer
  auto add = [&](uint32_t team, int64_t micro) {
    ChargeLine line;
    line.hour = absl::FromUnixSeconds(hour);
    line.team = index_.teams.Name(team);
    line.line_kind = kFixedLine;
    line.shared_cost_micro = line.total_cost_micro = micro;
    observer_->FixedLineMade(lines_.next(), team, line, amount, team_weight, weight_sum);
    lines_.Add(std::move(line), index_.clusters.Id(""), index_.models.Id(""), team, index_.namespaces.Id(""),
               index_.workloads.Id(""));
  };
  if (charged.empty()) {
    add(index_.teams.Id(policy::kUnassignedTeam), amount);
    return;
  }
  std::vector<Int128> weights, parts;
  for (const auto& [team, micro] : charged) weights.push_back(options_.shared_even ? 1 : micro);
  Apportion(amount, weights, &parts);
  for (const Int128& w : weights) weight_sum += static_cast<int64_t>(w);
  size_t i = 0;
  for (const auto& [team, micro] : charged) {
    team_weight = static_cast<int64_t>(weights[i]);
    if (parts[i] > 0) add(team, static_cast<int64_t>(parts[i]));
    ++i;
  }
}

absl::Status CheckWindow(absl::Time start, absl::Time end) {
  auto whole_hour = [](absl::Time t) {
    return t != absl::InfinitePast() && t != absl::InfiniteFuture() && t == absl::FromUnixSeconds(ToSeconds(t)) &&
           ToSeconds(t) % kSecondsPerHour == 0;
  };
  if (!whole_hour(start) || !whole_hour(end) || start >= end) {
    return absl::InvalidArgumentError(absl::StrCat("window [", absl::FormatTime(start, absl::UTCTimeZone()), ", ",
                                                   absl::FormatTime(end, absl::UTCTimeZone()),
                                                   "): start and end must be whole hours, start before end"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<HourExplanation> Explain(const AttributionInput& input, const TeamSchedule& teams,
                                        const ExplainRequest& request) {
  if (!CheckWindow(request.hour, request.hour + absl::Hours(1)).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("hour ", absl::FormatTime(request.hour, absl::UTCTimeZone()), " is not a whole hour"));
  }
  absl::StatusOr<Options> options = ParseOptions(input.options);
  if (!options.ok()) return options.status();
  HourExplanation out;
  out.hour = request.hour;
  out.team = request.team;
  internal::ExplainingObserver observer(request, *options, &out);
  Engine engine(input, *options, request.hour, request.hour + absl::Hours(1), &observer);
  engine.Prepare(teams, /*keep_names=*/true);
  FLEETCAP_RETURN_IF_ERROR(engine.Run([](HourLines&&) {}));
  FLEETCAP_RETURN_IF_ERROR(internal::CheckExplanation(out));
  return out;
}

absl::StatusOr<AttributionReport> Attribute(const AttributionInput& input, const TeamSchedule& teams,
                                            const HourSink& sink) {
  FLEETCAP_RETURN_IF_ERROR(CheckWindow(input.start, input.end));
  absl::StatusOr<Options> options = ParseOptions(input.options);
  if (!options.ok()) return options.status();
  AttributionObserver silent;  // the default observer does nothing
  Engine engine(input, *options, input.start, input.end, &silent);
  engine.Prepare(teams, /*keep_names=*/false);
  FLEETCAP_RETURN_IF_ERROR(engine.Run(sink));
  return engine.TakeReport();
}

}  // namespace fleetcap::attribution
