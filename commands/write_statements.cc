#include "commands/write_statements.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"

namespace ttldb {
namespace commands {
namespace {

// An optional bool field of a statement.
absl::StatusOr<bool> OptBool(const Value& op, absl::string_view field,
                             const std::string& at) {
  const Value* v = op.Get(field);
  if (v == nullptr) return false;
  if (v->type() != ValueType::kBool) {
    return IdlWrongType(absl::StrCat(at, ".", field), *v, "bool");
  }
  return v->bool_value();
}

}  // namespace

bool IsReplacement(const Value& u) {
  if (!u.is_object()) return false;  // a pipeline
  return u.object_fields().empty() || u.object_fields()[0].first.empty() ||
         u.object_fields()[0].first[0] != '$';
}

absl::StatusOr<UpdateStatement> ParseUpdateStatement(const Value& op,
                                                     const Value& let,
                                                     const std::string& at) {
  for (const Field& f : op.object_fields()) {
    static constexpr absl::string_view kKnown[] = {
        "q",         "u", "upsert",   "multi",          "arrayFilters", "hint",
        "collation", "c", "sampleId", "upsertSupplied", "sort"};
    bool ok = false;
    for (absl::string_view k : kKnown) ok = ok || f.first == k;
    if (!ok) return IdlUnknownField(absl::StrCat(at, ".", f.first));
  }
  UpdateStatement s;
  s.q = op.Get("q");
  s.u = op.Get("u");
  if (s.q == nullptr) return IdlMissingField(at + ".q");
  if (s.u == nullptr) return IdlMissingField(at + ".u");
  if (!s.q->is_object()) return IdlWrongType(at + ".q", *s.q, "object");
  if (!s.u->is_object() && !s.u->is_array()) {
    return IdlWrongTypes(at + ".u", *s.u, "[object, array]");
  }
  UpdateOptions& o = s.options;
  ASSIGN_OR_RETURN(o.upsert, OptBool(op, "upsert", at));
  ASSIGN_OR_RETURN(s.multi, OptBool(op, "multi", at));
  if (const Value* af = op.Get("arrayFilters");
      af != nullptr && !af->is_null()) {
    if (!af->is_array())
      return IdlWrongType(at + ".arrayFilters", *af, "array");
    o.array_filters = af->array_items();
  }
  // write_ops.idl: c is an object; an array u is a pipeline-style update
  // (engine/update_parse.h), which `c` and the command's `let` serve.
  if (const Value* c = op.Get("c"); c != nullptr) {
    if (!c->is_object()) return IdlWrongType(at + ".c", *c, "object");
    o.constants = *c;
  }
  ASSIGN_OR_RETURN(o.upsert_supplied, OptBool(op, "upsertSupplied", at));
  o.let = let;
  ASSIGN_OR_RETURN(o.collation, CollationField(op, at + ".collation"));
  s.replacement = IsReplacement(*s.u);
  if (s.replacement && s.multi) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "multi update is not supported for replacement-style "
                      "update");
  }
  return s;
}

absl::StatusOr<DeleteStatement> ParseDeleteStatement(const Value& op,
                                                     const std::string& at) {
  for (const Field& f : op.object_fields()) {
    if (f.first != "q" && f.first != "limit" && f.first != "hint" &&
        f.first != "collation" && f.first != "sampleId") {
      return IdlUnknownField(absl::StrCat(at, ".", f.first));
    }
  }
  DeleteStatement s;
  s.q = op.Get("q");
  const Value* limit = op.Get("limit");
  if (s.q == nullptr) return IdlMissingField(at + ".q");
  if (limit == nullptr) return IdlMissingField(at + ".limit");
  if (!s.q->is_object()) return IdlWrongType(at + ".q", *s.q, "object");
  if (!limit->is_number()) {
    return IdlWrongTypes(at + ".limit", *limit, "[long, int, decimal, double]");
  }
  const double l = limit->AsDouble();
  if (l != 0 && l != 1) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kFailedToParse,
        absl::StrCat("The limit field in delete objects must be 0 or 1. Got ",
                     l));
  }
  s.multi = l == 0;
  ASSIGN_OR_RETURN(s.options.collation, CollationField(op, at + ".collation"));
  return s;
}

}  // namespace commands
}  // namespace ttldb
