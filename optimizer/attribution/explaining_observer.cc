#include "optimizer/attribution/explaining_observer.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::attribution::internal {
namespace {

// A line's idle cost over the scopes it came from, by what each gave.
void SplitIdle(int64_t idle_micro, std::vector<IdleExplanation>* scopes) {
  std::vector<Int128> weights, parts;
  for (const IdleExplanation& s : *scopes) weights.push_back(s.received);
  Apportion(idle_micro, weights, &parts);
  for (size_t i = 0; i < parts.size(); ++i) (*scopes)[i].idle_cost_micro = static_cast<int64_t>(parts[i]);
}

// Why an explanation does not add up to its line; "" when it does.
std::string Mismatch(const LineExplanation& e) {
  const ChargeLine& l = e.line;
  int64_t direct = 0, idle = 0;
  for (const HoldExplanation& h : e.holds) direct += h.direct_cost_micro;
  for (const IdleExplanation& s : e.idle) idle += s.idle_cost_micro;
  if (direct != l.direct_cost_micro) {
    return absl::StrCat("its holds add up to ", direct, " of its direct cost ", l.direct_cost_micro);
  }
  if (idle != l.idle_cost_micro) {
    return absl::StrCat("its idle scopes add up to ", idle, " of its idle cost ", l.idle_cost_micro);
  }
  if (l.shared_cost_micro != 0 && !(e.shared && e.shared->received > 0) && !e.fixed) {
    return absl::StrCat("it has shared cost ", l.shared_cost_micro, " and received none");
  }
  if (l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro != l.total_cost_micro) {
    return absl::StrCat("direct, idle and shared add up to ",
                        l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro, " of its total ",
                        l.total_cost_micro);
  }
  return "";
}

}  // namespace

void ExplainingObserver::Indexed(const InputIndex& index) {
  index_ = &index;
  team_ = index.teams.Find(request_.team);
}

void ExplainingObserver::HourStarted(int64_t /*hour*/) { explained_.clear(); }

bool ExplainingObserver::WantsCell(uint32_t cluster, uint32_t model) const {
  if (!team_) return false;
  return (request_.cluster.empty() || index_->clusters.Name(cluster) == request_.cluster) &&
         (request_.model.empty() || index_->models.Name(model) == request_.model);
}

void ExplainingObserver::CellStarted(const CellView& cell) { cell_ = CellRecord{cell, {}, {}, {}, {}}; }

void ExplainingObserver::ChargeOnLine(size_t line) { cell_.charge_line.push_back(line); }

void ExplainingObserver::CellLinesGathered(size_t lines) { cell_.idle.resize(lines); }

void ExplainingObserver::IdleShared(const IdleShare& share) {
  IdleExplanation scope;
  scope.scope = options_.idle_per_node ? "node" : "cluster";
  scope.node = share.node ? index_->node_names[*share.node] : std::string();
  scope.rule = options_.idle == IdleRule::kShare ? "share" : options_.idle == IdleRule::kEven ? "even" : "keep";
  scope.scope_idle = share.idle;
  for (const auto& t : share.takers) scope.scope_weight += t.second;
  if (share.kept > share.kept_before) {
    IdleExplanation k = scope;
    k.received = share.kept - share.kept_before;
    k.note = options_.idle == IdleRule::kKeep ? "kept by the rule"
             : share.takers.empty()           ? "nobody held the model in the scope"
                                              : "no charge in the scope to weigh a share by";
    cell_.kept.push_back(std::move(k));
    return;
  }
  for (const auto& [line, weight] : share.takers) {
    IdleExplanation r = scope;
    r.line_weight = weight;
    r.received = share.lines[line].idle - share.idle_before[line];
    cell_.idle[line].push_back(std::move(r));
  }
}

void ExplainingObserver::SharedSpread(const std::vector<Int128>& before, const std::vector<CellLine>& /*lines*/) {
  cell_.before_spread = before;
}

void ExplainingObserver::CellLineMade(size_t line_index, size_t cell_line, const ChargeLine& line,
                                      const std::vector<CellLine>& lines, const CellCost& cost) {
  const CellLine& l = lines[cell_line];
  if (team_ != l.team) return;
  LineExplanation& e = explained_[line_index];
  e.line = line;
  ExplainHolds(cell_line, line.direct_cost_micro, &e);
  ExplainShared(lines, cell_line, &e);
  e.idle = cell_.idle[cell_line];
  SplitIdle(line.idle_cost_micro, &e.idle);
  e.direct_weight = l.direct;
  e.idle_weight = l.idle;
  e.shared_weight = l.spread;
  e.cell_weight = cost.capacity;
  e.cell_cost_micro = cost.cost;
}

void ExplainingObserver::IdleLineMade(size_t line_index, const ChargeLine& line, Int128 kept, const CellCost& cost) {
  if (team_ != index_->teams.Id(kIdleTeam)) return;
  LineExplanation& e = explained_[line_index];
  e.line = line;
  e.idle = cell_.kept;
  SplitIdle(line.idle_cost_micro, &e.idle);
  e.idle_weight = kept;
  e.cell_weight = cost.capacity;
  e.cell_cost_micro = cost.cost;
}

void ExplainingObserver::FixedLineMade(size_t line_index, uint32_t team, const ChargeLine& line, int64_t hour_amount,
                                       int64_t team_weight, int64_t weight_sum) {
  if (team_ != team || !request_.cluster.empty() || !request_.model.empty()) return;
  LineExplanation& e = explained_[line_index];
  e.line = line;
  e.fixed = FixedExplanation{options_.shared_even ? "even" : "weighted", hour_amount, team_weight, weight_sum};
}

void ExplainingObserver::HourOrdered(int64_t hour, const std::vector<OrderedLine>& order) {
  if (hour != ToSeconds(request_.hour)) return;
  out_->hour = absl::FromUnixSeconds(hour);
  out_->team = request_.team;
  for (const OrderedLine& o : order) {
    auto it = explained_.find(o.line);
    if (it != explained_.end()) out_->lines.push_back(std::move(it->second));
  }
}

void ExplainingObserver::ExplainHolds(size_t line, int64_t direct_micro, LineExplanation* e) const {
  const CellView& cell = *cell_.view;
  const std::vector<Segment>& segments = cell.work->segments;
  std::vector<Int128> weights, parts;
  for (size_t k = 0; k < cell_.charge_line.size(); ++k) {
    if (cell_.charge_line[k] != line) continue;
    const Charge& c = cell.work->charges[cell.first_charge + k];
    const Piece& p = index_->pieces[c.piece];
    const DeviceHour& dh = cell.work->device_hours[c.device_hour];
    const int64_t from = std::max(p.from, cell.hour);
    const int64_t to = std::min(p.to, cell.hour + kSecondsPerHour);
    HoldExplanation h;
    h.pod_uid = index_->pod_names[p.pod];
    h.device_id = index_->device_names[p.device];
    h.node = index_->node_names[dh.node];
    h.milli = p.milli;
    h.from = absl::FromUnixSeconds(from);
    h.to = absl::FromUnixSeconds(to);
    h.held_milli_seconds = c.held;
    h.held_seconds = c.held / p.milli;
    h.telemetry_seconds = c.sampled_seconds;
    h.used_milli_seconds = c.used;
    for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
      const int64_t seconds = Overlap(from, to, segments[s].from, segments[s].to);
      if (seconds > 0) h.prices.push_back({segments[s].price, segments[s].priced, seconds});
    }
    h.weight = c.weight;
    h.over_held = c.over_held;
    h.no_telemetry = c.no_telemetry;
    weights.push_back(c.weight);
    e->holds.push_back(std::move(h));
  }
  // The line's direct cost over its holds by the rule every split follows.
  Apportion(direct_micro, weights, &parts);
  for (size_t k = 0; k < parts.size(); ++k) e->holds[k].direct_cost_micro = static_cast<int64_t>(parts[k]);
}

void ExplainingObserver::ExplainShared(const std::vector<CellLine>& lines, size_t line, LineExplanation* e) const {
  const std::vector<Int128>& before_spread = cell_.before_spread;
  Int128 pool = 0;
  bool recipients = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].shared) {
      pool += before_spread[i];
    } else {
      recipients = true;
    }
  }
  if (pool == 0 || !recipients) return;  // nothing was spread
  SharedExplanation s;
  s.spread = options_.shared_even ? "even" : "weighted";
  s.pool = pool;
  s.line_weight = before_spread[line];
  if (lines[line].shared) {
    s.given = before_spread[line];
  } else {
    s.received = lines[line].spread;
  }
  e->shared = s;
}

absl::Status CheckExplanation(const HourExplanation& explanation) {
  for (const LineExplanation& e : explanation.lines) {
    // Each split is exact, so this cannot happen; an explanation that does
    // not add up must not be shown as one.
    const std::string mismatch = Mismatch(e);
    if (!mismatch.empty()) {
      return absl::InternalError(absl::StrCat("the explanation of ", e.line.team, "'s ", e.line.line_kind, " line of ",
                                              e.line.cluster, " ", e.line.model, " ", e.line.namespace_name, " ",
                                              e.line.workload, " does not add up: ", mismatch));
    }
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::attribution::internal
