#pragma once
// The behaviour every UsageRollupRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test.
// Each step takes the test's fixture `f`, which gives a fresh, empty store
// per test: `f.writer()` writes minutes, `f.rollups()` rolls them up, and
// `f.Usage(cluster, start, end)` reads the rolled-up readings as the
// attribution facts do, ordered by (device, pod_uid, minute).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "store/attribution_facts_repository.h"
#include "store/usage_contract.h"
#include "store/usage_rollup_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::usage_rollup_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using usage_contract::kMinute;
using usage_contract::kT0;
using usage_contract::PodRow;

inline absl::Time RollupHour(int h) { return absl::FromUnixMillis(kT0) + absl::Hours(h); }

// Each pod row with a reading, as UsedMilli, in the order Usage reads them.
inline std::vector<UsedMinuteRecord> Expected(std::vector<UsageMinuteRow> rows) {
  std::sort(rows.begin(), rows.end(), [](const UsageMinuteRow& a, const UsageMinuteRow& b) {
    return std::tie(a.device_id, a.pod_uid, a.minute_ms) < std::tie(b.device_id, b.pod_uid, b.minute_ms);
  });
  std::vector<UsedMinuteRecord> usage;
  for (const UsageMinuteRow& r : rows) {
    if (r.pod_uid.empty() || !r.util_mean.has_value()) continue;
    usage.push_back({r.pod_uid, r.device_id, absl::FromUnixMillis(r.minute_ms), UsedMilli(*r.util_mean)});
  }
  return usage;
}

template <typename Fixture>
void WriteRollupMinutes(Fixture& f, const std::string& cluster, const std::vector<UsageMinuteRow>& rows) {
  auto written = f.writer().WriteMinutes(cluster, rows, "pull");
  ASSERT_THAT(written, IsOk());
}

// Readings are read only once rolled up, each minute's exactly (a tie of
// x1000 rounded away from zero); a device's own row and a row without a
// reading are not a pod's usage.
template <typename Fixture>
void ReadingsAreReadOnceRolledUpEachMinuteExactly(Fixture& f) {
  std::vector<UsageMinuteRow> rows;
  const double readings[] = {0.4285, 0.0005, 0.0015, 0.9995, 1, 0, 0.1234567, 0.6666666666};
  int i = 0;
  for (int minute : {0, 1, 30, 59, 60, 61, 100, 119}) {
    rows.push_back(PodRow("GPU-0", "uid-a", "a", kT0 + minute * kMinute, readings[i % 8]));
    rows.push_back(PodRow("GPU-0", "uid-b", "b", kT0 + minute * kMinute, readings[(i + 3) % 8]));
    ++i;
  }
  UsageMinuteRow no_reading = PodRow("GPU-0", "uid-a", "a", kT0 + 3 * kMinute, 0.5);
  no_reading.util_mean.reset();
  rows.push_back(no_reading);
  rows.push_back(PodRow("MIG-GPU-1/1/0", "uid-c", "c", kT0 + 59 * kMinute, 0.142857));
  rows.push_back(usage_contract::Row("GPU-0", kT0, 0.9));
  WriteRollupMinutes(f, "c1", rows);
  EXPECT_TRUE(f.Usage("c1", RollupHour(0), RollupHour(2)).empty()) << "nothing is read before the rollup";

  ASSERT_THAT(f.rollups().RollUp("c1", RollupHour(0), RollupHour(2)), IsOk());
  EXPECT_EQ(f.Usage("c1", RollupHour(0), RollupHour(2)), Expected(rows));
  // A window inside an hour reads only its minutes.
  std::vector<UsedMinuteRecord> inside;
  for (const UsedMinuteRecord& u : Expected(rows)) {
    if (u.minute >= RollupHour(0) + absl::Minutes(30) && u.minute < RollupHour(0) + absl::Minutes(61)) {
      inside.push_back(u);
    }
  }
  EXPECT_EQ(f.Usage("c1", RollupHour(0) + absl::Minutes(30), RollupHour(0) + absl::Minutes(61)), inside);
}

// Minutes written after an hour was rolled up are read after the next rollup.
template <typename Fixture>
void LateMinutesAreReadAfterTheNextRollup(Fixture& f) {
  const UsageMinuteRow first = PodRow("GPU-0", "uid-a", "a", kT0, 0.25);
  const UsageMinuteRow late = PodRow("GPU-0", "uid-a", "a", kT0 + 5 * kMinute, 0.75);
  WriteRollupMinutes(f, "c1", {first});
  ASSERT_THAT(f.rollups().RollUp("c1", RollupHour(0), RollupHour(1)), IsOk());
  WriteRollupMinutes(f, "c1", {late});
  EXPECT_EQ(f.Usage("c1", RollupHour(0), RollupHour(1)), Expected({first}));
  ASSERT_THAT(f.rollups().RollUp("c1", RollupHour(0), RollupHour(1)), IsOk());
  EXPECT_EQ(f.Usage("c1", RollupHour(0), RollupHour(1)), Expected({first, late}));
}

// A window rolls up every whole hour it overlaps, a part-hour at either end
// included, and no other hour, of its cluster only.
template <typename Fixture>
void AWindowRollsUpTheHoursItOverlapsOfItsCluster(Fixture& f) {
  std::vector<UsageMinuteRow> c1;
  for (int h = 0; h < 4; ++h) c1.push_back(PodRow("GPU-0", "uid-a", "a", kT0 + (h * 60 + 10) * kMinute, 0.5));
  const std::vector<UsageMinuteRow> c2 = {PodRow("GPU-9", "uid-z", "z", kT0 + 10 * kMinute, 0.5)};
  WriteRollupMinutes(f, "c1", c1);
  WriteRollupMinutes(f, "c2", c2);
  ASSERT_THAT(f.rollups().RollUp("c1", RollupHour(0) + absl::Minutes(30), RollupHour(2) + absl::Minutes(1)), IsOk());
  EXPECT_EQ(f.Usage("c1", RollupHour(0), RollupHour(4)), Expected({c1[0], c1[1], c1[2]}));
  EXPECT_TRUE(f.Usage("c2", RollupHour(0), RollupHour(4)).empty());
  ASSERT_THAT(f.rollups().RollUp("c2", RollupHour(0), RollupHour(1)), IsOk());
  EXPECT_EQ(f.Usage("c2", RollupHour(0), RollupHour(4)), Expected(c2));
}

template <typename Fixture>
void AWindowEndingBeforeItsStartIsRefusedAndAnEmptyOneDoesNothing(Fixture& f) {
  WriteRollupMinutes(f, "c1", {PodRow("GPU-0", "uid-a", "a", kT0, 0.5)});
  EXPECT_THAT(f.rollups().RollUp("c1", RollupHour(1), RollupHour(0)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is before its start")));
  EXPECT_THAT(f.rollups().RollUp("c1", RollupHour(0), RollupHour(0)), IsOk());
  EXPECT_TRUE(f.Usage("c1", RollupHour(0), RollupHour(1)).empty());
}

}  // namespace fleetcap::store::usage_rollup_contract

// Instantiates the contract as tests of fixture `Fixture` (see above).
#define FLEETCAP_USAGE_ROLLUP_CONTRACT_TESTS(Fixture)                                                              \
  TEST_F(Fixture, ReadingsAreReadOnceRolledUpEachMinuteExactly) {                                                  \
    ::fleetcap::store::usage_rollup_contract::ReadingsAreReadOnceRolledUpEachMinuteExactly(*this);                 \
  }                                                                                                                \
  TEST_F(Fixture, LateMinutesAreReadAfterTheNextRollup) {                                                          \
    ::fleetcap::store::usage_rollup_contract::LateMinutesAreReadAfterTheNextRollup(*this);                         \
  }                                                                                                                \
  TEST_F(Fixture, AWindowRollsUpTheHoursItOverlapsOfItsCluster) {                                                  \
    ::fleetcap::store::usage_rollup_contract::AWindowRollsUpTheHoursItOverlapsOfItsCluster(*this);                 \
  }                                                                                                                \
  TEST_F(Fixture, AWindowEndingBeforeItsStartIsRefusedAndAnEmptyOneDoesNothing) {                                  \
    ::fleetcap::store::usage_rollup_contract::AWindowEndingBeforeItsStartIsRefusedAndAnEmptyOneDoesNothing(*this); \
  }
