// findAndModify (src/mongo/db/commands/find_and_modify.cpp,
// find_and_modify.idl) over Collection::FindOneAndUpdate / Replace /
// Delete. Reply: {lastErrorObject: {n, updatedExisting, upserted?},
// value, ok}.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/find_request.h"
#include "commands/reply.h"
#include "commands/write_statements.h"
#include "ttldb/collection.h"

namespace ttldb {
namespace commands {
namespace {

absl::Status ParseError(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                    message);
}

absl::StatusOr<Value> FindAndModify(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx, {"query", "fields", "sort", "remove", "update", "new", "upsert",
            "bypassDocumentValidation", "arrayFilters", "hint", "collation",
            "let", "stmtId", "sampleId", "$_fromMongos"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(Value query, ObjectArg(ctx, "query"));
  ASSIGN_OR_RETURN(Value fields, ObjectArg(ctx, "fields"));
  ASSIGN_OR_RETURN(Value sort, ObjectArg(ctx, "sort"));
  ASSIGN_OR_RETURN(bool remove, SafeBoolArg(ctx, "remove", false));
  ASSIGN_OR_RETURN(bool return_new, SafeBoolArg(ctx, "new", false));
  ASSIGN_OR_RETURN(bool upsert, SafeBoolArg(ctx, "upsert", false));
  // find_and_modify.idl: hint is an index name or key pattern (14).
  FindOptions hint;
  RETURN_IF_ERROR(ApplyHint(ctx, &hint));
  const Value* update = Arg(ctx, "update");
  const Value* array_filters = Arg(ctx, "arrayFilters");
  // find_and_modify.cpp's validateRequest, in its order.
  if (remove) {
    if (update != nullptr) {
      return ParseError("Cannot specify both an update and remove=true");
    }
    if (upsert) {
      return ParseError("Cannot specify both upsert=true and remove=true ");
    }
    if (return_new) {
      return ParseError(
          "Cannot specify both new=true and remove=true; 'remove' always "
          "returns the deleted document");
    }
    if (array_filters != nullptr) {
      return ParseError("Cannot specify arrayFilters and remove=true");
    }
  } else if (update == nullptr) {
    return ParseError("Either an update or remove=true must be specified");
  }
  // An array is a pipeline-style update (engine/update_parse.h).
  if (update != nullptr && !update->is_object() && !update->is_array()) {
    return IdlWrongTypes("findAndModify.update", *update, "[object, array]");
  }
  FindOneAndModifyOptions o;
  if (sort.is_object() && !sort.object_fields().empty()) o.sort = sort;
  if (fields.is_object() && !fields.object_fields().empty()) {
    o.projection = fields;
  }
  o.upsert = upsert;
  o.return_new = return_new;
  // find_and_modify.idl types let as an object.
  ASSIGN_OR_RETURN(o.let, ObjectArg(ctx, "let"));
  ASSIGN_OR_RETURN(o.collation, CollationArg(ctx));
  if (array_filters != nullptr && !array_filters->is_null()) {
    if (!array_filters->is_array()) {
      return IdlWrongType("findAndModify.arrayFilters", *array_filters,
                          "array");
    }
    o.array_filters = array_filters->array_items();
  }
  if (!query.is_object()) query = Value::MakeObject();
  RETURN_IF_ERROR(ValidateCollectionName(coll));

  if (remove) {
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
    std::optional<Value> removed;
    if (db != nullptr) {
      ASSIGN_OR_RETURN(
          removed, db->collection(coll).FindOneAndDelete(query, o, ctx.write));
    }
    return OkReply({{"lastErrorObject",
                     Value::MakeObject(
                         {{"n", Value::Int32(removed.has_value() ? 1 : 0)}})},
                    {"value", removed.has_value() ? *removed : Value::Null()}});
  }

  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
  Collection& c = db->collection(coll);
  const bool replacement = IsReplacement(*update);
  auto run = [&](const FindOneAndModifyOptions& opts) {
    return replacement ? c.FindOneAndReplace(query, *update, opts, ctx.write)
                       : c.FindOneAndUpdate(query, *update, opts, ctx.write);
  };
  bool existed = true;
  if (upsert) {
    // Whether the upsert will update or insert decides lastErrorObject.
    // The engine's step is atomic; this look before it is not, so a
    // concurrent insert of a match can make the reply say "inserted" for
    // an update (the document written is right either way).
    FindOptions probe;
    probe.projection = Value::MakeObject({{"_id", Value::Int32(1)}});
    ASSIGN_OR_RETURN(std::optional<Value> found, c.FindOne(query, probe));
    existed = found.has_value();
  }
  if (existed) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, run(o));
    return OkReply({{"lastErrorObject",
                     Value::MakeObject(
                         {{"n", Value::Int32(doc.has_value() ? 1 : 0)},
                          {"updatedExisting", Value::Bool(doc.has_value())}})},
                    {"value", doc.has_value() ? *doc : Value::Null()}});
  }
  // An upsert that inserts: read the new document back for its _id.
  FindOneAndModifyOptions inserted = o;
  inserted.return_new = true;
  if (!return_new) inserted.projection = Value();
  ASSIGN_OR_RETURN(std::optional<Value> doc, run(inserted));
  Value::Object last = {{"n", Value::Int32(1)},
                        {"updatedExisting", Value::Bool(false)}};
  const Value* id = doc.has_value() ? doc->Get("_id") : nullptr;
  if (id == nullptr) id = query.Get("_id");
  if (id != nullptr) last.emplace_back("upserted", *id);
  return OkReply(
      {{"lastErrorObject", Value::MakeObject(std::move(last))},
       {"value", return_new && doc.has_value() ? *doc : Value::Null()}});
}

}  // namespace

void AddFindAndModifyCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"findAndModify", FindAndModify, false,
                    /*takes_write_concern=*/true});
  specs->push_back({"findandmodify", FindAndModify, false, true});
}

}  // namespace commands
}  // namespace ttldb
