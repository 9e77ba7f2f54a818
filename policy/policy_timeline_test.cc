#include "policy/policy_timeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::policy {
namespace {

using ::fleetcap::testing::IsOk;

absl::Time T(int hours) { return absl::FromUnixSeconds(1767225600) + absl::Hours(hours); }

std::string Mapping(const std::string& team) {
  return "version: 1\nteams:\n  - name: " + team + "\nnamespaces:\n  - namespace: ml\n    team: " + team + "\n";
}

std::string TeamAt(const PolicyTimeline& timeline, absl::Time t) {
  return timeline.At(t).teams->TeamOf({"c", "ml", ""}, nullptr);
}

class PolicyTimelineTest : public ::testing::Test {
 protected:
  PolicyTimeline timeline_{[this](int32_t after) -> absl::StatusOr<std::vector<StoredPolicy>> {
    ++fetches_;
    last_after_ = after;
    std::vector<StoredPolicy> out;
    for (const auto& s : stored_) {
      if (s.version > after) out.push_back(s);
    }
    return out;
  }};
  std::vector<StoredPolicy> stored_;
  int fetches_ = 0;
  int32_t last_after_ = -1;
};

TEST_F(PolicyTimelineTest, AVersionIsInForceFromWhenItWasAppliedAndTheFirstAlsoBeforeIt) {
  stored_ = {{1, T(10), Mapping("vision")}, {2, T(20), Mapping("speech")}};
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(TeamAt(timeline_, T(0)), "vision");
  EXPECT_EQ(TeamAt(timeline_, T(19)), "vision");
  EXPECT_EQ(TeamAt(timeline_, T(20)), "speech");
  EXPECT_EQ(timeline_.At(T(25)).version, 2);
  EXPECT_EQ(timeline_.At(T(5)).to, T(20));
}

TEST_F(PolicyTimelineTest, DuringAWindowListsEveryVersionInForce) {
  stored_ = {{1, T(10), Mapping("vision")}, {2, T(20), Mapping("speech")}, {3, T(30), Mapping("shop")}};
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  auto during = timeline_.During(T(15), T(25));
  ASSERT_EQ(during.size(), 2u);
  EXPECT_EQ(during[0].version, 1);
  EXPECT_EQ(during[1].version, 2);
  EXPECT_EQ(timeline_.During(T(30), T(31)).size(), 1u);
}

TEST_F(PolicyTimelineTest, UpToAVersionTheNewerOnesAreAsIfNeverApplied) {
  stored_ = {{1, T(10), Mapping("vision")}, {2, T(20), Mapping("speech")}, {3, T(30), Mapping("shop")}};
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(timeline_.At(T(35), 2).version, 2);
  EXPECT_EQ(timeline_.At(T(35), 2).to, absl::InfiniteFuture());
  EXPECT_EQ(timeline_.At(T(35), 2).teams->TeamOf({"c", "ml", ""}, nullptr), "speech");
  auto during = timeline_.During(T(15), T(40), 2);
  ASSERT_EQ(during.size(), 2u);
  EXPECT_EQ(during[1].version, 2);
  EXPECT_EQ(during[1].to, absl::InfiniteFuture());
  EXPECT_EQ(timeline_.At(T(35), 0).version, 0);
  EXPECT_EQ(timeline_.At(T(35)).version, 3);
}

TEST_F(PolicyTimelineTest, RefreshReadsOnlyNewerVersions) {
  stored_ = {{1, T(10), Mapping("vision")}};
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  stored_.push_back({2, T(20), Mapping("speech")});
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(last_after_, 1);
  EXPECT_EQ(TeamAt(timeline_, T(21)), "speech");
}

TEST_F(PolicyTimelineTest, WithoutAnyVersionEverythingIsUnassigned) {
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(timeline_.At(T(0)).version, 0);
  EXPECT_EQ(TeamAt(timeline_, T(0)), "unassigned");
  EXPECT_EQ(timeline_.During(T(0), T(1)).size(), 1u);
}

TEST_F(PolicyTimelineTest, AStoredDocumentThatNoLongerParsesCostsOnlyItself) {
  stored_ = {{1, T(10), Mapping("vision")}, {2, T(20), "version: 1\nbudgets: {}\n"}, {3, T(30), Mapping("shop")}};
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(timeline_.skipped(), 1);
  EXPECT_EQ(TeamAt(timeline_, T(25)), "vision");
  EXPECT_EQ(TeamAt(timeline_, T(30)), "shop");
  ASSERT_THAT(timeline_.Refresh(), IsOk());
  EXPECT_EQ(last_after_, 3);
  EXPECT_EQ(timeline_.skipped(), 1);
}

}  // namespace
}  // namespace fleetcap::policy
