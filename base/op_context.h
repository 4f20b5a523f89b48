// What the operation running on the current thread carries besides its
// time limit (base/op_deadline.h): the kill flag that killOp sets, and the
// counters of what it examined. Like the deadline, thread-locals: they
// must reach every scan without each API taking them.
#ifndef TTLDB_BASE_OP_CONTEXT_H_
#define TTLDB_BASE_OP_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace ttldb {

// While alive, CheckOpDeadline (base/op_deadline.h) on this thread fails
// with 11601 Interrupted "operation was interrupted" once `*killed` reads
// true (after the shutdown check, before the deadline's): mongod's killOp,
// OperationContext::markKilled. The flag is not owned and must outlive
// this. Nests (the innermost is in force); lives on one thread.
class ScopedKillInterrupt {
 public:
  explicit ScopedKillInterrupt(const std::atomic<bool>* killed);
  ~ScopedKillInterrupt();
  ScopedKillInterrupt(const ScopedKillInterrupt&) = delete;
  ScopedKillInterrupt& operator=(const ScopedKillInterrupt&) = delete;

  const std::atomic<bool>* flag() const { return flag_; }

 private:
  const std::atomic<bool>* const flag_;
  ScopedKillInterrupt* const previous_;
};

// What the operation examined, for the profiler and the slow query log
// (mongod's OpDebug keysExamined / docsExamined, and CurOp's planSummary:
// "COLLSCAN", "IDHACK", "IXSCAN { a: 1 }", the first query the operation
// planned; empty when it planned none).
struct OpCounters {
  int64_t keys_examined = 0;
  int64_t docs_examined = 0;
  // Index keys written and deleted, the _id index's included (a new
  // document's key, a removed one's): OpDebug keysInserted / keysDeleted.
  int64_t keys_inserted = 0;
  int64_t keys_deleted = 0;
  std::string plan_summary;
};

// While alive, the engine's scans on this thread count into counters().
// Nests (the innermost counts); lives on one thread.
class ScopedOpCounters {
 public:
  ScopedOpCounters();
  ~ScopedOpCounters();
  ScopedOpCounters(const ScopedOpCounters&) = delete;
  ScopedOpCounters& operator=(const ScopedOpCounters&) = delete;

  const OpCounters& counters() const { return counters_; }

 private:
  friend OpCounters* CurrentOpCounters();
  friend void CountKeyExamined();
  friend void CountDocExamined();
  friend void CountKeysWritten(int64_t inserted, int64_t deleted);
  OpCounters counters_;
  ScopedOpCounters* const previous_;
};

// The innermost counters of this thread, or nullptr: one thread-local load.
OpCounters* CurrentOpCounters();

// Count one index key / one document examined in the innermost counters
// (nothing when there are none). The engine's scans call them; they are
// also declared in engine/query_exec.cc, which does not depend on this
// header's target (see the comment there).
void CountKeyExamined();
void CountDocExamined();
// The DocumentWriter's count of the index keys it puts and deletes.
void CountKeysWritten(int64_t inserted, int64_t deleted);

}  // namespace ttldb

#endif  // TTLDB_BASE_OP_CONTEXT_H_
