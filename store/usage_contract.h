#pragma once
// The behaviour every pair of usage repositories (UsageWriteRepository and
// UsageReadRepository) promises, as test steps shared by the in-memory
// fake's unit test and the PostgreSQL integration test.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "store/live_inventory_repository.h"
#include "store/usage_repository.h"

namespace fleetcap::store::usage_contract {

constexpr int64_t kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
constexpr int64_t kMinute = 60'000;
constexpr int64_t kHour = 3'600'000;
constexpr int64_t kDay = 86'400'000;

// The repositories' clock: the fixed dates here stay inside their retention.
inline UsageStoreOptions AtT0() {
  static const SimulatedClock clock(absl::FromUnixMillis(kT0));
  UsageStoreOptions options;
  options.clock = &clock;
  return options;
}

inline UsageMinuteRow Row(const std::string& device, int64_t minute_ms, double util, int samples = 6) {
  UsageMinuteRow r;
  r.device_id = device;
  r.minute_ms = minute_ms;
  r.node = "node-1";
  r.model = "H100";
  r.util_mean = util;
  r.util_max = util + 0.1;
  r.memory_used_bytes = 1000;
  r.power_watts = 200;
  r.samples = samples;
  return r;
}

inline UsageMinuteRow PodRow(const std::string& device, const std::string& pod_uid, const std::string& pod,
                             int64_t minute_ms, double util) {
  UsageMinuteRow r = Row(device, minute_ms, util);
  r.pod_uid = pod_uid;
  r.namespace_ = "ml";
  r.pod = pod;
  return r;
}

inline UsageFilter Window(int64_t from_ms, int64_t to_ms, bool pods = false) {
  UsageFilter f;
  f.cluster = "c1";
  f.start = absl::FromUnixMillis(from_ms);
  f.end = absl::FromUnixMillis(to_ms);
  f.pods = pods;
  return f;
}

inline std::vector<UsageMinuteRow> MinutesOf(const UsageReadRepository& reader, const UsageFilter& filter) {
  auto rows = reader.Minutes(filter);
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? *rows : std::vector<UsageMinuteRow>{};
}

inline void RowsReadBackAsWritten(UsageWriteRepository& writer, UsageReadRepository& reader) {
  UsageMinuteRow full = Row("GPU-0", kT0, 0.5);
  full.memory_total_bytes = 8000;
  full.energy_joules = 1500.5;
  full.sm_active_mean = 0.25;
  full.tensor_active_mean = 0.125;
  full.dram_active_mean = 0.0625;
  UsageMinuteRow sparse = Row("GPU-0", kT0 + kMinute, 0.5);
  sparse.util_mean.reset();
  sparse.power_watts.reset();
  const UsageMinuteRow pod = PodRow("GPU-0", "uid-a", "train-0", kT0, 0.5);
  auto written = writer.WriteMinutes("c1", {full, sparse, pod, Row("GPU-1", kT0 + 2 * kMinute, 0.9)}, "pull");
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->written, 4);
  EXPECT_TRUE(written->set_aside.empty());
  ASSERT_TRUE(writer.WriteMinutes("c2", {Row("GPU-0", kT0, 0.1)}, "pull").ok());

  EXPECT_EQ(MinutesOf(reader, Window(kT0, kT0 + kHour)),
            (std::vector<UsageMinuteRow>{full, sparse, Row("GPU-1", kT0 + 2 * kMinute, 0.9)}));
  EXPECT_EQ(MinutesOf(reader, Window(kT0, kT0 + kHour, true)), std::vector<UsageMinuteRow>{pod});
  // Half-open: the end minute is out, the start minute in.
  EXPECT_EQ(MinutesOf(reader, Window(kT0 + kMinute, kT0 + 2 * kMinute)), std::vector<UsageMinuteRow>{sparse});
  UsageFilter other = Window(kT0, kT0 + kHour);
  other.cluster = "c3";
  EXPECT_TRUE(MinutesOf(reader, other).empty());
}

inline void PodMinutesAreThoseOfTheDevicesAndPodsGiven(UsageWriteRepository& writer, UsageReadRepository& reader) {
  const UsageMinuteRow a0 = PodRow("GPU-0", "uid-a", "a", kT0, 0.1), a1 = PodRow("GPU-1", "uid-a", "a", kT0, 0.2),
                       b0 = PodRow("GPU-0", "uid-b", "b", kT0 + kMinute, 0.3),
                       c2 = PodRow("GPU-2", "uid-c", "c", kT0, 0.4),
                       late = PodRow("GPU-0", "uid-a", "a", kT0 + kHour, 0.5);
  ASSERT_TRUE(writer.WriteMinutes("c1", {late, c2, b0, a1, a0, Row("GPU-0", kT0, 0.9)}, "pull").ok());
  ASSERT_TRUE(writer.WriteMinutes("c2", {PodRow("GPU-0", "uid-a", "a", kT0, 0.1)}, "pull").ok());
  auto read = [&](std::vector<std::string> devices, std::vector<std::string> pods) {
    auto rows = reader.PodMinutes(
        {"c1", absl::FromUnixMillis(kT0), absl::FromUnixMillis(kT0 + kHour), std::move(devices), std::move(pods)});
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : std::vector<UsageMinuteRow>{};
  };
  // By (device, pod, minute); never the device's own row nor the minute at the end.
  EXPECT_EQ(read({"GPU-1", "GPU-0"}, {"uid-b", "uid-a"}), (std::vector<UsageMinuteRow>{a0, b0, a1}));
  EXPECT_EQ(read({"GPU-0"}, {"uid-a", "uid-c"}), std::vector<UsageMinuteRow>{a0});
  EXPECT_EQ(read({"GPU-2", "it's \\ odd"}, {"uid-c"}), std::vector<UsageMinuteRow>{c2});
  EXPECT_TRUE(read({}, {"uid-a"}).empty());
  EXPECT_TRUE(read({"GPU-0"}, {}).empty());
}

inline void ARowWrittenAgainIsReplaced(UsageWriteRepository& writer, UsageReadRepository& reader) {
  ASSERT_TRUE(writer.WriteMinutes("c1", {Row("GPU-0", kT0, 0.5), Row("GPU-1", kT0, 0.5)}, "pull").ok());
  UsageMinuteRow again = Row("GPU-0", kT0, 0.75, 12);
  again.memory_used_bytes.reset();
  auto written = writer.WriteMinutes("c1", {again}, "remote_write");
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->written, 1);
  EXPECT_EQ(MinutesOf(reader, Window(kT0, kT0 + kMinute)),
            (std::vector<UsageMinuteRow>{again, Row("GPU-1", kT0, 0.5)}));
}

inline void RowsNoPartitionHoldsOrTheStoreRefusesAreSetAside(UsageWriteRepository& writer,
                                                             UsageReadRepository& reader) {
  const int64_t far = int64_t{9'400'000'000'000'000};
  const int64_t old = kT0 - int64_t{401} * kDay;
  auto written = writer.WriteMinutes("c1",
                                     {Row("GPU-0", kT0, 0.5), Row("GPU-far", far, 0.5), Row("GPU-old", old, 0.5),
                                      Row("GPU-bad", kT0, 0.5, 0), Row("GPU-odd", kT0 + 1500, 0.5)},
                                     "pull");
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->written, 1);
  ASSERT_EQ(written->set_aside.size(), 4u);
  std::map<std::string, QuarantineRecord> by_label;
  for (const auto& s : written->set_aside) by_label[s.label] = s.record;
  ASSERT_EQ(by_label.count("minute_out_of_range"), 1u);
  ASSERT_EQ(by_label.count("minute_before_retention"), 1u);
  ASSERT_EQ(by_label.count("rejected_by_store"), 1u);
  ASSERT_EQ(by_label.count("minute_not_whole"), 1u);
  EXPECT_NE(by_label["minute_not_whole"].reason.find("1767225601500 ms since the epoch is not a whole minute"),
            std::string::npos)
      << by_label["minute_not_whole"].reason;
  EXPECT_EQ(by_label["minute_out_of_range"].object_key.rfind("device GPU-far minute ", 0), 0u);
  EXPECT_NE(by_label["minute_out_of_range"].reason.find("is past 9999-12-31"), std::string::npos);
  EXPECT_NE(by_label["minute_before_retention"].reason.find(
                "minute: 2024-11-26T00:00:00Z is before the retention horizon of 400 days"),
            std::string::npos)
      << by_label["minute_before_retention"].reason;
  EXPECT_EQ(by_label["rejected_by_store"].object_key, "device GPU-bad minute 2026-01-01T00:00:00Z");
  EXPECT_NE(by_label["rejected_by_store"].reason.find("refused by the store"), std::string::npos);
  for (const auto& [label, record] : by_label) {
    EXPECT_EQ(record.source, "pull");
    EXPECT_EQ(record.cluster, "c1");
  }
  EXPECT_EQ(MinutesOf(reader, Window(kT0 - kDay, kT0 + kDay)), std::vector<UsageMinuteRow>{Row("GPU-0", kT0, 0.5)});
}

inline void ClosedMinutesAndTheirProgressReadBack(UsageWriteRepository& writer, UsageReadRepository& reader) {
  auto empty = writer.LoadPushState("c1");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_FALSE(empty->checkpoint.has_value());
  EXPECT_TRUE(empty->devices.empty());

  PushProgress progress;
  progress.devices = {{"GPU-0", kT0 + 3 * kMinute}, {"GPU-1", kT0 + 3 * kMinute}};
  progress.carried = {{"GPU-0", "", "", "energy", kT0 + 2 * kMinute + 50'000, 1234.5},
                      {"GPU-1", "ml", "train-1", "energy", kT0 + 2 * kMinute + 40'000, 99}};
  progress.counter_lookback_ms = 2 * kMinute;
  progress.log_id = "log-a";
  progress.checkpoint = 7;
  auto written = writer.WriteClosedMinutes(
      "c1", {Row("GPU-0", kT0, 0.5), Row("GPU-far", INT64_C(9'400'000'000'000'000), 1)}, progress);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->written, 1);
  ASSERT_EQ(written->set_aside.size(), 1u);
  EXPECT_EQ(written->set_aside[0].record.source, "remote_write");
  EXPECT_EQ(MinutesOf(reader, Window(kT0, kT0 + kHour)).size(), 1u);

  auto state = writer.LoadPushState("c1");
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ(state->log_id, "log-a");
  EXPECT_EQ(state->checkpoint, 7);
  ASSERT_EQ(state->devices.size(), 2u);
  std::sort(state->devices.begin(), state->devices.end(),
            [](const auto& a, const auto& b) { return a.device_id < b.device_id; });
  EXPECT_EQ(state->devices[1].device_id, "GPU-1");
  EXPECT_EQ(state->devices[1].closed_through_ms, kT0 + 3 * kMinute);
  ASSERT_EQ(state->carried.size(), 2u);
  std::sort(state->carried.begin(), state->carried.end(),
            [](const auto& a, const auto& b) { return a.device_id < b.device_id; });
  EXPECT_EQ(state->carried[0].value, 1234.5);
  EXPECT_EQ(state->carried[1].pod, "train-1");
  EXPECT_EQ(state->carried[1].field, "energy");

  // GPU-1's counter is not carried again and falls behind the lookback: forgotten.
  progress.devices = {{"GPU-0", kT0 + 10 * kMinute}, {"GPU-1", kT0 + 10 * kMinute}};
  progress.carried = {{"GPU-0", "", "", "energy", kT0 + 9 * kMinute, 2000}};
  progress.checkpoint = 9;
  ASSERT_TRUE(writer.WriteClosedMinutes("c1", {}, progress).ok());
  // A batch that closes no device moves only the checkpoint.
  PushProgress checkpoint_only;
  checkpoint_only.log_id = "log-b";
  checkpoint_only.checkpoint = 11;
  ASSERT_TRUE(writer.WriteClosedMinutes("c1", {}, checkpoint_only).ok());
  state = writer.LoadPushState("c1");
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ(state->log_id, "log-b");
  EXPECT_EQ(state->checkpoint, 11);
  EXPECT_EQ(state->devices.size(), 2u);
  ASSERT_EQ(state->carried.size(), 1u);
  EXPECT_EQ(state->carried[0].ts_ms, kT0 + 9 * kMinute);
  EXPECT_FALSE(writer.LoadPushState("c2")->checkpoint.has_value());
}

inline void SeriesJoinTheInventoryOnceWhenFirstSeen(UsageWriteRepository& writer, LiveInventoryRepository& inventory) {
  const absl::Time t0 = absl::FromUnixMillis(kT0);
  InventoryChanges c;
  c.cluster = "c1";
  c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  c.nodes = {{{"node-7", "", 0, 0, t0, std::nullopt}, ""}};
  c.devices = {{"GPU-7", "node-7", 0, "H100", t0, std::nullopt}};
  c.pods = {{{"uid-old", "ml", "train", "", "Pod", "train", "Succeeded", t0, t0, std::nullopt, 1000, false}, "node-7"},
            {{"uid-new", "ml", "train", "", "Pod", "train", "Running", t0 + absl::Minutes(5), t0 + absl::Minutes(5),
              std::nullopt, 1000, false},
             "node-7"}};
  ASSERT_TRUE(inventory.Apply(c).ok());

  const std::vector<SeriesName> series = {{"GPU-7", "ml", "train", "util", "", ""},
                                          {"GPU-7", "", "", "power", "", ""},
                                          {"GPU-8", "ml", "unknown", "util", "node-x", "T4"},
                                          {"GPU-7", "ml", "train", "util", "", ""}};
  auto ids = writer.IdentifySeries("c1", series);
  ASSERT_TRUE(ids.ok()) << ids.status();
  ASSERT_EQ(ids->size(), 4u);
  EXPECT_EQ((*ids)[0].pod_uid, "uid-new");  // the newest pod of that name
  EXPECT_EQ((*ids)[0].node, "node-7");
  EXPECT_EQ((*ids)[0].model, "H100");
  EXPECT_EQ((*ids)[1].pod_uid, "");
  EXPECT_EQ((*ids)[1].node, "node-7");
  EXPECT_EQ((*ids)[2].pod_uid, "ml/unknown");  // a pod the inventory does not know
  EXPECT_EQ((*ids)[2].node, "node-x");         // labelled by the exporter
  EXPECT_EQ((*ids)[2].model, "T4");
  EXPECT_EQ((*ids)[3].pod_uid, "uid-new");

  // Once joined, a series keeps its identity, whatever the exporter says later.
  auto again = writer.IdentifySeries("c1", {{"GPU-8", "ml", "unknown", "util", "node-y", "A100"}});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)[0].node, "node-x");
  EXPECT_EQ((*again)[0].model, "T4");
  auto none = writer.IdentifySeries("c1", {});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
}

inline void WatermarksNeverMoveBackwards(UsageWriteRepository& writer) {
  auto none = writer.Watermarks("c1");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  const absl::Time t0 = absl::FromUnixMillis(kT0);
  ASSERT_TRUE(writer.AdvanceWatermarks("c1", {"a", "b"}, t0 + absl::Minutes(10)).ok());
  ASSERT_TRUE(writer.AdvanceWatermarks("c1", {"a"}, t0 + absl::Minutes(5)).ok());  // a backfill behind it
  ASSERT_TRUE(writer.AdvanceWatermarks("c1", {"b"}, t0 + absl::Minutes(20)).ok());
  auto marks = writer.Watermarks("c1");
  ASSERT_TRUE(marks.ok()) << marks.status();
  EXPECT_EQ(*marks, (std::map<std::string, absl::Time>{{"a", t0 + absl::Minutes(10)}, {"b", t0 + absl::Minutes(20)}}));
  EXPECT_TRUE(writer.Watermarks("c2")->empty());
}

// Two devices over two hours and a day; GPU-1 on node-2 is an A100; a pod on each.
inline void WriteTwoHours(UsageWriteRepository& writer) {
  std::vector<UsageMinuteRow> rows;
  for (int m = 0; m < 120; m += 30) {
    rows.push_back(Row("GPU-0", kT0 + m * kMinute, 0.2, 6));
    UsageMinuteRow other = Row("GPU-1", kT0 + m * kMinute, 0.8, 2);
    other.node = "node-2";
    other.model = "A100";
    other.util_max = 0.95;
    other.memory_used_bytes = 3000;
    other.power_watts = 300;
    rows.push_back(other);
    rows.push_back(PodRow("GPU-0", "uid-a", "train-0", kT0 + m * kMinute, 0.2));
    UsageMinuteRow pod = PodRow("GPU-1", "uid-b", "train-1", kT0 + m * kMinute, 0.8);
    pod.namespace_ = "web";
    rows.push_back(pod);
  }
  UsageMinuteRow no_util = Row("GPU-0", kT0 + kDay, 0.5);
  no_util.util_mean.reset();
  no_util.util_max.reset();
  rows.push_back(no_util);
  ASSERT_TRUE(writer.WriteMinutes("c1", rows, "pull").ok());
}

inline std::vector<UsageBucket> BucketsOf(const UsageReadRepository& reader, const UsageFilter& filter,
                                          BucketWidth width) {
  auto buckets = reader.Buckets(filter, width);
  EXPECT_TRUE(buckets.ok()) << buckets.status();
  return buckets.ok() ? *buckets : std::vector<UsageBucket>{};
}

inline void BucketsAggregateTheRowsAFilterSelects(UsageWriteRepository& writer, UsageReadRepository& reader) {
  WriteTwoHours(writer);
  auto hours = BucketsOf(reader, Window(kT0, kT0 + 2 * kDay), BucketWidth::kHour);
  ASSERT_EQ(hours.size(), 3u);
  EXPECT_EQ(hours[0].start, absl::FromUnixMillis(kT0));
  EXPECT_EQ(hours[1].start, absl::FromUnixMillis(kT0 + kHour));
  EXPECT_EQ(hours[2].start, absl::FromUnixMillis(kT0 + kDay));  // hours without rows are left out
  // util_mean weighted by samples: (0.2 * 6 + 0.8 * 2) / 8 per minute.
  ASSERT_TRUE(hours[0].util_mean.has_value());
  EXPECT_NEAR(*hours[0].util_mean, 0.35, 1e-12);
  EXPECT_NEAR(hours[0].util_max.value_or(0), 0.95, 1e-12);
  EXPECT_NEAR(hours[0].memory_used_bytes.value_or(0), 2000, 1e-9);
  EXPECT_NEAR(hours[0].power_watts.value_or(0), 250, 1e-9);
  EXPECT_EQ(hours[0].samples, 16);
  EXPECT_EQ(hours[0].series, 2);
  // A bucket whose rows have no utilisation has none, nor samples.
  EXPECT_FALSE(hours[2].util_mean.has_value());
  EXPECT_FALSE(hours[2].util_max.has_value());
  EXPECT_FALSE(hours[2].samples.has_value());
  EXPECT_EQ(hours[2].series, 1);

  auto days = BucketsOf(reader, Window(kT0, kT0 + 2 * kDay), BucketWidth::kDay);
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days[0].samples, 32);
  auto minutes = BucketsOf(reader, Window(kT0, kT0 + kHour), BucketWidth::kMinute);
  ASSERT_EQ(minutes.size(), 2u);
  EXPECT_EQ(minutes[1].start, absl::FromUnixMillis(kT0 + 30 * kMinute));

  UsageFilter by = Window(kT0, kT0 + kHour);
  by.model = "A100";
  auto a100 = BucketsOf(reader, by, BucketWidth::kHour);
  ASSERT_EQ(a100.size(), 1u);
  EXPECT_NEAR(a100[0].util_mean.value_or(0), 0.8, 1e-12);
  EXPECT_EQ(a100[0].series, 1);
  by = Window(kT0, kT0 + kHour);
  by.node = "node-1";
  EXPECT_NEAR(BucketsOf(reader, by, BucketWidth::kHour).at(0).util_mean.value_or(0), 0.2, 1e-12);
  by = Window(kT0, kT0 + kHour);
  by.device = "GPU-1";
  EXPECT_EQ(BucketsOf(reader, by, BucketWidth::kHour).at(0).samples, 4);
  by.device = "GPU-9";
  EXPECT_TRUE(BucketsOf(reader, by, BucketWidth::kHour).empty());

  // Pods' shares: by name or uid, and by namespace.
  by = Window(kT0, kT0 + kHour, true);
  EXPECT_EQ(BucketsOf(reader, by, BucketWidth::kHour).at(0).series, 2);
  by.pod = "train-1";
  EXPECT_NEAR(BucketsOf(reader, by, BucketWidth::kHour).at(0).util_mean.value_or(0), 0.8, 1e-12);
  by.pod = "uid-a";
  EXPECT_NEAR(BucketsOf(reader, by, BucketWidth::kHour).at(0).util_mean.value_or(0), 0.2, 1e-12);
  by.pod.clear();
  by.namespace_ = "web";
  auto web = BucketsOf(reader, by, BucketWidth::kHour);
  ASSERT_EQ(web.size(), 1u);
  EXPECT_EQ(web[0].series, 1);
  EXPECT_NEAR(web[0].util_mean.value_or(0), 0.8, 1e-12);
}

}  // namespace fleetcap::store::usage_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `writer()`,
// `reader()` and `inventory()` are fresh repositories over one store per test,
// made with usage_contract::AtT0()'s options.
#define FLEETCAP_USAGE_CONTRACT_TESTS(Fixture)                                                               \
  TEST_F(Fixture, RowsReadBackAsWritten) {                                                                   \
    ::fleetcap::store::usage_contract::RowsReadBackAsWritten(writer(), reader());                            \
  }                                                                                                          \
  TEST_F(Fixture, PodMinutesAreThoseOfTheDevicesAndPodsGiven) {                                              \
    ::fleetcap::store::usage_contract::PodMinutesAreThoseOfTheDevicesAndPodsGiven(writer(), reader());       \
  }                                                                                                          \
  TEST_F(Fixture, ARowWrittenAgainIsReplaced) {                                                              \
    ::fleetcap::store::usage_contract::ARowWrittenAgainIsReplaced(writer(), reader());                       \
  }                                                                                                          \
  TEST_F(Fixture, RowsNoPartitionHoldsOrTheStoreRefusesAreSetAside) {                                        \
    ::fleetcap::store::usage_contract::RowsNoPartitionHoldsOrTheStoreRefusesAreSetAside(writer(), reader()); \
  }                                                                                                          \
  TEST_F(Fixture, ClosedMinutesAndTheirProgressReadBack) {                                                   \
    ::fleetcap::store::usage_contract::ClosedMinutesAndTheirProgressReadBack(writer(), reader());            \
  }                                                                                                          \
  TEST_F(Fixture, SeriesJoinTheInventoryOnceWhenFirstSeen) {                                                 \
    ::fleetcap::store::usage_contract::SeriesJoinTheInventoryOnceWhenFirstSeen(writer(), inventory());       \
  }                                                                                                          \
  TEST_F(Fixture, WatermarksNeverMoveBackwards) {                                                            \
    ::fleetcap::store::usage_contract::WatermarksNeverMoveBackwards(writer());                               \
  }                                                                                                          \
  TEST_F(Fixture, BucketsAggregateTheRowsAFilterSelects) {                                                   \
    ::fleetcap::store::usage_contract::BucketsAggregateTheRowsAFilterSelects(writer(), reader());            \
  }
