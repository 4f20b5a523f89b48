// The MongoDB errors a failed LevelDB operation becomes, so that a client
// can tell damage and a full disk from a server bug (code 1):
//  - corruption, and a table file, MANIFEST or CURRENT that is missing:
//    301 DataCorruptionDetected, naming `ttldb repair` (docs/operations.md);
//  - a full disk (ENOSPC): 14031 OutOfDiskSpace, as mongod reports it;
//  - no descriptor left at open (EMFILE): 264 TooManyFilesOpen;
//  - anything else: Internal (1).
#ifndef TTLDB_ENGINE_STORAGE_ERROR_H_
#define TTLDB_ENGINE_STORAGE_ERROR_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "leveldb/status.h"

namespace ttldb {

// What to do about a damaged database, appended to every 301 message.
inline constexpr absl::string_view kRepairAdvice =
    "restore it from a backup, or run `ttldb repair` on a copy of the "
    "directory";

// Whether `s` failed for lack of space (ENOSPC's "No space left on device").
bool IsDiskFull(const leveldb::Status& s);

// The status of a failed write; `what` says what was being done ("write
// failed").
absl::Status WriteFailure(const leveldb::Status& s, absl::string_view what);

// The status of a failed leveldb::DB::Open of `path` (a lock held elsewhere
// is reported by the caller before this).
absl::Status OpenFailure(const leveldb::Status& s, absl::string_view path);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_STORAGE_ERROR_H_
