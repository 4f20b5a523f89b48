// Status helpers shared by every layer: early-return macros and MongoDB
// error codes carried on an absl::Status.
//
// A ttldb error is an absl::Status whose message starts the way MongoDB's
// does and whose MongoDB code (11000, 67, 85, ...) rides as a payload, so
// the shell can print "(code 85 IndexOptionsConflict)" and callers can
// branch on ErrorCode(status) without parsing text.
#ifndef TTLDB_BASE_STATUS_H_
#define TTLDB_BASE_STATUS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {

// MongoDB's error codes that ttldb reports. DO NOT CHANGE THESE VALUES: they
// are MongoDB's.
enum MongoCode : int {
  kBadValue = 2,
  kFailedToParse = 9,
  kTypeMismatch = 14,
  kInvalidLength = 16,
  kIndexNotFound = 27,
  kNamespaceNotFound = 26,
  kInvalidOptions = 72,
  kInvalidNamespace = 73,
  kCannotCreateIndex = 67,
  kIndexOptionsConflict = 85,
  kIndexKeySpecsConflict = 86,
  kImmutableField = 66,
  kCannotIndexParallelArrays = 171,
  kInvalidIndexSpecificationOption = 197,
  kAmbiguousIndexKeyPattern = 181,
  kDocumentValidationFailure = 121,
  kQueryExceededMemoryLimitNoDiskUseAllowed = 292,
  kExceededMemoryLimit = 146,
  kBSONObjectTooLarge = 10334,
  kDuplicateKey = 11000,
  kDataCorruptionDetected = 301,
  kInterrupted = 11601,
  kInterruptedAtShutdown = 11600,
  kIndexBuildAborted = 276,
  kTooManyIndexes = 67,  // MongoDB reports this as CannotCreateIndex
  // The command layer's codes (commands/).
  kInternalError = 1,
  kNoSuchKey = 4,
  kUserNotFound = 11,
  kUnauthorized = 13,
  kProtocolError = 17,
  kAuthenticationFailed = 18,
  kRoleNotFound = 31,
  kMechanismUnavailable = 334,
  kUserAlreadyExists = 51003,  // mongod's Location51003
  kIllegalOperation = 20,
  kCursorNotFound = 43,
  kNamespaceExists = 48,
  kMaxTimeMSExpired = 50,
  kCommandNotFound = 59,
  kUnknownReplWriteConcern = 79,
  kShutdownInProgress = 91,
  kOperationFailed = 96,
  kCommandNotSupported = 115,
  kCursorInUse = 143,
  kInvalidUUID = 207,
  kNotImplemented = 238,
  kAPIVersionError = 322,
  kDatabaseDifferCase = 13297,
  kOutOfDiskSpace = 14031,
  kIDLFailedToParse = 40414,  // a required field is missing
  kIDLUnknownField = 40415,   // a field the command does not know
};

// The MongoDB code name for a code ("IndexOptionsConflict"), or "" if unknown.
absl::string_view MongoCodeName(int code);

// An error with a MongoDB code. `kind` is the absl code that best describes
// it (InvalidArgument for bad input, AlreadyExists for duplicates, ...).
absl::Status MongoError(absl::StatusCode kind, int mongo_code,
                        absl::string_view message);

// The MongoDB code carried by `status`, or 0 if none.
int ErrorCode(const absl::Status& status);

}  // namespace ttldb

#define TTLDB_CONCAT_INNER_(a, b) a##b
#define TTLDB_CONCAT_(a, b) TTLDB_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define RETURN_IF_ERROR(expr)                      \
  do {                                             \
    ::absl::Status _ttldb_status = (expr);         \
    if (!_ttldb_status.ok()) return _ttldb_status; \
  } while (0)

// `lhs = value of expr` where expr is an absl::StatusOr<T>; returns its
// status from the enclosing function if it is not OK.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL_(TTLDB_CONCAT_(_ttldb_statusor_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                           \
  if (!tmp.ok()) return tmp.status();          \
  lhs = std::move(tmp).value()

#endif  // TTLDB_BASE_STATUS_H_
