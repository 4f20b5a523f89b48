// EngineBackend: the shell's ShellBackend over the command layer.
//
// Every shell operation becomes the database command mongosh would send
// (insertOne -> {insert, documents}, find -> {find, ...} then getMore,
// getIndexes -> {listIndexes}, ...) and runs through commands/
// CommandRunner, the same code `ttldb serve` answers drivers with, so a
// command cannot behave differently in the shell and the server. This
// adapter only does what mongosh does on the client side: generate _id
// before an insert, drain a cursor, name an index, and turn replies into
// mongosh's result shapes ({acknowledged: true, insertedId: ...}) and
// error replies into absl::Status values with the MongoDB code, so the
// shell prints "MongoServerError[IndexOptionsConflict]: ...".
//
// The shell opens one database directory: every database name (`use x`)
// maps to that one database (CommandRunner::ForDatabase).
//
// Not thread-safe (one shell session); the Database must outlive it.
#ifndef TTLDB_TOOLS_SHELL_ENGINE_BACKEND_H_
#define TTLDB_TOOLS_SHELL_ENGINE_BACKEND_H_

#include <memory>
#include <string>
#include <vector>

#include "commands/command_runner.h"
#include "tools/shell/shell_backend.h"
#include "ttldb/database.h"

namespace ttldb {

class EngineBackend : public shell::ShellBackend {
 public:
  explicit EngineBackend(Database* db);
  ~EngineBackend() override;

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
  absl::StatusOr<std::vector<Value>> Aggregate(absl::string_view coll,
                                               const Value& pipeline,
                                               const Value& options) override;
  absl::StatusOr<Value> ExplainAggregate(absl::string_view coll,
                                         const Value& pipeline,
                                         const Value& options) override;
  absl::StatusOr<Value> Explain(absl::string_view coll,
                                const shell::FindRequest& req,
                                absl::string_view verbosity) override;
  absl::StatusOr<Value> RunCommand(const Value& cmd) override;
  absl::StatusOr<Value> AdminCommand(const Value& cmd) override;
  absl::StatusOr<Value> ServerStatus() override;
  absl::Status UseDatabase(absl::string_view name) override;
  absl::StatusOr<Value> ListDatabases() override;
  // writeConcern {j: true} / {fsync: true}: the write commands carry
  // writeConcern {j: true}.
  void SetSyncWrites(bool sync) override { sync_writes_ = sync; }

 private:
  // Runs `cmd` against `db` ("" : the current database); an error reply
  // becomes its Status.
  absl::StatusOr<Value> Command(Value cmd, absl::string_view db = "");
  // A write command with the session's writeConcern; its first writeError
  // becomes the Status.
  absl::StatusOr<Value> Write(Value cmd);
  // find + getMore until the cursor is exhausted.
  absl::StatusOr<std::vector<Value>> Drain(absl::string_view coll, Value reply);
  // insertOne/insertMany; `say_which` adds "(document i; n inserted before
  // it)" to an error.
  absl::StatusOr<Value> Insert(absl::string_view coll,
                               const std::vector<Value>& docs, bool ordered,
                               bool say_which);
  absl::StatusOr<Value> Update(absl::string_view coll, const Value& filter,
                               const Value& update, bool upsert, bool multi,
                               const Value& array_filters);

  std::unique_ptr<commands::CommandRunner> runner_;
  std::unique_ptr<commands::Connection> conn_;
  std::string database_ = "test";  // the name `use` selected
  bool sync_writes_ = false;
  int64_t last_error_index_ = 0;  // of the last writeError Write returned
};

}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_ENGINE_BACKEND_H_
