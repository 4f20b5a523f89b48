// aggregate (src/mongo/db/commands/run_aggregate.cpp, aggregate.idl) over
// Collection::Aggregate: a cursor reply like find's; explain: true gives
// the pipeline's plan.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/change_stream_cursor.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/reply.h"
#include "commands/server_info.h"

namespace ttldb {
namespace commands {
namespace {

// The database $out / $merge {db, coll} write into, created if need be
// (MongoDB 8.0 creates it too).
absl::StatusOr<std::shared_ptr<Database>> OutputDatabase(
    ServerState* server, absl::string_view name) {
  RETURN_IF_ERROR(ValidateDatabaseName(name));
  return server->databases->Get(name, /*create=*/true);
}

absl::StatusOr<Value> Aggregate(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx, {"pipeline", "explain", "allowDiskUse", "cursor", "hint",
            "bypassDocumentValidation", "collation", "let", "fromMongos",
            "needsMerge", "exchange", "isMapReduceCommand", "collectionUUID",
            "passthroughToShard", "$_requestReshardingResumeToken",
            "$_generateV2ResumeTokens", "includeQueryStatsMetrics"}));
  const Value& target = ctx.first();
  ASSIGN_OR_RETURN(const Value::Array* stages, ArrayArg(ctx, "pipeline"));
  ASSIGN_OR_RETURN(bool explain, BoolArg(ctx, "explain", false));
  ASSIGN_OR_RETURN(Value cursor_opts, ObjectArg(ctx, "cursor"));
  if (!explain && !cursor_opts.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "The 'cursor' option is required, except for "
                      "aggregate with the explain argument");
  }
  ASSIGN_OR_RETURN(const int64_t batch_size,
                   CursorBatchSize(cursor_opts, "aggregate"));
  if (StartsWithChangeStream(*stages)) {
    if (explain) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "ttldb does not explain $changeStream pipelines");
    }
    return ChangeStreamAggregate(ctx, *stages, batch_size);
  }
  if (!target.is_string()) {
    // aggregate: 1 runs collection-less stages ($currentOp).
    return AggregateWithoutCollection(ctx, *stages, batch_size);
  }
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  AggregateOptions o;
  // Absent: the server's allowDiskUseByDefault (query_knobs.idl).
  ASSIGN_OR_RETURN(o.allow_disk_use,
                   BoolArg(ctx, "allowDiskUse",
                           ctx.server->allow_disk_use_by_default.load()));
  o.bypass_document_validation = ctx.write.bypass_document_validation;
  ASSIGN_OR_RETURN(Value let, ObjectArg(ctx, "let"));
  o.let = std::move(let);
  // Typed as aggregate.idl types them (hint: indexHint, collation: object),
  // even where ttldb has no use for the value.
  ASSIGN_OR_RETURN(o.collation, CollationArg(ctx));
  if (const Value* hint = Arg(ctx, "hint");
      hint != nullptr && !hint->is_null() && !hint->is_string() &&
      !hint->is_object()) {
    return IdlWrongTypes("aggregate.hint", *hint, "[string, object]");
  }
  o.database_named = [server = ctx.server](absl::string_view name) {
    return OutputDatabase(server, name);
  };
  // A pipeline that writes ($out, $merge) creates the database.
  bool writes = false;
  if (!stages->empty() && stages->back().is_object() &&
      !stages->back().object_fields().empty()) {
    const std::string& last = stages->back().object_fields()[0].first;
    writes = last == "$out" || last == "$merge";
  }
  const Value pipeline = *Arg(ctx, "pipeline");
  const std::string ns = Ns(ctx.db, coll);
  // $collStats / $indexStats name this server and report the latencies
  // this layer measured for the collection.
  o.host = ctx.server->Host();
  o.latency_stats = [server = ctx.server, ns](bool histograms) {
    return server->op_stats.CollectionLatencies(ns, histograms);
  };
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(writes));
  if (explain) {
    Value plan = Value::MakeObject();
    if (db != nullptr) {
      ASSIGN_OR_RETURN(plan,
                       db->collection(coll).ExplainAggregate(pipeline, o));
    }
    Value::Object out;
    Value narrowed = Narrow(std::move(plan));
    for (Field& f : narrowed.mutable_object_fields()) {
      if (f.first != "ok") out.push_back(std::move(f));
    }
    out.emplace_back("command", ctx.cmd);
    out.emplace_back(
        "serverInfo",
        Value::MakeObject({{"host", Value::String(ctx.server->Host())},
                           {"version", Value::String(kMongoVersion)}}));
    return OkReply(std::move(out));
  }
  if (db == nullptr) {
    // Nothing to read; a parse error must still be reported, so parse the
    // pipeline over an empty scratch run is not possible without a
    // database: MongoDB answers an empty batch here too.
    return CursorReply(ns, 0, {}, true);
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> engine_cursor,
                   db->collection(coll).Aggregate(pipeline, o));
  auto cursor = std::make_unique<ServerCursor>();
  cursor->db = ctx.db;
  cursor->ns = ns;
  cursor->database = std::move(db);
  cursor->cursor = std::move(engine_cursor);
  return FirstBatchReply(ctx, std::move(cursor), batch_size,
                         /*single_batch=*/false);
}

}  // namespace

absl::StatusOr<Value> AggregateCommand(CommandContext& ctx) {
  return Aggregate(ctx);
}

void AddAggregateCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"aggregate", Aggregate, false,
                    /*takes_write_concern=*/true});
}

}  // namespace commands
}  // namespace ttldb
