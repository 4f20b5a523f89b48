// bulkWrite: MongoDB 8.0's write command across namespaces, run against
// admin (src/mongo/db/commands/query_cmd/bulk_write.cpp, bulk_write.idl,
// bulk_write_common.cpp validateRequest, bulk_write_parser.cpp). The Node
// driver's client.bulkWrite (6.10+) and mongosh's Mongo.bulkWrite send it:
//
//   {bulkWrite: 1, ops: [{insert: 0, document}, {update: 1, filter,
//    updateMods, multi, upsert, arrayFilters}, {delete: 0, filter, multi}],
//    nsInfo: [{ns: "db.c"}, ...], ordered: true, errorsOnly: false,
//    cursor: {batchSize}}
//
// Each op names its namespace by index into nsInfo. The whole request is
// validated before anything is written (the IDL parse); then the ops run in
// order, each through the same Collection calls as insert/update/delete.
// The reply is a cursor of per-op results on "admin.$cmd.bulkWrite",
//   {ok: 1.0, idx, n[, nModified][, upserted: {_id}]} or
//   {ok: 0.0, idx, code, errmsg[, keyPattern, keyValue], n: 0[, nModified: 0]}
// (only the errors with errorsOnly), and the totals nErrors, nInserted,
// nMatched, nModified, nUpserted, nDeleted. An ordered request stops at its
// first error.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/database_set.h"
#include "commands/reply.h"
#include "commands/write_statements.h"
#include "ttldb/collection.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

// write_ops::kMaxWriteBatchSize.
constexpr size_t kMaxOps = 100'000;

enum class OpKind { kInsert, kUpdate, kDelete };

// One op of the request, validated.
struct BulkOp {
  OpKind kind = OpKind::kInsert;
  size_t ns_index = 0;
  const Value* document = nullptr;  // insert
  const Value* filter = nullptr;    // update, delete
  const Value* update = nullptr;    // update: updateMods
  bool multi = false;
  bool upsert = false;
  std::vector<Value> array_filters;
  Value constants;               // update: a pipeline's `constants`
  bool upsert_supplied = false;  // update
  Value let;                     // the command's let
  Value collation;               // null: the collection's default
};

struct Namespace {
  std::string db;
  std::string collection;
};

// The IDL's strict bool field `path`; `def` when absent.
absl::StatusOr<bool> OpBool(const Value& op, absl::string_view field,
                            absl::string_view path, bool def) {
  const Value* v = op.Get(field);
  if (v == nullptr) return def;
  if (v->type() != ValueType::kBool) return IdlWrongType(path, *v, "bool");
  return v->bool_value();
}

// An nsInfo index (IDL safeInt, validator gte: 0).
absl::StatusOr<size_t> NsIndex(const Value& v, absl::string_view path) {
  if (!v.is_number()) {
    return IdlWrongTypes(path, v, "[int, long, double, decimal]");
  }
  const double d = v.AsDouble();
  if (d < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("BSON field '", path,
                                   "' value must be >= 0, actual value '",
                                   static_cast<int64_t>(d), "'"));
  }
  return static_cast<size_t>(d);
}

// "{ insert: 1, document: {} }": the op as BSONObj::toString prints it in
// the invalid-index message (top-level field names unquoted).
std::string OpText(const Value& op) {
  if (op.object_fields().empty()) return "{}";
  std::string out = "{ ";
  bool first = true;
  for (const auto& [field, v] : op.object_fields()) {
    if (!first) out += ", ";
    first = false;
    absl::StrAppend(&out, field, ": ", ToJson(v));
  }
  return out + " }";
}

absl::StatusOr<BulkOp> ParseOp(const Value& op, size_t num_ns) {
  if (!op.is_object() || op.object_fields().empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Unrecognized bulkWrite operation");
  }
  BulkOp out;
  const std::string& name = op.object_fields()[0].first;
  std::vector<absl::string_view> known;
  if (name == "insert") {
    out.kind = OpKind::kInsert;
    known = {"insert", "document"};
  } else if (name == "update") {
    out.kind = OpKind::kUpdate;
    known = {"update",
             "filter",
             "sort",
             "multi",
             "updateMods",
             "upsert",
             "upsertSupplied",
             "arrayFilters",
             "hint",
             "constants",
             "collation",
             "sampleId",
             "$_allowShardKeyUpdatesWithoutFullShardKeyInQuery"};
  } else if (name == "delete") {
    out.kind = OpKind::kDelete;
    known = {"delete", "filter", "multi", "hint", "collation", "sampleId"};
  } else {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      absl::StrCat("Unrecognized bulkWrite operation: ", name));
  }
  const std::string at = absl::StrCat("bulkWrite.ops.", name);
  for (const Field& f : op.object_fields()) {
    bool ok = false;
    for (absl::string_view k : known) ok = ok || f.first == k;
    if (!ok) return IdlUnknownField(absl::StrCat(at, ".", f.first));
  }
  ASSIGN_OR_RETURN(out.ns_index,
                   NsIndex(op.object_fields()[0].second, at + "." + name));
  if (out.ns_index >= num_ns) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("BulkWrite ops entry ", OpText(op),
                                   " has an invalid nsInfo index."));
  }
  if (out.kind == OpKind::kInsert) {
    out.document = op.Get("document");
    if (out.document == nullptr) return IdlMissingField(at + ".document");
    if (!out.document->is_object()) {
      return IdlWrongType(at + ".document", *out.document, "object");
    }
    return out;
  }
  out.filter = op.Get("filter");
  if (out.filter == nullptr) return IdlMissingField(at + ".filter");
  if (!out.filter->is_object()) {
    return IdlWrongType(at + ".filter", *out.filter, "object");
  }
  ASSIGN_OR_RETURN(out.collation, CollationField(op, at + ".collation"));
  ASSIGN_OR_RETURN(out.multi, OpBool(op, "multi", at + ".multi", false));
  if (out.kind == OpKind::kDelete) return out;
  out.update = op.Get("updateMods");
  if (out.update == nullptr) return IdlMissingField(at + ".updateMods");
  // An array is a pipeline-style update (engine/update_parse.h).
  if (!out.update->is_object() && !out.update->is_array()) {
    return IdlWrongTypes(at + ".updateMods", *out.update, "[object, array]");
  }
  ASSIGN_OR_RETURN(out.upsert, OpBool(op, "upsert", at + ".upsert", false));
  if (const Value* af = op.Get("arrayFilters");
      af != nullptr && !af->is_null()) {
    if (!af->is_array())
      return IdlWrongType(at + ".arrayFilters", *af, "array");
    out.array_filters = af->array_items();
  }
  // bulk_write.idl: constants is an object (a pipeline's variables).
  if (const Value* c = op.Get("constants"); c != nullptr) {
    if (!c->is_object()) return IdlWrongType(at + ".constants", *c, "object");
    out.constants = *c;
  }
  ASSIGN_OR_RETURN(out.upsert_supplied,
                   OpBool(op, "upsertSupplied", at + ".upsertSupplied", false));
  if (const Value* sort = op.Get("sort"); sort != nullptr && out.multi) {
    // bulk_write_common.cpp makeUpdateOpEntryFromUpdateOp.
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Cannot specify sort with multi=true");
  }
  return out;
}

// nsInfo: [{ns: "db.coll", ...}] (NamespaceInfoEntry).
absl::StatusOr<std::vector<Namespace>> ParseNsInfo(
    const Value::Array& entries) {
  std::vector<Namespace> out;
  for (const Value& e : entries) {
    if (!e.is_object()) return IdlWrongType("bulkWrite.nsInfo", e, "object");
    for (const Field& f : e.object_fields()) {
      if (f.first != "ns" && f.first != "collectionUUID" &&
          f.first != "encryptionInformation" &&
          f.first != "isTimeseriesNamespace" && f.first != "shardVersion" &&
          f.first != "databaseVersion") {
        return IdlUnknownField(absl::StrCat("bulkWrite.nsInfo.", f.first));
      }
    }
    const Value* ns = e.Get("ns");
    if (ns == nullptr) return IdlMissingField("bulkWrite.nsInfo.ns");
    if (!ns->is_string())
      return IdlWrongType("bulkWrite.nsInfo.ns", *ns, "string");
    const std::string& s = ns->string_value();
    const size_t dot = s.find('.');
    Namespace n;
    if (dot != std::string::npos) {
      n.db = s.substr(0, dot);
      n.collection = s.substr(dot + 1);
    }
    if (dot == std::string::npos || !ValidateDatabaseName(n.db).ok() ||
        !ValidateCollectionName(n.collection).ok()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidNamespace,
          absl::StrCat("Invalid namespace specified for bulkWrite: '", s, "'"));
    }
    out.push_back(std::move(n));
  }
  return out;
}

// The totals of the reply (bulk_write::SummaryFields).
struct Summary {
  int64_t errors = 0, inserted = 0, matched = 0, modified = 0, upserted = 0,
          deleted = 0;
};

// Runs one op; appends its reply item's success fields after {ok, idx}.
absl::Status RunOp(Collection& c, const BulkOp& op, const WriteOptions& write,
                   Summary* sum, Value::Object* item) {
  switch (op.kind) {
    case OpKind::kInsert: {
      RETURN_IF_ERROR(c.InsertOne(*op.document, write).status());
      ++sum->inserted;
      item->emplace_back("n", Value::Int32(1));
      return absl::OkStatus();
    }
    case OpKind::kUpdate: {
      const bool replacement = IsReplacement(*op.update);
      if (replacement && op.multi) {
        return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                          "multi update is not supported for "
                          "replacement-style update");
      }
      UpdateOptions o;
      o.upsert = op.upsert;
      o.array_filters = op.array_filters;
      o.constants = op.constants;
      o.upsert_supplied = op.upsert_supplied;
      o.let = op.let;
      o.collation = op.collation;
      ASSIGN_OR_RETURN(
          UpdateResult r,
          replacement ? c.ReplaceOne(*op.filter, *op.update, o, write)
          : op.multi  ? c.UpdateMany(*op.filter, *op.update, o, write)
                      : c.UpdateOne(*op.filter, *op.update, o, write));
      sum->modified += r.modified_count;
      if (r.upserted_id.has_value()) {
        ++sum->upserted;
        item->emplace_back("n", Value::Int32(1));
        item->emplace_back("nModified", Count(r.modified_count));
        item->emplace_back("upserted",
                           Value::MakeObject({{"_id", *r.upserted_id}}));
      } else {
        sum->matched += r.matched_count;
        item->emplace_back("n", Count(r.matched_count));
        item->emplace_back("nModified", Count(r.modified_count));
      }
      return absl::OkStatus();
    }
    case OpKind::kDelete: {
      DeleteOptions del;
      del.collation = op.collation;
      ASSIGN_OR_RETURN(int64_t n, op.multi
                                      ? c.DeleteMany(*op.filter, del, write)
                                      : c.DeleteOne(*op.filter, del, write));
      sum->deleted += n;
      item->emplace_back("n", Count(n));
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown bulkWrite op");
}

// {ok: 0.0, idx, code, errmsg[, extra info], n: 0[, nModified: 0]}
// (BulkWriteReplyItem::serialize; addUpdateErrorReply adds nModified).
Value ErrorItem(size_t idx, const BulkOp& op, const absl::Status& s) {
  Value::Object fields = {{"ok", Value::Double(0)},
                          {"idx", Value::Int32(static_cast<int32_t>(idx))},
                          {"code", Value::Int32(ReplyCode(s))},
                          {"errmsg", Value::String(std::string(s.message()))}};
  AppendErrorExtraInfo(s, &fields);
  fields.emplace_back("n", Value::Int32(0));
  if (op.kind == OpKind::kUpdate) {
    fields.emplace_back("nModified", Value::Int32(0));
  }
  return Value::MakeObject(std::move(fields));
}

// The per-op results, read by the reply's cursor.
class ItemCursor : public Cursor {
 public:
  explicit ItemCursor(Value::Array items) : items_(std::move(items)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (next_ == items_.size()) return std::optional<Value>();
    return std::optional<Value>(std::move(items_[next_++]));
  }

 private:
  Value::Array items_;
  size_t next_ = 0;
};

absl::StatusOr<Value> BulkWrite(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx,
      {"ops", "nsInfo", "cursor", "bypassDocumentValidation", "ordered",
       "stmtId", "stmtIds", "let", "errorsOnly", "bypassEmptyTsReplacement"}));
  ASSIGN_OR_RETURN(const Value::Array* raw_ops, ArrayArg(ctx, "ops"));
  ASSIGN_OR_RETURN(const Value::Array* raw_ns, ArrayArg(ctx, "nsInfo"));
  ASSIGN_OR_RETURN(const bool ordered, BoolArg(ctx, "ordered", true));
  ASSIGN_OR_RETURN(const bool errors_only, BoolArg(ctx, "errorsOnly", false));
  // All results in the first batch unless cursor.batchSize says otherwise.
  int64_t batch_size = std::numeric_limits<int64_t>::max();
  if (const Value* cursor = Arg(ctx, "cursor"); cursor != nullptr) {
    if (!cursor->is_object()) {
      return IdlWrongType("bulkWrite.cursor", *cursor, "object");
    }
    if (const Value* b = cursor->Get("batchSize"); b != nullptr) {
      if (!b->is_number()) {
        return IdlWrongTypes("bulkWrite.cursor.batchSize", *b,
                             "[int, long, double, decimal]");
      }
      if (b->AsDouble() < 0) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("BSON field 'batchSize' value must be >= 0, actual "
                         "value '",
                         static_cast<int64_t>(b->AsDouble()), "'"));
      }
      batch_size = static_cast<int64_t>(b->AsDouble());
    }
  }
  if (raw_ops->empty() || raw_ops->size() > kMaxOps) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidLength,
        absl::StrCat("Write batch sizes must be between 1 and ", kMaxOps,
                     ". Got ", raw_ops->size(), " operations."));
  }
  ASSIGN_OR_RETURN(std::vector<Namespace> namespaces, ParseNsInfo(*raw_ns));
  ASSIGN_OR_RETURN(const Value let, ObjectArg(ctx, "let"));
  std::vector<BulkOp> ops;
  ops.reserve(raw_ops->size());
  for (const Value& raw : *raw_ops) {
    ASSIGN_OR_RETURN(BulkOp op, ParseOp(raw, namespaces.size()));
    op.let = let;
    ops.push_back(std::move(op));
  }

  Summary sum;
  Value::Array items;
  std::vector<std::shared_ptr<Database>> dbs(namespaces.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const BulkOp& op = ops[i];
    absl::Status s;
    Value::Object item = {{"ok", Value::Double(1)},
                          {"idx", Value::Int32(static_cast<int32_t>(i))}};
    if (i > 0 && ctx.write.interrupt != nullptr &&
        ctx.write.interrupt->load(std::memory_order_relaxed)) {
      s = MongoError(absl::StatusCode::kAborted, kInterrupted,
                     absl::StrCat("operation was interrupted after ", i, " of ",
                                  ops.size(), " operations"));
    } else {
      // As insert/update/delete: an expired maxTimeMS fails the command.
      RETURN_IF_ERROR(CheckOpDeadline());
      std::shared_ptr<Database>& db = dbs[op.ns_index];
      if (db == nullptr) {
        auto opened = ctx.server->databases->Get(namespaces[op.ns_index].db,
                                                 /*create=*/true);
        if (opened.ok()) {
          db = *std::move(opened);
        } else {
          s = opened.status();
        }
      }
      if (s.ok()) {
        s = RunOp(db->collection(namespaces[op.ns_index].collection), op,
                  ctx.write, &sum, &item);
      }
    }
    if (s.ok()) {
      if (!errors_only) items.push_back(Value::MakeObject(std::move(item)));
      continue;
    }
    if (ErrorCode(s) == kMaxTimeMSExpired) return s;
    ++sum.errors;
    items.push_back(ErrorItem(i, op, s));
    if (ordered || ErrorCode(s) == kInterrupted) break;
  }

  auto cursor = std::make_unique<ServerCursor>();
  cursor->db = "admin";
  cursor->ns = "admin.$cmd.bulkWrite";
  // The batch that returns the last item reports id 0.
  cursor->remaining = static_cast<int64_t>(items.size());
  cursor->cursor = std::make_unique<ItemCursor>(std::move(items));
  ASSIGN_OR_RETURN(Value reply,
                   FirstBatchReply(ctx, std::move(cursor), batch_size,
                                   /*single_batch=*/false));
  // {cursor, nErrors, nInserted, nMatched, nModified, nUpserted, nDeleted,
  //  ok} (BulkWriteCommandReply).
  Value::Object& fields = reply.mutable_object_fields();
  Value ok = std::move(fields.back().second);
  fields.pop_back();
  fields.emplace_back("nErrors", Count(sum.errors));
  fields.emplace_back("nInserted", Count(sum.inserted));
  fields.emplace_back("nMatched", Count(sum.matched));
  fields.emplace_back("nModified", Count(sum.modified));
  fields.emplace_back("nUpserted", Count(sum.upserted));
  fields.emplace_back("nDeleted", Count(sum.deleted));
  fields.emplace_back("ok", std::move(ok));
  return reply;
}

}  // namespace

void AddBulkWriteCommand(std::vector<CommandSpec>* specs) {
  specs->push_back({"bulkWrite", BulkWrite, /*admin_only=*/true,
                    /*takes_write_concern=*/true});
}

}  // namespace commands
}  // namespace ttldb
