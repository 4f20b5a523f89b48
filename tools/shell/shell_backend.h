// The database operations the shell needs, as one abstract interface, so
// the shell's language front end does not depend on the engine. The lead
// implements it over //engine (tools/), tests implement it in memory.
//
// Every method returns the reply in mongosh's shape, as the shell prints
// it, e.g. InsertOne: { acknowledged: true, insertedId: ObjectId(...) }.
// Errors are absl::Status values, preferably carrying a MongoDB code
// (base/status.h MongoError) so the shell prints
// "MongoServerError[IndexOptionsConflict]: ...".
//
// Collection names are bare ("eventlog"); the current database is whatever
// UseDatabase last selected.
#ifndef TTLDB_TOOLS_SHELL_SHELL_BACKEND_H_
#define TTLDB_TOOLS_SHELL_SHELL_BACKEND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {

// A find() with its cursor modifiers. Empty objects mean "none".
struct FindRequest {
  Value filter = Value::MakeObject();
  Value projection = Value::MakeObject();
  Value sort = Value::MakeObject();
  int64_t skip = 0;
  int64_t limit = 0;  // 0: no limit; negative: -n as in MongoDB (n, 1 batch)
  // cursor.hint(): an index name (string) or key pattern (object, also
  // {$natural: 1}); null: none.
  Value hint;
  // cursor.allowDiskUse(): a sort past the server's memory bound spills.
  bool allow_disk_use = false;
};

// A findOneAndUpdate / findOneAndReplace / findOneAndDelete.
struct FindAndModifyRequest {
  enum class Kind { kUpdate, kReplace, kDelete };
  Kind kind = Kind::kUpdate;
  Value filter = Value::MakeObject();
  Value update;  // the update or the replacement; null for kDelete
  Value sort = Value::MakeObject();
  Value projection = Value::MakeObject();
  bool upsert = false;
  bool return_new = false;  // returnDocument: 'after'
  Value array_filters;      // null: none
};

class ShellBackend {
 public:
  virtual ~ShellBackend() = default;

  // { acknowledged: true, insertedId: <_id> } (the backend adds _id).
  virtual absl::StatusOr<Value> InsertOne(absl::string_view coll,
                                          const Value& doc) = 0;
  // { acknowledged: true, insertedIds: { '0': <_id>, '1': <_id>, ... } }
  virtual absl::StatusOr<Value> InsertMany(absl::string_view coll,
                                           const std::vector<Value>& docs,
                                           bool ordered) = 0;
  // The matching documents, sorted, skipped, limited and projected.
  virtual absl::StatusOr<std::vector<Value>> Find(absl::string_view coll,
                                                  const FindRequest& req) = 0;
  // The first match, or null. Default: Find with limit 1.
  virtual absl::StatusOr<Value> FindOne(absl::string_view coll,
                                        const Value& filter,
                                        const Value& projection) {
    FindRequest req;
    req.filter = filter;
    req.projection = projection;
    req.limit = 1;
    absl::StatusOr<std::vector<Value>> docs = Find(coll, req);
    if (!docs.ok()) return docs.status();
    return docs->empty() ? Value::Null() : (*docs)[0];
  }
  // { acknowledged: true, insertedId: <upserted _id or null>,
  //   matchedCount: n, modifiedCount: n, upsertedCount: n }
  // `array_filters`: the arrayFilters option as given (null: none).
  virtual absl::StatusOr<Value> UpdateOne(absl::string_view coll,
                                          const Value& filter,
                                          const Value& update, bool upsert,
                                          const Value& array_filters) = 0;
  virtual absl::StatusOr<Value> UpdateMany(absl::string_view coll,
                                           const Value& filter,
                                           const Value& update, bool upsert,
                                           const Value& array_filters) = 0;
  virtual absl::StatusOr<Value> ReplaceOne(absl::string_view coll,
                                           const Value& filter,
                                           const Value& replacement,
                                           bool upsert) = 0;
  // { acknowledged: true, deletedCount: n }
  virtual absl::StatusOr<Value> DeleteOne(absl::string_view coll,
                                          const Value& filter) = 0;
  virtual absl::StatusOr<Value> DeleteMany(absl::string_view coll,
                                           const Value& filter) = 0;
  // The document before (or, with return_new, after) the write, projected,
  // or null when nothing matched.
  virtual absl::StatusOr<Value> FindOneAndModify(
      absl::string_view coll, const FindAndModifyRequest& req) {
    (void)coll;
    (void)req;
    return absl::UnimplementedError("findAndModify is not supported");
  }
  // mongosh's BulkWriteResult: { acknowledged: true, insertedCount,
  // insertedIds: {'<op index>': _id}, matchedCount, modifiedCount,
  // deletedCount, upsertedCount, upsertedIds }; when operations failed,
  // also writeErrors: [{index, code, errmsg, op}] (the shell turns that
  // into a MongoBulkWriteError).
  virtual absl::StatusOr<Value> BulkWrite(absl::string_view coll,
                                          const Value& operations,
                                          bool ordered) {
    (void)coll;
    (void)operations;
    (void)ordered;
    return absl::UnimplementedError("bulkWrite is not supported");
  }
  // { ok: 1 }.
  virtual absl::StatusOr<Value> RenameCollection(absl::string_view coll,
                                                 absl::string_view to,
                                                 bool drop_target) {
    (void)coll;
    (void)to;
    (void)drop_target;
    return absl::UnimplementedError("renameCollection is not supported");
  }
  // MongoDB's dbStats reply for the current database.
  virtual absl::StatusOr<Value> DbStats(int64_t scale) {
    (void)scale;
    return absl::UnimplementedError("dbStats is not supported");
  }
  // A number (Int32 when it fits, else Int64). limit 0: none.
  virtual absl::StatusOr<Value> CountDocuments(absl::string_view coll,
                                               const Value& filter,
                                               int64_t skip, int64_t limit) = 0;
  // estimatedDocumentCount(): the documents stored, as stats().count
  // counts them (with hide_expired, expired documents not yet deleted
  // included; CountDocuments counts only what reads return). A number.
  virtual absl::StatusOr<Value> EstimatedDocumentCount(absl::string_view coll) {
    return CountDocuments(coll, Value::MakeObject(), 0, 0);
  }
  // An array of the distinct values of `key` among matches.
  virtual absl::StatusOr<Value> Distinct(absl::string_view coll,
                                         absl::string_view key,
                                         const Value& filter) = 0;
  // The index name as a string ("lastModifiedDate_1"), as mongosh prints.
  virtual absl::StatusOr<Value> CreateIndex(absl::string_view coll,
                                            const Value& keys,
                                            const Value& options) = 0;
  // An array of index specs: [ { v: 2, key: { _id: 1 }, name: '_id_' } ].
  virtual absl::StatusOr<Value> ListIndexes(absl::string_view coll) = 0;
  // `name_or_keys` is the name string or the key pattern object.
  // { nIndexesWas: n, ok: 1 }
  virtual absl::StatusOr<Value> DropIndex(absl::string_view coll,
                                          const Value& name_or_keys) = 0;
  // true if it existed, else false.
  virtual absl::StatusOr<Value> DropCollection(absl::string_view coll) = 0;
  // { ok: 1 }. Default: RunCommand({create: coll, ...options}).
  virtual absl::StatusOr<Value> CreateCollection(absl::string_view coll,
                                                 const Value& options) {
    Value cmd =
        Value::MakeObject({{"create", Value::String(std::string(coll))}});
    if (options.is_object()) {
      for (const Field& f : options.object_fields()) {
        cmd.mutable_object_fields().push_back(f);
      }
    }
    return RunCommand(cmd);
  }
  // An array of collection names, sorted.
  virtual absl::StatusOr<Value> ListCollections() = 0;
  virtual absl::StatusOr<Value> Stats(absl::string_view coll) = 0;
  // { ns, nrecords, nIndexes, valid: true, errors: [], ... }
  virtual absl::StatusOr<Value> Validate(absl::string_view coll,
                                         const Value& options) = 0;
  // The plan of a find; verbosity "queryPlanner", "executionStats" or
  // "allPlansExecution".
  virtual absl::StatusOr<Value> Explain(absl::string_view coll,
                                        const FindRequest& req,
                                        absl::string_view verbosity) = 0;
  // Database commands: { collMod: ... }, { create: ... }, { ping: 1 } ...
  virtual absl::StatusOr<Value> RunCommand(const Value& cmd) = 0;
  // Admin commands: { setParameter: 1, ttlMonitorSleepSecs: 1 } ...
  virtual absl::StatusOr<Value> AdminCommand(const Value& cmd) = 0;
  virtual absl::StatusOr<Value> ServerStatus() = 0;
  // The durability the following writes ask for: true while a write method
  // runs with writeConcern {j: true} or {fsync: true}, then false again. A
  // durable backend acknowledges those writes only once they are synced to
  // disk. Default: ignored (nothing to sync).
  virtual void SetSyncWrites(bool sync) { (void)sync; }
  // `use <name>`. Default: accepted (ttldb has one database per directory).
  virtual absl::Status UseDatabase(absl::string_view name) {
    (void)name;
    return absl::OkStatus();
  }
  // aggregate(pipeline, options): the results of the pipeline (an array of
  // stage documents); options as mongosh takes them ({allowDiskUse: true,
  // let: {...}}). Default: unsupported.
  virtual absl::StatusOr<std::vector<Value>> Aggregate(absl::string_view coll,
                                                       const Value& pipeline,
                                                       const Value& options) {
    (void)coll, (void)pipeline, (void)options;
    return absl::UnimplementedError("aggregate is not supported");
  }
  // The pipeline's explain: {stages: [{$cursor: ...}, ...]}.
  virtual absl::StatusOr<Value> ExplainAggregate(absl::string_view coll,
                                                 const Value& pipeline,
                                                 const Value& options) {
    (void)coll, (void)pipeline, (void)options;
    return absl::UnimplementedError("aggregate is not supported");
  }
  // `show dbs`: an array of { name, sizeOnDisk } objects.
  virtual absl::StatusOr<Value> ListDatabases() {
    return absl::UnimplementedError("show dbs is not supported");
  }
};

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_SHELL_BACKEND_H_
