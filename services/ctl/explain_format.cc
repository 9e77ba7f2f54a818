#include "services/ctl/explain_format.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {

using exports::Money;
using exports::Table;

namespace {

__extension__ typedef unsigned __int128 Weight;

constexpr int64_t kWeightPerMicro = 1000 * 3600;

// Weights come from the server as non-negative decimal integers; anything
// else reads as 0 (and shows as such) rather than failing the whole output.
Weight ParseWeight(const std::string& text) {
  Weight w = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return 0;
    w = w * 10 + static_cast<Weight>(c - '0');
  }
  return w;
}

std::string LineName(const v1::ChargebackLine& l) {
  if (l.line_kind() == "fixed") return "fixed costs";
  std::vector<std::string> parts = {l.cluster(), l.model()};
  if (!l.namespace_().empty()) parts.push_back(l.namespace_());
  if (!l.workload().empty()) parts.push_back(l.workload());
  parts.push_back(l.line_kind());
  return absl::StrJoin(parts, " ");
}

std::string Prices(const v1::HoldExplanation& h) {
  std::vector<std::string> out;
  for (const v1::PricedSeconds& p : h.prices()) {
    const std::string price = p.priced() ? absl::StrCat(Money(p.micro_per_device_hour()), "/h") : "unpriced";
    out.push_back(h.prices_size() == 1 ? price : absl::StrCat(price, " x ", p.seconds(), "s"));
  }
  return absl::StrJoin(out, " + ");
}

std::string HoldWhat(const v1::HoldExplanation& h) {
  std::string what = absl::StrCat("pod ", h.pod_uid(), " on ", h.device_id(), " (", h.node(), ")");
  if (h.over_held()) absl::StrAppend(&what, " over-held");
  if (h.no_telemetry()) absl::StrAppend(&what, " no-telemetry");
  return what;
}

std::string LineBlock(const v1::LineExplanation& e) {
  const v1::ChargebackLine& l = e.line();
  std::string out = absl::StrCat(LineName(l), "\n");
  Table table({"PART", "WHAT", "SECONDS", "TELEMETRY_S", "MILLI", "PRICE", "SHARE", "AMOUNT"});
  for (const v1::HoldExplanation& h : e.holds()) {
    table.AddRow({"hold", HoldWhat(h), std::to_string(h.held_seconds()), std::to_string(h.telemetry_seconds()),
                  std::to_string(h.milli()), Prices(h), WeightShare(h.weight(), e.direct_weight()),
                  Money(h.direct_cost_micro())});
  }
  for (const v1::IdleExplanation& i : e.idle()) {
    std::string what = i.scope() == "node" ? absl::StrCat("idle of node ", i.node())
                                           : absl::StrCat("idle of ", l.cluster(), " ", l.model());
    absl::StrAppend(&what, " ", WeightAsMoney(i.scope_idle_weight()), " (", i.rule(), ")");
    if (!i.note().empty()) absl::StrAppend(&what, ": ", i.note());
    table.AddRow({"idle", what, "", "", "", "", WeightShare(i.received_weight(), i.scope_idle_weight()),
                  Money(i.idle_cost_micro())});
  }
  if (e.has_shared()) {
    const v1::SharedExplanation& s = e.shared();
    if (ParseWeight(s.given_weight()) > 0) {
      table.AddRow({"shared", absl::StrCat("given to the other lines (", s.spread(), ")"), "", "", "", "",
                    WeightShare(s.given_weight(), s.pool_weight()), Money(l.shared_cost_micro())});
    } else {
      table.AddRow({"shared",
                    absl::StrCat("shared namespaces of ", l.cluster(), " ", l.model(), " ",
                                 WeightAsMoney(s.pool_weight()), " (", s.spread(), ")"),
                    "", "", "", "", WeightShare(s.received_weight(), s.pool_weight()), Money(l.shared_cost_micro())});
    }
  }
  if (e.has_fixed()) {
    const v1::FixedExplanation& f = e.fixed();
    const std::string share = f.weight_sum() == 0
                                  ? "-"
                                  : absl::StrFormat("%.2f%%", 100.0 * static_cast<double>(f.team_weight()) /
                                                                  static_cast<double>(f.weight_sum()));
    table.AddRow({"fixed",
                  absl::StrCat("fixed costs of the hour ", Money(f.hour_amount_micro()), " (", f.spread(), ")"), "", "",
                  "", "", share, Money(l.total_cost_micro())});
  }
  table.AddRow({"TOTAL",
                absl::StrCat("direct ", Money(l.direct_cost_micro()), " + idle ", Money(l.idle_cost_micro()),
                             " + shared ", Money(l.shared_cost_micro())),
                "", "", "", "", "", Money(l.total_cost_micro())});
  absl::StrAppend(&out, table.Render());
  if (!e.matches_stored()) {
    if (e.has_stored()) {
      absl::StrAppend(&out, "stored line differs: total ", Money(e.stored().total_cost_micro()), " (direct ",
                      Money(e.stored().direct_cost_micro()), ", idle ", Money(e.stored().idle_cost_micro()),
                      ", shared ", Money(e.stored().shared_cost_micro()), ")\n");
    } else {
      absl::StrAppend(&out, "no stored line\n");
    }
  }
  return out;
}

}  // namespace

std::string WeightAsMoney(const std::string& weight) {
  const Weight w = ParseWeight(weight);
  const Weight micro = (w + kWeightPerMicro / 2) / kWeightPerMicro;
  const std::string money = Money(static_cast<int64_t>(micro));
  return w % kWeightPerMicro == 0 ? money : absl::StrCat("~", money);
}

std::string WeightShare(const std::string& part, const std::string& whole) {
  const Weight p = ParseWeight(part), w = ParseWeight(whole);
  if (w == 0) return "-";
  // Hundredths of a percent, rounded half up, in integers.
  const Weight basis_points = (p * 20000 / w + 1) / 2;
  return absl::StrFormat("%d.%02d%%", static_cast<int64_t>(basis_points / 100), static_cast<int>(basis_points % 100));
}

std::string ExplanationTable(const v1::ChargebackExplanation& explanation) {
  std::string out =
      absl::StrCat("chargeback of ", explanation.team(), " at ", FormatRfc3339(FromProtoTimestamp(explanation.hour())),
                   " in ", explanation.currency(), "\n");
  if (explanation.lines().empty() && explanation.stored_only().empty()) {
    return out + "no line for this team in this hour\n";
  }
  for (const v1::LineExplanation& e : explanation.lines()) absl::StrAppend(&out, "\n", LineBlock(e));
  for (const v1::ChargebackLine& l : explanation.stored_only()) {
    absl::StrAppend(&out, "\n", LineName(l), "\nstored line not given by the facts now: total ",
                    Money(l.total_cost_micro()), "\n");
  }
  if (!explanation.matches_stored()) {
    absl::StrAppend(&out, "\nthe stored lines differ",
                    explanation.note().empty() ? "" : absl::StrCat(": ", explanation.note()), "\n");
  }
  return out;
}

std::string ExplanationJson(const v1::ChargebackExplanation& explanation) { return exports::ProtoJson(explanation); }

std::string RenderExplanation(const v1::ChargebackExplanation& explanation, Format format) {
  return format == Format::kJson ? ExplanationJson(explanation) : ExplanationTable(explanation);
}

}  // namespace fleetcap::ctl
