// Mutex::LockFirst (base/mutex.h), issue 19: an index build's chunk commit
// takes the writers' lock ahead of a writer in a loop. With a plain
// std::mutex the writer re-took the lock before the woken build ran; the
// build's chunks waited 2.0 s of a 6.4 s scan (docs/benchmarks-history.md,
// round 5). No sleeps: each step waits for the state it needs.
#include "base/mutex.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

// A thread that calls Lock() after a LockFirst() caller started waiting
// gets the mutex after it, even if it reaches the mutex first.
TEST(MutexTest, LockFirstGoesAheadOfLaterLockCallers) {
  Mutex mu;
  std::vector<std::string> order;
  mu.Lock();  // held by the test: both threads queue
  std::thread first([&] {
    MutexLock l(&mu, MutexLock::First());
    order.push_back("first");
  });
  while (mu.first_waiters() == 0) std::this_thread::yield();
  std::atomic<bool> started{false};
  std::thread later([&] {
    started = true;
    MutexLock l(&mu);
    order.push_back("later");
  });
  while (!started) std::this_thread::yield();
  mu.Unlock();
  first.join();
  later.join();
  EXPECT_EQ(order, (std::vector<std::string>{"first", "later"}));
  EXPECT_EQ(mu.first_waiters(), 0);
}

// A background loop's LockAfterWaiters() lets the thread already waiting
// in Lock() go first (issue 29 item 5: a TTL pass's next chunk waits for
// the foreground writer that waited for its last one), and HasWaiters()
// tells the holder someone waits.
TEST(MutexTest, LockAfterWaitersLetsTheWaitingThreadGoFirst) {
  Mutex mu;
  std::vector<std::string> order;
  mu.Lock();  // held by the test, as by a pass's chunk
  EXPECT_FALSE(mu.HasWaiters());
  std::thread writer([&] {
    MutexLock l(&mu);
    order.push_back("writer");
  });
  while (!mu.HasWaiters()) std::this_thread::yield();
  std::thread pass([&] {
    mu.LockAfterWaiters(absl::Minutes(1));
    order.push_back("pass");
    mu.Unlock();
  });
  mu.Unlock();
  writer.join();
  pass.join();
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], "writer");
  EXPECT_EQ(order[1], "pass");
  EXPECT_FALSE(mu.HasWaiters());
}

// With nobody waiting it locks at once, whatever its bound.
TEST(MutexTest, LockAfterWaitersWithoutWaitersLocksAtOnce) {
  Mutex mu;
  mu.LockAfterWaiters(absl::Hours(1));
  EXPECT_FALSE(mu.HasWaiters());
  mu.Unlock();
}

}  // namespace
}  // namespace ttldb
