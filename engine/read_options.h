// How ttldb reads LevelDB: every read verifies block checksums, and a failed
// read is an error that names what it was reading, never "not found".
#ifndef TTLDB_ENGINE_READ_OPTIONS_H_
#define TTLDB_ENGINE_READ_OPTIONS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "leveldb/db.h"
#include "leveldb/options.h"

namespace ttldb {

// ReadOptions with verify_checksums set (and `snapshot`): a corrupted block
// fails the read instead of yielding fewer keys.
leveldb::ReadOptions VerifiedRead(const leveldb::Snapshot* snapshot = nullptr);

// The status for a failed LevelDB read of `what` ("collection 'c'", ...):
// corruption is DataLoss with MongoDB's DataCorruptionDetected (301), any
// other failure Internal. Both name `what` and LevelDB's own message.
absl::Status ReadFailure(const leveldb::Status& s, absl::string_view what);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_READ_OPTIONS_H_
