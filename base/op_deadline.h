// The time limit of the operation running on the current thread: MongoDB's
// maxTimeMS. The command layer opens a ScopedOpDeadline around a command
// with maxTimeMS; the engine's scan loops call CheckOpDeadline once per
// document examined, as mongod's plan executors call
// OperationContext::checkForInterrupt, so a query that runs past its limit
// stops with 50 MaxTimeMSExpired "operation exceeded time limit"
// (src/mongo/db/operation_context.cpp). A thread-local, not a parameter: the
// limit must reach every scan (find, aggregate, count, distinct, the match
// phase of update, delete and findAndModify) without each API taking it.
#ifndef TTLDB_BASE_OP_DEADLINE_H_
#define TTLDB_BASE_OP_DEADLINE_H_

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "base/clock.h"

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

// OK when no deadline is in force on this thread or it has not passed; else
// 50 MaxTimeMSExpired "operation exceeded time limit". Costs a thread-local
// load when no deadline is set, one steady-clock read otherwise.
absl::Status CheckOpDeadline();

// The innermost deadline in force on this thread, or nullptr.
const ScopedOpDeadline* CurrentOpDeadline();

// The MaxTimeMSExpired error itself.
absl::Status MaxTimeExpiredError();

}  // namespace ttldb

#endif  // TTLDB_BASE_OP_DEADLINE_H_
