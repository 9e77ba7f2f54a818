#include "store/instant_sources.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace fleetcap::store {
namespace {

using Base = InstantSource::Base;

const absl::Time kAt = absl::FromUnixSeconds(1'800'000'000);
const absl::Time kEarliest = kAt - absl::Hours(24 * 100);

// A cluster's instants, counting no changes.
ClusterInstants Known(std::string cluster, std::optional<absl::Time> horizon, std::optional<absl::Time> earliest,
                      std::optional<absl::Time> before, std::optional<absl::Time> after) {
  ClusterInstants c;
  c.cluster = std::move(cluster);
  c.horizon = horizon;
  c.earliest = earliest;
  c.checkpoint_before = before;
  c.checkpoint_after = after;
  return c;
}

InstantSource Only(const ClusterInstants& c, absl::Time at = kAt) {
  const std::vector<InstantSource> sources = ChooseInstantSources({c}, at);
  EXPECT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].cluster, c.cluster);
  return sources[0];
}

TEST(InstantSourcesTest, AtOrAfterTheHorizonTheKeptNowIsCurrentAsItIs) {
  for (const std::optional<absl::Time> horizon :
       {std::optional<absl::Time>(), std::optional<absl::Time>(kAt), std::optional<absl::Time>(kAt - absl::Hours(1))}) {
    const InstantSource s = Only(Known("c", horizon, kEarliest, kAt - absl::Minutes(1), std::nullopt));
    EXPECT_EQ(s.base, Base::kNow);
    EXPECT_EQ(s.from, s.to) << "no change to add";
  }
}

TEST(InstantSourcesTest, BeforeTheHorizonTheNowIsTakenBackToTheInstant) {
  const InstantSource s = Only(Known("c", kAt + absl::Minutes(90), kEarliest, std::nullopt, std::nullopt));
  EXPECT_EQ(s.base, Base::kNow);
  EXPECT_EQ(s.from, kAt);
  EXPECT_EQ(s.to, kAt + absl::Minutes(90));
  EXPECT_EQ(s.sign, -1);
}

TEST(InstantSourcesTest, TheNearestCheckpointWinsAndItsChangeRunsTowardTheInstant) {
  const InstantSource before =
      Only(Known("c", kAt + absl::Hours(5), kEarliest, kAt - absl::Minutes(4), kAt + absl::Minutes(11)));
  EXPECT_EQ(before.base, Base::kCheckpoint);
  EXPECT_EQ(before.checkpoint, kAt - absl::Minutes(4));
  EXPECT_EQ(before.from, kAt - absl::Minutes(4));
  EXPECT_EQ(before.to, kAt);
  EXPECT_EQ(before.sign, 1);

  const InstantSource after =
      Only(Known("c", kAt + absl::Hours(5), kEarliest, kAt - absl::Minutes(12), kAt + absl::Minutes(3)));
  EXPECT_EQ(after.base, Base::kCheckpoint);
  EXPECT_EQ(after.checkpoint, kAt + absl::Minutes(3));
  EXPECT_EQ(after.from, kAt);
  EXPECT_EQ(after.to, kAt + absl::Minutes(3));
  EXPECT_EQ(after.sign, -1);

  const InstantSource exact = Only(Known("c", kAt + absl::Hours(5), kEarliest, kAt, kAt + absl::Minutes(3)));
  EXPECT_EQ(exact.base, Base::kCheckpoint);
  EXPECT_EQ(exact.from, exact.to);

  // The kept now, nearer than either checkpoint.
  const InstantSource now =
      Only(Known("c", kAt + absl::Minutes(2), kEarliest, kAt - absl::Minutes(12), kAt + absl::Minutes(3)));
  EXPECT_EQ(now.base, Base::kNow);
  EXPECT_EQ(now.to, kAt + absl::Minutes(2));
}

// A mass start (every pod of a big job at once) at the next checkpoint's
// instant: the checkpoint before is farther but has none of it between.
TEST(InstantSourcesTest, TheSideWithFewerChangesWinsOverTheNearer) {
  ClusterInstants c = Known("c", kAt + absl::Hours(5), kEarliest, kAt - absl::Minutes(12), kAt + absl::Minutes(3));
  c.changes_before = 40;
  c.changes_after = 4000;
  const InstantSource s = Only(c);
  EXPECT_EQ(s.base, Base::kCheckpoint);
  EXPECT_EQ(s.checkpoint, kAt - absl::Minutes(12));
  // Counted alike, the nearer; counted against not counted, the counted.
  c.changes_before = 4000;
  EXPECT_EQ(Only(c).checkpoint, kAt + absl::Minutes(3));
  c.changes_after = std::nullopt;
  EXPECT_EQ(Only(c).checkpoint, kAt - absl::Minutes(12));
  // The kept now, nearest and with the fewest.
  c.horizon = kAt + absl::Minutes(30);
  c.changes_to_horizon = 10;
  EXPECT_EQ(Only(c).base, Base::kNow);
  // Every side with as many changes as are counted: the facts.
  c.changes_before = c.changes_after = c.changes_to_horizon = kChangesCounted;
  EXPECT_EQ(Only(c).base, Base::kFacts);
  c.changes_to_horizon = kChangesCounted - 1;
  EXPECT_EQ(Only(c).base, Base::kNow);
}

TEST(InstantSourcesTest, FarFromAnyKnownSummaryTheFactsAnswer) {
  const InstantSource s = Only(Known("c", kAt + kMaxChangeWindow + absl::Seconds(1), kEarliest,
                                     kAt - kMaxChangeWindow - absl::Seconds(1), std::nullopt));
  EXPECT_EQ(s.base, Base::kFacts);
  // ... and at the limit, the change is still read.
  EXPECT_EQ(Only(Known("c", kAt + kMaxChangeWindow, kEarliest, std::nullopt, std::nullopt)).base, Base::kNow);
}

TEST(InstantSourcesTest, BeforeAClustersFirstFactNothingOfItIsRead) {
  EXPECT_TRUE(
      ChooseInstantSources(
          {Known("c", kAt + absl::Hours(1), kAt + absl::Seconds(1), std::nullopt, kAt + absl::Minutes(10))}, kAt)
          .empty());
  EXPECT_TRUE(ChooseInstantSources({Known("c", std::nullopt, std::nullopt, std::nullopt, std::nullopt)}, kAt).empty());
  // At its first fact's instant, it is read.
  EXPECT_EQ(ChooseInstantSources({Known("c", kAt + absl::Hours(1), kAt, std::nullopt, std::nullopt)}, kAt).size(), 1u);
}

TEST(InstantSourcesTest, EachClusterHasItsOwnSource) {
  const std::vector<InstantSource> sources =
      ChooseInstantSources({Known("a", kAt - absl::Hours(1), kEarliest, std::nullopt, std::nullopt),
                            Known("b", kAt + absl::Hours(1), kEarliest, kAt - absl::Minutes(5), std::nullopt),
                            Known("c", kAt + absl::Hours(48), kEarliest, std::nullopt, std::nullopt)},
                           kAt);
  ASSERT_EQ(sources.size(), 3u);
  EXPECT_EQ(sources[0].base, Base::kNow);
  EXPECT_EQ(sources[1].base, Base::kCheckpoint);
  EXPECT_EQ(sources[2].base, Base::kFacts);
}

}  // namespace
}  // namespace fleetcap::store
