#pragma once
// The behaviour every pair of chargeback repositories (ChargebackWriteRepository
// and ChargebackReadRepository) promises, as test steps shared by the
// in-memory fake's unit test and the PostgreSQL integration test.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "store/chargeback_repository.h"

namespace fleetcap::store::chargeback_contract {

const absl::Time kT0 = absl::FromUnixSeconds(1'767'225'600);   // 2026-01-01T00:00:00Z
const absl::Time kFeb = absl::FromUnixSeconds(1'769'904'000);  // 2026-02-01T00:00:00Z

inline ChargebackLineRecord Line(absl::Time hour, const std::string& cluster, const std::string& team,
                                 const std::string& model, int64_t cost, const std::string& kind = "workload") {
  ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = cluster;
  l.team = team;
  l.namespace_name = team + "-ns";
  l.workload = "Job/" + team;
  l.model = model;
  l.line_kind = kind;
  l.held_milli_seconds = cost * 10;
  l.used_milli_seconds = cost * 5;
  l.observed_milli_seconds = cost * 8;
  l.direct_cost_micro = cost;
  l.idle_cost_micro = cost / 10;
  l.shared_cost_micro = 1;
  l.total_cost_micro = l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro;
  return l;
}

inline ChargebackFilter Window(absl::Time start, absl::Time end) {
  ChargebackFilter f;
  f.start = start;
  f.end = end;
  return f;
}

inline ChargebackGroupBy GroupBy(bool team, bool cluster, bool namespace_name, bool workload, bool model,
                                 bool line_kind) {
  return ChargebackGroupBy{team, cluster, namespace_name, workload, model, line_kind};
}

inline std::vector<ChargebackSum> SumsOf(const ChargebackReadRepository& reader, const ChargebackFilter& filter,
                                         const ChargebackGroupBy& group_by, ChargebackResolution resolution) {
  auto sums = reader.Lines(filter, group_by, resolution);
  EXPECT_TRUE(sums.ok()) << sums.status();
  return sums.ok() ? *sums : std::vector<ChargebackSum>{};
}

// The sums Lines must give, worked out here from the lines themselves.
inline std::vector<ChargebackSum> Expected(const std::vector<ChargebackLineRecord>& lines, const ChargebackFilter& f,
                                           const ChargebackGroupBy& g, ChargebackResolution resolution) {
  using Key = std::tuple<absl::Time, std::string, std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, ChargebackSum> sums;
  for (const ChargebackLineRecord& l : lines) {
    if (l.hour < f.start || l.hour >= f.end) continue;
    const absl::CivilSecond c = absl::ToCivilSecond(l.hour, absl::UTCTimeZone());
    ChargebackSum s;
    s.start = resolution == ChargebackResolution::kHour    ? l.hour
              : resolution == ChargebackResolution::kDay   ? absl::FromCivil(absl::CivilDay(c), absl::UTCTimeZone())
              : resolution == ChargebackResolution::kMonth ? absl::FromCivil(absl::CivilMonth(c), absl::UTCTimeZone())
                                                           : f.start;
    s.team = g.team ? l.team : "";
    s.cluster = g.cluster ? l.cluster : "";
    s.namespace_name = g.namespace_name ? l.namespace_name : "";
    s.workload = g.workload ? l.workload : "";
    s.model = g.model ? l.model : "";
    s.line_kind = g.line_kind ? l.line_kind : "";
    auto [it, added] =
        sums.emplace(Key{s.start, s.team, s.cluster, s.namespace_name, s.workload, s.model, s.line_kind}, s);
    it->second.held_milli_seconds += l.held_milli_seconds;
    it->second.used_milli_seconds += l.used_milli_seconds;
    it->second.observed_milli_seconds += l.observed_milli_seconds;
    it->second.direct_cost_micro += l.direct_cost_micro;
    it->second.idle_cost_micro += l.idle_cost_micro;
    it->second.shared_cost_micro += l.shared_cost_micro;
    it->second.total_cost_micro += l.total_cost_micro;
    it->second.no_telemetry = it->second.no_telemetry || l.no_telemetry;
  }
  std::vector<ChargebackSum> out;
  for (const auto& [key, s] : sums) out.push_back(s);
  return out;
}

// Two clusters over two days of January and a day of February, with a
// `fixed` line (cluster "") and an idle line. Returns every line written.
inline std::vector<ChargebackLineRecord> WriteFleet(ChargebackWriteRepository& writer) {
  std::vector<ChargebackLineRecord> c1, c2, fixed;
  for (absl::Time hour : {kT0, kT0 + absl::Hours(1), kT0 + absl::Hours(25), kFeb + absl::Hours(3)}) {
    c1.push_back(Line(hour, "c1", "ml", "H100", 1000));
    c1.push_back(Line(hour, "c1", "web", "H100", 300));
    c1.push_back(Line(hour, "c1", "ml", "A100", 70));
    c1.push_back(Line(hour, "c1", "idle", "H100", 11, "idle"));
    c2.push_back(Line(hour, "c2", "ml", "T4", 5));
    ChargebackLineRecord f = Line(hour, "", "web", "", 2, "fixed");
    f.namespace_name = "";
    f.workload = "";
    fixed.push_back(f);
  }
  c1[2].no_telemetry = true;
  const absl::Time end = kFeb + absl::Hours(24);
  EXPECT_TRUE(writer.ReplaceHours("c1", kT0, end, c1, {}).ok());
  EXPECT_TRUE(writer.ReplaceHours("c2", kT0, end, c2, {}).ok());
  EXPECT_TRUE(writer.ReplaceHours("", kT0, end, fixed, {}).ok());
  std::vector<ChargebackLineRecord> all = c1;
  all.insert(all.end(), c2.begin(), c2.end());
  all.insert(all.end(), fixed.begin(), fixed.end());
  return all;
}

inline void ReplacingAnHourTwiceLeavesOneCopy(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<ChargebackLineRecord> lines = {Line(kT0, "c1", "ml", "H100", 1000),
                                                   Line(kT0, "c1", "web", "H100", 300)};
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), lines, {}).ok());
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), lines, {}).ok());
  const ChargebackFilter window = Window(kT0, kT0 + absl::Hours(1));
  const auto all = GroupBy(true, true, true, true, true, true);
  EXPECT_EQ(SumsOf(reader, window, all, ChargebackResolution::kHour),
            Expected(lines, window, all, ChargebackResolution::kHour));
  // Replaced by fewer lines: the line not given again is gone.
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), {lines[1]}, {}).ok());
  EXPECT_EQ(SumsOf(reader, window, all, ChargebackResolution::kHour),
            Expected({lines[1]}, window, all, ChargebackResolution::kHour));
  // Replacing with nothing empties the hour, and other clusters' hours stay.
  ASSERT_TRUE(writer.ReplaceHours("c2", kT0, kT0 + absl::Hours(1), {Line(kT0, "c2", "ml", "T4", 5)}, {}).ok());
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), {}, {}).ok());
  EXPECT_EQ(SumsOf(reader, window, all, ChargebackResolution::kHour),
            Expected({Line(kT0, "c2", "ml", "T4", 5)}, window, all, ChargebackResolution::kHour));
}

inline void RollupsEqualTheSumOfHoursAfterReplacements(ChargebackWriteRepository& writer,
                                                       ChargebackReadRepository& reader) {
  std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  // Hour 1 of January 1st again, without web's line and with ml's grown.
  std::vector<ChargebackLineRecord> again = {Line(kT0 + absl::Hours(1), "c1", "ml", "H100", 4000)};
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0 + absl::Hours(1), kT0 + absl::Hours(2), again, {}).ok());
  std::vector<ChargebackLineRecord> now;
  for (const auto& l : lines) {
    if (!(l.cluster == "c1" && l.hour == kT0 + absl::Hours(1))) now.push_back(l);
  }
  now.insert(now.end(), again.begin(), again.end());
  const auto all = GroupBy(true, true, true, true, true, true);
  const auto by_team = GroupBy(true, false, false, false, false, false);
  // Whole days and months: read from the rollups.
  for (const ChargebackFilter& window :
       {Window(kT0, kT0 + absl::Hours(48)), Window(kT0, kFeb + absl::Hours(24)), Window(kT0, kFeb),
        Window(kT0 - absl::Hours(24 * 31), kFeb + absl::Hours(24 * 28))}) {
    for (auto resolution : {ChargebackResolution::kDay, ChargebackResolution::kMonth, ChargebackResolution::kNone}) {
      EXPECT_EQ(SumsOf(reader, window, all, resolution), Expected(now, window, all, resolution))
          << FormatRfc3339(window.start) << " " << static_cast<int>(resolution);
      EXPECT_EQ(SumsOf(reader, window, by_team, resolution), Expected(now, window, by_team, resolution));
    }
  }
}

inline void EveryGroupingAndResolution(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  for (const ChargebackFilter& window :
       {Window(kT0, kFeb + absl::Hours(24)), Window(kT0 + absl::Hours(1), kFeb + absl::Hours(4))}) {
    for (int bits = 0; bits < 64; ++bits) {
      const auto g = GroupBy(bits & 1, bits & 2, bits & 4, bits & 8, bits & 16, bits & 32);
      for (auto resolution : {ChargebackResolution::kHour, ChargebackResolution::kDay, ChargebackResolution::kMonth,
                              ChargebackResolution::kNone}) {
        EXPECT_EQ(SumsOf(reader, window, g, resolution), Expected(lines, window, g, resolution))
            << "group_by bits " << bits << " resolution " << static_cast<int>(resolution);
      }
    }
  }
  // One case spelled out: January by team, per month.
  const auto by_team =
      SumsOf(reader, Window(kT0, kFeb), GroupBy(true, false, false, false, false, false), ChargebackResolution::kMonth);
  ASSERT_EQ(by_team.size(), 3u);
  EXPECT_EQ(by_team[0].team, "idle");
  EXPECT_EQ(by_team[1].team, "ml");
  EXPECT_EQ(by_team[1].direct_cost_micro, 3 * (1000 + 70 + 5));
  EXPECT_TRUE(by_team[1].no_telemetry);
  EXPECT_EQ(by_team[2].team, "web");
  EXPECT_EQ(by_team[2].direct_cost_micro, 3 * (300 + 2));
  EXPECT_FALSE(by_team[2].no_telemetry);
  EXPECT_EQ(by_team[2].start, kT0);
}

inline void DeviceTimeOnlySumsHeldAndUsedAlone(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  for (ChargebackFilter window :
       {Window(kT0, kFeb + absl::Hours(24)), Window(kT0 + absl::Hours(1), kFeb + absl::Hours(4))}) {
    window.device_time_only = true;
    for (const auto& g :
         {GroupBy(false, false, false, false, true, false), GroupBy(true, true, false, false, true, false),
          GroupBy(true, false, true, true, false, true)}) {
      for (auto resolution : {ChargebackResolution::kHour, ChargebackResolution::kDay}) {
        std::vector<ChargebackSum> expected = Expected(lines, window, g, resolution);
        for (ChargebackSum& s : expected)
          s.direct_cost_micro = s.idle_cost_micro = s.shared_cost_micro = s.total_cost_micro = 0;
        EXPECT_EQ(SumsOf(reader, window, g, resolution), expected) << "resolution " << static_cast<int>(resolution);
      }
    }
  }
}

inline void FiltersSelectTheLines(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  const auto all = GroupBy(true, true, true, true, true, true);
  auto check = [&](const ChargebackFilter& f, auto selects) {
    std::vector<ChargebackLineRecord> selected;
    for (const auto& l : lines) {
      if (selects(l)) selected.push_back(l);
    }
    ASSERT_FALSE(selected.empty());
    for (auto resolution : {ChargebackResolution::kHour, ChargebackResolution::kDay, ChargebackResolution::kNone}) {
      EXPECT_EQ(SumsOf(reader, f, all, resolution), Expected(selected, f, all, resolution));
    }
  };
  ChargebackFilter f = Window(kT0, kFeb + absl::Hours(24));
  f.teams = {"web", "idle"};
  check(f, [](const auto& l) { return l.team == "web" || l.team == "idle"; });
  f = Window(kT0, kFeb + absl::Hours(24));
  f.cluster = "c2";
  check(f, [](const auto& l) { return l.cluster == "c2"; });
  f = Window(kT0, kFeb + absl::Hours(24));
  f.namespace_name = "web-ns";
  check(f, [](const auto& l) { return l.namespace_name == "web-ns"; });
  f = Window(kT0, kFeb + absl::Hours(24));
  f.workload = "Job/ml";
  f.model = "A100";
  check(f, [](const auto& l) { return l.workload == "Job/ml" && l.model == "A100"; });
  f = Window(kT0, kFeb + absl::Hours(24));
  f.line_kind = "fixed";
  check(f, [](const auto& l) { return l.line_kind == "fixed"; });
  f.teams = {"nobody"};
  EXPECT_TRUE(SumsOf(reader, f, all, ChargebackResolution::kNone).empty());
}

// Reads that name no namespace or workload (grouped or filtered) may come
// from a rollup without them; after a replacement that drops a team's line
// and adds another team, with each filter, over whole days and over windows
// with ragged ends around whole days, they equal the sums of the lines.
inline void ReadsWithoutNamespaceOrWorkloadAfterReplacementsAndFilters(ChargebackWriteRepository& writer,
                                                                       ChargebackReadRepository& reader) {
  std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  const std::vector<ChargebackLineRecord> again = {Line(kT0 + absl::Hours(25), "c1", "ml", "H100", 9000),
                                                   Line(kT0 + absl::Hours(25), "c1", "ops", "A100", 40)};
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0 + absl::Hours(25), kT0 + absl::Hours(26), again, {}).ok());
  std::vector<ChargebackLineRecord> now;
  for (const auto& l : lines) {
    if (!(l.cluster == "c1" && l.hour == kT0 + absl::Hours(25))) now.push_back(l);
  }
  now.insert(now.end(), again.begin(), again.end());
  std::vector<ChargebackFilter> filters;
  for (const ChargebackFilter& window :
       {Window(kT0, kT0 + absl::Hours(48)), Window(kT0, kFeb + absl::Hours(24)),
        Window(kT0 + absl::Hours(1), kT0 + absl::Hours(49)), Window(kT0 - absl::Minutes(30), kFeb + absl::Hours(4))}) {
    filters.push_back(window);
    ChargebackFilter f = window;
    f.teams = {"ops", "web"};
    filters.push_back(f);
    f = window;
    f.cluster = "c1";
    f.model = "H100";
    filters.push_back(f);
    f = window;
    f.line_kind = "idle";
    filters.push_back(f);
  }
  for (const ChargebackFilter& f : filters) {
    std::vector<ChargebackLineRecord> selected;
    for (const auto& l : now) {
      const bool team = f.teams.empty() || std::find(f.teams.begin(), f.teams.end(), l.team) != f.teams.end();
      if (team && (f.cluster.empty() || l.cluster == f.cluster) && (f.model.empty() || l.model == f.model) &&
          (f.line_kind.empty() || l.line_kind == f.line_kind)) {
        selected.push_back(l);
      }
    }
    for (int bits = 0; bits < 16; ++bits) {  // team, cluster, model, line kind
      const auto g = GroupBy(bits & 1, bits & 2, false, false, bits & 4, bits & 8);
      for (auto resolution : {ChargebackResolution::kDay, ChargebackResolution::kMonth, ChargebackResolution::kNone}) {
        EXPECT_EQ(SumsOf(reader, f, g, resolution), Expected(selected, f, g, resolution))
            << FormatRfc3339(f.start) << " group_by bits " << bits << " resolution " << static_cast<int>(resolution);
      }
    }
  }
}

inline void AnEmptyWindowHasNoLines(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  WriteFleet(writer);
  const auto all = GroupBy(true, true, true, true, true, true);
  for (auto resolution : {ChargebackResolution::kHour, ChargebackResolution::kDay, ChargebackResolution::kMonth,
                          ChargebackResolution::kNone}) {
    EXPECT_TRUE(SumsOf(reader, Window(kT0, kT0), all, resolution).empty());
    EXPECT_TRUE(SumsOf(reader, Window(kT0 + absl::Hours(2), kT0 + absl::Hours(24)), all, resolution).empty());
  }
  auto backwards = reader.Lines(Window(kFeb, kT0), all, ChargebackResolution::kNone);
  EXPECT_EQ(backwards.status().code(), absl::StatusCode::kInvalidArgument);
}

inline void MaxLinesStopsOneLinePastTheBound(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  WriteFleet(writer);
  const auto all = GroupBy(true, true, true, true, true, true);
  ChargebackFilter f = Window(kT0, kFeb);
  const auto every = SumsOf(reader, f, all, ChargebackResolution::kHour);
  ASSERT_GT(every.size(), 3u);
  for (int64_t bound : {int64_t{1}, int64_t{2}, static_cast<int64_t>(every.size()) - 1}) {
    f.max_lines = bound;
    const auto bounded = SumsOf(reader, f, all, ChargebackResolution::kHour);
    // The first lines in the contract's order, one past the bound.
    EXPECT_EQ(bounded, std::vector<ChargebackSum>(every.begin(), every.begin() + bound + 1)) << bound;
  }
  f.max_lines = static_cast<int64_t>(every.size());
  EXPECT_EQ(SumsOf(reader, f, all, ChargebackResolution::kHour), every);
}

// RowsRead weighs a read before it runs: nothing for an empty window, a bad
// window refused like Lines refuses it. (How close the weight is to the rows
// is the implementation's: PostgreSQL's planner estimates it.)
inline void RowsReadWeighsAReadBeforeItRuns(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  WriteFleet(writer);
  const auto all = GroupBy(true, true, true, true, true, true);
  auto empty = reader.RowsRead(Window(kT0, kT0), all, ChargebackResolution::kHour);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(*empty, 0);
  auto month = reader.RowsRead(Window(kT0, kFeb), all, ChargebackResolution::kHour);
  ASSERT_TRUE(month.ok()) << month.status();
  EXPECT_GT(*month, 0);
  EXPECT_EQ(reader.RowsRead(Window(kFeb, kT0), all, ChargebackResolution::kNone).status().code(),
            absl::StatusCode::kInvalidArgument);
}

inline void SumsPastInt64AreAnError(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const int64_t half = INT64_MAX / 2 + 1;
  ChargebackLineRecord big = Line(kT0, "c1", "ml", "H100", 0);
  big.total_cost_micro = half;
  // One cluster's day would be past int64: its rollup cannot hold it.
  ChargebackLineRecord next = big;
  next.hour = kT0 + absl::Hours(1);
  auto refused = writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(2), {big, next}, {});
  EXPECT_EQ(refused.code(), absl::StatusCode::kOutOfRange) << refused;
  const auto all = GroupBy(true, true, true, true, true, true);
  EXPECT_TRUE(SumsOf(reader, Window(kT0, kT0 + absl::Hours(24)), all, ChargebackResolution::kHour).empty());
  // Two clusters that each hold their sums, summed together when read.
  ChargebackLineRecord other = big;
  other.cluster = "c2";
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), {big}, {}).ok());
  ASSERT_TRUE(writer.ReplaceHours("c2", kT0, kT0 + absl::Hours(1), {other}, {}).ok());
  for (auto resolution : {ChargebackResolution::kHour, ChargebackResolution::kNone}) {
    auto sums = reader.Lines(Window(kT0, kT0 + absl::Hours(24)), ChargebackGroupBy{}, resolution);
    EXPECT_EQ(sums.status().code(), absl::StatusCode::kOutOfRange) << sums.status();
  }
  EXPECT_EQ(SumsOf(reader, Window(kT0, kT0 + absl::Hours(24)), GroupBy(false, true, false, false, false, false),
                   ChargebackResolution::kNone)
                .size(),
            2u);
}

inline void ABadReplacementChangesNothing(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<ChargebackLineRecord> lines = WriteFleet(writer);
  const ChargebackFilter window = Window(kT0, kFeb + absl::Hours(24));
  const auto all = GroupBy(true, true, true, true, true, true);
  const absl::Time end = kT0 + absl::Hours(2);
  auto other_cluster = writer.ReplaceHours("c1", kT0, end, {Line(kT0, "c2", "ml", "T4", 5)}, {});
  EXPECT_EQ(other_cluster.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(other_cluster.message().find("cluster"), std::string::npos) << other_cluster;
  auto outside = writer.ReplaceHours("c1", kT0, end, {Line(end, "c1", "ml", "T4", 5)}, {});
  EXPECT_EQ(outside.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(outside.message().find("hour"), std::string::npos) << outside;
  auto twice =
      writer.ReplaceHours("c1", kT0, end, {Line(kT0, "c1", "ml", "T4", 5), Line(kT0, "c1", "ml", "T4", 6)}, {});
  EXPECT_EQ(twice.code(), absl::StatusCode::kInvalidArgument);
  auto kind = writer.ReplaceHours("c1", kT0, end, {Line(kT0, "c1", "ml", "T4", 5, "team")}, {});
  EXPECT_EQ(kind.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(kind.message().find("line_kind"), std::string::npos) << kind;
  EXPECT_EQ(writer.ReplaceHours("c1", kT0 + absl::Minutes(30), end, {}, {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SumsOf(reader, window, all, ChargebackResolution::kHour),
            Expected(lines, window, all, ChargebackResolution::kHour));
}

inline void OverHeldDevicesAreReplacedWithTheirHours(ChargebackWriteRepository& writer,
                                                     ChargebackReadRepository& reader) {
  const OverHeldRecord a{"c1", "GPU-0", kT0 + absl::Minutes(10), kT0 + absl::Minutes(70), 1500, {"uid-a", "uid-b"}};
  const OverHeldRecord b{"c1", "GPU-1", kT0 + absl::Hours(1), kT0 + absl::Hours(2), 2000, {"uid \"c\"", "uid,d"}};
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(2), {}, {b, a}).ok());
  ASSERT_TRUE(
      writer
          .ReplaceHours("c2", kT0, kT0 + absl::Hours(2), {}, {{"c2", "GPU-0", kT0, kT0 + absl::Hours(1), 1001, {"x"}}})
          .ok());
  auto read = reader.OverHeld("c1", kT0, kT0 + absl::Hours(24));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, (std::vector<OverHeldRecord>{a, b}));
  // The second hour computed again without it: only the first hour's stays.
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0 + absl::Hours(1), kT0 + absl::Hours(2), {}, {}).ok());
  read = reader.OverHeld("c1", kT0, kT0 + absl::Hours(24));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, std::vector<OverHeldRecord>{a});
  auto outside = writer.ReplaceHours("c1", kT0, kT0 + absl::Hours(1), {}, {b});
  EXPECT_EQ(outside.code(), absl::StatusCode::kInvalidArgument);
}

// A device held for `minutes` of `hour`, used and observed in proportion.
inline DeviceHourRecord Held(absl::Time hour, const std::string& cluster, const std::string& node,
                             const std::string& device, int64_t minutes, const std::string& model = "A100") {
  return {hour, cluster, model, node, device, minutes * 60'000, minutes * 21'000, minutes * 50'000};
}

// Three days of two clusters' devices: every device of c1's two nodes held
// some of each hour (a varying part), c2's one device every other hour, and
// c1's GPU-2 on node n2 moved to n3 on the second day.
inline std::vector<DeviceHourRecord> WriteDevices(ChargebackWriteRepository& writer) {
  std::map<std::string, ChargebackHours> by_cluster;
  for (int h = 0; h < 72; ++h) {
    const absl::Time hour = kT0 + absl::Hours(h);
    by_cluster["c1"].devices.push_back(Held(hour, "c1", "n1", "GPU-0", 1 + h % 60));
    by_cluster["c1"].devices.push_back(Held(hour, "c1", "n1", "GPU-1", 1 + (h * 7) % 60));
    by_cluster["c1"].devices.push_back(Held(hour, "c1", h < 30 ? "n2" : "n3", "GPU-2", 60, "H100"));
    if (h % 2 == 0) by_cluster["c2"].devices.push_back(Held(hour, "c2", "n1", "GPU-0", 30));
  }
  std::vector<DeviceHourRecord> all;
  for (const auto& [cluster, hours] : by_cluster) {
    EXPECT_TRUE(writer.ReplaceHours(cluster, kT0, kT0 + absl::Hours(72), hours).ok());
    all.insert(all.end(), hours.devices.begin(), hours.devices.end());
  }
  return all;
}

// What DevicesHeld must give for `filter` over `devices`, summed here.
inline std::vector<DeviceUseSum> ExpectedUse(const std::vector<DeviceHourRecord>& devices, const DeviceUseFilter& f) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, DeviceUseSum> sums;
  for (const DeviceHourRecord& d : devices) {
    if (d.hour < f.start || d.hour >= f.end || (!f.cluster.empty() && d.cluster != f.cluster) ||
        (!f.model.empty() && d.model != f.model) || (!f.node.empty() && d.node != f.node)) {
      continue;
    }
    const std::string device = f.by_device ? d.device_id : "";
    DeviceUseSum& s = sums[{d.cluster, d.model, d.node, device}];
    s.cluster = d.cluster;
    s.model = d.model;
    s.node = d.node;
    s.device_id = device;
    s.held_milli_seconds += d.held_milli_seconds;
    s.used_milli_seconds += d.used_milli_seconds;
    s.observed_milli_seconds += d.observed_milli_seconds;
  }
  std::vector<DeviceUseSum> out;
  for (auto& [key, s] : sums) out.push_back(std::move(s));
  return out;
}

// The sums DevicesHeld reads, every cluster kept (no history from before).
inline std::vector<DeviceUseSum> UseOf(const ChargebackReadRepository& reader, const DeviceUseFilter& filter) {
  auto read = reader.DevicesHeld(filter);
  EXPECT_TRUE(read.ok()) << read.status();
  if (!read.ok()) return {};
  EXPECT_TRUE(read->clusters_not_kept.empty());
  return read->sums;
}

inline void DevicesHeldAreSummedByNodeOrDeviceOverAnyWindow(ChargebackWriteRepository& writer,
                                                            ChargebackReadRepository& reader) {
  const std::vector<DeviceHourRecord> devices = WriteDevices(writer);
  // Whole days, ragged at either end or both, inside one day, one hour, none.
  const std::vector<std::pair<int, int>> windows = {{0, 72},  {0, 48}, {5, 72},  {5, 50},
                                                    {25, 47}, {3, 9},  {30, 31}, {40, 40}};
  for (const auto& [from, to] : windows) {
    for (const bool by_device : {false, true}) {
      for (const auto& [cluster, model, node] : std::vector<std::tuple<std::string, std::string, std::string>>{
               {"", "", ""}, {"c1", "", ""}, {"", "H100", ""}, {"c1", "", "n1"}, {"", "", "n1"}}) {
        DeviceUseFilter f{kT0 + absl::Hours(from), kT0 + absl::Hours(to), cluster, model, node, by_device};
        SCOPED_TRACE(
            absl::StrCat("[", from, ", ", to, ") ", cluster, "/", model, "/", node, by_device ? " device" : ""));
        EXPECT_EQ(UseOf(reader, f), ExpectedUse(devices, f));
      }
    }
  }
  const auto ragged = reader.DevicesHeld({kT0 + absl::Minutes(30), kT0 + absl::Hours(2), "", "", "", false});
  EXPECT_EQ(ragged.status().code(), absl::StatusCode::kInvalidArgument) << ragged.status();
  const auto backwards = reader.DevicesHeld({kT0 + absl::Hours(2), kT0, "", "", "", false});
  EXPECT_EQ(backwards.status().code(), absl::StatusCode::kInvalidArgument) << backwards.status();
}

inline void DevicesHeldAreReplacedWithTheirHours(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  std::vector<DeviceHourRecord> devices = WriteDevices(writer);
  // Hours 20..40 of c1 computed again: GPU-1 no longer held, GPU-0 all hour.
  ChargebackHours again;
  for (int h = 20; h < 40; ++h) {
    const absl::Time hour = kT0 + absl::Hours(h);
    again.devices.push_back(Held(hour, "c1", "n1", "GPU-0", 60));
    again.devices.push_back(Held(hour, "c1", h < 30 ? "n2" : "n3", "GPU-2", 60, "H100"));
  }
  ASSERT_TRUE(writer.ReplaceHours("c1", kT0 + absl::Hours(20), kT0 + absl::Hours(40), again).ok());
  devices.erase(std::remove_if(devices.begin(), devices.end(),
                               [](const DeviceHourRecord& d) {
                                 return d.cluster == "c1" && d.hour >= kT0 + absl::Hours(20) &&
                                        d.hour < kT0 + absl::Hours(40);
                               }),
                devices.end());
  devices.insert(devices.end(), again.devices.begin(), again.devices.end());
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 72}, {0, 24}, {24, 48}, {21, 39}}) {
    const DeviceUseFilter f{kT0 + absl::Hours(from), kT0 + absl::Hours(to), "", "", "", true};
    SCOPED_TRACE(absl::StrCat("[", from, ", ", to, ")"));
    EXPECT_EQ(UseOf(reader, f), ExpectedUse(devices, f));
  }
  // Lines alone (no device given) leave the hours with no device held.
  ASSERT_TRUE(writer.ReplaceHours("c2", kT0, kT0 + absl::Hours(24), {}, {}).ok());
  const DeviceUseFilter c2{kT0, kT0 + absl::Hours(72), "c2", "", "", true};
  devices.erase(
      std::remove_if(devices.begin(), devices.end(),
                     [](const DeviceHourRecord& d) { return d.cluster == "c2" && d.hour < kT0 + absl::Hours(24); }),
      devices.end());
  EXPECT_EQ(UseOf(reader, c2), ExpectedUse(devices, c2));
}

inline void ABadDeviceHeldChangesNothing(ChargebackWriteRepository& writer, ChargebackReadRepository& reader) {
  const std::vector<DeviceHourRecord> devices = WriteDevices(writer);
  const absl::Time end = kT0 + absl::Hours(2);
  DeviceHourRecord unheld = Held(kT0, "c1", "n1", "GPU-0", 1);
  unheld.held_milli_seconds = 0;
  unheld.observed_milli_seconds = 0;
  DeviceHourRecord over_observed = Held(kT0, "c1", "n1", "GPU-0", 1);
  over_observed.observed_milli_seconds = over_observed.held_milli_seconds + 1;
  DeviceHourRecord negative = Held(kT0, "c1", "n1", "GPU-0", 1);
  negative.used_milli_seconds = -1;
  for (const auto& [bad, field] : std::vector<std::pair<std::vector<DeviceHourRecord>, std::string>>{
           {{Held(kT0, "c2", "n1", "GPU-0", 5)}, "cluster"},
           {{Held(end, "c1", "n1", "GPU-0", 5)}, "hour"},
           {{Held(kT0, "c1", "n1", "GPU-0", 5), Held(kT0, "c1", "n2", "GPU-0", 6)}, "twice"},
           {{unheld}, "held"},
           {{over_observed}, "observed"},
           {{negative}, "used"}}) {
    const absl::Status status = writer.ReplaceHours("c1", kT0, end, ChargebackHours{{}, {}, bad});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_NE(status.message().find(field), std::string::npos) << status;
  }
  const DeviceUseFilter all{kT0, kT0 + absl::Hours(72), "", "", "", true};
  EXPECT_EQ(UseOf(reader, all), ExpectedUse(devices, all));
}

inline void TheWatermarkNeverGoesBackwards(ChargebackWriteRepository& writer) {
  auto none = writer.Watermark("c1");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
  ASSERT_TRUE(writer.AdvanceWatermark("c1", kT0 + absl::Hours(5)).ok());
  ASSERT_TRUE(writer.AdvanceWatermark("c1", kT0 + absl::Hours(2)).ok());  // a recomputation behind it
  ASSERT_TRUE(writer.AdvanceWatermark("c2", kT0).ok());
  EXPECT_EQ(writer.Watermark("c1")->value_or(absl::InfinitePast()), kT0 + absl::Hours(5));
  ASSERT_TRUE(writer.AdvanceWatermark("c1", kT0 + absl::Hours(6)).ok());
  EXPECT_EQ(writer.Watermark("c1")->value_or(absl::InfinitePast()), kT0 + absl::Hours(6));
  EXPECT_EQ(writer.Watermark("c2")->value_or(absl::InfinitePast()), kT0);
  EXPECT_EQ(writer.AdvanceWatermark("c1", kT0 + absl::Hours(9) + absl::Seconds(1)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(writer.Watermark("c1")->value_or(absl::InfinitePast()), kT0 + absl::Hours(6));
}

// The hours of `marks`.
inline std::vector<absl::Time> HoursOf(const std::vector<RecomputeMark>& marks) {
  std::vector<absl::Time> hours;
  for (const RecomputeMark& m : marks) hours.push_back(m.hour);
  return hours;
}

// The hours of `cluster` any lease at `now` gets: those still stored and not leased then.
inline std::vector<absl::Time> Pending(ChargebackWriteRepository& writer, const std::string& cluster, absl::Time now) {
  auto leased = writer.LeaseRecompute(cluster, 100, "observer", now, absl::Seconds(1));
  EXPECT_TRUE(leased.ok()) << leased.status();
  return leased.ok() ? HoursOf(*leased) : std::vector<absl::Time>{};
}

inline void RecomputeMarksAreLeasedToOneHolderUntilTheLeaseEnds(ChargebackWriteRepository& writer) {
  const absl::Time h1 = kT0 + absl::Hours(1), h2 = kT0 + absl::Hours(2), h3 = kT0 + absl::Hours(3);
  const absl::Time now = kT0 + absl::Hours(10);
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h3, h1}, "late telemetry").ok());
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h1, h2}, "new price").ok());
  ASSERT_TRUE(writer.MarkForRecompute("c2", {h1}, "new policy").ok());
  EXPECT_EQ(writer.MarkForRecompute("c1", {h1 + absl::Minutes(1)}, "x").code(), absl::StatusCode::kInvalidArgument);
  auto first = writer.LeaseRecompute("c1", 2, "a", now, absl::Minutes(5));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0].hour, h1);
  EXPECT_EQ((*first)[0].reason, "late telemetry");  // marked first
  EXPECT_EQ((*first)[1].hour, h2);
  EXPECT_EQ((*first)[1].reason, "new price");
  // Another holder gets the rest, and nothing before the lease ends.
  auto rest = writer.LeaseRecompute("c1", 10, "b", now + absl::Minutes(1), absl::Minutes(5));
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(HoursOf(*rest), std::vector<absl::Time>{h3});
  EXPECT_TRUE(writer.LeaseRecompute("c1", 10, "b", now + absl::Minutes(4), absl::Minutes(5))->empty());
  // Holder a died: at the end of its lease its marks are leased again.
  auto again = writer.LeaseRecompute("c1", 10, "b", now + absl::Minutes(5), absl::Minutes(5));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(HoursOf(*again), (std::vector<absl::Time>{h1, h2}));
  EXPECT_EQ((*again)[0].reason, "late telemetry");
  EXPECT_NE((*again)[0].lease, (*first)[0].lease);
  // Other clusters' marks are their own.
  EXPECT_EQ(Pending(writer, "c2", now), std::vector<absl::Time>{h1});
}

inline void ACompletedMarkIsGoneAndOneMarkedAgainDuringItsLeaseIsPending(ChargebackWriteRepository& writer) {
  const absl::Time h1 = kT0 + absl::Hours(1), h2 = kT0 + absl::Hours(2);
  const absl::Time now = kT0 + absl::Hours(10);
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h1, h2}, "late telemetry").ok());
  auto leased = writer.LeaseRecompute("c1", 10, "a", now, absl::Minutes(5));
  ASSERT_TRUE(leased.ok()) << leased.status();
  ASSERT_EQ(leased->size(), 2u);
  // The facts of h2 change while a recomputes it from what it read before.
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h2}, "corrected inventory").ok());
  ASSERT_TRUE(writer.CompleteRecompute("c1", *leased).ok());
  // h1 is gone; h2 is pending at once, before a's lease would have ended.
  EXPECT_EQ(Pending(writer, "c1", now + absl::Minutes(1)), std::vector<absl::Time>{h2});
}

inline void AStaleHolderNeitherCompletesNorReleasesAMarkLeasedAgain(ChargebackWriteRepository& writer) {
  const absl::Time h1 = kT0 + absl::Hours(1);
  const absl::Time now = kT0 + absl::Hours(10);
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h1}, "late telemetry").ok());
  auto stale = writer.LeaseRecompute("c1", 10, "a", now, absl::Minutes(1));
  ASSERT_TRUE(stale.ok()) << stale.status();
  ASSERT_EQ(stale->size(), 1u);
  // a's lease ran out; b leases h1 and is recomputing it when a comes back.
  auto current = writer.LeaseRecompute("c1", 10, "b", now + absl::Minutes(2), absl::Minutes(5));
  ASSERT_TRUE(current.ok()) << current.status();
  ASSERT_EQ(current->size(), 1u);
  ASSERT_TRUE(writer.CompleteRecompute("c1", *stale).ok());
  ASSERT_TRUE(writer.ReleaseRecompute("c1", *stale).ok());
  EXPECT_TRUE(Pending(writer, "c1", now + absl::Minutes(3)).empty());                     // still b's
  EXPECT_EQ(Pending(writer, "c1", now + absl::Minutes(7)), std::vector<absl::Time>{h1});  // and not removed
}

inline void AReleasedMarkIsPendingAgainAtOnce(ChargebackWriteRepository& writer) {
  const absl::Time h1 = kT0 + absl::Hours(1), h2 = kT0 + absl::Hours(2);
  const absl::Time now = kT0 + absl::Hours(10);
  ASSERT_TRUE(writer.MarkForRecompute("c1", {h1, h2}, "late telemetry").ok());
  auto leased = writer.LeaseRecompute("c1", 10, "a", now, absl::Minutes(5));
  ASSERT_TRUE(leased.ok()) << leased.status();
  ASSERT_EQ(leased->size(), 2u);
  ASSERT_TRUE(writer.ReleaseRecompute("c1", {(*leased)[1]}).ok());
  EXPECT_EQ(Pending(writer, "c1", now), std::vector<absl::Time>{h2});
}

inline void ALeaseNamesItsBadArgument(ChargebackWriteRepository& writer) {
  const absl::Time now = kT0 + absl::Hours(10);
  auto negative = writer.LeaseRecompute("c1", -1, "a", now, absl::Minutes(5));
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(negative.status().message().find("limit: -1"), std::string::npos) << negative.status();
  auto nobody = writer.LeaseRecompute("c1", 10, "", now, absl::Minutes(5));
  EXPECT_EQ(nobody.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(nobody.status().message().find("holder: empty"), std::string::npos) << nobody.status();
  auto zero = writer.LeaseRecompute("c1", 10, "a", now, absl::ZeroDuration());
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(zero.status().message().find("lease: 0 must be longer than zero"), std::string::npos) << zero.status();
}

}  // namespace fleetcap::store::chargeback_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `writer()`
// and `reader()` are fresh repositories over one store per test.
#define FLEETCAP_CHARGEBACK_CONTRACT_TESTS(Fixture)                                                                 \
  TEST_F(Fixture, ReplacingAnHourTwiceLeavesOneCopy) {                                                              \
    ::fleetcap::store::chargeback_contract::ReplacingAnHourTwiceLeavesOneCopy(writer(), reader());                  \
  }                                                                                                                 \
  TEST_F(Fixture, RollupsEqualTheSumOfHoursAfterReplacements) {                                                     \
    ::fleetcap::store::chargeback_contract::RollupsEqualTheSumOfHoursAfterReplacements(writer(), reader());         \
  }                                                                                                                 \
  TEST_F(Fixture, EveryGroupingAndResolution) {                                                                     \
    ::fleetcap::store::chargeback_contract::EveryGroupingAndResolution(writer(), reader());                         \
  }                                                                                                                 \
  TEST_F(Fixture, DeviceTimeOnlySumsHeldAndUsedAlone) {                                                             \
    ::fleetcap::store::chargeback_contract::DeviceTimeOnlySumsHeldAndUsedAlone(writer(), reader());                 \
  }                                                                                                                 \
  TEST_F(Fixture, FiltersSelectTheLines) {                                                                          \
    ::fleetcap::store::chargeback_contract::FiltersSelectTheLines(writer(), reader());                              \
  }                                                                                                                 \
  TEST_F(Fixture, ReadsWithoutNamespaceOrWorkloadAfterReplacementsAndFilters) {                                     \
    ::fleetcap::store::chargeback_contract::ReadsWithoutNamespaceOrWorkloadAfterReplacementsAndFilters(writer(),    \
                                                                                                       reader());   \
  }                                                                                                                 \
  TEST_F(Fixture, AnEmptyWindowHasNoLines) {                                                                        \
    ::fleetcap::store::chargeback_contract::AnEmptyWindowHasNoLines(writer(), reader());                            \
  }                                                                                                                 \
  TEST_F(Fixture, MaxLinesStopsOneLinePastTheBound) {                                                               \
    ::fleetcap::store::chargeback_contract::MaxLinesStopsOneLinePastTheBound(writer(), reader());                   \
  }                                                                                                                 \
  TEST_F(Fixture, RowsReadWeighsAReadBeforeItRuns) {                                                                \
    ::fleetcap::store::chargeback_contract::RowsReadWeighsAReadBeforeItRuns(writer(), reader());                    \
  }                                                                                                                 \
  TEST_F(Fixture, SumsPastInt64AreAnError) {                                                                        \
    ::fleetcap::store::chargeback_contract::SumsPastInt64AreAnError(writer(), reader());                            \
  }                                                                                                                 \
  TEST_F(Fixture, ABadReplacementChangesNothing) {                                                                  \
    ::fleetcap::store::chargeback_contract::ABadReplacementChangesNothing(writer(), reader());                      \
  }                                                                                                                 \
  TEST_F(Fixture, OverHeldDevicesAreReplacedWithTheirHours) {                                                       \
    ::fleetcap::store::chargeback_contract::OverHeldDevicesAreReplacedWithTheirHours(writer(), reader());           \
  }                                                                                                                 \
  TEST_F(Fixture, DevicesHeldAreSummedByNodeOrDeviceOverAnyWindow) {                                                \
    ::fleetcap::store::chargeback_contract::DevicesHeldAreSummedByNodeOrDeviceOverAnyWindow(writer(), reader());    \
  }                                                                                                                 \
  TEST_F(Fixture, DevicesHeldAreReplacedWithTheirHours) {                                                           \
    ::fleetcap::store::chargeback_contract::DevicesHeldAreReplacedWithTheirHours(writer(), reader());               \
  }                                                                                                                 \
  TEST_F(Fixture, ABadDeviceHeldChangesNothing) {                                                                   \
    ::fleetcap::store::chargeback_contract::ABadDeviceHeldChangesNothing(writer(), reader());                       \
  }                                                                                                                 \
  TEST_F(Fixture, TheWatermarkNeverGoesBackwards) {                                                                 \
    ::fleetcap::store::chargeback_contract::TheWatermarkNeverGoesBackwards(writer());                               \
  }                                                                                                                 \
  TEST_F(Fixture, RecomputeMarksAreLeasedToOneHolderUntilTheLeaseEnds) {                                            \
    ::fleetcap::store::chargeback_contract::RecomputeMarksAreLeasedToOneHolderUntilTheLeaseEnds(writer());          \
  }                                                                                                                 \
  TEST_F(Fixture, ACompletedMarkIsGoneAndOneMarkedAgainDuringItsLeaseIsPending) {                                   \
    ::fleetcap::store::chargeback_contract::ACompletedMarkIsGoneAndOneMarkedAgainDuringItsLeaseIsPending(writer()); \
  }                                                                                                                 \
  TEST_F(Fixture, AStaleHolderNeitherCompletesNorReleasesAMarkLeasedAgain) {                                        \
    ::fleetcap::store::chargeback_contract::AStaleHolderNeitherCompletesNorReleasesAMarkLeasedAgain(writer());      \
  }                                                                                                                 \
  TEST_F(Fixture, AReleasedMarkIsPendingAgainAtOnce) {                                                              \
    ::fleetcap::store::chargeback_contract::AReleasedMarkIsPendingAgainAtOnce(writer());                            \
  }                                                                                                                 \
  TEST_F(Fixture, ALeaseNamesItsBadArgument) {                                                                      \
    ::fleetcap::store::chargeback_contract::ALeaseNamesItsBadArgument(writer());                                    \
  }
