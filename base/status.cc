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
    case kInterrupted:
      return "Interrupted";
    case kInterruptedAtShutdown:
      return "InterruptedAtShutdown";
    case kIndexBuildAborted:
      return "IndexBuildAborted";
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
    case kQueryExceededMemoryLimitNoDiskUseAllowed:
      return "QueryExceededMemoryLimitNoDiskUseAllowed";
    case kExceededMemoryLimit:
      return "ExceededMemoryLimit";
    case kBSONObjectTooLarge:
      return "BSONObjectTooLarge";
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
    case kDataCorruptionDetected:
      return "DataCorruptionDetected";
    case kInternalError:
      return "InternalError";
    case kNoSuchKey:
      return "NoSuchKey";
    case kUnauthorized:
      return "Unauthorized";
    case kUserNotFound:
      return "UserNotFound";
    case kProtocolError:
      return "ProtocolError";
    case kAuthenticationFailed:
      return "AuthenticationFailed";
    case kRoleNotFound:
      return "RoleNotFound";
    case kMechanismUnavailable:
      return "MechanismUnavailable";
    case kUserAlreadyExists:
      return "Location51003";
    case kIllegalOperation:
      return "IllegalOperation";
    case kCursorNotFound:
      return "CursorNotFound";
    case kNamespaceExists:
      return "NamespaceExists";
    case kMaxTimeMSExpired:
      return "MaxTimeMSExpired";
    case kCommandNotFound:
      return "CommandNotFound";
    case kUnknownReplWriteConcern:
      return "UnknownReplWriteConcern";
    case kShutdownInProgress:
      return "ShutdownInProgress";
    case kOperationFailed:
      return "OperationFailed";
    case kCommandNotSupported:
      return "CommandNotSupported";
    case kCursorInUse:
      return "CursorInUse";
    case kInvalidUUID:
      return "InvalidUUID";
    case kNotImplemented:
      return "NotImplemented";
    case kAPIVersionError:
      return "APIVersionError";
    case kOutOfDiskSpace:
      return "OutOfDiskSpace";
    case kDatabaseDifferCase:
      return "DatabaseDifferCase";
    case kIDLFailedToParse:
      return "Location40414";
    case kIDLUnknownField:
      return "Location40415";
    case 51024:  // a negative limit/skip/batchSize in find
      return "Location51024";
    // Assertion codes without an entry in MongoDB's error_codes.yml travel
    // as "Location<code>".
    case 51091:  // regular expression is invalid
      return "Location51091";
    case 51108:  // invalid flag in regex options
      return "Location51108";
    // The find projection's assertion codes (query/projection.cc).
    case 16410:
      return "Location16410";
    case 31255:
      return "Location31255";
    case 31256:
      return "Location31256";
    case 31257:
      return "Location31257";
    case 31258:
      return "Location31258";
    case 31259:
      return "Location31259";
    case 31270:
      return "Location31270";
    case 31271:
      return "Location31271";
    case 31272:
      return "Location31272";
    case 31273:
      return "Location31273";
    case 31274:
      return "Location31274";
    case 31275:
      return "Location31275";
    case 31276:
      return "Location31276";
    case 31277:
      return "Location31277";
    case 31287:
      return "Location31287";
    case 31308:
      return "Location31308";
    case 51050:
      return "Location51050";
    case 51246:
      return "Location51246";
    case 51247:
      return "Location51247";
    // The update language's codes (query/update.cc), named as in MongoDB's
    // error_codes.yml.
    case 28:
      return "PathNotViable";
    case 40:
      return "ConflictingUpdateOperators";
    case 52:
      return "DollarPrefixedFieldName";
    case 54:
      return "NotSingleValueField";
    case 56:
      return "EmptyFieldName";
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
