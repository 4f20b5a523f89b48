// The clocks ttldb reads, injectable through Options so that tests control
// time instead of sleeping.
#ifndef TTLDB_CLOCK_H_
#define TTLDB_CLOCK_H_

#include <atomic>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace ttldb {

// A source of wall time (for TTL cutoffs and $currentDate) and of steady
// time (for the monitor's sleep, immune to wall-clock jumps). Thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time: what a Date field is compared against.
  virtual absl::Time WallNow() = 0;
  // Monotonic time; only differences are meaningful.
  virtual absl::Time SteadyNow() = 0;

  // The process-wide real clock (never deleted).
  static Clock* Real();
};

// A clock that moves only when told to. Thread-safe.
class FakeClock : public Clock {
 public:
  explicit FakeClock(absl::Time start = absl::FromUnixSeconds(1'800'000'000))
      : wall_ns_(absl::ToUnixNanos(start)), steady_ns_(0) {}

  absl::Time WallNow() override { return absl::FromUnixNanos(wall_ns_.load()); }
  absl::Time SteadyNow() override {
    return absl::FromUnixNanos(steady_ns_.load());
  }
  // Moves both clocks forward by `d`.
  void Advance(absl::Duration d) {
    wall_ns_ += absl::ToInt64Nanoseconds(d);
    steady_ns_ += absl::ToInt64Nanoseconds(d);
  }
  // Sets the wall clock only (a clock jump); the steady clock is unchanged.
  void SetWall(absl::Time t) { wall_ns_ = absl::ToUnixNanos(t); }

 private:
  std::atomic<int64_t> wall_ns_;
  std::atomic<int64_t> steady_ns_;
};

}  // namespace ttldb

#endif  // TTLDB_CLOCK_H_
