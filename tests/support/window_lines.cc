#include "tests/support/window_lines.h"

#include "common/status_macros.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/chargeback/line_record.h"

namespace fleetcap::testing {

absl::StatusOr<std::vector<store::ChargebackLineRecord>> WindowLines(const chargeback::FactsSources& sources,
                                                                     absl::Time start, absl::Time end) {
  FLEETCAP_ASSIGN_OR_RETURN(chargeback::LoadedWindow window, chargeback::LoadWindow(sources, start, end));
  std::vector<store::ChargebackLineRecord> lines;
  for (const chargeback::WindowPiece& piece : window.pieces) {
    FLEETCAP_RETURN_IF_ERROR(attribution::Attribute(piece.input, *window.teams, [&](attribution::HourLines&& hour) {
                               for (attribution::ChargeLine& line : hour.lines)
                                 lines.push_back(chargeback::RecordOf(std::move(line)));
                             }).status());
  }
  return lines;
}

}  // namespace fleetcap::testing
