// find, getMore and killCursors (src/mongo/db/commands/find_cmd.cpp,
// getmore_cmd.cpp, killcursors_common.cpp).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "commands/change_stream_cursor.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/find_request.h"
#include "commands/reply.h"
#include "commands/tailable_cursor.h"
#include "ttldb/collection.h"
#include "ttldb/options.h"

namespace ttldb {
namespace commands {
namespace {

absl::StatusOr<Value> Find(CommandContext& ctx) {
  ASSIGN_OR_RETURN(FindRequest req, ParseFindRequest(ctx));
  const std::string ns = Ns(ctx.db, req.collection);
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  if (db == nullptr) {
    // Nothing to read, but a bad query is still an error (MongoDB parses
    // the query before it looks for the collection).
    RETURN_IF_ERROR(Collection::CheckQuery(
        req.filter.is_object() ? req.filter : Value::MakeObject(),
        req.options));
    return CursorReply(ns, 0, {}, true);
  }
  if (req.tailable) return TailableFind(ctx, std::move(req), std::move(db));
  ASSIGN_OR_RETURN(
      std::unique_ptr<Cursor> engine_cursor,
      db->collection(req.collection).Find(req.filter, req.options));
  auto cursor = std::make_unique<ServerCursor>();
  ASSIGN_OR_RETURN(cursor->tail,
                   CappedScanState(db->collection(req.collection), req));
  cursor->db = ctx.db;
  cursor->ns = ns;
  cursor->database = std::move(db);
  cursor->cursor = std::move(engine_cursor);
  // The engine applies the limit; counting it here too lets the batch that
  // reaches it report id 0, as MongoDB's does.
  cursor->remaining = req.options.limit > 0 ? req.options.limit : -1;
  return FirstBatchReply(ctx, std::move(cursor), req.batch_size,
                         req.single_batch);
}

absl::StatusOr<Value> GetMore(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx, {"collection", "batchSize", "term", "lastKnownCommittedOpTime",
            "includeQueryStatsMetrics"}));
  const Value& id_value = ctx.first();
  if (id_value.type() != ValueType::kInt64) {
    return IdlWrongType("getMore.getMore", id_value, "long");
  }
  const Value* coll = Arg(ctx, "collection");
  if (coll == nullptr) return IdlMissingField("getMore.collection");
  if (!coll->is_string())
    return IdlWrongType("getMore.collection", *coll, "string");
  if (coll->string_value().empty()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("Invalid namespace specified '", ctx.db, ".'"));
  }
  ASSIGN_OR_RETURN(std::optional<int64_t> batch, IntArg(ctx, "batchSize"));
  if (batch.has_value() && *batch < 0) {
    return IdlBadValue("batchSize", ">= 0", *batch);
  }
  const std::string ns = Ns(ctx.db, coll->string_value());
  ASSIGN_OR_RETURN(ServerCursor * cursor,
                   ctx.server->cursors->CheckOut(id_value.int64_value(), ns,
                                                 RequesterOf(ctx)));
  const bool awaits = cursor->stream != nullptr ||
                      (cursor->tail != nullptr && cursor->tail->await_data);
  if (awaits) {
    // A change stream or a tailable awaitData cursor: maxTimeMS is how
    // long to wait.
    std::optional<absl::Duration> max_await;
    if (const Value* t = Arg(ctx, "maxTimeMS"); t != nullptr) {
      if (!t->is_number() || t->AsDouble() < 0) {
        ctx.server->cursors->Release(cursor, /*exhausted=*/false);
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "getMore's maxTimeMS must be a non-negative number");
      }
      max_await = absl::Milliseconds(t->AsDouble());
    }
    if (cursor->stream != nullptr) {
      return ChangeStreamGetMore(ctx, cursor, batch.value_or(0), max_await);
    }
    return TailableGetMore(ctx, cursor, batch.value_or(0), max_await);
  }
  // getMore's maxTimeMS is for awaitData cursors only (getmore_cmd.cpp);
  // a find's limit carries over to its getMores instead.
  if (Arg(ctx, "maxTimeMS") != nullptr) {
    ctx.server->cursors->Release(cursor, /*exhausted=*/false);
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "cannot set maxTimeMS on getMore command for a "
                      "non-awaitData cursor");
  }
  if (cursor->tail != nullptr && cursor->tail->tailable) {
    return TailableGetMore(ctx, cursor, batch.value_or(0), std::nullopt);
  }
  if (absl::Status lost = CheckCappedPosition(cursor); !lost.ok()) {
    ctx.server->cursors->Release(cursor, /*exhausted=*/true);
    return lost;
  }
  bool exhausted = false;
  absl::StatusOr<Value::Array> batch_docs;
  if (cursor->time_left == absl::InfiniteDuration()) {
    batch_docs = FillBatch(cursor, batch.value_or(0), &exhausted);
  } else {
    Clock* clock = ctx.server->clock;
    ScopedOpDeadline deadline(clock, clock->SteadyNow() + cursor->time_left);
    absl::Status in_time = CheckOpDeadline();
    batch_docs = in_time.ok() ? FillBatch(cursor, batch.value_or(0), &exhausted)
                              : absl::StatusOr<Value::Array>(in_time);
    cursor->time_left = deadline.deadline() - clock->SteadyNow();
  }
  const int64_t id = cursor->id;
  // A failed read ends the cursor (MongoDB kills it on error too).
  ctx.server->cursors->Release(cursor, exhausted || !batch_docs.ok());
  if (!batch_docs.ok()) return batch_docs.status();
  return CursorReply(ns, exhausted ? 0 : id, *std::move(batch_docs), false);
}

absl::StatusOr<Value> KillCursors(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"cursors"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(const Value::Array* ids, ArrayArg(ctx, "cursors"));
  std::vector<int64_t> wanted;
  for (size_t i = 0; i < ids->size(); ++i) {
    const Value& v = (*ids)[i];
    if (v.type() != ValueType::kInt64) {
      return IdlWrongType(absl::StrCat("killCursors.cursors.", i), v, "long");
    }
    wanted.push_back(v.int64_value());
  }
  // Another user's cursor fails the whole command, with the message
  // commands.cpp CommandInvocation::checkAuthorization gives every
  // authorization failure (killcursors_common.h doCheckAuthorization; the
  // killAnyCursor action on the cluster: hostManager, clusterAdmin, root).
  if (!ctx.server->cursors->MayKill(
          wanted, RequesterOf(ctx),
          AuthorizedOnCluster(ctx, ActionType::kKillAnyCursor))) {
    return NotAuthorizedToExecute(ctx);
  }
  std::vector<int64_t> killed, not_found;
  ctx.server->cursors->Kill(Ns(ctx.db, coll), wanted, &killed, &not_found);
  auto ids_array = [](const std::vector<int64_t>& v) {
    Value::Array a;
    for (int64_t id : v) a.push_back(Value::Int64(id));
    return Value::MakeArray(std::move(a));
  };
  return OkReply({{"cursorsKilled", ids_array(killed)},
                  {"cursorsNotFound", ids_array(not_found)},
                  {"cursorsAlive", Value::MakeArray()},
                  {"cursorsUnknown", Value::MakeArray()}});
}

}  // namespace

void AddFindCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"find", Find});
  specs->push_back({"getMore", GetMore});
  specs->push_back({"killCursors", KillCursors});
}

}  // namespace commands
}  // namespace ttldb
