#include "policy/insights_section.h"

#include <map>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "policy/text_rules.h"

namespace fleetcap::policy {
namespace {

constexpr int64_t kMaxBasisPoints = 10000;
constexpr int kMaxLookbackDays = 90;
constexpr int64_t kMaxMemoryHeadroomPercent = 400;
// An idle run longer than a month is found as a month of waste each month.
constexpr absl::Duration kMaxIdleFor = absl::Hours(24 * 31);

// "5%", "5" or "2.5%": a percent from 0 to 100 with up to two decimals, in basis points.
void ReadIdleBelow(YamlReader& r, const YAML::Node& n, InsightOptions& o) {
  auto v = r.Scalar(n, "idle_below", "insights", false);
  if (!v) return;
  absl::string_view text = *v;
  absl::ConsumeSuffix(&text, "%");
  auto parsed = ParseDecimal(text, 2);
  if (!parsed.ok() || *parsed < 0 || *parsed > kMaxBasisPoints) {
    r.Error(r.MarkOf(n, "idle_below"), "insights.idle_below",
            absl::StrCat("\"", YamlReader::Shown(*v), "\" is not a percent (expected 0% to 100%, e.g. 5%)"));
    return;
  }
  o.idle_below_basis_points = *parsed;
}

// A duration of whole minutes, at least one, at most 31 days.
void ReadIdleFor(YamlReader& r, const YAML::Node& n, InsightOptions& o) {
  auto v = r.Scalar(n, "idle_for", "insights", false);
  if (!v) return;
  absl::Duration d;
  if (!absl::ParseDuration(*v, &d) || d < absl::Minutes(1) || d > kMaxIdleFor ||
      d % absl::Minutes(1) != absl::ZeroDuration()) {
    r.Error(
        r.MarkOf(n, "idle_for"), "insights.idle_for",
        absl::StrCat("\"", YamlReader::Shown(*v), "\" is not a duration of whole minutes from 1m to 744h (e.g. 4h)"));
    return;
  }
  o.idle_for = d;
}

std::optional<int64_t> WholeNumber(YamlReader& r, const YAML::Node& n, const char* key, int64_t lo, int64_t hi) {
  auto v = r.Scalar(n, key, "insights", false);
  if (!v) return std::nullopt;
  auto parsed = ParseDecimal(*v, 0);
  if (!parsed.ok() || *parsed < lo || *parsed > hi) {
    r.Error(r.MarkOf(n, key), absl::StrCat("insights.", key),
            absl::StrCat("\"", YamlReader::Shown(*v), "\" is not a whole number from ", lo, " to ", hi));
    return std::nullopt;
  }
  return *parsed;
}

// "2026-12": a calendar month.
bool ParseMonth(const std::string& text, int& year, int& month) {
  if (text.size() != 7 || text[4] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  year = std::stoi(text.substr(0, 4));
  month = std::stoi(text.substr(5, 2));
  return year >= 1970 && month >= 1 && month <= 12;
}

}  // namespace

void ReadInsights(YamlReader& r, const YAML::Node& n, PolicyDocument& doc) {
  if (!r.Map(n, "insights", {"idle_below", "idle_for", "rightsizing_lookback_days", "memory_headroom_percent"})) {
    return;
  }
  InsightOptions& o = doc.insights;
  ReadIdleBelow(r, n, o);
  ReadIdleFor(r, n, o);
  if (auto days = WholeNumber(r, n, "rightsizing_lookback_days", 1, kMaxLookbackDays)) {
    o.rightsizing_lookback_days = static_cast<int>(*days);
  }
  if (auto percent = WholeNumber(r, n, "memory_headroom_percent", 0, kMaxMemoryHeadroomPercent)) {
    o.memory_headroom_percent = *percent;
  }
}

void ReadBudgets(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "budgets")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("budgets", i);
    if (!r.Map(n, f, {"team", "month", "amount"})) continue;
    Budget budget;
    budget.field_lines = FieldLines(n);
    budget.line = n.Mark().line + 1;
    budget.team = r.Name(n, "team", f, true);
    auto month = r.Scalar(n, "month", f, true);
    bool month_ok = month && ParseMonth(*month, budget.year, budget.month);
    if (month && !month_ok) {
      r.Error(r.MarkOf(n, "month"), f + ".month",
              absl::StrCat("\"", YamlReader::Shown(*month), "\" is not a month (expected YYYY-MM, e.g. 2026-12)"));
    }
    auto amount = r.NonNegative(n, "amount", f, true, 6, "amount");
    if (budget.team.empty() || !month_ok || !amount) continue;
    budget.micro_amount = *amount;
    doc.budgets.push_back(std::move(budget));
  }
}

void CheckBudgets(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  std::set<std::string> teams;
  for (const auto& t : doc.teams) teams.insert(t.name);
  std::map<std::pair<std::string, int>, size_t> seen;
  for (size_t i = 0; i < doc.budgets.size(); ++i) {
    const Budget& b = doc.budgets[i];
    const std::string f = Index("budgets", i);
    if (teams.count(b.team) == 0) {
      errors.push_back({LineOf(b, "team"), 0, f + ".team",
                        absl::StrCat("unknown team \"", b.team, "\" (expected a team defined under teams)")});
    }
    auto [it, inserted] = seen.emplace(std::make_pair(b.team, b.year * 12 + b.month - 1), i);
    if (!inserted) {
      errors.push_back(
          {LineOf(b, "month"), 0, f + ".month",
           absl::StrFormat("team \"%s\" already has a budget for %04d-%02d at line %d (expected one a month)", b.team,
                           b.year, b.month, doc.budgets[it->second].line)});
    }
  }
}

}  // namespace fleetcap::policy
