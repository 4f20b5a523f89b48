// Group commit: the writers' batches of ttldb go into LevelDB through one
// queue, and whoever waits first commits the queued batches in one
// leveldb::DB::Write (synced if any of them asks), as LevelDB's own
// DBImpl::Write writer queue and RocksDB's write groups do. The engine
// queues a document's batch under its writers' lock and waits for the
// commit after releasing it, so the next writer checks and builds its batch
// while the LevelDB write of the previous ones runs, and N concurrent
// writers pay one log append (one fsync with sync) instead of N, one after
// another, each under the lock (the convoy of issue 29).
//
// What a queued writer has not committed yet is not in LevelDB: a later
// writer that reads what it writes would see the old state. So each queued
// writer names the keys it changes that later writers read under the lock
// (its document key, its unique indexes' key values): AwaitKey(key) waits
// until no unfinished writer holds `key`, AwaitAll() until none is
// unfinished. A writer stays unfinished after its commit until Done (the
// engine's post-commit steps, the document cache's EndWrite, run first).
//
// Thread-safe. A failed group write fails every writer of the group with
// the same leveldb::Status (the write function's: the engine's sticky
// write-error rule then refuses every later write).
#ifndef TTLDB_STORAGE_COMMIT_QUEUE_H_
#define TTLDB_STORAGE_COMMIT_QUEUE_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"

namespace ttldb {
namespace storage {

class CommitQueue {
 public:
  // Commits one batch (with options.sync as asked); called without the
  // queue's lock, by one thread at a time.
  using WriteFn = std::function<leveldb::Status(const leveldb::WriteOptions&,
                                                leveldb::WriteBatch*)>;
  explicit CommitQueue(WriteFn write) : write_(std::move(write)) {}
  CommitQueue(const CommitQueue&) = delete;
  CommitQueue& operator=(const CommitQueue&) = delete;

  // One batch in the queue. Owned by its caller; lives from Enqueue to Done.
  class Writer {
   public:
    explicit Writer(CommitQueue* queue) : cv_(&queue->mu_) {}
    leveldb::WriteBatch* batch = nullptr;  // not owned; unchanged once queued
    bool sync = false;
    // The keys later writers' reads under the writers' lock must not see
    // before the commit (document keys, unique key values), by KeyHash:
    // AwaitKey. Two keys of one hash only make a later writer wait for an
    // unrelated commit.
    std::vector<uint64_t> keys;

   private:
    friend class CommitQueue;
    CondVar cv_;
    bool awaiting_ = false;   // in Await, not yet committed
    bool committed_ = false;  // status_ is set
    leveldb::Status status_;
  };

  // Queues `w` behind every writer queued before; returns at once. Its keys
  // are pending until Done(w).
  void Enqueue(Writer* w);
  // Waits until w's batch is committed and returns the group write's
  // status. The first writer to wait while no group write is running leads:
  // it writes the batches at the queue's front (its own among them, up to
  // kMaxGroupBytes) in one LevelDB write. Needs no other lock of the caller.
  leveldb::Status Await(Writer* w);
  // Ends `w` (after Await): its keys are no longer pending.
  void Done(Writer* w);
  // Enqueue, Await and Done: a synchronous commit through the queue.
  leveldb::Status Write(const leveldb::WriteOptions& options,
                        leveldb::WriteBatch* batch);

  // What Writer::keys holds for `key`.
  static uint64_t KeyHash(absl::string_view key);
  // Waits until no unfinished writer names `key`.
  void AwaitKey(absl::string_view key);
  // Waits until no writer is unfinished (callers hold the engine's
  // writers' lock, so no grouped writer can queue meanwhile).
  void AwaitAll();
  // Group writes so far and the batches they held (tests, benchmarks).
  int64_t group_writes() const { return group_writes_.load(); }
  int64_t batches_written() const { return batches_written_.load(); }

  // A group grows to about this many bytes (LevelDB's BuildBatchGroup:
  // 1 MiB, less behind a small first batch, so that a small write does not
  // wait for a large group): enough for hundreds of documents.
  static constexpr size_t kMaxGroupBytes = size_t{1} << 20;
  static constexpr size_t kSmallBatchBytes = size_t{128} << 10;

 private:
  const WriteFn write_;
  Mutex mu_;
  std::deque<Writer*> queue_ ABSL_GUARDED_BY(mu_);
  bool leading_ ABSL_GUARDED_BY(mu_) = false;  // a group write is running
  // Pending keys (with the number of unfinished writers naming each).
  absl::flat_hash_map<uint64_t, int> pending_ ABSL_GUARDED_BY(mu_);
  // Writers between Enqueue and Done (read without the lock as a fast path).
  std::atomic<int> unfinished_{0};
  CondVar done_cv_{&mu_};  // signalled by Done
  // The leader's batch of a group of several; used by the leader only.
  leveldb::WriteBatch group_;
  std::atomic<int64_t> group_writes_{0};
  std::atomic<int64_t> batches_written_{0};
};

}  // namespace storage
}  // namespace ttldb

#endif  // TTLDB_STORAGE_COMMIT_QUEUE_H_
