#pragma once
// The behaviour every InsightWasteRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test. A
// fixture gives a fresh, empty store per test through `repo()`.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/insight_waste_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::insight_waste_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

const absl::Time kWasteT0 = absl::FromUnixSeconds(1'772'326'800);  // 2026-03-01T01:00:00Z

inline absl::Time Hour(int h) { return kWasteT0 + absl::Hours(h); }

// A piece of `pod`'s run over [hour h + from_min, hour h + to_min).
inline IdlePieceRecord Piece(const std::string& cluster, const std::string& pod, int h, int from_min, int to_min,
                             const std::string& team = "vision") {
  IdlePieceRecord p;
  p.cluster = cluster;
  p.hour = Hour(h);
  p.pod_uid = pod;
  p.start = Hour(h) + absl::Minutes(from_min);
  p.end = Hour(h) + absl::Minutes(to_min);
  p.namespace_name = team == "vision" ? "cv" : "asr";
  p.team = team;
  p.workload = "Job/train";
  p.model = "A100";
  p.devices_milli = 1000;
  p.wasted_milli_seconds = 1000 * 60 * (to_min - from_min);
  p.wasted_cost_micro = 2'000'000 * (to_min - from_min) / 60 + 1;
  p.activity_milli_seconds = p.wasted_milli_seconds / 100;
  p.sm_milli_seconds = p.wasted_milli_seconds / 2;
  return p;
}

inline WorkloadHourRecord WorkloadHour(const std::string& cluster, int h, const std::string& team,
                                       const std::string& workload, int64_t held) {
  WorkloadHourRecord w;
  w.cluster = cluster;
  w.hour = Hour(h);
  w.team = team;
  w.namespace_name = team == "vision" ? "cv" : "asr";
  w.workload = workload;
  w.held_milli_seconds = held;
  w.observed_milli_seconds = held - 1000;
  w.active_milli_seconds = held / 3;
  w.sm_observed_milli_seconds = held / 4;
  w.both_minutes = 15;
  w.both_held_milli_seconds = held / 4;
  w.both_duty_milli_seconds = held / 5;
  w.both_sm_milli_seconds = held / 50;
  return w;
}

inline WasteFilter Window(int from_hour, int to_hour) { return {Hour(from_hour), Hour(to_hour), {}, "", ""}; }

inline void PiecesAndSumsReadBack(InsightWasteRepository& repo) {
  const std::vector<IdlePieceRecord> pieces = {Piece("c1", "p1", 0, 20, 60), Piece("c1", "p1", 1, 0, 60),
                                               Piece("c1", "p0", 1, 5, 25), Piece("c1", "p0", 1, 40, 60)};
  const std::vector<WorkloadHourRecord> hours = {WorkloadHour("c1", 0, "vision", "Job/train", 3'600'000),
                                                 WorkloadHour("c1", 1, "vision", "Job/train", 7'200'000),
                                                 WorkloadHour("c1", 1, "speech", "Job/asr", 900'000)};
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(2), pieces, hours), IsOk());
  auto read = repo.Pieces(Window(0, 2));
  ASSERT_THAT(read, IsOk());
  EXPECT_THAT(*read, ElementsAre(pieces[2], pieces[3], pieces[0], pieces[1]));  // by cluster, pod, start
  auto sums = repo.WorkloadSums(Window(0, 2));
  ASSERT_THAT(sums, IsOk());
  WorkloadHourRecord train = WorkloadHour("", 0, "vision", "Job/train", 10'800'000);
  train.observed_milli_seconds = 10'798'000;
  train.active_milli_seconds = 1'200'000 + 2'400'000;
  train.both_minutes = 30;
  train.both_duty_milli_seconds = 720'000 + 1'440'000;
  train.both_sm_milli_seconds = 72'000 + 144'000;
  WorkloadHourRecord asr = WorkloadHour("", 0, "speech", "Job/asr", 900'000);
  EXPECT_THAT(*sums, ElementsAre(asr, train));  // by team, bytewise
  auto one_hour = repo.WorkloadSums(Window(1, 2));
  ASSERT_THAT(one_hour, IsOk());
  ASSERT_EQ(one_hour->size(), 2u);
  EXPECT_EQ((*one_hour)[1].held_milli_seconds, 7'200'000);
  EXPECT_EQ((*one_hour)[1].hour, Hour(1));
}

inline void ReplacingHoursLeavesOtherHoursAndClusters(InsightWasteRepository& repo) {
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(3),
                                {Piece("c1", "p1", 0, 0, 60), Piece("c1", "p1", 1, 0, 60), Piece("c1", "p1", 2, 0, 30)},
                                {WorkloadHour("c1", 1, "vision", "Job/train", 3'600'000)}),
              IsOk());
  ASSERT_THAT(repo.ReplaceHours("c2", Hour(1), Hour(2), {Piece("c2", "q1", 1, 0, 60)},
                                {WorkloadHour("c2", 1, "vision", "Job/train", 1'000'000)}),
              IsOk());
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(1), Hour(2), {Piece("c1", "p1", 1, 30, 60)}, {}), IsOk());
  auto read = repo.Pieces(Window(0, 3));
  ASSERT_THAT(read, IsOk());
  EXPECT_THAT(*read, ElementsAre(Piece("c1", "p1", 0, 0, 60), Piece("c1", "p1", 1, 30, 60), Piece("c1", "p1", 2, 0, 30),
                                 Piece("c2", "q1", 1, 0, 60)));
  auto sums = repo.WorkloadSums(Window(0, 3));
  ASSERT_THAT(sums, IsOk());
  ASSERT_EQ(sums->size(), 1u);
  EXPECT_EQ((*sums)[0].held_milli_seconds, 1'000'000);  // c1's hour replaced by none
}

inline void FiltersSelectByWindowTeamNamespaceAndCluster(InsightWasteRepository& repo) {
  ASSERT_THAT(
      repo.ReplaceHours("c1", Hour(0), Hour(2), {Piece("c1", "p1", 0, 0, 60), Piece("c1", "p2", 1, 0, 60, "speech")},
                        {WorkloadHour("c1", 0, "vision", "Job/train", 3'600'000),
                         WorkloadHour("c1", 1, "speech", "Job/asr", 3'600'000)}),
      IsOk());
  ASSERT_THAT(repo.ReplaceHours("c2", Hour(0), Hour(1), {Piece("c2", "q1", 0, 0, 60)},
                                {WorkloadHour("c2", 0, "vision", "Job/train", 1'000'000)}),
              IsOk());
  auto count = [&](WasteFilter f) {
    auto pieces = repo.Pieces(f);
    auto sums = repo.WorkloadSums(f);
    EXPECT_THAT(pieces, IsOk());
    EXPECT_THAT(sums, IsOk());
    return std::make_pair(pieces.ok() ? pieces->size() : 99u, sums.ok() ? sums->size() : 99u);
  };
  EXPECT_EQ(count(Window(0, 2)), std::make_pair(size_t{3}, size_t{2}));
  EXPECT_EQ(count(Window(1, 2)), std::make_pair(size_t{1}, size_t{1}));
  WasteFilter f = Window(0, 2);
  f.teams = {"speech", "audio"};
  EXPECT_EQ(count(f), std::make_pair(size_t{1}, size_t{1}));
  f = Window(0, 2);
  f.cluster = "c2";
  EXPECT_EQ(count(f), std::make_pair(size_t{1}, size_t{1}));
  f = Window(0, 2);
  f.namespace_name = "cv";
  EXPECT_EQ(count(f), std::make_pair(size_t{2}, size_t{1}));
  f.teams = {"nobody"};
  EXPECT_EQ(count(f), std::make_pair(size_t{0}, size_t{0}));
  f = Window(0, 2);
  f.max_pieces = 1;  // one, and one more
  EXPECT_EQ(count(f).first, 2u);
  EXPECT_EQ(count(Window(2, 2)), std::make_pair(size_t{0}, size_t{0}));
}

inline void WrongRowsAreRefusedAndNothingChanges(InsightWasteRepository& repo) {
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(1), {Piece("c1", "p1", 0, 0, 60)}, {}), IsOk());
  IdlePieceRecord spills = Piece("c1", "p1", 0, 30, 60);
  spills.end = Hour(1) + absl::Minutes(5);
  WorkloadHourRecord over = WorkloadHour("c1", 0, "vision", "Job/train", 1000);
  over.observed_milli_seconds = 2000;
  const std::vector<std::pair<std::vector<IdlePieceRecord>, std::vector<WorkloadHourRecord>>> bad = {
      {{Piece("c2", "p1", 0, 0, 60)}, {}},
      {{Piece("c1", "p1", 1, 0, 60)}, {}},
      {{spills}, {}},
      {{Piece("c1", "p1", 0, 0, 10), Piece("c1", "p1", 0, 0, 10)}, {}},
      {{}, {over}},
      {{}, {WorkloadHour("c1", 0, "vision", "Job/a", 1000), WorkloadHour("c1", 0, "vision", "Job/a", 1000)}},
  };
  for (const auto& [pieces, hours] : bad) {
    EXPECT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(1), pieces, hours), StatusIs(absl::StatusCode::kInvalidArgument));
  }
  EXPECT_THAT(repo.ReplaceHours("c1", Hour(0) + absl::Minutes(1), Hour(1), {}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(repo.Pieces({Hour(0) + absl::Minutes(1), Hour(1), {}, "", ""}),
              StatusIs(absl::StatusCode::kInvalidArgument));
  auto read = repo.Pieces(Window(0, 1));
  ASSERT_THAT(read, IsOk());
  EXPECT_THAT(*read, ElementsAre(Piece("c1", "p1", 0, 0, 60)));
}

inline void PartsReplaceTheHoursWhenCommittedOnly(InsightWasteRepository& repo) {
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(2), {Piece("c1", "p1", 0, 0, 60)},
                                {WorkloadHour("c1", 0, "vision", "Job/train", 3'600'000)}),
              IsOk());
  const auto pieces = [&] {
    auto read = repo.Pieces(Window(0, 2));
    EXPECT_THAT(read, IsOk());
    return read.ok() ? *read : std::vector<IdlePieceRecord>{};
  };
  {
    auto replacement = repo.BeginReplaceHours("c1", Hour(0), Hour(2));
    ASSERT_THAT(replacement, IsOk());
    ASSERT_THAT((*replacement)->Add({Piece("c1", "p2", 1, 0, 30)}, {}), IsOk());
    ASSERT_THAT(
        (*replacement)->Add({Piece("c1", "p0", 0, 10, 20)}, {WorkloadHour("c1", 1, "speech", "Job/asr", 1'000'000)}),
        IsOk());
    // Dropped uncommitted: nothing changes.
  }
  EXPECT_THAT(pieces(), ElementsAre(Piece("c1", "p1", 0, 0, 60)));
  {
    auto replacement = repo.BeginReplaceHours("c1", Hour(0), Hour(2));
    ASSERT_THAT(replacement, IsOk());
    ASSERT_THAT((*replacement)->Add({Piece("c1", "p2", 1, 0, 30)}, {}), IsOk());
    // A key of an earlier part given again fails the replacement.
    absl::Status again = (*replacement)->Add({Piece("c1", "p2", 1, 0, 30)}, {});
    if (again.ok()) again = (*replacement)->Commit();
    EXPECT_FALSE(again.ok());
  }
  EXPECT_THAT(pieces(), ElementsAre(Piece("c1", "p1", 0, 0, 60)));
  {
    auto replacement = repo.BeginReplaceHours("c1", Hour(0), Hour(2));
    ASSERT_THAT(replacement, IsOk());
    ASSERT_THAT((*replacement)->Add({Piece("c1", "p2", 1, 0, 30)}, {}), IsOk());
    EXPECT_THAT((*replacement)->Add({Piece("c1", "p3", 2, 0, 30)}, {}), StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_FALSE((*replacement)->Commit().ok()) << "a failed part ends the replacement";
  }
  EXPECT_THAT(pieces(), ElementsAre(Piece("c1", "p1", 0, 0, 60)));
  {
    auto replacement = repo.BeginReplaceHours("c1", Hour(0), Hour(2));
    ASSERT_THAT(replacement, IsOk());
    ASSERT_THAT((*replacement)->Add({Piece("c1", "p2", 1, 0, 30)}, {}), IsOk());
    ASSERT_THAT(
        (*replacement)->Add({Piece("c1", "p0", 0, 10, 20)}, {WorkloadHour("c1", 1, "speech", "Job/asr", 1'000'000)}),
        IsOk());
    ASSERT_THAT((*replacement)->Commit(), IsOk());
  }
  EXPECT_THAT(pieces(), ElementsAre(Piece("c1", "p0", 0, 10, 20), Piece("c1", "p2", 1, 0, 30)));
  auto sums = repo.WorkloadSums(Window(0, 2));
  ASSERT_THAT(sums, IsOk());
  ASSERT_EQ(sums->size(), 1u);
  EXPECT_EQ((*sums)[0].team, "speech");
  EXPECT_THAT(repo.BeginReplaceHours("c1", Hour(0) + absl::Minutes(1), Hour(2)),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

inline void WasteSumsCountARunOnceAcrossHoursAndDays(InsightWasteRepository& repo) {
  // kWasteT0 is 01:00 UTC: hour 23 is the next day's first. p1's run, 21:30
  // to 23:30, is three pieces over two days; p2 has two runs in hour 22.
  const std::vector<IdlePieceRecord> pieces = {Piece("c1", "p1", 21, 30, 60), Piece("c1", "p1", 22, 0, 60),
                                               Piece("c1", "p1", 23, 0, 30),  Piece("c1", "p2", 22, 0, 10),
                                               Piece("c1", "p2", 22, 20, 40), Piece("c1", "p3", 40, 0, 60, "speech")};
  ASSERT_THAT(repo.ReplaceHours("c1", Hour(0), Hour(48), pieces,
                                {WorkloadHour("c1", 22, "vision", "Job/train", 3'600'000),
                                 WorkloadHour("c1", 23, "vision", "Job/train", 1'800'000)}),
              IsOk());
  const auto sums = [&](int from, int to) {
    auto read = repo.WasteSums(Window(from, to));
    EXPECT_THAT(read, IsOk());
    return read.ok() ? *read : std::vector<WorkloadWasteRecord>{};
  };
  const std::vector<WorkloadWasteRecord> all = sums(0, 48);
  ASSERT_EQ(all.size(), 2u);  // by team: speech, vision
  EXPECT_EQ(all[0].run_count, 1);
  EXPECT_EQ(all[1].run_count, 3);
  EXPECT_EQ(all[1].wasted_milli_seconds, 1000 * 60 * (30 + 60 + 30 + 10 + 20));
  EXPECT_EQ(all[1].wasted_cost_micro, pieces[0].wasted_cost_micro + pieces[1].wasted_cost_micro +
                                          pieces[2].wasted_cost_micro + pieces[3].wasted_cost_micro +
                                          pieces[4].wasted_cost_micro);
  EXPECT_EQ(all[1].time.held_milli_seconds, 5'400'000);
  EXPECT_EQ(all[1].time.hour, Hour(0));
  EXPECT_EQ(all[1].time.cluster, "");
  // From the next day's first hour: p1's run, continued into it, counts once.
  const std::vector<WorkloadWasteRecord> next_day = sums(23, 48);
  ASSERT_EQ(next_day.size(), 2u);
  EXPECT_EQ(next_day[1].run_count, 1);
  EXPECT_EQ(next_day[1].time.held_milli_seconds, 1'800'000);
  // A whole day between ragged edges: p1's run continued into it is one run.
  const std::vector<WorkloadWasteRecord> around = sums(20, 48);
  ASSERT_EQ(around.size(), 2u);
  EXPECT_EQ(around[1].run_count, 3);
  EXPECT_EQ(sums(24, 48).size(), 1u);            // speech only
  EXPECT_EQ(sums(22, 23).front().run_count, 3);  // vision only: p1's piece there is a run of that window
  EXPECT_TRUE(sums(30, 30).empty());
}

inline void TheWatermarkOnlyMovesForwardOnWholeHours(InsightWasteRepository& repo) {
  auto none = repo.Watermark("c1");
  ASSERT_THAT(none, IsOk());
  EXPECT_FALSE(none->has_value());
  ASSERT_THAT(repo.AdvanceWatermark("c1", Hour(5)), IsOk());
  ASSERT_THAT(repo.AdvanceWatermark("c1", Hour(2)), IsOk());
  EXPECT_THAT(repo.AdvanceWatermark("c1", Hour(6) + absl::Seconds(1)), StatusIs(absl::StatusCode::kInvalidArgument));
  auto mark = repo.Watermark("c1");
  ASSERT_THAT(mark, IsOk());
  EXPECT_EQ(*mark, Hour(5));
  auto other = repo.Watermark("c2");
  ASSERT_THAT(other, IsOk());
  EXPECT_FALSE(other->has_value());
}

inline void MarksAreReadOldestFirstAndClearedOnlyAsRead(InsightWasteRepository& repo) {
  const absl::Time first = absl::FromUnixMicros(1'772'400'000'123'456);
  ASSERT_THAT(repo.MarkHours("c1", {Hour(3), Hour(1), Hour(2)}, first), IsOk());
  ASSERT_THAT(repo.MarkHours("c2", {Hour(0)}, first), IsOk());
  EXPECT_THAT(repo.MarkHours("c1", {Hour(1) + absl::Minutes(1)}, first), StatusIs(absl::StatusCode::kInvalidArgument));
  auto marks = repo.Marks("c1", Hour(3), 10);
  ASSERT_THAT(marks, IsOk());
  ASSERT_EQ(marks->size(), 2u);
  EXPECT_EQ((*marks)[0].hour, Hour(1));
  EXPECT_EQ((*marks)[1].hour, Hour(2));
  EXPECT_EQ((*marks)[0].noted_at, first);
  auto limited = repo.Marks("c1", Hour(9), 1);
  ASSERT_THAT(limited, IsOk());
  EXPECT_EQ(limited->size(), 1u);
  // Hour 2 is marked again after the read: clearing leaves it.
  ASSERT_THAT(repo.MarkHours("c1", {Hour(2)}, first + absl::Seconds(1)), IsOk());
  ASSERT_THAT(repo.ClearMarks("c1", *marks), IsOk());
  auto left = repo.Marks("c1", Hour(9), 10);
  ASSERT_THAT(left, IsOk());
  ASSERT_EQ(left->size(), 2u);
  EXPECT_EQ((*left)[0].hour, Hour(2));
  EXPECT_EQ((*left)[1].hour, Hour(3));
  auto c2 = repo.Marks("c2", Hour(9), 10);
  ASSERT_THAT(c2, IsOk());
  EXPECT_EQ(c2->size(), 1u);
  EXPECT_THAT(repo.Marks("c1", Hour(9), -1), StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace fleetcap::store::insight_waste_contract

#define FLEETCAP_INSIGHT_WASTE_CONTRACT_TESTS(Fixture)                                                                 \
  TEST_F(Fixture, PiecesAndSumsReadBack) { ::fleetcap::store::insight_waste_contract::PiecesAndSumsReadBack(repo()); } \
  TEST_F(Fixture, ReplacingHoursLeavesOtherHoursAndClusters) {                                                         \
    ::fleetcap::store::insight_waste_contract::ReplacingHoursLeavesOtherHoursAndClusters(repo());                      \
  }                                                                                                                    \
  TEST_F(Fixture, FiltersSelectByWindowTeamNamespaceAndCluster) {                                                      \
    ::fleetcap::store::insight_waste_contract::FiltersSelectByWindowTeamNamespaceAndCluster(repo());                   \
  }                                                                                                                    \
  TEST_F(Fixture, WrongRowsAreRefusedAndNothingChanges) {                                                              \
    ::fleetcap::store::insight_waste_contract::WrongRowsAreRefusedAndNothingChanges(repo());                           \
  }                                                                                                                    \
  TEST_F(Fixture, PartsReplaceTheHoursWhenCommittedOnly) {                                                             \
    ::fleetcap::store::insight_waste_contract::PartsReplaceTheHoursWhenCommittedOnly(repo());                          \
  }                                                                                                                    \
  TEST_F(Fixture, WasteSumsCountARunOnceAcrossHoursAndDays) {                                                          \
    ::fleetcap::store::insight_waste_contract::WasteSumsCountARunOnceAcrossHoursAndDays(repo());                       \
  }                                                                                                                    \
  TEST_F(Fixture, TheWatermarkOnlyMovesForwardOnWholeHours) {                                                          \
    ::fleetcap::store::insight_waste_contract::TheWatermarkOnlyMovesForwardOnWholeHours(repo());                       \
  }                                                                                                                    \
  TEST_F(Fixture, MarksAreReadOldestFirstAndClearedOnlyAsRead) {                                                       \
    ::fleetcap::store::insight_waste_contract::MarksAreReadOldestFirstAndClearedOnlyAsRead(repo());                    \
  }
