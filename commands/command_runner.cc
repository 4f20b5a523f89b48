#include "commands/command_runner.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "base/op_context.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "commands/authorization.h"
#include "commands/builtin_roles.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/scram.h"
#include "commands/server_state.h"
#include "commands/write_concern.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

Connection::Connection(std::shared_ptr<ServerState> server, int64_t id)
    : server_(std::move(server)), id_(id) {
  server_->connections_current.fetch_add(1);
  server_->connections_total.fetch_add(1);
  server_->operations.AddClient(id_);
}

Connection::~Connection() {
  server_->operations.RemoveClient(id_);
  server_->cursors->KillConnection(static_cast<uint64_t>(id_));
  server_->connections_current.fetch_sub(1);
}

void Connection::set_peer(std::string peer) {
  peer_ = std::move(peer);
  server_->operations.UpdateClient(id_,
                                   [&](ClientInfo* c) { c->peer = peer_; });
}

void Connection::set_client_metadata(Value v) {
  client_metadata_ = std::move(v);
  server_->operations.UpdateClient(
      id_, [&](ClientInfo* c) { c->client_metadata = client_metadata_; });
}

void Connection::set_user(std::optional<UserName> user) {
  user_ = std::move(user);
  server_->operations.UpdateClient(id_,
                                   [&](ClientInfo* c) { c->user = user_; });
}

void Connection::set_conversation(std::unique_ptr<ScramSha256Server> c,
                                  std::string db) {
  conversation_ = std::move(c);
  conversation_db_ = std::move(db);
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
    AddBulkWriteCommand(&specs);
    AddFindCommands(&specs);
    AddReadCommands(&specs);
    AddFindAndModifyCommands(&specs);
    AddAggregateCommands(&specs);
    AddBackupCommands(&specs);
    AddAuthCommands(&specs);
    AddCurrentOpCommands(&specs);
    AddOperatorCommands(&specs);
    AddInfoCommands(&specs);
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
    return IdlWrongType("apiVersion", *v, "string");
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
  if (!rc->is_object()) return IdlWrongType("readConcern", *rc, "object");
  const Value* level = rc->Get("level");
  if (level == nullptr) return absl::OkStatus();
  if (!level->is_string()) {
    return IdlWrongType("readConcern.level", *level, "string");
  }
  const std::string& l = level->string_value();
  if (l == "local" || l == "available" || l == "majority") {
    return absl::OkStatus();
  }
  if (l == "snapshot" || l == "linearizable") {
    return MongoError(absl::StatusCode::kFailedPrecondition, kNotAReplicaSet,
                      "node needs to be a replica set member to use read "
                      "concern");
  }
  return MongoError(
      absl::StatusCode::kInvalidArgument, kFailedToParse,
      absl::StrCat("BSON field 'ReadConcernArgs.level' is an invalid enum "
                   "value '",
                   l, "'"));
}

// The collections that take no client writes: the profiler's and the
// users' (written only by the profiler and by the user-management
// commands, which keep the user cache; commands/user_store.h). mongod's
// userAllowedWriteNS (src/mongo/db/catalog/document_validation.h and
// ops/write_ops_exec.cpp) refuses system.profile with 73 InvalidNamespace
// "cannot write to '<db>.system.profile'"; ttldb answers the same for
// system.users, which mongod leaves to the privileges of restore and
// __system.
bool IsProtectedCollection(absl::string_view coll) {
  return coll == kProfileCollection || coll == UserStore::kCollection;
}

absl::Status CannotWriteTo(absl::string_view ns) {
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidNamespace,
                    absl::StrCat("cannot write to '", ns, "'"));
}

// "db.coll" -> coll; "" when not a string.
std::string CollectionOfNamespace(const Value* ns) {
  if (ns == nullptr || !ns->is_string()) return "";
  const std::string& s = ns->string_value();
  const size_t dot = s.find('.');
  return dot == std::string::npos ? "" : s.substr(dot + 1);
}

absl::Status CheckUserWritable(const CommandContext& ctx) {
  const std::string coll =
      ctx.first().is_string() ? ctx.first().string_value() : "";
  if (ctx.name == "insert" || ctx.name == "update" || ctx.name == "delete" ||
      ctx.name == "findAndModify" || ctx.name == "findandmodify") {
    if (IsProtectedCollection(coll)) {
      return CannotWriteTo(absl::StrCat(ctx.db, ".", coll));
    }
    return absl::OkStatus();
  }
  // The users' collection is not created, dropped, renamed or reindexed by
  // clients either (its index is mongod's, made by the store).
  if (ctx.name == "create" || ctx.name == "drop" ||
      ctx.name == "createIndexes" || ctx.name == "dropIndexes" ||
      ctx.name == "collMod" || ctx.name == "convertToCapped") {
    if (coll == UserStore::kCollection) {
      return CannotWriteTo(absl::StrCat(ctx.db, ".", coll));
    }
    // system.profile may be created capped, dropped or indexed, not
    // converted (jstests/core/administrative/profile/system_profile.js:
    // BadValue).
    if (ctx.name == "convertToCapped" && coll == kProfileCollection) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        absl::StrCat("cannot convert ", ctx.db, ".", coll,
                                     " to a capped collection: the profiler "
                                     "creates it capped"));
    }
    return absl::OkStatus();
  }
  if (ctx.name == "renameCollection") {
    // Neither the users' nor the profiler's collection is renamed, to or
    // from (system_profile.js).
    for (const Value* ns : {&ctx.first(), ctx.cmd.Get("to")}) {
      if (IsProtectedCollection(CollectionOfNamespace(ns))) {
        return CannotWriteTo(ns->string_value());
      }
    }
    return absl::OkStatus();
  }
  if (ctx.name == "bulkWrite") {
    const Value* ns_info = ctx.cmd.Get("nsInfo");
    if (ns_info == nullptr || !ns_info->is_array()) return absl::OkStatus();
    for (const Value& e : ns_info->array_items()) {
      const Value* ns = e.is_object() ? e.Get("ns") : nullptr;
      if (IsProtectedCollection(CollectionOfNamespace(ns))) {
        return CannotWriteTo(ns->string_value());
      }
    }
    return absl::OkStatus();
  }
  if (ctx.name == "aggregate") {
    // $out / $merge into the users' or the profiler's collection.
    const Value* pipeline = ctx.cmd.Get("pipeline");
    if (pipeline == nullptr || !pipeline->is_array()) return absl::OkStatus();
    for (const Privilege& p :
         AggregatePrivileges(ctx.db, coll, *pipeline, false)) {
      if (!IsProtectedCollection(p.coll)) continue;
      for (ActionType a : p.actions) {
        if (a != ActionType::kFind) {
          return CannotWriteTo(absl::StrCat(p.db, ".", p.coll));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::optional<UserRecord> CurrentUser(const CommandContext& ctx) {
  const UserName* user = ctx.connection->user();
  if (user == nullptr || ctx.server->users == nullptr) return std::nullopt;
  return ctx.server->users->Get(user->db, user->user);
}

namespace {

absl::Status NotAuthorizedOn(const CommandContext& ctx, absl::string_view db) {
  return MongoError(
      absl::StatusCode::kPermissionDenied, kUnauthorized,
      absl::StrCat("not authorized on ", db, " to execute command { ", ctx.name,
                   ": ", ToJson(ctx.first()), ", $db: \"", ctx.db, "\" }"));
}

// Access control under --auth (commands/authorization.h). The messages are
// mongod's: src/mongo/db/commands.cpp ("Command <name> requires
// authentication" when no user is authenticated) and
// src/mongo/db/auth/authorization_checks.cpp / commands.cpp ("not
// authorized on <db> to execute command { ... }").
absl::Status CheckAuthorization(const CommandContext& ctx) {
  ServerState* s = ctx.server;
  if (!s->options.auth || s->users == nullptr) return absl::OkStatus();
  const CommandPrivileges needed = RequiredPrivileges(ctx.db, ctx.cmd);
  if (needed.kind == CommandPrivileges::Kind::kNone) return absl::OkStatus();
  const UserName* user = ctx.connection->user();
  if (user == nullptr) {
    // The localhost exception (mongod: AuthorizationSessionImpl::
    // _isLocalhostExceptionEnabled / enableLocalhostAuthBypass): with no
    // user yet, a client on this machine may create the first user, in
    // the admin database. createUser then creates it only if it is still
    // the first (UserStore::CreateFirst): concurrent ones create one.
    if (ctx.name == "createUser" && ctx.db == "admin" &&
        ctx.connection->local() && s->users->empty()) {
      return absl::OkStatus();
    }
    return MongoError(
        absl::StatusCode::kPermissionDenied, kUnauthorized,
        absl::StrCat("Command ", ctx.name, " requires authentication"));
  }
  if (needed.kind == CommandPrivileges::Kind::kAuthenticated) {
    return absl::OkStatus();
  }
  std::optional<UserRecord> record = CurrentUser(ctx);
  std::string failed_db = ctx.db;
  if (record.has_value() &&
      RolesAuthorizeCommand(record->roles, ctx.db, ctx.cmd, &failed_db)) {
    return absl::OkStatus();
  }
  // The message names the command's database, except for the commands
  // run on admin that act on other databases: renameCollection and
  // bulkWrite name the database refused.
  const bool names_refused =
      ctx.name == "renameCollection" || ctx.name == "bulkWrite";
  return NotAuthorizedOn(ctx, names_refused ? failed_db : ctx.db);
}

}  // namespace

bool AuthorizedOnCluster(const CommandContext& ctx, ActionType action) {
  if (!ctx.server->options.auth || ctx.server->users == nullptr) return true;
  std::optional<UserRecord> record = CurrentUser(ctx);
  return record.has_value() && RolesGrantOnCluster(record->roles, action);
}

absl::Status NotAuthorizedToExecute(const CommandContext& ctx) {
  return NotAuthorizedOn(ctx, ctx.db);
}

namespace {

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

  void SetHostPort(absl::string_view host_port) override {
    MutexLock lock(&server_->host_mu);
    server_->host = std::string(host_port);
  }

  void ForEachOpenDatabase(
      const std::function<void(const std::string& name, Database* db)>& fn)
      override {
    server_->databases->ForEachOpen(fn);
  }

  // Write batches (insert, update, delete, findAndModify) are not
  // interrupted: see RunSpec.
  void BeginShutdown() override {
    absl::MutexLock lock(&mu_);
    closed_ = true;
    shutting_down_.store(true);
  }

  absl::Status Close() override {
    {
      absl::MutexLock lock(&mu_);
      if (closing_) return absl::OkStatus();
      closing_ = true;
      closed_ = true;
      shutting_down_.store(true);
      mu_.Await(absl::Condition(
          +[](int* running) { return *running == 0; }, &running_));
    }
    server_->cursors->KillAll();
    // No command runs any more: the user store can go (its LevelDB lock
    // is released for a runner reopened on the same root).
    server_->users.reset();
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
    const absl::Time start_wall = server_->clock->WallNow();
    OperationRegistry::Scope op(&server_->operations, *connection, db, command,
                                start_wall, server_->clock->SteadyNow());
    ctx.killed = op.killed();
    Value reply;
    OpCounters counters;
    {
      ScopedOpCounters counting;
      absl::StatusOr<Value> r = TimedRunSpec(spec, ctx);
      reply = r.ok() ? *std::move(r) : ErrorReply(r.status());
      counters = counting.counters();
    }
    server_->profiler.Record(
        server_.get(), op.operation(), reply,
        server_->clock->SteadyNow() - op.operation().start_steady, counters);
    return reply;
  }

  // RunSpec, counted and timed in the server's OpStats (serverStatus's
  // opcounters, opLatencies and activeClients; $collStats' latencyStats of
  // the collection the command runs on).
  absl::StatusOr<Value> TimedRunSpec(const CommandSpec& spec,
                                     CommandContext& ctx) {
    OpStats& stats = server_->op_stats;
    stats.CountCommand(ctx.name, ctx.cmd);
    bool on_collection = false;
    const OpKind kind = OpStats::KindOf(ctx.name, &on_collection);
    std::atomic<int64_t>& active =
        kind == OpKind::kWrite ? stats.active_writers : stats.active_readers;
    ++active;
    const absl::Time start = server_->clock->SteadyNow();
    absl::StatusOr<Value> reply = RunSpec(spec, ctx);
    const int64_t micros =
        absl::ToInt64Microseconds(server_->clock->SteadyNow() - start);
    --active;
    // getMore names its collection in "collection", the others first.
    const Value* coll =
        ctx.name == "getMore" ? ctx.cmd.Get("collection") : &ctx.first();
    std::string ns;
    if (on_collection && coll != nullptr && coll->is_string()) {
      ns = absl::StrCat(ctx.db, ".", coll->string_value());
    }
    stats.RecordLatency(ns, ctx.name, kind, micros);
    return reply;
  }

  absl::StatusOr<Value> RunSpec(const CommandSpec& spec, CommandContext& ctx) {
    RETURN_IF_ERROR(CheckNoDuplicateFields(ctx));
    RETURN_IF_ERROR(ValidateDatabaseName(ctx.db));
    if (spec.admin_only && ctx.db != "admin") {
      return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                        absl::StrCat(ctx.name,
                                     " may only be run against the admin "
                                     "database."));
    }
    RETURN_IF_ERROR(CheckAuthorization(ctx));
    RETURN_IF_ERROR(CheckUserWritable(ctx));
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
    // The shell's Ctrl-C flag where there is one, else killOp's.
    ctx.write.interrupt = ctx.connection->interrupt() != nullptr
                              ? ctx.connection->interrupt()
                              : ctx.killed;
    // bypassDocumentValidation (insert, update, findAndModify, bulkWrite,
    // aggregate's $out / $merge; authorized by CheckAuthorization), and
    // validationAction "warn"'s log line: mongod's warning 20294
    // (collection_impl.cpp checkValidationAndParseResult).
    if (const Value* bypass = ctx.cmd.Get("bypassDocumentValidation")) {
      ctx.write.bypass_document_validation = TrueValue(*bypass);
    }
    if (ctx.first().is_string()) {
      ctx.write.validation_warning =
          [server = ctx.server,
           ns = absl::StrCat(ctx.db, ".", ctx.first().string_value())](
              const Value& err_info) {
            server->log->Write(
                server->clock->WallNow(), "W", "STORAGE", 20294, "conn",
                "Document would fail validation",
                Value::MakeObject(
                    {{"namespace", Value::String(ns)}, {"errInfo", err_info}}));
          };
    }
    // Shutdown interrupts a command at its next interrupt point, except the
    // write batches: an insert/update/delete/findAndModify already received
    // finishes and is acknowledged whole (serve_cli.test.mjs), its time
    // bounded by its batch (at most 100,000 statements).
    std::optional<ScopedShutdownInterrupt> shutdown;
    if (ctx.name != "insert" && ctx.name != "update" && ctx.name != "delete" &&
        ctx.name != "findAndModify") {
      shutdown.emplace(&shutting_down_);
    }
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
  bool closing_ ABSL_GUARDED_BY(mu_) = false;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  // Set once shutdown begins; read by every running command's interrupt
  // checks (base/op_deadline.h).
  std::atomic<bool> shutting_down_{false};
};

std::shared_ptr<ServerState> NewState(const RunnerOptions& options) {
  auto state = std::make_shared<ServerState>();
  state->options = options;
  state->allow_disk_use_by_default = options.allow_disk_use_by_default;
  state->clock = options.database_options.clock != nullptr
                     ? options.database_options.clock
                     : Clock::Real();
  state->start_wall = state->clock->WallNow();
  state->start_steady = state->clock->SteadyNow();
  state->process_id = ObjectId::Generate();
  {
    MutexLock lock(&state->host_mu);
    state->host = options.host_port.empty() ? DefaultHost() : options.host_port;
  }
  state->log = std::make_unique<ServerLog>(options.log_sink);
  state->cursors = std::make_unique<CursorStore>(
      state->clock, absl::Milliseconds(options.cursor_timeout_millis),
      options.max_cursors_per_connection, options.max_cursors);
  return state;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CommandRunner>> CommandRunner::Open(
    absl::string_view root, const RunnerOptions& options) {
  std::shared_ptr<ServerState> state = NewState(options);
  ASSIGN_OR_RETURN(
      state->databases,
      DatabaseSet::Open(root, options.database_options, options.max_databases,
                        options.open_database));
  state->root = std::string(root);
  ServerState* s = state.get();
  ASSIGN_OR_RETURN(
      state->users,
      UserStore::Open(state->databases.get(),
                      absl::StrCat(root, "/", UserStore::kCollection),
                      [s](absl::string_view line) {
                        s->log->Write(s->clock->WallNow(), "I", "ACCESS", 20436,
                                      "initandlisten", line,
                                      Value::MakeObject({}));
                      }));
  return std::unique_ptr<CommandRunner>(new Runner(std::move(state)));
}

std::unique_ptr<CommandRunner> CommandRunner::ForDatabase(
    Database* db, absl::string_view name, const RunnerOptions& options) {
  std::shared_ptr<ServerState> state = NewState(options);
  state->databases = DatabaseSet::Single(db, name);
  return std::unique_ptr<CommandRunner>(new Runner(std::move(state)));
}

std::vector<std::string> RegisteredCommandNames() {
  std::vector<std::string> names;
  for (const auto& [name, spec] : Registry()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace commands
}  // namespace ttldb
