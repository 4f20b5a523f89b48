// Rebuilding a collection's keys from its documents: each document moves to
// the key its _id gives (DocumentKey) and every index entry is written
// again from the documents (ComputeDocKeys). Two callers: the open of a
// database whose key encoding changed (format 3, engine/db_impl.cc, behind
// the re-key marker below) and `ttldb repair` (engine/repair.cc), which
// also deletes what is not a document.
//
// The caller holds the writers' lock and has deleted the collection's index
// entries first (the rebuild only writes them). The scan reads a snapshot,
// so the documents it rewrites it does not see again. Internal to ttldb.
#ifndef TTLDB_STORAGE_REBUILD_KEYS_H_
#define TTLDB_STORAGE_REBUILD_KEYS_H_

#ifndef TTLDB_INTERNAL
#error "This header is internal to ttldb."
#endif

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "storage/collection_state.h"

namespace ttldb {
namespace storage {

// What a stored value that is not a document (it does not parse, is not
// an object, or has no _id) gets, and a second copy of an _id.
enum class Unreadable {
  // The open's re-key: a value that does not parse is DataLoss (nothing
  // is deleted); one without _id is left where it is.
  kFail,
  // Repair: deleted and counted, as is every copy of an _id after the first.
  kDelete,
};

struct RebuildStats {
  int64_t documents = 0;             // kept
  int64_t moved_documents = 0;       // stored under another key, moved
  int64_t unreadable_documents = 0;  // deleted (Unreadable::kDelete)
  int64_t index_entries = 0;         // written
  // Parallel to state.indexes: whether any document gave several keys.
  std::vector<bool> multikey;
};

// Rebuilds `state`'s document keys and index entries in `db`, writing
// batches of about 1000 changes through `commit` (the engine's commit, so
// that a failure is sticky). `kept` (if set) is called with the encoded _id
// of each document kept. Errors: DataLoss for an unparsable document
// (kFail), a key that cannot be generated, a failed read or commit.
absl::Status RebuildCollectionKeys(
    leveldb::DB* db, const CollectionState& state, Unreadable unreadable,
    const std::function<leveldb::Status(leveldb::WriteBatch*)>& commit,
    const std::function<void(absl::string_view encoded_id)>& kept,
    RebuildStats* stats);

// The re-key marker (storage/keys.h RekeyMarkerKey): written with the new
// format version before the first rebuilt key, deleted after the last, so
// that an open interrupted in between rebuilds again.
void PutRekeyMarker(leveldb::WriteBatch* batch);
void DeleteRekeyMarker(leveldb::WriteBatch* batch);

}  // namespace storage
}  // namespace ttldb

#endif  // TTLDB_STORAGE_REBUILD_KEYS_H_
