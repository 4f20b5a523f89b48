#include "ttl/schedule.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace {

const absl::Time kSteady = absl::FromUnixSeconds(1000);  // steady "now"
const absl::Time kWall = absl::FromUnixSeconds(1'800'000'000);
const absl::Duration kMin = absl::Milliseconds(100);

TEST(NextPassSteadyTimeTest, RegularIntervalFromEndOfLastPass) {
  const absl::Time end = kSteady - absl::Seconds(10);
  EXPECT_EQ(NextPassSteadyTime(end, absl::Seconds(60), std::nullopt, kWall,
                               kSteady, kMin),
            end + absl::Seconds(60));
}

TEST(NextPassSteadyTimeTest, ExactWakeupAtTheNextExpiry) {
  const absl::Time end = kSteady - absl::Seconds(10);
  // Expires in 5 s of wall time: wake in 5 s of steady time.
  EXPECT_EQ(NextPassSteadyTime(end, absl::Seconds(60), kWall + absl::Seconds(5),
                               kWall, kSteady, kMin),
            kSteady + absl::Seconds(5));
  // An expiry after the regular interval changes nothing.
  EXPECT_EQ(
      NextPassSteadyTime(end, absl::Seconds(60), kWall + absl::Seconds(600),
                         kWall, kSteady, kMin),
      end + absl::Seconds(60));
}

TEST(NextPassSteadyTimeTest, NeverSoonerThanMinInterval) {
  const absl::Time end = kSteady - absl::Milliseconds(10);
  // Already due (or due in 1 ms): the pass waits for the minimum gap.
  EXPECT_EQ(NextPassSteadyTime(end, absl::Seconds(60),
                               kWall - absl::Seconds(30), kWall, kSteady, kMin),
            end + kMin);
  EXPECT_EQ(
      NextPassSteadyTime(end, absl::Seconds(60), kWall + absl::Milliseconds(1),
                         kWall, kSteady, kMin),
      end + kMin);
  // A sleep shorter than the minimum gap still rules.
  EXPECT_EQ(NextPassSteadyTime(end, absl::Milliseconds(20),
                               kWall - absl::Seconds(30), kWall, kSteady, kMin),
            end + absl::Milliseconds(20));
}

TEST(NextPassSteadyTimeTest, FarFutureExpiryDoesNotOverflow) {
  const absl::Time end = kSteady;
  EXPECT_EQ(NextPassSteadyTime(end, absl::Seconds(60), absl::InfiniteFuture(),
                               kWall, kSteady, kMin),
            end + absl::Seconds(60));
}

TEST(RateCapTest, BatchDocs) {
  EXPECT_EQ(RateCappedBatchDocs(50'000, 0), 50'000);
  EXPECT_EQ(RateCappedBatchDocs(50'000, -3), 50'000);
  EXPECT_EQ(RateCappedBatchDocs(50'000, 1000), 1000);
  EXPECT_EQ(RateCappedBatchDocs(50'000, 1000.7), 1000);
  EXPECT_EQ(RateCappedBatchDocs(50'000, 0.25), 1);
  EXPECT_EQ(RateCappedBatchDocs(500, 1e9), 500);
}

TEST(RateCapTest, NextAllowedSpacesBatches) {
  const absl::Time t0 = absl::FromUnixSeconds(100);
  // No cap: never waits.
  EXPECT_EQ(RateCapNextAllowed(absl::InfinitePast(), t0, 1'000'000, 0),
            absl::InfinitePast());
  // 1000 docs at 500/s: the next batch waits 2 s after this one started.
  absl::Time next = RateCapNextAllowed(absl::InfinitePast(), t0, 1000, 500);
  EXPECT_EQ(next, t0 + absl::Seconds(2));
  // A batch started early (before `next`) is charged from `next`.
  next = RateCapNextAllowed(next, t0 + absl::Seconds(1), 500, 500);
  EXPECT_EQ(next, t0 + absl::Seconds(3));
  // Idle time earns no credit: charged from the batch's own start.
  next = RateCapNextAllowed(next, t0 + absl::Seconds(100), 250, 500);
  EXPECT_EQ(next, t0 + absl::Seconds(100) + absl::Milliseconds(500));
}

TEST(RateCapTest, LongRunRateStaysUnderTheCap) {
  // Simulate a monitor that always starts a batch as soon as allowed.
  const double cap = 300;
  const int64_t batch = RateCappedBatchDocs(50'000, cap);
  absl::Time now = absl::FromUnixSeconds(0);
  absl::Time next = absl::InfinitePast();
  int64_t deleted = 0;
  for (int i = 0; i < 1000; ++i) {
    now = std::max(now, next);
    deleted += batch;
    next = RateCapNextAllowed(next, now, batch, cap);
  }
  // 1000 batches of 300 started over 999 s: at most cap plus one batch.
  EXPECT_LE(
      deleted,
      cap * absl::ToDoubleSeconds(now - absl::FromUnixSeconds(0)) + batch);
  EXPECT_EQ(now, absl::FromUnixSeconds(999));
}

}  // namespace
}  // namespace ttldb
