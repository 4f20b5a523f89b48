// EngineBackend: the shell's ShellBackend over a ttldb::Database.
//
// Every command maps onto engine/ (database.h, collection.h) and replies in
// mongosh's shapes (see tools/shell/shell_backend.h). Engine errors pass
// through unchanged: they carry MongoDB codes, so the shell prints
// "MongoServerError[IndexOptionsConflict]: ...".
//
// Commands understood by RunCommand: collMod (the command document goes to
// Collection::CollMod as is), create, drop, dropIndexes, ping, serverStatus,
// listCollections; by AdminCommand additionally setParameter / getParameter
// for ttlMonitorSleepSecs and ttlMonitorEnabled (replies as MongoDB's:
// {was: <old>, ok: 1} and {ttlMonitorSleepSecs: n, ok: 1}). Anything else
// is 59 CommandNotFound "no such command: 'x'".
//
// Not thread-safe (one shell session); the Database must outlive it.
#ifndef TTLDB_TOOLS_ENGINE_BACKEND_H_
#define TTLDB_TOOLS_ENGINE_BACKEND_H_

#include <string>
#include <vector>

#include "engine/database.h"
#include "tools/shell/shell_backend.h"

namespace ttldb {

class EngineBackend : public shell::ShellBackend {
 public:
  explicit EngineBackend(Database* db) : db_(db) {}

  absl::StatusOr<Value> InsertOne(absl::string_view coll,
                                  const Value& doc) override;
  absl::StatusOr<Value> InsertMany(absl::string_view coll,
                                   const std::vector<Value>& docs,
                                   bool ordered) override;
  absl::StatusOr<std::vector<Value>> Find(
      absl::string_view coll, const shell::FindRequest& req) override;
  absl::StatusOr<Value> UpdateOne(absl::string_view coll, const Value& filter,
                                  const Value& update, bool upsert,
                                  const Value& array_filters) override;
  absl::StatusOr<Value> UpdateMany(absl::string_view coll, const Value& filter,
                                   const Value& update, bool upsert,
                                   const Value& array_filters) override;
  absl::StatusOr<Value> ReplaceOne(absl::string_view coll, const Value& filter,
                                   const Value& replacement,
                                   bool upsert) override;
  absl::StatusOr<Value> DeleteOne(absl::string_view coll,
                                  const Value& filter) override;
  absl::StatusOr<Value> DeleteMany(absl::string_view coll,
                                   const Value& filter) override;
  absl::StatusOr<Value> FindOneAndModify(
      absl::string_view coll, const shell::FindAndModifyRequest& req) override;
  absl::StatusOr<Value> BulkWrite(absl::string_view coll,
                                  const Value& operations,
                                  bool ordered) override;
  absl::StatusOr<Value> RenameCollection(absl::string_view coll,
                                         absl::string_view to,
                                         bool drop_target) override;
  absl::StatusOr<Value> DbStats(int64_t scale) override;
  absl::StatusOr<Value> CountDocuments(absl::string_view coll,
                                       const Value& filter, int64_t skip,
                                       int64_t limit) override;
  absl::StatusOr<Value> EstimatedDocumentCount(absl::string_view coll) override;
  absl::StatusOr<Value> Distinct(absl::string_view coll, absl::string_view key,
                                 const Value& filter) override;
  absl::StatusOr<Value> CreateIndex(absl::string_view coll, const Value& keys,
                                    const Value& options) override;
  absl::StatusOr<Value> ListIndexes(absl::string_view coll) override;
  absl::StatusOr<Value> DropIndex(absl::string_view coll,
                                  const Value& name_or_keys) override;
  absl::StatusOr<Value> DropCollection(absl::string_view coll) override;
  absl::StatusOr<Value> ListCollections() override;
  absl::StatusOr<Value> Stats(absl::string_view coll) override;
  absl::StatusOr<Value> Validate(absl::string_view coll,
                                 const Value& options) override;
  absl::StatusOr<Value> Explain(absl::string_view coll,
                                const shell::FindRequest& req,
                                absl::string_view verbosity) override;
  absl::StatusOr<Value> RunCommand(const Value& cmd) override;
  absl::StatusOr<Value> AdminCommand(const Value& cmd) override;
  absl::StatusOr<Value> ServerStatus() override;
  absl::Status UseDatabase(absl::string_view name) override;
  absl::StatusOr<Value> ListDatabases() override;
  // writeConcern {j: true} / {fsync: true}: WriteOptions::sync.
  void SetSyncWrites(bool sync) override { sync_writes_ = sync; }

 private:
  WriteOptions Write() const {
    WriteOptions w;
    w.sync = sync_writes_;
    return w;
  }

  absl::StatusOr<Value> SetParameter(const Value& cmd);
  absl::StatusOr<Value> GetParameter(const Value& cmd);

  Database* const db_;
  std::string database_ = "test";  // the name `use` selected (cosmetic)
  bool sync_writes_ = false;
};

}  // namespace ttldb

#endif  // TTLDB_TOOLS_ENGINE_BACKEND_H_
