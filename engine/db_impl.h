// The engine behind Database and Collection: LevelDB, the catalog, the
// write path and the TtlStore the monitor deletes through. Internal: users
// go through ttldb/database.h and ttldb/collection.h.
#ifndef TTLDB_ENGINE_DB_IMPL_H_
#define TTLDB_ENGINE_DB_IMPL_H_

#ifndef TTLDB_INTERNAL
#error \
    "This header is internal to ttldb. Use the public API (ttldb/database.h; //:ttldb) or, in tests, ttldb/testing/ttldb_testing.h (//testing:ttldb_testing)."
#endif

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/mutex.h"
#include "catalog/collection_catalog.h"
#include "catalog/view_catalog.h"
#include "engine/index_build.h"
#include "engine/index_usage.h"
#include "engine/live_cursors.h"
#include "index/index_descriptor.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "proto/catalog.pb.h"
#include "query/filter.h"
#include "storage/change_log.h"
#include "storage/collection_state.h"
#include "storage/commit_queue.h"
#include "storage/doc_cache.h"
#include "storage/document_reader.h"
#include "storage/document_writer.h"
#include "storage/index_keys.h"
#include "storage/leading_entries.h"
#include "storage/leveldb_status.h"
#include "storage/reclaimer.h"
#include "storage/unknown_ranges.h"
#include "ttl/monitor.h"
#include "ttl/ttl_store.h"
#include "ttldb/clock.h"
#include "ttldb/collection.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace leveldb {
class Cache;
class Env;
class FilterPolicy;
class Logger;
class WriteBatch;
}  // namespace leveldb

namespace ttldb {

// MongoDB's keyPattern / keyValue for a key colliding on `index` (nullptr:
// the _id index, whose value comes from `doc`): the index's fields with
// their directions, and the colliding values: the document's value of a
// field (its type kept), or, where the field is missing or an array, the
// value decoded from `key_part` (the entry's key without the document id:
// the one array element that collided), null when neither has one.
// `doc` may be null (then from the key alone). engine/write_path.cc.
DuplicateKeyInfo DupKeyInfo(const IndexState* index, const Value* doc,
                            absl::string_view key_part);

// An index as listIndexes lists it (engine/index_ops.cc), and the _id_
// index's spec.
Value ListedSpec(const IndexSpec& index);

// The stages a change stream runs over each event (engine/aggregate.cc):
// Apply gives the stages' output for one event (nullopt: filtered out).
class EventPipeline {
 public:
  virtual ~EventPipeline() = default;
  virtual absl::StatusOr<std::optional<Value>> Apply(Value event) = 0;
};
absl::StatusOr<std::unique_ptr<EventPipeline>> PrepareEventPipeline(
    DbImpl* engine, const std::string& coll, const Value& stages);

// The pipeline a find on a view runs over the view's collection (MongoDB
// runs a find on a view as an aggregate: query_request_conversion.cpp
// asAggregationCommand): the view's stages (`view_pipeline`), then $match
// `filter` (when not empty), $sort, $skip, $limit and $project from
// `options` (engine/views.cc).
Value FindAsViewPipeline(const Value& view_pipeline, const Value& filter,
                         const FindOptions& options);

class DbImpl : public TtlStore {
 public:
  // The database in `path`, its files read and written through `env` (not
  // owned; it must outlive the engine): leveldb::Env::Default(), or what a
  // test injects (engine/database_internal.h's TestingOptions). `repair`:
  // for engine/repair.cc after LevelDB's RepairDB: a missing meta record is
  // rebuilt from the catalog instead of refused.
  static absl::StatusOr<std::unique_ptr<DbImpl>> Open(absl::string_view path,
                                                      const Options& options,
                                                      leveldb::Env* env,
                                                      bool repair = false);
  ~DbImpl() override;
  absl::Status Close();

  Collection& collection(absl::string_view name);
  const Options& options() const { return options_; }
  // The database directory.
  const std::string& path() const { return path_; }
  Clock* clock() const { return clock_; }
  leveldb::DB* db() const { return db_.get(); }
  // nullptr when Options::doc_cache_bytes is 0.
  DocCache* doc_cache() const { return doc_cache_.get(); }
  TtlMonitor* monitor() { return monitor_.get(); }
  // Whether a thread waits for the writers' lock (tests: a TTL chunk ends
  // early for it, engine/ttl_sweep.cc).
  bool WritersWaiting() const { return write_mu_.HasWaiters(); }
  // Every cursor handed out goes through here, so Close can end them
  // before LevelDB closes (engine/live_cursors.h).
  LiveCursors* live_cursors() { return live_cursors_.get(); }
  // $indexStats' and $collStats' usage counters (engine/index_usage.h).
  IndexUsage& index_usage() { return index_usage_; }

  // ---- Catalog -------------------------------------------------------------
  // The current state of a collection, or nullptr if it does not exist.
  std::shared_ptr<const CollectionState> GetState(absl::string_view name);
  absl::StatusOr<std::vector<std::string>> ListCollectionNames();
  absl::Status CreateCollection(absl::string_view name, bool must_not_exist);
  absl::StatusOr<bool> DropCollection(absl::string_view name);
  absl::Status RenameCollection(absl::string_view from, absl::string_view to,
                                bool drop_target);

  // Builds a new index and publishes it (see Collection::CreateIndex). The
  // build runs on the calling thread without the writers' lock except for
  // short steps (engine/index_build.h); other writers go on meanwhile.
  absl::StatusOr<std::string> CreateIndex(absl::string_view coll,
                                          const Value& keys,
                                          const Value& options,
                                          const IndexBuildProgress& progress);
  absl::Status DropIndex(absl::string_view coll, absl::string_view name);
  absl::StatusOr<Value> CollMod(absl::string_view coll, const Value& command);

  // ---- Views (engine/views.cc) --------------------------------------------
  // Database::CreateView / ModifyView (their contracts); a view is dropped
  // by DropCollection.
  absl::Status CreateView(absl::string_view name, absl::string_view view_on,
                          const Value& pipeline);
  absl::Status ModifyView(absl::string_view name, absl::string_view view_on,
                          const Value& pipeline);
  std::optional<ViewDefinition> GetView(absl::string_view name) const;
  std::vector<ViewDefinition> ListViews() const;
  // What a read of view `name` reads: the collection at the end of its
  // chain of views and every view's pipeline, the innermost first
  // (MongoDB's view_catalog_helpers::resolveView). nullopt when `name` is
  // no view; 165 ViewDepthLimitExceeded past 20 views.
  using ResolvedView = ViewCatalog::Resolved;
  absl::StatusOr<std::optional<ResolvedView>> ResolveView(
      absl::string_view name) const;
  // 166 CommandNotSupportedOnView "Namespace <name> is a view, not a
  // collection" when `name` is a view (writes, index changes); else OK.
  absl::Status RefuseView(absl::string_view name) const;

  // ---- Write path ----------------------------------------------------------
  // Documents a write removed because they were expired and hidden when it
  // collided with them (see WriteDocumentLocked), for the expiry listener.
  using ExpiredRemovals = std::vector<Value>;

  // Writes `new_doc` (insert when `old_doc` is null, replace otherwise) or
  // deletes `old_doc` (when `new_doc` is null), with every index entry, in
  // one WriteBatch. Caller holds write_mu_.
  //
  // Checks the _id (on insert) and unique indexes. A collision with a
  // document that reads hide (IsHidden: expired, Options::hide_expired) is
  // no collision: that document is removed, with all its index entries, in
  // the same WriteBatch, counted as a TTL deletion (TtlMonitor::
  // CountDeletedByWrite) and, if there is an expiry listener, appended to
  // *removed after the commit; the caller passes *removed to
  // DeliverExpiredRemovals once it has released write_mu_. A collision with
  // any other document fails with 11000 and writes nothing. `removed` may
  // be null only for a delete.
  //
  // `create`, if set, is the catalog entry of the new collection `state`
  // (not yet published, id meta_.next_collection_id()): it and the advanced
  // meta record go into the document's batch (synced), so a write that
  // fails creates nothing. The caller publishes it after an OK return.
  //
  // `cache_new_doc`, if set, must hold *new_doc: it is cached as the
  // document's latest version after the commit (write-through, no copy).
  //
  // `replacement`: the write replaces the whole document (its change event
  // is a replace, not an update).
  //
  // `stored_json`, if not empty, is the new version's storage form, already
  // checked by the caller; it is stored as it is, without serializing,
  // CheckStorable, ReparsesIdentically or (below 2 MiB) the BSON size. Two
  // callers make it:
  // - an insert of text already in the storage form (storage/insert_form.h):
  //   it is exactly what AppendJson(*new_doc, JsonFormat::kStorage) writes,
  //   ParseDocument reads it back as exactly *new_doc, and *new_doc passes
  //   CheckStorable (ParseDocumentNotingForm's *storage_form promise);
  // - a touch that patched the stored text (engine/touch_text.h): *old_doc
  //   and *new_doc hold only _id and the top-level fields the index keys
  //   read (no index may have a partial filter, a lifetime cap or
  //   reject_expired), and nothing is cached (cache_new_doc must be null).
  absl::Status WriteDocumentLocked(
      const CollectionState& state, const Value* old_doc, const Value* new_doc,
      const WriteOptions& options, ExpiredRemovals* removed,
      std::shared_ptr<const Value> cache_new_doc = nullptr,
      const proto::CollectionInfo* create = nullptr,
      absl::string_view stored_json = {}, bool replacement = false)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Calls the expiry listener (if any) with each document of *removed, on
  // the calling thread, and clears it. Never under write_mu_.
  void DeliverExpiredRemovals(absl::string_view coll, ExpiredRemovals* removed)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  // Inserts a document (generating _id). Takes write_mu_. `input_json`, if
  // not empty, is the text `doc` was parsed from, already in the storage
  // form (DocArgInternal::ResolveNotingForm): stored without serializing `doc`
  // when its _id is first or absent (storage/insert_form.h).
  absl::StatusOr<Value> Insert(absl::string_view coll, Value doc,
                               const WriteOptions& options,
                               absl::string_view input_json = {});
  // Insert's body, for a caller already holding write_mu_ (an upsert that
  // must not let another write in between its search and its insert).
  absl::StatusOr<Value> InsertLocked(absl::string_view coll, Value doc,
                                     const WriteOptions& options,
                                     ExpiredRemovals* removed,
                                     absl::string_view input_json = {})
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // MongoDB's document validation of a write (engine/doc_validation.cc):
  // OK when `new_doc` (the document an insert, update or replacement is
  // about to store; `old_doc` the current version, null for an insert)
  // passes the collection's validator, or the write is exempt (no
  // validator, validationLevel "off", "moderate" and `old_doc` already
  // fails, options.bypass_document_validation). Otherwise 121
  // DocumentValidationFailure with its errInfo (action "error"), or OK
  // after reporting the errInfo (action "warn"). Called by every write
  // that builds a new document, before WriteDocumentLocked; TTL deletions
  // are not writes of documents and are never validated.
  absl::Status CheckValidationLocked(const CollectionState& state,
                                     const Value* old_doc, const Value& new_doc,
                                     const WriteOptions& options)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // createCollection with validation options (Database::CreateCollection).
  absl::Status CreateCollection(absl::string_view name, bool must_not_exist,
                                const ValidationOptions& validation);
  // collMod's validator, validationLevel and validationAction fields.
  absl::StatusOr<Value> CollModValidation(absl::string_view coll,
                                          const Value& command);
  // The options listCollections shows: {validator, validationLevel,
  // validationAction} when a validator or non-default level/action is set.
  static Value ListedCollectionOptions(const proto::CollectionInfo& info);

  // The read path (storage/document_reader.h) over this database's
  // LevelDB and document cache: every decoded read of a document, and
  // whether reads hide it (Options::hide_expired).
  DocumentReader reader() const {
    return DocumentReader(db_.get(), doc_cache_.get(), options_.hide_expired);
  }
  // False when no document of `state` can have the key `doc_key` (it lies
  // above doc_key_bound_); true when one may.
  absl::StatusOr<bool> MayHoldDocumentLocked(const CollectionState& state,
                                             const std::string& doc_key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // ---- Group commit (storage/commit_queue.h) -------------------------------
  // A write call whose document's commit is queued under write_mu_ and
  // awaited after write_mu_ is released (Insert, and the update, replace and
  // touch of ApplyToMatches), so that concurrent writers' batches go into
  // LevelDB in one write. Construct it before taking write_mu_ (with
  // WritersLock::Grouped) on the calling thread; WriteDocumentLocked then
  // queues (at most) one commit in it instead of committing, and Finish,
  // called once the lock is released, waits for that commit, ends the
  // document cache's bracket and returns the commit's status. A write that
  // evicts hidden documents, creates a collection, makes an index multikey,
  // writes during an index build or deletes commits at once as before.
  class GroupedWrite {
   public:
    explicit GroupedWrite(DbImpl* engine);
    ~GroupedWrite();  // Finish()es a queued commit (its status is lost)
    GroupedWrite(const GroupedWrite&) = delete;
    GroupedWrite& operator=(const GroupedWrite&) = delete;
    // Waits for the queued commit, if any, and ends it: OK, or the write's
    // error (storage::FromLevelDB). May be called with or without write_mu_.
    absl::Status Finish();

   private:
    friend class DbImpl;
    struct Pending;  // engine/write_path.cc
    DbImpl* const engine_;
    GroupedWrite* const outer_;  // the thread's previous one (nesting)
    std::unique_ptr<Pending> pending_;
  };
  // The calling thread's GroupedWrite for this engine, or nullptr.
  GroupedWrite* CurrentGroupedWrite();
  // Waits until no queued commit (of a GroupedWrite) changes `key` (a
  // document key or a unique index's key value): what the caller reads of
  // it under write_mu_ is then every earlier writer's result.
  void AwaitCommitsOfLocked(absl::string_view key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_) {
    commit_queue_.AwaitKey(key);
  }
  // Waits until every queued commit is done (WritersLock does this).
  void AwaitCommitsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_) {
    commit_queue_.AwaitAll();
  }

  // createIndex on a missing collection (engine/index_ops.cc): the
  // collection and its first index in one synced catalog batch, published
  // at once (no documents: nothing to build). `spec` has no id yet.
  absl::StatusOr<std::string> CreateCollectionWithIndexLocked(
      absl::string_view coll, IndexSpec spec)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // ---- Index builds (engine/index_build.cc) --------------------------------
  // The tracker of the build of `index` (one of some state's `building`),
  // or nullptr if that build has ended.
  IndexBuildTracker* BuildTrackerLocked(const IndexState& index)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Tells the builds of `state` that these documents (by document key) were
  // written (committed): the scan must leave them to the writers.
  void NoteBuildWritesLocked(const CollectionState& state,
                             absl::Span<const std::string> doc_keys)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // ---- TtlStore ------------------------------------------------------------
  std::vector<TtlIndexRef> ListTtlIndexes() override;
  std::optional<TtlIndexRef> GetTtlIndex(const TtlIndexRef& index) override;
  absl::StatusOr<TtlBatchResult> DeleteExpired(const TtlIndexRef& index,
                                               absl::Time cutoff,
                                               int64_t max_docs,
                                               absl::Time deadline) override;
  std::optional<absl::Time> EarliestDate(const TtlIndexRef& index) override;
  // Trims the change log (TrimChangeLog).
  void AfterPass(absl::Time now) override;

  // ---- Change log (engine/change_log.cc; storage/change_log.h) -------------
  // Events are appended by the two places that commit DocumentWriter's
  // batches: WriteDocumentLocked (every write of a document: inserts,
  // updates, replacements, deletes, findAndModify, upserts, bulk writes,
  // touches, and the eviction of hidden expired documents a write collides
  // with) and DeleteExpired (the TTL monitor), each into the batch it
  // commits, so the event and the change are one atomic LevelDB write.
  // Not DocumentWriter itself: an event needs what the writer never sees
  // (the old and new Values for updateDescription, whether a change is a
  // replacement or an expiry, the wall time) and a sequence number handed
  // out under write_mu_ by whoever commits.
  bool change_log_on() const {
    return options_.change_log && !options_.read_only;
  }
  // The event of one document change into `batch`: an insert (old_doc
  // null), a delete (new_doc null), an update or (`replacement`) a
  // replacement. `new_json` is new_doc's storage JSON. `expired`: a TTL
  // deletion. Does nothing when the log is off.
  void LogDocumentChangeLocked(const CollectionState& state,
                               const Value* old_doc, const Value* new_doc,
                               absl::string_view new_json, bool replacement,
                               bool expired, leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // A TTL deletion by the siblings fast path (the document is not read):
  // its documentKey from the encoded _id.
  void LogExpiredKeyLocked(const CollectionState& state,
                           absl::string_view encoded_id,
                           leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // A collection's drop (`to` empty) or rename to `to`, into the catalog
  // batch that commits it.
  void LogCatalogChangeLocked(absl::string_view coll, absl::string_view to,
                              leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // A DDL event of `coll` (create, createIndexes, dropIndexes) with its
  // operationDescription, into the catalog batch that commits the change.
  void LogDdlLocked(ChangeOp op, absl::string_view coll,
                    const Value& description, leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // The create event of a new collection, and a createIndexes event per
  // index it starts with.
  void LogCreateLocked(const proto::CollectionInfo& info,
                       leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Gives `record` the next sequence number and puts it into `batch`.
  void AppendChangeLocked(const ChangeRecord& record,
                          leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // The writers' lock (private: taken only through WritersLock), to name in
  // the lock annotations of the engine's free functions. A const Mutex
  // cannot be locked.
  const Mutex& write_lock() const ABSL_LOCK_RETURNED(write_mu_) {
    return write_mu_;
  }
  // The sequence number of the last event committed (takes write_mu_, so
  // no write is between its append and its commit).
  uint64_t LastChangeSeq() ABSL_LOCKS_EXCLUDED(write_mu_);
  // The highest sequence number retention has deleted (0: none).
  uint64_t TrimmedChangeSeq() const { return change_trimmed_.load(); }
  // Up to `max` events with a sequence number > `after`, in order.
  absl::Status ReadChanges(uint64_t after, size_t max,
                           std::vector<std::pair<uint64_t, ChangeRecord>>* out);
  // Returns once an event after `after` may have been committed, `timeout`
  // (real time) has passed, Close has begun, or `*interrupted` is true
  // (set before WakeChangeWaiters).
  void WaitForChanges(uint64_t after, absl::Duration timeout,
                      const std::atomic<bool>* interrupted = nullptr);
  void WakeChangeWaiters();
  // Retention (Options::change_log_retention, change_log_max_bytes): deletes
  // the oldest events, in bounded batches under write_mu_.
  absl::Status TrimChangeLog(absl::Time now) ABSL_LOCKS_EXCLUDED(write_mu_);

  // Every LevelDB write goes through here. After a failed write, LevelDB's
  // log is in an unknown state (a failed append still advances the log
  // writer's block offset, so later records in the same log file can be
  // unreadable at recovery and acknowledged writes would be lost; found by
  // tests/reliability/fault_test.cc). So, as RocksDB does, the first failure
  // is sticky: every later write fails until the database is reopened.
  // Through commit_queue_: a concurrent writer's batch may go into the same
  // LevelDB write (CommitNow).
  leveldb::Status Commit(const leveldb::WriteOptions& options,
                         leveldb::WriteBatch* batch);
  // The LevelDB write of one group (commit_queue_'s write function).
  leveldb::Status CommitNow(const leveldb::WriteOptions& options,
                            leveldb::WriteBatch* batch);

  // Ends a write call made with WriteOptions::sync: if LevelDB's log may
  // hold a commit that was not synced (the call wrote nothing, as an update
  // that matched nothing, or its documents failed), syncs the log (an empty
  // synced batch), so that an acknowledged synced call always makes every
  // earlier write durable, as MongoDB's j: true does for a no-op write (its
  // client's last optime is set to the system's: the journal is flushed up
  // to the latest write). No cost after a call whose own commits were
  // synced. Returns `result`, or the sync's error if `result` was OK.
  absl::Status SyncIfRequested(const WriteOptions& options,
                               absl::Status result);
  template <typename T>
  absl::StatusOr<T> SyncIfRequested(const WriteOptions& options,
                                    absl::StatusOr<T> result) {
    if (!options.sync) return result;
    absl::Status s = SyncIfRequested(options, absl::OkStatus());
    if (!s.ok() && result.ok()) return s;
    return result;
  }

  // Queues the key range [begin, end) for LevelDB compaction on the
  // engine's compaction thread and returns at once (a queued range that
  // overlaps or touches it is widened instead). Used after big TTL sweeps so
  // later scans do not step over their tombstones, without charging the
  // compaction to the sweep. Dropped if the engine is closing.
  void ScheduleCompaction(std::string begin, std::string end);
  // Runs `task` on the compaction thread after what is queued before it;
  // returns at once. Dropped if the engine is closing (Close waits for a
  // task that has started).
  void ScheduleCompactionTask(std::function<void()> task);
  // Blocks until no compaction (range or task) is queued or running (tests,
  // benchmarks).
  void WaitForCompactions();
  // The key a collection scan of collection `coll_id` may start at: no
  // live document key lies below it (its document prefix when unknown).
  // Read before AND after taking the scan's snapshot and start at the
  // lower of the two (see doc_floor_).
  std::string DocScanStart(uint32_t coll_id, const std::string& doc_prefix);
  // Per ascending TTL index: its entries below the Date bracket
  // (storage/leading_entries.h). Read after taking a snapshot.
  const LeadingEntries& leading_entries() const { return leading_; }
  // What the TTL passes compacted before returning (engine/ttl_sweep.cc),
  // for tests: expired TTL-index ranges, runs of deleted documents, and
  // the deleted-document samples checked for runs.
  struct TtlCompactionCounts {
    int64_t index_ranges = 0;
    int64_t document_runs = 0;
    int64_t samples_checked = 0;
  };
  TtlCompactionCounts TtlCompactions() const {
    TtlCompactionCounts c;
    c.index_ranges = ttl_compacted_index_ranges_.load();
    c.document_runs = ttl_compacted_document_runs_.load();
    c.samples_checked = ttl_checked_samples_.load();
    return c;
  }

  // ---- Reclaiming garbage (storage/reclaimer.h)
  // ------------------------------ Blocks until the reclaimer has deleted every
  // range queued so far (at open, or by drops). For tests and benchmarks;
  // returns at once when the database is read-only or closed.
  void WaitForReclaim();
  // Deletes every key in [begin, end) on the calling thread, in bounded
  // unsynced batches (Reclaimer::NextDeleteBatch), then compacts the range.
  // The caller makes sure no writer adds keys there (the catalog no longer
  // names the range). Public for tests and benchmarks.
  absl::Status DeleteRange(const std::string& begin, const std::string& end);
  // The reclaimer's counters (all zero when there is none).
  Reclaimer::Stats ReclaimStats() const;
  // A snapshot of the database and the ids its catalog describes at that
  // moment (taken together under the writers' lock, so that no catalog
  // change falls between them). The caller releases the snapshot.
  const leveldb::Snapshot* SnapshotWithCatalogIds(CatalogIds* ids);

  // Passes `message` to Options::logger, if any.
  void Log(LogLevel level, absl::string_view message) const;

  // OK, or FailedPrecondition when closed, read-only, or after a failed
  // write (see Commit).
  absl::Status CheckWritable() const;
  absl::Status CheckOpen() const;
  // CheckOpen, then DataLoss when the catalog entry of collection `name` is
  // damaged (see CatalogDamage): its data cannot be found, so it can be
  // neither read nor written (a write would create a new, empty collection
  // over it) until `ttldb repair` or a drop.
  absl::Status CheckCollection(absl::string_view name) const;
  // Database::Backup (engine/backup.cc).
  absl::StatusOr<BackupStats> Backup(absl::string_view dest_dir);
  // The collections whose catalog entries could not be loaded at open
  // (unparsable, invalid, or sharing their id with another collection), by
  // name, with what is wrong. The other collections open normally.
  std::map<std::string, std::string> CatalogDamage() const;

 private:
  // The monitor's options from the database's (ttl_*, logger, clock).
  static MonitorOptions MonitorOptionsFrom(const Options& options);
  friend class WritersLock;
  // The writers' lock. Take it with WritersLock (below), which also waits
  // for the commits still queued (commit_queue_), except for the grouped
  // writers of one document (GroupedWrite), which wait only for those of
  // the keys they read.
  Mutex write_mu_;
  // Group commit's queue (storage/commit_queue.h): Commit's batches, written
  // by CommitNow.
  storage::CommitQueue commit_queue_{
      [this](const leveldb::WriteOptions& o, leveldb::WriteBatch* b) {
        return CommitNow(o, b);
      }};

  DbImpl(std::string path, const Options& options, leveldb::Env* env);
  absl::Status Init();
  absl::Status LoadCatalog();
  // DataLoss if the directory holds LevelDB files but no CURRENT file.
  absl::Status CheckNotOrphaned(leveldb::Env* env) const;
  // Rewrites a collection's document keys and all its index entries in the
  // current encoding (an upgrade from an older format). Requires write_mu_.
  absl::Status RekeyLocked(const CollectionState& state);
  // Publishes a compiled entry (catalog/compile.h) under `name` (nullptr
  // removes).
  void Publish(const std::string& name,
               std::shared_ptr<const CollectionState> state);
  // The collection's state, creating the collection if needed.
  // Gives `info` (name, indexes; no id yet) the next collection id and
  // commits it with the meta record in one synced batch.
  absl::StatusOr<std::shared_ptr<const CollectionState>>
  CommitNewCollectionLocked(proto::CollectionInfo info)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::StatusOr<std::shared_ptr<const CollectionState>> GetOrCreateLocked(
      absl::string_view name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Adds `info` to `batch`, writes the batch durably (sync: catalog changes
  // are rare), and publishes the recompiled collection; returns it.
  absl::StatusOr<std::shared_ptr<const CollectionState>> CommitCatalogLocked(
      const proto::CollectionInfo& info, leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Puts the meta record (meta_: the next collection id) into `batch`.
  void SaveMetaLocked(leveldb::WriteBatch* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Hands the keys of a collection id, or of one index, that the catalog
  // no longer names (the catalog change is committed) to the reclaimer;
  // without one (repair), deletes them on the calling thread.
  absl::Status ReclaimCollection(uint32_t collection_id);
  // Reads the views' catalog entries ('V' keys) at open.
  absl::Status LoadViewsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Removes view `name` (one synced write); false when it is no view.
  absl::StatusOr<bool> DropViewLocked(absl::string_view name)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Validates and stores a new or changed view (CreateView, ModifyView).
  absl::Status PutViewLocked(const ViewDefinition& view, bool replace)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // DropCollection's catalog change: the dropped id, 0 when a damaged
  // entry was removed, nullopt when there was no such collection.
  absl::StatusOr<std::optional<uint32_t>> DropCollectionLocked(
      absl::string_view name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status ReclaimIndex(uint32_t collection_id, uint32_t index_id);
  // At open: queues every reclaimable unknown range (engine/
  // unknown_ranges.h) and starts the reclaimer.
  absl::Status StartReclaimer();
  CatalogIds CatalogIdsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status CheckUniqueLocked(const CollectionState& state,
                                 const IndexState& index, absl::string_view key,
                                 absl::string_view encoded_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // The encoded _id of a document other than `encoded_id` (and other than
  // those in `ignore`) holding the unique index key of `entry_key`, or ""
  // when there is none.
  absl::StatusOr<std::string> FindUniqueConflictLocked(
      absl::string_view entry_key, absl::string_view encoded_id,
      const std::vector<std::string>& ignore)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // What a write removes because it collided with hidden documents: their
  // encoded _ids, the deletes of each document and all its index entries,
  // how many entries, and the documents (for the listener).
  struct Evictions {
    std::vector<std::string> ids;
    leveldb::WriteBatch batch;
    std::vector<Value> docs;
    // What the deletes of the evicted documents removed: entries (of the
    // published indexes) and those below the Date bracket, by index prefix
    // (subtracted from leading_ after the commit).
    DocumentWriter::Removed removed;
    // How many of `ids` are a capped collection's oldest documents
    // (CappedDeleteLocked), not hidden expired ones: not in `docs`, not
    // counted as TTL deletions.
    int64_t capped = 0;
  };
  // Deletes `doc` in evictions->batch: a hidden expired document (`expired`:
  // its event says so, the listener gets it) or a capped collection's
  // oldest one (a plain delete event).
  absl::Status EvictLocked(const CollectionState& state,
                           const std::string& encoded_id, Value doc,
                           Evictions* evictions, bool expired = true)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // A capped collection's documents and the bytes of their stored form
  // (what collStats counts as count and size), kept per collection id by
  // the writes that go through WriteDocumentLocked (engine/capped.cc).
  struct CappedTotals {
    int64_t count = 0;
    int64_t bytes = 0;
  };
  // The insert of `encoded_id` (`bytes` of stored form) into capped `state`:
  // deletes, in evictions->batch, the oldest documents (natural order)
  // until the collection is within capped_size bytes and capped_max
  // documents again, never the one inserted (MongoDB's
  // cappedDeleteUntilBelowConfiguredMaximum keeps it). Returns the totals
  // the commit leaves. Awaits every queued commit first.
  absl::StatusOr<CappedTotals> CappedDeleteLocked(const CollectionState& state,
                                                  const std::string& encoded_id,
                                                  int64_t bytes,
                                                  Evictions* evictions)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  void NoteTtlEntryLocked(const IndexState& index, const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Commits a TTL deletion batch of these document keys, keeping the
  // document cache coherent.
  leveldb::Status CommitDeletes(leveldb::WriteBatch* batch,
                                const std::vector<std::string>& doc_keys)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // ---- Index builds (engine/index_build.cc) --------------------------------
  // What registering a build hands to the scan.
  struct IndexBuildStart {
    IndexSpec spec;                                // with its id
    std::shared_ptr<const CollectionState> state;  // lists it as building
    const leveldb::Snapshot* snapshot = nullptr;   // S: the scan's view
  };
  // Step 1: puts `spec` (not yet given an id) into the catalog as building,
  // creates its tracker and takes the snapshot.
  absl::StatusOr<IndexBuildStart> RegisterIndexBuildLocked(
      const CollectionState& state, IndexSpec spec)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Steps 2-4, without write_mu_; abandons the build on failure. Returns the
  // index name once published.
  absl::StatusOr<std::string> RunIndexBuild(IndexBuildStart start,
                                            const IndexBuildProgress& progress)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  absl::Status ScanIntoIndexBuild(const IndexBuildStart& start,
                                  const IndexBuildProgress& progress)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  absl::Status CheckUniqueBuild(const IndexBuildStart& start)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  absl::Status CommitIndexBuild(const IndexBuildStart& start)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  // The current state of the collection with this id if it still lists the
  // build of index `index_id`; IndexBuildAborted otherwise, and
  // InterruptedAtShutdown once Close has begun.
  absl::StatusOr<std::shared_ptr<const CollectionState>> BuildStateLocked(
      uint32_t coll_id, uint32_t index_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  std::shared_ptr<const CollectionState> StateByIdLocked(uint32_t coll_id);
  // Ends a failed build: its id moves to abandoned_index_ids, its entries
  // are deleted in bounded batches, then the id is removed.
  absl::Status AbandonIndexBuild(uint32_t coll_id, uint32_t index_id)
      ABSL_LOCKS_EXCLUDED(write_mu_);
  // At open: abandons every build a crash or Close interrupted.
  absl::Status CleanInterruptedBuildsLocked()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // Constant after construction.
  const std::string path_;
  const Options options_;
  Clock* const clock_;
  // The files' Env (Open's `env`), under the ones below.
  leveldb::Env* const env_;
  // Options::in_memory's Env (owns the files), and the adapter that sends
  // LevelDB's messages to Options::logger. Both outlive db_.
  std::unique_ptr<leveldb::Env> mem_env_;
  std::unique_ptr<leveldb::Logger> info_log_;
  // read_only: the Env that keeps LevelDB's writes in memory
  // (storage/read_only_env.h); outlives db_.
  std::unique_ptr<leveldb::Env> read_only_env_;
  // Syncs each log file LevelDB closes (storage/log_sync_env.h); outlives
  // db_.
  std::unique_ptr<leveldb::Env> log_sync_env_;
  std::unique_ptr<leveldb::Cache> block_cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_policy_;
  std::unique_ptr<leveldb::DB> db_;
  std::unique_ptr<TtlMonitor> monitor_;
  // Deletes the keys of dropped and unknown ids in the background (null
  // when read-only or in repair). Stopped in Close before db_ goes.
  std::unique_ptr<Reclaimer> reclaimer_;
  // Shared with the cursors, which may outlive the engine.
  const std::shared_ptr<LiveCursors> live_cursors_ =
      std::make_shared<LiveCursors>();
  // Parsed documents (nullptr when Options::doc_cache_bytes is 0). Writers
  // bracket each commit with BeginWrite/EndWrite of the document keys.
  std::unique_ptr<DocCache> doc_cache_;
  IndexUsage index_usage_;

  // Protected by write_mu_.
  proto::DatabaseMeta meta_ ABSL_GUARDED_BY(write_mu_);
  // The last Timestamp given to an inserted Timestamp(0, 0) (InsertLocked),
  // so that those of one process increase.
  Timestamp last_insert_ts_ ABSL_GUARDED_BY(write_mu_);
  // Per TTL index (by index prefix): where the last batch stopped, so the
  // next scan starts there instead of stepping over the tombstones of the
  // deleted prefix (valid for ascending indexes, whose expired range only
  // grows at its top); the smallest entry key a write added since (a key
  // below the resume point invalidates it); deletions since the swept range
  // was last compacted, and a sample of the document keys they deleted
  // (every `doc_sample_stride`-th one: engine/ttl_sweep.cc uses it to find
  // the runs of deleted documents worth compacting).
  struct TtlCursor {
    std::string resume;
    std::string min_added;
    int64_t deleted_since_compact = 0;
    std::vector<std::string> doc_sample;
    int64_t doc_sample_stride = 1;
  };
  std::map<std::string, TtlCursor> ttl_cursors_ ABSL_GUARDED_BY(write_mu_);
  std::atomic<int64_t> ttl_compacted_index_ranges_{0};
  std::atomic<int64_t> ttl_compacted_document_runs_{0};
  std::atomic<int64_t> ttl_checked_samples_{0};
  // Per collection id: a document key below which the collection holds no
  // live document, when known. Set by a TTL pass (engine/ttl_sweep.cc)
  // from its first chunk on, and raised past each chunk's deletions when
  // they start at it (time-ordered _ids: the expired documents are a
  // prefix of the _id order), so a collection scan right after the pass
  // does not step over their tombstones until the compaction removes them
  // (issue 19, round 5 session 7). Lowered by an insert below it before
  // the insert commits; raised only after the deletions commit; so a
  // reader that reads it before and after taking its snapshot and starts
  // at the lower value misses nothing its snapshot holds. Changed under
  // write_mu_ and floor_mu_, read under floor_mu_.
  mutable Mutex floor_mu_;
  std::map<uint32_t, std::string> doc_floor_ ABSL_GUARDED_BY(floor_mu_);
  std::atomic<bool> any_doc_floor_{false};
  // The floor of `coll_id`, if known. Caller holds write_mu_.
  std::optional<std::string> DocFloorLocked(uint32_t coll_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  void SetDocFloorLocked(uint32_t coll_id, std::string key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Lowers a known floor of `coll_id` to `key` if `key` lies below it.
  void LowerDocFloorLocked(uint32_t coll_id, const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Entries below the Date bracket per ascending TTL index, and whether
  // Init has counted them (from then on Publish counts new TTL indexes).
  LeadingEntries leading_;
  bool leading_tracking_ = false;
  // Counts the entries below the Date bracket of `index` (eligible) and
  // tracks it; caller holds write_mu_ (or is Init).
  void CountLeading(const IndexState& index);
  // Keeps leading_ in step with a catalog change from `before` to `after`
  // (either may be null).
  void TrackLeading(const CollectionState* before,
                    const CollectionState* after);
  // The compaction of what a TTL pass swept (engine/ttl_sweep.cc): on the
  // compaction thread after a pass, with hide_expired (queries skip the
  // expired Dates meanwhile); in the pass without it.
  void CompactSwept(const std::string& index_begin,
                    const std::string& index_end,
                    std::vector<std::string> doc_sample, int64_t sample_stride);
  // Per collection id: a key at or above every document key the collection
  // has stored, found by one seek at its first insert since open and raised
  // by every insert (documents are added only by WriteDocumentLocked, under
  // write_mu_, once Open has rekeyed or repaired). An insert whose key lies
  // above it needs no read to know its _id is new: ObjectIds generated
  // here, and ids that grow with time, skip the existence read.
  std::map<uint32_t, std::string> doc_key_bound_ ABSL_GUARDED_BY(write_mu_);
  // CappedTotals of capped collections, by collection id; absent: to be
  // counted (at the first insert after open, after a failed commit or after
  // an update or delete, which change them by what was stored).
  std::map<uint32_t, CappedTotals> capped_totals_ ABSL_GUARDED_BY(write_mu_);
  // Index builds in progress, by index prefix, and how many builds are
  // between registration and their end (Close waits for none).
  std::map<std::string, IndexBuildTracker> index_builds_
      ABSL_GUARDED_BY(write_mu_);
  int running_builds_ ABSL_GUARDED_BY(write_mu_) = 0;
  // Signalled when a build ends.
  CondVar builds_cv_{&write_mu_};

  // The compaction thread (ScheduleCompaction): started in Init, joined in
  // Close before db_ is reset. It never holds write_mu_.
  void CompactionLoop();
  Mutex compact_mu_;
  CondVar compact_cv_{&compact_mu_};
  std::vector<std::pair<std::string, std::string>> compact_queue_
      ABSL_GUARDED_BY(compact_mu_);
  std::vector<std::function<void()>> compact_tasks_
      ABSL_GUARDED_BY(compact_mu_);
  bool compact_running_ ABSL_GUARDED_BY(compact_mu_) = false;
  bool compact_stop_ ABSL_GUARDED_BY(compact_mu_) = false;
  std::thread compact_thread_;

  // The change log: at open, the last sequence number and the trimmed one.
  absl::Status RecoverChangeLog();
  // After a commit: wakes the streams waiting for events.
  void PublishChanges();
  // The last sequence number handed out (under write_mu_; also atomic for
  // Commit, which publishes it), the last published, the trimmed one, the
  // log's estimated size, and the waiters of WaitForChanges.
  uint64_t change_seq_ ABSL_GUARDED_BY(write_mu_) = 0;
  std::atomic<uint64_t> change_appended_{0};
  std::atomic<uint64_t> change_committed_{0};
  std::atomic<uint64_t> change_trimmed_{0};
  std::atomic<int64_t> change_log_bytes_{0};
  std::atomic<int> change_waiters_{0};
  std::atomic<bool> change_closing_{false};
  Mutex change_mu_;
  CondVar change_cv_{&change_mu_};

  // Set after a commit that was not synced, cleared before a synced one
  // (whose sync then covers every earlier commit): see SyncIfRequested.
  std::atomic<bool> log_unsynced_{false};
  // The first failed LevelDB write, if any (see Commit).
  storage::StickyWriteError write_error_;

  // The published collections and the damaged entries
  // (catalog/collection_catalog.h; its own leaf mutex).
  CollectionCatalog catalog_;
  // The views (catalog/view_catalog.h; its own leaf mutex).
  ViewCatalog views_;
  // The handles, and whether Close ran.
  mutable Mutex catalog_mu_;
  std::map<std::string, std::unique_ptr<Collection>, std::less<>> handles_
      ABSL_GUARDED_BY(catalog_mu_);
  bool closed_ ABSL_GUARDED_BY(catalog_mu_) = false;
  bool repair_ = false;        // opened by engine/repair.cc
  bool meta_rebuilt_ = false;  // repair_: the meta record was missing
  friend class Repairer;
};

// DbImpl::write_mu_, taken by a writer. The plain form (and First) then
// waits for the commits still queued by grouped writers
// (DbImpl::AwaitCommitsLocked), so that whatever its holder reads, every
// earlier write is in LevelDB; Grouped does not wait: the writers of one
// document (DbImpl::GroupedWrite) wait only for the queued commits of the
// keys they read (DbImpl::AwaitCommitsOfLocked).
class ABSL_SCOPED_LOCKABLE WritersLock {
 public:
  explicit WritersLock(DbImpl* engine)
      ABSL_EXCLUSIVE_LOCK_FUNCTION(engine->write_mu_)
      : mu_(&engine->write_mu_) {
    mu_->Lock();
    engine->commit_queue_.AwaitAll();
  }
  // With Mutex::LockFirst().
  WritersLock(DbImpl* engine, MutexLock::First)
      ABSL_EXCLUSIVE_LOCK_FUNCTION(engine->write_mu_)
      : mu_(&engine->write_mu_) {
    mu_->LockFirst();
    engine->commit_queue_.AwaitAll();
  }
  // A background loop's turn (a TTL pass's next chunk): the writers
  // already waiting go first (Mutex::LockAfterWaiters, at most 5 ms, so a
  // stream of writers cannot stop expiry), then as the plain form.
  struct Background {};
  WritersLock(DbImpl* engine, Background)
      ABSL_EXCLUSIVE_LOCK_FUNCTION(engine->write_mu_)
      : mu_(&engine->write_mu_) {
    mu_->LockAfterWaiters(absl::Milliseconds(5));
    engine->commit_queue_.AwaitAll();
  }
  struct Grouped {};
  WritersLock(DbImpl* engine, Grouped)
      ABSL_EXCLUSIVE_LOCK_FUNCTION(engine->write_mu_)
      : mu_(&engine->write_mu_) {
    mu_->Lock();
  }
  ~WritersLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  WritersLock(const WritersLock&) = delete;
  WritersLock& operator=(const WritersLock&) = delete;

 private:
  Mutex* const mu_;
};

// {enabled: bool}, create's / collMod's changeStreamPreAndPostImages.
absl::StatusOr<bool> ParsePreAndPostImages(const Value& value,
                                           absl::string_view command);
// Capped collections' bounds (engine/capped.cc), as create.idl and
// coll_mod.idl check them: a size 1 to 1 PiB, a max below 2^31, else 51024
// "BSON field '<field>' value must be ...". (The number itself is an
// IDL safeInt64: document/idl_errors.h IdlSafeInt64.)
absl::Status CheckCappedSize(int64_t size, absl::string_view field);
absl::Status CheckCappedMax(int64_t max, absl::string_view field);
// MongoDB's adjustCappedMaxDocs: a max <= 0 is stored as 0x7fffffff.
int64_t AdjustCappedMax(int64_t max);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_DB_IMPL_H_
