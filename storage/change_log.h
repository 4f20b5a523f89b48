// The change log: one record per committed change of a document (insert,
// update, replace, delete, TTL deletion) or of the catalog (drop, rename),
// kept in the database's own LevelDB under a tag of its own, so that the
// record goes into the same atomic WriteBatch as the change it describes:
// an acknowledged write has its record, and no crash leaves one without
// the other. Change streams (ttldb/change_stream.h, the $changeStream
// stage of ttldb serve) read it. docs/change_streams.md and docs/format.md
// describe it; DO NOT CHANGE the tags and op bytes below: they are on disk.
//
//   change-record := 'L' seq:u64be -> record
//   trimmed       := 'M' "clogtrim" -> seq:u64be (the highest seq trimmed)
//   record        := version:u8 (1) op:u8 flags:u8 wall-millis:i64be
//                    section*
//   section       := tag:u8 length:u32be bytes
//                    'n' the collection's name ('t' a rename's target)
//                    'k' documentKey, 'f' fullDocument (post-image),
//                    'u' updateDescription, 'p' the pre-image, 'o' a DDL
//                    event's operationDescription: each its storage JSON
//                    (ttldb/json.h, JsonFormat::kStorage)
//
// seq is the change's clusterTime as a Timestamp, (seconds << 32) |
// increment: it grows with every record (NextChangeSeq), survives restarts
// (the last key is found at open) and maps startAtOperationTime onto a key.
#ifndef TTLDB_STORAGE_CHANGE_LOG_H_
#define TTLDB_STORAGE_CHANGE_LOG_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "leveldb/write_batch.h"

namespace ttldb {

inline constexpr char kChangeLogTag = 'L';

enum class ChangeOp : char {
  kInsert = 'i',
  kUpdate = 'u',
  kReplace = 'r',
  kDelete = 'd',
  kDrop = 'D',
  kRename = 'R',
  kDropDatabase = 'X',
  // DDL events, shown to streams with showExpandedEvents (MongoDB 6.0+).
  kCreate = 'C',
  kCreateIndexes = 'I',
  kDropIndexes = 'J',
};

struct ChangeRecord {
  ChangeOp op = ChangeOp::kInsert;
  // A TTL deletion (the monitor's, or a write's removal of a hidden
  // expired document it collided with): beyond MongoDB, its event says so.
  bool expired = false;
  int64_t wall_millis = 0;
  std::string coll;
  std::string to_coll;      // kRename
  std::string key_json;     // {"_id": ...}
  std::string doc_json;     // post-image: insert, replace, and update
                            // when the collection keeps images
  std::string update_json;  // kUpdate: updateDescription
  std::string pre_json;     // pre-image (collections that keep images)
  std::string op_json;      // DDL events: operationDescription
};

// 'L' seq:u64be, and the prefix of every record.
std::string ChangeLogKey(uint64_t seq);
std::string ChangeLogPrefix();
// The seq of a record key; false if `key` is not one.
bool ParseChangeLogKey(absl::string_view key, uint64_t* seq);
// 'M' "clogtrim": the highest seq retention has deleted (0: none).
std::string ChangeLogTrimmedKey();
std::string EncodeSeq(uint64_t seq);
bool DecodeSeq(absl::string_view bytes, uint64_t* seq);

// The seq after `last` at wall time `now`: (now's seconds, 1), or (last's
// seconds, last's increment + 1) when the clock has not passed them.
uint64_t NextChangeSeq(uint64_t last, absl::Time now);

// Retention: deletes the record `key` in `batch` (storage/ is where
// WriteBatch deletions live: scripts/check_layers.sh).
void DeleteChangeRecord(absl::string_view key, leveldb::WriteBatch* batch);

std::string EncodeChangeRecord(const ChangeRecord& record);
// DataLoss for a record that does not parse.
absl::Status DecodeChangeRecord(absl::string_view bytes, ChangeRecord* out);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_CHANGE_LOG_H_
