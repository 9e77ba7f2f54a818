#pragma once
// Time is injected: production code asks a Clock for the time and for its
// waits, so that a rule that depends on time (a minute closing, a flush
// cadence, a backoff) is tested on a SimulatedClock, without sleeping.
// Outside this file and the `main`s nothing reads the wall clock or sleeps
// directly (scripts/check_clock_use.sh, a test, enforces it).

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>

#include "absl/time/time.h"

namespace fleetcap {

class Clock {
 public:
  virtual ~Clock() = default;
  // The wall clock: for what is stored or compared with other machines.
  virtual absl::Time Now() const = 0;
  // Time since an arbitrary origin that never goes back: for intervals
  // (latencies, timeouts), which must not jump when the wall clock is set.
  virtual absl::Duration Monotonic() const = 0;
  virtual void SleepFor(absl::Duration d) const = 0;
  // Sleeps for `d` or until *stop becomes true, whichever is first; returns
  // whether *stop is true. *stop is noticed within a few milliseconds.
  virtual bool SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) const = 0;
  // std::condition_variable::wait_for in this clock's time: with `lock`
  // held on entry and on return, waits on `cv` until `done()` holds or
  // `timeout` has passed; returns done(). `cv` must be notified when what
  // done() reads changes, as for wait_for.
  virtual bool WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, absl::Duration timeout,
                       const std::function<bool()>& done) const = 0;
};

class RealClock : public Clock {
 public:
  // A process-wide instance, for defaults where no clock is given.
  static const RealClock* Instance();

  absl::Time Now() const override;
  absl::Duration Monotonic() const override;
  void SleepFor(absl::Duration d) const override;
  bool SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) const override;
  bool WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, absl::Duration timeout,
               const std::function<bool()>& done) const override;
};

// A clock that moves only when told to. Now() and Monotonic() advance
// together; a sleep or wait returns once Advance has taken the time past its
// deadline (or its condition holds). Thread-safe.
class SimulatedClock : public Clock {
 public:
  explicit SimulatedClock(absl::Time start) : start_(start) {}

  absl::Time Now() const override { return start_ + Monotonic(); }
  absl::Duration Monotonic() const override;
  void SleepFor(absl::Duration d) const override;
  bool SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) const override;
  bool WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, absl::Duration timeout,
               const std::function<bool()>& done) const override;

  // Moves time forward by `d` (not negative) and wakes the sleeps and waits
  // it takes past their deadline.
  void Advance(absl::Duration d);
  // Blocks until at least `n` threads sleep or wait on this clock with
  // their deadline still ahead, so that a test advances time only once the
  // code under test waits for it again (a sleeper whose deadline passed is
  // not counted while it has yet to wake).
  void AwaitSleepers(int n) const;
  // Threads sleeping or waiting on this clock now, woken or not.
  int sleepers() const;
  // How far the earliest deadline of those is ahead (zero if already
  // passed); InfiniteDuration when none sleeps or none has a deadline.
  absl::Duration UntilNextDeadline() const;

 private:
  // Counts a thread, with its deadline, while it sleeps or waits.
  class Sleeper;

  const absl::Time start_;
  mutable std::mutex time_mu_;
  absl::Duration elapsed_;  // exact (absl::Duration is finer than a nanosecond); guarded by time_mu_
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;                     // time moved, or a sleeper came or went
  mutable std::multiset<std::condition_variable*> waiting_on_;  // the WaitFor callers' variables; guarded by mu_
  mutable std::multiset<absl::Duration> deadlines_;             // one per sleeper, on Monotonic(); guarded by mu_
};

}  // namespace fleetcap
