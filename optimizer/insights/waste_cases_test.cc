// Runs every case of cases/waste/ (one YAML file each: holds, readings and a
// policy -> the expected runs, workloads and efficiency; cases/waste/README.md
// gives the format), each file's comment working its figures out by hand.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "optimizer/insights/waste.h"
#include "optimizer/insights/waste_summary.h"
#include "policy/policy_parser.h"
#include "tests/support/build_paths.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::insights {
namespace {

absl::Time CaseTime(const std::string& s) {
  if (s == "-") return absl::InfiniteFuture();
  absl::StatusOr<absl::Time> t = ParseRfc3339("time", s);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : absl::InfinitePast();
}

std::vector<std::string> Fields(const YAML::Node& n, size_t min_fields) {
  std::vector<std::string> row = absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty());
  EXPECT_GE(row.size(), min_fields) << n.as<std::string>();
  row.resize(std::max(row.size(), min_fields), "-");
  return row;
}

std::vector<std::string> Lines(const YAML::Node& doc, const char* key) {
  std::vector<std::string> out;
  if (!doc || !doc[key]) return out;
  for (const YAML::Node& n : doc[key]) {
    out.push_back(absl::StrJoin(absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty()), " "));
  }
  return out;
}

std::optional<double> Reading(const std::string& s) {
  if (s == "-") return std::nullopt;
  return std::stod(s);
}

struct WasteCase {
  WasteInput input;
  std::vector<std::string> runs, pieces, workloads, efficiency;
};

WasteCase LoadCase(const std::filesystem::path& path) {
  const YAML::Node doc = YAML::LoadFile(path.string());
  WasteCase c;
  c.input.start = CaseTime(doc["window"][0].as<std::string>());
  c.input.end = CaseTime(doc["window"][1].as<std::string>());
  c.input.history_from = doc["history_from"] ? CaseTime(doc["history_from"].as<std::string>()) : c.input.start;
  for (const YAML::Node& n : doc["holds"]) {
    auto r = Fields(n, 10);
    c.input.holds.push_back(
        {r[0], r[1], r[2], r[3], r[4], r[5], r[6], std::stoll(r[7]), CaseTime(r[8]), CaseTime(r[9])});
  }
  // cluster pod device from to duty [sm]: one reading a minute of [from, to).
  if (doc["readings"]) {
    for (const YAML::Node& n : doc["readings"]) {
      auto r = Fields(n, 6);
      r.resize(7, "-");  // sm_active is optional
      for (absl::Time m = CaseTime(r[3]); m < CaseTime(r[4]); m += absl::Minutes(1)) {
        c.input.readings.push_back({r[0], r[1], r[2], m, Reading(r[5]), Reading(r[6])});
      }
    }
  }
  policy::ParsedPolicy policy = policy::ParsePolicy(doc["policy"].as<std::string>());
  EXPECT_TRUE(policy.ok()) << policy::FormatPolicyErrors(path.string(), policy.errors);
  c.input.prices = policy.document.prices;
  c.input.options = policy.document.insights;
  c.runs = Lines(doc["expect"], "runs");
  c.pieces = Lines(doc["expect"], "pieces");
  c.workloads = Lines(doc["expect"], "workloads");
  c.efficiency = Lines(doc["expect"], "efficiency");
  return c;
}

std::string RunLine(const IdleRun& r) {
  return absl::StrFormat("%s %s %s %s %d %.4f %s %d %d", r.cluster, r.pod_uid, FormatRfc3339(r.start),
                         FormatRfc3339(r.end), r.devices_milli, r.MeanActivity(), r.Signal(), r.wasted_milli_seconds,
                         r.wasted_cost_micro);
}

std::string PieceLine(const IdleRun& r, const RunPiece& p) {
  return absl::StrFormat("%s %s %s %s %d %d", r.pod_uid, FormatRfc3339(p.hour), FormatRfc3339(p.start),
                         FormatRfc3339(p.end), p.wasted_milli_seconds, p.wasted_cost_micro);
}

std::string WorkloadLine(const WorkloadWaste& w) {
  const WasteTally& t = w.tally;
  return absl::StrFormat("%s %s %s %d %d %d %d %d %d %s", w.team, w.namespace_name, w.workload, t.held_milli_seconds,
                         t.observed_milli_seconds, t.UnknownMilliSeconds(), t.wasted_milli_seconds, t.wasted_cost_micro,
                         t.run_count, t.BusyButLight() ? "busy_but_light" : "-");
}

std::string EfficiencyLine(const std::string& team, const WasteTally& t) {
  const std::string signal = t.Signal();
  return absl::StrFormat("%s %d %d %d %.4f %s", team.empty() ? "fleet" : team, t.held_milli_seconds,
                         t.observed_milli_seconds, t.active_milli_seconds, t.Efficiency(),
                         signal.empty() ? "-" : signal);
}

std::vector<std::filesystem::path> WasteCaseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(fleetcap::testing::SourcePath("optimizer/insights/cases/waste"))) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(WasteCases, EveryCaseFindsItsExpectedRunsWorkloadsAndEfficiency) {
  const std::vector<std::filesystem::path> files = WasteCaseFiles();
  ASSERT_GE(files.size(), 8u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const WasteCase c = LoadCase(file);
    absl::StatusOr<WasteFacts> facts = FindWaste(c.input);
    ASSERT_TRUE(facts.ok()) << facts.status();
    const WasteSummary summary = Summarize(*facts);

    std::vector<std::string> runs, pieces, workloads, efficiency;
    for (const IdleRun& r : facts->runs) {
      runs.push_back(RunLine(r));
      for (const RunPiece& p : r.pieces) pieces.push_back(PieceLine(r, p));
    }
    for (const WorkloadWaste& w : summary.workloads) workloads.push_back(WorkloadLine(w));
    for (const TeamWaste& t : summary.teams) efficiency.push_back(EfficiencyLine(t.team, t.tally));
    efficiency.push_back(EfficiencyLine("", summary.fleet));
    EXPECT_THAT(runs, ::testing::ElementsAreArray(c.runs));
    if (!c.pieces.empty()) {
      EXPECT_THAT(pieces, ::testing::ElementsAreArray(c.pieces));
    }
    EXPECT_THAT(workloads, ::testing::ElementsAreArray(c.workloads));
    EXPECT_THAT(efficiency, ::testing::ElementsAreArray(c.efficiency));
  }
}

}  // namespace
}  // namespace fleetcap::insights
