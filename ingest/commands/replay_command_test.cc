#include "ingest/commands/replay_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap::ingest {
namespace {

using testing::NoEnvironment;

std::vector<std::string> Openb(std::vector<std::string> more) {
  std::vector<std::string> args = {"--db", "postgresql://x", "--trace", "openb", "--data", "/d", "--cluster", "c"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(ParseReplayFlags, EveryFlagErrorNamesItsFlag) {
  auto parse = [](const std::vector<std::string>& args) { return ParseReplayFlags(args, NoEnvironment()); };
  testing::ExpectFlagErrors(
      parse,
      {
          {Openb({"--trace-file", "x"}), "unknown flag --trace-file (see fleetcap-ingest --help)"},
          {Openb({"--start"}), "--start: missing value"},
          {Openb({"--nodes", "ten"}), "--nodes: \"ten\" is not an integer"},
          {Openb({"--migrate=please"}), "--migrate: \"please\" is not true or false"},
          {Openb({"stray"}), "unexpected argument \"stray\""},
          {Openb({"--log-level", "loud"}), "--log-level: \"loud\" is not one of"},
          {Openb({"--trace="}), "--trace: \"\" is not a known trace (openb, synthetic)"},
          {Openb({"--trace", "alibaba"}), "--trace: \"alibaba\" is not a known trace (openb, synthetic)"},
          {Openb({"--trace", "synthetic", "--nodes", "0"}), "--nodes/--pods: out of range"},
          {Openb({"--trace", "synthetic", "--nodes", "1000001"}), "--nodes/--pods: out of range"},
          {Openb({"--trace", "synthetic", "--pods", "-1"}), "--nodes/--pods: out of range"},
          {Openb({"--trace", "synthetic", "--pods", "10000001"}), "--nodes/--pods: out of range"},
          {Openb({"--data="}), "--data: empty; give the trace's folder"},
          {Openb({"--cluster="}), "--cluster: empty"},
          {Openb({"--start="}), "--start: empty; expected an RFC 3339 timestamp"},
          {Openb({"--start", "monday"}), "--start: \"monday\" is not an RFC 3339 timestamp"},
          {Openb({"--db="}), "--db: empty; give a libpq URI or set FLEETCAP_DB"},
          {Openb({"--sample", "--sample-days", "0"}), "--sample-days: must be within 1..400"},
          {Openb({"--sample", "--sample-days", "401"}), "--sample-days: must be within 1..400"},
          {Openb({"--sample", "--sample-targets", "G2"}),
           "--sample-targets: \"G2\" is not MODEL=SHARE (a share such as 0.75)"},
          {Openb({"--sample", "--sample-targets", "G2=most"}), "--sample-targets: \"G2=most\" is not MODEL=SHARE"},
          {Openb({"--sample", "--sample-targets", "T4=1.5"}),
           "--sample-targets: the share of T4 must be above 0 and at most 1"},
          {Openb({"--sample", "--sample-targets", "=0.5"}), "--sample-targets: \"=0.5\" is not MODEL=SHARE"},
          {Openb({"--trace", "synthetic", "--sample"}), "--sample: only the openb trace is sampled"},
      });
}

TEST(ParseReplayFlags, OpenbReadsTheFolderGiven) {
  auto parsed = ParseReplayFlags(Openb({"--start", "2026-02-01T00:00:00Z"}), NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->replay.data_dir, "/d");
  EXPECT_EQ(parsed->replay.cluster, "c");
  EXPECT_EQ(parsed->replay.start, absl::FromUnixSeconds(1769904000));
  EXPECT_FALSE(parsed->synthetic.has_value());
  // A one-shot: SIGTERM keeps its default and ends it at once.
  EXPECT_FALSE(parsed->daemon.stop_on_signal);
}

TEST(ParseReplayFlags, SampleTakesTheDemosTargetsUnlessGivenOthers) {
  auto parsed = ParseReplayFlags(Openb({"--sample", "--seed", "9"}), NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_TRUE(parsed->sample.has_value());
  EXPECT_EQ(parsed->sample->seed, 9u);
  EXPECT_EQ(parsed->sample->window_s, 14 * 86400);
  EXPECT_EQ(parsed->sample->node_stride, 1);
  ASSERT_EQ(parsed->sample->targets.size(), openb::DefaultDemoTargets().size());
  EXPECT_EQ(parsed->sample->targets[0].model, "G2");
  EXPECT_DOUBLE_EQ(parsed->sample->targets[0].held_share, 0.78);

  parsed = ParseReplayFlags(
      Openb({"--sample", "--sample-days", "30", "--sample-targets", "T4=0.5,G2=0.8", "--sample-node-stride", "12"}),
      NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->sample->window_s, 30 * 86400);
  EXPECT_EQ(parsed->sample->node_stride, 12);
  ASSERT_EQ(parsed->sample->targets.size(), 2u);
  EXPECT_EQ(parsed->sample->targets[1].model, "G2");
  EXPECT_DOUBLE_EQ(parsed->sample->targets[1].held_share, 0.8);

  EXPECT_FALSE(ParseReplayFlags(Openb({}), NoEnvironment())->sample.has_value());
}

TEST(ParseReplayFlags, SyntheticNeedsNoFolder) {
  auto parsed = ParseReplayFlags({"--db", "postgresql://x", "--trace", "synthetic", "--nodes", "3", "--pods", "4",
                                  "--seed", "5", "--cluster", "syn"},
                                 NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_TRUE(parsed->synthetic.has_value());
  EXPECT_EQ(parsed->synthetic->nodes, 3);
  EXPECT_EQ(parsed->synthetic->pods, 4);
  EXPECT_EQ(parsed->synthetic->seed, 5u);
  EXPECT_EQ(parsed->replay.start, absl::FromUnixSeconds(1767225600));
}

}  // namespace
}  // namespace fleetcap::ingest
