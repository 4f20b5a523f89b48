#include "storage/commit_queue.h"

#include <algorithm>

#include "absl/hash/hash.h"

namespace ttldb {
namespace storage {

void CommitQueue::Enqueue(Writer* w) {
  unfinished_.fetch_add(1, std::memory_order_acq_rel);
  MutexLock l(&mu_);
  for (uint64_t key : w->keys) ++pending_[key];
  queue_.push_back(w);
}

leveldb::Status CommitQueue::Await(Writer* w) {
  mu_.Lock();
  w->awaiting_ = true;
  while (!w->committed_ && leading_) w->cv_.Wait();
  while (!w->committed_) {
    // Lead: the front of the queue, up to the size limit, in one write.
    leading_ = true;
    Writer* first = queue_.front();
    size_t size = first->batch->ApproximateSize();
    const size_t max =
        size <= kSmallBatchBytes ? size + kSmallBatchBytes : kMaxGroupBytes;
    leveldb::WriteOptions options;
    options.sync = first->sync;
    leveldb::WriteBatch* batch = first->batch;
    size_t n = 1;
    for (; n < queue_.size(); ++n) {
      Writer* next = queue_[n];
      const size_t next_size = next->batch->ApproximateSize();
      if (size + next_size > max) break;
      if (batch == first->batch) {
        group_.Clear();
        group_.Append(*first->batch);
        batch = &group_;
      }
      group_.Append(*next->batch);
      size += next_size;
      options.sync = options.sync || next->sync;
    }
    mu_.Unlock();
    const leveldb::Status s = write_(options, batch);
    mu_.Lock();
    group_writes_.fetch_add(1, std::memory_order_relaxed);
    batches_written_.fetch_add(static_cast<int64_t>(n),
                               std::memory_order_relaxed);
    for (size_t k = 0; k < n; ++k) {
      Writer* done = queue_.front();
      queue_.pop_front();
      done->status_ = s;
      done->committed_ = true;
      done->awaiting_ = false;
      if (done != w) done->cv_.Signal();
    }
    leading_ = false;
    // The next group's leader: the first writer already waiting (a writer
    // that waits later leads itself when no group write is running).
    if (!w->committed_) continue;  // w's batch was beyond this group
    for (Writer* next : queue_) {
      if (next->awaiting_) {
        next->cv_.Signal();
        break;
      }
    }
  }
  const leveldb::Status s = w->status_;
  mu_.Unlock();
  return s;
}

void CommitQueue::Done(Writer* w) {
  {
    MutexLock l(&mu_);
    for (uint64_t key : w->keys) {
      auto it = pending_.find(key);
      if (it != pending_.end() && --it->second == 0) pending_.erase(it);
    }
    unfinished_.fetch_sub(1, std::memory_order_acq_rel);
  }
  done_cv_.SignalAll();
}

leveldb::Status CommitQueue::Write(const leveldb::WriteOptions& options,
                                   leveldb::WriteBatch* batch) {
  Writer w(this);
  w.batch = batch;
  w.sync = options.sync;
  Enqueue(&w);
  const leveldb::Status s = Await(&w);
  Done(&w);
  return s;
}

uint64_t CommitQueue::KeyHash(absl::string_view key) {
  return absl::Hash<absl::string_view>()(key);
}

void CommitQueue::AwaitKey(absl::string_view key) {
  if (unfinished_.load(std::memory_order_acquire) == 0) return;
  const uint64_t hash = KeyHash(key);
  MutexLock l(&mu_);
  while (pending_.contains(hash)) done_cv_.Wait();
}

void CommitQueue::AwaitAll() {
  if (unfinished_.load(std::memory_order_acquire) == 0) return;
  MutexLock l(&mu_);
  while (unfinished_.load(std::memory_order_acquire) > 0) done_cv_.Wait();
}

}  // namespace storage
}  // namespace ttldb
