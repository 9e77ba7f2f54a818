// Runs every case of cases/ (one YAML file each: fleet, holds, usage,
// policy versions -> expected lines; cases/README.md gives the format) and
// checks each against its expected lines and reports, and against a fleet
// cost worked out here second by second, independently of the engine.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/attribution/explanation_checks.h"
#include "optimizer/attribution/second_by_second_cost.h"
#include "policy/policy_parser.h"
#include "tests/support/build_paths.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::attribution {
namespace {

absl::Time Time(const std::string& s) {
  if (s == "-") return absl::InfiniteFuture();
  absl::StatusOr<absl::Time> t = ParseRfc3339("time", s);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : absl::InfinitePast();
}

std::vector<std::string> Row(const YAML::Node& n, size_t min_fields) {
  std::vector<std::string> row = absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty());
  EXPECT_GE(row.size(), min_fields) << n.as<std::string>();
  row.resize(std::max(row.size(), min_fields), "-");
  return row;
}

std::vector<YAML::Node> Rows(const YAML::Node& doc, const char* key) {
  std::vector<YAML::Node> out;
  if (doc[key]) {
    for (const YAML::Node& n : doc[key]) out.push_back(n);
  }
  return out;
}

// A line as the case files write it.
std::string Format(const ChargeLine& l) {
  auto f = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  return absl::StrJoin({FormatRfc3339(l.hour), f(l.cluster), f(l.team), f(l.namespace_name), f(l.workload), f(l.model),
                        l.line_kind, std::to_string(l.held_milli_seconds), std::to_string(l.used_milli_seconds),
                        std::to_string(l.direct_cost_micro), std::to_string(l.idle_cost_micro),
                        std::to_string(l.shared_cost_micro), std::to_string(l.total_cost_micro)},
                       " ") +
         (l.no_telemetry ? " no_telemetry" : "");
}

std::string Format(const OverHeldDevice& o) {
  return absl::StrJoin({o.cluster, o.device_id, FormatRfc3339(o.from), FormatRfc3339(o.to),
                        std::to_string(o.held_milli), absl::StrJoin(o.pod_uids, ",")},
                       " ");
}

struct Case {
  AttributionInput input;
  std::vector<policy::StoredPolicy> policies;
  NamespaceEvidenceMap namespaces;
  std::vector<std::string> lines, over_held;
};

Case Load(const std::filesystem::path& path) {
  const YAML::Node doc = YAML::LoadFile(path.string());
  Case c;
  c.input.start = Time(doc["window"][0].as<std::string>());
  c.input.end = Time(doc["window"][1].as<std::string>());
  for (const YAML::Node& n : Rows(doc, "devices")) {
    auto r = Row(n, 6);
    c.input.devices.push_back({r[0], r[1], r[2], r[3], Time(r[4]), Time(r[5])});
  }
  for (const YAML::Node& n : Rows(doc, "holds")) {
    auto r = Row(n, 8);
    c.input.holds.push_back(
        {r[0], r[1], r[2], r.size() > 8 ? r[8] : "", r[3], r[4], std::stoll(r[5]), Time(r[6]), Time(r[7])});
  }
  // Usage: cluster pod device from to used_milli: one sample per minute of [from, to).
  for (const YAML::Node& n : Rows(doc, "usage")) {
    auto r = Row(n, 6);
    for (absl::Time m = Time(r[3]); m < Time(r[4]); m += absl::Minutes(1)) {
      c.input.usage.push_back({r[0], r[1], r[2], m, std::stoll(r[5])});
    }
  }
  int32_t version = 0;
  for (const YAML::Node& n : Rows(doc, "policies")) {
    c.policies.push_back({++version, Time(n["applied_at"].as<std::string>()), n["document"].as<std::string>()});
  }
  for (const YAML::Node& n : Rows(doc, "namespace_labels")) {
    auto r = Row(n, 4);
    c.namespaces[{r[0], r[1]}].labels[r[2]] = r[3];
  }
  // Prices and options: the last version's (cases change only teams over time).
  policy::ParsedPolicy last = policy::ParsePolicy(c.policies.back().document);
  EXPECT_TRUE(last.ok()) << policy::FormatPolicyErrors(path.string(), last.errors);
  c.input.prices = last.document.prices;
  c.input.options = last.document.attribution;
  for (const YAML::Node& n : Rows(doc["expect"], "lines")) {
    std::vector<std::string> r = absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty());
    c.lines.push_back(absl::StrJoin(r, " "));
  }
  for (const YAML::Node& n : Rows(doc["expect"], "over_held")) {
    std::vector<std::string> r = absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty());
    c.over_held.push_back(absl::StrJoin(r, " "));
  }
  return c;
}

// Every case file, in name order.
std::vector<std::filesystem::path> CaseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(fleetcap::testing::SourcePath("optimizer/attribution/cases"))) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A timeline over a case's policy versions.
policy::PolicyTimeline TimelineOf(std::vector<policy::StoredPolicy> stored) {
  return policy::PolicyTimeline(
      [stored = std::move(stored)](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
        std::vector<policy::StoredPolicy> out;
        for (const auto& s : stored) {
          if (s.version > after) out.push_back(s);
        }
        return out;
      });
}

TEST(AttributionCases, EveryCaseGivesItsExpectedLinesAndConservesTheFleetCost) {
  const std::vector<std::filesystem::path> files = CaseFiles();
  ASSERT_GE(files.size(), 13u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const Case c = Load(file);
    policy::PolicyTimeline timeline = TimelineOf(c.policies);
    ASSERT_TRUE(timeline.Refresh().ok());
    PolicyTimelineTeams teams(timeline, c.namespaces);

    std::vector<ChargeLine> lines;
    absl::StatusOr<AttributionReport> report = Attribute(c.input, teams, [&](HourLines&& hour) {
      for (auto& l : hour.lines) lines.push_back(std::move(l));
    });
    ASSERT_TRUE(report.ok()) << report.status();

    std::vector<std::string> got;
    for (const ChargeLine& l : lines) got.push_back(Format(l));
    EXPECT_THAT(got, ::testing::ElementsAreArray(c.lines));
    std::vector<std::string> over_held;
    for (const OverHeldDevice& o : report->over_held) over_held.push_back(Format(o));
    EXPECT_THAT(over_held, ::testing::ElementsAreArray(c.over_held));
    EXPECT_THAT(report->rejected, ::testing::IsEmpty());

    // Conservation: the lines of each (cluster, model, hour) add up to its
    // fleet cost; the fixed lines of each hour to that hour's fixed costs.
    std::map<std::tuple<absl::Time, std::string, std::string>, int64_t> charged;
    int64_t total = 0;
    for (const ChargeLine& l : lines) {
      EXPECT_GE(l.total_cost_micro, 0);
      EXPECT_EQ(l.total_cost_micro, l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro);
      if (l.line_kind != kFixedLine) charged[{l.hour, l.cluster, l.model}] += l.total_cost_micro;
      total += l.total_cost_micro;
    }
    auto fleet = SecondBySecondFleetCost(c.input);
    for (const auto& [key, micro] : fleet) {
      if (micro == 0 && charged.count(key) == 0) continue;
      EXPECT_EQ(charged[key], micro) << FormatRfc3339(std::get<0>(key)) << " " << std::get<1>(key) << " "
                                     << std::get<2>(key);
    }
    for (const auto& [key, micro] : charged) {
      EXPECT_TRUE(fleet.count(key) > 0 || micro == 0) << "charged outside the fleet: " << std::get<1>(key);
    }
    EXPECT_EQ(report->total_cost_micro, total);
  }
}

TEST(AttributionCases, EveryLineOfEveryCaseIsExplainedAndItsExplanationAddsUpToIt) {
  const std::vector<std::filesystem::path> files = CaseFiles();
  ASSERT_GE(files.size(), 13u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const Case c = Load(file);
    policy::PolicyTimeline timeline = TimelineOf(c.policies);
    ASSERT_TRUE(timeline.Refresh().ok());
    PolicyTimelineTeams teams(timeline, c.namespaces);
    std::vector<ChargeLine> lines;
    ASSERT_TRUE(Attribute(c.input, teams, [&](HourLines&& hour) {
                  for (auto& l : hour.lines) lines.push_back(std::move(l));
                }).ok());
    ASSERT_FALSE(lines.empty());
    ExpectEveryLineExplained(c.input, teams, lines);
  }
}

}  // namespace
}  // namespace fleetcap::attribution
