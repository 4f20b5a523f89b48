#include "commands/explain_write.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/write_statements.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"

namespace ttldb {
namespace commands {
namespace {

absl::Status OneStatement(const Value::Array& ops) {
  if (ops.size() == 1) return absl::OkStatus();
  return MongoError(absl::StatusCode::kInvalidArgument, kInvalidLength,
                    "explained write batches must be of size 1");
}

// findAndModify returns the document it matched: its explain says
// nReturned 1 then (jstests/core/query/find_and_modify/
// find_and_modify_pipeline_update.js), where update and delete say 0.
Value* Child(Value* v, absl::string_view name) {
  if (v == nullptr || !v->is_object()) return nullptr;
  for (Field& f : v->mutable_object_fields()) {
    if (f.first == name) return &f.second;
  }
  return nullptr;
}

Value ReturnsMatch(Value plan, absl::string_view count_field) {
  Value* stats = Child(&plan, "executionStats");
  Value* stages = Child(stats, "executionStages");
  if (stages == nullptr) return plan;
  const Value* n = stages->Get(count_field);
  if (n == nullptr) return plan;
  const Value returned = *n;
  stages->Set("nReturned", returned);
  stats->Set("nReturned", returned);
  return plan;
}

}  // namespace

bool IsExplainableWrite(absl::string_view command) {
  return command == "update" || command == "delete" ||
         command == "findAndModify" || command == "findandmodify";
}

absl::StatusOr<Value> ExplainWrite(CommandContext& sub) {
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(sub));
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  ASSIGN_OR_RETURN(Value let, ObjectArg(sub, "let"));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, sub.Db(false));
  if (sub.name == "update") {
    ASSIGN_OR_RETURN(const Value::Array* ops, ArrayArg(sub, "updates"));
    RETURN_IF_ERROR(OneStatement(*ops));
    const Value& op = (*ops)[0];
    const std::string at = "update.updates";
    if (!op.is_object()) return IdlWrongType(at + ".0", op, "object");
    ASSIGN_OR_RETURN(UpdateStatement st, ParseUpdateStatement(op, let, at));
    if (db == nullptr) return Value::MakeObject();
    return db->collection(coll).ExplainUpdate(*st.q, *st.u, st.multi,
                                              st.options);
  }
  if (sub.name == "delete") {
    ASSIGN_OR_RETURN(const Value::Array* ops, ArrayArg(sub, "deletes"));
    RETURN_IF_ERROR(OneStatement(*ops));
    const Value& op = (*ops)[0];
    const std::string at = "delete.deletes";
    if (!op.is_object()) return IdlWrongType(at + ".0", op, "object");
    ASSIGN_OR_RETURN(DeleteStatement st, ParseDeleteStatement(op, at));
    if (db == nullptr) return Value::MakeObject();
    return db->collection(coll).ExplainDelete(*st.q, st.multi);
  }
  // findAndModify: one document, in `sort` order.
  ASSIGN_OR_RETURN(Value query, ObjectArg(sub, "query"));
  if (!query.is_object()) query = Value::MakeObject();
  ASSIGN_OR_RETURN(Value sort, ObjectArg(sub, "sort"));
  ASSIGN_OR_RETURN(bool remove, SafeBoolArg(sub, "remove", false));
  ASSIGN_OR_RETURN(bool upsert, SafeBoolArg(sub, "upsert", false));
  const Value* update = Arg(sub, "update");
  if (remove == (update != nullptr)) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      remove ? "Cannot specify both an update and remove=true"
                             : "Either an update or remove=true must be "
                               "specified");
  }
  if (db == nullptr) return Value::MakeObject();
  Collection& c = db->collection(coll);
  if (remove) {
    ASSIGN_OR_RETURN(Value plan, c.ExplainDelete(query, /*multi=*/false, sort));
    return ReturnsMatch(std::move(plan), "nWouldDelete");
  }
  if (!update->is_object() && !update->is_array()) {
    return IdlWrongTypes("findAndModify.update", *update, "[object, array]");
  }
  UpdateOptions o;
  o.upsert = upsert;
  o.let = let;
  if (const Value* af = Arg(sub, "arrayFilters");
      af != nullptr && !af->is_null()) {
    if (!af->is_array()) {
      return IdlWrongType("findAndModify.arrayFilters", *af, "array");
    }
    o.array_filters = af->array_items();
  }
  ASSIGN_OR_RETURN(Value plan,
                   c.ExplainUpdate(query, *update, /*multi=*/false, o, sort));
  return ReturnsMatch(std::move(plan), "nMatched");
}

}  // namespace commands
}  // namespace ttldb
