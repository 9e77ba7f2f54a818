#pragma once
// Time is injected: production code asks a Clock, tests use SimulatedClock.

#include <atomic>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace fleetcap {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
};

class RealClock : public Clock {
 public:
  absl::Time Now() const override { return absl::Now(); }
};

// A clock that moves only when told to. Thread-safe.
class SimulatedClock : public Clock {
 public:
  explicit SimulatedClock(absl::Time start) : nanos_(absl::ToUnixNanos(start)) {}
  absl::Time Now() const override { return absl::FromUnixNanos(nanos_.load()); }
  void Advance(absl::Duration d) { nanos_ += absl::ToInt64Nanoseconds(d); }

 private:
  std::atomic<int64_t> nanos_;
};

}  // namespace fleetcap
