#include "optimizer/attribution/cell_attribution.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace fleetcap::attribution::internal {
namespace {

// A line's charge on one node, for idle shared per node.
struct ChargeOnNode {
  uint32_t node;
  size_t line;
  Int128 weight;
};

class CellSplitter {
 public:
  CellSplitter(const InputIndex& index, const Options& options, int64_t hour, const HourWork& work,
               const CellRange& cell, AttributionObserver* observer)
      : index_(index),
        options_(options),
        hour_(hour),
        work_(work),
        cell_(cell),
        observer_(observer),
        cluster_(work.device_hours[cell.dh_begin].cluster),
        model_(work.device_hours[cell.dh_begin].model),
        watched_(observer->WantsCell(cluster_, model_)) {}

  absl::Status Split(HourLineSet* out) {
    if (watched_) observer_->CellStarted({hour_, &work_, cell_.c_begin});
    GatherLines();
    for (size_t d = cell_.dh_begin; d < cell_.dh_end; ++d) capacity_ += work_.device_hours[d].capacity;
    if (options_.idle_per_node) {
      ShareIdlePerNode();
    } else {
      ShareIdleOverCell();
    }
    Spread();
    return MakeLines(out);
  }

 private:
  void GatherLines();
  void ShareIdlePerNode();
  void ShareIdleOverCell();
  // ShareIdle over one scope, told to the observer.
  void Share(Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers, std::optional<uint32_t> node);
  void Spread();
  absl::Status MakeLines(HourLineSet* out);

  const InputIndex& index_;
  const Options& options_;
  const int64_t hour_;
  const HourWork& work_;
  const CellRange cell_;
  AttributionObserver* observer_;
  const uint32_t cluster_, model_;
  const bool watched_;
  // Lines in (team, namespace, workload) order: the charges come sorted so.
  std::vector<CellLine> lines_;
  std::vector<ChargeOnNode> on_node_;
  Int128 capacity_ = 0;
  Int128 kept_ = 0;
};

void CellSplitter::GatherLines() {
  for (size_t k = cell_.c_begin; k < cell_.c_end; ++k) {
    const Charge& c = work_.charges[k];
    const Piece& p = index_.pieces[c.piece];
    if (lines_.empty() || lines_.back().team != p.team || lines_.back().ns != p.ns ||
        lines_.back().workload != p.workload) {
      lines_.push_back({p.team, p.ns, p.workload, p.shared});
    }
    CellLine& l = lines_.back();
    l.direct += c.weight;
    l.held += c.held;
    l.used += c.used;
    l.observed += c.observed;
    l.no_telemetry = l.no_telemetry || c.no_telemetry;
    on_node_.push_back({work_.device_hours[c.device_hour].node, lines_.size() - 1, c.weight});
    if (watched_) observer_->ChargeOnLine(lines_.size() - 1);
  }
  if (watched_) observer_->CellLinesGathered(lines_.size());
}

void CellSplitter::ShareIdlePerNode() {
  const std::vector<DeviceHour>& device_hours = work_.device_hours;
  std::sort(on_node_.begin(), on_node_.end(), [](const ChargeOnNode& a, const ChargeOnNode& b) {
    return std::tie(a.node, a.line) < std::tie(b.node, b.line);
  });
  std::vector<std::pair<size_t, Int128>> takers;
  size_t k = 0;
  for (size_t d = cell_.dh_begin; d < cell_.dh_end;) {
    const uint32_t node = device_hours[d].node;
    Int128 idle = 0;
    for (; d < cell_.dh_end && device_hours[d].node == node; ++d) idle += device_hours[d].idle;
    while (k < on_node_.size() && on_node_[k].node < node) ++k;
    takers.clear();
    for (; k < on_node_.size() && on_node_[k].node == node; ++k) {
      if (takers.empty() || takers.back().first != on_node_[k].line) takers.emplace_back(on_node_[k].line, 0);
      takers.back().second += on_node_[k].weight;
    }
    Share(idle, takers, node);
  }
}

void CellSplitter::ShareIdleOverCell() {
  Int128 idle = 0;
  for (size_t d = cell_.dh_begin; d < cell_.dh_end; ++d) idle += work_.device_hours[d].idle;
  std::vector<std::pair<size_t, Int128>> takers;
  for (size_t i = 0; i < lines_.size(); ++i) takers.emplace_back(i, lines_[i].direct);
  Share(idle, takers, std::nullopt);
}

void CellSplitter::Share(Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers,
                         std::optional<uint32_t> node) {
  if (!watched_ || idle == 0) {
    ShareIdle(options_, idle, takers, &lines_, &kept_);
    return;
  }
  std::vector<Int128> before;
  for (const CellLine& l : lines_) before.push_back(l.idle);
  const Int128 kept_before = kept_;
  ShareIdle(options_, idle, takers, &lines_, &kept_);
  observer_->IdleShared({node, idle, takers, before, kept_before, lines_, kept_});
}

void CellSplitter::Spread() {
  std::vector<Int128> before_spread;  // each line's charge and idle, when watched
  if (watched_) {
    for (const CellLine& l : lines_) before_spread.push_back(l.direct + l.idle);
  }
  SpreadShared(options_, &lines_);
  if (watched_) observer_->SharedSpread(before_spread, lines_);
}

// The fleet cost of the cell, rounded once, then split over the lines by
// their exact weights, and each line over its parts.
absl::Status CellSplitter::MakeLines(HourLineSet* out) {
  Int128 weight_sum = kept_;
  for (const CellLine& l : lines_) weight_sum += l.direct + l.idle + l.spread;
  const std::string& cluster = index_.clusters.Name(cluster_);
  const std::string& model = index_.models.Name(model_);
  if (weight_sum != capacity_) {
    // Every split above is exact, so this cannot happen; if it did, lines
    // that do not add up must not be written.
    return absl::InternalError(absl::StrCat("attribution of ", cluster, " ", model, " at ",
                                            absl::FormatTime(absl::FromUnixSeconds(hour_), absl::UTCTimeZone()),
                                            " does not add up to its fleet cost"));
  }
  const Int128 cost = (capacity_ + kWeightPerMicro / 2) / kWeightPerMicro;
  const CellCost cell_cost{capacity_, static_cast<int64_t>(cost)};
  std::vector<Int128> weights, totals, parts;
  for (const CellLine& l : lines_) weights.push_back(l.direct + l.idle + l.spread);
  weights.push_back(kept_);  // the idle line, last
  Apportion(cost, weights, &totals);

  for (size_t i = 0; i < lines_.size(); ++i) {
    const CellLine& l = lines_[i];
    Apportion(totals[i], {l.direct, l.idle, l.spread}, &parts);
    ChargeLine line;
    line.hour = absl::FromUnixSeconds(hour_);
    line.cluster = cluster;
    line.team = index_.teams.Name(l.team);
    line.namespace_name = index_.namespaces.Name(l.ns);
    line.workload = index_.workloads.Name(l.workload);
    line.model = model;
    line.line_kind = l.shared ? kSharedLine : kWorkloadLine;
    line.held_milli_seconds = l.held;
    line.used_milli_seconds = l.used;
    line.observed_milli_seconds = l.observed;
    line.direct_cost_micro = static_cast<int64_t>(parts[0]);
    line.idle_cost_micro = static_cast<int64_t>(parts[1]);
    line.shared_cost_micro = static_cast<int64_t>(parts[2]);
    line.total_cost_micro = static_cast<int64_t>(totals[i]);
    line.no_telemetry = l.no_telemetry;
    if (watched_) observer_->CellLineMade(out->next(), i, line, lines_, cell_cost);
    out->Add(std::move(line), cluster_, model_, l.team, l.ns, l.workload);
  }
  if (kept_ > 0) {
    ChargeLine idle;
    idle.hour = absl::FromUnixSeconds(hour_);
    idle.cluster = cluster;
    idle.team = kIdleTeam;
    idle.model = model;
    idle.line_kind = kIdleLine;
    idle.idle_cost_micro = idle.total_cost_micro = static_cast<int64_t>(totals.back());
    if (watched_) observer_->IdleLineMade(out->next(), idle, kept_, cell_cost);
    out->Add(std::move(idle), cluster_, model_, index_.teams.Id(kIdleTeam), index_.namespaces.Id(""),
             index_.workloads.Id(""));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AttributeCell(const InputIndex& index, const Options& options, int64_t hour, const HourWork& work,
                           const CellRange& cell, AttributionObserver* observer, HourLineSet* out) {
  return CellSplitter(index, options, hour, work, cell, observer).Split(out);
}

}  // namespace fleetcap::attribution::internal
