#include "catalog/validation_rules.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace {

// Operators MongoDB refuses in a validator (collection_impl.cpp
// parseValidator: no JavaScript, no $text, no geoNear), anywhere in it.
absl::Status CheckAllowedOperators(const Value& v, int depth) {
  if (depth > 200) return absl::OkStatus();  // the filter bounds its depth
  if (v.is_array()) {
    for (const Value& item : v.array_items()) {
      RETURN_IF_ERROR(CheckAllowedOperators(item, depth + 1));
    }
    return absl::OkStatus();
  }
  if (!v.is_object()) return absl::OkStatus();
  for (const auto& [name, child] : v.object_fields()) {
    if (name == "$where") {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kQueryFeatureNotAllowed,
                        "$where is not allowed in this context");
    }
    if (name == "$text") {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kQueryFeatureNotAllowed,
                        "$text is not allowed in this context");
    }
    if (name == "$near" || name == "$nearSphere" || name == "$geoNear") {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kQueryFeatureNotAllowed,
                        "$geoNear, $near, and $nearSphere are not allowed in "
                        "this context");
    }
    if (name == "$function" || name == "$_internalJsEmit") {
      return MongoError(
          absl::StatusCode::kInvalidArgument,
          name == "$function" ? kFunctionInValidator : kJsEmitInValidator,
          absl::StrCat(name, " is not allowed to be used within a validator"));
    }
    RETURN_IF_ERROR(CheckAllowedOperators(child, depth + 1));
  }
  return absl::OkStatus();
}

}  // namespace

bool HasExpr(const MatchExpr& e) {
  if (e.kind == MatchExpr::Kind::kExpr) return true;
  for (const MatchExpr& c : e.children) {
    if (HasExpr(c)) return true;
  }
  return false;
}

absl::StatusOr<std::shared_ptr<const Filter>> ParseValidator(
    const Value& validator) {
  if (!validator.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      absl::StrCat("'validator' must be an object, not ",
                                   TypeName(validator.type())));
  }
  if (validator.object_fields().empty()) return nullptr;
  RETURN_IF_ERROR(CheckAllowedOperators(validator, 0));
  ASSIGN_OR_RETURN(Filter filter, Filter::Parse(validator));
  return std::make_shared<const Filter>(std::move(filter));
}

absl::Status CheckValidationLevel(absl::string_view level) {
  if (level == "strict" || level == "moderate" || level == "off") {
    return absl::OkStatus();
  }
  return MongoInvalidArgument(
      kBadValue, absl::StrCat("Enumeration value '", level,
                              "' for field 'validationLevel' is not a "
                              "valid value."));
}

absl::Status CheckValidationAction(absl::string_view action) {
  if (action == "error" || action == "warn") return absl::OkStatus();
  return MongoInvalidArgument(
      kBadValue, absl::StrCat("Enumeration value '", action,
                              "' for field 'validationAction' is not a "
                              "valid value."));
}

}  // namespace ttldb
