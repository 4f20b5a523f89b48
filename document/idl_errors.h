// The errors of MongoDB's IDL parser (src/mongo/idl/idl_parser.cpp) for a
// field of a command or of a stage's spec, `path` the field's full dotted
// name ("update.updates.q", "$densify.range.unit"):
//   14 TypeMismatch "BSON field '<path>' is the wrong type '<type>',
//      expected type '<expected>'" (IdlWrongType), or "... expected types
//      '<expected_list>'" (IdlWrongTypes, a list "[string, object]")
//   40414 "BSON field '<path>' is missing but a required field"
//   40415 "BSON field '<path>' is an unknown field."
//   51024 "BSON field '<path>' value must be <rule>, actual value
//      '<actual>'", a field outside its validator's bound ({gte: 0} gives
//      rule ">= 0")
// All are InvalidArgument. The commands (commands/), the pipeline's stages
// (pipeline/) and the engine's bulk write share them. Internal to ttldb.
#ifndef TTLDB_DOCUMENT_IDL_ERRORS_H_
#define TTLDB_DOCUMENT_IDL_ERRORS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

absl::Status IdlWrongType(absl::string_view path, const Value& v,
                          absl::string_view expected);
absl::Status IdlWrongTypes(absl::string_view path, const Value& v,
                           absl::string_view expected_list);
absl::Status IdlMissingField(absl::string_view path);
absl::Status IdlUnknownField(absl::string_view path);
absl::Status IdlBadValue(absl::string_view path, absl::string_view rule,
                         int64_t actual);

// A field of the IDL's safeInt64 type: any number, read as SafeNumberLong
// (document/safe_number.h); else 14 "BSON field '<path>' is the wrong type
// '<type>', expected types '[long, int, decimal, double']" (the IDL
// parser's quotes, as they are).
absl::StatusOr<int64_t> IdlSafeInt64(const Value& v, absl::string_view path);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_IDL_ERRORS_H_
