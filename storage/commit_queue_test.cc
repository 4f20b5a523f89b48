// storage/commit_queue.h: group commit and the pending keys of queued
// writers, against a write function that records what it is given.
#include "storage/commit_queue.h"

#include <atomic>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "leveldb/write_batch.h"

namespace ttldb {
namespace storage {
namespace {

class CommitQueueTest : public ::testing::Test {
 protected:
  // Each LevelDB write: how many batch entries it held, and whether synced.
  struct Write {
    int entries;
    bool sync;
  };
  CommitQueue queue_{[this](const leveldb::WriteOptions& o,
                            leveldb::WriteBatch* b) {
    writes_.push_back({b->ApproximateSize() > 12 ? CountPuts(*b) : 0, o.sync});
    return status_;
  }};
  static int CountPuts(const leveldb::WriteBatch& b) {
    struct Counter : leveldb::WriteBatch::Handler {
      int n = 0;
      void Put(const leveldb::Slice&, const leveldb::Slice&) override { ++n; }
      void Delete(const leveldb::Slice&) override { ++n; }
    } c;
    EXPECT_TRUE(b.Iterate(&c).ok());
    return c.n;
  }
  std::vector<Write> writes_;  // written by the leader only
  leveldb::Status status_;
};

TEST_F(CommitQueueTest, WriteCommitsTheBatch) {
  leveldb::WriteBatch b;
  b.Put("k", "v");
  leveldb::WriteOptions o;
  o.sync = true;
  ASSERT_TRUE(queue_.Write(o, &b).ok());
  ASSERT_EQ(writes_.size(), 1u);
  EXPECT_EQ(writes_[0].entries, 1);
  EXPECT_TRUE(writes_[0].sync);
  EXPECT_EQ(queue_.group_writes(), 1);
  EXPECT_EQ(queue_.batches_written(), 1);
}

TEST_F(CommitQueueTest, QueuedWritersGoInOneWrite) {
  // Both queued before either waits: the first to wait leads and writes
  // both in one LevelDB write, synced because one of them asks.
  leveldb::WriteBatch b1, b2;
  b1.Put("a", "1");
  b2.Put("b", "2");
  b2.Delete("c");
  CommitQueue::Writer w1(&queue_), w2(&queue_);
  w1.batch = &b1;
  w2.batch = &b2;
  w2.sync = true;
  queue_.Enqueue(&w1);
  queue_.Enqueue(&w2);
  EXPECT_TRUE(queue_.Await(&w1).ok());
  EXPECT_TRUE(queue_.Await(&w2).ok());  // already committed by w1
  queue_.Done(&w1);
  queue_.Done(&w2);
  ASSERT_EQ(writes_.size(), 1u);
  EXPECT_EQ(writes_[0].entries, 3);
  EXPECT_TRUE(writes_[0].sync);
  EXPECT_EQ(queue_.group_writes(), 1);
  EXPECT_EQ(queue_.batches_written(), 2);
}

TEST_F(CommitQueueTest, AFailedGroupFailsEveryWriter) {
  status_ = leveldb::Status::IOError("disk");
  leveldb::WriteBatch b1, b2;
  b1.Put("a", "1");
  b2.Put("b", "2");
  CommitQueue::Writer w1(&queue_), w2(&queue_);
  w1.batch = &b1;
  w2.batch = &b2;
  queue_.Enqueue(&w1);
  queue_.Enqueue(&w2);
  EXPECT_TRUE(queue_.Await(&w2).IsIOError());
  EXPECT_TRUE(queue_.Await(&w1).IsIOError());
  queue_.Done(&w1);
  queue_.Done(&w2);
  EXPECT_EQ(writes_.size(), 1u);
}

TEST_F(CommitQueueTest, AwaitKeyWaitsForTheWriterOfThatKeyOnly) {
  leveldb::WriteBatch b;
  b.Put("doc", "v");
  CommitQueue::Writer w(&queue_);
  w.batch = &b;
  w.keys = {CommitQueue::KeyHash("doc"), CommitQueue::KeyHash("unique")};
  queue_.Enqueue(&w);
  ASSERT_TRUE(queue_.Await(&w).ok());
  // Committed but not Done: the key is still pending (the engine's
  // post-commit steps have not run).
  queue_.AwaitKey("other");  // returns at once
  std::atomic<bool> returned{false};
  absl::Notification started;
  std::thread reader([&] {
    started.Notify();
    queue_.AwaitKey("unique");
    returned = true;
  });
  started.WaitForNotification();
  // It cannot return before Done; a wrong queue lets it return at once,
  // which this window catches nearly always (it cannot fail a right one).
  absl::SleepFor(absl::Milliseconds(20));
  EXPECT_FALSE(returned.load());
  queue_.Done(&w);
  reader.join();
  EXPECT_TRUE(returned.load());
  queue_.AwaitKey("doc");  // no longer pending
  queue_.AwaitAll();
}

}  // namespace
}  // namespace storage
}  // namespace ttldb
