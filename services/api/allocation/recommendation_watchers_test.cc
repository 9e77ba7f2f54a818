#include "services/api/allocation/recommendation_watchers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "store/memory_allocation_run_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kWatchersT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z
constexpr absl::Duration kPoll = absl::Seconds(2);

// The memory form, shared by the watcher's thread and the test's.
class LockedRuns : public store::AllocationRunRepository {
 public:
  absl::StatusOr<int64_t> StoreRun(const store::AllocationRunDraft& run) override {
    std::lock_guard<std::mutex> lock(mu_);
    return runs_.StoreRun(run);
  }
  absl::StatusOr<std::optional<int64_t>> LatestRunId() override {
    std::lock_guard<std::mutex> lock(mu_);
    return runs_.LatestRunId();
  }
  absl::StatusOr<std::optional<store::AllocationRunRecord>> LatestRun() override {
    std::lock_guard<std::mutex> lock(mu_);
    return runs_.LatestRun();
  }
  absl::StatusOr<std::optional<store::AllocationRunRecord>> RunBefore(int64_t run_id) override {
    std::lock_guard<std::mutex> lock(mu_);
    return runs_.RunBefore(run_id);
  }

 private:
  std::mutex mu_;
  store::MemoryAllocationRunRepository runs_;
};

store::AllocationRunDraft Allocation(int64_t ads, int64_t vision) {
  store::AllocationRunDraft run;
  run.computed_at = kWatchersT0;
  const std::vector<std::pair<std::string, int64_t>> teams = {{"ads", ads}, {"vision", vision}};
  for (const auto& [team, milli] : teams) {
    store::AllocationRecommendationRecord r;
    r.team = team;
    r.flavor = "a100";
    r.recommended_milli = milli;
    r.bound_by = "fair_share";
    run.recommendations.push_back(r);
  }
  return run;
}

Scope Scheduler() {
  Scope scope;
  scope.role = Role::kScheduler;
  return scope;
}

Scope VisionToken() {
  Scope scope;
  scope.role = Role::kTeam;
  scope.team = "vision";
  scope.teams = {"vision"};
  return scope;
}

// One watch on its own thread, recording what it sends.
class Watch {
 public:
  Watch(RecommendationWatchers& watchers, Scope scope, std::string team = "") : watchers_(&watchers) {
    stream_.scope = [this, scope]() -> absl::StatusOr<Scope> {
      if (revoked_) return absl::UnauthenticatedError("token t1 was revoked");
      return scope;
    };
    stream_.send = [this](const v1::RecommendationSet& set) {
      std::lock_guard<std::mutex> lock(mu_);
      sent_.push_back(set);
      return client_open_.load();
    };
    stream_.cancelled = [this] { return cancelled_.load(); };
    thread_ = std::thread([this, &watchers, scope, team] { status_ = watchers.Watch(scope, team, stream_); });
  }
  // A test that stopped early ends the watches rather than waiting forever.
  ~Watch() {
    if (!thread_.joinable()) return;
    watchers_->Stop();
    thread_.join();
  }

  // The run ids sent so far.
  std::vector<int64_t> sent_runs() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<int64_t> ids;
    for (const auto& set : sent_) ids.push_back(set.run_id());
    return ids;
  }
  v1::RecommendationSet last() {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_.back();
  }
  absl::Status Join() {
    thread_.join();
    return status_;
  }

  std::atomic<bool> cancelled_{false};
  std::atomic<bool> client_open_{true};
  std::atomic<bool> revoked_{false};

 private:
  RecommendationWatchers* watchers_;
  RecommendationWatchers::Stream stream_;
  std::mutex mu_;
  std::vector<v1::RecommendationSet> sent_;
  absl::Status status_;
  std::thread thread_;
};

class RecommendationWatchersTest : public ::testing::Test {
 protected:
  explicit RecommendationWatchersTest(int max_watchers = 4)
      : watchers_(&query_, &clock_, registry_, WatchLimits{kPoll, max_watchers}) {}

  // Lets the watchers poll once more and waits until they wait again.
  void NextPoll(int watchers = 1) {
    clock_.Advance(kPoll);
    clock_.AwaitSleepers(watchers);
  }

  SimulatedClock clock_{kWatchersT0};
  prometheus::Registry registry_;
  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  LockedRuns runs_;
  RecommendationsQuery query_{&runs_, &cache_};
  RecommendationWatchers watchers_;
};

TEST_F(RecommendationWatchersTest, SendsTheCurrentSetThenEachNewerRun) {
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  Watch watch(watchers_, Scheduler());
  clock_.AwaitSleepers(1);
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1));
  EXPECT_EQ(watch.last().recommendations_size(), 2);
  NextPoll();
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1));  // nothing newer, nothing sent
  ASSERT_THAT(runs_.StoreRun(Allocation(1500, 1500)), IsOk());
  NextPoll();
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1, 2));
  EXPECT_EQ(watch.last().recommendations(0).recommended_milli(), 1500);
  watchers_.Stop();
  EXPECT_THAT(watch.Join(), IsOk());
}

TEST_F(RecommendationWatchersTest, WaitsWhileThereIsNoRun) {
  Watch watch(watchers_, Scheduler());
  clock_.AwaitSleepers(1);
  NextPoll();
  EXPECT_TRUE(watch.sent_runs().empty());
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  NextPoll();
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1));
  watchers_.Stop();
  EXPECT_THAT(watch.Join(), IsOk());
}

TEST_F(RecommendationWatchersTest, ARunThatChangesNothingTheCallerSeesIsNotSent) {
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  Watch watch(watchers_, VisionToken());
  clock_.AwaitSleepers(1);
  ASSERT_THAT(watch.sent_runs(), ElementsAre(1));
  EXPECT_EQ(watch.last().recommendations_size(), 1);
  EXPECT_EQ(watch.last().recommendations(0).team(), "vision");
  ASSERT_THAT(runs_.StoreRun(Allocation(9000, 2000)), IsOk());  // only ads changed
  NextPoll();
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1));
  ASSERT_THAT(runs_.StoreRun(Allocation(9000, 2500)), IsOk());
  NextPoll();
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1, 3));
  watchers_.Stop();
  EXPECT_THAT(watch.Join(), IsOk());
}

TEST_F(RecommendationWatchersTest, ACancelledOrGoneClientEndsItsWatch) {
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  Watch cancelled(watchers_, Scheduler());
  Watch gone(watchers_, Scheduler());
  clock_.AwaitSleepers(2);
  EXPECT_EQ(watchers_.active(), 2);
  cancelled.cancelled_ = true;
  gone.client_open_ = false;
  ASSERT_THAT(runs_.StoreRun(Allocation(1500, 1500)), IsOk());
  clock_.Advance(kPoll);
  EXPECT_THAT(cancelled.Join(), IsOk());
  EXPECT_THAT(gone.Join(), IsOk());
  EXPECT_EQ(watchers_.active(), 0);
}

TEST_F(RecommendationWatchersTest, StopEndsEveryWatchAndRefusesNewOnesWithOk) {
  Watch first(watchers_, Scheduler());
  Watch second(watchers_, Scheduler());
  clock_.AwaitSleepers(2);
  watchers_.Stop();  // no time passes: Stop wakes them
  EXPECT_THAT(first.Join(), IsOk());
  EXPECT_THAT(second.Join(), IsOk());
  RecommendationWatchers::Stream never;
  never.scope = [] { return Scheduler(); };
  never.send = [](const v1::RecommendationSet&) { return true; };
  never.cancelled = [] { return false; };
  EXPECT_THAT(watchers_.Watch(Scheduler(), "", never), IsOk());
}

TEST_F(RecommendationWatchersTest, ARevokedTokenEndsTheWatchWithItsError) {
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  Watch watch(watchers_, Scheduler());
  clock_.AwaitSleepers(1);
  watch.revoked_ = true;
  ASSERT_THAT(runs_.StoreRun(Allocation(1500, 1500)), IsOk());
  clock_.Advance(kPoll);
  EXPECT_THAT(watch.Join(), StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("revoked")));
  EXPECT_THAT(watch.sent_runs(), ElementsAre(1));
}

TEST_F(RecommendationWatchersTest, ATeamOutsideTheScopeIsRefusedAtOnce) {
  RecommendationWatchers::Stream stream;
  stream.scope = [] { return VisionToken(); };
  stream.send = [](const v1::RecommendationSet&) { return true; };
  stream.cancelled = [] { return false; };
  EXPECT_THAT(watchers_.Watch(VisionToken(), "ads", stream), StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_THAT(watchers_.Watch(Scheduler(), "not a team", stream), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(watchers_.active(), 0);
}

class OneWatcherTest : public RecommendationWatchersTest {
 protected:
  OneWatcherTest() : RecommendationWatchersTest(/*max_watchers=*/1) {}
};

TEST_F(OneWatcherTest, PastTheBoundAWatchIsRefusedAndTheRunningOneGoesOn) {
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  Watch running(watchers_, Scheduler());
  clock_.AwaitSleepers(1);
  RecommendationWatchers::Stream stream;
  stream.scope = [] { return Scheduler(); };
  stream.send = [](const v1::RecommendationSet&) { return true; };
  stream.cancelled = [] { return false; };
  EXPECT_THAT(watchers_.Watch(Scheduler(), "", stream),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("already 1 watchers")));
  ASSERT_THAT(runs_.StoreRun(Allocation(1500, 1500)), IsOk());
  NextPoll();
  EXPECT_THAT(running.sent_runs(), ElementsAre(1, 2));
  watchers_.Stop();
  EXPECT_THAT(running.Join(), IsOk());
}

class ManyWatchersTest : public RecommendationWatchersTest {
 protected:
  ManyWatchersTest() : RecommendationWatchersTest(/*max_watchers=*/64) {}
};

Scope SchedulerToken(const std::string& token_id) {
  Scope scope = Scheduler();
  scope.token_id = token_id;
  return scope;
}

// Each watch holds a server thread: one token may hold a few of them, never
// every one the server has (docs/security.md).
TEST_F(ManyWatchersTest, OneTokenHoldsAtMostItsShareOfTheWatches) {
  const int per_token = WatchLimits{}.max_watchers_per_token;
  ASSERT_EQ(per_token, 8);
  ASSERT_THAT(runs_.StoreRun(Allocation(1000, 2000)), IsOk());
  std::vector<std::unique_ptr<Watch>> mine;
  for (int i = 0; i < per_token; ++i) mine.push_back(std::make_unique<Watch>(watchers_, SchedulerToken("t1")));
  clock_.AwaitSleepers(per_token);
  RecommendationWatchers::Stream ends_at_once;
  ends_at_once.scope = [] { return SchedulerToken("t1"); };
  ends_at_once.send = [](const v1::RecommendationSet&) { return true; };
  ends_at_once.cancelled = [] { return true; };
  EXPECT_THAT(watchers_.Watch(SchedulerToken("t1"), "", ends_at_once),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("this token already holds 8")));
  // Another token still gets one, and the running ones go on.
  Watch other(watchers_, SchedulerToken("t2"));
  clock_.AwaitSleepers(per_token + 1);
  EXPECT_EQ(watchers_.active(), per_token + 1);
  // Once one of its watches ends, the token may open another.
  mine[0]->cancelled_ = true;
  clock_.Advance(kPoll);
  EXPECT_THAT(mine[0]->Join(), IsOk());
  clock_.AwaitSleepers(per_token);
  EXPECT_THAT(watchers_.Watch(SchedulerToken("t1"), "", ends_at_once), IsOk());
  watchers_.Stop();
  for (size_t i = 1; i < mine.size(); ++i) EXPECT_THAT(mine[i]->Join(), IsOk());
  EXPECT_THAT(other.Join(), IsOk());
}

}  // namespace
}  // namespace fleetcap::api
