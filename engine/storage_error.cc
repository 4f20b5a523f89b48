#include "engine/storage_error.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {

bool IsDiskFull(const leveldb::Status& s) {
  return s.IsIOError() &&
         absl::StrContains(s.ToString(), "No space left on device");
}

absl::Status WriteFailure(const leveldb::Status& s, absl::string_view what) {
  const std::string msg = s.ToString();
  if (IsDiskFull(s)) {
    return MongoError(absl::StatusCode::kResourceExhausted, kOutOfDiskSpace,
                      absl::StrCat(what, ": the disk is full (", msg, ")"));
  }
  if (s.IsCorruption()) {
    return MongoError(absl::StatusCode::kDataLoss, kDataCorruptionDetected,
                      absl::StrCat(what, ": the database is corrupt (", msg,
                                   "); ", kRepairAdvice));
  }
  return absl::InternalError(absl::StrCat(what, ": ", msg));
}

absl::Status OpenFailure(const leveldb::Status& s, absl::string_view path) {
  const std::string msg = s.ToString();
  if (IsDiskFull(s)) {
    return MongoError(absl::StatusCode::kResourceExhausted, kOutOfDiskSpace,
                      absl::StrCat("cannot open database '", path,
                                   "': the disk is full (", msg, ")"));
  }
  if (absl::StrContains(msg, "Too many open files")) {
    // EMFILE: the process's descriptor limit (ulimit -n), as mongod
    // reports it.
    return MongoError(
        absl::StatusCode::kResourceExhausted, kTooManyFilesOpen,
        absl::StrCat("cannot open database '", path, "': too many open files (",
                     msg, "); raise the limit (ulimit -n)"));
  }
  // Corruption covers a bad CURRENT and table files the MANIFEST names but
  // the directory lacks ("N missing files"); NotFound a MANIFEST that
  // CURRENT names but that is gone.
  if (s.IsCorruption() || s.IsNotFound()) {
    return MongoError(absl::StatusCode::kDataLoss, kDataCorruptionDetected,
                      absl::StrCat("database '", path, "' is corrupt (", msg,
                                   "); ", kRepairAdvice));
  }
  if (s.IsInvalidArgument()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open database '", path, "': ", msg));
  }
  return absl::InternalError(
      absl::StrCat("cannot open database '", path, "': ", msg));
}

}  // namespace ttldb
