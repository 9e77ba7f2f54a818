// The openb trace served by the fixture as a live cluster and followed by
// fleetcap-ingest k8s stores the same inventory as `fleetcap-ingest replay`:
// the demo's path and the replay agree at every instant checked.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/trace_cluster.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/trusted_shares.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

const std::string kData = std::string(fleetcap::testing::kSharedDataDir) + "/openb";

TEST(OpenbLiveTest, TheLiveClusterStoresWhatTheReplayStores) {
  if (!std::filesystem::exists(kData + "/openb_node_list_gpu_node.csv")) {
    GTEST_SKIP() << "the published openb trace is not at " << kData;
  }
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  testing::TrustGpuSharesEverywhere(*(*db)->Connect());  // the trace's shares were set by its scheduler
  testing::FakeApiOptions options;
  options.bookmark_interval = absl::Milliseconds(500);
  auto api = testing::FakeApiServer::Start(options);
  ASSERT_THAT(api, IsOk());
  auto trace = openb::ReadOpenbTrace(kData);
  ASSERT_THAT(trace, IsOk());
  const absl::Time start = *ParseRfc3339("start", "2026-01-01T00:00:00Z");
  testing::TraceReplay replay(api->get(), testing::BuildTimeline(*trace, start), 1e12, /*wait_for_watch=*/true);

  auto ingest = testing::Subprocess::Start({fleetcap::testing::kIngestBin, "k8s", "--cluster", "live", "--kube-api",
                                            (*api)->url(), "--db", (*db)->uri(), "--flush-interval-ms", "100"});
  ASSERT_THAT(ingest, IsOk());
  ASSERT_THAT((*ingest)->WaitForLine("fleetcap-ingest k8s: synced", absl::Seconds(60)), IsOk()) << (*ingest)->Stderr();
  const absl::Time until = absl::Now() + absl::Seconds(240);
  while (!replay.done() && absl::Now() < until) absl::SleepFor(absl::Milliseconds(100));
  ASSERT_TRUE(replay.done());
  // Caught up once every pod the cluster ever had is recorded gone.
  auto conn = (*db)->Connect();
  int64_t live_pods = -1;
  while (absl::Now() < until) {
    const auto pods =
        testing::RowsWhere(testing::StoredPods(*conn), [](const testing::StoredPod& p) { return p.cluster == "live"; });
    live_pods = static_cast<int64_t>(
        testing::RowsWhere(pods, [](const testing::StoredPod& p) { return !p.deleted_at.has_value(); }).size());
    const int64_t all = static_cast<int64_t>(pods.size());
    if (live_pods == 0 && all == 8152 - 1088) break;  // every GPU pod, none left running
    absl::SleepFor(absl::Milliseconds(200));
  }
  EXPECT_EQ(live_pods, 0);
  (*ingest)->Stop(SIGTERM);

  auto replayed = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data", kData,
                                "--cluster", "replayed", "--start", "2026-01-01T00:00:00Z", "--db", (*db)->uri()},
                               absl::Seconds(120));
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  auto pool = PgPool::Open((*db)->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  store::PgLiveInventoryRepository repo(pool->get());
  for (int64_t s : {int64_t{0}, int64_t{1000}, int64_t{86400}, int64_t{2000000}, int64_t{6543210}, int64_t{12523649},
                    int64_t{12600000}}) {
    const absl::Time at = start + absl::Seconds(s);
    auto want = repo.SummarizeAt("replayed", at);
    auto got = repo.SummarizeAt("live", at);
    ASSERT_TRUE(want.ok() && got.ok());
    EXPECT_EQ(*got, *want) << "trace second " << s;
  }
  const auto holds_of = [&](const std::string& cluster) {
    return testing::RowsWhere(testing::StoredHolds(*conn),
                              [&](const testing::StoredHold& h) { return h.cluster == cluster; })
        .size();
  };
  EXPECT_EQ(holds_of("live"), holds_of("replayed"));
  EXPECT_EQ(testing::RowsWhere(testing::StoredDevices(*conn),
                               [](const testing::StoredDevice& d) { return d.cluster == "live"; })
                .size(),
            6212u);
}

TEST(SyntheticReplayTest, ReplaysASyntheticTraceDeterministically) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  std::vector<std::string> args = {fleetcap::testing::kIngestBin,
                                   "replay",
                                   "--trace",
                                   "synthetic",
                                   "--nodes",
                                   "50",
                                   "--pods",
                                   "500",
                                   "--seed",
                                   "3",
                                   "--cluster",
                                   "syn",
                                   "--db",
                                   (*db)->uri()};
  auto first = testing::Run(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("cluster syn: 50 nodes")) << first.out;
  auto second = testing::Run(args);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  auto conn = (*db)->Connect();
  EXPECT_EQ(
      testing::RowsWhere(testing::StoredPods(*conn), [](const testing::StoredPod& p) { return p.cluster == "syn"; })
          .size(),
      500u);
  auto bad = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "synthetic", "--nodes", "0", "--cluster",
                           "x", "--db", (*db)->uri()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--nodes")) << bad.err;
}

}  // namespace
}  // namespace fleetcap
