// ttldb: an embeddable document database with MongoDB-style TTL indexes.
//
//   ASSIGN_OR_RETURN(auto db, ttldb::Database::Open("/var/lib/app/db", {}));
//   ttldb::Collection& log = db->collection("eventLog");
//   RETURN_IF_ERROR(log.CreateIndex(R"({"accessTime": 1})",
//                                   R"({"expireAfterSeconds":
//                                   3600})").status());
//   ASSIGN_OR_RETURN(auto id, log.InsertOne(
//       R"({"pageID": 100, "accessTime": {"$date":
//       "2026-11-21T10:00:00Z"}})"));
//   RETURN_IF_ERROR(log.UpdateOne(R"({"pageID": 100})",
//       R"({"$currentDate": {"accessTime": true}})").status());
#ifndef TTLDB_DATABASE_H_
#define TTLDB_DATABASE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ttldb/collection.h"
#include "ttldb/options.h"
#include "ttldb/ttl_metrics.h"
#include "ttldb/value.h"

namespace ttldb {

class DatabaseBackend;
class DbImpl;

// A database: one directory holding one LevelDB, or one database of a
// MongoDB deployment (Open with a mongodb:// URI). Safe for concurrent use
// from many threads without external synchronization. Only one Database
// (in this or any other process) may have a directory open at a time.
class Database {
 public:
  // Opens (or, with create_if_missing, creates) the database in `path` and
  // starts the TTL monitor unless disabled or read-only. Fails with
  // FailedPrecondition "database ... is already open (lock held)" if another
  // Database has it open, InvalidArgument for bad options, DataLoss for a
  // corrupt catalog, FailedPrecondition for a newer on-disk format.
  //
  // `path` may instead be a MongoDB connection string
  // ("mongodb://h1,h2/app?replicaSet=rs0", "mongodb+srv://..."): the
  // Database is then that database of the deployment (the URI's database,
  // else options.db_name), reached through MongoDB's C driver (libmongoc)
  // with a connection pool; pooling, timeouts, TLS, retryable writes and
  // read/write concerns come from the URI's options. The same calls work
  // with the same results and errors, except the ttldb extras that have no
  // MongoDB counterpart (docs/migrating.md, "The C++ API on a MongoDB
  // deployment"), which fail with Unimplemented (115 CommandNotSupported)
  // naming the extra. This needs the backend linked (Bazel
  // @ttldb//remote, CMake ttldb::remote); without it Open fails with
  // FailedPrecondition (115) naming that target. Open checks the
  // deployment with a ping: unreachable, it fails with Unavailable.
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      absl::string_view path, const Options& options = {});

  // Stops the monitor and closes the database (see Close).
  ~Database();

  // Stops the TTL monitor (waiting for a pass in progress to finish its
  // current batch), ends every live cursor, and flushes and closes LevelDB.
  // Idempotent. Every other call after Close fails with FailedPrecondition,
  // Cursor::Next included (cursors may outlive the Database).
  absl::Status Close();

  // A handle on a collection; created on its first write. The reference
  // stays valid for the Database's life. Operations on a handle with an
  // invalid name fail with InvalidArgument (code 73 InvalidNamespace):
  // names must be 1..120 bytes of valid UTF-8, without '$' or NUL, and not
  // start with '.' or "system.".
  Collection& collection(absl::string_view name);

  // MongoDB's db.watch(): the changes of every collection of the database
  // (system.* excepted), as Collection::Watch.
  absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options = {});

  // Creates an empty collection; AlreadyExists (48) if it exists.
  absl::Status CreateCollection(absl::string_view name);
  // The same with MongoDB's document validation options (see
  // ValidationOptions). Errors, nothing created: an invalid validator with
  // the filter's code ($jsonSchema's keyword errors, query/json_schema.h),
  // 224 QueryFeatureNotAllowed for $where/$text/$near..., 14 TypeMismatch
  // for a validator that is not an object; an unknown level or action, 2
  // BadValue.
  absl::Status CreateCollection(absl::string_view name,
                                const ValidationOptions& validation);
  // Names of the existing collections, sorted.
  absl::StatusOr<std::vector<std::string>> ListCollectionNames();
  // The collections whose catalog entries are damaged (unparsable, invalid,
  // or sharing their storage id with another collection), by name, with
  // what is wrong. Open succeeds with the healthy collections; these are
  // left out of ListCollectionNames, every operation on them fails with
  // DataLoss (301 DataCorruptionDetected) naming `ttldb repair`, and
  // DropCollection removes the entry. Empty for a healthy database.
  std::map<std::string, std::string> CatalogDamage();
  // Drops a collection, its documents and its indexes. Returns whether it
  // existed. The drop is one synced catalog write: once it returns no read
  // or write sees the collection, and a collection created again under the
  // same name starts empty. Its keys are deleted afterwards by a background
  // thread, which does not hold up other writers (a Close or crash in
  // between: the next Open finishes it); until then they take disk space
  // and Collection::Validate lists them under "warnings".
  absl::StatusOr<bool> DropCollection(absl::string_view name);
  // MongoDB's renameCollection within one database: atomic (one synced
  // batch), O(1) (documents and index entries keep their keys); indexes,
  // TTL indexes included, stay and keep expiring. With `drop_target`, an
  // existing `to` is dropped in the same step. Errors, nothing changed (as
  // rename_collection.cpp): `from` missing: NotFound, 26 NamespaceNotFound
  // "Source collection <from> does not exist"; `to` exists without
  // drop_target: AlreadyExists, 48 NamespaceExists "target namespace
  // exists"; from == to: 20 IllegalOperation "Can't rename a collection to
  // itself"; an invalid `to`: 73 InvalidNamespace.
  absl::Status RenameCollection(absl::string_view from, absl::string_view to,
                                bool drop_target = false);

  // ---- Views ---------------------------------------------------------------
  // MongoDB's db.createView(name, view_on, pipeline) (the create command
  // with viewOn and pipeline): a read-only view. A Collection handle of
  // `name` then reads through it: Find, FindOne, FindById, CountDocuments,
  // Distinct, Aggregate and their Explain run `pipeline` over `view_on` (a
  // collection, which need not exist, or another view) and then their own
  // filter, sort, skip, limit and projection, as MongoDB runs a find on a
  // view as an aggregate (src/mongo/db/views/, resolved_view.cpp). Writes
  // through the handle (inserts, updates, deletes, findAndModify, Touch,
  // bulk writes, index changes, CollMod) fail with 166
  // CommandNotSupportedOnView "Namespace <name> is a view, not a
  // collection" and change nothing. The view is one synced catalog entry,
  // so it survives a reopen; DropCollection drops it; ListCollectionNames
  // does not list it (ListViews does).
  //
  // Errors, nothing created: `name` is a collection or a view: 48
  // NamespaceExists; an invalid name or view_on (ValidateCollectionName):
  // 73 InvalidNamespace; a pipeline that is not an array of documents, or
  // does not parse: the pipeline's parse error; a stage that writes ($out,
  // $merge) or $changeStream: 167 OptionNotSupportedOnView; $documents
  // (it reads no collection): 73; a view that would read itself (through
  // view_on or a $lookup, $graphLookup or $unionWith of its pipeline): 5
  // GraphContainsCycle; more than 20 views in a chain: 165
  // ViewDepthLimitExceeded (src/mongo/db/views/view_graph.cpp).
  absl::Status CreateView(absl::string_view name, absl::string_view view_on,
                          const DocArg& pipeline = "[]");
  // MongoDB's collMod with viewOn and pipeline: replaces the view's
  // definition, with CreateView's errors; 26 NamespaceNotFound when `name`
  // is not a view.
  absl::Status ModifyView(absl::string_view name, absl::string_view view_on,
                          const DocArg& pipeline);
  // The views, sorted by name.
  absl::StatusOr<std::vector<ViewDefinition>> ListViews();

  // MongoDB's dbStats: {db, collections, views, objects, avgObjSize,
  // dataSize, storageSize, indexes, indexSize, totalSize, scaleFactor,
  // fsUsedSize, fsTotalSize, ok: 1}. `scale` (>= 1; MongoDB truncates a
  // fraction) divides every size; objects and dataSize count documents as
  // Collection::Stats does (expired ones not yet deleted included);
  // storageSize and indexSize are the sums of the collections' storageSize
  // and totalIndexSize in Collection::Stats (real bytes also while the
  // data is still in LevelDB's memtable); db is `db_name`.
  // Errors: scale < 1: 51024 "BSON field 'scale' value must be >= 1,
  // actual value '<scale>'" (dbstats.idl's validator).
  absl::StatusOr<Value> Stats(int64_t scale = 1,
                              absl::string_view db_name = "test");

  // Beyond MongoDB: the heap this database holds in its caches (see
  // MemoryUsage), read without blocking writers. FailedPrecondition once
  // closed.
  absl::StatusOr<MemoryUsage> Memory();

  // ---- Operations ----------------------------------------------------------
  // Writes a consistent copy of the database, as of one moment, into
  // `dest_dir` (created with its parents; it must not exist or be empty,
  // else AlreadyExists), which Database::Open then opens. Writers go on
  // meanwhile and are not in the copy after that moment. Works on a
  // read_only database too. Every checksum is verified while reading: a
  // corrupted source fails the backup (DataLoss 301). See engine/backup.cc
  // for how. A running server exposes it as the admin command
  // {createBackup: 1, backupDir: DIR} (docs/operations.md).
  absl::StatusOr<BackupStats> Backup(absl::string_view dest_dir);

  // Forces every write acknowledged so far onto the disk (an fsync of
  // LevelDB's log), so that it survives a machine crash even if written
  // without WriteOptions::sync: MongoDB's fsync command. A read-only
  // database has nothing to sync (OK). FailedPrecondition once closed;
  // 96 OperationFailed "fsync failed: ..." when the disk refuses.
  absl::Status SyncLog();

  // ---- TTL monitor ---------------------------------------------------------

  // Changes ttlMonitorSleepSecs at run time (> 0) and wakes the monitor.
  absl::Status SetTtlMonitorSleep(absl::Duration sleep);
  // Enables or disables the monitor at run time (MongoDB's
  // ttlMonitorEnabled). A disabled monitor finishes its current batch and
  // stops the pass there. The test-support library's passes
  // (ttldb/testing/ttldb_testing.h) still run.
  absl::Status SetTtlMonitorEnabled(bool enabled);
  absl::Duration ttl_monitor_sleep() const;
  bool ttl_monitor_enabled() const;
  // MongoDB's run-time TTL parameters, applied from the next batch:
  // ttlIndexDeleteTargetDocs and ttlIndexDeleteTargetTimeMS (>= 0; 0 is
  // unlimited), ttlMonitorBatchDeletes, ttlMonitorSubPassTargetSecs (>= 0).
  // InvalidArgument, nothing changed, for a negative value.
  absl::Status SetTtlBatchDocsMax(int64_t docs);
  absl::Status SetTtlBatchTimeMax(absl::Duration time);
  absl::Status SetTtlBatchDeletes(bool batch_deletes);
  absl::Status SetTtlSubPassTarget(absl::Duration target);
  int64_t ttl_batch_docs_max() const;
  absl::Duration ttl_batch_time_max() const;
  bool ttl_batch_deletes() const;
  absl::Duration ttl_sub_pass_target() const;
  // A copy of the monitor's counters.
  TtlMetrics GetTtlMetrics();
  // serverStatus-like document: {metrics: {ttl: {...}}, ...}.
  Value ServerStatus();

 private:
  // ttldb's own tests and tools reach the engine through
  // engine/database_internal.h (not part of the public API).
  friend class DatabaseInternal;
  explicit Database(std::unique_ptr<DbImpl> engine);
  explicit Database(std::unique_ptr<DatabaseBackend> backend);
  // Exactly one is set: the embedded engine (a directory) or the backend
  // of a mongodb:// URI (engine/backend.h), to which every method hands
  // its call over.
  std::unique_ptr<DbImpl> engine_;
  std::unique_ptr<DatabaseBackend> backend_;
};

}  // namespace ttldb

#endif  // TTLDB_DATABASE_H_
