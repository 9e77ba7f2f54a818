// GetWaste's figures from the days kept (migration 0042) are those the
// window's hours and pieces add up to, as GetWaste summed them before the
// days were kept (insights::JoinRuns, insights::Summarize): random runs of
// pods in two clusters over six days, replaced whole and then in part (the
// days rebuilt with the hours), read over random windows (whole days, ragged
// edges, within one day) and filters.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "optimizer/insights/waste_summary.h"
#include "store/pg_insight_waste_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kDaysT0 = absl::FromUnixSeconds(1'772'323'200);  // 2026-03-01T00:00:00Z
constexpr int kDaysHours = 6 * 24;

struct DaysPod {
  std::string uid, team, ns, workload, model;
};

// Runs of each pod over [from, to): gaps of a minute to ten hours, runs of a
// minute to forty hours, cut into pieces per hour; never touching within a
// write (a minute lies between two runs). Workload hours for every workload
// and hour, some absent.
void Generate(const std::string& cluster, int from_hour, int to_hour, uint32_t seed,
              std::vector<IdlePieceRecord>* pieces, std::vector<WorkloadHourRecord>* hours) {
  std::mt19937 random(seed);
  const std::vector<DaysPod> pods = {
      {"p0", "vision", "cv", "Job/train", "A100"},         {"p1", "vision", "cv", "Job/train", "A100"},
      {"p2", "vision", "cv", "Job/eval", "H100"},          {"p3", "speech", "asr", "Job/train", "A100,H100"},
      {"p4", "speech", "asr", "Deployment/serve", "H100"}, {"p5", "speech", "asr", "Deployment/serve", "H100"}};
  const absl::Time to = kDaysT0 + absl::Hours(to_hour);
  for (const DaysPod& pod : pods) {
    absl::Time t = kDaysT0 + absl::Hours(from_hour) + absl::Minutes(random() % 600);
    while (t < to) {
      const absl::Time end = std::min(to, t + absl::Minutes(1 + random() % 2400));
      const int64_t devices = 1000 * (1 + random() % 2);
      for (absl::Time h = absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); h < end; h += absl::Hours(1)) {
        IdlePieceRecord p;
        p.cluster = cluster;
        p.hour = h;
        p.pod_uid = pod.uid;
        p.start = std::max(t, h);
        p.end = std::min(end, h + absl::Hours(1));
        p.namespace_name = pod.ns;
        p.team = pod.team;
        p.workload = pod.workload;
        p.model = pod.model;
        p.devices_milli = devices;
        p.wasted_milli_seconds = devices * absl::ToInt64Seconds(p.end - p.start);
        p.wasted_cost_micro = p.wasted_milli_seconds / 1000 * 1000 + random() % 1000;
        p.activity_milli_seconds = p.wasted_milli_seconds / 50;
        p.sm_milli_seconds = random() % 2 == 0 ? p.wasted_milli_seconds : 0;
        pieces->push_back(p);
      }
      t = end + absl::Minutes(1 + random() % 600);
    }
  }
  for (int h = from_hour; h < to_hour; ++h) {
    for (const DaysPod& pod : {pods[0], pods[2], pods[3], pods[4]}) {
      if (random() % 10 == 0) continue;
      WorkloadHourRecord w;
      w.cluster = cluster;
      w.hour = kDaysT0 + absl::Hours(h);
      w.team = pod.team;
      w.namespace_name = pod.ns;
      w.workload = pod.workload;
      w.held_milli_seconds = 1 + random() % 7'200'000;
      w.observed_milli_seconds = w.held_milli_seconds - random() % w.held_milli_seconds;
      w.active_milli_seconds = random() % (w.observed_milli_seconds + 1);
      w.sm_observed_milli_seconds = random() % (w.observed_milli_seconds + 1);
      w.both_minutes = random() % 61;
      w.both_held_milli_seconds = random() % 3'600'000;
      w.both_duty_milli_seconds = random() % 3'600'000;
      w.both_sm_milli_seconds = random() % 3'600'000;
      hours->push_back(w);
    }
  }
}

// The figures as GetWaste summed them from the hours and the joined pieces.
std::vector<WorkloadWasteRecord> AsSummedFromTheHours(const InsightWasteRepository& repo, const WasteFilter& filter) {
  auto pieces = repo.Pieces(filter);
  auto hours = repo.WorkloadSums(filter);
  EXPECT_THAT(pieces, IsOk());
  EXPECT_THAT(hours, IsOk());
  if (!pieces.ok() || !hours.ok()) return {};
  insights::WasteFacts facts;
  std::vector<insights::IdleRun> as_runs;
  for (const IdlePieceRecord& p : *pieces) {
    insights::IdleRun r;
    r.cluster = p.cluster;
    r.pod_uid = p.pod_uid;
    r.namespace_name = p.namespace_name;
    r.team = p.team;
    r.workload = p.workload;
    r.start = p.start;
    r.end = p.end;
    r.wasted_milli_seconds = p.wasted_milli_seconds;
    r.wasted_cost_micro = p.wasted_cost_micro;
    as_runs.push_back(r);
  }
  facts.runs = insights::JoinRuns(std::move(as_runs));
  for (const WorkloadHourRecord& h : *hours) {
    facts.workload_hours.push_back({h.cluster, h.team, h.namespace_name, h.workload, h.hour, h.held_milli_seconds,
                                    h.observed_milli_seconds, h.active_milli_seconds, h.sm_observed_milli_seconds,
                                    h.both_minutes, h.both_held_milli_seconds, h.both_duty_milli_seconds,
                                    h.both_sm_milli_seconds});
  }
  std::map<std::tuple<std::string, std::string, std::string>, WorkloadWasteRecord> out;
  for (const insights::WorkloadWaste& w : insights::Summarize(facts).workloads) {
    WorkloadWasteRecord r;
    r.time.hour = filter.start;
    r.time.team = w.team;
    r.time.namespace_name = w.namespace_name;
    r.time.workload = w.workload;
    r.time.held_milli_seconds = w.tally.held_milli_seconds;
    r.time.observed_milli_seconds = w.tally.observed_milli_seconds;
    r.time.active_milli_seconds = w.tally.active_milli_seconds;
    r.time.sm_observed_milli_seconds = w.tally.sm_observed_milli_seconds;
    r.time.both_minutes = w.tally.both_minutes;
    r.time.both_held_milli_seconds = w.tally.both_held_milli_seconds;
    r.time.both_duty_milli_seconds = w.tally.both_duty_milli_seconds;
    r.time.both_sm_milli_seconds = w.tally.both_sm_milli_seconds;
    r.wasted_milli_seconds = w.tally.wasted_milli_seconds;
    r.wasted_cost_micro = w.tally.wasted_cost_micro;
    r.run_count = w.tally.run_count;
    out[{w.team, w.namespace_name, w.workload}] = r;
  }
  std::vector<WorkloadWasteRecord> sorted;
  for (auto& [key, r] : out) sorted.push_back(r);
  return sorted;
}

class PgWasteDaysTest : public testing::MigratedDatabaseTest {};

TEST_F(PgWasteDaysTest, TheWindowsFiguresAreWhatItsHoursAndPiecesAddUpTo) {
  PgInsightWasteRepository repo(pool());
  for (const auto& [cluster, seed] : {std::pair{"c1", 1u}, std::pair{"c2", 2u}}) {
    std::vector<IdlePieceRecord> pieces;
    std::vector<WorkloadHourRecord> hours;
    Generate(cluster, 0, kDaysHours, seed, &pieces, &hours);
    ASSERT_THAT(repo.ReplaceHours(cluster, kDaysT0, kDaysT0 + absl::Hours(kDaysHours), pieces, hours), IsOk());
  }
  // Hours replaced again in part: ending on a day's first hour, and inside a day.
  for (const auto& [from, to] : {std::pair{47, 72}, std::pair{100, 103}}) {
    std::vector<IdlePieceRecord> pieces;
    std::vector<WorkloadHourRecord> hours;
    Generate("c1", from, to, static_cast<uint32_t>(from), &pieces, &hours);
    ASSERT_THAT(repo.ReplaceHours("c1", kDaysT0 + absl::Hours(from), kDaysT0 + absl::Hours(to), pieces, hours), IsOk());
  }
  std::mt19937 random(42);
  int with_whole_days = 0, runs_seen = 0;
  for (int i = 0; i < 300; ++i) {
    const int a = static_cast<int>(random() % (kDaysHours + 10)) - 5;
    const int b = static_cast<int>(random() % (kDaysHours + 10)) - 5;
    WasteFilter filter{kDaysT0 + absl::Hours(std::min(a, b)), kDaysT0 + absl::Hours(std::max(a, b) + 1), {}, "", ""};
    switch (random() % 4) {
      case 1:
        filter.teams = {"speech"};
        break;
      case 2:
        filter.namespace_name = "cv";
        break;
      case 3:
        filter.cluster = "c1";
        break;
      default:
        break;
    }
    SCOPED_TRACE(absl::StrCat("window [", std::min(a, b), ", ", std::max(a, b) + 1, ") h"));
    auto sums = repo.WasteSums(filter);
    ASSERT_THAT(sums, IsOk());
    EXPECT_EQ(*sums, AsSummedFromTheHours(repo, filter));
    if (std::max(a, b) + 1 - std::min(a, b) >= 48) ++with_whole_days;
    for (const auto& s : *sums) runs_seen += static_cast<int>(s.run_count);
  }
  EXPECT_GE(with_whole_days, 50);
  EXPECT_GE(runs_seen, 1000);
}

}  // namespace
}  // namespace fleetcap::store
