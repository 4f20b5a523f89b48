// Usage counters of a database's indexes and collections, kept in memory
// as MongoDB keeps them: $indexStats' accesses (src/mongo/db/
// collection_index_usage_tracker.cpp: one per query whose plan uses the
// index, counting from when the database opened or the index was created)
// and $collStats' queryExecStats.collectionScans (one per query run as a
// collection scan). Restarting the database starts them again at zero.
//
// Thread-safe.
#ifndef TTLDB_ENGINE_INDEX_USAGE_H_
#define TTLDB_ENGINE_INDEX_USAGE_H_

#include <cstdint>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "base/mutex.h"
#include "ttldb/clock.h"

namespace ttldb {

// The index id of a collection's _id_ index, which has no IndexSpec (the
// documents' keys are its entries); real indexes count from 1.
inline constexpr uint32_t kIdIndexId = 0;

class IndexUsage {
 public:
  // `clock` (not owned) dates the counters; they start at its WallNow().
  explicit IndexUsage(Clock* clock);

  struct Accesses {
    int64_t ops = 0;
    absl::Time since;  // when this counter started
  };

  // A query ran with a plan that reads the index.
  void RecordAccess(uint32_t collection_id, uint32_t index_id);
  // A query ran as a scan of the whole collection.
  void RecordCollectionScan(uint32_t collection_id);
  // The index (or collection, with kIdIndexId) was just created: its
  // counter starts now at zero.
  void Reset(uint32_t collection_id, uint32_t index_id);

  Accesses Get(uint32_t collection_id, uint32_t index_id) const;
  int64_t CollectionScans(uint32_t collection_id) const;

 private:
  using Key = std::pair<uint32_t, uint32_t>;  // collection id, index id

  // Constant after construction.
  Clock* const clock_;
  const absl::Time opened_;

  mutable Mutex mu_;
  absl::flat_hash_map<Key, Accesses> accesses_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint32_t, int64_t> collection_scans_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_INDEX_USAGE_H_
