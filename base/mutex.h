// A mutex and condition variable over std::mutex with Abseil's thread-safety
// annotations (as LevelDB's port layer does). Debian's Abseil is not built
// with TSan, so absl::Mutex would give false race reports under -fsanitize=
// thread; std::mutex keeps TSan exact and the annotations meaningful.
#ifndef TTLDB_BASE_MUTEX_H_
#define TTLDB_BASE_MUTEX_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"

namespace ttldb {

class ABSL_LOCKABLE Mutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    if (first_waiters_.load(std::memory_order_acquire) > 0) WaitBehindFirst();
    if (mu_.try_lock()) return;
    waiters_.fetch_add(1);
    mu_.lock();
    Acquired();
  }
  // Takes the mutex ahead of the threads that call Lock() meanwhile: they
  // wait until this thread holds it. std::mutex is not fair: a thread that
  // unlocks and locks again at once (a writer in a loop) takes it again
  // before a woken waiter runs, so a thread that needs the mutex briefly
  // between long stretches without it (an index build's chunks) can wait
  // for seconds. At most one Lock() that raced this call goes first.
  void LockFirst() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    first_waiters_.fetch_add(1, std::memory_order_acq_rel);
    waiters_.fetch_add(1);
    mu_.lock();
    {
      std::lock_guard<std::mutex> g(gate_mu_);
      first_waiters_.fetch_sub(1, std::memory_order_acq_rel);
    }
    gate_cv_.notify_all();
    Acquired();
  }
  // A background loop's lock (a TTL pass between its chunks): the threads
  // already waiting for the mutex when it is called take it first, so that
  // a loop that unlocks and locks again does not make them wait for its
  // next stretch too. Waits at most `max_wait` for them (a stream of
  // waiters never starves the loop), then locks as Lock() does.
  void LockAfterWaiters(absl::Duration max_wait)
      ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    if (waiters_.load() > 0) {
      yielders_.fetch_add(1);
      {
        std::unique_lock<std::mutex> g(gate_mu_);
        gate_cv_.wait_for(g, absl::ToChronoNanoseconds(max_wait),
                          [this] { return waiters_.load() == 0; });
      }
      yielders_.fetch_sub(1);
    }
    Lock();
  }
  // Whether a thread is waiting in Lock() or LockFirst() (the holder of a
  // long stretch can then end it early). A hint: it may change at once.
  bool HasWaiters() const {
    return waiters_.load(std::memory_order_relaxed) > 0;
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  void AssertHeld() ABSL_ASSERT_EXCLUSIVE_LOCK() {}
  // LockFirst() callers still waiting for the mutex (tests).
  int first_waiters() const {
    return first_waiters_.load(std::memory_order_acquire);
  }

 private:
  friend class CondVar;
  // After a waiting Lock() or LockFirst() took mu_: wakes the
  // LockAfterWaiters() callers once no waiter is left. (seq_cst: a caller
  // that saw waiters_ > 0 counts itself in yielders_ before it waits, so
  // either this sees it or it sees waiters_ fall; the wait is bounded
  // anyway.)
  void Acquired() {
    if (waiters_.fetch_sub(1) == 1 && yielders_.load() > 0) {
      std::lock_guard<std::mutex> g(gate_mu_);
      gate_cv_.notify_all();
    }
  }
  void WaitBehindFirst() {
    std::unique_lock<std::mutex> g(gate_mu_);
    gate_cv_.wait(g, [this] {
      return first_waiters_.load(std::memory_order_acquire) == 0;
    });
  }

  std::mutex mu_;
  // LockFirst() callers that do not hold mu_ yet; Lock() waits on gate_cv_
  // while there are any (and LockAfterWaiters() callers while waiters_ > 0).
  std::atomic<int> first_waiters_{0};
  // Threads in Lock() or LockFirst() that do not hold mu_ yet (counted
  // only when mu_ was taken: the uncontended Lock() costs what
  // std::mutex::lock costs), and LockAfterWaiters() callers waiting for
  // them.
  std::atomic<int> waiters_{0};
  std::atomic<int> yielders_{0};
  std::mutex gate_mu_;
  std::condition_variable gate_cv_;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  // With Mutex::LockFirst().
  struct First {};
  MutexLock(Mutex* mu, First) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->LockFirst();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

class CondVar {
 public:
  explicit CondVar(Mutex* mu) : mu_(mu) {}
  // Waits until signalled (or spuriously); `mu` must be held.
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // Waits at most `timeout` (real time); returns false on timeout.
  bool WaitFor(absl::Duration timeout) {
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    auto status = cv_.wait_for(lock, absl::ToChronoNanoseconds(timeout));
    lock.release();
    return status == std::cv_status::no_timeout;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  Mutex* const mu_;
  std::condition_variable cv_;
};

}  // namespace ttldb

#endif  // TTLDB_BASE_MUTEX_H_
