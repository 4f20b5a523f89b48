// The shell's atomic read-modify-write and bulk methods: findOneAndUpdate,
// findOneAndReplace, findOneAndDelete, findAndModify, bulkWrite,
// renameCollection, and db.stats(), with mongosh's option names and the
// Node driver's argument checks.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/evaluator_internal.h"

namespace ttldb {
namespace shell {

using internal::Arg;
using internal::BoolOption;
using internal::FieldOf;
using internal::HasOperatorKeys;
using internal::IntArg;
using internal::IsNumeric;
using internal::NumberOf;
using internal::ObjectArg;
using internal::Truthy;
using Kind = ShellValue::Kind;

namespace {

absl::Status InvalidArgument(absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("MongoInvalidArgumentError: ", message));
}

// mongosh's processFindAndModifyOptions (shell-api helpers.ts):
// returnDocument must be 'before' or 'after'; else returnNewDocument, then
// returnOriginal, decide; the default is 'before'.
absl::StatusOr<bool> ReturnNew(const Value& options) {
  if (const Value* rd = FieldOf(options, "returnDocument")) {
    if (!rd->is_string() ||
        (rd->string_value() != "before" && rd->string_value() != "after")) {
      return absl::InvalidArgumentError(
          "MongoshInvalidInputError: [COMMON-10001] returnDocument needs to "
          "be either 'before' or 'after'");
    }
    return rd->string_value() == "after";
  }
  if (const Value* rn = FieldOf(options, "returnNewDocument")) {
    return Truthy(*rn);
  }
  if (const Value* ro = FieldOf(options, "returnOriginal")) {
    return !Truthy(*ro);
  }
  return false;
}

Value ObjectOrEmpty(const Value* v) {
  return v != nullptr && v->is_object() ? *v : Value::MakeObject();
}

// Common options of the three findOneAnd* methods.
absl::Status ReadFamOptions(const Value& options, FindAndModifyRequest* req) {
  req->sort = ObjectOrEmpty(FieldOf(options, "sort"));
  req->projection = ObjectOrEmpty(FieldOf(options, "projection"));
  req->upsert = BoolOption(options, "upsert");
  if (const Value* af = FieldOf(options, "arrayFilters")) {
    req->array_filters = *af;
  }
  ASSIGN_OR_RETURN(req->return_new, ReturnNew(options));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::optional<ShellValue>> Evaluator::CallModifyMethod(
    const std::string& coll, const std::string& method, const Args& args) {
  auto wrap =
      [](absl::StatusOr<Value> v) -> absl::StatusOr<std::optional<ShellValue>> {
    if (!v.ok()) return v.status();
    return std::optional<ShellValue>(ShellValue::Of(*std::move(v)));
  };
  if (method == "findOneAndUpdate" || method == "findOneAndReplace" ||
      method == "findOneAndDelete") {
    FindAndModifyRequest req;
    ASSIGN_OR_RETURN(req.filter, ObjectArg(args, 0, "filter"));
    size_t options_at = 1;
    if (method == "findOneAndDelete") {
      req.kind = FindAndModifyRequest::Kind::kDelete;
    } else {
      options_at = 2;
      ASSIGN_OR_RETURN(req.update, Arg(args, 1, Value::Null(), "update"));
      if (!req.update.is_object()) {
        return InvalidArgument(method == "findOneAndUpdate"
                                   ? "Update document must be an object or "
                                     "a pipeline"
                                   : "Replacement document must be an object");
      }
      // The Node driver's checks (operations/find_and_modify.ts).
      if (method == "findOneAndUpdate") {
        if (!HasOperatorKeys(req.update)) {
          return InvalidArgument("Update document requires atomic operators");
        }
      } else {
        req.kind = FindAndModifyRequest::Kind::kReplace;
        if (HasOperatorKeys(req.update)) {
          return InvalidArgument(
              "Replacement document must not contain atomic operators");
        }
      }
    }
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, options_at, "options"));
    RETURN_IF_ERROR(ReadFamOptions(options, &req));
    if (req.kind == FindAndModifyRequest::Kind::kDelete) {
      req.upsert = false;
      req.return_new = false;
      req.array_filters = Value::Null();
    }
    return wrap(backend_->FindOneAndModify(coll, req));
  }
  if (method == "findAndModify") {
    // The legacy helper sends the findAndModify command as given; its
    // errors are the server's (find_and_modify.cpp, FailedToParse).
    ASSIGN_OR_RETURN(Value spec, ObjectArg(args, 0, "options"));
    const Value* query = FieldOf(spec, "query");
    if (query == nullptr) {
      return absl::InvalidArgumentError(
          "MongoshInvalidInputError: [COMMON-10001] Missing required "
          "property: \"query\"");
    }
    const bool remove = BoolOption(spec, "remove");
    const Value* update = FieldOf(spec, "update");
    auto fail = [](absl::string_view m) {
      return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse, m);
    };
    if (remove && update != nullptr) {
      return fail("Cannot specify both an update and remove=true");
    }
    if (!remove && update == nullptr) {
      return fail("Either an update or remove=true must be specified");
    }
    FindAndModifyRequest req;
    req.filter = ObjectOrEmpty(query);
    req.sort = ObjectOrEmpty(FieldOf(spec, "sort"));
    req.projection = ObjectOrEmpty(FieldOf(spec, "fields"));
    req.upsert = BoolOption(spec, "upsert");
    req.return_new = BoolOption(spec, "new");
    if (const Value* af = FieldOf(spec, "arrayFilters"))
      req.array_filters = *af;
    if (remove) {
      if (req.return_new) {
        return fail(
            "Cannot specify both new=true and remove=true; 'remove' always "
            "returns the deleted document");
      }
      if (req.upsert) {
        return fail("Cannot specify both upsert=true and remove=true");
      }
      if (!req.array_filters.is_null()) {
        return fail("Cannot specify arrayFilters and remove=true");
      }
      req.kind = FindAndModifyRequest::Kind::kDelete;
    } else {
      if (!update->is_object()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                          "Update argument must be either an object or an "
                          "array");
      }
      req.update = *update;
      req.kind = HasOperatorKeys(*update)
                     ? FindAndModifyRequest::Kind::kUpdate
                     : FindAndModifyRequest::Kind::kReplace;
    }
    return wrap(backend_->FindOneAndModify(coll, req));
  }
  if (method == "bulkWrite") {
    ASSIGN_OR_RETURN(Value ops, Arg(args, 0, Value::Null(), "operations"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    const Value* ordered = FieldOf(options, "ordered");
    ASSIGN_OR_RETURN(
        Value reply,
        backend_->BulkWrite(coll, ops, ordered == nullptr || Truthy(*ordered)));
    const Value* errors = FieldOf(reply, "writeErrors");
    if (errors == nullptr || !errors->is_array() ||
        errors->array_items().empty()) {
      return std::optional<ShellValue>(ShellValue::Of(std::move(reply)));
    }
    // mongosh prints the driver's MongoBulkWriteError: the first error's
    // message, the result so far and every write error.
    Value write_errors = *errors;
    Value result = reply;
    Value::Object& fields = result.mutable_object_fields();
    fields.pop_back();  // writeErrors
    const Value* first = FieldOf(write_errors.array_items()[0], "errmsg");
    return absl::InvalidArgumentError(absl::StrCat(
        "MongoBulkWriteError: ",
        first != nullptr && first->is_string() ? first->string_value() : "",
        "\nResult: BulkWriteResult ", FormatValue(result, options_.format),
        "\nWrite Errors: ", FormatValue(write_errors, options_.format)));
  }
  if (method == "renameCollection") {
    ASSIGN_OR_RETURN(Value to, Arg(args, 0, Value::Null(), "newName"));
    if (!to.is_string()) {
      return absl::InvalidArgumentError(
          "MongoshInvalidInputError: [COMMON-10001] Argument at position 0 "
          "must be of type string");
    }
    ASSIGN_OR_RETURN(Value drop,
                     Arg(args, 1, Value::Bool(false), "dropTarget"));
    return wrap(
        backend_->RenameCollection(coll, to.string_value(), Truthy(drop)));
  }
  return std::optional<ShellValue>();
}

absl::StatusOr<ShellValue> Evaluator::DbStats(const Args& args) {
  // db.stats(scale) or db.stats({scale: n}), as mongosh takes it.
  ASSIGN_OR_RETURN(Value arg, Arg(args, 0, Value::Null(), "scale"));
  int64_t scale = 1;
  const Value* s = arg.is_object() ? FieldOf(arg, "scale") : &arg;
  if (s != nullptr && IsNumeric(*s)) {
    scale = static_cast<int64_t>(NumberOf(*s));
  }
  ASSIGN_OR_RETURN(Value stats, backend_->DbStats(scale));
  return ShellValue::Of(std::move(stats));
}

}  // namespace shell
}  // namespace ttldb
