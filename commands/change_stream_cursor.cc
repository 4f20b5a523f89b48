#include "commands/change_stream_cursor.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/cursor_reply.h"
#include "commands/reply.h"
#include "commands/server_state.h"
#include "document/bson.h"
#include "ttldb/change_stream.h"

namespace ttldb {
namespace commands {
namespace {

// 16 MiB: a reply batch stays within BSONObjMaxUserSize, as find's.
constexpr size_t kMaxBatchBytes = 16 * 1024 * 1024;
// 1 s: mongod's wait of an awaitData getMore without maxTimeMS
// (getmore_cmd.cpp, kDefaultAwaitDataTimeout in query/find_common.h).
constexpr absl::Duration kDefaultAwait = absl::Seconds(1);
// A getMore without batchSize returns at most this many events, so one
// reply stays small while a backlog is read.
constexpr int64_t kDefaultGetMoreBatch = 1000;

absl::StatusOr<ChangeStreamOptions> ParseSpec(const Value& spec) {
  if (!spec.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "the $changeStream stage specification must be an "
                      "object");
  }
  ChangeStreamOptions o;
  for (const Field& f : spec.object_fields()) {
    const std::string path = absl::StrCat("$changeStream.", f.first);
    if (f.first == "fullDocument" || f.first == "fullDocumentBeforeChange") {
      if (!f.second.is_string()) return IdlWrongType(path, f.second, "string");
      (f.first == "fullDocument" ? o.full_document
                                 : o.full_document_before_change) =
          f.second.string_value();
    } else if (f.first == "resumeAfter" || f.first == "startAfter") {
      if (!f.second.is_object()) return IdlWrongType(path, f.second, "object");
      (f.first == "resumeAfter" ? o.resume_after : o.start_after) = f.second;
    } else if (f.first == "startAtOperationTime") {
      if (f.second.type() != ValueType::kTimestamp) {
        return IdlWrongType(path, f.second, "timestamp");
      }
      o.start_at_operation_time = f.second.timestamp_value();
    } else if (f.first == "allChangesForCluster") {
      if (f.second.type() != ValueType::kBool) {
        return IdlWrongType(path, f.second, "bool");
      }
      if (f.second.bool_value()) {
        return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                          "ttldb has no cluster-wide change stream: each "
                          "database has its own change log; watch a "
                          "database or a collection");
      }
    } else if (f.first == "showExpandedEvents") {
      if (f.second.type() != ValueType::kBool) {
        return IdlWrongType(path, f.second, "bool");
      }
      o.show_expanded_events = f.second.bool_value();
    } else if (f.first == "showSystemEvents" ||
               f.first == "showMigrationEvents" ||
               f.first == "showRawUpdateDescription" ||
               f.first == "allowToRunOnConfigDB" ||
               f.first == "allowToRunOnSystemNS") {
      if (f.second.type() != ValueType::kBool) {
        return IdlWrongType(path, f.second, "bool");
      }
    } else {
      return IdlUnknownField(path);
    }
  }
  return o;
}

// Reads events into a batch: waits up to `wait` for the first one, then
// takes only what is already committed.
absl::StatusOr<Value::Array> FillStreamBatch(ServerCursor* c,
                                             int64_t batch_size,
                                             absl::Duration wait) {
  Value::Array batch;
  size_t bytes = 0;
  while (batch_size <= 0 || static_cast<int64_t>(batch.size()) < batch_size) {
    std::optional<Value> event;
    if (c->pending.has_value()) {
      event = std::move(c->pending);
      c->pending.reset();
    } else {
      ASSIGN_OR_RETURN(
          event, c->stream->Next(batch.empty() ? wait : absl::ZeroDuration()));
    }
    if (!event.has_value()) break;
    const size_t size = BsonDocumentSize(*event);
    if (!batch.empty() && bytes + size > kMaxBatchBytes) {
      c->pending = std::move(event);
      break;
    }
    bytes += size;
    batch.push_back(*std::move(event));
    if (c->stream->Invalidated()) break;
  }
  return batch;
}

// {cursor: {firstBatch|nextBatch, postBatchResumeToken, id, ns}, ok: 1}.
Value StreamReply(const ServerCursor& c, int64_t id, Value::Array batch,
                  bool first) {
  // The token after the batch: the last event's _id, or the stream's
  // position when events were left out (pending) or none came.
  Value token = c.stream->ResumeToken();
  if (c.pending.has_value() && !batch.empty()) {
    token = *batch.back().Get("_id");
  }
  return Value::MakeObject(
      {{"cursor", Value::MakeObject({{first ? "firstBatch" : "nextBatch",
                                      Value::MakeArray(std::move(batch))},
                                     {"postBatchResumeToken", token},
                                     {"id", Value::Int64(id)},
                                     {"ns", Value::String(c.ns)}})},
       {"ok", Value::Double(1)}});
}

}  // namespace

bool StartsWithChangeStream(const Value::Array& stages) {
  return !stages.empty() && stages[0].is_object() &&
         !stages[0].object_fields().empty() &&
         stages[0].object_fields()[0].first == "$changeStream";
}

absl::StatusOr<Value> ChangeStreamAggregate(CommandContext& ctx,
                                            const Value::Array& stages,
                                            int64_t batch_size) {
  ASSIGN_OR_RETURN(ChangeStreamOptions o,
                   ParseSpec(stages[0].object_fields()[0].second));
  Value::Array rest(stages.begin() + 1, stages.end());
  for (const Value& stage : rest) {
    if (stage.is_object() && !stage.object_fields().empty() &&
        stage.object_fields()[0].first == "$changeStream") {
      return MongoError(absl::StatusCode::kInvalidArgument, kStageNotFirst,
                        "$changeStream is only valid as the first stage in a "
                        "pipeline");
    }
  }
  o.pipeline = Value::MakeArray(std::move(rest));
  const Value& target = ctx.first();
  std::string coll;
  if (target.is_string()) {
    ASSIGN_OR_RETURN(coll, CollectionArg(ctx));
  } else if (!target.is_number() || target.AsDouble() != 1) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "aggregate's target must be a collection name or 1");
  }
  // A stream on a database not created yet waits for its first write.
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(/*create=*/true));
  auto cursor = std::make_unique<ServerCursor>();
  if (coll.empty()) {
    ASSIGN_OR_RETURN(cursor->stream, db->Watch(o));
    cursor->ns = absl::StrCat(ctx.db, ".$cmd.aggregate");
  } else {
    ASSIGN_OR_RETURN(cursor->stream, db->collection(coll).Watch(o));
    cursor->ns = Ns(ctx.db, coll);
  }
  cursor->db = ctx.db;
  cursor->database = std::move(db);
  Value::Array batch;
  if (batch_size != 0) {
    ASSIGN_OR_RETURN(
        batch, FillStreamBatch(cursor.get(),
                               batch_size < 0 ? kDefaultFirstBatch : batch_size,
                               absl::ZeroDuration()));
  }
  if (cursor->stream->Invalidated()) {
    return StreamReply(*cursor, 0, std::move(batch), true);
  }
  ASSIGN_OR_RETURN(ServerCursor * registered,
                   RegisterCursor(ctx, std::move(cursor)));
  const int64_t id = registered->id;
  Value reply = StreamReply(*registered, id, std::move(batch), true);
  ctx.server->cursors->Release(registered, /*exhausted=*/false);
  return reply;
}

absl::StatusOr<Value> ChangeStreamGetMore(
    CommandContext& ctx, ServerCursor* cursor, int64_t batch_size,
    std::optional<absl::Duration> max_await) {
  absl::StatusOr<Value::Array> batch = FillStreamBatch(
      cursor, batch_size > 0 ? batch_size : kDefaultGetMoreBatch,
      max_await.value_or(kDefaultAwait));
  if (!batch.ok()) {
    // A failed stream ends its cursor (MongoDB kills it on error too).
    ctx.server->cursors->Release(cursor, /*exhausted=*/true);
    return batch.status();
  }
  if (cursor->stream->Interrupted()) {
    // killCursors came during the wait (mongod: the getMore is interrupted
    // with CursorKilled).
    const int64_t id = cursor->id;
    ctx.server->cursors->Release(cursor, /*exhausted=*/true);
    return MongoError(absl::StatusCode::kAborted, kCursorKilled,
                      absl::StrCat("cursor id ", id, " was killed"));
  }
  // After an invalidate event the cursor is closed (id 0), as mongod's.
  const bool done = cursor->stream->Invalidated() && !cursor->pending;
  Value reply =
      StreamReply(*cursor, done ? 0 : cursor->id, *std::move(batch), false);
  ctx.server->cursors->Release(cursor, /*exhausted=*/done);
  return reply;
}

}  // namespace commands
}  // namespace ttldb
