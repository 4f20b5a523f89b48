#include "base/status.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"

namespace ttldb {
namespace {
constexpr char kCodeUrl[] = "ttldb.mongo_code";
}  // namespace

absl::string_view MongoCodeName(int code) {
  switch (code) {
    case kBadValue:
      return "BadValue";
    case kFailedToParse:
      return "FailedToParse";
    case kTypeMismatch:
      return "TypeMismatch";
    case kInvalidLength:
      return "InvalidLength";
    case kIndexNotFound:
      return "IndexNotFound";
    case kNamespaceNotFound:
      return "NamespaceNotFound";
    case kInvalidOptions:
      return "InvalidOptions";
    case kInvalidNamespace:
      return "InvalidNamespace";
    case kCannotCreateIndex:
      return "CannotCreateIndex";
    case kIndexOptionsConflict:
      return "IndexOptionsConflict";
    case kIndexKeySpecsConflict:
      return "IndexKeySpecsConflict";
    case kImmutableField:
      return "ImmutableField";
    case kCannotIndexParallelArrays:
      return "CannotIndexParallelArrays";
    case kInvalidIndexSpecificationOption:
      return "InvalidIndexSpecificationOption";
    case kAmbiguousIndexKeyPattern:
      return "AmbiguousIndexKeyPattern";
    case kDocumentValidationFailure:
      return "DocumentValidationFailure";
    case kDuplicateKey:
      return "DuplicateKey";
    // Assertion codes without an entry in MongoDB's error_codes.yml travel
    // as "Location<code>".
    case 51091:  // regular expression is invalid
      return "Location51091";
    case 51108:  // invalid flag in regex options
      return "Location51108";
    default:
      return "";
  }
}

absl::Status MongoError(absl::StatusCode kind, int mongo_code,
                        absl::string_view message) {
  absl::Status s(kind, message);
  s.SetPayload(kCodeUrl, absl::Cord(std::to_string(mongo_code)));
  return s;
}

int ErrorCode(const absl::Status& status) {
  auto payload = status.GetPayload(kCodeUrl);
  if (!payload.has_value()) return 0;
  int code = 0;
  if (!absl::SimpleAtoi(std::string(*payload), &code)) return 0;
  return code;
}

}  // namespace ttldb
