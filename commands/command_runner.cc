#include "commands/command_runner.h"

#include <unistd.h>

#include <map>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/server_state.h"
#include "commands/write_concern.h"
#include "engine/database_internal.h"

namespace ttldb {
namespace commands {

Connection::Connection(std::shared_ptr<ServerState> server, int64_t id)
    : server_(std::move(server)), id_(id) {
  server_->connections_current.fetch_add(1);
  server_->connections_total.fetch_add(1);
}

Connection::~Connection() {
  server_->cursors->KillConnection(static_cast<uint64_t>(id_));
  server_->connections_current.fetch_sub(1);
}

namespace {

std::string DefaultHost() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0 || buf[0] == '\0') {
    return "localhost:27017";
  }
  return absl::StrCat(buf, ":27017");
}

const absl::flat_hash_map<std::string, CommandSpec>& Registry() {
  static const auto* registry = [] {
    std::vector<CommandSpec> specs;
    AddHelloCommands(&specs);
    AddParameterCommands(&specs);
    AddDatabaseCommands(&specs);
    AddCollectionCommands(&specs);
    AddIndexCommands(&specs);
    AddWriteCommands(&specs);
    AddFindCommands(&specs);
    AddReadCommands(&specs);
    AddFindAndModifyCommands(&specs);
    AddAggregateCommands(&specs);
    AddBackupCommands(&specs);
    auto* map = new absl::flat_hash_map<std::string, CommandSpec>();
    for (const CommandSpec& s : specs) (*map)[s.name] = s;
    return map;
  }();
  return *registry;
}

// Transactions need a replica set: MongoDB's standalone refuses any
// txnNumber (service_entry_point_common.cpp, "Transaction numbers are only
// allowed on a replica set member or mongos", IllegalOperation).
absl::Status CheckTransactionArgs(const Value& cmd) {
  if (cmd.Get("txnNumber") != nullptr) {
    return MongoError(absl::StatusCode::kFailedPrecondition, kIllegalOperation,
                      "Transaction numbers are only allowed on a replica set "
                      "member or mongos");
  }
  if (cmd.Get("startTransaction") != nullptr ||
      cmd.Get("autocommit") != nullptr) {
    // Drivers send these only with a txnNumber; alone they are refused
    // the same way.
    return MongoError(absl::StatusCode::kFailedPrecondition, kIllegalOperation,
                      "Transaction numbers are only allowed on a replica set "
                      "member or mongos");
  }
  return absl::OkStatus();
}

// apiVersion must be "1" (api_parameters.cpp).
absl::Status CheckApiVersion(const Value& cmd) {
  const Value* v = cmd.Get("apiVersion");
  if (v == nullptr) {
    if (cmd.Get("apiStrict") != nullptr ||
        cmd.Get("apiDeprecationErrors") != nullptr) {
      return MongoError(absl::StatusCode::kInvalidArgument, kAPIVersionError,
                        "Cannot specify apiStrict or apiDeprecationErrors "
                        "without apiVersion");
    }
    return absl::OkStatus();
  }
  if (!v->is_string()) {
    return WrongType("apiVersion", *v, "string");
  }
  if (v->string_value() != "1") {
    return MongoError(absl::StatusCode::kInvalidArgument, kAPIVersionError,
                      absl::StrCat("API version must be \"1\""));
  }
  return absl::OkStatus();
}

// readConcern levels a standalone serves: local, available, majority
// (always satisfied: it has no other node). snapshot needs a transaction or
// a replica set; linearizable a replica set.
absl::Status CheckReadConcern(const Value& cmd) {
  const Value* rc = cmd.Get("readConcern");
  if (rc == nullptr || rc->is_null()) return absl::OkStatus();
  if (!rc->is_object()) return WrongType("readConcern", *rc, "object");
  const Value* level = rc->Get("level");
  if (level == nullptr) return absl::OkStatus();
  if (!level->is_string()) {
    return WrongType("readConcern.level", *level, "string");
  }
  const std::string& l = level->string_value();
  if (l == "local" || l == "available" || l == "majority") {
    return absl::OkStatus();
  }
  if (l == "snapshot" || l == "linearizable") {
    return MongoError(absl::StatusCode::kFailedPrecondition, 123,
                      "node needs to be a replica set member to use read "
                      "concern");
  }
  return MongoError(
      absl::StatusCode::kInvalidArgument, kFailedToParse,
      absl::StrCat("BSON field 'ReadConcernArgs.level' is an invalid enum "
                   "value '",
                   l, "'"));
}

class Runner : public CommandRunner {
 public:
  explicit Runner(std::shared_ptr<ServerState> server)
      : server_(std::move(server)) {}
  ~Runner() override { Close().IgnoreError(); }

  std::unique_ptr<Connection> NewConnection() override {
    return std::make_unique<Connection>(
        server_, server_->next_connection_id.fetch_add(1));
  }

  Value Run(Connection* connection, absl::string_view db,
            const Value& command) override {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) {
        return ErrorReply(
            MongoError(absl::StatusCode::kUnavailable, kShutdownInProgress,
                       "The server is in quiesce mode and will shut down"));
      }
      ++running_;
    }
    Value reply = Dispatch(connection, db, command);
    {
      absl::MutexLock lock(&mu_);
      --running_;
    }
    return reply;
  }

  void TEST_RunTtlPasses(absl::Time now) override {
    server_->databases->ForEachOpen([&](const std::string&, Database* db) {
      DatabaseInternal::RunTtlPass(*db, now);
    });
  }

  absl::Status Close() override {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) return absl::OkStatus();
      closed_ = true;
      mu_.Await(absl::Condition(
          +[](int* running) { return *running == 0; }, &running_));
    }
    server_->cursors->KillAll();
    return server_->databases->Close();
  }

 private:
  Value Dispatch(Connection* connection, absl::string_view db,
                 const Value& command) {
    if (!command.is_object() || command.object_fields().empty()) {
      return ErrorReply(MongoError(absl::StatusCode::kInvalidArgument,
                                   kCommandNotFound, "no such command: ''"));
    }
    const std::string& name = command.object_fields()[0].first;
    const auto& registry = Registry();
    auto it = registry.find(name);
    if (it == registry.end()) {
      return ErrorReply(
          MongoError(absl::StatusCode::kInvalidArgument, kCommandNotFound,
                     absl::StrCat("no such command: '", name, "'")));
    }
    const CommandSpec& spec = it->second;
    CommandContext ctx{server_.get(), connection, std::string(db),
                       name,          command,    WriteOptions()};
    absl::StatusOr<Value> reply = RunSpec(spec, ctx);
    if (!reply.ok()) return ErrorReply(reply.status());
    return *std::move(reply);
  }

  absl::StatusOr<Value> RunSpec(const CommandSpec& spec, CommandContext& ctx) {
    RETURN_IF_ERROR(ValidateDatabaseName(ctx.db));
    if (spec.admin_only && ctx.db != "admin") {
      return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                        absl::StrCat(ctx.name,
                                     " may only be run against the admin "
                                     "database."));
    }
    RETURN_IF_ERROR(CheckTransactionArgs(ctx.cmd));
    RETURN_IF_ERROR(CheckApiVersion(ctx.cmd));
    RETURN_IF_ERROR(CheckReadConcern(ctx.cmd));
    const Value* wc = ctx.cmd.Get("writeConcern");
    if (wc != nullptr) {
      if (!spec.takes_write_concern) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "Command does not support writeConcern");
      }
      ASSIGN_OR_RETURN(ctx.write, ParseWriteConcern(*wc));
    }
    ctx.write.interrupt = ctx.connection->interrupt();
    // maxTimeMS bounds the command's work: the engine's scans check it per
    // document (base/op_deadline.h). getMore takes its cursor's leftover
    // time instead (find_commands.cc).
    ASSIGN_OR_RETURN(absl::Duration max_time, MaxTimeArg(ctx.cmd));
    if (max_time > absl::ZeroDuration() && ctx.name != "getMore") {
      ScopedOpDeadline deadline(ctx.server->clock,
                                ctx.server->clock->SteadyNow() + max_time);
      return spec.fn(ctx);
    }
    return spec.fn(ctx);
  }

  const std::shared_ptr<ServerState> server_;
  absl::Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
};

std::shared_ptr<ServerState> NewState(const RunnerOptions& options) {
  auto state = std::make_shared<ServerState>();
  state->options = options;
  state->clock = options.database_options.clock != nullptr
                     ? options.database_options.clock
                     : Clock::Real();
  state->start_wall = state->clock->WallNow();
  state->start_steady = state->clock->SteadyNow();
  state->process_id = ObjectId::Generate();
  state->host = options.host_port.empty() ? DefaultHost() : options.host_port;
  state->cursors = std::make_unique<CursorStore>(
      state->clock, absl::Milliseconds(options.cursor_timeout_millis),
      options.max_cursors_per_connection);
  return state;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CommandRunner>> CommandRunner::Open(
    absl::string_view root, const RunnerOptions& options) {
  std::shared_ptr<ServerState> state = NewState(options);
  ASSIGN_OR_RETURN(state->databases,
                   DatabaseSet::Open(root, options.database_options));
  state->root = std::string(root);
  return std::unique_ptr<CommandRunner>(new Runner(std::move(state)));
}

std::unique_ptr<CommandRunner> CommandRunner::ForDatabase(
    Database* db, absl::string_view name, const RunnerOptions& options) {
  std::shared_ptr<ServerState> state = NewState(options);
  state->databases = DatabaseSet::Single(db, name);
  return std::unique_ptr<CommandRunner>(new Runner(std::move(state)));
}

}  // namespace commands
}  // namespace ttldb
