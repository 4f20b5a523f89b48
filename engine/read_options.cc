#include "engine/read_options.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/storage_error.h"

namespace ttldb {

leveldb::ReadOptions VerifiedRead(const leveldb::Snapshot* snapshot) {
  leveldb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.snapshot = snapshot;
  return ro;
}

absl::Status ReadFailure(const leveldb::Status& s, absl::string_view what) {
  if (s.IsCorruption()) {
    return MongoError(
        absl::StatusCode::kDataLoss, kDataCorruptionDetected,
        absl::StrCat("reading ", what, " failed: the database is corrupt (",
                     s.ToString(), "); ", kRepairAdvice));
  }
  return absl::InternalError(
      absl::StrCat("reading ", what, " failed: ", s.ToString()));
}

}  // namespace ttldb
