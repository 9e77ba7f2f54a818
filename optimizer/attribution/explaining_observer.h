#pragma once
// The explanation of a chargeback line (explanation.h) as an observer of the
// attribution engine (attribution_observer.h): it records, for the lines an
// ExplainRequest selects, what the engine tells it while making them, and
// hands them over in the hour's order. Internal to the engine.

#include <map>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "optimizer/attribution/attribution_observer.h"
#include "optimizer/attribution/attribution_options.h"
#include "optimizer/attribution/explanation.h"

namespace fleetcap::attribution::internal {

class ExplainingObserver : public AttributionObserver {
 public:
  // Everything must outlive this; `out` receives the explained lines.
  ExplainingObserver(const ExplainRequest& request, const Options& options, HourExplanation* out)
      : request_(request), options_(options), out_(out) {}

  void Indexed(const InputIndex& index) override;
  void HourStarted(int64_t hour) override;
  bool WantsCell(uint32_t cluster, uint32_t model) const override;
  void CellStarted(const CellView& cell) override;
  void ChargeOnLine(size_t line) override;
  void CellLinesGathered(size_t lines) override;
  void IdleShared(const IdleShare& share) override;
  void SharedSpread(const std::vector<Int128>& before, const std::vector<CellLine>& lines) override;
  void CellLineMade(size_t line_index, size_t cell_line, const ChargeLine& line, const std::vector<CellLine>& lines,
                    const CellCost& cost) override;
  void IdleLineMade(size_t line_index, const ChargeLine& line, Int128 kept, const CellCost& cost) override;
  void FixedLineMade(size_t line_index, uint32_t team, const ChargeLine& line, int64_t hour_amount, int64_t team_weight,
                     int64_t weight_sum) override;
  void HourOrdered(int64_t hour, const std::vector<OrderedLine>& order) override;

 private:
  // What an explanation needs of the cell being split beyond its lines.
  struct CellRecord {
    std::optional<CellView> view;
    std::vector<size_t> charge_line;                 // the line of each of the cell's charges
    std::vector<std::vector<IdleExplanation>> idle;  // by line, the idle it received from each scope
    std::vector<IdleExplanation> kept;               // kept on the idle line, by scope
    std::vector<Int128> before_spread;               // each line's charge and idle before the spread
  };
  // The holds of line `line` of the cell, its direct cost `direct_micro` split over them.
  void ExplainHolds(size_t line, int64_t direct_micro, LineExplanation* e) const;
  // The shared-namespace cost spread onto (or away from) line `line`.
  void ExplainShared(const std::vector<CellLine>& lines, size_t line, LineExplanation* e) const;

  const ExplainRequest& request_;
  const Options& options_;
  HourExplanation* out_;
  const InputIndex* index_ = nullptr;
  std::optional<uint32_t> team_;  // the request's team's id, none when it has no line
  CellRecord cell_;
  std::map<size_t, LineExplanation> explained_;  // by index into the hour's lines
};

// INTERNAL naming the line when an explanation does not add up to it.
absl::Status CheckExplanation(const HourExplanation& explanation);

}  // namespace fleetcap::attribution::internal
