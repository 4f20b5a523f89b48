// The one mapping from a failed LevelDB operation to the MongoDB error a
// client sees, so that it can tell damage and a full disk from a server bug
// (code 1). Modelled on RocksDB's ErrorHandler (db/error_handler.cc): one
// closed table of what LevelDB reports, and a sticky write error. No other
// code formats a leveldb::Status itself.
//
// The table (first match wins):
//  - a full disk (ENOSPC): 14031 OutOfDiskSpace, as mongod reports it;
//  - no descriptor left (EMFILE): 264 TooManyFilesOpen;
//  - the directory's LOCK held (by this or another process):
//    FailedPrecondition, "already open";
//  - corruption, and a file LevelDB needs that is missing (NotFound: a
//    table file, MANIFEST or CURRENT): 301 DataCorruptionDetected, naming
//    `ttldb repair` (docs/operations.md);
//  - an invalid argument (only at open): InvalidArgument;
//  - anything else: Internal (1).
#ifndef TTLDB_STORAGE_LEVELDB_STATUS_H_
#define TTLDB_STORAGE_LEVELDB_STATUS_H_

#include <atomic>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "base/mutex.h"
#include "leveldb/db.h"
#include "leveldb/options.h"
#include "leveldb/status.h"

namespace ttldb {
namespace storage {

// What to do about a damaged database, appended to every 301 message.
inline constexpr absl::string_view kRepairAdvice =
    "restore it from a backup, or run `ttldb repair` on a copy of the "
    "directory";

// The status of a failed LevelDB operation: `what` names the operation
// ("reading collection 'c'", "write", "opening database '/d'"), and the
// message reads "<what> failed: <why> (<LevelDB's message>)". OK for an OK
// `s`.
absl::Status FromLevelDB(const leveldb::Status& s, absl::string_view what);

// ReadOptions with verify_checksums set (and `snapshot`): a corrupted block
// fails the read instead of yielding fewer keys.
leveldb::ReadOptions VerifiedRead(const leveldb::Snapshot* snapshot = nullptr);

// The first failed write of a database, kept until it is reopened: after a
// failed leveldb::DB::Write LevelDB's state is unknown (its log may hold
// half a batch), so every later write is refused (RocksDB's background
// error). Thread-safe; IsSet is lock-free for the write path.
class StickyWriteError {
 public:
  // Records `s` (not OK) if no failure is recorded yet; true if it was the
  // first.
  bool Record(const leveldb::Status& s);
  bool IsSet() const { return set_.load(std::memory_order_acquire); }
  // The status of a write refused after the failure: OutOfDiskSpace (14031)
  // when the disk was full, FailedPrecondition otherwise; it names the first
  // failure and says to reopen. OK when no write failed.
  absl::Status Refusal() const;
  // The same as a leveldb::Status, for a commit refused after the failure
  // (FromLevelDB maps it as the first failure).
  leveldb::Status RefusedWrite() const;

 private:
  mutable Mutex mu_;
  std::string first_ ABSL_GUARDED_BY(mu_);
  // Whether first_ is set (set once, after first_, never cleared).
  std::atomic<bool> set_{false};
};

}  // namespace storage
}  // namespace ttldb

#endif  // TTLDB_STORAGE_LEVELDB_STATUS_H_
