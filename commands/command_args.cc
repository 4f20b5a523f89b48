#include "commands/command_args.h"

#include <cmath>
#include <limits>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace commands {

bool IsGenericArgument(absl::string_view f) {
  // src/mongo/idl/generic_argument.idl (8.0).
  static constexpr absl::string_view kGeneric[] = {
      "$db",
      "$audit",
      "$client",
      "$clusterTime",
      "$configServerState",
      "$readPreference",
      "$queryOptions",
      "$gleStats",
      "$oplogQueryData",
      "$replData",
      "$configTime",
      "$topologyTime",
      "allowImplicitCollectionCreation",
      "apiVersion",
      "apiStrict",
      "apiDeprecationErrors",
      "autocommit",
      "clientOperationKey",
      "coordinator",
      "comment",
      "databaseVersion",
      "lsid",
      "maxTimeMS",
      "maxTimeMSOpOnly",
      "mayBypassWriteBlocking",
      "readConcern",
      "shardVersion",
      "startTransaction",
      "stmtId",
      "txnNumber",
      "txnRetryCounter",
      "usesDefaultMaxTimeMS",
      "versionContext",
      "writeConcern",
      "rawData",
      "expectPrefix",
      "startOrContinueTransaction",
      "requestGossipRoutingCache",
      "help",
  };
  for (absl::string_view g : kGeneric) {
    if (f == g) return true;
  }
  return false;
}

absl::Status CheckFields(const CommandContext& ctx,
                         std::initializer_list<absl::string_view> known) {
  const auto& fields = ctx.cmd.object_fields();
  for (size_t i = 1; i < fields.size(); ++i) {
    const std::string& f = fields[i].first;
    if (IsGenericArgument(f)) continue;
    bool ok = false;
    for (absl::string_view k : known) ok = ok || f == k;
    if (!ok) return IdlUnknownField(absl::StrCat(ctx.name, ".", f));
  }
  return absl::OkStatus();
}

absl::Status CheckNoDuplicateFields(const CommandContext& ctx) {
  const auto& fields = ctx.cmd.object_fields();
  absl::flat_hash_set<absl::string_view> seen;
  seen.reserve(fields.size());
  for (const auto& field : fields) {
    if (!seen.insert(field.first).second) {
      return MongoError(absl::StatusCode::kInvalidArgument, kIDLDuplicateField,
                        absl::StrCat("BSON field '", ctx.name, ".", field.first,
                                     "' is a duplicate field"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> CollectionArg(const CommandContext& ctx) {
  const Value& v = ctx.first();
  if (!v.is_string()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("collection name has invalid type ", TypeName(v.type())));
  }
  if (v.string_value().empty()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("Invalid namespace specified '", ctx.db, ".'"));
  }
  return v.string_value();
}

std::string Ns(absl::string_view db, absl::string_view coll) {
  return absl::StrCat(db, ".", coll);
}

const Value* Arg(const CommandContext& ctx, absl::string_view field) {
  return ctx.cmd.Get(field);
}

absl::StatusOr<Value> ObjectArg(const CommandContext& ctx,
                                absl::string_view field) {
  const Value* v = Arg(ctx, field);
  if (v == nullptr || v->is_null()) return Value();
  if (!v->is_object()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".", field), *v, "object");
  }
  return *v;
}

absl::StatusOr<Value> CollationArg(const CommandContext& ctx) {
  ASSIGN_OR_RETURN(Value v, ObjectArg(ctx, "collation"));
  if (v.is_object() && v.object_fields().empty()) return Value();
  return v;
}

absl::StatusOr<Value> CollationField(const Value& statement,
                                     absl::string_view path) {
  const Value* v = statement.is_object() ? statement.Get("collation") : nullptr;
  if (v == nullptr || v->is_null()) return Value();
  if (!v->is_object()) return IdlWrongType(path, *v, "object");
  if (v->object_fields().empty()) return Value();
  return *v;
}

absl::StatusOr<const Value::Array*> ArrayArg(const CommandContext& ctx,
                                             absl::string_view field) {
  const Value* v = Arg(ctx, field);
  if (v == nullptr) return IdlMissingField(absl::StrCat(ctx.name, ".", field));
  if (!v->is_array()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".", field), *v, "array");
  }
  return &v->array_items();
}

absl::StatusOr<std::optional<int64_t>> IntArg(const CommandContext& ctx,
                                              absl::string_view field) {
  const Value* v = Arg(ctx, field);
  if (v == nullptr || v->is_null()) return std::optional<int64_t>();
  if (!v->is_number()) {
    return IdlWrongTypes(absl::StrCat(ctx.name, ".", field), *v,
                         "[long, int, decimal, double]");
  }
  if (v->type() == ValueType::kInt32 || v->type() == ValueType::kInt64) {
    return std::optional<int64_t>(v->int64_value());
  }
  const double d = v->AsDouble();
  if (!std::isfinite(d) || std::trunc(d) != d) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Expected an integer: ", field, ": ", d));
  }
  if (d >= 9.2e18)
    return std::optional<int64_t>(std::numeric_limits<int64_t>::max());
  if (d <= -9.2e18)
    return std::optional<int64_t>(std::numeric_limits<int64_t>::min());
  return std::optional<int64_t>(static_cast<int64_t>(d));
}

absl::StatusOr<bool> BoolArg(const CommandContext& ctx, absl::string_view field,
                             bool def) {
  const Value* v = Arg(ctx, field);
  if (v == nullptr) return def;
  if (v->type() != ValueType::kBool) {
    return IdlWrongType(absl::StrCat(ctx.name, ".", field), *v, "bool");
  }
  return v->bool_value();
}

absl::StatusOr<bool> SafeBoolArg(const CommandContext& ctx,
                                 absl::string_view field, bool def) {
  const Value* v = Arg(ctx, field);
  if (v == nullptr || v->is_null()) return def;
  if (v->type() == ValueType::kBool) return v->bool_value();
  if (v->is_number()) return v->AsDouble() != 0;
  return IdlWrongTypes(absl::StrCat(ctx.name, ".", field), *v,
                       "[bool, long, int, decimal, double]");
}

bool TrueValue(const Value& v) {
  switch (v.type()) {
    case ValueType::kBool:
      return v.bool_value();
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kDecimal:
      return v.AsDouble() != 0;
    case ValueType::kNull:
      return false;
    default:
      return true;
  }
}

absl::StatusOr<absl::Duration> MaxTimeArg(const Value& cmd) {
  const Value* v = cmd.Get("maxTimeMS");
  if (v == nullptr) return absl::ZeroDuration();
  auto bad = [](std::string message) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      std::move(message));
  };
  if (!v->is_number()) return bad("maxTimeMS must be a number");
  // BSONElement::safeNumberLong: integers as they are, a double or decimal
  // truncated and clamped to the int64 range (NaN: 0).
  int64_t n = 0;
  if (v->type() == ValueType::kInt32 || v->type() == ValueType::kInt64) {
    n = v->int64_value();
  } else {
    const double d = v->AsDouble();
    if (std::isnan(d)) {
      n = 0;
    } else if (d >= 9223372036854775807.0) {
      n = std::numeric_limits<int64_t>::max();
    } else if (d <= -9223372036854775808.0) {
      n = std::numeric_limits<int64_t>::min();
    } else {
      n = static_cast<int64_t>(d);
    }
  }
  if (n < 0 || n > std::numeric_limits<int32_t>::max()) {
    return bad(absl::StrCat(n, " value for maxTimeMS is out of range"));
  }
  if (v->type() == ValueType::kDouble &&
      std::floor(v->double_value()) != v->double_value()) {
    return bad("maxTimeMS has non-integral value");
  }
  return absl::Milliseconds(n);
}

}  // namespace commands
}  // namespace ttldb
