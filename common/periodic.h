#pragma once
// Runs `work` on a thread of its own: at once, then every `interval` of
// `clock`'s time until destroyed. The destructor wakes the sleeping thread
// and waits for the run in progress.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/time/time.h"
#include "common/clock.h"

namespace fleetcap {

class Periodic {
 public:
  // `clock` must outlive this.
  Periodic(absl::Duration interval, const Clock* clock, std::function<void()> work)
      : interval_(interval), clock_(clock), work_(std::move(work)), thread_([this] { Run(); }) {}
  ~Periodic() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Periodic(const Periodic&) = delete;
  Periodic& operator=(const Periodic&) = delete;

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      lock.unlock();
      work_();
      lock.lock();
      clock_->WaitFor(lock, wake_, interval_, [this] { return stop_; });
    }
  }

  const absl::Duration interval_;
  const Clock* const clock_;
  const std::function<void()> work_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace fleetcap
