// The documents of the $collStats and $indexStats stages (engine/
// coll_stats.cc), for the engine's agg::DatabaseAccess.
#ifndef TTLDB_ENGINE_COLL_STATS_H_
#define TTLDB_ENGINE_COLL_STATS_H_

#ifndef TTLDB_INTERNAL
#error "engine/coll_stats.h is internal to ttldb"
#endif

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/db_impl.h"
#include "ttldb/value.h"

namespace ttldb {

// Who ran the stage: AggregateOptions::host and ::latency_stats.
struct StatsSource {
  std::string host;  // empty: this machine's hostname
  std::function<Value(bool histograms)> latency_stats;  // unset: zeros
};

// $collStats over collection `coll` (document_source_coll_stats.cpp,
// makeStatsForNs): {ns, host, localTime, latencyStats?, storageStats?,
// count?, queryExecStats?} as `request` (checked by pipeline/stage_stats.cc)
// asks. storageStats, count and queryExecStats of a collection that does
// not exist fail as MongoDB's: 26 / 2 / 26 "Unable to retrieve <part> in
// $collStats stage :: caused by :: Collection [<ns>] not found.".
absl::StatusOr<Value> CollStatsDocument(DbImpl* engine, absl::string_view coll,
                                        const Value& request,
                                        const StatsSource& source);

// What MongoDB's collStats replies for a collection that does not exist
// (appendCollectionStorageStats before its NamespaceNotFound).
Value MissingCollectionStats(int64_t scale);

// $indexStats: Collection::IndexStats with `host` after each `key`.
absl::StatusOr<std::vector<Value>> IndexStatsDocuments(
    DbImpl* engine, absl::string_view coll, const StatsSource& source);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_COLL_STATS_H_
