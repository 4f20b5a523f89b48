#include "storage/reclaimer.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/start_thread.h"
#include "base/sync_point.h"
#include "storage/leveldb_status.h"

namespace ttldb {

Reclaimer::Reclaimer(leveldb::DB* db, Hooks hooks)
    : db_(db), hooks_(std::move(hooks)) {}

Reclaimer::~Reclaimer() { Stop(); }

void Reclaimer::Add(std::string begin, std::string end, std::string what) {
  MutexLock l(&mu_);
  if (stop_) return;
  queue_.push_back({std::move(begin), std::move(end), std::move(what)});
  // A refused thread leaves the work queued: the next Add tries again, and
  // reopening the database finds the garbage anyway (storage/reclaimer.h).
  if (!thread_.joinable()) {
    StartThread(
        &thread_, [this] { Loop(); }, "the reclaimer")
        .IgnoreError();
  }
  cv_.SignalAll();
}

void Reclaimer::Stop() {
  std::thread thread;
  {
    MutexLock l(&mu_);
    stop_ = true;
    queue_.clear();
    cv_.SignalAll();
    thread = std::move(thread_);
  }
  TTLDB_SYNC_POINT("Reclaimer::Stopping");
  if (thread.joinable()) thread.join();
}

void Reclaimer::WaitIdle() {
  MutexLock l(&mu_);
  while ((!queue_.empty() || busy_) && !stop_) cv_.Wait();
}

Reclaimer::Stats Reclaimer::stats() const {
  MutexLock l(&mu_);
  return stats_;
}

leveldb::Status Reclaimer::NextDeleteBatch(leveldb::DB* db, std::string* begin,
                                           const std::string& end,
                                           leveldb::WriteBatch* batch, int* n,
                                           bool* more) {
  *n = 0;
  *more = false;
  std::string last;
  size_t bytes = 0;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  for (it->Seek(*begin);
       it->Valid() && (end.empty() || it->key().compare(end) < 0); it->Next()) {
    if (*n >= kBatchKeys || bytes >= kBatchBytes) {
      *more = true;
      break;
    }
    batch->Delete(it->key());
    bytes += it->key().size();
    ++*n;
    last.assign(it->key().data(), it->key().size());
  }
  if (!it->status().ok()) return it->status();
  if (*more) {
    // The smallest key after `last`.
    *begin = std::move(last);
    begin->push_back('\0');
  }
  return leveldb::Status::OK();
}

bool Reclaimer::DeleteBatch(Range* range, leveldb::Status* status,
                            int64_t* deleted) {
  *deleted = 0;
  leveldb::WriteBatch batch;
  int n = 0;
  bool more = false;
  // range->begin moves only once the batch is written.
  std::string next = range->begin;
  *status = NextDeleteBatch(db_, &next, range->end, &batch, &n, &more);
  if (!status->ok()) return true;
  if (n > 0) {
    *status = hooks_.commit(&batch);
    if (!status->ok()) return true;
  }
  *deleted = n;
  range->begin = std::move(next);
  return !more;
}

void Reclaimer::Loop() {
  MutexLock l(&mu_);
  while (true) {
    while (queue_.empty() && !stop_) cv_.Wait();
    if (stop_) break;
    Range range = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    mu_.Unlock();
    TTLDB_SYNC_POINT("Reclaimer::BeforeRange");
    const std::string begin = range.begin;
    const absl::Time start = absl::Now();
    int64_t total = 0;
    leveldb::Status status;
    bool done = false, stopped = false;
    while (!done) {
      int64_t n = 0;
      done = DeleteBatch(&range, &status, &n);
      total += n;
      {
        MutexLock sl(&mu_);
        stats_.keys_deleted += n;
      }
      if (!status.ok()) break;
      TTLDB_SYNC_POINT("Reclaimer::AfterBatch");
      MutexLock sl(&mu_);
      if (stop_ && !done) {
        stopped = true;
        break;
      }
    }
    if (!status.ok()) {
      hooks_.log(
          LogLevel::kWarning,
          absl::StrCat(storage::FromLevelDB(
                           status, absl::StrCat("reclaiming ", range.what))
                           .message(),
                       " (after ", total, " keys; the next open retries)"));
    } else if (stopped) {
      hooks_.log(LogLevel::kInfo,
                 absl::StrCat("stopped reclaiming ", range.what, " after ",
                              total, " keys (the next open resumes)"));
    } else {
      if (total > 0) hooks_.compact(begin, range.end);
      hooks_.log(LogLevel::kInfo,
                 absl::StrCat("reclaimed ", range.what, ": ", total,
                              " keys deleted in ",
                              absl::FormatDuration(absl::Now() - start)));
    }
    mu_.Lock();
    if (!status.ok()) {
      ++stats_.failures;
    } else if (!stopped) {
      ++stats_.ranges_reclaimed;
    }
    busy_ = false;
    cv_.SignalAll();
  }
  busy_ = false;
  cv_.SignalAll();
}

}  // namespace ttldb
