// The sizes of a collection's LevelDB key ranges, as MongoDB's storage
// statistics report them (collStats, $collStats, dbStats).
#ifndef TTLDB_STORAGE_STORAGE_SIZES_H_
#define TTLDB_STORAGE_STORAGE_SIZES_H_

#ifndef TTLDB_INTERNAL
#error "storage/storage_sizes.h is internal to ttldb"
#endif

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "leveldb/db.h"
#include "storage/collection_state.h"

namespace ttldb {

// The live entries under one key prefix: how many, and their bytes.
struct RangeBytes {
  int64_t entries = 0;
  int64_t key_bytes = 0;
  int64_t value_bytes = 0;
};
// Counts them exactly, by iterating the prefix (one read of the range).
absl::StatusOr<RangeBytes> CountRange(leveldb::DB* db,
                                      const std::string& prefix);

// What each size means for ttldb:
//  - count, data_size: the documents stored (expired ones the monitor has
//    not deleted yet included) and the bytes of their stored form, counted
//    exactly (MongoDB's numRecords and dataSize).
//  - storage_size: the bytes the documents occupy: the larger of LevelDB's
//    estimate of the table files' bytes over the range
//    (DB::GetApproximateSizes, which counts only what has been flushed to
//    table files, so 0 while everything is still in the memtable and its
//    log) and the exact bytes of the range's keys and values (which do not
//    count compression). free_storage_size: what the table files hold
//    beyond the live entries (overwritten and deleted versions not yet
//    compacted away): estimate minus exact, when positive.
//  - index_sizes: per index, _id_ first, the same larger-of for the
//    index's own range; _id_ (whose entries are the documents' keys) the
//    exact bytes of the document keys. Indexes being built are included
//    and named in `building`, as MongoDB's indexBuilds.
struct StorageSizes {
  int64_t count = 0;
  int64_t data_size = 0;
  int64_t storage_size = 0;
  int64_t free_storage_size = 0;
  std::vector<std::pair<std::string, int64_t>> index_sizes;
  std::vector<std::string> building;

  int64_t total_index_size() const;
};

// The scale of collStats, $collStats' storageStats and dbStats: >= 1, else
// 51024 with MongoDB's IDL wording.
absl::Status CheckStatsScale(int64_t scale);

absl::StatusOr<StorageSizes> MeasureCollection(leveldb::DB* db,
                                               const CollectionState& state);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_STORAGE_SIZES_H_
