// Result types of Collection calls.
#ifndef TTLDB_RESULTS_H_
#define TTLDB_RESULTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"
#include "ttldb/view_definition.h"

namespace ttldb {

struct FindOptions {
  // A projection document ({a: 1} or {a: 0}); null: whole documents.
  Value projection;
  // A sort document ({accessTime: -1, _id: 1}); null: natural order (the
  // index used, or _id order for a collection scan).
  Value sort;
  int64_t skip = 0;
  int64_t limit = 0;  // 0: no limit
  // MongoDB's allowDiskUse for a sort no index provides: past
  // Options::max_blocking_sort_bytes the sort writes sorted runs to files in
  // the database's temporary area (<db>/_tmp, removed with the cursor and
  // at Close and Open) and merges them, instead of failing with 292
  // QueryExceededMemoryLimitNoDiskUseAllowed. An in-memory database
  // (Options::in_memory) never writes files: it fails with 292.
  bool allow_disk_use = false;
  // How many documents each round trip of the cursor brings (MongoDB's
  // batchSize; 0: the server's default, 101 for the first batch). Only a
  // database opened on a mongodb:// URI has round trips: the embedded
  // engine reads documents one at a time from its snapshot and ignores it.
  int64_t batch_size = 0;
  // An index to use (MongoDB's hint): its name, or in `hint_keys` its key
  // pattern ({a: 1}); hint_keys {$natural: 1} forces a collection scan,
  // {$natural: -1} a backward one (descending _id order).
  // Both empty/null: the planner chooses. A hint that names no index, or a
  // hidden one, or both fields set: BadValue (2) "hint provided does not
  // correspond to an existing index". A hinted sparse or partial index
  // returns only the documents it holds, as in MongoDB.
  std::string hint;
  Value hint_keys;
  // MongoDB's min / max (find's `min`, `max`; cursor.min(), cursor.max()):
  // only the documents whose key in the hinted index lies from `min`
  // (inclusive) to `max` (exclusive), in the index's order; each a document
  // with exactly the index's key fields, in order ({a: 2, b: 1} for index
  // {a: 1, b: -1}). Null or {}: no bound. Errors (query_request_helper.cpp,
  // query_planner.cpp): 51176 "min and max must have the same field names";
  // 51173 "When using min()/max() a hint of which index to use must be
  // provided" (no hint), 291 NoQueryExecutionPlans with a $natural hint;
  // 51174 "The index chosen is not compatible with min/max" (other fields);
  // 51175 "The value provided for min() does not come before the value
  // provided for max() in the hinted index".
  Value min;
  Value max;
  // MongoDB's returnKey: each result is the index key the document was
  // found under ({a: 3} for index {a: 1}; a multikey document's first key
  // within min/max), {_id: v} for a lookup by _id, {} for a collection
  // scan. It replaces the projection.
  bool return_key = false;
  // MongoDB's showRecordId: each result gets a last field "$recordId", a
  // positive NumberLong. ttldb stores documents by _id and has no record
  // ids: it is a 63-bit hash of the document's encoded _id, stable for the
  // document's life (and across restarts), as a record id is; two
  // documents share one only by a hash collision.
  bool show_record_id = false;
  // MongoDB's collation ({locale: "fr", strength: 2}; document/
  // collator.h states what is accepted and the errors): strings compare by
  // it in the filter and the sort. {locale: "simple"}: the binary comparison.
  // null: the collection's default collation (create's), else simple. An index
  // is used for the query only when its collation is the query's.
  Value collation;
};

class Database;

// Options of Collection::Aggregate (MongoDB's aggregate command options).
struct AggregateOptions {
  // Let $sort, $group and $bucket go beyond their memory bound by spilling
  // sorted runs to a temporary area inside the database directory
  // (<db>/_tmp), removed when the cursor is destroyed and at the next Open
  // after a crash. false: such a pipeline fails with 292
  // QueryExceededMemoryLimitNoDiskUseAllowed (also with allow_disk_use
  // when the database is Options::in_memory, which never writes files).
  bool allow_disk_use = false;
  // $out / $merge write their documents without document validation
  // (MongoDB's bypassDocumentValidation; see ValidationOptions).
  bool bypass_document_validation = false;
  // Variables for the pipeline's expressions ({x: 5} makes "$$x" 5): an
  // object of expressions evaluated once, before the pipeline runs; null:
  // none.
  Value let;
  // The memory bound of each blocking stage ($group, $sort, $bucket,
  // $facet's buffer), in bytes. 0: Options::max_blocking_sort_bytes (100
  // MiB by default: MongoDB's internalQueryMaxBlockingSortMemoryUsageBytes
  // and internalDocumentSourceGroupMaxMemoryBytes).
  size_t max_memory_bytes = 0;
  // $out / $merge into {db: <name>, coll}: gives database <name> (this
  // one when <name> is its own), creating it if need be; it is kept open
  // while the pipeline runs. Unset: such a pipeline fails with 238
  // NotImplemented (a Database alone does not know the other databases).
  std::function<absl::StatusOr<std::shared_ptr<Database>>(absl::string_view)>
      database_named;
  // $collStats and $indexStats name the server they ran on: "host:port"
  // (empty: this machine's hostname).
  std::string host;
  // $collStats' latencyStats of this collection: {reads, writes, commands,
  // transactions: {[histogram: [{micros, count}, ...],] latency, ops}}, as
  // the caller measured them (the server's command layer does; histogram
  // only when `histograms`). Unset: every counter 0 (the engine alone does
  // not time operations).
  std::function<Value(bool histograms)> latency_stats;
  // The pipeline's collation: strings compare by it in $match, $sort and
  // the other stages' comparisons that take it (document/collator.h); null:
  // the collection's default, else simple.
  Value collation;
};

struct UpdateOptions {
  // Insert a document built from the filter's equalities and the update
  // when nothing matches.
  bool upsert = false;
  // arrayFilters for "$[<identifier>]" paths: one filter document per
  // identifier ({i: {$gt: 1}}, {"j.b": 0}); see query/update.h.
  // Not with a pipeline-style update (9 FailedToParse "arrayFilters may
  // not be specified for pipeline-style updates").
  std::vector<Value> array_filters;
  // A pipeline-style update's constants (the update statement's `c`): an
  // object whose fields are "$$<name>" variables of exactly that value;
  // null: none. With an operator or replacement update: 51198 "Constant
  // values may only be specified for pipeline updates".
  Value constants;
  // A pipeline-style update's `let` (the update command's): an object of
  // expressions evaluated once; null: none (ignored by other updates).
  Value let;
  // MongoDB's upsertSupplied: an upsert inserts constants.new (with the
  // filter's _id) instead of the pipeline's result. Needs upsert and an
  // object constants.new (9 FailedToParse otherwise).
  bool upsert_supplied = false;
  // The filter's collation (see FindOptions::collation); null: the
  // collection's default.
  Value collation;
};

// Options of Collection::DeleteOne / DeleteMany.
struct DeleteOptions {
  // The filter's collation (see FindOptions::collation); null: the
  // collection's default.
  Value collation;
};

struct UpdateResult {
  int64_t matched_count = 0;
  int64_t modified_count = 0;
  // Set when an upsert inserted a document.
  std::optional<Value> upserted_id;
};

// Options of Collection::FindOneAndUpdate / FindOneAndReplace /
// FindOneAndDelete (MongoDB's findAndModify).
struct FindOneAndModifyOptions {
  // Which matching document is modified when several match: the first in
  // this order ({priority: -1}); null: the first in natural order.
  Value sort;
  // Applied to the document returned ({a: 1} or {a: 0}); null: whole.
  Value projection;
  // Insert a document built from the filter's equalities and the update
  // (or the replacement) when nothing matches. Not for FindOneAndDelete.
  bool upsert = false;
  // MongoDB's returnDocument: "after" (true) returns the document as
  // written; "before" (false, the default) as it was, or nothing when an
  // upsert inserted it.
  bool return_new = false;
  // arrayFilters for "$[<identifier>]" paths (FindOneAndUpdate only).
  std::vector<Value> array_filters;
  // A pipeline-style update's `let` (see UpdateOptions::let).
  Value let;
  // The filter's and the sort's collation (see FindOptions::collation).
  Value collation;
};

// One operation of Collection::BulkWrite, MongoDB's write models.
struct WriteModel {
  enum class Kind {
    kInsertOne,
    kUpdateOne,
    kUpdateMany,
    kReplaceOne,
    kDeleteOne,
    kDeleteMany
  };
  Kind kind = Kind::kInsertOne;
  Value document;  // kInsertOne
  Value filter;    // every kind but kInsertOne
  // kUpdateOne/kUpdateMany: operators or a pipeline (an array of
  // stages); kReplaceOne: the document.
  Value update;
  bool upsert = false;
  std::vector<Value> array_filters;  // kUpdateOne, kUpdateMany
  Value constants;  // kUpdateOne, kUpdateMany: UpdateOptions::constants
  Value collation;  // the filter's (see FindOptions::collation); null: default
};

// A failed operation of a bulk write: its index in the operations given,
// MongoDB's error code and message (BulkWriteError's writeErrors).
struct BulkWriteError {
  int64_t index = 0;
  int code = 0;
  std::string errmsg;
};

// MongoDB's BulkWriteResult.
struct BulkWriteResult {
  int64_t inserted_count = 0;
  int64_t matched_count = 0;
  int64_t modified_count = 0;
  int64_t deleted_count = 0;
  int64_t upserted_count = 0;
  // (operation index, _id) of each document inserted / upserted.
  std::vector<std::pair<int64_t, Value>> inserted_ids;
  std::vector<std::pair<int64_t, Value>> upserted_ids;
  // Empty when every operation succeeded.
  std::vector<BulkWriteError> write_errors;
};

// Progress of an index build over existing documents, called on the
// building thread without any lock held (other writes go on meanwhile):
// after each chunk of the scan (2,000 documents or 4 MiB), the last call
// (total, total); not at all for an empty collection. On a MongoDB
// deployment (//remote) it is called once, (total, total), after the
// build (docs/migrating.md section 6).
using IndexBuildProgress =
    std::function<void(int64_t documents_done, int64_t documents_total)>;

}  // namespace ttldb

#endif  // TTLDB_RESULTS_H_
