#include "ingest/openb/next_fit_placer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace fleetcap::openb {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

OpenbNode Node(std::string name, int32_t gpus) {
  OpenbNode node;
  node.name = std::move(name);
  node.gpus = gpus;
  node.model = "T4";
  return node;
}

OpenbPod Pod(std::string name, int32_t num_gpu, int32_t gpu_milli, std::optional<int64_t> scheduled,
             std::optional<int64_t> deletion) {
  OpenbPod pod;
  pod.name = std::move(name);
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  pod.scheduled_s = scheduled;
  pod.deletion_s = deletion;
  return pod;
}

// (node name, gpu, milli) of every hold of pod `p`, in hold order.
std::vector<std::tuple<std::string, int, int>> HoldsOf(const OpenbTrace& trace, const Placement& placement, size_t p) {
  std::vector<std::tuple<std::string, int, int>> out;
  for (const GpuHold& hold : placement.holds) {
    if (hold.pod == p) out.emplace_back(trace.nodes[hold.node].name, hold.gpu, hold.milli);
  }
  return out;
}

using H = std::tuple<std::string, int, int>;

TEST(PlaceNextFit, PointerAdvancesPastTheLastPlacementAndWraps) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2), Node("n1", 2), Node("n2", 2)};
  trace.pods = {Pod("a", 1, 1000, 0, 100), Pod("b", 1, 1000, 1, 100), Pod("c", 1, 1000, 2, 100),
                Pod("d", 1, 1000, 3, 100)};
  Placement placement = PlaceNextFit(trace);
  // Each pod would fit on n0; next-fit spreads them and wraps back to n0.
  EXPECT_THAT(HoldsOf(trace, placement, 0), ElementsAre(H{"n0", 0, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n1", 0, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n2", 0, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 3), ElementsAre(H{"n0", 1, 1000}));
  EXPECT_EQ(placement.placed_pods, 4);
  EXPECT_THAT(placement.unplaced, IsEmpty());
}

TEST(PlaceNextFit, NodesAreSearchedInNameOrderNotFileOrder) {
  OpenbTrace trace;
  trace.nodes = {Node("n2", 1), Node("n0", 1), Node("n1", 1)};
  trace.pods = {Pod("a", 1, 1000, 0, 100), Pod("b", 1, 1000, 1, 100)};
  Placement placement = PlaceNextFit(trace);
  ASSERT_EQ(placement.holds.size(), 2u);
  // Indices refer to the trace's own node order.
  EXPECT_EQ(placement.holds[0].node, 1u);
  EXPECT_EQ(placement.holds[1].node, 2u);
}

TEST(PlaceNextFit, SkippedNodesDoNotMoveThePointer) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1), Node("n1", 2), Node("n2", 1)};
  trace.pods = {Pod("a", 2, 1000, 0, 100), Pod("b", 1, 1000, 1, 100), Pod("c", 1, 1000, 2, 100)};
  Placement placement = PlaceNextFit(trace);
  // a skips n0 for n1, so b starts after n1 at n2 and c wraps to n0.
  EXPECT_THAT(HoldsOf(trace, placement, 0), ElementsAre(H{"n1", 0, 1000}, H{"n1", 1, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n2", 0, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 1000}));
}

TEST(PlaceNextFit, ReleasesComeBeforePlacementsAtEqualTimes) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1)};
  // a's name sorts before b's, so only the kind decides that b's release at
  // 10 goes first and a finds the GPU free.
  trace.pods = {Pod("a", 1, 1000, 10, 20), Pod("b", 1, 1000, 0, 10)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.placed_pods, 2);
  EXPECT_THAT(HoldsOf(trace, placement, 0), ElementsAre(H{"n0", 0, 1000}));
  EXPECT_THAT(placement.unplaced, IsEmpty());
}

TEST(PlaceNextFit, PlacementsAtEqualTimesGoInNameOrder) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1), Node("n1", 1)};
  trace.pods = {Pod("z", 1, 1000, 5, 100), Pod("a", 1, 1000, 5, 100), Pod("m", 1, 1000, 5, 100)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n0", 0, 1000}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n1", 0, 1000}));
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kNoRoom);
  EXPECT_THAT(placement.unplaced, ElementsAre(0u));
}

TEST(PlaceNextFit, EveryReleaseAtATimePrecedesEveryPlacementThen) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2)};
  // x and y release at 10 and c then needs both GPUs: it fits only if both
  // releases precede it, though its name sorts before theirs.
  trace.pods = {Pod("y", 1, 1000, 0, 10), Pod("x", 1, 1000, 1, 10), Pod("c", 2, 1000, 10, 20)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 1000}, H{"n0", 1, 1000}));
}

TEST(PlaceNextFit, WholeGpusAreTheLowestIndexedEntirelyFreeOnes) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 4)};
  trace.pods = {Pod("a", 1, 1000, 0, 10), Pod("b", 1, 300, 1, 100), Pod("c", 2, 1000, 20, 100)};
  Placement placement = PlaceNextFit(trace);
  // a's GPU 0 is free again at 10 but b's share keeps GPU 1 from being whole.
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n0", 1, 300}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 1000}, H{"n0", 2, 1000}));
}

TEST(PlaceNextFit, WholeGpuPodsSkipNodesWithoutEnoughEntirelyFreeGpus) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2), Node("n1", 2)};
  trace.pods = {Pod("a", 1, 100, 0, 100), Pod("b", 1, 1000, 1, 100), Pod("c", 2, 1000, 2, 100)};
  Placement placement = PlaceNextFit(trace);
  // After a (n0) and b (n1), n0 has one whole GPU and n1 one: c has no room.
  EXPECT_EQ(placement.outcomes[2], PodOutcome::kNoRoom);
  EXPECT_THAT(placement.unplaced, ElementsAre(2u));
}

TEST(PlaceNextFit, SharingPacksOntoTheLowestIndexedGpuWithRoom) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2)};
  trace.pods = {Pod("s1", 1, 600, 0, 100), Pod("s2", 1, 600, 1, 100), Pod("s3", 1, 400, 2, 100),
                Pod("s4", 1, 300, 3, 100), Pod("s5", 1, 200, 4, 100)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_THAT(HoldsOf(trace, placement, 0), ElementsAre(H{"n0", 0, 600}));
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n0", 1, 600}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 400}));
  EXPECT_THAT(HoldsOf(trace, placement, 3), ElementsAre(H{"n0", 1, 300}));
  // GPU 0 is full and GPU 1 has 100 left.
  EXPECT_EQ(placement.outcomes[4], PodOutcome::kNoRoom);
}

TEST(PlaceNextFit, SharingSearchesNodesFromThePointer) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1), Node("n1", 1), Node("n2", 1)};
  trace.pods = {Pod("a", 1, 800, 0, 100), Pod("b", 1, 900, 1, 100), Pod("c", 1, 500, 2, 100), Pod("d", 1, 200, 3, 100)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_THAT(HoldsOf(trace, placement, 0), ElementsAre(H{"n0", 0, 800}));
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n1", 0, 900}));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n2", 0, 500}));
  // Starting after n2: n0 has 200 free, enough for d, though n2 has more.
  EXPECT_THAT(HoldsOf(trace, placement, 3), ElementsAre(H{"n0", 0, 200}));
}

TEST(PlaceNextFit, AFailedSearchLeavesThePointerWhereItWas) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2), Node("n1", 2), Node("n2", 2)};
  trace.pods = {Pod("a", 1, 1000, 0, 100), Pod("big", 4, 1000, 1, 100), Pod("b", 1, 1000, 2, 100)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[1], PodOutcome::kNoRoom);
  // Still after a's node, so b goes to n1 although n0 has a GPU free.
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n1", 0, 1000}));
}

TEST(PlaceNextFit, ReleaseFreesExactlyWhatWasTaken) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1)};
  trace.pods = {Pod("a", 1, 300, 0, 10), Pod("b", 1, 500, 1, 100), Pod("c", 1, 500, 10, 100), Pod("d", 1, 1, 11, 100)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 500}));
  EXPECT_EQ(placement.outcomes[3], PodOutcome::kNoRoom);
}

TEST(PlaceNextFit, NeverScheduledPodsAreUnplacedAndHoldNothing) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1), Node("n1", 1)};
  trace.pods = {Pod("p", 1, 1000, std::nullopt, std::nullopt), Pod("a", 1, 1000, 5, 10)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kNeverScheduled);
  EXPECT_THAT(placement.unplaced, ElementsAre(0u));
  EXPECT_THAT(HoldsOf(trace, placement, 0), IsEmpty());
  EXPECT_THAT(HoldsOf(trace, placement, 1), ElementsAre(H{"n0", 0, 1000}));
}

TEST(PlaceNextFit, PodsWithoutGpusHoldNothingAndAreNotUnplaced) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1), Node("n1", 1)};
  trace.pods = {Pod("cpu", 0, 0, 0, 10), Pod("pending-cpu", 0, 0, std::nullopt, std::nullopt),
                Pod("a", 1, 1000, 5, 10)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kNoGpu);
  EXPECT_EQ(placement.outcomes[1], PodOutcome::kNoGpu);
  EXPECT_EQ(placement.no_gpu_pods, 2);
  EXPECT_THAT(placement.unplaced, IsEmpty());
  // Nor do they move the pointer.
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 1000}));
}

TEST(PlaceNextFit, EmptyIntervalsHoldNothing) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1)};
  trace.pods = {Pod("a", 1, 1000, 10, 10), Pod("b", 1, 1000, 10, 5), Pod("c", 1, 1000, 10, 20)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kEmptyInterval);
  EXPECT_EQ(placement.outcomes[1], PodOutcome::kEmptyInterval);
  EXPECT_THAT(placement.unplaced, ElementsAre(0u, 1u));
  EXPECT_THAT(HoldsOf(trace, placement, 2), ElementsAre(H{"n0", 0, 1000}));
}

TEST(PlaceNextFit, APodNeverDeletedHoldsToTheEnd) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 1)};
  trace.pods = {Pod("a", 1, 700, 0, std::nullopt), Pod("b", 1, 400, 1000000, 1000001)};
  Placement placement = PlaceNextFit(trace);
  ASSERT_EQ(placement.holds.size(), 1u);
  EXPECT_EQ(placement.holds[0].start_s, 0);
  EXPECT_EQ(placement.holds[0].end_s, std::nullopt);
  EXPECT_EQ(placement.outcomes[1], PodOutcome::kNoRoom);
}

TEST(PlaceNextFit, HoldsCarryTheTraceInterval) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 2)};
  trace.pods = {Pod("a", 2, 1000, 7, 42)};
  Placement placement = PlaceNextFit(trace);
  ASSERT_EQ(placement.holds.size(), 2u);
  for (const GpuHold& hold : placement.holds) {
    EXPECT_EQ(hold.pod, 0u);
    EXPECT_EQ(hold.start_s, 7);
    EXPECT_EQ(hold.end_s, 42);
  }
}

TEST(PlaceNextFit, RequestsOutsideTheContractAreUnplacedNotGuessed) {
  OpenbTrace trace;
  trace.nodes = {Node("n0", 4)};
  trace.pods = {Pod("half-of-two", 2, 500, 0, 10), Pod("nothing", 1, 0, 0, 10)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kInvalidRequest);
  EXPECT_EQ(placement.outcomes[1], PodOutcome::kInvalidRequest);
  EXPECT_THAT(placement.holds, IsEmpty());
}

TEST(PlaceNextFit, NoNodesMeansNoRoom) {
  OpenbTrace trace;
  trace.pods = {Pod("a", 1, 1000, 0, 10)};
  Placement placement = PlaceNextFit(trace);
  EXPECT_EQ(placement.outcomes[0], PodOutcome::kNoRoom);
}

}  // namespace
}  // namespace fleetcap::openb
