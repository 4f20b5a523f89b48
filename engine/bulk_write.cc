// Collection::BulkWrite: MongoDB's bulkWrite, operation by operation
// through the single-operation calls.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/idl_errors.h"
#include "engine/backend.h"
#include "ttldb/collection.h"

namespace ttldb {
namespace {

// A driver-side refusal of the operations (the Node driver's
// MongoInvalidArgumentError): nothing is sent, nothing written.
absl::Status BadOps(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue, message);
}

// The update document of updateOne / updateMany must be operators (the
// driver's hasAtomicOperators: the first key starts with '$').
bool HasAtomicOperators(const Value& doc) {
  if (!doc.is_object() || doc.object_fields().empty()) return false;
  const std::string& first = doc.object_fields().front().first;
  return !first.empty() && first[0] == '$';
}

absl::StatusOr<Value> ObjectField(const Value& op, absl::string_view name,
                                  absl::string_view missing_path) {
  const Value* v = op.Get(name);
  if (v == nullptr || v->is_null()) return IdlMissingField(missing_path);
  if (!v->is_object()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kTypeMismatch,
        absl::StrCat("BSON field '", missing_path, "' is the wrong type '",
                     TypeName(v->type()), "', expected type 'object'"));
  }
  return *v;
}

absl::Status ParseUpdateOptions(const Value& op, WriteModel* model) {
  if (const Value* upsert = op.Get("upsert")) {
    model->upsert = upsert->type() == ValueType::kBool ? upsert->bool_value()
                                                       : !upsert->is_null();
  }
  if (const Value* af = op.Get("arrayFilters")) {
    if (!af->is_array()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "BSON field 'update.updates.arrayFilters' is the "
                        "wrong type, expected type 'array'");
    }
    model->array_filters = af->array_items();
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<WriteModel>> Collection::ParseBulkWriteOps(
    const Value& ops) {
  if (!ops.is_array()) {
    return BadOps("Argument \"operations\" must be an array of documents");
  }
  if (ops.array_items().empty()) {
    return BadOps("Invalid BulkOperation, Batch cannot be empty");
  }
  std::vector<WriteModel> models;
  for (const Value& entry : ops.array_items()) {
    if (!entry.is_object() || entry.object_fields().empty()) {
      return BadOps(
          "bulkWrite only supports insertOne, updateOne, updateMany, "
          "replaceOne, deleteOne, deleteMany");
    }
    const std::string& name = entry.object_fields().front().first;
    const Value& op = entry.object_fields().front().second;
    WriteModel model;
    if (name == "insertOne") {
      model.kind = WriteModel::Kind::kInsertOne;
      if (!op.is_object()) return IdlMissingField("insert.documents");
      // {insertOne: {document: {...}}}; the driver also takes the document
      // itself when "document" is absent.
      const Value* doc = op.Get("document");
      if (doc == nullptr) {
        model.document = op;
      } else {
        ASSIGN_OR_RETURN(model.document,
                         ObjectField(op, "document", "insert.documents"));
      }
      models.push_back(std::move(model));
      continue;
    }
    const bool is_update = name == "updateOne" || name == "updateMany";
    const bool is_delete = name == "deleteOne" || name == "deleteMany";
    if (!is_update && !is_delete && name != "replaceOne") {
      return BadOps(
          "bulkWrite only supports insertOne, updateOne, updateMany, "
          "replaceOne, deleteOne, deleteMany");
    }
    if (!op.is_object()) {
      return IdlMissingField(is_delete ? "delete.deletes.q"
                                       : "update.updates.q");
    }
    if (op.Get("q") != nullptr) return BadOps("Raw operations are not allowed");
    if (is_delete) {
      model.kind = name == "deleteOne" ? WriteModel::Kind::kDeleteOne
                                       : WriteModel::Kind::kDeleteMany;
      ASSIGN_OR_RETURN(model.filter,
                       ObjectField(op, "filter", "delete.deletes.q"));
      if (const Value* c = op.Get("collation")) model.collation = *c;
      models.push_back(std::move(model));
      continue;
    }
    ASSIGN_OR_RETURN(model.filter,
                     ObjectField(op, "filter", "update.updates.q"));
    RETURN_IF_ERROR(ParseUpdateOptions(op, &model));
    if (const Value* c = op.Get("collation")) model.collation = *c;
    if (name == "replaceOne") {
      model.kind = WriteModel::Kind::kReplaceOne;
      ASSIGN_OR_RETURN(model.update,
                       ObjectField(op, "replacement", "update.updates.u"));
      if (HasAtomicOperators(model.update)) {
        return BadOps("Replacement document must not use atomic operators");
      }
    } else {
      model.kind = name == "updateOne" ? WriteModel::Kind::kUpdateOne
                                       : WriteModel::Kind::kUpdateMany;
      const Value* update = op.Get("update");
      if (update != nullptr && update->is_array()) {
        // A pipeline-style update (the driver's check is for documents).
        model.update = *update;
        models.push_back(std::move(model));
        continue;
      }
      ASSIGN_OR_RETURN(model.update,
                       ObjectField(op, "update", "update.updates.u"));
      if (!HasAtomicOperators(model.update)) {
        return BadOps("Update document requires atomic operators");
      }
    }
    models.push_back(std::move(model));
  }
  return models;
}

absl::StatusOr<BulkWriteResult> Collection::BulkWrite(
    absl::Span<const WriteModel> ops, bool ordered,
    const WriteOptions& options) {
  if (ops.empty()) {
    return BadOps("Invalid BulkOperation, Batch cannot be empty");
  }
  if (backend_ != nullptr) {
    // A collation is not passed on to the deployment yet.
    for (const WriteModel& op : ops) {
      if (!op.collation.is_null()) {
        return MongoError(
            absl::StatusCode::kUnimplemented, kNotImplemented,
            "collation is not supported on a mongodb:// database");
      }
    }
    return backend_->BulkWrite(ops, ordered, options);
  }
  BulkWriteResult result;
  for (size_t i = 0; i < ops.size(); ++i) {
    const WriteModel& op = ops[i];
    const int64_t index = static_cast<int64_t>(i);
    absl::Status status;
    switch (op.kind) {
      case WriteModel::Kind::kInsertOne: {
        absl::StatusOr<Value> id = InsertOne(op.document, options);
        status = id.status();
        if (id.ok()) {
          ++result.inserted_count;
          result.inserted_ids.emplace_back(index, std::move(*id));
        }
        break;
      }
      case WriteModel::Kind::kUpdateOne:
      case WriteModel::Kind::kUpdateMany:
      case WriteModel::Kind::kReplaceOne: {
        UpdateOptions uo;
        uo.upsert = op.upsert;
        uo.array_filters = op.array_filters;
        uo.constants = op.constants;
        uo.collation = op.collation;
        absl::StatusOr<UpdateResult> r =
            op.kind == WriteModel::Kind::kUpdateOne
                ? UpdateOne(op.filter, op.update, uo, options)
            : op.kind == WriteModel::Kind::kUpdateMany
                ? UpdateMany(op.filter, op.update, uo, options)
                : ReplaceOne(op.filter, op.update, uo, options);
        status = r.status();
        if (r.ok()) {
          result.matched_count += r->matched_count;
          result.modified_count += r->modified_count;
          if (r->upserted_id.has_value()) {
            ++result.upserted_count;
            result.upserted_ids.emplace_back(index, std::move(*r->upserted_id));
          }
        }
        break;
      }
      case WriteModel::Kind::kDeleteOne:
      case WriteModel::Kind::kDeleteMany: {
        DeleteOptions del;
        del.collation = op.collation;
        absl::StatusOr<int64_t> n = op.kind == WriteModel::Kind::kDeleteOne
                                        ? DeleteOne(op.filter, del, options)
                                        : DeleteMany(op.filter, del, options);
        status = n.status();
        if (n.ok()) result.deleted_count += *n;
        break;
      }
    }
    if (!status.ok()) {
      // A status without MongoDB's code: BadValue for bad input,
      // InternalError (1) for anything else.
      int code = ErrorCode(status);
      if (code == 0) {
        code = absl::IsInvalidArgument(status) ? kBadValue : 1;
      }
      result.write_errors.push_back(
          {index, code, std::string(status.message())});
      if (ordered) break;
    }
  }
  return result;
}

absl::StatusOr<BulkWriteResult> Collection::BulkWrite(
    const Value& ops, bool ordered, const WriteOptions& options) {
  ASSIGN_OR_RETURN(std::vector<WriteModel> models, ParseBulkWriteOps(ops));
  return BulkWrite(models, ordered, options);
}

}  // namespace ttldb
