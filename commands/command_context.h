// What a command's implementation receives, and the registry entry that
// names it. Internal to commands/: each command family (hello_commands.cc,
// crud: write_commands.cc, ...) adds its CommandSpecs.
#ifndef TTLDB_COMMANDS_COMMAND_CONTEXT_H_
#define TTLDB_COMMANDS_COMMAND_CONTEXT_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "commands/authorization.h"
#include "commands/connection.h"
#include "commands/server_state.h"
#include "ttldb/options.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

struct CommandContext {
  ServerState* server;
  Connection* connection;
  std::string db;    // the database the command runs against ($db)
  std::string name;  // the command's name as the client spelled it
  const Value& cmd;  // the whole command document
  // writeConcern {j: true}/{fsync: true}/w: "majority": synced writes.
  WriteOptions write;
  // Set by killOp (operation_registry.h); never null while the command
  // runs.
  const std::atomic<bool>* killed = nullptr;

  // The command's first value ({find: "c"} -> "c").
  const Value& first() const { return cmd.object_fields()[0].second; }
  // The database, or nullptr when it does not exist and !create.
  absl::StatusOr<std::shared_ptr<Database>> Db(bool create) const {
    return server->databases->Get(db, create);
  }
};

// Access control helpers (command_runner.cc), for the checks a command
// makes itself once its arguments are parsed.
//
// The authenticated user's record under --auth; nullopt when there is none
// (no user, or one dropped since it logged in).
std::optional<UserRecord> CurrentUser(const CommandContext& ctx);
// Whether the server runs without --auth, or the connection's user holds
// `action` on the cluster (inprog, killop, killAnyCursor: the checks
// commands make once they know whose operations they touch).
bool AuthorizedOnCluster(const CommandContext& ctx, ActionType action);
// 13 Unauthorized "not authorized on <db> to execute command { <name>:
// <first>, $db: "<db>" }": mongod's answer to every failed authorization
// check of a command (src/mongo/db/commands.cpp CommandInvocation::
// checkAuthorization), here with the command abridged.
absl::Status NotAuthorizedToExecute(const CommandContext& ctx);

using CommandFn = absl::StatusOr<Value> (*)(CommandContext& ctx);

struct CommandSpec {
  const char* name;
  CommandFn fn;
  // Runs only against "admin": else 13 Unauthorized "<name> may only be
  // run against the admin database."
  bool admin_only = false;
  // Takes writeConcern (else a writeConcern is refused as MongoDB does:
  // 9 FailedToParse "Command does not support writeConcern").
  bool takes_write_concern = false;
};

// Each family's specs (registered by command_runner.cc).
void AddHelloCommands(std::vector<CommandSpec>* specs);
void AddParameterCommands(std::vector<CommandSpec>* specs);
void AddDatabaseCommands(std::vector<CommandSpec>* specs);
void AddCollectionCommands(std::vector<CommandSpec>* specs);
void AddIndexCommands(std::vector<CommandSpec>* specs);
void AddWriteCommands(std::vector<CommandSpec>* specs);
void AddBulkWriteCommand(std::vector<CommandSpec>* specs);
void AddFindCommands(std::vector<CommandSpec>* specs);
void AddReadCommands(std::vector<CommandSpec>* specs);
void AddFindAndModifyCommands(std::vector<CommandSpec>* specs);
void AddAggregateCommands(std::vector<CommandSpec>* specs);
// The aggregate command itself (aggregate_command.cc), for explain's
// {explain: {aggregate: ...}} form.
absl::StatusOr<Value> AggregateCommand(CommandContext& ctx);
void AddBackupCommands(std::vector<CommandSpec>* specs);
void AddAuthCommands(std::vector<CommandSpec>* specs);
void AddCurrentOpCommands(std::vector<CommandSpec>* specs);
void AddOperatorCommands(std::vector<CommandSpec>* specs);
// aggregate: 1 (current_op_commands.cc): a pipeline that starts with
// $currentOp, on admin; any other is parsed (its stages' errors) and
// refused with 238 NotImplemented.
absl::StatusOr<Value> AggregateWithoutCollection(CommandContext& ctx,
                                                 const Value::Array& stages,
                                                 int64_t batch_size);
void AddInfoCommands(std::vector<CommandSpec>* specs);
// hello's saslSupportedMechs and speculativeAuthenticate answers, appended
// to `out` (auth_commands.cc).
void AddHelloAuthFields(CommandContext& ctx, Value::Object* out);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_COMMAND_CONTEXT_H_
