// insert, update and delete (src/mongo/db/commands/write_commands.cpp,
// write_ops.idl): a batch of operations, ordered (stop at the first
// failure) or not; per-operation failures are writeErrors
// [{index, code, errmsg}] in an ok: 1 reply, as MongoDB reports them.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/write_statements.h"
#include "ttldb/collection.h"

namespace ttldb {
namespace commands {
namespace {

// write_ops::kMaxWriteBatchSize.
constexpr size_t kMaxBatch = 100'000;

absl::Status CheckBatchSize(size_t n) {
  if (n >= 1 && n <= kMaxBatch) return absl::OkStatus();
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidLength,
                    absl::StrCat("Write batch sizes must be between 1 and ",
                                 kMaxBatch, ". Got ", n, " operations."));
}

// {index, code[, keyPattern, keyValue], errmsg}: WriteError::serialize
// (src/mongo/db/ops/write_ops.cpp) puts the extra info before errmsg.
Value WriteError(size_t index, const absl::Status& s) {
  Value::Object fields = {{"index", Value::Int32(static_cast<int32_t>(index))},
                          {"code", Value::Int32(ReplyCode(s))}};
  AppendErrorExtraInfo(s, &fields);
  fields.emplace_back("errmsg", Value::String(std::string(s.message())));
  return Value::MakeObject(std::move(fields));
}

// An expired maxTimeMS fails the whole command, not one statement: mongod's
// handleError rethrows interruptions ("These have always failed the whole
// batch", src/mongo/db/commands/write_ops_exec.cpp). What was written before
// stays written.
bool FailsWholeBatch(const absl::Status& s) {
  return ErrorCode(s) == kMaxTimeMSExpired;
}

// The common head of the three: collection, database (created), ordered.
struct WriteBatch {
  std::string collection;
  std::shared_ptr<Database> db;
  bool ordered = true;
  Value let;  // the command's let (null: none)
  Value::Array write_errors;
};

absl::StatusOr<WriteBatch> OpenBatch(CommandContext& ctx,
                                     absl::string_view ops_field) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {ops_field, "ordered", "bypassDocumentValidation", "let",
                        "stmtId", "stmtIds", "isTimeseriesNamespace",
                        "collectionUUID", "sampleId", "$_fromMongos"}));
  WriteBatch b;
  ASSIGN_OR_RETURN(b.collection, CollectionArg(ctx));
  ASSIGN_OR_RETURN(b.ordered, BoolArg(ctx, "ordered", true));
  // write_ops.idl types let as an object for insert, update and delete.
  ASSIGN_OR_RETURN(b.let, ObjectArg(ctx, "let"));
  RETURN_IF_ERROR(ValidateCollectionName(b.collection));
  ASSIGN_OR_RETURN(b.db, ctx.Db(/*create=*/true));
  return b;
}

Value Finish(Value::Object fields, WriteBatch& b) {
  if (!b.write_errors.empty()) {
    fields.emplace_back("writeErrors",
                        Value::MakeArray(std::move(b.write_errors)));
  }
  return OkReply(std::move(fields));
}

absl::StatusOr<Value> Insert(CommandContext& ctx) {
  ASSIGN_OR_RETURN(WriteBatch b, OpenBatch(ctx, "documents"));
  ASSIGN_OR_RETURN(const Value::Array* docs, ArrayArg(ctx, "documents"));
  RETURN_IF_ERROR(CheckBatchSize(docs->size()));
  // write_ops.idl: documents is array<object>, so the parse of the whole
  // command fails (14 TypeMismatch) before any document is written.
  for (size_t i = 0; i < docs->size(); ++i) {
    if (!(*docs)[i].is_object()) {
      return IdlWrongType(absl::StrCat("insert.documents.", i), (*docs)[i],
                          "object");
    }
  }
  Collection& c = b.db->collection(b.collection);
  int64_t n = 0;
  for (size_t i = 0; i < docs->size(); ++i) {
    const Value& doc = (*docs)[i];
    absl::Status s;
    if (i > 0 && ctx.write.interrupt != nullptr &&
        ctx.write.interrupt->load(std::memory_order_relaxed)) {
      // Stopped between documents (the shell's Ctrl-C, as MongoDB's killOp
      // stops a batch): what was written stays.
      b.write_errors.push_back(WriteError(
          i,
          MongoError(absl::StatusCode::kAborted, kInterrupted,
                     absl::StrCat("operation was interrupted after ", n, " of ",
                                  docs->size(), " documents were inserted"))));
      break;
    }
    RETURN_IF_ERROR(CheckOpDeadline());
    if (!doc.is_object()) {
      s = IdlWrongType(absl::StrCat("insert.documents.", i), doc, "object");
    } else {
      s = c.InsertOne(doc, ctx.write).status();
    }
    if (s.ok()) {
      ++n;
      continue;
    }
    if (FailsWholeBatch(s)) return s;
    b.write_errors.push_back(WriteError(i, s));
    if (b.ordered) break;
  }
  return Finish({{"n", Count(n)}}, b);
}

absl::Status UpdateOne(Collection& c, const Value& op, size_t i,
                       const WriteOptions& write, const Value& let,
                       int64_t* matched, int64_t* modified,
                       Value::Array* upserted) {
  ASSIGN_OR_RETURN(UpdateStatement st,
                   ParseUpdateStatement(op, let, "update.updates"));
  const Value& q = *st.q;
  const Value& u = *st.u;
  const UpdateOptions& o = st.options;
  absl::StatusOr<UpdateResult> r = st.replacement ? c.ReplaceOne(q, u, o, write)
                                   : st.multi     ? c.UpdateMany(q, u, o, write)
                                                  : c.UpdateOne(q, u, o, write);
  if (!r.ok()) return r.status();
  *matched += r->matched_count;
  *modified += r->modified_count;
  if (r->upserted_id.has_value()) {
    ++*matched;  // n counts the upserted document
    upserted->push_back(
        Value::MakeObject({{"index", Value::Int32(static_cast<int32_t>(i))},
                           {"_id", *r->upserted_id}}));
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> Update(CommandContext& ctx) {
  ASSIGN_OR_RETURN(WriteBatch b, OpenBatch(ctx, "updates"));
  ASSIGN_OR_RETURN(const Value::Array* ops, ArrayArg(ctx, "updates"));
  RETURN_IF_ERROR(CheckBatchSize(ops->size()));
  Collection& c = b.db->collection(b.collection);
  int64_t n = 0, modified = 0;
  Value::Array upserted;
  for (size_t i = 0; i < ops->size(); ++i) {
    const Value& op = (*ops)[i];
    if (!op.is_object()) {
      return IdlWrongType(absl::StrCat("update.updates.", i), op, "object");
    }
    RETURN_IF_ERROR(CheckOpDeadline());
    absl::Status s =
        UpdateOne(c, op, i, ctx.write, b.let, &n, &modified, &upserted);
    if (s.ok()) continue;
    if (FailsWholeBatch(s)) return s;
    // Malformed statements fail the whole command, as the IDL parse does.
    const int code = ErrorCode(s);
    if (code == kIDLUnknownField || code == kIDLFailedToParse) return s;
    b.write_errors.push_back(WriteError(i, s));
    if (b.ordered) break;
  }
  Value::Object fields = {{"n", Count(n)}};
  if (!upserted.empty()) {
    fields.emplace_back("upserted", Value::MakeArray(std::move(upserted)));
  }
  fields.emplace_back("nModified", Count(modified));
  return Finish(std::move(fields), b);
}

absl::StatusOr<Value> Delete(CommandContext& ctx) {
  ASSIGN_OR_RETURN(WriteBatch b, OpenBatch(ctx, "deletes"));
  ASSIGN_OR_RETURN(const Value::Array* ops, ArrayArg(ctx, "deletes"));
  RETURN_IF_ERROR(CheckBatchSize(ops->size()));
  Collection& c = b.db->collection(b.collection);
  int64_t n = 0;
  const std::string at = "delete.deletes";
  for (size_t i = 0; i < ops->size(); ++i) {
    const Value& op = (*ops)[i];
    if (!op.is_object()) {
      return IdlWrongType(absl::StrCat(at, ".", i), op, "object");
    }
    ASSIGN_OR_RETURN(DeleteStatement st, ParseDeleteStatement(op, at));
    RETURN_IF_ERROR(CheckOpDeadline());
    absl::StatusOr<int64_t> r = st.multi
                                    ? c.DeleteMany(*st.q, st.options, ctx.write)
                                    : c.DeleteOne(*st.q, st.options, ctx.write);
    if (r.ok()) {
      n += *r;
      continue;
    }
    if (FailsWholeBatch(r.status())) return r.status();
    b.write_errors.push_back(WriteError(i, r.status()));
    if (b.ordered) break;
  }
  return Finish({{"n", Count(n)}}, b);
}

}  // namespace

void AddWriteCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"insert", Insert, false, /*takes_write_concern=*/true});
  specs->push_back({"update", Update, false, true});
  specs->push_back({"delete", Delete, false, true});
}

}  // namespace commands
}  // namespace ttldb
