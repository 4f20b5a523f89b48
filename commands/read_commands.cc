// count, distinct and explain (src/mongo/db/commands/count_cmd.cpp,
// distinct.cpp, explain_cmd.cpp).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/explain_write.h"
#include "commands/find_request.h"
#include "commands/reply.h"
#include "commands/server_info.h"
#include "query/filter.h"

namespace ttldb {
namespace commands {
namespace {

// count: {query, limit, skip, hint} -> {n, ok}. A negative limit counts
// as its absolute value (count_command.idl). Without a query it is the
// record count (count_cmd.cpp uses the collection's numRecords then).
absl::StatusOr<Value> CountCmd(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"query", "limit", "skip", "hint", "collation", "fields",
                        "readConcern", "mirrored", "sampleId"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(Value query, ObjectArg(ctx, "query"));
  ASSIGN_OR_RETURN(std::optional<int64_t> limit, IntArg(ctx, "limit"));
  ASSIGN_OR_RETURN(std::optional<int64_t> skip, IntArg(ctx, "skip"));
  if (skip.has_value() && *skip < 0) {
    return IdlBadValue("skip", ">= 0", *skip);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  if (!query.is_object()) query = Value::MakeObject();
  if (db == nullptr) {
    RETURN_IF_ERROR(Filter::Parse(query).status());
    return OkReply({{"n", Value::Int32(0)}});
  }
  FindOptions o;
  RETURN_IF_ERROR(ApplyHint(ctx, &o));
  ASSIGN_OR_RETURN(o.collation, CollationArg(ctx));
  int64_t n = 0;
  // A collation (or a hint) counts what a find with it returns.
  const bool hinted =
      !o.hint.empty() || !o.hint_keys.is_null() || !o.collation.is_null();
  if (query.object_fields().empty() && !hinted) {
    // No query: the collection's record count, as MongoDB's count answers
    // it from metadata (what drivers' estimatedDocumentCount sends); with
    // hide_expired it includes expired documents not yet deleted.
    ASSIGN_OR_RETURN(n, db->collection(coll).EstimatedDocumentCount());
  } else if (!hinted) {
    ASSIGN_OR_RETURN(n, db->collection(coll).CountDocuments(query));
  } else {
    // With a hint, count what a hinted find returns (a sparse or partial
    // index holds fewer documents).
    o.projection = Value::MakeObject({{"_id", Value::Int32(1)}});
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                     db->collection(coll).Find(query, o));
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
      if (!doc.has_value()) break;
      ++n;
    }
  }
  if (skip.has_value()) n = std::max<int64_t>(0, n - *skip);
  if (limit.has_value() && *limit != 0) {
    n = std::min<int64_t>(n, *limit < 0 ? -*limit : *limit);
  }
  return OkReply({{"n", Count(n)}});
}

// distinct: {key, query} -> {values: [...], ok}.
absl::StatusOr<Value> Distinct(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx, {"key", "query", "collation", "hint", "mirrored", "sampleId"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  const Value* key = Arg(ctx, "key");
  if (key == nullptr) return IdlMissingField("distinct.key");
  if (!key->is_string()) return IdlWrongType("distinct.key", *key, "string");
  ASSIGN_OR_RETURN(Value query, ObjectArg(ctx, "query"));
  if (!query.is_object()) query = Value::MakeObject();
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  Value::Array values;
  if (db == nullptr) RETURN_IF_ERROR(Filter::Parse(query).status());
  if (db != nullptr) {
    FindOptions o;
    ASSIGN_OR_RETURN(o.collation, CollationArg(ctx));
    ASSIGN_OR_RETURN(std::vector<Value> v, db->collection(coll).Distinct(
                                               key->string_value(), query, o));
    values.assign(std::make_move_iterator(v.begin()),
                  std::make_move_iterator(v.end()));
  }
  return OkReply({{"values", Value::MakeArray(std::move(values))}});
}

// explain of find, count and distinct (and of aggregate, below): the engine's
// plan of the query (always with executionStats), with the command and
// serverInfo.
absl::StatusOr<Value> Explain(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"verbosity"}));
  const Value& inner = ctx.first();
  if (!inner.is_object() || inner.object_fields().empty()) {
    return IdlWrongType("explain.explain", inner, "object");
  }
  const Value* verbosity = Arg(ctx, "verbosity");
  if (verbosity != nullptr) {
    if (!verbosity->is_string()) {
      return IdlWrongType("explain.verbosity", *verbosity, "string");
    }
    const std::string& v = verbosity->string_value();
    if (v != "queryPlanner" && v != "executionStats" &&
        v != "allPlansExecution") {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Enumeration value '", v,
                       "' for field 'explain.verbosity' is not a valid "
                       "value."));
    }
  }
  const std::string& what = inner.object_fields()[0].first;
  if (what == "aggregate") {
    // {explain: {aggregate: ...}} is aggregate with explain: true (what
    // mongosh's db.c.explain().aggregate() sends).
    Value::Object fields;
    for (const Field& f : inner.object_fields()) {
      if (f.first != "explain") fields.push_back(f);
    }
    fields.emplace_back("explain", Value::Bool(true));
    const Value aggregate = Value::MakeObject(std::move(fields));
    CommandContext sub{ctx.server, ctx.connection, ctx.db,    what,
                       aggregate,  ctx.write,      ctx.killed};
    return AggregateCommand(sub);
  }
  CommandContext sub{ctx.server, ctx.connection, ctx.db,
                     what,       inner,          ctx.write};
  // update, delete, findAndModify: commands/explain_write.h.
  const bool write = IsExplainableWrite(what);
  std::string coll;
  Value filter = Value::MakeObject();
  FindOptions options;
  if (what == "find") {
    ASSIGN_OR_RETURN(FindRequest req, ParseFindRequest(sub));
    coll = req.collection;
    filter = req.filter;
    options = req.options;
  } else if (write) {
    // Parsed (and planned) below, by ExplainWrite.
  } else if (what == "count" || what == "distinct") {
    ASSIGN_OR_RETURN(coll, CollectionArg(sub));
    ASSIGN_OR_RETURN(Value q, ObjectArg(sub, "query"));
    if (q.is_object()) filter = std::move(q);
    if (what == "count") RETURN_IF_ERROR(ApplyHint(sub, &options));
  } else {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kCommandNotFound,
        absl::StrCat("Explain failed due to unknown command: ", what));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  Value plan = Value::MakeObject();
  if (write) {
    ASSIGN_OR_RETURN(plan, ExplainWrite(sub));
  } else if (db != nullptr) {
    ASSIGN_OR_RETURN(plan, db->collection(coll).Explain(filter, options));
  }
  Value::Object out;
  Value narrowed = Narrow(std::move(plan));
  for (Field& f : narrowed.mutable_object_fields()) {
    if (f.first != "ok") out.push_back(std::move(f));
  }
  out.emplace_back("command", inner);
  out.emplace_back(
      "serverInfo",
      Value::MakeObject({{"host", Value::String(ctx.server->Host())},
                         {"version", Value::String(kMongoVersion)}}));
  return OkReply(std::move(out));
}

}  // namespace

void AddReadCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"count", CountCmd});
  specs->push_back({"distinct", Distinct});
  specs->push_back({"explain", Explain});
}

}  // namespace commands
}  // namespace ttldb
