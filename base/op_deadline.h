// The time limit of the operation running on the current thread: MongoDB's
// maxTimeMS. The command layer opens a ScopedOpDeadline around a command
// with maxTimeMS; the engine's scan loops call CheckOpDeadline once per
// document examined, as mongod's plan executors call
// OperationContext::checkForInterrupt, so a query that runs past its limit
// stops with 50 MaxTimeMSExpired "operation exceeded time limit"
// (src/mongo/db/operation_context.cpp). A thread-local, not a parameter: the
// limit must reach every scan (find, aggregate, count, distinct, the match
// phase of update, delete and findAndModify) without each API taking it.
//
// The same check is the operation's interrupt point for shutdown: while a
// ScopedShutdownInterrupt is alive, CheckOpDeadline also fails once the
// server has begun to shut down (mongod's killAllOperations at shutdown),
// so a long aggregation does not hold the server's exit.
#ifndef TTLDB_BASE_OP_DEADLINE_H_
#define TTLDB_BASE_OP_DEADLINE_H_

#include <atomic>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "ttldb/clock.h"

namespace ttldb {

// While alive, CheckOpDeadline on this thread fails once `clock`'s steady
// time reaches `deadline`. Nests: the innermost is in force, and the outer
// one is restored when it ends. Not copyable; lives on one thread.
class ScopedOpDeadline {
 public:
  ScopedOpDeadline(Clock* clock, absl::Time deadline);
  ~ScopedOpDeadline();
  ScopedOpDeadline(const ScopedOpDeadline&) = delete;
  ScopedOpDeadline& operator=(const ScopedOpDeadline&) = delete;

  Clock* clock() const { return clock_; }
  absl::Time deadline() const { return deadline_; }

 private:
  Clock* const clock_;
  const absl::Time deadline_;
  ScopedOpDeadline* const previous_;
};

// While alive, CheckOpDeadline on this thread fails with 11600
// InterruptedAtShutdown "interrupted at shutdown" once `*shutting_down`
// reads true. The flag is not owned and must outlive this. Nests (the
// innermost is in force); lives on one thread.
class ScopedShutdownInterrupt {
 public:
  explicit ScopedShutdownInterrupt(const std::atomic<bool>* shutting_down);
  ~ScopedShutdownInterrupt();
  ScopedShutdownInterrupt(const ScopedShutdownInterrupt&) = delete;
  ScopedShutdownInterrupt& operator=(const ScopedShutdownInterrupt&) = delete;

  const std::atomic<bool>* flag() const { return flag_; }

 private:
  const std::atomic<bool>* const flag_;
  ScopedShutdownInterrupt* const previous_;
};

// The operation's interrupt point. OK when no deadline is in force on this
// thread or it has not passed, and no shutdown has begun; else 11600
// InterruptedAtShutdown (checked first), or 50 MaxTimeMSExpired "operation
// exceeded time limit". Costs two thread-local loads when neither is set,
// an atomic load and one steady-clock read otherwise.
absl::Status CheckOpDeadline();

// The innermost deadline in force on this thread, or nullptr.
const ScopedOpDeadline* CurrentOpDeadline();

// The MaxTimeMSExpired error itself.
absl::Status MaxTimeExpiredError();

}  // namespace ttldb

#endif  // TTLDB_BASE_OP_DEADLINE_H_
