#include "common/clock.h"

#include <algorithm>
#include <chrono>

#include "absl/time/clock.h"

namespace fleetcap {
namespace {

// How often a sleep looks at its stop flag, which nothing notifies.
constexpr absl::Duration kStopPoll = absl::Milliseconds(20);
// A simulated wait also wakes this often in real time: Advance notifies the
// waiter's condition variable without holding the waiter's mutex, so a
// notification can fall between the waiter's check and its wait.
constexpr auto kSimulatedPoll = std::chrono::milliseconds(2);

}  // namespace

const RealClock* RealClock::Instance() {
  static const auto* clock = new RealClock;
  return clock;
}

absl::Time RealClock::Now() const { return absl::Now(); }

absl::Duration RealClock::Monotonic() const {
  return absl::FromChrono(std::chrono::steady_clock::now().time_since_epoch());
}

void RealClock::SleepFor(absl::Duration d) const { absl::SleepFor(d); }

bool RealClock::SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) const {
  const absl::Duration until = Monotonic() + d;
  for (absl::Duration now = Monotonic(); !stop.load() && now < until; now = Monotonic()) {
    absl::SleepFor(std::min(kStopPoll, until - now));
  }
  return stop.load();
}

bool RealClock::WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, absl::Duration timeout,
                        const std::function<bool()>& done) const {
  if (timeout == absl::InfiniteDuration()) {
    cv.wait(lock, done);
    return true;
  }
  return cv.wait_for(lock, absl::ToChronoNanoseconds(std::max(timeout, absl::ZeroDuration())), done);
}

class SimulatedClock::Sleeper {
 public:
  Sleeper(const SimulatedClock* clock, absl::Duration deadline, std::condition_variable* cv)
      : clock_(clock), deadline_(deadline), cv_(cv) {
    std::lock_guard<std::mutex> lock(clock_->mu_);
    clock_->deadlines_.insert(deadline_);
    if (cv_ != nullptr) clock_->waiting_on_.insert(cv_);
    clock_->changed_.notify_all();
  }
  ~Sleeper() {
    std::lock_guard<std::mutex> lock(clock_->mu_);
    clock_->deadlines_.erase(clock_->deadlines_.find(deadline_));
    if (cv_ != nullptr) clock_->waiting_on_.erase(clock_->waiting_on_.find(cv_));
    clock_->changed_.notify_all();
  }
  Sleeper(const Sleeper&) = delete;
  Sleeper& operator=(const Sleeper&) = delete;

 private:
  const SimulatedClock* clock_;
  const absl::Duration deadline_;
  std::condition_variable* cv_;
};

absl::Duration SimulatedClock::Monotonic() const {
  std::lock_guard<std::mutex> lock(time_mu_);
  return elapsed_;
}

void SimulatedClock::SleepFor(absl::Duration d) const {
  static const std::atomic<bool> never{false};
  SleepUnlessStopped(d, never);
}

bool SimulatedClock::SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) const {
  const absl::Duration until = Monotonic() + d;
  Sleeper sleeper(this, until, nullptr);
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop.load() && Monotonic() < until) changed_.wait_for(lock, absl::ToChronoNanoseconds(kStopPoll));
  return stop.load();
}

bool SimulatedClock::WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, absl::Duration timeout,
                             const std::function<bool()>& done) const {
  const absl::Duration until = Monotonic() + timeout;
  if (done()) return true;
  Sleeper sleeper(this, until, &cv);
  while (!done()) {
    if (Monotonic() >= until) return false;
    cv.wait_for(lock, kSimulatedPoll);
  }
  return true;
}

void SimulatedClock::Advance(absl::Duration d) {
  std::lock_guard<std::mutex> lock(mu_);
  {
    std::lock_guard<std::mutex> time_lock(time_mu_);
    elapsed_ += std::max(d, absl::ZeroDuration());
  }
  for (std::condition_variable* cv : waiting_on_) cv->notify_all();
  changed_.notify_all();
}

void SimulatedClock::AwaitSleepers(int n) const {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] {
    const auto ahead = std::distance(deadlines_.upper_bound(Monotonic()), deadlines_.end());
    return ahead >= n;
  });
}

int SimulatedClock::sleepers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(deadlines_.size());
}

absl::Duration SimulatedClock::UntilNextDeadline() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (deadlines_.empty()) return absl::InfiniteDuration();
  return std::max(*deadlines_.begin() - Monotonic(), absl::ZeroDuration());
}

}  // namespace fleetcap
