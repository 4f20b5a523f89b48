#include "ttldb/clock.h"

#include <chrono>

namespace ttldb {
namespace {

class RealClock : public Clock {
 public:
  absl::Time WallNow() override { return absl::Now(); }
  absl::Time SteadyNow() override {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
    return absl::FromUnixNanos(ns);
  }
};

}  // namespace

Clock* Clock::Real() {
  static Clock* clock = new RealClock;
  return clock;
}

}  // namespace ttldb
