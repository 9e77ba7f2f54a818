#include "common/clock.h"

#include <gtest/gtest.h>

#include <thread>

namespace fleetcap {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1767225600);

TEST(SimulatedClock, NowAndMonotonicMoveOnlyWhenAdvanced) {
  SimulatedClock clock(kStart);
  const absl::Duration began = clock.Monotonic();
  EXPECT_EQ(clock.Now(), kStart);
  clock.Advance(absl::Seconds(90));
  EXPECT_EQ(clock.Now(), kStart + absl::Seconds(90));
  EXPECT_EQ(clock.Monotonic() - began, absl::Seconds(90));
  clock.Advance(-absl::Seconds(5));  // time never goes back
  EXPECT_EQ(clock.Now(), kStart + absl::Seconds(90));
}

TEST(SimulatedClock, SleepReturnsOnlyOnceTimePassesItsDeadline) {
  SimulatedClock clock(kStart);
  std::atomic<bool> woke{false};
  std::thread sleeper([&] {
    clock.SleepFor(absl::Seconds(10));
    woke = true;
  });
  clock.AwaitSleepers(1);
  EXPECT_EQ(clock.UntilNextDeadline(), absl::Seconds(10));
  clock.Advance(absl::Seconds(9));
  EXPECT_EQ(clock.sleepers(), 1);
  EXPECT_EQ(clock.UntilNextDeadline(), absl::Seconds(1));
  EXPECT_FALSE(woke.load());
  clock.Advance(absl::Seconds(1));
  sleeper.join();
  EXPECT_TRUE(woke.load());
  EXPECT_EQ(clock.sleepers(), 0);
  EXPECT_EQ(clock.UntilNextDeadline(), absl::InfiniteDuration());
}

TEST(SimulatedClock, SleepUnlessStoppedReturnsWhenStoppedWithoutTimeMoving) {
  SimulatedClock clock(kStart);
  std::atomic<bool> stop{false};
  std::atomic<bool> stopped{false};
  std::thread sleeper([&] { stopped = clock.SleepUnlessStopped(absl::Hours(1), stop); });
  clock.AwaitSleepers(1);
  stop = true;
  sleeper.join();
  EXPECT_TRUE(stopped.load());
  EXPECT_EQ(clock.Now(), kStart);
}

TEST(SimulatedClock, SleepUnlessStoppedSaysItWasNotStopped) {
  SimulatedClock clock(kStart);
  std::atomic<bool> stop{false};
  std::atomic<bool> stopped{true};
  std::thread sleeper([&] { stopped = clock.SleepUnlessStopped(absl::Seconds(1), stop); });
  clock.AwaitSleepers(1);
  clock.Advance(absl::Seconds(1));
  sleeper.join();
  EXPECT_FALSE(stopped.load());
}

TEST(SimulatedClock, WaitForReturnsTrueWhenItsConditionIsNotified) {
  SimulatedClock clock(kStart);
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false;
  bool result = false;
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mu);
    result = clock.WaitFor(lock, cv, absl::Hours(1), [&] { return ready; });
  });
  clock.AwaitSleepers(1);
  {
    std::lock_guard<std::mutex> lock(mu);
    ready = true;
  }
  cv.notify_all();
  waiter.join();
  EXPECT_TRUE(result);
  EXPECT_EQ(clock.Now(), kStart);
}

TEST(SimulatedClock, WaitForTimesOutOnlyWhenAdvancedPastItsDeadline) {
  SimulatedClock clock(kStart);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<bool> returned{false};
  bool result = true;
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mu);
    result = clock.WaitFor(lock, cv, absl::Seconds(5), [] { return false; });
    returned = true;
  });
  clock.AwaitSleepers(1);
  clock.Advance(absl::Seconds(4));
  EXPECT_FALSE(returned.load());
  clock.Advance(absl::Seconds(1));
  waiter.join();
  EXPECT_FALSE(result);
}

TEST(SimulatedClock, WaitForWithAConditionAlreadyTrueDoesNotWait) {
  SimulatedClock clock(kStart);
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  EXPECT_TRUE(clock.WaitFor(lock, cv, absl::InfiniteDuration(), [] { return true; }));
  EXPECT_FALSE(clock.WaitFor(lock, cv, absl::ZeroDuration(), [] { return false; }));
  EXPECT_TRUE(lock.owns_lock());
  EXPECT_EQ(clock.sleepers(), 0);
}

TEST(SimulatedClock, ManyWaitersAreEachReleasedAtTheirOwnDeadline) {
  SimulatedClock clock(kStart);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<int> returned{0};
  std::vector<std::thread> waiters;
  for (int seconds = 1; seconds <= 3; ++seconds) {
    waiters.emplace_back([&, seconds] {
      std::unique_lock<std::mutex> lock(mu);
      clock.WaitFor(lock, cv, absl::Seconds(seconds), [] { return false; });
      ++returned;
    });
  }
  clock.AwaitSleepers(3);
  clock.Advance(absl::Seconds(2));
  while (clock.sleepers() > 1) std::this_thread::yield();
  EXPECT_EQ(clock.sleepers(), 1);
  clock.Advance(absl::Seconds(1));
  for (auto& t : waiters) t.join();
  EXPECT_EQ(returned.load(), 3);
}

TEST(RealClock, WaitsThatNeedNoTimeReturnAtOnce) {
  const RealClock* clock = RealClock::Instance();
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  EXPECT_TRUE(clock->WaitFor(lock, cv, absl::InfiniteDuration(), [] { return true; }));
  EXPECT_FALSE(clock->WaitFor(lock, cv, -absl::Seconds(1), [] { return false; }));
  std::atomic<bool> stop{true};
  EXPECT_TRUE(clock->SleepUnlessStopped(absl::Hours(1), stop));
}

TEST(RealClock, MonotonicNeverGoesBack) {
  const RealClock* clock = RealClock::Instance();
  absl::Duration last = clock->Monotonic();
  for (int i = 0; i < 1000; ++i) {
    const absl::Duration now = clock->Monotonic();
    EXPECT_GE(now, last);
    last = now;
  }
}

}  // namespace
}  // namespace fleetcap
