// The seam between the public classes (Database, Collection) and a backend
// other than the embedded engine: a MongoDB deployment reached through
// libmongoc (//remote:remote). Not part of the public API: a service never
// names these classes; it calls Database::Open("mongodb://...") and uses
// Database and Collection as it would on a directory.
//
// How the public classes use it: a Database opened on a directory holds an
// DbImpl and no backend; one opened on a mongodb:// URI holds a
// DatabaseBackend and no DbImpl. Each public method starts with one test
// of its backend pointer (a predictable branch, no virtual call) and hands
// the call over when it is set, so the embedded path runs exactly the code
// it ran before; per-document loops never cross this seam (a cursor is
// already a virtual interface, and stays one per Next).
//
// A backend's errors are those of the embedded engine: absl::Status with
// MongoDB's code (base/status.h), the duplicate key error built by
// ttldb/duplicate_key_error.h (keyPattern / keyValue payloads), so that a
// caller cannot tell the two apart by its error handling. An operation a
// backend cannot provide fails with Unimplemented, 115 CommandNotSupported,
// naming the operation (the defaults below).
#ifndef TTLDB_ENGINE_BACKEND_H_
#define TTLDB_ENGINE_BACKEND_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "ttldb/change_stream.h"
#include "ttldb/collection.h"
#include "ttldb/cursor.h"
#include "ttldb/doc_arg.h"
#include "ttldb/options.h"
#include "ttldb/results.h"
#include "ttldb/ttl_metrics.h"
#include "ttldb/value.h"

namespace ttldb {

// Unimplemented, 115 CommandNotSupported: "<what> is not supported on
// <where>" (the defaults' error, and a backend's for an extra it refuses).
absl::Status BackendUnsupported(absl::string_view what,
                                absl::string_view where);

// The operations of one collection (Collection's, one to one). Thread-safe
// as Collection is.
class CollectionBackend {
 public:
  virtual ~CollectionBackend() = default;

  // Where this backend runs, for error messages ("MongoDB deployment").
  virtual std::string Where() const = 0;

  virtual absl::StatusOr<Value> InsertOne(const DocArg& doc,
                                          const WriteOptions& options) = 0;
  virtual absl::Status InsertMany(absl::Span<const DocArg> docs,
                                  std::vector<Value>* inserted_ids,
                                  const WriteOptions& options) = 0;
  virtual absl::StatusOr<UpdateResult> Update(
      const DocArg& filter, const DocArg& update, bool multi,
      bool replacement_only, const UpdateOptions& update_options,
      const WriteOptions& options) = 0;
  virtual absl::StatusOr<int64_t> Delete(const DocArg& filter, bool multi,
                                         const WriteOptions& options) = 0;
  // kind: "update" (operators or a replacement), "replace", "delete".
  virtual absl::StatusOr<std::optional<Value>> FindOneAndModify(
      absl::string_view kind, const DocArg& filter, const DocArg* update,
      const FindOneAndModifyOptions& fam_options,
      const WriteOptions& options) = 0;
  virtual absl::StatusOr<BulkWriteResult> BulkWrite(
      absl::Span<const WriteModel> ops, bool ordered,
      const WriteOptions& options) = 0;
  virtual absl::StatusOr<UpdateResult> Touch(const DocArg& filter,
                                             absl::string_view field,
                                             const WriteOptions& options);

  virtual absl::StatusOr<Value> FindById(const Value& id) = 0;
  virtual absl::StatusOr<std::unique_ptr<Cursor>> Find(
      const DocArg& filter, const FindOptions& options) = 0;
  virtual absl::StatusOr<int64_t> CountDocuments(const DocArg& filter) = 0;
  virtual absl::StatusOr<int64_t> EstimatedDocumentCount() = 0;
  virtual absl::StatusOr<std::vector<Value>> Distinct(absl::string_view field,
                                                      const DocArg& filter) = 0;
  virtual absl::StatusOr<Value> Explain(const DocArg& filter,
                                        const FindOptions& options);
  virtual absl::StatusOr<std::unique_ptr<Cursor>> Aggregate(
      const DocArg& pipeline, const AggregateOptions& options) = 0;
  virtual absl::StatusOr<Value> ExplainAggregate(
      const DocArg& pipeline, const AggregateOptions& options);

  virtual absl::StatusOr<std::string> CreateIndex(
      const DocArg& keys, const DocArg& index_options,
      const IndexBuildProgress& progress) = 0;
  virtual absl::Status DropIndex(absl::string_view name) = 0;
  virtual absl::Status DropIndexByKey(const DocArg& keys) = 0;
  virtual absl::StatusOr<std::vector<Value>> ListIndexes() = 0;
  virtual absl::StatusOr<Value> Options() = 0;
  virtual absl::StatusOr<Value> CollMod(const DocArg& command) = 0;
  virtual absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options);

  virtual absl::StatusOr<Value> Validate();
  virtual absl::StatusOr<Value> Stats(int64_t scale);
  virtual absl::StatusOr<std::vector<Value>> IndexStats();
  virtual absl::StatusOr<int64_t> CollectionScans();
};

// The operations of a database (Database's, one to one).
class DatabaseBackend {
 public:
  virtual ~DatabaseBackend() = default;

  virtual std::string Where() const = 0;

  virtual absl::Status Close() = 0;
  // A handle whose calls go to this backend (made with
  // Collection(CollectionBackend*, name)); valid for the backend's life.
  virtual Collection& collection(absl::string_view name) = 0;
  virtual absl::Status CreateCollection(
      absl::string_view name, const ValidationOptions* validation) = 0;
  virtual absl::StatusOr<std::vector<std::string>> ListCollectionNames() = 0;
  virtual std::map<std::string, std::string> CatalogDamage() { return {}; }
  virtual absl::StatusOr<bool> DropCollection(absl::string_view name) = 0;
  virtual absl::Status RenameCollection(absl::string_view from,
                                        absl::string_view to,
                                        bool drop_target) = 0;
  virtual absl::StatusOr<Value> Stats(int64_t scale,
                                      absl::string_view db_name) = 0;
  virtual absl::StatusOr<MemoryUsage> Memory();
  virtual absl::StatusOr<BackupStats> Backup(absl::string_view dest_dir);
  virtual absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options);
  virtual absl::Status SyncLog() = 0;

  virtual absl::Status SetTtlMonitorSleep(absl::Duration sleep) = 0;
  virtual absl::Status SetTtlMonitorEnabled(bool enabled) = 0;
  virtual absl::Duration ttl_monitor_sleep() const = 0;
  virtual bool ttl_monitor_enabled() const = 0;
  virtual absl::Status SetTtlBatchDocsMax(int64_t docs) = 0;
  virtual absl::Status SetTtlBatchTimeMax(absl::Duration time) = 0;
  virtual absl::Status SetTtlBatchDeletes(bool batch_deletes) = 0;
  virtual absl::Status SetTtlSubPassTarget(absl::Duration target) = 0;
  virtual int64_t ttl_batch_docs_max() const = 0;
  virtual absl::Duration ttl_batch_time_max() const = 0;
  virtual bool ttl_batch_deletes() const = 0;
  virtual absl::Duration ttl_sub_pass_target() const = 0;
  virtual TtlMetrics GetTtlMetrics() = 0;
  virtual Value ServerStatus() = 0;
};

// Opens a backend on a URI ("mongodb://..."). Set once, at static
// initialization, by the library that provides it (//remote:remote,
// linked with alwayslink; CMake's ttldb::remote).
using BackendOpener =
    std::function<absl::StatusOr<std::unique_ptr<DatabaseBackend>>(
        absl::string_view uri, const Options& options)>;

// Registers the opener of mongodb:// and mongodb+srv:// URIs. Returns true
// (for `static const bool registered = RegisterMongoBackend(...)`).
bool RegisterMongoBackend(BackendOpener opener);

// Whether `path` is a MongoDB connection string rather than a directory.
bool IsMongoUri(absl::string_view path);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_BACKEND_H_
