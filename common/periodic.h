#pragma once
// Runs `work` on a thread of its own: at once, then every `interval` until
// destroyed. The destructor wakes the sleeping thread and waits for the
// run in progress.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/time/time.h"

namespace fleetcap {

class Periodic {
 public:
  Periodic(absl::Duration interval, std::function<void()> work)
      : interval_(interval), work_(std::move(work)), thread_([this] { Run(); }) {}
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
      wake_.wait_for(lock, absl::ToChronoMilliseconds(interval_), [this] { return stop_; });
    }
  }

  const absl::Duration interval_;
  const std::function<void()> work_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace fleetcap
