// What an operator types on a standalone mongod: profile
// (src/mongo/db/commands/profile_common.cpp, dbcommands_d.cpp), fsync /
// fsyncUnlock (fsync.cpp), top (top_command.cpp; what mongotop polls), and
// the replication commands a standalone
// answers with 76 NoReplicationEnabled (repl/repl_set_commands.cpp).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/operation_registry.h"
#include "commands/profiler.h"
#include "commands/reply.h"
#include "commands/server_state.h"
#include "query/filter.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

// {profile: -1 | 0 | 1 | 2, slowms, sampleRate, filter}: replies the
// previous settings {was, slowms, sampleRate[, filter][, note]}; -1 only
// reads them. Level 1 or 2 creates <db>.system.profile.
absl::StatusOr<Value> Profile(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"slowms", "sampleRate", "filter"}));
  const Value& level_arg = ctx.first();
  if (!level_arg.is_number()) {
    return IdlWrongTypes("profile.profile", level_arg,
                         "[long, int, decimal, double]");
  }
  const double level_d = level_arg.AsDouble();
  if (level_d != -1 && level_d != 0 && level_d != 1 && level_d != 2) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Profiling level must be -1, 0, 1 or 2, "
                                   "not ",
                                   ToJson(level_arg)));
  }
  const int level = static_cast<int>(level_d);
  Profiler& profiler = ctx.server->profiler;
  ProfileSettings next = profiler.Get(ctx.db);
  if (const Value* slow = ctx.cmd.Get("slowms"); slow != nullptr) {
    if (!slow->is_number()) {
      return IdlWrongTypes("profile.slowms", *slow,
                           "[long, int, decimal, double]");
    }
    next.slow_ms = static_cast<int64_t>(slow->AsDouble());
  }
  if (const Value* rate = ctx.cmd.Get("sampleRate"); rate != nullptr) {
    if (!rate->is_number()) {
      return IdlWrongTypes("profile.sampleRate", *rate,
                           "[long, int, decimal, double]");
    }
    // profile_common.cpp: "'sampleRate' must be between 0.0 and 1.0
    // inclusive" (BadValue).
    if (!(rate->AsDouble() >= 0.0 && rate->AsDouble() <= 1.0)) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "'sampleRate' must be between 0.0 and 1.0 inclusive");
    }
    next.sample_rate = rate->AsDouble();
  }
  if (const Value* filter = ctx.cmd.Get("filter"); filter != nullptr) {
    if (filter->is_string() && filter->string_value() == "unset") {
      next.filter = Value();
    } else if (filter->is_object()) {
      RETURN_IF_ERROR(Filter::Parse(*filter).status());
      next.filter = *filter;
    } else {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "Expected an object, or the string 'unset'.");
    }
  }
  if (level >= 0) next.level = level;
  if (next.level > 0) {
    // mongod creates system.profile when profiling starts
    // (profile_common.cpp, createProfileCollection).
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(/*create=*/true));
    RETURN_IF_ERROR(Profiler::EnsureProfileCollection(db.get(), ctx.db));
  }
  const ProfileSettings was = level >= 0 || ctx.cmd.object_fields().size() > 1
                                  ? profiler.Set(ctx.db, next)
                                  : profiler.Get(ctx.db);
  Value::Object out = {{"was", Value::Int32(was.level)},
                       {"slowms", NumberValue(was.slow_ms)},
                       {"sampleRate", Value::Double(was.sample_rate)}};
  if (!was.filter.is_null()) out.emplace_back("filter", was.filter);
  if (!next.filter.is_null() && level >= 0) {
    out.emplace_back("note",
                     Value::String("When a filter expression is set, slowms "
                                   "and sampleRate are not used for "
                                   "profiling and slow-query log lines."));
  }
  return OkReply(std::move(out));
}

// {fsync: 1}: every open database's LevelDB log synced to disk (an empty
// synced write: LevelDB syncs the log it appends to). {numFiles: 1} as a
// standalone mongod 8.0 answers. lock: true is refused: ttldb cannot stop
// its TTL monitors' writes, so it would not be a real lock.
absl::StatusOr<Value> Fsync(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx,
      {"lock", "async", "fsyncLockAcquisitionTimeoutMillis", "forBackup"}));
  ASSIGN_OR_RETURN(bool lock, BoolArg(ctx, "lock", false));
  if (lock) {
    return MongoError(absl::StatusCode::kUnimplemented, kCommandNotSupported,
                      "ttldb does not support fsync with lock: true (its TTL "
                      "monitors keep writing); for a consistent copy of the "
                      "data use the createBackup command");
  }
  absl::Status status;
  ctx.server->databases->ForEachOpen([&](const std::string&, Database* db) {
    absl::Status s = db->SyncLog();
    if (!s.ok() && status.ok()) status = s;
  });
  RETURN_IF_ERROR(status);
  return OkReply({{"numFiles", Value::Int32(1)}});
}

// fsync.cpp FsyncUnlockCommand: never locked here.
// {top: 1} on admin: each collection's usage since the server started
// ({totals: {note, "<db>.<coll>": {total, readLock, writeLock, queries,
// getmore, insert, update, remove, commands}}}, each {time, count}), as
// Top::append.
absl::StatusOr<Value> Top(CommandContext& ctx) {
  return OkReply({{"totals", ctx.server->op_stats.Top()}});
}

absl::StatusOr<Value> FsyncUnlock(CommandContext& ctx) {
  (void)ctx;
  return MongoError(absl::StatusCode::kFailedPrecondition, kIllegalOperation,
                    "fsyncUnlock called when not locked");
}

// repl_set_commands.cpp: a node started without --replSet.
absl::StatusOr<Value> NotReplicaSet(CommandContext& ctx) {
  (void)ctx;
  return MongoError(absl::StatusCode::kFailedPrecondition,
                    kNoReplicationEnabled, "not running with --replSet");
}

}  // namespace

void AddOperatorCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"profile", Profile});
  specs->push_back({"fsync", Fsync, /*admin_only=*/true});
  specs->push_back({"top", Top, /*admin_only=*/true});
  specs->push_back({"fsyncUnlock", FsyncUnlock, /*admin_only=*/true});
  specs->push_back({"replSetGetStatus", NotReplicaSet, /*admin_only=*/true});
  specs->push_back({"replSetGetConfig", NotReplicaSet, /*admin_only=*/true});
}

}  // namespace commands
}  // namespace ttldb
