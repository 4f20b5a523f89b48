// Status helpers shared by every layer: early-return macros and MongoDB
// error codes carried on an absl::Status.
//
// A ttldb error is an absl::Status whose message starts the way MongoDB's
// does and whose MongoDB code (11000, 67, 85, ...) rides as a payload, so
// the shell can print "(code 85 IndexOptionsConflict)" and callers can
// branch on ErrorCode(status) without parsing text.
#ifndef TTLDB_BASE_STATUS_H_
#define TTLDB_BASE_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/error_codes.h"

namespace ttldb {

// MongoDB's error codes that ttldb reports: kBadValue = 2, ... one per
// entry of base/error_codes.h, plus the location codes below.
enum MongoCode : int {
#define TTLDB_MONGO_CODE_ENUM_(name, code) k##name = code,
  TTLDB_MONGO_ERROR_CODES(TTLDB_MONGO_CODE_ENUM_)
#undef TTLDB_MONGO_CODE_ENUM_
  // Assertion (location) codes several files report; their codeName is
  // "Location<code>".
  kUserAlreadyExists = 51003,  // createUser of an existing user
  kIDLFailedToParse = 40414,   // a required field is missing
  kIDLUnknownField = 40415,    // a field the command does not know
  kIDLDuplicateField = 40413,  // a command field given twice
  kIDLBadValue = 51024,        // a field outside its validator's bound
  // hello's awaitable arguments (replication_info.cpp's uassert codes).
  kAwaitableHelloArguments = 31368,
  kNegativeMaxAwaitTime = 31373,
  kNegativeTopologyCounter = 51758,
  // JavaScript in a collection validator's $expr (expression_function.cpp,
  // expression_js_emit.cpp).
  kFunctionInValidator = 4660800,
  kJsEmitInValidator = 4660801,
  // $changeStream (document_source_change_stream.cpp): without a change
  // log (a standalone mongod; Options::change_log false), and not first.
  kChangeStreamNotSupported = 40573,
  // A stage that must come first (pipeline.cpp validateCommon):
  // $changeStream, $currentOp.
  kStageNotFirst = 40602,
  // Regular expression options (expression_leaf.cpp, bsonelement.cpp).
  kInvalidRegexFlag = 51108,
  // update's `c` without a pipeline (update_request.cpp).
  kConstantsWithoutPipeline = 51198,
  // distinct's key (parsed_distinct_command.cpp).
  kDistinctKeyNullByte = 31032,
  // Hashed indexes (expression_params.cpp, index_key_validate.cpp).
  kTooManyHashedFields = 31303,
  kHashedIndexUnique = 16764,
  // getMore against a cursor of another session state
  // (getmore_cmd.cpp).
  kGetMoreInSessionOnSessionless = 50736,
  kGetMoreOutsideSession = 50737,
  // MongoDB reports too many indexes as CannotCreateIndex.
  kTooManyIndexes = kCannotCreateIndex,
};

// MongoDB's codeName for a code, as ErrorCodes::errorString gives it:
// "IndexOptionsConflict" for a named code, "Location<code>" for any other,
// "OK" for 0.
std::string MongoCodeName(int code);

// An error with a MongoDB code. `kind` is the absl code that best describes
// it (InvalidArgument for bad input, AlreadyExists for duplicates, ...).
absl::Status MongoError(absl::StatusCode kind, int mongo_code,
                        absl::string_view message);

// MongoError(kInvalidArgument, ...): the error of bad input (a malformed
// update, projection, ...).
absl::Status MongoInvalidArgument(int mongo_code, absl::string_view message);

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
