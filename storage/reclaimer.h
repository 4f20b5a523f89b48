// The reclaimer: a background thread owned by the engine that deletes the
// keys of ranges no catalog entry describes any more (engine/
// unknown_ranges.h) — those a drop just removed from the catalog, and those
// found at open (left by a drop or an index build that a crash or Close
// interrupted) — and then queues each range for compaction.
//
// Why it is safe without the writers' lock: a range is queued only once
// the catalog no longer names its id, ids are never handed out again, and
// every writer reads the catalog under the writers' lock, so no write can
// add a key to a queued range. The deletion is not atomic: a crash or
// Close in the middle leaves the rest, which the next open finds again
// (unknown ranges are computed from the catalog, not from a list of
// pending work).
//
// Bounded: each batch deletes at most kBatchKeys keys or kBatchBytes of
// keys, written unsynced through DbImpl::Commit (so a write failure is
// sticky like any other); Stop returns after the batch in progress.
//
// Thread-safe. Internal to the engine.
#ifndef TTLDB_STORAGE_RECLAIMER_H_
#define TTLDB_STORAGE_RECLAIMER_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "ttldb/logger.h"

namespace ttldb {

class Reclaimer {
 public:
  // 1000 keys (and at most 1 MiB of them) per batch: one batch is a short
  // LevelDB write that a concurrent writer barely waits behind, and the
  // memtable grows by little at a time.
  static constexpr int kBatchKeys = 1000;
  static constexpr size_t kBatchBytes = 1 << 20;

  // Adds to `batch` the deletion of the next keys of [*begin, end) (`end`
  // empty: to the end of the key space), at most kBatchKeys keys or
  // kBatchBytes of them; sets *n to how many. When keys remain, sets *more
  // and moves *begin just past the last key deleted: the next batch seeks
  // there instead of stepping over every tombstone written so far (a seek
  // from the range's start makes deleting a range quadratic). Used by the
  // reclaimer and by DbImpl::DeleteRange. Returns the iterator's status.
  static leveldb::Status NextDeleteBatch(leveldb::DB* db, std::string* begin,
                                         const std::string& end,
                                         leveldb::WriteBatch* batch, int* n,
                                         bool* more);

  struct Hooks {
    // Writes a batch of deletes (DbImpl::Commit).
    std::function<leveldb::Status(leveldb::WriteBatch*)> commit;
    // Queues [begin, end) for compaction (DbImpl::ScheduleCompaction).
    std::function<void(std::string begin, std::string end)> compact;
    // Messages (DbImpl::Log).
    std::function<void(LogLevel level, absl::string_view message)> log;
  };

  struct Stats {
    int64_t ranges_reclaimed = 0;  // deleted to their end
    int64_t keys_deleted = 0;
    int64_t failures = 0;  // ranges abandoned after a read or write error
  };

  Reclaimer(leveldb::DB* db, Hooks hooks);
  ~Reclaimer();  // Stop()

  // Queues the keys [begin, end) (`end` empty: to the end of the key
  // space) for deletion; `what` names them in log messages. Starts the
  // thread on first use. Ignored once Stop has been called.
  void Add(std::string begin, std::string end, std::string what);

  // Makes the thread stop after its current batch and joins it; queued
  // ranges are dropped (the next open finds what is left). Idempotent.
  void Stop();

  // Blocks until every queued range has been deleted (or abandoned), or
  // until Stop. For tests and benchmarks.
  void WaitIdle();

  Stats stats() const;

 private:
  struct Range {
    std::string begin, end, what;
  };
  void Loop();
  // Deletes one batch from the front of `range`; advances range->begin.
  // Returns true when the range is exhausted.
  bool DeleteBatch(Range* range, leveldb::Status* status, int64_t* deleted);

  // Constant after construction.
  leveldb::DB* const db_;
  const Hooks hooks_;

  mutable Mutex mu_;
  CondVar cv_{&mu_};
  std::deque<Range> queue_ ABSL_GUARDED_BY(mu_);
  bool busy_ ABSL_GUARDED_BY(mu_) = false;  // a range is being deleted
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  Stats stats_ ABSL_GUARDED_BY(mu_);
  std::thread thread_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_RECLAIMER_H_
