// currentOp, the $currentOp stage and killOp (src/mongo/db/commands/
// current_op.cpp, current_op_common.cpp, killop_cmd.cpp; src/mongo/db/
// pipeline/document_source_current_op.cpp; the report of each operation:
// src/mongo/db/curop.cpp CurOp::reportState and
// ClientBase::reportState in process_interface/
// common_mongod_process_interface.cpp), over the runner's
// OperationRegistry.
//
// What ttldb reports: the operations running now (active: true) and, with
// $all / idleConnections, the connections that run nothing (active:
// false). Idle cursors and sessions (idleCursors, idleSessions) and
// ttldb's background threads are not listed.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/operation_registry.h"
#include "commands/reply.h"
#include "document/vector_cursor.h"
#include "pipeline/pipeline.h"
#include "query/filter.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

// The client part of a report, as CurOp::reportCurrentOpForClient writes
// it for any client: type through threaded; `metadata` may be null.
Value::Object ClientReport(const ServerState& server, int64_t connection_id,
                           const std::string& peer, const Value* metadata,
                           const std::optional<UserName>& user, bool active,
                           absl::Time now_wall) {
  Value::Object d;
  d.emplace_back("type", Value::String("op"));
  d.emplace_back("host", Value::String(server.Host()));
  d.emplace_back("desc", Value::String(absl::StrCat("conn", connection_id)));
  d.emplace_back("connectionId", NumberValue(connection_id));
  if (!peer.empty()) d.emplace_back("client", Value::String(peer));
  if (metadata != nullptr) {
    const Value* app = metadata->Get("application");
    const Value* name =
        app != nullptr && app->is_object() ? app->Get("name") : nullptr;
    if (name != nullptr && name->is_string()) d.emplace_back("appName", *name);
    d.emplace_back("clientMetadata", *metadata);
  }
  d.emplace_back("active", Value::Bool(active));
  d.emplace_back("currentOpTime", Value::String(IsoDateUtcOffset(now_wall)));
  if (user.has_value()) {
    d.emplace_back("effectiveUsers", Value::MakeArray({Value::MakeObject(
                                         {{"user", Value::String(user->user)},
                                          {"db", Value::String(user->db)}})}));
  }
  d.emplace_back("isFromUserConnection", Value::Bool(true));
  d.emplace_back("threaded", Value::Bool(true));
  return d;
}

// One operation as currentOp reports it on a standalone mongod 8.0.
Value Report(const ServerState& server, const Operation& op,
             absl::Time now_wall, absl::Time now_steady) {
  Value::Object d =
      ClientReport(server, op.connection_id, *op.peer, op.client_metadata,
                   op.user, /*active=*/true, now_wall);
  d.emplace_back("opid", NumberValue(op.opid));
  if (const Value* lsid = op.command->Get("lsid"); lsid != nullptr) {
    d.emplace_back("lsid", *lsid);
  }
  const absl::Duration running = now_steady - op.start_steady;
  d.emplace_back("secs_running", Value::Int64(absl::ToInt64Seconds(running)));
  d.emplace_back("microsecs_running",
                 Value::Int64(absl::ToInt64Microseconds(running)));
  const std::string name =
      op.command->is_object() && !op.command->object_fields().empty()
          ? op.command->object_fields()[0].first
          : "";
  d.emplace_back("op", Value::String(std::string(LogicalOp(name))));
  d.emplace_back("ns", Value::String(CommandNs(op.db, *op.command)));
  d.emplace_back("redacted", Value::Bool(false));
  d.emplace_back("command", *op.command);
  d.emplace_back("numYields", Value::Int32(0));
  d.emplace_back("locks", Value::MakeObject());
  d.emplace_back("waitingForLock", Value::Bool(false));
  d.emplace_back("lockStats", Value::MakeObject());
  d.emplace_back("waitingForFlowControl", Value::Bool(false));
  d.emplace_back("flowControlStats", Value::MakeObject());
  if (op.killed.load()) d.emplace_back("killPending", Value::Bool(true));
  return Value::MakeObject(std::move(d));
}

// A connection that runs nothing, as CurOp::reportCurrentOpForClient
// reports a client without an operation.
Value IdleReport(const ServerState& server, const ClientInfo& c,
                 absl::Time now_wall) {
  return Value::MakeObject(ClientReport(
      server, c.connection_id, c.peer,
      c.client_metadata.is_null() ? nullptr : &c.client_metadata, c.user,
      /*active=*/false, now_wall));
}

// Whether the caller holds the inprog privilege on the cluster
// (clusterMonitor, clusterAdmin, root: builtin_roles.yml) or the server
// runs without --auth.
bool MayInspectAll(const CommandContext& ctx) {
  return AuthorizedOnCluster(ctx, ActionType::kInprog);
}

// An operation or connection belongs to the caller when the same user
// runs it (AuthorizationSession::isCoauthorizedWith); without --auth every
// one does.
bool Owns(const CommandContext& ctx, const std::optional<UserName>& user) {
  if (!ctx.server->options.auth) return true;
  const UserName* me = ctx.connection->user();
  return me != nullptr && user.has_value() && *user == *me;
}

// The running operations the caller may see, as reports, then (with
// `idle_connections`) the connections that run nothing.
Value::Array Reports(const CommandContext& ctx, bool all_users,
                     bool idle_connections) {
  const absl::Time now_wall = ctx.server->clock->WallNow();
  const absl::Time now_steady = ctx.server->clock->SteadyNow();
  Value::Array out;
  ctx.server->operations.ForEach([&](const Operation& op) {
    if (!all_users && !Owns(ctx, op.user)) return;
    out.push_back(Report(*ctx.server, op, now_wall, now_steady));
  });
  if (idle_connections) {
    ctx.server->operations.ForEachIdleClient([&](const ClientInfo& c) {
      if (!all_users && !Owns(ctx, c.user)) return;
      out.push_back(IdleReport(*ctx.server, c, now_wall));
    });
  }
  return out;
}

// $currentOp's options (document_source_current_op.cpp createFromBson).
struct CurrentOpOptions {
  bool all_users = false;
  bool idle_connections = false;
};

absl::StatusOr<CurrentOpOptions> ParseCurrentOpSpec(const Value& spec) {
  if (!spec.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      absl::StrCat("$currentOp options must be specified in "
                                   "an object, but found: ",
                                   TypeName(spec.type())));
  }
  CurrentOpOptions o;
  for (const Field& f : spec.object_fields()) {
    const std::string& name = f.first;
    if (name == "allUsers" || name == "idleConnections" ||
        name == "idleCursors" || name == "idleSessions" || name == "localOps" ||
        name == "backtrace" || name == "truncateOps" ||
        name == "targetAllNodes") {
      if (f.second.type() != ValueType::kBool) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kFailedToParse,
            absl::StrCat("The '", name,
                         "' parameter of the $currentOp stage must be a "
                         "boolean value, but found: ",
                         TypeName(f.second.type())));
      }
      if (name == "allUsers") o.all_users = f.second.bool_value();
      if (name == "idleConnections") {
        o.idle_connections = f.second.bool_value();
      }
      continue;
    }
    return MongoError(
        absl::StatusCode::kInvalidArgument, kFailedToParse,
        absl::StrCat("Unrecognized option '", name, "' in $currentOp stage."));
  }
  return o;
}

bool IsCurrentOpStage(const Value& stage) {
  return stage.is_object() && stage.object_fields().size() == 1 &&
         stage.object_fields()[0].first == "$currentOp";
}

// The stages that may follow $currentOp: those that need no collection
// (ttldb runs them over the reports in memory).
bool RunsInMemory(const agg::StageSpec& s) {
  static constexpr absl::string_view kNames[] = {
      "$match",       "$project",     "$addFields", "$set",         "$unset",
      "$sort",        "$limit",       "$skip",      "$group",       "$count",
      "$replaceRoot", "$replaceWith", "$unwind",    "$sortByCount", "$bucket",
      "$redact",      "$sample"};
  for (absl::string_view n : kNames) {
    if (s.name() == n) return true;
  }
  return false;
}

// The pipeline's output as an engine cursor, for the cursor store. Owns
// what the stages' streams point into.
class PipelineCursor : public Cursor {
 public:
  absl::StatusOr<std::optional<Value>> Next() override {
    return stream->Next();
  }
  agg::Pipeline pipeline;
  agg::RunContext run;
  std::unique_ptr<Cursor> stream;
};

// aggregate: 1 whose pipeline starts with $currentOp, on admin.
absl::StatusOr<Value> AggregateCurrentOp(CommandContext& ctx,
                                         const Value::Array& stages,
                                         int64_t batch_size) {
  if (ctx.db != "admin") {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidNamespace,
                      "$currentOp must be run against the 'admin' database "
                      "with {aggregate: 1}");
  }
  ASSIGN_OR_RETURN(CurrentOpOptions o,
                   ParseCurrentOpSpec(stages[0].object_fields()[0].second));
  if (o.all_users && !MayInspectAll(ctx)) return NotAuthorizedToExecute(ctx);
  auto cursor = std::make_unique<PipelineCursor>();
  agg::ParseContext pctx;
  ASSIGN_OR_RETURN(cursor->pipeline,
                   agg::Pipeline::Parse(Value::MakeArray(Value::Array(
                                            stages.begin() + 1, stages.end())),
                                        &pctx));
  for (const auto& s : cursor->pipeline.stages()) {
    if (!RunsInMemory(*s)) {
      return MongoError(
          absl::StatusCode::kUnimplemented, kNotImplemented,
          absl::StrCat("ttldb does not run ", s->name(), " after $currentOp"));
    }
  }
  cursor->run.vars =
      agg::Variables(nullptr, absl::ToUnixMillis(ctx.server->clock->WallNow()));
  ASSIGN_OR_RETURN(
      cursor->stream,
      cursor->pipeline.OpenOver(std::make_unique<VectorCursor>(Reports(
                                    ctx, o.all_users, o.idle_connections)),
                                &cursor->run));
  auto sc = std::make_unique<ServerCursor>();
  sc->db = ctx.db;
  sc->ns = "admin.$cmd.aggregate";
  sc->cursor = std::move(cursor);
  return FirstBatchReply(ctx, std::move(sc), batch_size,
                         /*single_batch=*/false);
}

// {currentOp: 1, $ownOps, $all, <filter>}: the reports that match the
// other fields as a filter, in {inprog: [...]} (current_op_common.cpp).
absl::StatusOr<Value> CurrentOp(CommandContext& ctx) {
  bool own_ops = false;
  bool all = false;
  Value::Object filter;
  for (const Field& f : ctx.cmd.object_fields()) {
    if (&f == &ctx.cmd.object_fields()[0]) continue;
    if (f.first == "$ownOps") {
      own_ops = TrueValue(f.second);
    } else if (f.first == "$all") {
      all = TrueValue(f.second);  // with the idle connections
    } else if (IsGenericArgument(f.first)) {
      continue;
    } else {
      filter.push_back(f);
    }
  }
  if (!own_ops && !MayInspectAll(ctx)) return NotAuthorizedToExecute(ctx);
  ASSIGN_OR_RETURN(Filter match,
                   Filter::Parse(Value::MakeObject(std::move(filter)),
                                 ctx.server->clock->WallNow()));
  Value::Array inprog;
  for (Value& r : Reports(ctx, !own_ops, all)) {
    ASSIGN_OR_RETURN(bool matches, match.MatchesOrError(r));
    if (matches) inprog.push_back(std::move(r));
  }
  return OkReply({{"inprog", Value::MakeArray(std::move(inprog))}});
}

// {killOp: 1, op: <opid>} (killop_cmd.cpp, kill_op_cmd_base.cpp): marks
// the operation killed; it stops at its next interrupt point with 11601.
// Replies {info: "attempting to kill op", ok: 1} whether or not it runs.
absl::StatusOr<Value> KillOp(CommandContext& ctx) {
  const Value* op = ctx.cmd.Get("op");
  if (op == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kNoSuchKey,
                      "Missing expected field \"op\"");
  }
  if (!op->is_number()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      absl::StrCat("\"op\" had the wrong type. Expected "
                                   "number, found ",
                                   TypeName(op->type())));
  }
  const double d = op->AsDouble();
  if (!(d >= -9.2e18 && d <= 9.2e18) ||
      d != static_cast<double>(static_cast<int64_t>(d))) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Expected field \"op\" to have a value "
                                   "exactly representable as a 64-bit "
                                   "integer, but found op: ",
                                   ToJson(*op)));
  }
  // kill_op.cpp: the killop action on the cluster (hostManager,
  // clusterAdmin, root), else only the caller's own operations.
  const bool may_kill_all = AuthorizedOnCluster(ctx, ActionType::kKillop);
  bool refused = false;
  ctx.server->operations.Kill(static_cast<int64_t>(d),
                              [&](const Operation& target) {
                                // The killop privilege, or the caller's own
                                // operation
                                // (KillOpCmdBase::killOpIfAuthorized).
                                if (may_kill_all || Owns(ctx, target.user))
                                  return true;
                                refused = true;
                                return false;
                              });
  if (refused) {
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      "Unauthorized");
  }
  return OkReply({{"info", Value::String("attempting to kill op")}});
}

}  // namespace

absl::StatusOr<Value> AggregateWithoutCollection(CommandContext& ctx,
                                                 const Value::Array& stages,
                                                 int64_t batch_size) {
  if (!stages.empty() && IsCurrentOpStage(stages[0])) {
    return AggregateCurrentOp(ctx, stages, batch_size);
  }
  for (size_t i = 1; i < stages.size(); ++i) {
    if (IsCurrentOpStage(stages[i])) {
      return MongoError(absl::StatusCode::kInvalidArgument, kStageNotFirst,
                        "$currentOp is only valid as the first stage in a "
                        "pipeline");
    }
  }
  // Parsed, so that a pipeline ttldb cannot run still gets its stages'
  // errors ($changeStream's 40573, an unknown stage's 40324).
  agg::ParseContext pctx;
  ASSIGN_OR_RETURN(agg::Pipeline p,
                   agg::Pipeline::Parse(Value::MakeArray(stages), &pctx));
  (void)p;
  return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                    "ttldb runs aggregate: 1 with $currentOp only");
}

void AddCurrentOpCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"currentOp", CurrentOp, /*admin_only=*/true});
  specs->push_back({"killOp", KillOp, /*admin_only=*/true});
}

}  // namespace commands
}  // namespace ttldb
