#include "document/idl_errors.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/safe_number.h"

namespace ttldb {

absl::Status IdlWrongType(absl::string_view path, const Value& v,
                          absl::string_view expected) {
  return MongoInvalidArgument(
      kTypeMismatch,
      absl::StrCat("BSON field '", path, "' is the wrong type '",
                   TypeName(v.type()), "', expected type '", expected, "'"));
}

absl::Status IdlWrongTypes(absl::string_view path, const Value& v,
                           absl::string_view expected_list) {
  return MongoInvalidArgument(
      kTypeMismatch, absl::StrCat("BSON field '", path, "' is the wrong type '",
                                  TypeName(v.type()), "', expected types '",
                                  expected_list, "'"));
}

absl::Status IdlMissingField(absl::string_view path) {
  return MongoInvalidArgument(
      kIDLFailedToParse,
      absl::StrCat("BSON field '", path, "' is missing but a required field"));
}

absl::Status IdlUnknownField(absl::string_view path) {
  return MongoInvalidArgument(
      kIDLUnknownField,
      absl::StrCat("BSON field '", path, "' is an unknown field."));
}

absl::Status IdlBadValue(absl::string_view path, absl::string_view rule,
                         int64_t actual) {
  return MongoInvalidArgument(
      kIDLBadValue, absl::StrCat("BSON field '", path, "' value must be ", rule,
                                 ", actual value '", actual, "'"));
}

absl::StatusOr<int64_t> IdlSafeInt64(const Value& v, absl::string_view path) {
  if (!v.is_number()) {
    // idl_parser.cpp's wording for several types, its quotes as they are.
    return MongoInvalidArgument(
        kTypeMismatch,
        absl::StrCat("BSON field '", path, "' is the wrong type '",
                     TypeName(v.type()),
                     "', expected types '[long, int, decimal, double']"));
  }
  return SafeNumberLong(v);
}

}  // namespace ttldb
