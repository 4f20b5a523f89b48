#include "storage/leveldb_status.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace storage {
namespace {

// The rows of the table in leveldb_status.h.
enum class Failure {
  kDiskFull,
  kTooManyFiles,
  kLockHeld,
  kCorrupt,
  kInvalidArgument,
  kOther,
};

Failure Classify(const leveldb::Status& s, const std::string& msg) {
  // PosixEnv's messages: strerror(ENOSPC), strerror(EMFILE), and
  // "lock <dir>/LOCK: ..." when LockFile fails.
  if (absl::StrContains(msg, "No space left on device")) {
    return Failure::kDiskFull;
  }
  if (absl::StrContains(msg, "Too many open files")) {
    return Failure::kTooManyFiles;
  }
  if (s.IsIOError() && absl::StrContains(msg, "lock ") &&
      absl::StrContains(msg, "LOCK")) {
    return Failure::kLockHeld;
  }
  if (s.IsCorruption() || s.IsNotFound()) return Failure::kCorrupt;
  if (s.IsInvalidArgument()) return Failure::kInvalidArgument;
  return Failure::kOther;
}

absl::Status StatusFor(Failure failure, absl::string_view message) {
  switch (failure) {
    case Failure::kDiskFull:
      return MongoError(absl::StatusCode::kResourceExhausted, kOutOfDiskSpace,
                        message);
    case Failure::kTooManyFiles:
      return MongoError(absl::StatusCode::kResourceExhausted, kTooManyFilesOpen,
                        message);
    case Failure::kLockHeld:
      return absl::FailedPreconditionError(message);
    case Failure::kCorrupt:
      return MongoError(absl::StatusCode::kDataLoss, kDataCorruptionDetected,
                        message);
    case Failure::kInvalidArgument:
      return absl::InvalidArgumentError(message);
    case Failure::kOther:
      break;
  }
  return absl::InternalError(message);
}

}  // namespace

absl::Status FromLevelDB(const leveldb::Status& s, absl::string_view what) {
  if (s.ok()) return absl::OkStatus();
  const std::string msg = s.ToString();
  const Failure failure = Classify(s, msg);
  std::string message;
  switch (failure) {
    case Failure::kDiskFull:
      message = absl::StrCat(what, " failed: the disk is full (", msg, ")");
      break;
    case Failure::kTooManyFiles:
      // EMFILE: the process's descriptor limit, as mongod reports it.
      message = absl::StrCat(what, " failed: too many open files (", msg,
                             "); raise the limit (ulimit -n)");
      break;
    case Failure::kLockHeld:
      message = absl::StrCat(
          what,
          " failed: the database is already open (by this or another "
          "process): ",
          msg);
      break;
    case Failure::kCorrupt:
      message = absl::StrCat(what, " failed: the database is corrupt (", msg,
                             "); ", kRepairAdvice);
      break;
    case Failure::kInvalidArgument:
    case Failure::kOther:
      message = absl::StrCat(what, " failed: ", msg);
      break;
  }
  return StatusFor(failure, message);
}

leveldb::ReadOptions VerifiedRead(const leveldb::Snapshot* snapshot) {
  leveldb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.snapshot = snapshot;
  return ro;
}

bool StickyWriteError::Record(const leveldb::Status& s) {
  MutexLock l(&mu_);
  if (!first_.empty()) return false;
  first_ = s.ToString();
  set_.store(true, std::memory_order_release);
  return true;
}

absl::Status StickyWriteError::Refusal() const {
  if (!IsSet()) return absl::OkStatus();
  MutexLock l(&mu_);
  const std::string message =
      absl::StrCat("an earlier write failed (", first_,
                   "): writes are refused until the database is reopened");
  if (Classify(leveldb::Status::IOError(first_), first_) ==
      Failure::kDiskFull) {
    return StatusFor(Failure::kDiskFull, message);
  }
  return absl::FailedPreconditionError(message);
}

leveldb::Status StickyWriteError::RefusedWrite() const {
  MutexLock l(&mu_);
  return leveldb::Status::IOError(
      "an earlier write failed; reopen the database", first_);
}

}  // namespace storage
}  // namespace ttldb
