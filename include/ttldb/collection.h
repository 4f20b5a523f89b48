// A collection of JSON documents with secondary and TTL indexes.
#ifndef TTLDB_COLLECTION_H_
#define TTLDB_COLLECTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ttldb/change_stream.h"
#include "ttldb/collection_name.h"
#include "ttldb/cursor.h"
#include "ttldb/doc_arg.h"
#include "ttldb/expiry_rules.h"
#include "ttldb/options.h"
#include "ttldb/results.h"
#include "ttldb/value.h"

namespace ttldb {

class CollectionBackend;
class DbImpl;

// A handle on one collection of a Database, obtained from
// Database::collection(name). The collection itself is created on the first
// write (or by Database::CreateCollection); reads of a collection that does
// not exist see it empty.
//
// Thread safety: a Collection may be used from many threads at once without
// external synchronization. Reads run on LevelDB snapshots and never block
// writers; writes to one database are serialized (LevelDB serializes them
// anyway), and each write - the document and all its index entries - is one
// atomic leveldb::WriteBatch: after a crash a document and its index entries
// never disagree.
//
// Documents are given as Extended JSON text or as a Value (see DocArg).
// Errors: bad input is InvalidArgument (with MongoDB's code where MongoDB
// has one, see base/status.h) and changes nothing; a duplicate key is
// AlreadyExists with code 11000; I/O failures are Internal/DataLoss. After a
// write fails with an I/O error (disk full, ...), every later write of the
// database fails with FailedPrecondition until it is reopened: LevelDB's log
// cannot be appended to safely after a failed append (reads keep working;
// nothing acknowledged is lost).
//
// When Options::hide_expired is on (the default), every read - FindById,
// Find, FindOne, CountDocuments, Distinct - treats a document that a TTL
// index has expired as absent, even before the monitor deletes it; updates
// and deletes do not match it either, and a write whose _id or unique key
// collides with it removes it (in the same atomic batch, reported as a TTL
// deletion) instead of failing with 11000. Stats() and
// EstimatedDocumentCount() count it until it is deleted.
class Collection {
 public:
  Collection(DbImpl* engine, std::string name)
      : engine_(engine), name_(std::move(name)) {}
  // A handle whose calls go to `backend` (a MongoDB deployment:
  // engine/backend.h), which must outlive it.
  Collection(CollectionBackend* backend, std::string name)
      : engine_(nullptr), backend_(backend), name_(std::move(name)) {}
  Collection(const Collection&) = delete;
  Collection& operator=(const Collection&) = delete;

  const std::string& name() const { return name_; }

  // ---- Writes ------------------------------------------------------------

  // Inserts one document and returns its _id. An _id is generated (an
  // ObjectId, placed first) when absent. Fails with 11000 "E11000 duplicate
  // key error collection: <name> index: <index> dup key: {...}" if the _id
  // or a unique index key exists in a visible document; nothing is written
  // then.
  absl::StatusOr<Value> InsertOne(const DocArg& doc,
                                  const WriteOptions& options = {});

  // Inserts documents in order, each atomically with its index entries.
  // Stops at the first failure and returns it; the documents before it stay
  // inserted. `inserted_ids` (optional) receives the ids of those inserted.
  absl::Status InsertMany(absl::Span<const DocArg> docs,
                          std::vector<Value>* inserted_ids = nullptr,
                          const WriteOptions& options = {});

  // Updates the first (UpdateOne) or every (UpdateMany) matching document
  // with an update-operator document ({$set: ...}); UpdateOne also accepts
  // a replacement document. An update that would change _id fails with 66
  // ImmutableField. Multi-document updates apply document by document.
  //
  // With update_options.upsert and no match, inserts the filter's
  // equalities with the update applied (UpdateResult::upserted_id). Upserts
  // of one document from many threads are safe, as on MongoDB (since 4.2):
  // when another upsert inserted the document between this call's match
  // and its insert, and the duplicate key is on an index whose fields are
  // exactly the filter's equality fields, with the filter's values (e.g.
  // UpdateOne({_id: "page"}, {$inc: {n: 1}}, upsert) or a unique `key` and
  // {key: k}), the call matches again and updates that document instead of
  // failing. Other duplicates (a unique field the update sets, a filter
  // with a range, UpdateMany) fail with 11000 DuplicateKey and write
  // nothing. ReplaceOne and FindOneAndUpdate/Replace follow the same rule.
  absl::StatusOr<UpdateResult> UpdateOne(
      const DocArg& filter, const DocArg& update,
      const UpdateOptions& update_options = {},
      const WriteOptions& options = {});
  absl::StatusOr<UpdateResult> UpdateMany(
      const DocArg& filter, const DocArg& update,
      const UpdateOptions& update_options = {},
      const WriteOptions& options = {});

  // Replaces the first matching document, keeping its _id.
  absl::StatusOr<UpdateResult> ReplaceOne(
      const DocArg& filter, const DocArg& replacement,
      const UpdateOptions& update_options = {},
      const WriteOptions& options = {});

  // Deletes the first / every matching document; returns how many.
  absl::StatusOr<int64_t> DeleteOne(const DocArg& filter,
                                    const WriteOptions& options = {});
  absl::StatusOr<int64_t> DeleteMany(const DocArg& filter,
                                     const WriteOptions& options = {});
  // As above, the filter comparing strings in delete_options.collation.
  absl::StatusOr<int64_t> DeleteOne(const DocArg& filter,
                                    const DeleteOptions& delete_options,
                                    const WriteOptions& options = {});
  absl::StatusOr<int64_t> DeleteMany(const DocArg& filter,
                                     const DeleteOptions& delete_options,
                                     const WriteOptions& options = {});

  // MongoDB's findOneAndUpdate / findOneAndReplace / findOneAndDelete
  // (the findAndModify command): finds the first document matching
  // `filter` in `options.sort` order and updates, replaces or deletes it,
  // in ONE step under the writers' lock: no other write can come between
  // the read and the write, so two callers racing for
  // FindOneAndUpdate({state: "new"}, {$set: {state: "taken"}}) never get
  // the same document. Returns the document before the write, or after it
  // with options.return_new (projected by options.projection); nullopt
  // when nothing matched (and, with upsert, when the upsert inserted and
  // return_new is false). Documents hidden as expired do not match; an
  // upsert colliding with one removes it (the hidden-means-absent rule of
  // InsertOne). Errors (nothing written): as UpdateOne / ReplaceOne for the
  // update, 66 ImmutableField for a change of _id, the projection's and
  // sort's parse errors; FindOneAndUpdate takes operators or a replacement
  // (as the findAndModify command), FindOneAndReplace only a replacement
  // (9 FailedToParse otherwise).
  absl::StatusOr<std::optional<Value>> FindOneAndUpdate(
      const DocArg& filter, const DocArg& update,
      const FindOneAndModifyOptions& fam_options = {},
      const WriteOptions& options = {});
  absl::StatusOr<std::optional<Value>> FindOneAndReplace(
      const DocArg& filter, const DocArg& replacement,
      const FindOneAndModifyOptions& fam_options = {},
      const WriteOptions& options = {});
  // Returns the deleted document. upsert, return_new and array_filters must
  // be unset (9 FailedToParse, findAndModify's "Cannot specify both
  // new=true and remove=true; 'remove' always returns the deleted
  // document", "Cannot specify both upsert=true and remove=true", "Cannot
  // specify arrayFilters and remove=true").
  absl::StatusOr<std::optional<Value>> FindOneAndDelete(
      const DocArg& filter, const FindOneAndModifyOptions& fam_options = {},
      const WriteOptions& options = {});

  // MongoDB's bulkWrite: runs `ops` in order, each as the single-operation
  // call would (each is atomic; the bulk as a whole is not). `ordered`
  // stops at the first failing operation; unordered runs them all. A
  // failing operation is reported in result.write_errors (index, code,
  // errmsg) and the call still returns OK with the counts of what was
  // done. A malformed operation (ParseBulkWriteOps) fails the whole call
  // before anything is written.
  absl::StatusOr<BulkWriteResult> BulkWrite(absl::Span<const WriteModel> ops,
                                            bool ordered = true,
                                            const WriteOptions& options = {});
  // The same from MongoDB's array form: [{insertOne: {document: {...}}},
  // {updateOne: {filter, update, upsert, arrayFilters}}, {updateMany:
  // ...}, {replaceOne: {filter, replacement, upsert}}, {deleteOne:
  // {filter}}, {deleteMany: {filter}}].
  absl::StatusOr<BulkWriteResult> BulkWrite(const Value& ops,
                                            bool ordered = true,
                                            const WriteOptions& options = {});
  // Parses MongoDB's array form. Errors (InvalidArgument, code 2 BadValue
  // unless said) with the Node driver's messages (bulk/common.ts):
  // not an array: 'Argument "operations" must be an array of documents';
  // empty: "Invalid BulkOperation, Batch cannot be empty"; an unknown
  // operation: "bulkWrite only supports insertOne, updateOne, updateMany,
  // replaceOne, deleteOne, deleteMany"; replaceOne with operators
  // "Replacement document must not use atomic operators"; updateOne /
  // updateMany without "Update document requires atomic operators"; a
  // missing field: 40414 "BSON field 'update.updates.q' is missing but a
  // required field" (the server's, as the driver sends it).
  static absl::StatusOr<std::vector<WriteModel>> ParseBulkWriteOps(
      const Value& ops);

  // Beyond MongoDB: sets `field` (a Date field, typically the TTL index's
  // accessTime) to now in the documents matching `filter`, keeping them
  // alive. With Options::touch_min_interval, a document whose stored date is
  // younger than that is left unwritten (counted as matched, not modified).
  absl::StatusOr<UpdateResult> Touch(const DocArg& filter,
                                     absl::string_view field,
                                     const WriteOptions& options = {});

  // ---- Reads ---------------------------------------------------------------

  // The document with this _id, or NotFound.
  absl::StatusOr<Value> FindById(const Value& id);
  // FindById for services that forward JSON: the document as JSON text,
  // without decoding it into a Value (a read that misses the document cache
  // hands out LevelDB's bytes as they are; only the TTL indexes' fields are
  // decoded, to hide expired documents as FindById does). The text is
  // ttldb's storage form (docs/format.md): compact Extended JSON where
  // int64 is {"$numberLong": "n"} and a Date {"$date": {"$numberLong":
  // "ms"}}, _id first. ParseDocument(text) gives exactly FindById's
  // document; the bytes themselves are not promised to be stable across
  // ttldb versions or between a cached and an uncached read. Same errors as
  // FindById: NotFound when absent or hidden.
  absl::StatusOr<std::string> FindByIdJson(const Value& id);

  // A streaming cursor over the matching documents (see FindOptions).
  absl::StatusOr<std::unique_ptr<Cursor>> Find(const DocArg& filter,
                                               const FindOptions& options = {});
  // Parses `filter` (a document) and `options` (projection, sort, hint,
  // collation, min / max, ...) as Find does for a collection that does not
  // exist, and returns Find's error for a bad query, else OK. Reads nothing:
  // for a caller with no collection to run the query on (the server's find
  // on a database that does not exist still rejects a bad query, as
  // MongoDB's parses it before it looks for the collection).
  static absl::Status CheckQuery(const Value& filter,
                                 const FindOptions& options = {});
  // The first matching document, or std::nullopt.
  absl::StatusOr<std::optional<Value>> FindOne(const DocArg& filter,
                                               const FindOptions& options = {});
  // The documents matching `filter`, exactly: with hide_expired, not the
  // expired documents the monitor has not deleted yet.
  absl::StatusOr<int64_t> CountDocuments(const DocArg& filter = "{}");
  // MongoDB's estimatedDocumentCount(): the documents stored, as
  // Stats()["count"] counts them, including expired documents the monitor
  // has not deleted yet even when reads hide them (MongoDB counts them too:
  // both read the collection's record count). CountDocuments() is the
  // exact count of what reads return.
  absl::StatusOr<int64_t> EstimatedDocumentCount();
  // The distinct values of `field` (array elements count separately) among
  // matching documents, in MongoDB's sort order.
  absl::StatusOr<std::vector<Value>> Distinct(absl::string_view field,
                                              const DocArg& filter = "{}");
  // As above with options.collation (the rest of `options` is ignored):
  // values equal in the collation ("abc", "ABC" at strength 2) count once.
  absl::StatusOr<std::vector<Value>> Distinct(absl::string_view field,
                                              const DocArg& filter,
                                              const FindOptions& options);
  // The plan Find would use, in a shape close to MongoDB's explain
  // ("executionStats"): the winning plan (IXSCAN with index name and bounds,
  // or COLLSCAN), keys and documents examined, documents returned.
  absl::StatusOr<Value> Explain(const DocArg& filter,
                                const FindOptions& options = {});
  // MongoDB's explain of an update (UpdateOne / UpdateMany with `multi`,
  // FindOneAndUpdate with `sort`) and of a delete (DeleteOne / DeleteMany,
  // FindOneAndDelete): the write's plan and what it would do, writing
  // nothing. {queryPlanner: {namespace, winningPlan: {stage: "UPDATE" |
  // "DELETE", inputStage: <Explain's winningPlan>}}, executionStats:
  // {nReturned: 0, totalKeysExamined, totalDocsExamined, executionStages:
  // {stage: "UPDATE", nMatched, nWouldModify, nWouldUpsert | stage:
  // "DELETE", nWouldDelete; inputStage}}} (explain.cpp, update_stage.cpp
  // and delete_stage.cpp's stats). The update and the filter are parsed
  // and checked as the write would (its errors, nothing written); a match
  // the update fails on counts as not modified.
  absl::StatusOr<Value> ExplainUpdate(const DocArg& filter,
                                      const DocArg& update, bool multi,
                                      const UpdateOptions& update_options = {},
                                      const Value& sort = Value());
  absl::StatusOr<Value> ExplainDelete(const DocArg& filter, bool multi,
                                      const Value& sort = Value());

  // Runs an aggregation pipeline (an array of stages, as JSON text or a
  // Value) over this collection and returns a streaming cursor over its
  // results. Stages: $match $project $addFields/$set $unset $group $sort
  // $limit $skip $unwind $count $sortByCount $replaceRoot/$replaceWith
  // $lookup $facet $bucket $sample $documents $out $merge, with MongoDB
  // 8.0's semantics and parse errors (pipeline/pipeline.h; an unknown stage is
  // 40324). A leading $match / $sort / $match+$sort (with a $skip/$limit
  // right after) runs as a Find, so it uses the planner and the indexes.
  // Every stage, $lookup's foreign side included, reads through the
  // collection reads, so expired documents are invisible (hide_expired).
  // Blocking stages are bounded by options.max_memory_bytes (see
  // AggregateOptions). A pipeline ending in $out/$merge runs to completion
  // before Aggregate returns (its cursor is empty). Parse errors are
  // returned here; run-time errors ($add of a string, 292) by the cursor's
  // Next, or here for $out/$merge.
  absl::StatusOr<std::unique_ptr<Cursor>> Aggregate(
      const DocArg& pipeline, const AggregateOptions& options = {});
  // The pipeline's plan: {stages: [{$cursor: {queryPlanner: <Explain of
  // the pushed-down find>, pushedDown: [the stages the find answers]}},
  // {$group: ...}, ...]}.
  absl::StatusOr<Value> ExplainAggregate(const DocArg& pipeline,
                                         const AggregateOptions& options = {});

  // ---- Change streams (ttldb/change_stream.h) -----------------------------

  // MongoDB's collection.watch(): the changes of this collection committed
  // after the call (or after options' resume point), in commit order, from
  // the database's change log (Options::change_log). TTL deletions are
  // delete events with `expired: true`. Errors: 40573 when the database
  // has no change log, 286 ChangeStreamHistoryLost for a resume point
  // retention has deleted, 2 BadValue for bad options, the pipeline's
  // parse errors.
  absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options = {});

  // ---- Indexes -------------------------------------------------------------

  // Creates an index from a key pattern ({accessTime: 1}) and options
  // ({expireAfterSeconds: 3600, unique: true, name: ..., sparse, hidden,
  // partialFilterExpression}) and builds it over existing documents; returns
  // its name. Creating an identical index again is a no-op. Errors (nothing
  // created): the same key with other options, 85 IndexOptionsConflict; the
  // same name with another key, 86 IndexKeySpecsConflict; more than 64
  // indexes, 67; invalid TTL options, 67 / 197 with MongoDB's wording;
  // existing duplicates for a unique index, 11000.
  //
  // The build runs in the background as MongoDB's does ("Index Builds on
  // Populated Collections"): the call returns when the index is built, but
  // other writers, readers and the TTL monitor go on during the build and
  // wait only for short steps (one chunk of entries, the final commit).
  // Until it returns the index is invisible: queries, listIndexes and the
  // TTL monitor do not use it. A unique build fails with 11000 if, at its
  // end, two documents hold the same key (including documents written
  // during the build); a failed build leaves no index and no entries. An
  // identical createIndex during the build waits for it. Close during a
  // build stops it (11600 InterruptedAtShutdown); the next open deletes
  // what it had written, so the index is absent until created again.
  absl::StatusOr<std::string> CreateIndex(
      const DocArg& keys, const DocArg& index_options = "{}",
      const IndexBuildProgress& progress = nullptr);
  // Drops an index by name or by key pattern; "_id_" cannot be dropped.
  // One synced catalog write; the index's entries are deleted afterwards
  // in the background (as Database::DropCollection's keys).
  absl::Status DropIndex(absl::string_view name);
  absl::Status DropIndexByKey(const DocArg& keys);
  // MongoDB's listIndexes shape, _id_ first: {v: 2, key: {...}, name: ...}.
  absl::StatusOr<std::vector<Value>> ListIndexes();

  // The rules of the collection's TTL indexes as they are now, to apply to
  // documents that are not stored (ttldb/expiry_rules.h). Works on a remote
  // handle too (built from ListIndexes). No TTL index, or no collection:
  // rules under which nothing expires.
  absl::StatusOr<ttldb::ExpiryRules> TtlRules();
  // When `doc` would expire here: the earliest expiry the collection's TTL
  // indexes give it (TtlRules().ExpiresAt(doc)); nullopt when none applies.
  // One catalog read per call: to test many documents, take TtlRules() once.
  absl::StatusOr<std::optional<absl::Time>> ExpiresAt(const Value& doc);

  // The collection's options as listCollections shows them: {capped: true,
  // size, max (when given)} for a capped collection, {validator,
  // validationLevel, validationAction} when validation is set (see
  // ValidationOptions), else {}. {} for a collection that does not exist.
  absl::StatusOr<Value> Options();

  // MongoDB's collMod for the document validation options:
  //   {validator: {...}, validationLevel: "moderate", validationAction:
  //    "warn"}
  // (any of them; validator {} removes the validator), with the errors of
  // Database::CreateCollection's; 26 NamespaceNotFound for a collection
  // that does not exist. Replies {}. May be combined with `index` below.
  // Also a capped collection's bounds: {cappedSize: N, cappedMax: M}
  // (ValidationOptions::capped_size / capped_max; 72 InvalidOptions on a
  // collection that is not capped); the next insert deletes what is past
  // the new bounds.
  //
  // MongoDB's collMod for one index:
  //   {index: {name: "x" | keyPattern: {...}, expireAfterSeconds: N,
  //            hidden: bool}}
  // Changes options in place without rebuilding; can turn a plain
  // single-field index into a TTL index. Replies with old and new values.
  // Errors: index not found 27 IndexNotFound; bad options 72 InvalidOptions.
  absl::StatusOr<Value> CollMod(const DocArg& command);

  // ---- Maintenance ---------------------------------------------------------

  // Checks that every document has exactly the index entries its indexes
  // derive and every index entry points at a document deriving it. Returns
  // {valid: bool, nrecords, nIndexes, keysPerIndex: {...}, errors: [...],
  // warnings: [...]}. `warnings` lists garbage that no read reaches (valid
  // stays true): keys under an index id this collection does not have and
  // under collection ids no collection has — left by drops, whose keys are
  // deleted in the background, and by index builds a crash interrupted —
  // each with its key count and whether it is being reclaimed
  // (docs/reliability.md).
  absl::StatusOr<Value> Validate();
  // MongoDB 8.0's storage statistics (collStats; $collStats' storageStats;
  // src/mongo/db/stats/storage_stats.cpp): {size, count, avgObjSize (when
  // count > 0), numOrphanDocs, storageSize, freeStorageSize, capped (with
  // max and maxSize for a capped collection),
  // nindexes, indexDetails, indexBuilds, totalIndexSize, indexSizes:
  // {<name>: bytes, _id_ first}, totalSize, scaleFactor}, every size in
  // bytes divided by `scale` (>= 1, else 51024; avgObjSize unscaled).
  // count and size are those of the documents stored (see
  // EstimatedDocumentCount), expired ones not yet deleted included, counted
  // exactly; storageSize and the index sizes come from LevelDB's estimate
  // of its table files and the exact bytes of the key ranges
  // (storage/storage_sizes.h). Costs one read of the collection and of each
  // index. A collection that does not exist: the zeros MongoDB replies.
  absl::StatusOr<Value> Stats(int64_t scale = 1);
  // What Stats(scale) returns for a collection that does not exist, without
  // a database: the zeros MongoDB replies (appendCollectionStorageStats
  // before its NamespaceNotFound), or Stats' 51024 when `scale` < 1. For
  // the server's collStats on a database that does not exist.
  static absl::StatusOr<Value> MissingStats(int64_t scale = 1);
  // MongoDB's $indexStats, one document per index in listIndexes order:
  // {name, key, accesses: {ops, since}, spec}, plus building: true for an
  // index being built. accesses.ops counts the queries (find, count,
  // aggregate, update, delete, findAndModify) whose plan read the index
  // since `since`: when the database was opened or the index created
  // (counters are not persisted, as MongoDB's). Empty when the collection
  // does not exist.
  absl::StatusOr<std::vector<Value>> IndexStats();
  // The number of queries run as a collection scan since the database was
  // opened ($collStats' queryExecStats.collectionScans.total).
  absl::StatusOr<int64_t> CollectionScans();

 private:
  DbImpl* const engine_;
  // Set for a handle of a database opened on a mongodb:// URI (engine_ is
  // then null); every method hands its call over to it.
  CollectionBackend* const backend_ = nullptr;
  const std::string name_;
};

}  // namespace ttldb

#endif  // TTLDB_COLLECTION_H_
