#include "store/refused_records.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::store {
namespace {

// A store that refuses any write holding one of `bad`, and fails outright
// (an outage) on any write reaching `outage_at`.
struct Store {
  explicit Store(std::set<size_t> refused, size_t outage = SIZE_MAX) : bad(std::move(refused)), outage_at(outage) {}
  std::set<size_t> bad;
  size_t outage_at;
  std::vector<size_t> stored, set_aside;
  int writes = 0;

  RefusedRecords How() {
    return {[this](size_t begin, size_t end) {
              ++writes;
              if (outage_at < end) return absl::UnavailableError("down");
              for (size_t i = begin; i < end; ++i) {
                if (bad.count(i) > 0) return absl::InvalidArgumentError("refused");
              }
              for (size_t i = begin; i < end; ++i) stored.push_back(i);
              return absl::OkStatus();
            },
            [](const absl::Status& s) { return absl::IsInvalidArgument(s); },
            [this](size_t i, const absl::Status&) { set_aside.push_back(i); }};
  }
};

TEST(RefusedRecords, EachRecordRefusedAloneIsSetAsideAndTheRestWrittenInOrder) {
  Store store({3, 50, 999});
  size_t written = 0;
  ASSERT_TRUE(WriteAroundRefusals(1000, absl::InvalidArgumentError("refused"), store.How(), written).ok());
  EXPECT_EQ(written, 1000u);
  EXPECT_EQ(store.set_aside, (std::vector<size_t>{3, 50, 999}));
  ASSERT_EQ(store.stored.size(), 997u);
  EXPECT_TRUE(std::is_sorted(store.stored.begin(), store.stored.end()));
  // Halving: about two writes per level per bad record, never one per record.
  EXPECT_LE(store.writes, 3 * 2 * 10);
}

TEST(RefusedRecords, AnOutageStopsAtTheFirstRecordNotWritten) {
  Store store({3}, 600);
  size_t written = 0;
  const absl::Status status = WriteAroundRefusals(1000, absl::InvalidArgumentError("refused"), store.How(), written);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(store.set_aside, (std::vector<size_t>{3}));
  EXPECT_EQ(written, store.stored.size() + 1);  // everything before it was written or set aside
  EXPECT_LE(written, 600u);
  EXPECT_EQ(store.stored.back(), written - 1);
}

}  // namespace
}  // namespace fleetcap::store
