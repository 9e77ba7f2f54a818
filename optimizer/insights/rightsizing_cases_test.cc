// Runs every case of cases/rightsizing/ (one YAML file each: a lookback,
// a policy, workloads with their holds and readings -> the recommendations
// expected, in order; cases/rightsizing/README.md gives the format).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "optimizer/insights/rightsizing.h"
#include "policy/policy_parser.h"
#include "tests/support/build_paths.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::insights {
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
  row.resize(std::max(row.size(), min_fields + 1), "-");
  return row;
}

template <typename T>
std::optional<T> Field(const std::string& s) {
  if (s == "-") return std::nullopt;
  return static_cast<T>(std::stod(s));
}

// readings: pod device from to util mem_used mem_total [sm]: the same
// reading every minute of [from, to); "-" for a field not sent.
void AddReadings(const YAML::Node& n, WorkloadFacts& w) {
  const auto r = Row(n, 7);
  for (absl::Time m = Time(r[2]); m < Time(r[3]); m += absl::Minutes(1)) {
    w.minutes.push_back(
        {r[0], r[1], m, Field<double>(r[4]), Field<double>(r[7]), Field<int64_t>(r[5]), Field<int64_t>(r[6])});
  }
}

struct Case {
  RightsizingInput input;
  policy::PolicyDocument policy;
  YAML::Node expect;
};

Case Load(const std::filesystem::path& path) {
  const YAML::Node doc = YAML::LoadFile(path.string());
  Case c;
  c.input.start = Time(doc["lookback"][0].as<std::string>());
  c.input.end = Time(doc["lookback"][1].as<std::string>());
  const policy::ParsedPolicy parsed = policy::ParsePolicy(doc["policy"].as<std::string>());
  EXPECT_TRUE(parsed.ok()) << policy::FormatPolicyErrors(path.string(), parsed.errors);
  c.policy = parsed.document;
  for (const YAML::Node& n : doc["workloads"]) {
    const auto k = Row(n["workload"], 5);  // cluster team namespace workload model
    WorkloadFacts w{k[0], k[1] == "-" ? "" : k[1], k[2], k[3], k[4], {}, {}};
    for (const YAML::Node& h : n["holds"]) {
      const auto r = Row(h, 5);  // pod device milli from to
      w.holds.push_back({r[0], r[1], std::stoll(r[2]), Time(r[3]), Time(r[4])});
    }
    if (n["readings"]) {
      for (const YAML::Node& r : n["readings"]) AddReadings(r, w);
    }
    c.input.workloads.push_back(std::move(w));
  }
  c.expect = doc["expect"];
  return c;
}

// The expected fields of `want` (those it names) against `got`.
void ExpectMatches(const YAML::Node& want, const Recommendation& got) {
  const std::map<std::string, std::string> strings = {
      {"workload", got.workload}, {"kind", got.kind},   {"current", got.current},
      {"proposed", got.proposed}, {"team", got.team},   {"confidence", got.confidence},
      {"cluster", got.cluster},   {"model", got.model}, {"namespace", got.namespace_name}};
  const std::map<std::string, int64_t> integers = {{"current_milli", got.current_milli},
                                                   {"proposed_milli", got.proposed_milli},
                                                   {"savings_micro_per_month", got.savings_micro_per_month},
                                                   {"observed_minutes", got.observed_minutes},
                                                   {"p99_memory_bytes", got.p99_memory_bytes}};
  const std::map<std::string, double> reals = {{"p95_active_devices", got.p95_active_devices},
                                               {"p95_activity", got.p95_activity}};
  for (const auto& field : want) {
    const std::string key = field.first.as<std::string>();
    SCOPED_TRACE(key);
    if (strings.count(key)) {
      EXPECT_EQ(strings.at(key), field.second.as<std::string>());
    } else if (integers.count(key)) {
      EXPECT_EQ(integers.at(key), field.second.as<int64_t>());
    } else if (reals.count(key)) {
      EXPECT_NEAR(reals.at(key), field.second.as<double>(), 1e-9);
    } else if (key == "evidence_has") {
      for (const YAML::Node& part : field.second) {
        EXPECT_THAT(got.evidence, ::testing::HasSubstr(part.as<std::string>()));
      }
    } else {
      ADD_FAILURE() << "unknown field " << key;
    }
  }
}

std::vector<std::filesystem::path> CaseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(fleetcap::testing::SourcePath("optimizer/insights/cases/rightsizing"))) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RightsizingCases, EveryCaseGivesItsExpectedRecommendations) {
  const std::vector<std::filesystem::path> files = CaseFiles();
  ASSERT_GE(files.size(), 6u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const Case c = Load(file);
    const std::vector<Recommendation> got = Rightsize(c.input, c.policy);
    ASSERT_EQ(got.size(), c.expect ? c.expect.size() : 0u);
    for (size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE(got[i].workload + " " + got[i].kind + ": " + got[i].evidence);
      ExpectMatches(c.expect[i], got[i]);
    }
  }
}

}  // namespace
}  // namespace fleetcap::insights
